#!/usr/bin/env python3
"""Every spike exchange method on the same networks, in one MPI run.

    OMP_WAIT_POLICY=passive mpiexec -n 2 python benchmarks/compare_exchange.py --threads 1
    ... --table exchange.md --hines-n 16384 --brunel-scale 0.5 --repeats 3

Runs hines (Hines et al.'s (2011) artificial cells, weight 0), hines-adjacent (the same cells with the
adjacent topology and consecutive placement, so most spikes stay on their rank) and
brunel-small once per method (allgather, alltoall, multisend, multisend with two phases, rma;
the kernel is reset between runs), repeated --repeats times (default 3 for the hines runs,
1 for brunel-small) in rotation (method order A B C ..., A B C ...) so that a slow spell of the
machine does not hit one method only. Prints, on rank 0, one JSON object on one line and then
a markdown table (or writes the table to --table FILE.md instead, and then the JSON is the last
line). The JSON has the per-method figures side by side: the median over repeats of
the measured simulation time and of every phase (each phase the maximum over ranks, as
ranvier_bench reports it), plus every repeat's raw numbers. Spike counts must be identical for
every method (the kernel's results do not depend on the exchange); "spikes_identical" checks it.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

from ranvier_bench import common, hines
from ranvier_bench import parser as bench_parser
from ranvier_bench import run as run_brunel

import ranvier as rv

METHODS = ("allgather", "alltoall", "multisend", "multisend2", "rma")
# allgather-persistent, alltoall-persistent: the method with persistent_exchange
PERSISTENT = "-persistent"
PHASES = common.PHASES


def options(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--threads", type=int, default=1, help="threads per process (default 1)")
    p.add_argument("--hines-n", type=int, default=16384, help="hines cells (default 16384)")
    p.add_argument("--brunel-scale", type=float, default=0.5, help="brunel-small scale (default 0.5)")
    p.add_argument("--brunel-time", type=float, default=1000.0, help="brunel-small measured ms (default 1000)")
    p.add_argument(
        "--repeats",
        type=int,
        default=None,
        help="runs per method and benchmark (default: 3 for hines, which is quick, 1 for brunel-small)",
    )
    p.add_argument(
        "--methods",
        default=",".join(METHODS),
        help="comma-separated (default: all five; allgather-persistent and alltoall-persistent "
        "run those methods with persistent collectives)",
    )
    p.add_argument(
        "--benchmarks",
        default="hines,hines-adjacent,brunel-small",
        help="comma-separated (default: hines,hines-adjacent,brunel-small; hines-adjacent is hines "
        "with --topology adjacent --placement consecutive)",
    )
    p.add_argument("--placement", default="round_robin", choices=common.PLACEMENTS)
    p.add_argument("--no-sync-barrier", action="store_true")
    p.add_argument("--table", metavar="FILE.md", help="also write the markdown table to this file")
    return p.parse_args(argv)


def git_commit():
    """The checkout's commit, if this script runs from one (the kernel may have been built from it)."""
    try:
        return (
            subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"],
                cwd=os.path.dirname(os.path.abspath(__file__)),
                capture_output=True,
                text=True,
                timeout=10,
            ).stdout.strip()
            or None
        )
    except Exception:
        return None


def one_run(bench, method, o):
    extra = ["--placement", o.placement] + (["--no-sync-barrier"] if o.no_sync_barrier else [])
    if method.endswith(PERSISTENT):
        method = method[: -len(PERSISTENT)]
        extra.append("--persistent-exchange")
    if bench in ("hines", "hines-adjacent"):
        if bench == "hines-adjacent":  # local topology, consecutive placement: directed methods send less
            extra = ["--placement", "consecutive", "--topology", "adjacent"] + extra[2:]
        args = bench_parser().parse_args(
            ["hines", "--n", str(o.hines_n), "--threads", str(o.threads), "--exchange", method, *extra]
        )
        return hines.run(args)
    args = bench_parser().parse_args(
        [
            "brunel-small",
            "--scale",
            str(o.brunel_scale),
            "--threads",
            str(o.threads),
            "--exchange",
            method,
            "--time",
            str(o.brunel_time),
            *extra,
        ]
    )
    return run_brunel(
        "brunel-small",
        scale=args.scale,
        threads=args.threads,
        seed=args.seed,
        model_time=args.time,
        warmup=100.0,
        settings=common.kernel_settings(args),
    )


