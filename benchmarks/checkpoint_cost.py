"""What a checkpoint costs, and that a run continued from one is the uninterrupted run: the
Potjans and Diesmann (2014) microcircuit (its authors' package, on Ranvier as ``nest``) or
brunel-small with STDP (benchmarks/README.md) built and run for t_sim ms, saved with
SaveCheckpoint, and loaded in a fresh process with LoadCheckpoint. Prints JSON: seconds to save
and to load, the checkpoint's bytes (in all and per synapse) against the network's bytes in
memory, peak RSS before and during each, and the disk's sequential write bandwidth (dd,
fdatasync) for the save's bytes. The save runs with the given processes x threads, the load
with --load-processes x --load-threads (the same by default). With --check, the loaded run
simulates t_sim ms more and an uninterrupted 2 t_sim run gives its own; the JSON then says
whether every spike (sender and time), every neuron's V_m at the end and (brunel-small) every
plastic weight are the same bit for bit, with their SHA-256 digests.

    .venv/bin/python benchmarks/checkpoint_cost.py --n-scaling 0.1 --threads 2 [--processes 2] [--check]
    .venv/bin/python benchmarks/checkpoint_cost.py --network brunel-small --scale 0.2 --check
"""

import argparse
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

# This directory holds microcircuit.py, whose name is the package's: keep it off the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != HERE]


def peak_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def build_microcircuit(args):
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
    if args.check:  # spikes in memory, to compare
        ranvier.SetStatus(net.spike_recorders, {"record_to": "memory"})
    net.connect()


def build_brunel(args):
    sys.path.insert(0, HERE)
    from ranvier_bench import brunel

    brunel.build("brunel-small", scale=args.scale, threads=args.threads, record=args.check, record_start=0.0)


def build(args):
    (build_microcircuit if args.network == "microcircuit" else build_brunel)(args)


def digests():
    """SHA-256 of every spike (sorted by time, then sender), of every neuron's V_m and of every
    plastic weight (sorted by source, target, weight), as rank 0 sees them."""
    import ranvier

    senders, times = [], []
    for recorder in ranvier.GetNodes({"model": "spike_recorder"}):
        events = recorder.get("events")
        senders.append(np.asarray(events["senders"], dtype=np.int64))
        times.append(np.asarray(events["times"], dtype=np.float64))
    senders, times = np.concatenate(senders), np.concatenate(times)
    order = np.lexsort((senders, times))
    neurons = ranvier.GetNodes({"model": "iaf_psc_exp"}) or ranvier.GetNodes({"model": "iaf_psc_alpha"})
    v_m = np.asarray(neurons.get("V_m"), dtype=np.float64)
    out = {
        "spikes": len(senders),
        "spikes_sha256": hashlib.sha256(senders[order].tobytes() + times[order].tobytes()).hexdigest(),
        "v_m_sha256": hashlib.sha256(v_m.tobytes()).hexdigest(),
    }
    if "stdp_ee" in ranvier.synapse_models:
        c = ranvier.GetConnections(synapse_model="stdp_ee", gather=True)
        source, target, weight = (np.asarray(c.get(k)) for k in ("source", "target", "weight"))
        order = np.lexsort((weight, target, source))
        out["plastic_weights_sha256"] = hashlib.sha256(weight[order].tobytes()).hexdigest()
    return out


def whole(args):
    import ranvier

    build(args)
    ranvier.Simulate(args.t_sim)
    ranvier.Simulate(args.t_sim)
    return digests()


def save(args):
    import ranvier

    build(args)
    ranvier.Simulate(args.t_sim)
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
    out = {"load_s": seconds, "peak_rss_mib_load": peak_mib()}
    if args.check:
        ranvier.Simulate(args.t_sim)
        out.update({f"continued_{k}": v for k, v in digests().items()})
    return out


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


def spawn(phase, args, processes):
    launcher = [shutil.which("mpiexec", path=os.path.dirname(sys.executable)), "-n", str(processes)]
    command = [*(launcher if processes > 1 else []), sys.executable, os.path.abspath(__file__), "--phase", phase]
    threads = args.load_threads if phase == "load" else args.threads
    for name in ("network", "n_scaling", "scale", "t_sim", "where"):
        command += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
    command += ["--threads", str(threads)] + (["--check"] if args.check else [])
    subprocess.run(command, capture_output=True, text=True, check=True)
    rows = []
    for rank in range(processes):
        with open(f"{args.where}-{phase}-{rank}.json") as f:
            rows.append(json.load(f))
    # the slowest rank, the largest peak; rank 0's digests (first)
    merged = {k: rows[0][k] if isinstance(rows[0][k], str) else max(r[k] for r in rows) for k in rows[0]}
    for k in ("synapses_this_rank", "network_bytes_this_rank"):
        if k in merged:
            merged[k.replace("_this_rank", "")] = sum(r[k] for r in rows)
            del merged[k]
    return merged


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--network", choices=("microcircuit", "brunel-small"), default="microcircuit")
    parser.add_argument("--n-scaling", type=float, default=0.1, help="the microcircuit's N_scaling")
    parser.add_argument("--scale", type=float, default=0.2, help="brunel-small's scale")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--load-threads", type=int)
    parser.add_argument("--load-processes", type=int)
    parser.add_argument("--t-sim", type=float, default=100.0)
    parser.add_argument("--check", action="store_true", help="compare the continued run with an uninterrupted one")
    parser.add_argument("--phase", choices=("whole", "save", "load"), help=argparse.SUPPRESS)
    parser.add_argument("--where", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.load_threads = args.load_threads or args.threads
    args.load_processes = args.load_processes or args.processes
    if args.phase:  # each rank's figures into a file of its own (mpiexec interleaves lines)
        result = {"whole": whole, "save": save, "load": load}[args.phase](args)
        import ranvier

        with open(f"{args.where}-{args.phase}-{ranvier.Rank()}.json", "w") as f:
            json.dump(result, f)
        return
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR", "/tmp")) as scratch:
        args.where = os.path.join(scratch, "ckpt")
        result = {"network": args.network, "size": args.n_scaling if args.network == "microcircuit" else args.scale}
        result.update({k: getattr(args, k) for k in ("processes", "threads", "load_processes", "load_threads")})
        result.update(spawn("save", args, args.processes))
        on_disk = sum(os.path.getsize(os.path.join(args.where, f)) for f in os.listdir(args.where))
        per_node = sum(os.path.getsize(os.path.join(args.where, f)) for f in os.listdir(args.where) if "rank-" in f)
        result.update(spawn("load", args, args.load_processes))
        result["checkpoint_bytes"] = on_disk
        result["checkpoint_bytes_per_synapse"] = on_disk / result["synapses"]
        result["rank_files_bytes"] = per_node  # read by every loading rank
        result["network_bytes_per_synapse"] = result["network_bytes"] / result["synapses"]
        result["disk_write_mb_s"] = disk_bandwidth(scratch, on_disk)
        result["save_mb_s"] = on_disk / result["save_s"] / 1e6
        if args.check:
            uninterrupted = spawn("whole", args, args.processes)
            result.update({f"uninterrupted_{k}": v for k, v in uninterrupted.items()})
            result["continues_bit_identically"] = all(result[f"continued_{k}"] == v for k, v in uninterrupted.items())
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
