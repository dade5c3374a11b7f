#!/usr/bin/env python3
"""hines (Hines et al.'s (2011) artificial-cell network) in NEURON 9, to compare with
``python benchmarks/bench.py hines``.

    python benchmarks/peers/hines_neuron.py --n 16384
    MPI_LIB_NRN_PATH=$VENV/lib/libmpi.so.12 mpiexec -n 2 python benchmarks/peers/hines_neuron.py --n 16384

The same network as Ranvier's hines: N ASC cells (benchmarks/peers/asc.mod, the same cell as
artificial_spiking_cell: U(20, 40) ms intervals from each cell's own Random123 stream, an input
adds its weight to m), each receiving C +- dC inputs (the very same in-degree array as Ranvier's,
ranvier_bench.hines.indegrees, so the synapse count is identical) from sources drawn uniformly
from the other cells (a numpy generator keyed by the target's gid, so the network does not depend
on the number of processes), delay 1 ms, weight 0. The sources and the firing draws are not
Ranvier's own, so spike counts agree statistically, not spike for spike.
Gids are placed round-robin (gid % nhost == rank), built with pc.set_gid2node / pc.cell /
pc.gid_connect, simulated for 200 ms with pc.psolve (fixed step dt = 0.025 ms as in the paper;
events reach artificial cells at their exact times; spikes are exchanged every 1 ms, the
minimum delay, with NEURON's default compressed Allgather).

asc.mod is compiled with nrnivmodl into a temporary folder at run time (or pass --mechanisms
DIR holding an x86_64/ built there). Under MPI, set MPI_LIB_NRN_PATH to the mpich wheel's
libmpi.so.12 (NEURON loads the MPI library named there); the script stops if pc.nhost() does not match the
MPI world size that mpiexec announced.

Prints one JSON object (rank 0) on the last line: setup (create + connect) and run times
(maximum over ranks), spike count, rate, rss per rank and summed.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))  # for ranvier_bench.hines.indegrees without install
try:
    from ranvier_bench.hines import indegrees
except Exception:  # the same function, should ranvier not be importable

    def indegrees(n, c, dc, seed):
        rng = np.random.default_rng([seed, 3])
        return rng.integers(max(0, c - dc), c + dc + 1, size=n, dtype=np.int64)


def rss_mib(key):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def compile_mechanisms():
    """nrnivmodl asc.mod in a new temporary folder; returns the folder."""
    folder = tempfile.mkdtemp(prefix="hines_nrn_")
    shutil.copy(os.path.join(HERE, "asc.mod"), folder)
    nrnivmodl = shutil.which("nrnivmodl") or os.path.join(os.path.dirname(sys.executable), "nrnivmodl")
    subprocess.run([nrnivmodl, "."], cwd=folder, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return folder


def world_size_from_env():
    for key in ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS"):
        if key in os.environ:
            return int(os.environ[key])
    return 1


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=65536, help="cells (default 65536)")
    p.add_argument("--indegree", type=int, default=1000)
    p.add_argument("--indegree-spread", type=int, default=50)
    p.add_argument("--weight", type=float, default=0.0)
    p.add_argument("--time", type=float, default=200.0)
    p.add_argument("--seed", type=int, default=12345)
    p.add_argument("--dt", type=float, default=0.025)
    p.add_argument("--mechanisms", help="folder with asc.mod compiled by nrnivmodl (default: compile now)")
    args = p.parse_args(argv)

    world = world_size_from_env()
    own_build = args.mechanisms is None
    mech_dir = compile_mechanisms() if own_build else args.mechanisms

    import neuron
    from neuron import h

    if world > 1:
        h.nrnmpi_init()
    pc = h.ParallelContext()
    rank, nhost = int(pc.id()), int(pc.nhost())
    if nhost != world:
        raise SystemExit(
            f"NEURON sees {nhost} process(es) but mpiexec started {world}: set "
            "MPI_LIB_NRN_PATH to the mpich wheel's libmpi.so.12 (PEERS.md)"
        )
    neuron.load_mechanisms(mech_dir)
    h.load_file("stdrun.hoc")
    h.dt = args.dt

    n = args.n
    degrees = indegrees(n, args.indegree, args.indegree_spread, args.seed)
    pc.barrier()
    t0 = time.perf_counter()
    cells, ncs = {}, []
    mine = range(rank, n, nhost)
    for gid in mine:
        cell = h.ASC()
        cell.id, cell.seed = gid, args.seed  # the cell's own stream (asc.mod, INITIAL)
        cells[gid] = cell
        pc.set_gid2node(gid, rank)
        pc.cell(gid, h.NetCon(cell, None))
    t_create = time.perf_counter() - t0

    t0 = time.perf_counter()
    for gid in mine:
        rng = np.random.default_rng([args.seed, 7, gid])
        src = rng.integers(0, n - 1, size=int(degrees[gid]))
        src += src >= gid  # sources among the other cells: no autapses, multapses allowed
        cell = cells[gid]
        for s in src.tolist():
            nc = pc.gid_connect(s, cell)
            nc.delay = 1.0
            nc.weight[0] = args.weight
            ncs.append(nc)
    pc.set_maxstep(10)
    pc.barrier()
    t_connect = time.perf_counter() - t0
    rss_build = rss_mib("VmRSS")

    tvec, idvec = h.Vector(), h.Vector()
    pc.spike_record(-1, tvec, idvec)
    t0 = time.perf_counter()
    h.finitialize(-65)
    t_init = time.perf_counter() - t0
    pc.barrier()
    t0 = time.perf_counter()
    pc.psolve(args.time)
    pc.barrier()
    t_run = time.perf_counter() - t0

    def allmax(x):
        return pc.allreduce(float(x), 2)

    def allsum(x):
        return pc.allreduce(float(x), 1)

    spikes = int(allsum(len(tvec)))
    rss_ranks = [pc.allreduce(rss_mib("VmHWM") if r == rank else 0.0, 1) for r in range(nhost)]
    result = {
        "benchmark": "hines",
        "simulator": "NEURON",
        "neuron_version": h.nrnversion(5) if hasattr(h, "nrnversion") else "",
        "processes": nhost,
        "threads": 1,
        "exchange": "allgather (NEURON default)",
        "placement": "round_robin",
        "neurons": n,
        "synapses": int(allsum(len(ncs))),
        "indegree_total": int(degrees.sum()),
        "t_create_s": allmax(t_create),
        "t_connect_s": allmax(t_connect),
        "t_setup_s": allmax(t_create + t_connect),
        "t_finitialize_s": allmax(t_init),
        "t_simulate_s": allmax(t_run),
        "model_time_ms": args.time,
        "rtf": allmax(t_run) / (args.time / 1000.0),
        "spikes": spikes,
        "rate_hz": spikes / n / (args.time / 1000.0),
        "rss_after_build_mib": allsum(rss_build),
        "rss_peak_mib": sum(rss_ranks),
        "rss_peak_per_rank_mib": rss_ranks,
        "dt_ms": args.dt,
        "weight": args.weight,
        "C": args.indegree,
        "indegree_spread": args.indegree_spread,
        "seed": args.seed,
    }
    pc.barrier()
    if rank == 0:
        print(json.dumps(result), flush=True)
    if own_build:
        shutil.rmtree(mech_dir, ignore_errors=True)
    pc.done()
    return 0


if __name__ == "__main__":
    sys.exit(main())
