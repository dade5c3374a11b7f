"""Test networks with queued input on this partition; saves rank 0's results under NAME/FIELD:
mpiexec -n M python run_queued.py OUT.npz THREADS NAME..."""

import sys

import networks
import numpy as np

import ranvier as rv

out, threads, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
results = {}
for name in names:
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": 4, "queued_input": "on"})
    for k, v in getattr(networks, name)().items():
        results[f"{name}/{k}"] = v
if rv.Rank() == 0:
    np.savez(out, **results)
