"""Reference traces of synapse models from NEST 3.10, for tests/test_synapse_models.py.

Run with the peers' interpreter (NEST is never imported by the test suite):
    /work/peers-venv/bin/python benchmarks/peers/nest_synapse_traces.py
The scenarios are stored with the traces, so the test rebuilds exactly what was run here:
- static_synapse_hom_w: two parrots spike into an iaf_psc_alpha through a common weight,
  which SetDefaults changes halfway; the membrane potential is recorded every step.
- stdp_pl_synapse_hom_hpc: a pre and a post parrot driven by spike trains; the weight after
  each pre spike (read between simulation steps, as tests/test_stdp.py does).
- tsodyks_synapse, tsodyks2_synapse, tsodyks_synapse_hom, ht_synapse: the record after each
  pre spike and the membrane potentials of the targets (STP below; the _hom model's common
  parameters set with SetDefaults first).
- stdp_synapse, stdp_synapse_hom: weights and K+ after each pre spike (the trains of
  stdp_pl_synapse_hom_hpc), for an excitatory and an inhibitory connection.
- bernoulli_synapse: the number of spikes that pass (NEST draws from its own generator, so
  the test compares statistics).
- vogels_sprekeler_synapse: weights and K+ after each pre spike (the trains of
  stdp_pl_synapse_hom_hpc), for a positive and a negative Wmax.
- quantal_stp_synapse: a parrot into an iaf_psc_delta (V_m steps by the weight) through many
  multapses: the sites released by all of them at each pre spike (statistics: NEST's own
  generator), for a depressing and a facilitating parameter set.
- stdp_facetshw_synapse_hom: two pre parrots into three post parrots (five connections, own
  thresholds, delays and weights; short readout cycles and tables of the scenario's own), all
  connections' weights, accumulators, synapse ids and next readout times every 10 ms.
- stdp_triplet_synapse: two pre parrots into three post parrots (receptor 1: they do not repeat
  the spikes), each post with its own tau_minus and tau_minus_triplet, five connections with
  their own parameters; weights and both pre traces every 10 ms.
- jonke_synapse: STDP's trains from a pre parrot into a post parrot (receptor 1), the model's
  common parameters set; the weight and K+ after each pre spike.
Writes tests/fixtures/nest_synapse_traces.json.
"""

import json
import pathlib

import nest

HOM_W = {
    "pre_times": [[2.0, 11.0, 25.0, 41.0, 44.0], [6.0, 11.0, 30.0, 47.0]],
    "delays": [1.0, 2.5],
    "weights": [60.0, -25.0],
    "t_switch": 35.0,
    "t_end": 60.0,
}
STDP = {
    "common": {"tau_plus": 15.0, "lambda": 0.1, "alpha": 0.0513, "mu": 0.4},
    "tau_minus": 30.0,
    "pre_times": [10.0, 24.0, 31.0, 52.0, 60.0, 83.0, 90.0],
    "post_times": [5.0, 12.0, 27.0, 29.0, 45.0, 55.0, 58.0, 70.0, 86.0],
    "weight": 40.0,
    "delay": 2.5,
}
# stdp_synapse (per connection) and stdp_synapse_hom (common): STDP's trains from a pre parrot
# into two post parrots, an excitatory connection and an inhibitory one (negative Wmax).
GUETIG = {"tau_plus": 15.0, "lambda": 0.05, "alpha": 1.2, "mu_plus": 0.5, "mu_minus": 0.8}
GUETIG_WEIGHTS = [(40.0, 80.0), (-30.0, -60.0)]  # (weight, Wmax)


