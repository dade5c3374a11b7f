"""ht_neuron cells written against PyNEST's API, so that NEST 3.10
(benchmarks/peers/nest_network_fixtures.py ht) and Ranvier (tests/test_ht_neuron.py) build
the same: one driven by a current to fire, one given spikes at every receptor (both signs at
AMPA), one with NMDA's instant unblocking, and one clamped while its synapses open; every
recordable sampled every millisecond, and the spikes."""

import numpy as np

T = 300.0
RECORDABLES = ["I_KNa", "I_NaP", "I_T", "I_h", "V_m", "g_AMPA", "g_GABA_A", "g_GABA_B", "g_NMDA", "theta"]
SPIKES = {1: [20.0, 60.3, 61.0, 150.0], 2: [30.0, 30.0, 80.0, 200.0], 3: [100.0, 180.5], 4: [120.0]}


def run(nest, threads=1):
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads})
    cells = nest.Create("ht_neuron", 4)
    cells[2].set({"instant_unblock_NMDA": True})
    cells[3].set({"V_m": -60.0, "equilibrate": True, "voltage_clamp": True})
    dc = nest.Create("dc_generator", params={"amplitude": 8.0, "start": 10.0, "stop": 250.0})
    nest.Connect(dc, cells[0])
    for receptor, times in SPIKES.items():
        sg = nest.Create("spike_generator", params={"spike_times": times})
        weights = [6.0, -0.4] if receptor == 1 else [3.0]
        for w in weights:
            nest.Connect(sg, cells[1:], syn_spec={"receptor_type": receptor, "weight": w, "delay": 1.0})
    mm = nest.Create("multimeter", params={"interval": 1.0, "record_from": RECORDABLES})
    sr = nest.Create("spike_recorder")
    nest.Connect(mm, cells)
    nest.Connect(cells, sr)
    nest.Simulate(T)
    events = mm.get("events")
    order = np.lexsort([events["senders"], events["times"]])
    out = {k: np.asarray(events[k], dtype=float)[order].tolist() for k in ["times", "senders", *RECORDABLES]}
    spikes = sr.get("events")
    out["spikes.times"] = np.sort(np.asarray(spikes["times"], dtype=float)).tolist()
    return out


def fixture(nest):
    return run(nest)
