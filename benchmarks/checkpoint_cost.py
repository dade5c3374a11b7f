"""What a checkpoint costs: the Potjans and Diesmann (2014) microcircuit (its authors' package,
on Ranvier as ``nest``) built and run for t_sim ms, saved with SaveCheckpoint, and loaded in a
fresh process with LoadCheckpoint. Prints JSON: seconds to save and to load, the checkpoint's
bytes (in all and per synapse) against the network's bytes in memory, peak RSS before and
during each, and the disk's sequential write bandwidth (dd, fdatasync) for the save's bytes.
Both sides run with the given processes x threads (mpiexec beside the interpreter).

    .venv/bin/python benchmarks/checkpoint_cost.py --n-scaling 0.1 --threads 2 [--processes 2]
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

# This directory holds microcircuit.py, whose name is the package's: keep it off the path.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]


def peak_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def save(args):
    import ranvier

    sys.modules["nest"] = ranvier
    from microcircuit.network import Network
    from microcircuit.network_params import default_net_dict
    from microcircuit.sim_params import default_sim_dict
    from microcircuit.stimulus_params import default_stim_dict

    sim = {
        **default_sim_dict,
        "data_path": args.where + "-data/",
        "local_num_threads": args.threads,
        "print_time": False,
        "overwrite_files": True,
        "store_metadata": False,
    }
    net = Network(sim, {**default_net_dict, "N_scaling": args.n_scaling}, dict(default_stim_dict))
    net.create()
    net.connect()
    net.simulate(args.t_sim)
    status = ranvier.GetKernelStatus()
    before = peak_mib()
    tic = time.perf_counter()
    ranvier.SaveCheckpoint(args.where)
    seconds = time.perf_counter() - tic
    synapses = ranvier.GetKernelStatus("num_connections")
    return {
        "save_s": seconds,
        "synapses_this_rank": int(synapses),
        "network_bytes_this_rank": status["bytes_per_synapse"] * synapses,
        "peak_rss_mib_before_save": before,
        "peak_rss_mib_during_save": peak_mib(),
    }


def load(args):
    import ranvier

    ranvier.set(local_num_threads=args.threads)
    tic = time.perf_counter()
    ranvier.LoadCheckpoint(args.where)
    seconds = time.perf_counter() - tic
    return {"load_s": seconds, "peak_rss_mib_load": peak_mib()}


def disk_bandwidth(directory, n_bytes):
    """MB/s of a sequential write of n_bytes with fdatasync, as dd reports it."""
    target = os.path.join(directory, "dd.bin")
    blocks = max(1, n_bytes >> 20)
    done = subprocess.run(
        ["dd", "if=/dev/zero", f"of={target}", "bs=1M", f"count={blocks}", "conv=fdatasync"],
        capture_output=True,
        text=True,
    )
    os.remove(target)
    seconds = float(done.stderr.strip().splitlines()[-1].split(" s, ")[0].rsplit(",", 1)[1])
    return blocks * (1 << 20) / seconds / 1e6


def spawn(phase, args):
    launcher = [shutil.which("mpiexec", path=os.path.dirname(sys.executable)), "-n", str(args.processes)]
    command = [*(launcher if args.processes > 1 else []), sys.executable, os.path.abspath(__file__), "--phase", phase]
    for name in ("n_scaling", "threads", "t_sim", "where"):
        command += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    merged = {k: max(r[k] for r in rows) for k in rows[0]}  # the slowest rank, the largest peak
    for k in ("synapses_this_rank", "network_bytes_this_rank"):
        if k in merged:
            merged[k.replace("_this_rank", "")] = sum(r[k] for r in rows)
            del merged[k]
    return merged


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n-scaling", type=float, default=0.1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--t-sim", type=float, default=100.0)
    parser.add_argument("--phase", choices=("save", "load"), help=argparse.SUPPRESS)
    parser.add_argument("--where", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase:
        stdout, sys.stdout = sys.stdout, sys.stderr  # the package prints progress
        result = (save if args.phase == "save" else load)(args)
        sys.stdout = stdout
        print(json.dumps(result))
        return
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR", "/tmp")) as scratch:
        args.where = os.path.join(scratch, "ckpt")
        result = {"n_scaling": args.n_scaling, "processes": args.processes, "threads": args.threads}
        result.update(spawn("save", args))
        on_disk = sum(os.path.getsize(os.path.join(args.where, f)) for f in os.listdir(args.where))
        result.update(spawn("load", args))
        result["checkpoint_bytes"] = on_disk
        result["checkpoint_bytes_per_synapse"] = on_disk / result["synapses"]
        result["network_bytes_per_synapse"] = result["network_bytes"] / result["synapses"]
        result["disk_write_mb_s"] = disk_bandwidth(scratch, on_disk)
        result["save_mb_s"] = on_disk / result["save_s"] / 1e6
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