# Short-term plasticity: one parrot into two iaf_psc_exp through a depressing and a
# facilitating synapse; a third, depressing like the first, joins at T_JOIN. The record
# (u, x and for tsodyks_synapse y) is read 2.5 ms after each pre spike, after its delivery.
STP = {
    "pre_times": [5.0, 15.0, 25.0, 30.0, 35.0, 40.0, 60.0, 100.0, 105.0, 150.0],
    "t_join": 50.0,
    "t_end": 160.0,
    "weight": 250.0,
    "delay": 1.0,
    "tsodyks_synapse": [
        {"U": 0.5, "tau_rec": 800.0, "tau_fac": 0.0, "tau_psc": 3.0},
        {"U": 0.1, "tau_rec": 100.0, "tau_fac": 1000.0, "tau_psc": 3.0},
    ],
    "tsodyks2_synapse": [
        {"U": 0.5, "u": 0.5, "tau_rec": 800.0, "tau_fac": 0.0},
        {"U": 0.1, "u": 0.1, "tau_rec": 100.0, "tau_fac": 1000.0},
    ],
    "tsodyks_synapse_hom": [{"u": 0.0}, {"u": 0.3, "x": 0.8, "y": 0.1}],
    "ht_synapse": [{"tau_P": 500.0, "delta_P": 0.125}, {"tau_P": 40.0, "delta_P": 0.5, "P": 0.8}],
    "common": {"tsodyks_synapse_hom": {"weight": 250.0, "U": 0.2, "tau_psc": 2.0, "tau_rec": 300.0, "tau_fac": 500.0}},
}
STATE = {
    "tsodyks_synapse": ["u", "x", "y"],
    "tsodyks2_synapse": ["u", "x"],
    "tsodyks_synapse_hom": ["u", "x", "y"],
    "ht_synapse": ["P"],
}
VOGELS = {"tau": 15.0, "eta": 0.02, "alpha": 1.5}
VOGELS_WEIGHTS = [(0.5, 1.0), (-0.2, -0.6)]  # (weight, Wmax)
QUANTAL = {
    "pre_times": [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 150.0, 160.0, 300.0, 310.0, 320.0, 500.0],
    "multapses": 400,
    "delay": 1.0,
    "sets": [
        {"U": 0.5, "u": 0.5, "tau_rec": 200.0, "tau_fac": 0.0, "n": 4, "a": 4},
        {"U": 0.1, "u": 0.1, "tau_rec": 50.0, "tau_fac": 300.0, "n": 4, "a": 4},
    ],
}
# a target whose V_m only sums its input: each pre spike adds the sites released (weight 1)
QUANTAL_TARGET = {"tau_m": 1e9, "V_th": 1e9, "E_L": 0.0, "V_m": 0.0, "V_reset": 0.0, "C_m": 1.0}
# bernoulli_synapse: one parrot spiking 400 times into a parrot through 25 multapses.
BERNOULLI = {"p_transmit": 0.3, "n_spikes": 400, "multapses": 25, "interval": 2.0}


def reset():
    nest.ResetKernel()
    nest.set(resolution=0.1, local_num_threads=1)


def hom_w():
    reset()
    s = HOM_W
    nest.CopyModel("static_synapse_hom_w", "hom", {"weight": s["weights"][0]})
    target = nest.Create("iaf_psc_alpha")
    for times, delay in zip(s["pre_times"], s["delays"]):
        drive = nest.Create("spike_generator", params={"spike_times": times})
        parrot = nest.Create("parrot_neuron")
        nest.Connect(drive, parrot, syn_spec={"delay": 1.0})
        nest.Connect(parrot, target, syn_spec={"synapse_model": "hom", "delay": delay})
    vm = nest.Create("voltmeter", params={"interval": 0.1})
    nest.Connect(vm, target)
    nest.Simulate(s["t_switch"])
    nest.SetDefaults("hom", {"weight": s["weights"][1]})
    nest.Simulate(s["t_end"] - s["t_switch"])
    ev = vm.events
    return {"times": list(ev["times"]), "V_m": list(ev["V_m"])}


