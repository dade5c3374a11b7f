"""The cable benchmark (benchmarks/cable_benchmark.md) on Ranvier, and with --peer-python on
NEURON 9 and Arbor 0.12 in the same invocation (benchmarks/peers/cable_bench_peers.py): time per
CV-step, setup time and memory. Prints one JSON line per run, and with peers the ratios.

    .venv/bin/python benchmarks/cable_bench.py [--N 1000 --S 10 --tstop 200 --threads 1 2]
    .venv/bin/python benchmarks/cable_bench.py --peer-python /work/peers-cable/bin/python
    OMP_WAIT_POLICY=passive .venv/bin/mpiexec -n 2 .venv/bin/python benchmarks/cable_bench.py --threads 1
    .venv/bin/python benchmarks/cable_bench.py --mechanisms builtin nmodl   # hh and pas from NEURON's .mod files

With --mechanisms nmodl, hh and pas are NEURON's own hh.mod and passive.mod from the neuron wheel,
compiled by load_mechanisms (their SUFFIXes renamed beside the built-ins); both kinds alternate
in one invocation.

Events act in the dt step that holds their arrival time, as in Arbor, at any network
resolution: by default it is the cells' dt (0.025 ms); with --resolution 0.1 the cells take
four dt steps per network step, and spikes carry their offsets within it, so the network is
the same (docs/cable.md, "Events and their times")."""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "peers"))
# The network is defined once, in the peers' script (imported without NEURON or Arbor).
from cable_bench_peers import (  # noqa: E402
    CVS,
    DELAY,
    DEND_DIAM,
    DEND_L,
    DEND_NCV,
    DT,
    INH_E,
    INH_TAU,
    SOMA_DIAM,
    SOMA_L,
    SYN_E,
    SYN_TAU,
    SYN_X,
    THRESHOLD,
    clamp,
    rss_mib,
    sources,
    synapse_of,
)


def nmodl_names():
    """NEURON's hh.mod and passive.mod loaded under other SUFFIXes: the built-ins' names for them."""
    import importlib.util
    import tempfile
    from pathlib import Path

    import ranvier as rv

    spec = importlib.util.find_spec("neuron")
    assert spec is not None and spec.origin is not None, "--mechanisms nmodl needs the neuron package"
    shipped = Path(spec.origin).parent / ".data" / "share" / "modfile"
    folder = Path(tempfile.mkdtemp())
    for name in ("hh", "passive"):
        suffix = {"hh": "hh", "passive": "pas"}[name]
        text = (shipped / f"{name}.mod").read_text().replace(f"SUFFIX {suffix}", f"SUFFIX {suffix}_mod")
        (folder / f"{name}.mod").write_text(text)
    rv.load_mechanisms(folder)
    return {"hh": "hh_mod", "pas": "pas_mod"}


def cell(n, names=None):
    """The benchmark's ball-and-stick cell, its clamp one value per cell (clamp(gid) of the peers);
    names: other mechanisms for hh and pas."""
    names = names or {"hh": "hh", "pas": "pas"}
    delays, amplitudes = zip(*(clamp(gid) for gid in range(n)))
    return {
        "morphology": {
            "branches": [
                {"name": "soma", "length": SOMA_L, "diameter": SOMA_DIAM},
                {"name": "dend", "parent": "soma", "length": DEND_L, "diameter": DEND_DIAM},
            ]
        },
        "cv_policy": {"per_branch": {"soma": 1, "dend": DEND_NCV}},
        "dt": DT,
        "cm": 1.0,
        "Ra": 100.0,
        "V_init": -65.0,
        "celsius": 6.3,
        "ions": {"na": {"e": 50.0}, "k": {"e": -77.0}},
        "mechanisms": {"soma": {names["hh"]: {}}, "dend": {names["pas"]: {"g": 0.001, "e": -65.0}}},
        "synapses": {
            "exc": {"model": "expsyn", "location": ["dend", SYN_X], "tau": SYN_TAU, "e": SYN_E},
            "inh": {"model": "expsyn", "location": ["soma", 0.5], "tau": INH_TAU, "e": INH_E},
        },
        "spike_detector": {"location": ["soma", 0.5], "threshold": THRESHOLD},
        "current_clamps": [
            {"location": ["soma", 0.5], "duration": 1e9, "delay": list(delays), "amplitude": list(amplitudes)}
        ],
    }


