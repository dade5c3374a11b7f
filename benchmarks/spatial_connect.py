"""Spatial Connect in Ranvier and NEST 3.10 in one invocation: a periodic 2D grid layer, a
circular mask holding 1 % of the layer and a Gaussian p(d) (std: half the mask radius),
connected to itself with pairwise_bernoulli. Each (peer, size, threads) runs in its own
process (so resident memory is its own); NEST runs under --nest-python.

    python benchmarks/spatial_connect.py --sizes 10000 40000 100000 --threads 1 2

Prints progress on stderr and one JSON object on the last stdout line: per case (the fastest
of --repeat runs of each peer, alternating) the construction (Create) and Connect times, connections made, and the resident memory the
Connect added, and the ratios NEST / Ranvier of the Connect time and its memory.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import time

MASK_FRACTION = 0.01  # of the layer's area


def rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return float(line.split()[1]) / 1024
    return 0.0


def worker(peer, n, threads, seed):
    """Builds and connects the layer in this process; returns its measurements."""
    if peer == "nest":
        import nest as sim

        sim.set_verbosity("M_ERROR")
    else:
        import ranvier as sim
    side = int(round(math.sqrt(n)))
    radius = math.sqrt(MASK_FRACTION / math.pi)
    sim.ResetKernel()
    sim.SetKernelStatus({"local_num_threads": threads, "rng_seed": seed})
    t0 = time.perf_counter()
    layer = sim.Create("iaf_psc_alpha", positions=sim.spatial.grid([side, side], extent=[1.0, 1.0], edge_wrap=True))
    t_create = time.perf_counter() - t0
    rss_before = rss_mib()
    p = sim.spatial_distributions.gaussian(sim.spatial.distance, std=radius / 2)
    t0 = time.perf_counter()
    sim.Connect(
        layer,
        layer,
        {"rule": "pairwise_bernoulli", "p": p, "mask": {"circular": {"radius": radius}}},
        {"weight": 1.0, "delay": 1.0},
    )
    t_connect = time.perf_counter() - t0
    return {
        "peer": peer,
        "n": side * side,
        "threads": threads,
        "create_s": t_create,
        "connect_s": t_connect,
        "connections": int(sim.GetKernelStatus("num_connections")),
        "connect_rss_mib": rss_mib() - rss_before,
    }


def run_case(python, peer, n, threads, seed):
    cmd = [
        python,
        os.path.abspath(__file__),
        "--worker",
        peer,
        "--sizes",
        str(n),
        "--threads",
        str(threads),
        "--seed",
        str(seed),
    ]
    # numpy's BLAS threads would spin beside the connecting threads in both peers
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "OPENBLAS_NUM_THREADS": "1"}
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if out.returncode != 0:
        return {"peer": peer, "n": n, "threads": threads, "error": out.stderr.strip().splitlines()[-1:]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10000, 40000, 100000])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--repeat", type=int, default=3, help="runs per case; the fastest of each peer counts")
    ap.add_argument("--nest-python", default="/work/peers-venv/bin/python")
    ap.add_argument("--no-nest", action="store_true")
    ap.add_argument("--worker", choices=["ranvier", "nest"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.sizes[0], args.threads[0], args.seed)))
        return
    cases = []
    for n in args.sizes:
        for threads in args.threads:
            peers = [("ranvier", sys.executable)] + ([] if args.no_nest else [("nest", args.nest_python)])
            runs = {peer: [] for peer, _ in peers}
            for _ in range(args.repeat):  # the peers alternate, so a busy spell hits both
                for peer, python in peers:
                    runs[peer].append(run_case(python, peer, n, threads, args.seed))
                    print(f"{peer:8s} n={n:7d} threads={threads}: {runs[peer][-1]}", file=sys.stderr)
            row = {peer: min(r, key=lambda x: x.get("connect_s", float("inf"))) for peer, r in runs.items()}
            if "nest" in row and "error" not in row["nest"] and "error" not in row["ranvier"]:
                row["connect_time_ratio_nest_over_ranvier"] = row["nest"]["connect_s"] / row["ranvier"]["connect_s"]
                row["connect_memory_ratio_nest_over_ranvier"] = row["nest"]["connect_rss_mib"] / max(
                    row["ranvier"]["connect_rss_mib"], 1e-9
                )
            cases.append({"n": n, "threads": threads, **row})
    print(json.dumps({"benchmark": "spatial_connect", "mask_fraction": MASK_FRACTION, "cases": cases}))


if __name__ == "__main__":
    main()