def stdp_hpc():
    reset()
    s = STDP
    nest.CopyModel("stdp_pl_synapse_hom_hpc", "stdp", s["common"])
    drive_pre = nest.Create("spike_generator", params={"spike_times": s["pre_times"]})
    drive_post = nest.Create("spike_generator", params={"spike_times": s["post_times"]})
    pre, post = nest.Create("parrot_neuron"), nest.Create("parrot_neuron", params={"tau_minus": s["tau_minus"]})
    nest.Connect(drive_pre, pre, syn_spec={"delay": 1.0})
    nest.Connect(drive_post, post, syn_spec={"delay": 1.0})
    nest.Connect(pre, post, syn_spec={"synapse_model": "stdp", "weight": s["weight"], "delay": s["delay"]})
    weights = []
    for t in s["pre_times"]:
        nest.Simulate(t + 1.0 + 2 * s["delay"] + 1.0 - nest.biological_time)
        weights.append(nest.GetConnections(pre, post).weight)
    return {"weights": weights}


def guetig(model):
    reset()
    s = STDP
    drive_pre = nest.Create("spike_generator", params={"spike_times": s["pre_times"]})
    drive_post = nest.Create("spike_generator", params={"spike_times": s["post_times"]})
    pre = nest.Create("parrot_neuron")
    post = nest.Create("parrot_neuron", 2, params={"tau_minus": s["tau_minus"]})
    nest.Connect(drive_pre, pre, syn_spec={"delay": 1.0})
    nest.Connect(drive_post, post, syn_spec={"delay": 1.0})
    for k, (weight, w_max) in enumerate(GUETIG_WEIGHTS):
        if model == "stdp_synapse":
            spec = {"synapse_model": model, **GUETIG, "Wmax": w_max}
        else:
            nest.CopyModel(model, f"hom{k}", {**GUETIG, "Wmax": w_max})
            spec = {"synapse_model": f"hom{k}"}
        nest.Connect(pre, post[k], syn_spec={**spec, "weight": weight, "delay": s["delay"]})
    weights, k_plus = [], []
    for t in s["pre_times"]:
        nest.Simulate(t + 1.0 + 2 * s["delay"] + 1.0 - nest.biological_time)
        c = nest.GetConnections(pre)
        weights.append(list(c.weight))
        k_plus.append(list(c.get("Kplus")))
    return {"weights": weights, "Kplus": k_plus}


def short_term(model):
    reset()
    s = STP
    drive = nest.Create("spike_generator", params={"spike_times": s["pre_times"]})
    pre = nest.Create("parrot_neuron")
    nest.Connect(drive, pre, syn_spec={"delay": 1.0})
    targets = nest.Create("iaf_psc_exp", 3, params={"tau_syn_ex": 3.0})
    vm = nest.Create("voltmeter", params={"interval": 1.0})
    nest.Connect(vm, targets)
    nest.SetDefaults(model, s["common"].get(model, {}))

    def connect(k, params):  # the weight is the model's where it is common
        weight = {} if "weight" in s["common"].get(model, {}) else {"weight": s["weight"]}
        nest.Connect(pre, targets[k], syn_spec={"synapse_model": model, "delay": s["delay"], **weight, **params})

    connect(0, s[model][0])
    connect(1, s[model][1])
    state = {k: [] for k in range(3)}
    for t in s["pre_times"]:
        if nest.biological_time < s["t_join"] <= t + 2.5:
            nest.Simulate(s["t_join"] - nest.biological_time)
            connect(2, s[model][0])
        nest.Simulate(t + 2.5 - nest.biological_time)
        for k in range(3):
            c = nest.GetConnections(pre, targets[k])
            if len(c):
                state[k].append([c.get(name) for name in STATE[model]])
    nest.Simulate(s["t_end"] - nest.biological_time)
    ev = vm.events
    return {
        "state": [state[k] for k in range(3)],
        "senders": [int(x) - int(targets[0].global_id) for x in ev["senders"]],
        "times": list(ev["times"]),
        "V_m": list(ev["V_m"]),
    }


