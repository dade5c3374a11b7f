#!/usr/bin/env python3
"""At how many ranks does the overlapped exchange stop being hidden? A model from measurements
(issue 14): rank 0's compute per cycle from dry runs on one process, the exchange's cost from
real runs on 2..4 processes.

    # the exchange, measured (allgather on hines, weight 0) on 2, 3 and 4 processes:
    for n in 2 3 4; do OMP_WAIT_POLICY=passive mpiexec -n $n python benchmarks/compare_exchange.py \\
        --benchmarks hines --hines-n $((2048 * n)) --methods allgather --repeats 3 --table /dev/null > ex_$n.json
    done
    # the compute, from dry runs, and the prediction:
    python benchmarks/overlap_model.py --exchange-json ex_2.json ex_3.json ex_4.json

With overlap_exchange each cycle of min_delay is split in two epochs; the first epoch's spikes
travel while the threads update the second epoch (docs/distributed.md). So the exchange is
hidden while

    T_x(M) = alpha * log2(M) + beta * (M * s * e / 2)  <=  U / 2

- U: rank 0's update time per cycle (the second epoch's half of it is the cover; delivery
  runs at the cycle's start and is not overlapped), from a dry run at each M with the
  per-rank share fixed (weak scaling: hpc with 6,976 neurons per rank, Ippen et al.'s (2017)
  share at 28,672 ranks; hines with 2,048 cells per rank);
- s: rank 0's spikes per cycle, the same on every rank (the dry run's own assumption), so an
  epoch carries s/2 per rank and every rank receives M of those; e: bytes per spike entry;
- alpha, beta: latency per recursive-doubling round and time per received byte of the
  allgather, a non-negative least-squares fit to the communicate time per exchange measured
  on 2..4 processes (hines weak-scaled, 2,048 cells per rank, so the bytes grow with M). --alpha/--beta replace the fit with an interconnect's figures.

Prints JSON: the fit, the per-M table and, per benchmark, the largest M that stays hidden."""

import argparse
import json
import math
import os
import subprocess
import sys

import numpy as np
from scipy.optimize import nnls

HERE = os.path.dirname(os.path.abspath(__file__))
# Per-rank shares kept fixed while M grows, and each benchmark's cycle (min delay, ms).
CASES = {
    "hpc": {"per_rank": 6976, "args": lambda m: ["hpc", "--scale", f"{m * 6976 / 11250:.4f}"], "cycle_ms": 1.5},
    "hines": {"per_rank": 2048, "args": lambda m: ["hines", "--n", str(m * 2048)], "cycle_ms": 1.0},
}


def options(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--exchange-json", nargs="*", default=[], help="compare_exchange.py outputs on 2..4 processes")
    p.add_argument("--ranks", default="64,1024,4096", help="dry-run M values (comma-separated)")
    p.add_argument("--predict", default="2,8,64,512,4096,32768,262144", help="M values of the prediction table")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--time", type=float, default=20.0, help="measured ms per dry run")
    p.add_argument("--alpha", type=float, help="s per allgather round (instead of the fit)")
    p.add_argument("--beta", type=float, help="s per received byte (instead of the fit)")
    return p.parse_args(argv)


def last_json(text):
    return json.loads([line for line in text.splitlines() if line.startswith("{")][-1])


def fit_exchange(paths):
    """alpha, beta from allgather's communicate time per exchange on 2..4 processes."""
    rows = []
    for path in paths:
        with open(path) as f:
            run = last_json(f.read())
        m = run["processes"]
        r = run["results"]["hines"]["allgather"]
        params = run["benchmark_params"]["hines"]
        cycles = params["model_time_ms"] / 1.0
        per_rank = params["neurons"] / m
        entry = math.ceil(math.log(max(per_rank, 2), 256)) + 1  # index bytes + one lag byte
        received = r["spikes_received"] / m / cycles * entry + 4 * m  # bytes per rank and exchange
        rows.append((m, math.log2(m), received, r["phases_s"]["communicate"] / cycles))
    a = np.array([[row[1], row[2]] for row in rows])
    t = np.array([row[3] for row in rows])
    (alpha, beta), _ = nnls(a, t)
    return float(alpha), float(beta), [dict(zip(("processes", "log2_M", "bytes_received", "seconds"), r)) for r in rows]


def dry_run(case, m, o):
    cmd = [
        sys.executable,
        os.path.join(HERE, "bench.py"),
        *CASES[case]["args"](m),
        "--dry-run",
        str(m),
        "--threads",
        str(o.threads),
        "--time",
        str(o.time),
        "--warmup",
        "10",
    ]
    r = last_json(
        subprocess.run(
            cmd, capture_output=True, text=True, check=True, env={**os.environ, "OMP_WAIT_POLICY": "passive"}
        ).stdout
    )
    cycles = o.time / CASES[case]["cycle_ms"]
    per_rank = r["rank0_neurons"] if "rank0_neurons" in r else CASES[case]["per_rank"]
    return {
        "M": m,
        "update_per_cycle_s": r["phases_s"]["update"] / cycles,
        "deliver_per_cycle_s": r["phases_s"]["deliver"] / cycles,
        "spikes_per_rank_per_cycle": r["spikes_sent"] / (cycles + 10.0 / CASES[case]["cycle_ms"]),
        "entry_bytes": math.ceil(math.log(max(per_rank, 2), 256)) + 1,
    }


def main(argv=None):
    o = options(argv)
    if o.alpha is not None and o.beta is not None:
        alpha, beta, measured = o.alpha, o.beta, []
    else:
        alpha, beta, measured = fit_exchange(o.exchange_json)
    out = {
        "model": "overlap_exchange hidden while alpha log2 M + beta M s e / 2 <= U / 2",
        "alpha_s": alpha,
        "beta_s_per_byte": beta,
        "exchange_measured": measured,
        "cases": {},
    }
    for case in CASES:
        runs = [dry_run(case, int(m), o) for m in o.ranks.split(",")]
        # The per-rank share is fixed, so U and s hardly change with M: take the largest dry run's.
        u, s, e = runs[-1]["update_per_cycle_s"], runs[-1]["spikes_per_rank_per_cycle"], runs[-1]["entry_bytes"]
        table = []
        for m in map(int, o.predict.split(",")):
            t_x = alpha * math.log2(m) + beta * m * s * e / 2
            table.append({"M": m, "exchange_per_epoch_s": t_x, "cover_s": u / 2, "hidden": t_x <= u / 2})
        # the largest M with alpha log2 M + beta M s e / 2 <= U / 2 (the cost grows with M), by bisection
        hidden = lambda m: alpha * math.log2(m) + beta * m * s * e / 2 <= u / 2
        lo, hi = 1.0, 2.0**40
        if hidden(hi):
            lo = None
        elif not hidden(2.0):
            lo = 1.0
        else:
            for _ in range(200):
                mid = math.sqrt(lo * hi)
                lo, hi = (mid, hi) if hidden(mid) else (lo, mid)
        # None: hidden at every M up to 2^40; 1: not even at 2 ranks
        out["cases"][case] = {
            "dry_runs": runs,
            "prediction": table,
            "largest_hidden_M": None if lo is None else int(lo),
        }
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
