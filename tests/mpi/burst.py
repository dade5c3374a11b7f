"""A burst far beyond the initial exchange buffers: every spike must still arrive.
mpiexec -n M python burst.py METHOD OUT.json"""
import json
import sys

import ranvier as rv

method, out = sys.argv[1], sys.argv[2]
rv.SetKernelStatus({"spike_exchange": method, "local_num_threads": 2})
drive = rv.Create("spike_generator", params={"spike_times": [5.0]})
burst = rv.Create("parrot_neuron", 1500)
echo = rv.Create("parrot_neuron", 60)
rv.Connect(drive, burst)
rv.Connect(burst, echo, "all_to_all", {"delay": 1.0})
sr = rv.Create("spike_recorder")
rv.Connect(echo, sr)
rv.Simulate(20.0)
status = rv.GetKernelStatus()
counts = rv.GetKernelStatus("exchange_counts_all_ranks")
result = {"events": int(len(sr.events["times"])), "times": sorted(set(sr.events["times"].tolist())),
          "repeats": status["exchange_repeats"], "log": status["exchange_log"],
          "sent": int(counts["sent"].sum()), "received": int(counts["received"].sum())}
if rv.Rank() == 0:
    with open(out, "w") as f:
        json.dump(result, f)
