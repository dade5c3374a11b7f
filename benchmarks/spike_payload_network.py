#!/usr/bin/env python3
"""Cost of spikes that carry a number (kernel/spike_payloads.hpp): a recurrent network of
10,000 iaf_tum_2000 cells (indegree 100 at receptor_type 1, each spike's released resource
scaling its weight) against the same network of iaf_psc_exp, Ranvier and, with --nest-python,
NEST 3.10 in the same invocation. Two threads, 500 ms after 50 ms of warm-up, two runs each;
prints one JSON object with the seconds and the kernel's spike counts.

    python benchmarks/spike_payload_network.py --nest-python /work/peers-nest/bin/python
"""

import argparse
import json
import subprocess
import sys
import time

RUN = r"""
import json, sys, time
if sys.argv[1] == "nest":
    import nest
    nest.set_verbosity("M_ERROR")
else:
    import ranvier as nest
out = {}
for rep in range(2):
    for model, receptor in (("iaf_psc_exp", 0), ("iaf_tum_2000", 1)):
        nest.ResetKernel()
        nest.local_num_threads = 2
        cells = nest.Create(model, 10000, params={"I_e": 300.0})
        noise = nest.Create("poisson_generator", params={"rate": 8000.0})
        nest.Connect(noise, cells, syn_spec={"weight": 20.0})
        nest.Connect(cells, cells, {"rule": "fixed_indegree", "indegree": 100},
                     {"weight": 5.0, "delay": 1.5, "receptor_type": receptor})
        nest.Simulate(50.0)
        t = time.perf_counter()
        nest.Simulate(500.0)
        out.setdefault(model, []).append([round(time.perf_counter() - t, 3), nest.GetKernelStatus("local_spike_counter")])
print(json.dumps(out))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nest-python", help="the interpreter that has NEST 3.10")
    args = parser.parse_args()
    runs = {"ranvier": [sys.executable, "ranvier"]}
    if args.nest_python:
        runs["nest"] = [args.nest_python, "nest"]
    result = {"benchmark": "spike_payload_network", "unit": "s for 500 ms, [s, spikes] per run"}
    for name, (python, simulator) in runs.items():
        start = time.perf_counter()
        out = subprocess.run([python, "-c", RUN, simulator], capture_output=True, text=True, check=True).stdout
        result[name] = json.loads(out.strip().splitlines()[-1])
        result[f"{name}_wall_s"] = round(time.perf_counter() - start, 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
