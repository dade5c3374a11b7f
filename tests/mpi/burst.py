"""A burst far beyond the initial exchange buffers: every spike must still arrive.
mpiexec -n M python burst.py METHOD OUT.json"""

import json
import sys

from networks import burst

import ranvier as rv

method, out = sys.argv[1], sys.argv[2]
rv.SetKernelStatus({"spike_exchange": method, "local_num_threads": 2})
sr = burst()
status = rv.GetKernelStatus()
counts = rv.GetKernelStatus("exchange_counts_all_ranks")
result = {
    "events": int(len(sr.events["times"])),
    "times": sorted(set(sr.events["times"].tolist())),
    "repeats": status["exchange_repeats"],
    "log": status["exchange_log"],
    "sent": int(counts["sent"].sum()),
    "received": int(counts["received"].sum()),
}
if rv.Rank() == 0:
    with open(out, "w") as f:
        json.dump(result, f)
