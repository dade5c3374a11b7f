"""Writes tests/fixtures/pynn_nest.json: a deterministic PyNN script run on pyNN.nest (PyNN 0.13,
NEST 3.10), for tests/test_pynn.py to run on pyNN.ranvier and compare. Spike sources at given
times drive the standard cells through the deterministic connectors (AllToAll, OneToOne,
FromList), the weight dependences of STDP, GIF_cond_exp, and composed cells (PointNeuron: AdExp with alpha and beta conductance receptors,
LIF with current receptors) through named receptors, with static, Tsodyks-Markram and STDP
synapses, a DC and a step current; it records
spikes, membrane potentials and conductances, reads weights back, resets and runs again; with
spike times on the grid and off it (PyNN's spike_precision).

    /work/peers-nest/bin/python benchmarks/peers/pynn_nest_fixture.py
"""

import json
import os

import numpy as np

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "pynn_nest.json")
CELLS = ("IF_curr_alpha", "IF_curr_exp", "IF_cond_alpha", "IF_cond_exp", "EIF_cond_exp_isfa_ista",
         "EIF_cond_alpha_isfa_ista", "Izhikevich", "HH_cond_exp", "IF_facets_hardware1")  # fmt: skip
# (IF_cond_exp_gsfa_grr is left out: pyNN.nest cannot make it, its variable_map lacks PyNN's g_r)
PRECISIONS = ("on_grid", "off_grid")  # pyNN.nest's spike_precision; off_grid is its default
WEIGHT = {"IF_curr_alpha": 1.5, "IF_curr_exp": 1.5, "Izhikevich": 0.05}  # nA; conductances 0.05 uS


def composed(sim):
    """PointNeuron cell types by label: (cell type, receptor state variable, AMPA and GABA weights)."""
    adex = {"tau_m": 10.0, "v_rest": -60.0, "i_offset": 0.4}
    return {
        "AdExp_alpha": (
            sim.PointNeuron(
                sim.AdExp(**adex),
                AMPA=sim.AlphaPSR(tau_syn=1.0, e_syn=0.0),
                GABA=sim.AlphaPSR(tau_syn=4.0, e_syn=-75.0),
            ),  # fmt: skip
            "gsyn",
            0.02,
            0.05,
        ),
        "AdExp_beta": (
            sim.PointNeuron(
                sim.AdExp(**adex),
                AMPA=sim.BetaPSR(tau_rise=0.5, tau_decay=2.0, e_syn=0.0),
                GABA=sim.BetaPSR(tau_rise=1.0, tau_decay=8.0, e_syn=-75.0),
            ),  # fmt: skip
            "gsyn",
            0.02,
            0.05,
        ),
        "LIF_exp": (
            sim.PointNeuron(
                sim.LIF(tau_m=10.0, v_rest=-60.0, i_offset=1.0),
                AMPA=sim.CurrExpPostSynapticResponse(tau_syn=1.0),
                GABA=sim.CurrExpPostSynapticResponse(tau_syn=5.0),
            ),  # fmt: skip
            "isyn",
            1.0,
            -0.5,
        ),
    }


