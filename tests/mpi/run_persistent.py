"""The test networks with persistent collectives off and on, with overlap off and on, for the
methods that have fixed-block rounds, and a burst that grows the blocks (the persistent
collectives are set up again): mpiexec -n M python run_persistent.py OUT.npz.
Saves rank 0's results under NETWORK/METHOD/OVERLAP/PERSISTENT/FIELD."""

import sys

import numpy as np
from networks import brunel, burst, hines

import ranvier as rv


def bursts():
    """Two bursts: the first grows the blocks (the persistent collectives are set up again)."""
    sr = burst(n_echo=10, spike_times=(5.0, 12.0))
    return {
        "senders": sr.events["senders"],
        "times": sr.events["times"],
        "repeats": np.array([rv.GetKernelStatus("exchange_repeats")]),
    }


out = sys.argv[1]
results = {}
for name, build in {"brunel": brunel, "hines": hines, "burst": bursts}.items():
    for method in ("allgather", "alltoall"):
        for overlap in (False, True):
            for persistent in (False, True):
                rv.ResetKernel()
                rv.SetKernelStatus(
                    {
                        "local_num_threads": 2,
                        "rng_seed": 5,
                        "spike_exchange": method,
                        "overlap_exchange": overlap,
                        "persistent_exchange": persistent,
                    }
                )
                for k, v in build().items():
                    results[f"{name}/{method}/{overlap}/{persistent}/{k}"] = v
                counts = rv.GetKernelStatus("exchange_counts_all_ranks")
                results[f"counters/{name}/{method}/{overlap}/{persistent}"] = np.array(
                    [counts["sent"].sum(), counts["received"].sum()]
                )
if rv.Rank() == 0:
    np.savez(out, **results)
