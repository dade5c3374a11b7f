#!/usr/bin/env python3
"""Spike exchange overlapped with computation (overlap_exchange) against not overlapped, in one MPI run.

    OMP_WAIT_POLICY=passive mpiexec -n 2 python benchmarks/overlap_exchange.py --threads 1

Runs brunel-small and hines (weight 0 unless --hines-weight), and with --benchmarks mam the
multi-area model (area placement: its long-range exchange overlaps too), with allgather and alltoall
(--methods may add multisend and multisend2, which run with two sub-intervals),
overlap off and on, repeated --repeats times in rotation (so that a slow spell of the machine
does not hit one variant only). Prints, on rank 0, one JSON object on one line: per benchmark,
method and overlap the median simulation time, the exposed communicate and synchronize times
(each the maximum over ranks), the hidden exchange time (time_communicate_hidden, maximum over
ranks) and the hidden fraction (hidden / (hidden + communicate), summed over ranks), and whether
the spike counts of all variants agree.
"""

import argparse
import json
import statistics
import sys

from ranvier_bench import common, hines, mam
from ranvier_bench import parser as bench_parser
from ranvier_bench import run as run_brunel

import ranvier as rv


def options(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--hines-n", type=int, default=16384)
    p.add_argument("--hines-weight", type=float, default=0.0)
    p.add_argument("--brunel-scale", type=float, default=0.5)
    p.add_argument("--brunel-time", type=float, default=500.0, help="brunel-small measured ms (default 500)")
    p.add_argument("--mam-scale", type=float, default=0.1, help="mam: area size x 20,000 (default 0.1)")
    p.add_argument("--mam-time", type=float, default=300.0, help="mam measured ms (default 300)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--methods", default="allgather,alltoall")
    p.add_argument(
        "--benchmarks",
        default="brunel-small,hines",
        help="comma-separated: brunel-small, hines, mam (areas placed by area, long-range pathway)",
    )
    return p.parse_args(argv)


def one_run(bench, method, overlap, o):
    extra = ["--multisend-subintervals", "2"] + (["--overlap-exchange"] if overlap else [])
    if bench == "hines":
        args = bench_parser().parse_args(
            [
                "hines",
                "--n",
                str(o.hines_n),
                "--threads",
                str(o.threads),
                "--weight",
                str(o.hines_weight),
                "--exchange",
                method,
                *extra,
            ]
        )
        return hines.run(args)
    if bench == "mam":
        args = bench_parser().parse_args(
            ["mam", "--threads", str(o.threads), "--exchange", method, "--placement", "area", *extra]
        )
        result = mam.run(
            scale=o.mam_scale,
            threads=o.threads,
            seed=args.seed,
            model_time=o.mam_time,
            settings=common.kernel_settings(args),
        )
        result.pop("cycle_times_s", None)
        return result
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
    return {
        "t_simulate_s": med(r["t_simulate_s"] for r in runs),
        "communicate_s": med(r["phases_s"]["communicate"] for r in runs),
        "synchronize_s": med(r["phases_s"]["synchronize"] for r in runs),
        "update_s": med(r["phases_s"]["update"] for r in runs),
        "communicate_hidden_s": med(r["communicate_hidden_s"] for r in runs),
        "hidden_fraction": med(r["hidden_fraction"] for r in runs),
        "spikes": runs[0]["spikes"],
        "t_simulate_runs_s": [r["t_simulate_s"] for r in runs],
    }


def main(argv=None):
    o = options(argv)
    methods = [m for m in o.methods.split(",") if m]
    benches = [b for b in o.benchmarks.split(",") if b]
    if rv.NumProcesses() < 2:
        common.log("note: run this under mpiexec -n 2 (or more); one process exchanges nothing")
    variants = [(m, overlap) for m in methods for overlap in (False, True)]
    raw = {b: {v: [] for v in variants} for b in benches}
    for rep in range(o.repeats):
        for b in benches:
            for m, overlap in variants:
                common.log(f"== {b} / {m} / overlap {overlap} (repeat {rep + 1} of {o.repeats})")
                raw[b][(m, overlap)].append(one_run(b, m, overlap, o))
    results = {
        b: {f"{m}/{'overlap' if ov else 'plain'}": summary(raw[b][(m, ov)]) for m, ov in variants} for b in benches
    }
    for b in benches:
        for m in methods:
            plain, over = results[b][f"{m}/plain"], results[b][f"{m}/overlap"]
            results[b][f"{m}/speedup"] = plain["t_simulate_s"] / over["t_simulate_s"]
    out = {
        "comparison": "overlap_exchange",
        "processes": rv.NumProcesses(),
        "threads": o.threads,
        "repeats": o.repeats,
        "hines_n": o.hines_n,
        "hines_weight": o.hines_weight,
        "brunel_scale": o.brunel_scale,
        "brunel_time_ms": o.brunel_time,
        "ranvier_version": rv.__version__,
        "spikes_identical": {b: len({r["spikes"] for v in variants for r in raw[b][v]}) == 1 for b in benches},
        "results": results,
    }
    if common.is_root():
        print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
