"""The test networks with overlap_exchange off and on, for the methods that overlap (multisend
with multisend_subintervals = 2):
mpiexec -n M python run_overlap.py OUT.npz THREADS. Saves rank 0's results under
NETWORK/METHOD/PLACEMENT/OVERLAP/FIELD, and each run's hidden time, min delay and D under hidden/...."""

import sys

import numpy as np
from networks import brunel, cable, hines, two_area_brunel

import ranvier as rv

out, threads = sys.argv[1], int(sys.argv[2])
runs = {
    "brunel": (brunel, ("round_robin",)),
    # Simulate calls that stop at the first epoch's end and inside the second epoch
    "brunel_pieces": (lambda: brunel(pieces=(5.5, 3.3, 31.2)), ("round_robin",)),
    "hines": (hines, ("round_robin",)),
    "two_area_brunel": (two_area_brunel, ("round_robin", "area")),
    "cable": (cable, ("round_robin",)),  # cable cells and point neurons
}
# multisend overlaps with two sub-intervals per min delay, in one phase or two
methods = [("allgather", 1), ("alltoall", 1), ("multisend", 1), ("multisend", 2)]
results = {}
for name, (build, placements) in runs.items():
    for method, phases in methods:
        for placement in placements:
            for overlap in (False, True):
                rv.ResetKernel()
                rv.SetKernelStatus(
                    {
                        "local_num_threads": threads,
                        "rng_seed": 11,
                        "placement": placement,
                        "spike_exchange": method,
                        "multisend_phases": phases,
                        "multisend_subintervals": 2,
                        "overlap_exchange": overlap,
                    }
                )
                key = f"{name}/{method}{phases}/{placement}/{overlap}"
                for k, v in build().items():
                    results[f"{key}/{k}"] = v
                s = rv.GetKernelStatus()
                counts = rv.GetKernelStatus("exchange_counts_all_ranks")
                results[f"hidden/{key}"] = np.array([s["time_communicate_hidden"], s["cycle"], s["D"]])
                results[f"counters/{key}"] = np.array([counts["sent"].sum(), counts["received"].sum()])
if rv.Rank() == 0:
    np.savez(out, **results)
