"""Astrocytes (NEST's astrocyte_lr_1994) and the neurons they drive by slow inward currents
(aeif_cond_alpha_astro, through sic_connection), written against PyNEST's API so that NEST 3.10
(benchmarks/peers/nest_network_fixtures.py astrocytes) and Ranvier (tests/test_astrocytes.py)
build the same:

- three astrocytes: one at rest, one whose calcium starts above the SIC threshold, one whose IP3
  is driven up by spikes of a generator and by the neurons' spikes, with a current into its
  calcium (NEST's J_noise);
- four neurons: slow inward currents from the astrocytes with weights and delays of their own
  (off the cycle), a current that makes one fire, spikes of both signs at each, and the spikes
  of one neuron into the others;
- every recordable sampled every 0.5 ms, and the spikes.

tripartite() builds a network by TripartiteConnect (Ranvier only: NEST draws from another
generator) and gives its connections and spikes, to compare across partitions.

`mpiexec -n M python astrocyte_network.py CASE THREADS` (CASE: network or tripartite) prints
Ranvier's as JSON on rank 0."""

import json
import sys

import numpy as np

T = 400.0
ASTROCYTE = ["Ca_astro", "IP3", "h_IP3R"]
NEURON = ["I_SIC", "V_m", "g_ex", "g_in", "w"]
SIC = [  # astrocyte, neuron (positions), weight, delay
    (1, 0, 1.0, 1.0),
    (1, 1, 2.5, 2.3),
    (2, 1, 40.0, 1.7),
    (2, 2, 60.0, 0.4),
    (0, 3, 5.0, 1.0),
]


def run(nest, threads=1):
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads})
    astrocytes = nest.Create("astrocyte_lr_1994", 3)
    astrocytes[1].set({"Ca_astro": 0.23, "h_IP3R": 0.5})
    astrocytes[2].set({"IP3": 0.4, "delta_IP3": 0.002, "SIC_scale": 1.5})
    neurons = nest.Create("aeif_cond_alpha_astro", 4, params={"I_e": 400.0})
    neurons[3].set({"I_e": 900.0})
    for a, n, weight, delay in SIC:
        nest.Connect(
            astrocytes[a], neurons[n], syn_spec={"synapse_model": "sic_connection", "weight": weight, "delay": delay}
        )
    drive = nest.Create("spike_generator", params={"spike_times": [5.0, 20.0, 20.0, 33.3, 90.0, 150.0, 151.0]})
    nest.Connect(drive, astrocytes[2], syn_spec={"weight": 300.0, "delay": 1.0})
    nest.Connect(drive, neurons, syn_spec={"weight": 8.0, "delay": 2.0})
    nest.Connect(drive, neurons[:2], syn_spec={"weight": -12.0, "delay": 3.1})
    nest.Connect(neurons[3], astrocytes[2], syn_spec={"weight": 150.0, "delay": 1.5})
    nest.Connect(neurons[3], neurons[:3], syn_spec={"weight": 3.0, "delay": 1.2})
    calcium = nest.Create(
        "step_current_generator", params={"amplitude_times": [50.0, 120.0], "amplitude_values": [0.0004, 0.0]}
    )
    nest.Connect(calcium, astrocytes[2])
    sampled = {}
    for nodes, keys in ((astrocytes, ASTROCYTE), (neurons, NEURON)):
        mm = nest.Create("multimeter", params={"interval": 0.5, "record_from": keys})
        nest.Connect(mm, nodes)
        sampled[tuple(keys)] = mm
    sr = nest.Create("spike_recorder")
    nest.Connect(neurons, sr)
    nest.Simulate(T)
    out = {}
    for keys, mm in sampled.items():
        events = mm.get("events")
        order = np.lexsort([events["senders"], events["times"]])
        for k in ("times", "senders", *keys):
            out[f"{keys[0]}.{k}" if k in ("times", "senders") else k] = np.asarray(events[k], dtype=float)[
                order
            ].tolist()
    spikes = sr.get("events")
    order = np.lexsort([spikes["senders"], spikes["times"]])
    out["spikes.times"] = np.asarray(spikes["times"], dtype=float)[order].tolist()
    out["spikes.senders"] = np.asarray(spikes["senders"], dtype=float)[order].tolist()
    return out


def tripartite(nest, threads=1, pool_type="random"):
    """Neurons connected by pairwise_bernoulli, each connection paired with an astrocyte of its
    target's pool (random: 3 of 8; block: its 2), driven by Poisson input: its connections
    (source, target, synapse model, weight) and its spikes."""
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads, "rng_seed": 3})
    neurons = nest.Create("aeif_cond_alpha_astro", 20, params={"I_e": 500.0})
    astrocytes = nest.Create("astrocyte_lr_1994", 8 if pool_type == "random" else 40, params={"Ca_astro": 0.2})
    nest.TripartiteConnect(
        neurons,
        neurons,
        astrocytes,
        {"rule": "pairwise_bernoulli", "p": 0.3},
        {
            "rule": "third_factor_bernoulli_with_pool",
            "p": 0.6,
            "pool_type": pool_type,
            "pool_size": 3 if pool_type == "random" else 2,
        },
        {
            "primary": {"synapse_model": "tsodyks_synapse", "weight": 5.0},
            "third_in": {"weight": nest.random.uniform(100.0, 200.0)},
            "third_out": {"synapse_model": "sic_connection", "weight": nest.random.uniform(1.0, 3.0), "delay": 1.5},
        },
    )
    noise = nest.Create("poisson_generator", params={"rate": 3000.0})
    nest.Connect(noise, neurons, syn_spec={"weight": 2.0})
    sr = nest.Create("spike_recorder")
    nest.Connect(neurons, sr)
    nest.Simulate(300.0)
    c = nest.GetConnections(synapse_model=None, gather=True).get(["source", "target", "synapse_model", "weight"])
    connections = sorted(zip(c["source"], c["target"], c["synapse_model"], c["weight"]))
    events = sr.get("events")
    order = np.lexsort([events["senders"], events["times"]])
    return {
        "connections": [[int(s), int(t), m, float(w)] for s, t, m, w in connections],
        "spikes.times": np.asarray(events["times"], dtype=float)[order].tolist(),
        "spikes.senders": np.asarray(events["senders"], dtype=float)[order].tolist(),
    }


def fixture(nest):
    return run(nest)


if __name__ == "__main__":
    import ranvier

    case, threads = sys.argv[1], int(sys.argv[2])
    result = (
        run(ranvier, threads) if case == "network" else tripartite(ranvier, threads, case)
    )  # recorders' events come from every rank
    if ranvier.Rank() == 0:
        print(json.dumps(result))
