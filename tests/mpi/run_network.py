"""Runs one network of networks.py on this partition and saves rank 0's results:
mpiexec -n M python run_network.py OUT.npz THREADS NAME."""

import sys

import networks
import numpy as np

import ranvier as rv

out, threads, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rv.ResetKernel()
rv.SetKernelStatus({"local_num_threads": threads})
results = getattr(networks, name)()
if rv.Rank() == 0:
    np.savez(out, **results)
    print("processes", rv.NumProcesses())
