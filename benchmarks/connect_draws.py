"""Per-synapse cost of drawn weights and delays: in one invocation, (a) fixed_indegree with a
constant weight and delay and (b) fixed_total_number with the Potjans-Diesmann microcircuit's
kind of weights and delays (normal, redrawn: weights to their sign, delays to >= the
resolution), both making the same number of synapses among iaf_psc_exp neurons.

    python benchmarks/connect_draws.py --neurons 10000 --indegree 800 --threads 1 2

Prints one JSON object: per thread count and case the fastest of --repeat runs of Connect
and of the preparation (the first Simulate of one step sorts the staged connections), in ns
per synapse of wall-clock time and of CPU time summed over threads (core-ns; idle OpenMP
threads sleep), and the ratios b / a of both.
"""

import argparse
import json
import os
import time

os.environ.setdefault("OMP_WAIT_POLICY", "passive")  # before the kernel loads: idle threads cost no CPU time
import ranvier as rv  # noqa: E402

# microcircuit (network_params.py): excitatory weight mean 87.8 pA, 10 % relative std,
# redrawn to >= 0; delays 1.5 ms mean, 50 % relative std, redrawn to >= h / 2 (h = 0.1 ms)
WEIGHT_MEAN, WEIGHT_REL_STD = 87.8, 0.1
DELAY_MEAN, DELAY_REL_STD = 1.5, 0.5
RESOLUTION = 0.1


def specs(case, n, indegree):
    if case == "constant_indegree":
        return {"rule": "fixed_indegree", "indegree": indegree}, {"weight": WEIGHT_MEAN, "delay": DELAY_MEAN}
    weight = rv.math.redraw(
        rv.random.normal(mean=WEIGHT_MEAN, std=WEIGHT_MEAN * WEIGHT_REL_STD), min=0.0, max=float("inf")
    )
    delay = rv.math.redraw(
        rv.random.normal(mean=DELAY_MEAN, std=DELAY_MEAN * DELAY_REL_STD), min=RESOLUTION / 2, max=float("inf")
    )
    return {"rule": "fixed_total_number", "N": n * indegree}, {"weight": weight, "delay": delay}


def run_once(case, n, indegree, threads, seed):
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": seed, "resolution": RESOLUTION})
    pop = rv.Create("iaf_psc_exp", n)
    conn, syn = specs(case, n, indegree)
    t0, c0 = time.perf_counter(), time.process_time()
    rv.Connect(pop, pop, conn, syn)
    t1, c1 = time.perf_counter(), time.process_time()
    rv.Simulate(RESOLUTION)
    t2, c2 = time.perf_counter(), time.process_time()
    s = int(rv.GetKernelStatus("num_connections"))
    return {
        "connect_ns": 1e9 * (t1 - t0) / s,
        "prepare_ns": 1e9 * (t2 - t1) / s,
        "connect_core_ns": 1e9 * (c1 - c0) / s,
        "prepare_core_ns": 1e9 * (c2 - c1) / s,
        "synapses": s,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--neurons", type=int, default=10000)
    ap.add_argument("--indegree", type=int, default=800)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=3, help="runs per case, alternating; the fastest counts")
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args()
    cases = ("constant_indegree", "normal_redraw_total_number")
    out = {"neurons": args.neurons, "indegree": args.indegree, "results": []}
    for threads in args.threads:
        best = {}
        for _ in range(args.repeat):
            for case in cases:
                r = run_once(case, args.neurons, args.indegree, threads, args.seed)
                b = best.setdefault(case, r)
                for key in r:
                    b[key] = min(b[key], r[key])
        a, b = best[cases[0]], best[cases[1]]
        ratios = {}
        for unit in ("ns", "core_ns"):
            ratios[f"ratio_connect_{unit}"] = round(b[f"connect_{unit}"] / a[f"connect_{unit}"], 2)
            ratios[f"ratio_total_{unit}"] = round(
                (b[f"connect_{unit}"] + b[f"prepare_{unit}"]) / (a[f"connect_{unit}"] + a[f"prepare_{unit}"]), 2
            )
        out["results"].append(
            {"threads": threads, **{c: {k: round(v, 1) for k, v in best[c].items()} for c in cases}, **ratios}
        )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
