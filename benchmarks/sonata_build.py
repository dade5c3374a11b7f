"""Building a SONATA network: SonataNetwork reading the edges in hyperslabs against the same
network made by one Connect of the edges' arrays (read whole), and against NEST 3.10 making it
from the same arrays (its wheel reads no SONATA: it is built without HDF5).

    python benchmarks/sonata_build.py --nodes 100000 --edges 10000000 [--processes 1 2] [--peer-python PY]

The network (iaf_psc_alpha nodes of one type; edges sorted by target as BMTK writes them,
random sources, weights and delays per edge) is written once under --folder. Each case runs in
a fresh process (under mpiexec for 2 processes); prints one JSON object: per case the build
time (wall s), the peak and final resident memory of rank 0 (MiB) and, per edge, the bytes the
network keeps (final - before) and the bytes the build needed beyond them (peak - final).
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MPIEXEC = os.path.join(os.path.dirname(sys.executable), "mpiexec")


def _rss_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def write(folder, nodes, edges, seed=1):
    import h5py

    config = os.path.join(folder, "config.json")
    if os.path.exists(config):
        return config
    os.makedirs(folder)
    rng = np.random.default_rng(seed)
    with open(os.path.join(folder, "node_types.csv"), "w") as f:
        f.write("node_type_id model_type model_template\n1 point_process nest:iaf_psc_alpha\n")
    with open(os.path.join(folder, "edge_types.csv"), "w") as f:
        f.write("edge_type_id model_template\n1 static_synapse\n")
    with h5py.File(os.path.join(folder, "nodes.h5"), "w") as f:
        f["nodes/cells/node_type_id"] = np.ones(nodes, dtype=np.uint32)
    with h5py.File(os.path.join(folder, "edges.h5"), "w") as f:
        g = f.create_group("edges/cells_to_cells")
        chunk = 1 << 22
        for name, dtype in (
            ("source_node_id", "u8"),
            ("target_node_id", "u8"),
            ("edge_type_id", "u4"),
            ("0/syn_weight", "f8"),
            ("0/delay", "f8"),
        ):
            g.create_dataset(name, (edges,), dtype=dtype, chunks=(min(chunk, edges),))
        for name in ("source_node_id", "target_node_id"):
            g[name].attrs["node_population"] = "cells"
        bounds = np.sort(rng.integers(0, edges + 1, nodes - 1))  # each target's edges, in order
        for start in range(0, edges, chunk):
            stop = min(start + chunk, edges)
            g["source_node_id"][start:stop] = rng.integers(0, nodes, stop - start)
            g["target_node_id"][start:stop] = np.searchsorted(bounds, np.arange(start, stop), side="right")
            g["edge_type_id"][start:stop] = 1
            g["0/syn_weight"][start:stop] = rng.uniform(5.0, 20.0, stop - start)
            g["0/delay"][start:stop] = rng.integers(10, 30, stop - start) / 10.0
    with open(config, "w") as f:
        json.dump(
            {
                "manifest": {"$BASE_DIR": "${configdir}"},
                "networks": {
                    "nodes": [{"nodes_file": "$BASE_DIR/nodes.h5", "node_types_file": "$BASE_DIR/node_types.csv"}],
                    "edges": [{"edges_file": "$BASE_DIR/edges.h5", "edge_types_file": "$BASE_DIR/edge_types.csv"}],
                },
                "run": {"tstop": 10.0, "dt": 0.1},
                "target_simulator": "NEST",
            },
            f,
        )
    return config


def _arrays(folder):
    import h5py

    with h5py.File(os.path.join(folder, "edges.h5"), "r") as f:
        g = f["edges/cells_to_cells"]
        return g["source_node_id"][:], g["target_node_id"][:], g["0/syn_weight"][:], g["0/delay"][:]


def case(mode, folder, hyperslab):
    """One build in this process; prints its JSON (rank 0)."""
    simulator = __import__("nest" if mode == "nest" else "ranvier")
    before = _rss_mib()
    t0 = time.perf_counter()
    if mode == "sonata":
        net = simulator.SonataNetwork(os.path.join(folder, "config.json"))
        net.BuildNetwork(hdf5_hyperslab_size=hyperslab)
    else:
        import h5py

        with h5py.File(os.path.join(folder, "nodes.h5"), "r") as f:
            n = f["nodes/cells/node_type_id"].shape[0]
        simulator.SetKernelStatus({"resolution": 0.1})
        simulator.Create("iaf_psc_alpha", n)
        src, tgt, w, d = _arrays(folder)
        simulator.Connect(src + 1, tgt + 1, "one_to_one", {"synapse_model": "static_synapse", "weight": w, "delay": d})
        del src, tgt, w, d
    simulator.Simulate(0.1)  # the connections sorted into their final tables
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    final = _rss_mib()
    if simulator.Rank() == 0:
        print(
            json.dumps(
                {
                    "build_s": round(seconds, 2),
                    "before_mib": round(before, 1),
                    "peak_mib": round(peak, 1),
                    "final_mib": round(final, 1),
                }
            )
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--edges", type=int, default=10_000_000)
    parser.add_argument("--hyperslab", type=int, default=2**20)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--folder", default=None)
    parser.add_argument("--peer-python", default=None, help="a Python with NEST 3.10 and h5py")
    parser.add_argument("--case", nargs=2, metavar=("MODE", "FOLDER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        return case(args.case[0], args.case[1], args.hyperslab)
    folder = args.folder or f"/tmp/sonata_bench_{args.nodes}_{args.edges}"
    t0 = time.perf_counter()
    write(folder, args.nodes, args.edges)
    print(f"network written in {time.perf_counter() - t0:.1f} s: {folder}", file=sys.stderr)
    env = {**os.environ, "OMP_WAIT_POLICY": "passive", "OMP_NUM_THREADS": "1"}
    runs = [(mode, p, sys.executable) for p in args.processes for mode in ("sonata", "connect")]
    if args.peer_python:
        runs.append(("nest", 1, args.peer_python))
    results = {}
    for mode, processes, python in runs:
        command = [python, __file__, "--case", mode, folder, "--hyperslab", str(args.hyperslab)]
        if processes > 1:
            command = [MPIEXEC, "-n", str(processes)] + command
        out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        r["kept_bytes_per_edge_rank0"] = round((r["final_mib"] - r["before_mib"]) * 2**20 / args.edges, 1)
        r["build_bytes_per_edge_rank0"] = round((r["peak_mib"] - r["final_mib"]) * 2**20 / args.edges, 1)
        results[f"{mode}_{processes}p"] = r
        print(f"{mode} on {processes} process(es): {r}", file=sys.stderr)
    print(json.dumps({"nodes": args.nodes, "edges": args.edges, "hyperslab": args.hyperslab, "cases": results}))


if __name__ == "__main__":
    main()
