"""Two builds of Ranvier alternated on the authors' microcircuit package (Potjans and Diesmann
2014), phase by phase in process CPU seconds (steadier than wall time on a shared machine):
connect, preparation (the first 0.1 ms step sorts the tables) and simulation, with delivery's
time per synaptic event and a SHA-1 of all spikes, so that a change can be shown to leave
spikes bit-identical. Prints one JSON line per run.

    python benchmarks/microcircuit_phases.py --pythons /old/.venv/bin/python .venv/bin/python \\
        --n-scaling 0.25 --threads 1 --t-sim 1000 --repeats 3
"""

import argparse
import glob
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

# benchmarks/microcircuit.py would shadow the package
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]


def child(args):
    import ranvier

    sys.modules["nest"] = ranvier
    from microcircuit.network import Network
    from microcircuit.network_params import default_net_dict
    from microcircuit.sim_params import default_sim_dict
    from microcircuit.stimulus_params import default_stim_dict

    with tempfile.TemporaryDirectory() as data_path:
        stdout, sys.stdout = sys.stdout, sys.stderr  # the package prints progress
        net_dict = {**default_net_dict, "N_scaling": args.n_scaling, "K_scaling": 1.0}
        sim_dict = {
            **default_sim_dict,
            "data_path": data_path + "/",
            "local_num_threads": args.threads,
            "rng_seed": args.seed,
            "t_presim": 0.1,
            "t_sim": args.t_sim,
            "print_time": False,
            "overwrite_files": True,
            "store_metadata": False,
        }
        cpu = {}
        start = time.process_time()
        net = Network(sim_dict, net_dict, dict(default_stim_dict))
        net.create()
        net.connect()
        cpu["connect"] = time.process_time() - start
        start = time.process_time()
        net.simulate(0.1)
        cpu["prepare"] = time.process_time() - start
        before = ranvier.GetKernelStatus()
        start = time.process_time()
        net.simulate(args.t_sim)
        cpu["simulate"] = time.process_time() - start
        after = ranvier.GetKernelStatus()
        sys.stdout = stdout
        spikes = [np.loadtxt(f, skiprows=3, ndmin=2) for f in sorted(glob.glob(data_path + "/*.dat"))]
    spikes = np.concatenate([s for s in spikes if s.size])
    spikes = spikes[np.lexsort((spikes[:, 0], spikes[:, 1]))]  # (time, sender)
    events = after["synaptic_events_static"] - before["synaptic_events_static"]
    synapses = after["num_connections"]
    print(
        json.dumps(
            {
                "cpu_s": cpu,
                "synapses": synapses,
                "prepare_ns_per_synapse": cpu["prepare"] / synapses * 1e9,
                "synaptic_events": events,
                "deliver_ns_per_event": (after["time_deliver"] - before["time_deliver"]) / events * 1e9,
                "spikes": len(spikes),
                "spikes_sha1": hashlib.sha1(spikes.tobytes()).hexdigest()[:12],
                "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
            }
        )
    )


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pythons", nargs="+", default=[sys.executable], help="the Pythons whose ranvier is measured")
    p.add_argument("--n-scaling", type=float, default=0.1)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--t-sim", type=float, default=1000.0)
    p.add_argument("--seed", type=int, default=55)
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(args)
        return
    for repeat in range(args.repeats):
        for python in args.pythons:
            load = os.getloadavg()[0]
            done = subprocess.run(
                [
                    python,
                    os.path.abspath(__file__),
                    "--child",
                    "--n-scaling",
                    str(args.n_scaling),
                    "--threads",
                    str(args.threads),
                    "--t-sim",
                    str(args.t_sim),
                    "--seed",
                    str(args.seed),
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            result = json.loads(done.stdout.strip().splitlines()[-1])
            print(
                json.dumps(
                    {
                        "python": python,
                        "repeat": repeat,
                        "load": load,
                        "n_scaling": args.n_scaling,
                        "threads": args.threads,
                        **result,
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
