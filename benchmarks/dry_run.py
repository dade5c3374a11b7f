#!/usr/bin/env python3
"""hpc dry runs: memory and construction time per rank of an M-process run, on one process.

    python benchmarks/dry_run.py                                   # the cases below
    python benchmarks/dry_run.py --cases 28672:1000,28672:17778 --table dry.md

Each case M:S runs ``python benchmarks/bench.py hpc --dry-run M --scale S --time 20 --warmup 10``
in its own process (one after the other), which builds and simulates the share of rank 0 of an
M-process run of NEST's hpc_benchmark at scale S (N = 11,250 S neurons, K = 11,250 inputs each,
STDP on E->E). Default cases: Ippen et al.'s (2017) large case (M = 28,672, S = 17,778: 2e8 neurons, ~7,000
per rank), the same M at S = 1,000 and 5,000, and M = 1,024 and 4,096 at the scales that give
about the same neurons per rank (S = 635 and 2,540). Prints every case's JSON, then a markdown
table and one JSON object with all cases on the last line. All figures are rank 0's.
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

CASES = "1024:635,4096:2540,28672:1000,28672:5000,28672:17778"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", default=CASES, help=f"M:scale pairs, comma-separated (default {CASES})")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--time", type=float, default=20.0)
    p.add_argument("--warmup", type=float, default=10.0)
    p.add_argument("--timeout", type=float, default=900.0, help="seconds per case (default 900)")
    p.add_argument("--extra", default="", help="further options for ranvier_bench, e.g. '--no-stdp'")
    p.add_argument("--table", metavar="FILE.md")
    args = p.parse_args(argv)

    results = []
    for case in args.cases.split(","):
        m, s = case.split(":")
        cmd = [
            sys.executable,
            str(Path(__file__).parent / "bench.py"),
            "hpc",
            "--dry-run",
            m,
            "--scale",
            s,
            "--time",
            str(args.time),
            "--warmup",
            str(args.warmup),
            "--threads",
            str(args.threads),
            *args.extra.split(),
        ]
        print("$ " + " ".join(cmd), file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            results.append({"dry_run": int(m), "scale": float(s), "error": f"timeout after {args.timeout} s"})
            continue
        wall = time.perf_counter() - t0
        lines = [x for x in done.stdout.splitlines() if x.startswith("{")]
        if done.returncode != 0 or not lines:
            results.append(
                {
                    "dry_run": int(m),
                    "scale": float(s),
                    "error": done.stderr[-2000:],
                    "returncode": done.returncode,
                    "wall_s": wall,
                }
            )
            print(json.dumps(results[-1]), flush=True)
            continue
        r = json.loads(lines[-1])
        r["process_wall_s"] = wall
        for k in (
            "phases_per_rank_s",
            "rss_per_rank_mib",
            "rss_peak_per_rank_mib",
            "spikes_sent_per_rank",
            "spikes_received_per_rank",
            "t_simulate_per_rank_s",
        ):
            r.pop(k, None)
        results.append(r)
        print(json.dumps(r), flush=True)

    lines = [
        "hpc dry runs (rank 0's share of an M-process run, on one process, "
        f"{args.threads} threads); times in s, memory in MiB, all per rank.",
        "",
        "| M | scale | neurons | per rank | synapses per rank | create | connect | prepare | construction "
        "| rss after build | rss peak | simulate 20 ms | process wall |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        if "error" in r:
            lines.append(f"| {r['dry_run']} | {r['scale']:g} | failed: {r['error'][-200:]!r} |")
            continue
        construction = r["t_create_s"] + r["t_connect_s"] + r["t_prepare_s"]
        lines.append(
            f"| {r['dry_run']} | {r['scale']:g} | {r['neurons']:,} | {r['rank0_neurons']:,} "
            f"| {r['num_connections']:,} | {r['t_create_s']:.2f} | {r['t_connect_s']:.2f} "
            f"| {r['t_prepare_s']:.2f} | {construction:.1f} | {r['rss_after_build_mib']:.0f} "
            f"| {r['rss_peak_mib']:.0f} | {r['t_simulate_s']:.2f} | {r['process_wall_s']:.0f} |"
        )
    text = "\n".join(lines) + "\n"
    if args.table:
        with open(args.table, "w") as f:
            f.write(text)
    print("\n" + text, flush=True)
    print(json.dumps({"comparison": "hpc_dry_run", "cases": results}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
