"""Rank 0's own connections of the hpc-like test network: mpiexec -n M python dry_run_connections.py OUT.npz"""

import sys

import numpy as np
from networks import small_hpc

import ranvier as rv

small_hpc(threads=2)
c = rv.GetConnections()
if rv.Rank() == 0:
    np.savez(sys.argv[1], source=c.source, target=c.target, weight=c.weight, delay=c.delay)
