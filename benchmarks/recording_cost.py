"""What recording spikes costs a run, by backend, under MPI: 5,000 iaf_psc_alpha cells at
about 40 spikes/s (fixed in-degree 20), one spike_recorder of all of them, a Simulate of
--time ms after 10 ms of warm-up, each backend in a fresh `mpiexec -n P` run, alternating
backends over --repeats rounds. Prints one JSON object: per backend the Simulate times (wall
s, rank 0) and the spikes recorded. "memory" includes the gather of every rank's spikes to
rank 0 after each Simulate; "sonata" and "ascii" add rank 0's writing of them (streamed in
pieces of about a second, docs/sonata.md and docs/pynest_compatibility.md).

    python benchmarks/recording_cost.py [--processes 2] [--time 5000] [--repeats 2]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

BACKENDS = ("none", "memory", "sonata", "ascii")


def case(backend, t_sim, folder):
    import ranvier as nest

    nest.set(data_path=folder, overwrite_files=True)
    cells = nest.Create("iaf_psc_alpha", 5000, params={"I_e": 400.0})
    cells.V_m = nest.random.uniform(-70.0, -55.0)
    nest.Connect(cells, cells, {"rule": "fixed_indegree", "indegree": 20}, {"weight": 5.0, "delay": 1.5})
    recorder = None
    if backend != "none":
        recorder = nest.Create("spike_recorder", params={"record_to": backend, "label": f"cost_{backend}"})
        nest.Connect(cells, recorder)
    nest.Simulate(10.0)
    start = time.perf_counter()
    nest.Simulate(t_sim)
    elapsed = time.perf_counter() - start
    if nest.Rank() == 0:
        print(json.dumps({"simulate_s": elapsed, "spikes": int(recorder.n_events) if recorder else 0}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--time", type=float, default=5000.0)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--case", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        return case(args.case[0], float(args.case[1]), args.case[2])
    mpiexec = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    out = {"processes": args.processes, "time_ms": args.time, "backends": {b: {"simulate_s": []} for b in BACKENDS}}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.repeats):
            for backend in BACKENDS:
                command = [mpiexec, "-n", str(args.processes), sys.executable, __file__, "--case", backend,
                           str(args.time), folder]  # fmt: skip
                line = (
                    subprocess.run(command, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
                )
                result = json.loads(line)
                out["backends"][backend]["simulate_s"].append(round(result["simulate_s"], 3))
                out["backends"][backend]["spikes"] = result["spikes"]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
