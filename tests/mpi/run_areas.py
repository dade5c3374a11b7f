"""The two-area Brunel and MAM networks under round-robin and area placement, several D:
mpiexec -n M python run_areas.py OUT.npz THREADS. Saves rank 0's results."""

import sys

import numpy as np
from networks import mam, two_area_brunel

import ranvier as rv

out, threads = sys.argv[1], int(sys.argv[2])
results = {}
for net in (two_area_brunel, mam):
    for placement, max_d, method in (
        ("round_robin", 1, "auto"),
        ("area", 2**20, "auto"),
        ("area", 3, "allgather"),
        ("area", 2**20, "multisend"),
    ):
        if rv.NumProcesses() == 1 and method != "auto":
            continue
        rv.ResetKernel()
        rv.SetKernelStatus(
            {
                "rng_seed": 11,
                "placement": placement,
                "local_num_threads": threads,
                "max_D": max_d,
                "spike_exchange": method,
            }
        )
        key = f"{net.__name__}/{placement}-{max_d}-{method}"
        for k, v in net().items():
            results[f"{key}/{k}"] = v
        s = rv.GetKernelStatus()
        counts = rv.GetKernelStatus("exchange_counts_all_ranks")
        results[f"info/{key}"] = np.array(
            [s["D"], s["global_exchanges"], s["exchange_cycles"], counts["sent"].sum(), counts["received"].sum()]
        )
if rv.Rank() == 0:
    np.savez(out, **results)