def bernoulli():
    reset()
    s = BERNOULLI
    times = [s["interval"] * (k + 1) for k in range(s["n_spikes"])]
    drive = nest.Create("spike_generator", params={"spike_times": times})
    pre, post = nest.Create("parrot_neuron"), nest.Create("parrot_neuron")
    nest.Connect(drive, pre, syn_spec={"delay": 1.0})
    for _ in range(s["multapses"]):
        nest.Connect(pre, post, syn_spec={"synapse_model": "bernoulli_synapse", "p_transmit": s["p_transmit"]})
    sr = nest.Create("spike_recorder")
    nest.Connect(post, sr)
    nest.Simulate(times[-1] + 5.0)
    return {"post_spikes": len(sr.events["times"])}


def vogels():
    reset()
    s = STDP
    drive_pre = nest.Create("spike_generator", params={"spike_times": s["pre_times"]})
    drive_post = nest.Create("spike_generator", params={"spike_times": s["post_times"]})
    pre = nest.Create("parrot_neuron")
    post = nest.Create("parrot_neuron", 2, params={"tau_minus": s["tau_minus"]})
    nest.Connect(drive_pre, pre, syn_spec={"delay": 1.0})
    nest.Connect(drive_post, post, syn_spec={"delay": 1.0})
    for k, (weight, w_max) in enumerate(VOGELS_WEIGHTS):
        nest.Connect(
            pre,
            post[k],
            syn_spec={
                "synapse_model": "vogels_sprekeler_synapse",
                **VOGELS,
                "Wmax": w_max,
                "weight": weight,
                "delay": s["delay"],
            },
        )
    weights, k_plus = [], []
    for t in s["pre_times"]:
        nest.Simulate(t + 1.0 + 2 * s["delay"] + 1.0 - nest.biological_time)
        c = nest.GetConnections(pre)
        weights.append(list(c.weight))
        k_plus.append(list(c.get("Kplus")))
    return {"weights": weights, "Kplus": k_plus}


def quantal():
    """Sites released at each pre spike by all multapses of each parameter set."""
    reset()
    s = QUANTAL
    drive = nest.Create("spike_generator", params={"spike_times": s["pre_times"]})
    pre = nest.Create("parrot_neuron")
    nest.Connect(drive, pre, syn_spec={"delay": 1.0})
    targets = nest.Create("iaf_psc_delta", len(s["sets"]), params=QUANTAL_TARGET)
    for k, params in enumerate(s["sets"]):
        nest.Connect(
            pre,
            targets[k],
            "all_to_all",
            {"synapse_model": "quantal_stp_synapse", "weight": 1.0, "delay": s["delay"], **params},
        )
        for _ in range(s["multapses"] - 1):
            nest.Connect(
                pre,
                targets[k],
                "all_to_all",
                {"synapse_model": "quantal_stp_synapse", "weight": 1.0, "delay": s["delay"], **params},
            )
    released, before = [], [0.0] * len(s["sets"])
    for t in s["pre_times"]:
        nest.Simulate(t + 1.0 + s["delay"] + 1.0 - nest.biological_time)  # delivered
        v = list(targets.V_m)
        released.append([a - b for a, b in zip(v, before)])
        before = v
    return {"released": released}