def summary(runs):
    med = statistics.median
    first = runs[0]
    best = min(runs, key=lambda r: r["t_simulate_s"])
    return {
        "t_simulate_s": med(r["t_simulate_s"] for r in runs),
        "t_simulate_best_s": best["t_simulate_s"],
        "phases_best_run_s": best["phases_s"],
        "phases_s": {p: med(r["phases_s"][p] for r in runs) for p in PHASES},
        "phases_mean_s": {p: med(r["phases_mean_s"][p] for r in runs) for p in PHASES},
        "t_prepare_s": med(r["t_prepare_s"] for r in runs),
        "t_connect_s": med(r["t_connect_s"] for r in runs),
        "rss_peak_mib": med(r["rss_peak_mib"] for r in runs),
        "spikes": first["spikes"],
        "rate_hz": first["rate_hz"],
        "spikes_sent": first["spikes_sent"],
        "spikes_received": first["spikes_received"],
        "exchange_repeats": first["exchange_repeats"],
        "exchange_log": first["exchange_log"],
        "runs": [
            {
                "t_simulate_s": r["t_simulate_s"],
                "phases_s": r["phases_s"],
                "phases_per_rank_s": r["phases_per_rank_s"],
                "spikes": r["spikes"],
            }
            for r in runs
        ],
    }


def table(results, meta):
    lines = [
        f"Spike exchange on {meta['processes']} processes x {meta['threads']} thread(s), "
        f"placement {meta['placement']}; median of "
        + ", ".join(f"{n} run(s) ({b})" for b, n in meta["repeats"].items())
        + "; seconds (simulate: median, best: fastest run); each phase the median of the maximum over ranks; entries sent: spike entries delivered "
        "to ranks (own rank included), summed over ranks.",
        "",
        "| benchmark | method | simulate | best | deliver | update | collocate | synchronize | communicate "
        "| communicate (best run) | spikes | entries sent | prepare |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for bench, per_method in results.items():
        for method, s in per_method.items():
            ph = s["phases_s"]
            lines.append(
                f"| {bench} | {method} | {s['t_simulate_s']:.3f} | {s['t_simulate_best_s']:.3f} | "
                + " | ".join(f"{ph[p]:.3f}" for p in PHASES)
                + f" | {s['phases_best_run_s']['communicate']:.3f}"
                f" | {s['spikes']} | {s['spikes_sent']} | {s['t_prepare_s']:.3f} |"
            )
    return "\n".join(lines) + "\n"


def main(argv=None):
    o = options(argv)
    methods = [m for m in o.methods.split(",") if m]
    benches = [b for b in o.benchmarks.split(",") if b]
    if rv.NumProcesses() < 2:
        common.log("note: run this under mpiexec -n 2 (or more); one process exchanges nothing")
    raw = {b: {m: [] for m in methods} for b in benches}
    repeats = {b: o.repeats or (3 if b.startswith("hines") else 1) for b in benches}
    for rep in range(max(repeats.values())):
        for b in benches:
            if rep >= repeats[b]:
                continue
            for m in methods:
                common.log(f"== {b} / {m} (repeat {rep + 1} of {repeats[b]})")
                raw[b][m].append(one_run(b, m, o))
    results = {b: {m: summary(raw[b][m]) for m in methods} for b in benches}
    meta = {
        "processes": rv.NumProcesses(),
        "threads": o.threads,
        "placement": o.placement,
        "repeats": repeats,
        "sync_barrier": not o.no_sync_barrier,
        "hines_n": o.hines_n,
        "brunel_scale": o.brunel_scale,
        "brunel_time_ms": o.brunel_time,
        "ranvier_version": rv.__version__,
        "git_commit": git_commit(),
    }
    identical = {b: len({r["spikes"] for m in methods for r in raw[b][m]}) == 1 for b in benches}
    out = {
        "comparison": "spike_exchange",
        **meta,
        "spikes_identical": identical,
        "results": results,
        "benchmark_params": {
            b: {
                k: v
                for k, v in raw[b][methods[0]][0].items()
                if k
                in (
                    "neurons",
                    "synapses",
                    "model_time_ms",
                    "C",
                    "topology",
                    "weight",
                    "N_E",
                    "N_I",
                    "C_E",
                    "C_I",
                    "stdp",
                )
            }
            for b in benches
        },
    }
    if common.is_root():
        text = table(results, meta)
        print(json.dumps(out), flush=True)
        if o.table:
            with open(o.table, "w") as f:
                f.write(text)
        else:
            print("\n" + text, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
