"""A recurrent network of NEST's binary neurons (ginzburg, McCulloch-Pitts and erfc), driven
by currents and a spike generator, with a spin detector and a multimeter: to compare across
partitions (tests/test_binary_neurons.py).

`mpiexec -n M python binary_network.py THREADS` prints Ranvier's as JSON on rank 0."""

import json
import sys

import numpy as np


def run(nest, threads=1):
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads, "rng_seed": 7})
    ginzburg = nest.Create("ginzburg_neuron", 60, params={"tau_m": 5.0, "theta": 0.5, "c_1": 0.05, "c_3": 2.0})
    mcp = nest.Create("mcculloch_pitts_neuron", 30, params={"tau_m": 3.0, "theta": 0.2})
    erfc = nest.Create("erfc_neuron", 30, params={"tau_m": 4.0, "theta": 0.3, "sigma": 0.5})
    neurons = ginzburg + mcp + erfc
    nest.Connect(neurons, neurons, {"rule": "fixed_indegree", "indegree": 10}, {"weight": 0.3, "delay": 1.0})
    nest.Connect(erfc, neurons, {"rule": "fixed_indegree", "indegree": 5}, {"weight": -0.4, "delay": 1.5})
    drive = nest.Create("dc_generator", params={"amplitude": 0.4, "start": 20.0, "stop": 120.0})
    nest.Connect(drive, neurons)
    pairs = nest.Create("spike_generator", params={"spike_times": [10.0, 10.0, 60.0]})  # up at 10, down at 60
    nest.Connect(pairs, mcp, syn_spec={"weight": 0.5})
    spins = nest.Create("spin_detector")
    nest.Connect(neurons, spins)
    mm = nest.Create("multimeter", params={"record_from": ["S", "h"], "interval": 1.0})
    nest.Connect(mm, neurons[::10])
    nest.Simulate(200.0)
    out = {}
    for name, recorder, keys in (
        ("spins", spins, ("senders", "times", "state")),
        ("mm", mm, ("senders", "times", "S", "h")),
    ):
        events = recorder.get("events")
        order = np.lexsort([events["senders"], events["times"]])
        for k in keys:
            out[f"{name}.{k}"] = np.asarray(events[k], dtype=float)[order].tolist()
    return out


if __name__ == "__main__":
    import ranvier

    result = run(ranvier, int(sys.argv[1]))  # recorders' events come from every rank
    if ranvier.Rank() == 0:
        print(json.dumps(result))
