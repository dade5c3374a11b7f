"""The Potjans and Diesmann (2014) cortical microcircuit, as its authors' PyNEST package
(`pip install microcircuit`) builds it, on Ranvier through ``sys.modules["nest"] = ranvier``
and optionally on NEST 3.10 in the same invocation. Prints JSON: per-population rates over
the simulation after the presimulation, phase times (create, connect, presimulate,
simulate), real-time factor and peak memory, and with a peer the ratios Ranvier / NEST.

    .venv/bin/python benchmarks/microcircuit.py --n-scaling 0.05 --threads 2
    .venv/bin/python benchmarks/microcircuit.py --n-scaling 0.1 --seeds 1 2 3 \
        --peer-python /work/peers-venv/bin/python

N_scaling scales the neuron numbers; K_scaling (default 1: in-degrees kept, since the
package's DC drive falls silent when they are scaled down) the in-degrees. The peer needs
the microcircuit package in its own environment."""

import argparse
import glob
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

# This file's name is the package's: import the package, not this file.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]


def run_once(simulator, args, seed, data_path):
    if simulator == "ranvier":
        import ranvier

        sys.modules["nest"] = ranvier
    import nest
    from microcircuit.network import Network
    from microcircuit.network_params import default_net_dict
    from microcircuit.sim_params import default_sim_dict
    from microcircuit.stimulus_params import default_stim_dict

    net_dict = {**default_net_dict, "N_scaling": args.n_scaling, "K_scaling": args.k_scaling}
    sim_dict = {
        **default_sim_dict,
        "data_path": data_path + "/",
        "local_num_threads": args.threads,
        "rng_seed": seed,
        "t_presim": args.t_presim,
        "t_sim": args.t_sim,
        "print_time": False,
        "overwrite_files": True,
        "store_metadata": False,
    }
    times = {}
    tic = time.perf_counter()
    net = Network(sim_dict, net_dict, dict(default_stim_dict))
    net.create()
    times["create"] = time.perf_counter() - tic
    tic = time.perf_counter()
    net.connect()
    times["connect"] = time.perf_counter() - tic
    tic = time.perf_counter()
    net.simulate(args.t_presim)
    times["presimulate"] = time.perf_counter() - tic
    tic = time.perf_counter()
    net.simulate(args.t_sim)
    times["simulate"] = time.perf_counter() - tic
    rates = {}
    for name, pop, recorder in zip(net_dict["populations"], net.pops, net.spike_recorders):
        # NEST writes one file per virtual process but names only one of them in "filenames"
        named = recorder.get("filenames")
        files = sorted(glob.glob(named[0].rsplit("-", 1)[0] + "-*." + named[0].rsplit(".", 1)[1]))
        spikes = 0
        for f in files:
            data = np.loadtxt(f, skiprows=3, ndmin=2)
            if data.size:  # the files hold the last Simulate: the main simulation
                spikes += int(np.count_nonzero(data[:, 1] >= args.t_presim))
        rates[name] = spikes / len(pop) / (args.t_sim / 1000.0)
    return {
        "rates_hz": rates,
        "times_s": times,
        "rtf": times["simulate"] / (args.t_sim / 1000.0),
        "neurons": int(sum(len(p) for p in net.pops)),
        "connections": int(nest.GetKernelStatus("num_connections")),
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
    }


def child(args):
    """One simulator and seed in this process (a fresh kernel and a fresh peak RSS)."""
    with tempfile.TemporaryDirectory() as data_path:
        stdout = sys.stdout
        sys.stdout = sys.stderr  # the package prints progress; only the JSON goes to stdout
        try:
            result = run_once(args.simulator, args, args.seed, data_path)
        finally:
            sys.stdout = stdout
    print(json.dumps(result))


def spawn(python, simulator, args, seed):
    command = [
        python,
        os.path.abspath(__file__),
        "--child",
        "--simulator",
        simulator,
        "--seed",
        str(seed),
        "--n-scaling",
        str(args.n_scaling),
        "--k-scaling",
        str(args.k_scaling),
        "--threads",
        str(args.threads),
        "--t-presim",
        str(args.t_presim),
        "--t-sim",
        str(args.t_sim),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{simulator} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def mean_over_seeds(runs):
    out = {
        "rates_hz": {k: float(np.mean([r["rates_hz"][k] for r in runs])) for k in runs[0]["rates_hz"]},
        "times_s": {k: float(np.mean([r["times_s"][k] for r in runs])) for k in runs[0]["times_s"]},
    }
    for key in ("rtf", "peak_rss_mib", "neurons", "connections"):
        out[key] = float(np.mean([r[key] for r in runs]))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n-scaling", type=float, default=0.05)
    parser.add_argument("--k-scaling", type=float, default=1.0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--t-presim", type=float, default=500.0)
    parser.add_argument("--t-sim", type=float, default=1000.0)
    parser.add_argument("--seeds", type=int, nargs="+", default=[55])
    parser.add_argument("--peer-python", help="a Python with NEST 3.10 and the microcircuit package")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--simulator", default="ranvier", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=55, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    result = {
        "model": "microcircuit (Potjans and Diesmann 2014)",
        "N_scaling": args.n_scaling,
        "K_scaling": args.k_scaling,
        "threads": args.threads,
        "t_presim_ms": args.t_presim,
        "t_sim_ms": args.t_sim,
        "seeds": args.seeds,
    }
    result["ranvier"] = mean_over_seeds([spawn(sys.executable, "ranvier", args, s) for s in args.seeds])
    if args.peer_python:
        nest = mean_over_seeds([spawn(args.peer_python, "nest", args, s) for s in args.seeds])
        result["nest"] = nest
        ours = result["ranvier"]
        result["rate_difference_hz"] = {k: ours["rates_hz"][k] - nest["rates_hz"][k] for k in nest["rates_hz"]}
        result["ratio_ranvier_over_nest"] = {
            **{f"time_{k}": ours["times_s"][k] / nest["times_s"][k] for k in nest["times_s"]},
            "peak_rss": ours["peak_rss_mib"] / nest["peak_rss_mib"],
        }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
