"""Spikes in the last step of each epoch cross ranks with a delay of exactly min_delay:
mpiexec -n M python overlap_due.py OUT.json. Parrot pairs (source and target on different
ranks under round-robin placement) repeat a spike_generator's spikes; saves rank 0's view."""

import json
import sys

import ranvier as rv

out = sys.argv[1]
# min_delay 1.0 ms = 10 steps, epochs of 5 steps: parrot spikes at lag 4 (0.5 ms into a
# cycle: the first epoch's last step), lag 9 (1.0 ms: the cycle's last step) and lag 5
source_times = [2.5, 3.0, 3.6, 4.0, 4.5, 5.0, 7.5, 8.0]
results = {}
for method in ("allgather", "alltoall"):
    for overlap in (False, True):
        rv.ResetKernel()
        rv.SetKernelStatus({"spike_exchange": method, "overlap_exchange": overlap})
        gen = rv.Create("spike_generator", params={"spike_times": [t - 0.1 for t in source_times]})
        parrots = rv.Create("parrot_neuron", 2 * rv.NumProcesses())
        sources, targets = parrots[0::2], parrots[1::2]  # neighbours: on different ranks
        rv.Connect(gen, sources, syn_spec={"delay": 0.1})
        rv.Connect(sources, targets, "one_to_one", {"delay": 1.0})
        sr_s, sr_t = rv.Create("spike_recorder"), rv.Create("spike_recorder")
        rv.Connect(sources, sr_s)
        rv.Connect(targets, sr_t)
        rv.Simulate(10.0)
        results[f"{method}/{overlap}"] = {
            "cycle": rv.GetKernelStatus("cycle"),
            "source_times": sorted(sr_s.events["times"].tolist()),
            "target_times": sorted(sr_t.events["times"].tolist()),
            "n_sources": len(sources),
        }
if rv.Rank() == 0:
    with open(out, "w") as f:
        json.dump(results, f)
