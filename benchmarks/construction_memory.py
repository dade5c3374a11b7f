"""Memory and time of constructing the Potjans and Diesmann (2014) microcircuit on Ranvier,
as its authors' PyNEST package (`pip install microcircuit`) builds it: peak RSS (VmHWM)
against RSS after preparation (the first Simulate sorts the staged connections into the
final tables), one fresh process per N_scaling. Prints JSON.

    .venv/bin/python benchmarks/construction_memory.py --n-scaling 0.05 0.1 --threads 2

--python runs the children under another build (e.g. main's .venv) for before/after figures;
--plot FILE.png draws peak and prepared RSS against the number of synapses."""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

# This file sits beside microcircuit.py, whose name is the package's: import the package.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]


def status_mib(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    raise RuntimeError(f"no {field} in /proc/self/status")


def cpu_s():
    """User and system time of this process: on a shared machine a steadier measure of work than wall time."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def child(n_scaling, threads, seed):
    import ranvier

    sys.modules["nest"] = ranvier
    import nest
    from microcircuit.network import Network
    from microcircuit.network_params import default_net_dict
    from microcircuit.sim_params import default_sim_dict
    from microcircuit.stimulus_params import default_stim_dict

    with tempfile.TemporaryDirectory() as data_path:
        stdout, sys.stdout = sys.stdout, sys.stderr  # the package prints progress
        try:
            net_dict = {**default_net_dict, "N_scaling": n_scaling, "K_scaling": 1.0}
            sim_dict = {
                **default_sim_dict,
                "data_path": data_path + "/",
                "local_num_threads": threads,
                "rng_seed": seed,
                "print_time": False,
                "overwrite_files": True,
                "store_metadata": False,
            }
            times, cpu = {}, {}
            tic, cpu_tic = time.perf_counter(), cpu_s()
            net = Network(sim_dict, net_dict, dict(default_stim_dict))
            net.create()
            times["create"], cpu["create"] = time.perf_counter() - tic, cpu_s() - cpu_tic
            rss_created = status_mib("VmRSS")
            tic, cpu_tic = time.perf_counter(), cpu_s()
            net.connect()
            times["connect"], cpu["connect"] = time.perf_counter() - tic, cpu_s() - cpu_tic
            rss_connected, peak_connected = status_mib("VmRSS"), status_mib("VmHWM")
            tic, cpu_tic = time.perf_counter(), cpu_s()
            nest.Simulate(sim_dict["sim_resolution"])  # one step: preparation sorts the connections
            times["prepare"], cpu["prepare"] = time.perf_counter() - tic, cpu_s() - cpu_tic
        finally:
            sys.stdout = stdout
        connections = int(nest.GetKernelStatus("num_connections"))
        rss_final = status_mib("VmRSS")
        peak = status_mib("VmHWM")
    return {
        "N_scaling": n_scaling,
        "threads": threads,
        "connections": connections,
        "times_s": {**times, "construction": sum(times.values())},
        "cpu_s": {**cpu, "construction": sum(cpu.values())},
        "rss_created_mib": rss_created,
        "rss_connected_mib": rss_connected,
        "peak_connected_mib": peak_connected,
        "rss_prepared_mib": rss_final,
        "peak_rss_mib": peak,
        "peak_over_prepared": peak / rss_final,
        "bytes_per_connection_prepared": (rss_final - rss_created) * 2**20 / connections,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n-scaling", type=float, nargs="+", default=[0.05, 0.1])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=55)
    parser.add_argument("--python", default=sys.executable, help="the Python whose ranvier is measured")
    parser.add_argument("--plot", metavar="FILE.png", help="also plot peak and prepared RSS against connections")
    parser.add_argument("--child", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(child(args.child, args.threads, args.seed)))
        return
    points = []
    for n in args.n_scaling:  # one process per point: a fresh peak
        command = [
            args.python,
            os.path.abspath(__file__),
            "--child",
            str(n),
            "--threads",
            str(args.threads),
            "--seed",
            str(args.seed),
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"N_scaling {n} failed:\n{done.stderr[-3000:]}")
        points.append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(
        json.dumps(
            {"model": "microcircuit (Potjans and Diesmann 2014)", "python": args.python, "points": points}, indent=1
        )
    )
    if args.plot:
        plot(points, args.plot)


def plot(points, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    synapses = [p["connections"] / 1e6 for p in points]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot(synapses, [p["peak_rss_mib"] for p in points], "o-", label="peak RSS")
    ax.plot(synapses, [p["rss_prepared_mib"] for p in points], "s-", label="RSS after preparation")
    for p, x in zip(points, synapses):
        ax.annotate(
            f"N_scaling {p['N_scaling']:g}",
            (x, p["peak_rss_mib"]),
            textcoords="offset points",
            xytext=(-20, 8),
            fontsize=8,
        )
    ax.set_xlabel("synapses (millions)")
    ax.set_ylabel("MiB")
    ax.set_title(f"Microcircuit construction, {points[0]['threads']} threads")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