FACETS = {
    "common": {
        "tau_plus": 15.0,
        "tau_minus_stdp": 25.0,
        "Wmax": 60.0,
        "synapses_per_driver": 2,
        "driver_readout_time": 9.0,
        "lookuptable_2": [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
        "configbit_1": [1, 0, 0, 1],
        "reset_pattern": [1, 0, 0, 1, 1, 1],
    },
    "pre_times": [
        [10.0, 24.0, 31.0, 52.0, 60.0, 83.0, 90.0, 120.0, 135.0, 150.0, 171.0, 190.0, 204.0, 230.0, 251.0, 270.0],
        [15.0, 33.0, 47.0, 66.0, 95.0, 128.0, 160.0, 199.0, 240.0, 262.0],
    ],
    "post_times": [
        [5.0, 12.0, 27.0, 29.0, 45.0, 55.0, 58.0, 70.0, 86.0, 140.0, 155.0, 180.0, 210.0, 260.0],
        [20.0, 40.0, 62.0, 100.0, 131.0, 166.0, 201.0, 245.0],
        [8.0, 9.0, 36.0, 77.0, 110.0, 112.0, 175.0, 220.0, 275.0],
    ],
    # (pre, post, weight, delay, a_thresh_th, a_thresh_tl)
    "connections": [
        [0, 0, 20.0, 1.0, 1.5, 0.8],
        [0, 1, 40.0, 2.5, 0.6, 1.2],
        [0, 2, 60.0, 1.0, 2.5, 2.0],
        [1, 0, 0.0, 1.5, 0.9, 0.9],
        [1, 2, 33.0, 2.0, 1.1, 0.4],
    ],
    "t_end": 300.0,
}
FACETS_READ = ["weight", "a_causal", "a_acausal", "synapse_id", "next_readout_time"]


def facetshw():
    """Every connection's values every 10 ms, in the scenario's order of connections."""
    reset()
    s = FACETS
    nest.SetDefaults("stdp_facetshw_synapse_hom", s["common"])
    pre, post = nest.Create("parrot_neuron", 2), nest.Create("parrot_neuron", 3)
    for group, trains in ((pre, s["pre_times"]), (post, s["post_times"])):
        for node, times in zip(group, trains):
            nest.Connect(nest.Create("spike_generator", params={"spike_times": times}), node, syn_spec={"delay": 1.0})
    for i, j, weight, delay, th, tl in s["connections"]:
        nest.Connect(
            pre[i],
            post[j],
            syn_spec={
                "synapse_model": "stdp_facetshw_synapse_hom",
                "weight": weight,
                "delay": delay,
                "a_thresh_th": th,
                "a_thresh_tl": tl,
            },
        )
    trace = {key: [] for key in FACETS_READ}
    while nest.biological_time < s["t_end"]:
        nest.Simulate(10.0)
        conns = [nest.GetConnections(pre[i], post[j]) for i, j, *_ in s["connections"]]
        for key in FACETS_READ:
            trace[key].append([c.get(key) for c in conns])
    return trace


TRIPLET = {
    "pre_times": FACETS["pre_times"],
    "post_times": FACETS["post_times"],
    "post": [{"tau_minus": 33.7, "tau_minus_triplet": 125.0}, {}, {"tau_minus": 15.0, "tau_minus_triplet": 40.0}],
    # (pre, post, weight, delay, parameters)
    "connections": [
        [0, 0, 20.0, 1.0, {"Aplus": 0.4, "Aplus_triplet": 0.3, "Aminus": 0.25, "Aminus_triplet": 0.05}],
        [0, 1, 40.0, 2.5, {"Aplus": 0.6, "Aminus": 0.1, "Wmax": 45.0}],
        [0, 2, 60.0, 1.0, {"tau_plus": 10.0, "tau_plus_triplet": 70.0, "Aplus_triplet": 1.0, "Aminus": 0.5}],
        [1, 0, -5.0, 1.5, {"Wmax": -30.0, "Aplus": 0.2, "Aplus_triplet": 0.2, "Aminus_triplet": 0.1}],
        [1, 2, 33.0, 2.0, {"Kplus": 0.5, "Kplus_triplet": 1.5, "Aminus_triplet": 0.3}],
    ],
    "t_end": 300.0,
}
TRIPLET_READ = ["weight", "Kplus", "Kplus_triplet"]


def triplet():
    """Every connection's values every 10 ms, in the scenario's order of connections."""
    reset()
    s = TRIPLET
    pre = nest.Create("parrot_neuron", 2)
    post = nest.Create("parrot_neuron", 3)
    for node, params in zip(post, s["post"]):
        node.set(params)
    for group, trains in ((pre, s["pre_times"]), (post, s["post_times"])):
        for node, times in zip(group, trains):
            nest.Connect(nest.Create("spike_generator", params={"spike_times": times}), node, syn_spec={"delay": 1.0})
    for i, j, weight, delay, params in s["connections"]:
        syn = {"synapse_model": "stdp_triplet_synapse", "weight": weight, "delay": delay, "receptor_type": 1, **params}
        nest.Connect(pre[i], post[j], syn_spec=syn)
    trace = {key: [] for key in TRIPLET_READ}
    while nest.biological_time < s["t_end"]:
        nest.Simulate(10.0)
        conns = [nest.GetConnections(pre[i], post[j]) for i, j, *_ in s["connections"]]
        for key in TRIPLET_READ:
            trace[key].append([c.get(key) for c in conns])
    return trace


JONKE = {
    "common": {
        "tau_plus": 15.0,
        "lambda": 0.5,
        "alpha": 0.8,
        "beta": 0.02,
        "mu_plus": 0.03,
        "mu_minus": 0.02,
        "Wmax": 50.0,
    },
    "tau_minus": 30.0,
    "weight": 40.0,
    "delay": 2.5,
}


def jonke():
    reset()
    s = JONKE
    nest.SetDefaults("jonke_synapse", s["common"])
    drive_pre = nest.Create("spike_generator", params={"spike_times": STDP["pre_times"]})
    drive_post = nest.Create("spike_generator", params={"spike_times": STDP["post_times"]})
    pre, post = nest.Create("parrot_neuron"), nest.Create("parrot_neuron", params={"tau_minus": s["tau_minus"]})
    nest.Connect(drive_pre, pre, syn_spec={"delay": 1.0})
    nest.Connect(drive_post, post, syn_spec={"delay": 1.0})
    syn = {"synapse_model": "jonke_synapse", "weight": s["weight"], "delay": s["delay"], "receptor_type": 1}
    nest.Connect(pre, post, syn_spec=syn)
    weights, k_plus = [], []
    for t in STDP["pre_times"]:
        nest.Simulate(t + 1.0 + 2 * s["delay"] + 1.0 - nest.biological_time)
        weights.append(nest.GetConnections(pre, post).weight)
        k_plus.append(nest.GetConnections(pre, post).Kplus)
    return {"weights": weights, "Kplus": k_plus}


def main():
    out = {
        "nest_version": nest.__version__,
        "static_synapse_hom_w": {"scenario": HOM_W, **hom_w()},
        "stdp_pl_synapse_hom_hpc": {"scenario": STDP, **stdp_hpc()},
        "short_term": {"scenario": STP, "read": STATE, **{m: short_term(m) for m in STATE}},
        "bernoulli_synapse": {"scenario": BERNOULLI, **bernoulli()},
        "guetig": {
            "scenario": {"common": GUETIG, "weights": GUETIG_WEIGHTS},
            **{m: guetig(m) for m in ("stdp_synapse", "stdp_synapse_hom")},
        },
        "vogels_sprekeler_synapse": {"scenario": {"common": VOGELS, "weights": VOGELS_WEIGHTS}, **vogels()},
        "quantal_stp_synapse": {"scenario": {**QUANTAL, "target": QUANTAL_TARGET}, **quantal()},
        "stdp_facetshw_synapse_hom": {"scenario": FACETS, "read": FACETS_READ, **facetshw()},
        "stdp_triplet_synapse": {"scenario": TRIPLET, "read": TRIPLET_READ, **triplet()},
        "jonke_synapse": {
            "scenario": {**JONKE, "pre_times": STDP["pre_times"], "post_times": STDP["post_times"]},
            **jonke(),
        },
    }
    path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "nest_synapse_traces.json"
    path.write_text(json.dumps(out))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
