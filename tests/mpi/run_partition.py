"""Runs the test networks under every exchange method and placement of this partition and
saves rank 0's results: mpiexec -n M python run_partition.py OUT.npz THREADS [networks...].
Up to two processes, every method with every placement; on more (oversubscribed on a small
machine), each method with one placement in turn, every placement among them."""

import sys

import numpy as np
from networks import NETWORKS

import ranvier as rv

out, threads = sys.argv[1], int(sys.argv[2])
names = sys.argv[3:] or list(NETWORKS)
methods = [(m, 1) for m in rv._kernel.exchange_methods() if m != "local"] + [("multisend", 2)]
if rv.NumProcesses() == 1:
    methods.append(("local", 1))
results = {}
PLACEMENTS = ("round_robin", "consecutive", "random")
for name in names:
    for i, (method, phases) in enumerate(methods):
        for placement in PLACEMENTS if rv.NumProcesses() <= 2 else [PLACEMENTS[i % len(PLACEMENTS)]]:
            rv.ResetKernel()
            rv.SetKernelStatus(
                {
                    "local_num_threads": threads,
                    "rng_seed": 11,
                    "placement": placement,
                    "spike_exchange": method,
                    "multisend_phases": phases,
                }
            )
            key = f"{name}/{method}{phases}/{placement}"
            for k, v in NETWORKS[name]().items():
                results[f"{key}/{k}"] = v
            counts = rv.GetKernelStatus("exchange_counts_all_ranks")
            results[f"counters/{key}"] = np.array([counts["sent"].sum(), counts["received"].sum()])
if rv.Rank() == 0:
    np.savez(out, **results)
