"""Runs the test networks under every exchange method and placement in this partition
(mpiexec -n M python run_partition.py OUT.npz THREADS [networks...]) and saves rank 0's results."""
import sys

import numpy as np

import ranvier as rv
from networks import NETWORKS

out, threads = sys.argv[1], int(sys.argv[2])
names = sys.argv[3:] or list(NETWORKS)
methods = [m for m in rv._kernel.exchange_methods() if m != "local"] if rv.NumProcesses() > 1 else ["local"]
results, counters = {}, {}
for name in names:
    for method in methods:
        phase_options = [1, 2] if method == "multisend" else [1]
        for phases in phase_options:
            for placement in ("round_robin", "consecutive", "random"):
                rv.ResetKernel()
                rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": 11, "placement": placement,
                                    "spike_exchange": method, "multisend_phases": phases})
                key = f"{name}/{method}{phases if method == 'multisend' else ''}/{placement}"
                for k, v in NETWORKS[name]().items():
                    results[f"{key}/{k}"] = v
                s = rv.GetKernelStatus()
                counters[key] = (s["spikes_sent"], s["spikes_received"], s["exchange_cycles"])
if rv.Rank() == 0:
    np.savez(out, **results, **{f"counters/{k}": np.array(v) for k, v in counters.items()})
