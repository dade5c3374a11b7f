"""A network recording spikes to an ascii file, its run in pieces (a streamed file); prints on
rank 0 the file's rows (a digest) and n_events, which every partition must give alike.

    mpiexec -n 2 python ascii_recording.py <data path> <threads>
"""

import hashlib
import sys

import ranvier as nest

nest.set(data_path=sys.argv[1], local_num_threads=int(sys.argv[2]), overwrite_files=True)
cells = nest.Create("iaf_psc_alpha", 300, params={"I_e": 376.0})
cells.V_m = nest.random.uniform(-70.0, -55.0)
nest.Connect(cells, cells, {"rule": "fixed_indegree", "indegree": 10}, {"weight": 20.0, "delay": 1.5})
recorder = nest.Create("spike_recorder", params={"record_to": "ascii", "label": "net"})
nest.Connect(cells, recorder)
with nest.RunManager():
    for _ in range(4):
        nest.Run(100.0)
if nest.Rank() == 0:
    with open(nest.GetStatus(recorder, "filenames")[0][0]) as f:
        rows = sorted(f.read().splitlines()[3:])
    print(len(rows), recorder.n_events, hashlib.sha1("\n".join(rows).encode()).hexdigest())
