"""The Allen network benchmark (issue 24, "Performance"; the network: benchmarks/peers/allen_bench_peers.py):
N whole Allen perisomatic cells (264 CVs, the Allen channels from BMTK's .mod files through
load_mechanisms, NEURON's Exp2Syn from its exp2syn.mod) on Ranvier, and with --peer-python on
NEURON 9 in the same invocation: time per CV-step, setup time, memory, and the ratios. Prints
one JSON line per run (the fastest of --repeat).

    .venv/bin/python benchmarks/allen_bench.py [--N 200 --tstop 200 --threads 1 2]
    .venv/bin/python benchmarks/allen_bench.py --peer-python /work/peers-cable/bin/python
    OMP_WAIT_POLICY=passive .venv/bin/mpiexec -n 2 .venv/bin/python benchmarks/allen_bench.py --threads 1
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "peers"))
from allen_bench_peers import DELAY, FIT, MORPHOLOGY, TAU1, TAU2, K, W, amplitude  # noqa: E402
from cable_bench_peers import rss_mib, sources  # noqa: E402
from neuron_allen_cell import DT, THRESHOLD, components  # noqa: E402


def load(rv):
    """The Allen channels and NEURON's Exp2Syn."""
    modfiles = components() / "mechanisms" / "modfiles"
    rv.load_mechanisms([f for f in modfiles.glob("*.mod") if f.stem != "vecevent"])
    neuron = Path(importlib.util.find_spec("neuron").origin).parent
    rv.load_mechanisms(neuron / ".data" / "share" / "modfile" / "exp2syn.mod")


def run_ranvier(args, threads):
    import ranvier as rv

    rv.ResetKernel()
    load(rv)
    base = rss_mib("VmRSS")
    rv.SetKernelStatus({"resolution": DT, "local_num_threads": threads})
    start = time.perf_counter()
    cell = rv.allen.perisomatic(
        components() / "morphologies" / MORPHOLOGY, components() / "biophysical_neuron_models" / FIT
    )
    cell["synapses"] = {"syn": {"model": "Exp2Syn", "location": ["soma", 0.5], "tau1": TAU1, "tau2": TAU2}}
    cell["spike_detector"] = {"location": ["soma", 0.5], "threshold": THRESHOLD}
    amplitudes = [amplitude(gid) for gid in range(args.N)]
    cell["current_clamps"] = [{"location": ["soma", 0.5], "delay": 0.0, "duration": 1e9, "amplitude": amplitudes}]
    cells = rv.Create("cable_cell", args.N, params=cell)
    for i in range(args.N):
        chosen = sorted(sources(args.N, K, i).tolist())
        rv.Connect(cells[chosen], cells[i : i + 1], "all_to_all", {"weight": W, "delay": DELAY, "receptor_type": "syn"})
    recorder = rv.Create("spike_recorder")
    rv.Connect(cells, recorder)
    rv.Simulate(DT)  # prepares: part of the setup, as NEURON's finitialize
    setup = time.perf_counter() - start
    start = time.perf_counter()
    rv.Simulate(args.tstop - DT)
    run = time.perf_counter() - start
    cvs = sum(b["n_cv"] for b in rv.cable.branches(cell))
    steps = round(args.tstop / DT)
    if rv.Rank() != 0:
        return None
    return {
        "peer": "ranvier",
        "threads": threads,
        "processes": rv.NumProcesses(),
        "N": args.N,
        "K": K,
        "cvs": cvs,
        "tstop_ms": args.tstop,
        "setup_s": round(setup, 3),
        "run_s": round(run, 3),
        "ns_per_cv_step": round(run * 1e9 / (args.N * cvs * steps), 3),
        "spikes": len(recorder.get("events")["times"]),
        "peak_rss_mib": round(rss_mib("VmHWM"), 1),
        "model_rss_mib": round(rss_mib("VmHWM") - base, 1),
        "load_avg_1min": os.getloadavg()[0],
    }


def run_peer(args, threads):
    script = HERE / "peers" / "allen_bench_peers.py"
    cmd = [args.peer_python, str(script), "--N", str(args.N), "--tstop", str(args.tstop), "--threads", str(threads)]
    env = {**os.environ, "PATH": f"{Path(args.peer_python).parent}:{os.environ['PATH']}"}  # its nrnivmodl
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env, cwd=script.parent)
    return next(json.loads(line) for line in done.stdout.splitlines() if line.startswith("{"))


def best(runs):
    """The fastest run, with every run's time and the memory of the first (a later run in the
    same process reuses what the first took)."""
    fastest = min(runs, key=lambda r: r["run_s"])
    memory = max(r["model_rss_mib"] for r in runs)
    return {**fastest, "model_rss_mib": memory, "run_s_all": [r["run_s"] for r in runs]}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--N", type=int, default=200)
    p.add_argument("--tstop", type=float, default=200.0)
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--repeat", type=int, default=3, help="runs per configuration; the fastest is printed")
    p.add_argument("--peer-python", help="a Python with neuron (and nrnivmodl beside it): runs NEURON too")
    args = p.parse_args()
    for threads in args.threads:
        runs = [run_ranvier(args, threads) for _ in range(args.repeat)]
        if runs[0] is None:
            continue
        mine = best(runs)
        print(json.dumps(mine), flush=True)
        if args.peer_python:
            peer = best([run_peer(args, threads) for _ in range(args.repeat)])
            print(json.dumps(peer), flush=True)
            ratios = {key: round(peer[key] / mine[key], 2) for key in ("ns_per_cv_step", "setup_s", "model_rss_mib")}
            print(json.dumps({"ratio": "neuron / ranvier", "threads": threads, **ratios}), flush=True)


if __name__ == "__main__":
    main()