def scenario(sim, spike_precision):
    sim.setup(timestep=0.1, min_delay=0.1, t_flush=200.0, spike_precision=spike_precision)
    source = sim.Population(3, sim.SpikeSourceArray(spike_times=[[5.0, 15.0, 40.0], [7.3, 22.0], [30.0, 31.0, 32.0]]))
    source.record("spikes")
    out = {}
    populations = {}
    for name in CELLS:
        cells = sim.Population(3, getattr(sim, name)(), label=name)
        cells.record(["spikes", "v"])
        weight = WEIGHT.get(name, 0.05)
        sim.Projection(source, cells, sim.AllToAllConnector(), sim.StaticSynapse(weight=weight, delay=1.0))
        populations[name] = cells
    for name, (celltype, state, ampa, gaba) in composed(sim).items():
        cells = sim.Population(2, celltype, label=name)
        cells.record(["spikes", "v", f"AMPA.{state}", f"GABA.{state}"])
        for receptor, weight, pre in (("AMPA", ampa, source[0:2]), ("GABA", gaba, source[2:3])):
            synapse = sim.StaticSynapse(weight=weight, delay=1.0)
            sim.Projection(pre, cells, sim.AllToAllConnector(), synapse, receptor_type=receptor)
        populations[name] = cells
    # GIF_cond_exp with an escape rate so steep that its firing is certain (its lists per cell)
    gif = sim.Population(2, sim.GIF_cond_exp(i_offset=0.5, delta_v=1e-4, v_t_star=-50.0, lambda0=1e9,
                                             tau_eta=(8.0, 150.0), a_eta=(0.04, 0.008),
                                             tau_gamma=(15.0, 120.0), a_gamma=(4.0, 1.5)), label="GIF_cond_exp")  # fmt: skip
    gif.record(["spikes", "v", "i_eta", "v_t"])
    sim.Projection(source, gif, sim.AllToAllConnector(), sim.StaticSynapse(weight=0.01, delay=1.0))
    populations["GIF_cond_exp"] = gif
    dc = sim.DCSource(amplitude=0.8, start=20.0, stop=45.0)
    dc.inject_into(populations["IF_curr_exp"][0:1])
    step = sim.StepCurrentSource(times=[10.0, 25.0], amplitudes=[0.6, 0.0])
    step.inject_into(populations["IF_curr_alpha"][1:2])
    populations["IF_cond_exp"].record("gsyn_exc")
    tm = sim.Projection(source, populations["IF_cond_alpha"], sim.OneToOneConnector(),
                        sim.TsodyksMarkramSynapse(weight=0.08, delay=0.5, U=0.5, tau_rec=50.0, tau_facil=0.0))  # fmt: skip
    stdp = sim.STDPMechanism(timing_dependence=sim.SpikePairRule(tau_plus=20.0, tau_minus=20.0, A_plus=0.01, A_minus=0.012),
                             weight_dependence=sim.AdditiveWeightDependence(w_min=0.0, w_max=2.0), weight=1.0, delay=1.0)  # fmt: skip
    plastic = sim.Projection(source, populations["IF_curr_exp"], sim.FromListConnector([(0, 1), (1, 2), (2, 1)]), stdp)
    # mu_plus and mu_minus at PyNN's defaults: pyNN.nest drops the values given (it always sets 0.5)
    dependences = {"gutig": sim.GutigWeightDependence(w_min=0.0, w_max=0.2, mu_plus=0.5, mu_minus=0.5),
                   "apmd": sim.AdditivePotentiationMultiplicativeDepression(w_min=0.0, w_max=0.2)}  # fmt: skip
    more_plastic = {
        name: sim.Projection(
            source,
            populations["IF_cond_exp"],
            sim.AllToAllConnector(),
            sim.STDPMechanism(
                timing_dependence=sim.SpikePairRule(tau_plus=15.0, tau_minus=25.0, A_plus=0.05, A_minus=0.04),
                weight_dependence=dependence,
                weight=0.1,
                delay=1.0,
            ),
        )  # fmt: skip
        for name, dependence in dependences.items()
    }
    sim.run(60.0)
    for name, cells in list(populations.items()) + [("source", source)]:
        segment = cells.get_data().segments[0]
        out[name] = {"spikes": [np.asarray(t.magnitude).round(9).tolist() for t in segment.spiketrains]}
        for signal in segment.analogsignals:
            values = np.asarray(signal.magnitude)
            out[name][signal.name] = values[::50].round(6).tolist()  # every 5 ms
    out["tsodyks_weights"] = np.asarray(tm.get("weight", format="list", with_address=False)).round(9).tolist()
    out["stdp_weights"] = np.asarray(plastic.get("weight", format="list", with_address=False)).round(9).tolist()
    for name, projection in more_plastic.items():
        weights = projection.get("weight", format="list", with_address=False)
        out[f"stdp_weights_{name}"] = np.asarray(weights).round(9).tolist()
    sim.reset()
    sim.run(50.0)
    out["after_reset"] = {
        name: [np.asarray(t.magnitude).round(9).tolist() for t in populations[name].get_data().segments[1].spiketrains]
        for name in ("IF_curr_alpha", "IF_cond_exp")
    }
    sim.end()
    return out


if __name__ == "__main__":
    import nest
    import pyNN.nest as sim

    results = {precision: scenario(sim, precision) for precision in PRECISIONS}
    with open(FIXTURE, "w") as f:
        json.dump({"nest_version": nest.__version__, "results": results}, f)
        f.write("\n")
