"""The network tests/test_urbanczik.py runs on Ranvier and benchmarks/peers/nest_scenario_fixtures.py
on NEST 3.10: pp_cond_exp_mc_urbanczik neurons (the parameters of NEST's own test, set as
per-compartment dicts) whose rate function is so low that neither simulator draws a spike, so
that their spike-free prediction error still drives their urbanczik synapses: parrots of spike
trains at the dendrite through urbanczik synapses at two delays, spike trains at the other three
receptors, a current into the soma. Every recordable every 0.5 ms and every weight the synapses
transmit."""

from scenario_recording import record

T_SIM = 300.0
PARAMS = {
    "t_ref": 3.0,
    "g_sp": 600.0,
    "soma": {"V_m": -70.0, "C_m": 300.0, "E_L": -70.0, "g_L": 30.0, "E_ex": 0.0, "E_in": -75.0, "tau_syn_ex": 3.0},
    "dendritic": {"V_m": -70.0, "C_m": 300.0, "E_L": -70.0, "g_L": 30.0, "tau_syn_ex": 3.0, "tau_syn_in": 2.0},
    "phi_max": 1e-9,
    "rate_slope": 0.5,
    "beta": 1.0 / 3.0,
    "theta": -55.0,
}
RECORDABLES = ["V_m.s", "g_ex.s", "g_in.s", "V_m.p", "I_ex.p", "I_in.p"]
PRE = [[1.0, 20.3, 55.0, 98.0, 140.1, 200.0, 260.0], [5.0, 33.3, 77.0, 150.0, 151.0, 230.0]]


def run(sim, threads=1):
    sim.ResetKernel()
    sim.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads})
    cells = sim.Create("pp_cond_exp_mc_urbanczik", 2, params=PARAMS)
    cells[1].set({"g_ps": 20.0, "soma": {"I_e": 150.0}})
    receptors = sim.GetDefaults("pp_cond_exp_mc_urbanczik")["receptor_types"]
    parrots = sim.Create("parrot_neuron", 2)
    for k in range(2):
        sim.Connect(sim.Create("spike_generator", params={"spike_times": PRE[k]}), parrots[k], syn_spec={"delay": 0.1})
    wr = sim.Create("weight_recorder")
    sim.CopyModel("urbanczik_synapse", "urbanczik_rec", {"weight_recorder": wr})
    for k, delay in enumerate((0.1, 1.0)):
        syn = {"synapse_model": "urbanczik_rec", "receptor_type": receptors["dendritic_exc"], "weight": 100.0,
               "delay": delay, "eta": 4e6 + 2e6 * k, "tau_Delta": 50.0, "Wmax": 1350.0}  # fmt: skip
        sim.Connect(parrots[k], cells, syn_spec=syn)
    for name, weight, start in (("soma_exc", 8.0, 10.0), ("soma_inh", 5.0, 60.0), ("dendritic_inh", 300.0, 120.0)):
        train = sim.Create("spike_generator", params={"spike_times": [start + 4.7 * j for j in range(8)]})
        sim.Connect(train, cells, syn_spec={"receptor_type": receptors[name], "weight": weight, "delay": 0.5})
    step = sim.Create("dc_generator", params={"amplitude": 200.0, "start": 100.0, "stop": 180.0})
    sim.Connect(step, cells, syn_spec={"receptor_type": receptors["soma_curr"]})
    out = record(sim, cells, RECORDABLES, T_SIM, interval=0.5)
    events = wr.get("events")
    for key in ("senders", "targets", "times", "weights"):
        out[f"wr_{key}"] = [float(v) for v in events[key]]
    return out