def run_ranvier(args, threads, names=None):
    import ranvier as rv

    rv.ResetKernel()
    base = rss_mib("VmRSS")
    rv.SetKernelStatus({"resolution": args.resolution, "local_num_threads": threads})
    t0 = time.perf_counter()
    cells = rv.Create("cable_cell", args.N, params=cell(args.N, names))
    for i in range(args.N):  # each target's sources, by synapse (exc, inh) and its weight
        by_synapse = {}
        for j in sorted(sources(args.N, args.S, i).tolist()):
            by_synapse.setdefault(synapse_of(j), []).append(j)
        for (name, weight), chosen in by_synapse.items():
            rv.Connect(
                cells[chosen], cells[i : i + 1], "all_to_all", {"weight": weight, "delay": DELAY, "receptor_type": name}
            )
    recorder = rv.Create("spike_recorder")
    rv.Connect(cells, recorder)
    rv.Simulate(args.resolution)  # prepares: part of the setup, as NEURON's finitialize and Arbor's simulation()
    setup = time.perf_counter() - t0
    t0, c0 = time.perf_counter(), time.process_time()
    rv.Simulate(args.tstop - args.resolution)
    run, cpu = time.perf_counter() - t0, time.process_time() - c0
    times = recorder.get("events")["times"]
    steps = round(args.tstop / DT)
    cvs = CVS
    if rv.Rank() != 0:
        return None
    return {
        "peer": "ranvier",
        "mechanisms": "nmodl" if names else "builtin",
        "resolution_ms": args.resolution,
        "threads": threads,
        "processes": rv.NumProcesses(),
        "N": args.N,
        "S": args.S,
        "cvs_per_cell": cvs,
        "tstop_ms": args.tstop,
        "setup_s": round(setup, 3),
        "run_s": round(run, 3),
        "ns_per_cv_step": round(run * 1e9 / (args.N * cvs * steps), 2),
        "cpu_ns_per_cv_step": round(cpu * 1e9 / (args.N * cvs * steps), 2),
        "spikes": len(times),
        "rate_hz": round(len(times) / args.N / (args.tstop / 1000.0), 2),
        "rate_second_half_hz": round(np.sum(times >= args.tstop / 2) / args.N / (args.tstop / 2000.0), 2),
        "peak_rss_mib": round(rss_mib("VmHWM"), 1),
        "model_rss_mib": round(rss_mib("VmHWM") - base, 1),
        "load_avg_1min": os.getloadavg()[0],
    }


def run_peers(args):
    cmd = [
        args.peer_python,
        os.path.join(HERE, "peers", "cable_bench_peers.py"),
        "--N",
        str(args.N),
        "--S",
        str(args.S),
        "--tstop",
        str(args.tstop),
        "--repeat",
        str(args.repeat),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--N", type=int, default=1000)
    p.add_argument("--S", type=int, default=10)
    p.add_argument("--tstop", type=float, default=200.0)
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--resolution", type=float, default=DT, help="network resolution (ms), a multiple of dt")
    p.add_argument("--repeat", type=int, default=3, help="runs per configuration; the fastest is printed")
    p.add_argument("--peer-python", help="a Python with neuron and arbor: runs the peers too")
    p.add_argument("--mechanisms", nargs="+", choices=["builtin", "nmodl"], default=["builtin"])
    args = p.parse_args()
    names = {"builtin": None, "nmodl": nmodl_names() if "nmodl" in args.mechanisms else None}
    rows = []
    for threads in args.threads:
        runs = {kind: [] for kind in args.mechanisms}
        for _ in range(args.repeat):  # the kinds alternate, so that both see the same machine
            for kind in args.mechanisms:
                runs[kind].append(run_ranvier(args, threads, names[kind]))
        for kind in args.mechanisms:
            if runs[kind][0] is not None:
                best = min(runs[kind], key=lambda r: r["run_s"])
                best["run_s_all"] = [r["run_s"] for r in runs[kind]]
                rows.append(best)
                print(json.dumps(best), flush=True)
    if args.peer_python and rows:
        peers = run_peers(args)
        for peer in peers:
            print(json.dumps(peer), flush=True)
        for r in rows:
            for peer in peers:
                if (
                    r["mechanisms"] == "builtin"
                    and peer["threads"] == r["threads"]
                    and peer.get("group_size", 32) == 32
                    and peer.get("cache_efficient", 0) == 0
                ):
                    print(
                        json.dumps(
                            {
                                "ratio": f"{peer['peer']} / ranvier",
                                "threads": r["threads"],
                                "ns_per_cv_step": round(peer["ns_per_cv_step"] / r["ns_per_cv_step"], 2),
                                "setup_s": round(peer["setup_s"] / r["setup_s"], 2),
                            }
                        ),
                        flush=True,
                    )


if __name__ == "__main__":
    main()
