#!/usr/bin/env python3
"""The Allen network benchmark (issue 24, "Performance") in NEURON 9: N whole Allen perisomatic
cells, built as in benchmarks/peers/neuron_allen_cell.py (Scnn1a_473845048_m.swc, 472363762_fit.json,
the Allen channels compiled by nrnivmodl), connected at random; benchmarks/allen_bench.py
builds the same network in Ranvier and runs this script for the peer in the same invocation.

    PATH=/work/peers-cable/bin:$PATH /work/peers-cable/bin/python benchmarks/peers/allen_bench_peers.py --threads 1

The network (defined here, imported by allen_bench.py without NEURON):
  cells     N cells (gid 0..N-1) of the model: 264 CVs each.
  synapses  one Exp2Syn per cell at soma(0.5), tau1 0.5 ms, tau2 3 ms, e 0 mV; all of a cell's
            inputs target it (Exp2Syn is linear in its events).
  inputs    target i gets K distinct sources, none itself (cable_bench_peers.sources), weight
            W = 0.002 uS, delay 5 ms.
  drive     a clamp per cell at soma(0.5) for the whole run, 0.12 + 0.02 (gid % 5) nA: cells fire
            at ~10-35 Hz on their own, inputs add to it.
  run       dt 0.025 ms, tstop --tstop (ms), threshold -10 mV at soma(0.5).
Prints one JSON line: peer, threads, N, K, cvs, setup and run seconds, ns per CV-step
(run_s * 1e9 / (N * cvs * steps)), spikes, peak RSS and its growth over the build (MiB)."""

import argparse
import json
import tempfile
import time
from pathlib import Path

from cable_bench_peers import rss_mib, sources
from neuron_allen_cell import DT, MODELS, THRESHOLD, build, compile_channels, components

MORPHOLOGY, FIT, _ = MODELS["scnn1a"]
K, W, DELAY = 10, 0.002, 5.0
TAU1, TAU2 = 0.5, 3.0


def amplitude(gid: int) -> float:
    return 0.12 + 0.02 * (gid % 5)


def run_neuron(args) -> dict:
    fit = json.loads((components() / "biophysical_neuron_models" / FIT).read_text())
    with tempfile.TemporaryDirectory() as scratch:
        compile_channels(Path(scratch))
        from neuron import h, load_mechanisms

        load_mechanisms(scratch)
    h.load_file("stdrun.hoc")
    h.load_file("import3d.hoc")
    base = rss_mib("VmRSS")
    start = time.perf_counter()
    pc = h.ParallelContext()
    pc.nthread(args.threads)
    h.dt, h.celsius, h.secondorder = DT, fit["conditions"][0]["celsius"], 0
    cells, keep = [], []
    for gid in range(args.N):
        cell, sections = build(h, MORPHOLOGY, fit)
        synapse = h.Exp2Syn(cell.soma[0](0.5))
        synapse.tau1, synapse.tau2, synapse.e = TAU1, TAU2, 0.0
        clamp = h.IClamp(cell.soma[0](0.5))
        clamp.delay, clamp.dur, clamp.amp = 0.0, 1e9, amplitude(gid)
        pc.set_gid2node(gid, pc.id())
        detector = h.NetCon(cell.soma[0](0.5)._ref_v, None, sec=cell.soma[0])
        detector.threshold = THRESHOLD
        pc.cell(gid, detector)
        cells.append((cell, synapse))
        keep += [clamp, detector]
        cvs = sum(sec.nseg for sec in sections)
    for i, (_, synapse) in enumerate(cells):
        for src in sources(args.N, K, i):
            nc = pc.gid_connect(int(src), synapse)
            nc.weight[0], nc.delay = W, DELAY
            keep.append(nc)
    times, gids = h.Vector(), h.Vector()
    pc.spike_record(-1, times, gids)
    pc.set_maxstep(10)
    h.finitialize(fit["conditions"][0]["v_init"])
    setup = time.perf_counter() - start
    start = time.perf_counter()
    pc.psolve(args.tstop)
    run = time.perf_counter() - start
    steps = round(args.tstop / DT)
    return {
        "peer": "neuron",
        "threads": args.threads,
        "N": args.N,
        "K": K,
        "cvs": cvs,
        "tstop_ms": args.tstop,
        "setup_s": round(setup, 3),
        "run_s": round(run, 3),
        "ns_per_cv_step": round(run * 1e9 / (args.N * cvs * steps), 3),
        "spikes": len(times),
        "peak_rss_mib": round(rss_mib("VmHWM"), 1),
        "model_rss_mib": round(rss_mib("VmHWM") - base, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--N", type=int, default=200)
    parser.add_argument("--tstop", type=float, default=200.0)
    parser.add_argument("--threads", type=int, default=1)
    print(json.dumps(run_neuron(parser.parse_args())), flush=True)


if __name__ == "__main__":
    main()
