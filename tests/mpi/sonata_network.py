"""Builds the test SONATA network (sonata_files.py) from the config given and prints, on rank
0, the number of connections on all ranks, a digest of them (each rank builds those of its own
targets) and a digest of the cells' spikes.

    mpiexec -n 2 python sonata_network.py <config.json> <threads> <hyperslab size>
"""

import hashlib
import sys

import numpy as np

import ranvier as nest
from ranvier import _state

config, threads, slab = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
nest.set(local_num_threads=threads)
net = nest.SonataNetwork(config)
cells = net.BuildNetwork(hdf5_hyperslab_size=slab)["cells"]
recorder = nest.Create("spike_recorder")
nest.Connect(cells, recorder)
net.Simulate()
connections = int(_state.state.kernel.allgather_doubles(np.array([float(nest.num_connections)])).sum())
values = nest.GetConnections(target=cells, gather=True).get(["source", "target", "weight", "delay"])
edges = np.array([values[k] for k in ("source", "target", "weight", "delay")], dtype=float)
edges = edges[:, np.lexsort(edges[::-1])]  # as a set: ranks list theirs in turn
wiring = hashlib.sha1(edges.tobytes()).hexdigest()
events = recorder.events
if nest.Rank() == 0:
    spikes = np.stack([events["senders"].astype(float), events["times"]])
    print(connections, wiring, len(events["times"]), hashlib.sha1(spikes.tobytes()).hexdigest())
