#!/usr/bin/env python3
"""Ranvier's hines beside NEURON 9 on the same network, one process and two MPI processes.

    python benchmarks/compare_neuron.py --n 16384            # four runs, one after the other
    python benchmarks/compare_neuron.py --n 16384 --processes 1,2 --table neuron.md

Compiles benchmarks/peers/asc.mod once into a temporary folder (removed at the end), then runs,
one at a time, for each process count P: ``python benchmarks/bench.py hines --n N --threads 1``
(under mpiexec -n P when P > 1) and ``benchmarks/peers/hines_neuron.py --n N`` (under mpiexec
with MPI_LIB_NRN_PATH set to the mpich wheel's libmpi.so.12, as PEERS.md says). Both use the
same in-degree array, weight 0, delay 1 ms, 200 ms. Prints every run's JSON and a markdown
table, then one JSON object with all runs on the last line. Needs `pip install neuron`.

Ranvier uses one thread per process here so that both simulators get the same cores.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.dirname(sys.executable)
sys.path.insert(0, os.path.join(HERE, "peers"))


def run_json(cmd, env=None, timeout=900):
    print("$ " + " ".join(cmd), file=sys.stderr, flush=True)
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        print(done.stderr[-3000:], file=sys.stderr)
        raise SystemExit(f"failed ({done.returncode}): {' '.join(cmd)}")
    last = [line for line in done.stdout.splitlines() if line.startswith("{")][-1]
    return json.loads(last)


def table(runs, n):
    lines = [
        f"hines, {n} cells, C = 1000 +- 50, weight 0, 200 ms; wall-clock seconds (maximum over ranks), "
        "rss summed over ranks. Setup: Ranvier create + connect + prepare (its one-off preparation in the "
        "first Simulate); NEURON create + connect + finitialize.",
        "",
        "| simulator | processes | exchange | setup | simulate | spikes | rate (Hz) | peak rss (MiB) |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        if r["simulator"] == "NEURON":
            setup = r["t_setup_s"] + r["t_finitialize_s"]
        else:
            setup = r["t_create_s"] + r["t_connect_s"] + r["t_prepare_s"]
        lines.append(
            f"| {r['simulator']} | {r['processes']} | {r['exchange']} | {setup:.2f} | {r['t_simulate_s']:.2f} "
            f"| {r['spikes']} | {r['rate_hz']:.2f} | {r['rss_peak_mib']:.0f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=16384, help="cells (default 16384)")
    p.add_argument("--processes", default="1,2", help="process counts, comma-separated (default 1,2)")
    p.add_argument("--exchange", default="auto", help="Ranvier's exchange method under MPI (default auto = alltoall)")
    p.add_argument("--table", metavar="FILE.md", help="also write the table to this file")
    p.add_argument("--from-output", metavar="FILE", help="only re-render the table of an earlier run's stdout")
    args = p.parse_args(argv)
    if args.from_output:
        with open(args.from_output) as f:
            last = [json.loads(x) for x in f if x.startswith('{"comparison"')][-1]
        print(table(last["runs"], last["n"]), end="")
        return 0

    from hines_neuron import compile_mechanisms

    mech = compile_mechanisms()
    env = dict(os.environ, OMP_WAIT_POLICY="passive")
    libmpi = os.path.join(os.path.dirname(BIN), "lib", "libmpi.so.12")
    if os.path.exists(libmpi):
        env["MPI_LIB_NRN_PATH"] = libmpi
    runs = []
    try:
        for procs in [int(x) for x in args.processes.split(",")]:
            mpi = [os.path.join(BIN, "mpiexec"), "-n", str(procs)] if procs > 1 else []
            ranvier = mpi + [
                sys.executable,
                str(Path(__file__).parent / "bench.py"),
                "hines",
                "--n",
                str(args.n),
                "--threads",
                "1",
            ]
            if procs > 1:
                ranvier += ["--exchange", args.exchange]
            neuron = mpi + [
                sys.executable,
                os.path.join(HERE, "peers", "hines_neuron.py"),
                "--n",
                str(args.n),
                "--mechanisms",
                mech,
            ]
            for name, cmd in (("Ranvier", ranvier), ("NEURON", neuron)):
                r = run_json(cmd, env)
                r["simulator"] = name
                print(json.dumps(r), flush=True)
                runs.append(r)
    finally:
        shutil.rmtree(mech, ignore_errors=True)

    text = table(runs, args.n)
    if args.table:
        with open(args.table, "w") as f:
            f.write(text)
    print("\n" + text, flush=True)
    print(json.dumps({"comparison": "hines_ranvier_neuron", "n": args.n, "runs": runs}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
