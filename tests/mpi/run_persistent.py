"""The test networks with persistent collectives off and on, with overlap off and on, for the
methods that have fixed-block rounds, and a burst that grows the blocks (the persistent
collectives are set up again): mpiexec -n M python run_persistent.py OUT.npz.
Saves rank 0's results under NETWORK/METHOD/OVERLAP/PERSISTENT/FIELD."""
import sys

import numpy as np

import ranvier as rv
from networks import brunel, hines


def burst():
    """1500 parrots fire at once: far beyond the blocks' initial capacity."""
    drive = rv.Create("spike_generator", params={"spike_times": [5.0, 12.0]})
    burst = rv.Create("parrot_neuron", 1500)
    echo = rv.Create("parrot_neuron", 10)
    rv.Connect(drive, burst)
    rv.Connect(burst, echo, "all_to_all", {"delay": 1.0})
    sr = rv.Create("spike_recorder")
    rv.Connect(echo, sr)
    rv.Simulate(20.0)
    return {"senders": sr.events["senders"], "times": sr.events["times"],
            "repeats": np.array([rv.GetKernelStatus("exchange_repeats")])}


out = sys.argv[1]
results = {}
for name, build in {"brunel": brunel, "hines": hines, "burst": burst}.items():
    for method in ("allgather", "alltoall"):
        for overlap in (False, True):
            for persistent in (False, True):
                rv.ResetKernel()
                rv.SetKernelStatus({"local_num_threads": 2, "rng_seed": 5, "spike_exchange": method,
                                    "overlap_exchange": overlap, "persistent_exchange": persistent})
                for k, v in build().items():
                    results[f"{name}/{method}/{overlap}/{persistent}/{k}"] = v
                counts = rv.GetKernelStatus("exchange_counts_all_ranks")
                results[f"counters/{name}/{method}/{overlap}/{persistent}"] = np.array(
                    [counts["sent"].sum(), counts["received"].sum()])
if rv.Rank() == 0:
    np.savez(out, **results)
