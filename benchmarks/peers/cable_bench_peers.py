#!/usr/bin/env python3
"""The cable benchmark (benchmarks/cable_benchmark.md) in NEURON 9 and Arbor 0.12.

    /work/peers-cable/bin/python benchmarks/peers/cable_bench_peers.py [--N 1000 --S 10 --tstop 200]
    /work/peers-cable/bin/python benchmarks/peers/cable_bench_peers.py --peer neuron --threads 2

Without --peer it runs NEURON and Arbor at 1 and 2 threads (and each with its other setting,
below, at 1 thread), each run in its own process, in --repeat 3 rounds over all
configurations, and prints one JSON line per configuration (its fastest run; every run time
in run_s_all): peer, threads, N, S, cvs per cell, setup and run seconds,
ns per CV-step = run_s * 1e9 / (N * cvs * steps), the same from the process's CPU time (all
threads summed: less disturbed by other jobs on a shared machine), spikes, rates, peak RSS
(MiB), its growth from before the build (model_rss_mib) and the machine's load average.

The network (all of it is here so that Ranvier can build exactly the same one):
  cells     N ball-and-stick cells, gid 0..N-1. soma: one cylinder L = diam = 20 um, 1 CV, hh
            (NEURON defaults gnabar .12, gkbar .036, gl .0003 S/cm2, el -54.3, ena 50, ek -77 mV;
            NEURON without rate tables). dend: L = 200 um, diam = 1 um, 19 CVs, pas g = 0.001
            S/cm2 e = -65 mV, attached to the soma's distal end. 20 CVs per cell. cm 1 uF/cm2,
            Ra 100 Ohm cm, celsius 6.3 (Arbor 279.45 K), v_init -65 mV.
  synapses  two expsyn per cell: "exc" at dend(0.5) (centre of dend CV 9), tau 2 ms, e 0 mV;
            "inh" at soma(0.5), tau 5 ms, e -80 mV. All inputs of a kind target the one synapse
            (expsyn is linear: the same as one synapse per input at that site).
  detector  soma(0.5), threshold -10 mV.
  inputs    target i gets S distinct sources, none itself:
            j = numpy.random.default_rng([1, i]).choice(N - 1, size=S, replace=False); j += (j >= i).
            A source with gid % 5 == 4 is inhibitory: to "inh" with weight 4 W; the others to
            "exc" with weight W. W = 0.0015 uS, delay 20 ms for all.
  drive     one current clamp per cell at soma(0.5), on for the whole run:
            pacemakers (gid % 10 == 0): 0.2 nA from delay (gid // 10 % 80) * 0.25 ms (staggered
            on the dt grid over 0..19.75 ms), above the ~0.175 nA rheobase: they fire ~65 Hz;
            all other cells: 0.05 nA from t = 0 (below the 0.06 nA that fires an onset spike),
            they fire only when inputs coincide (about 6 Hz at N = 1000, S = 10).
            No random numbers at run time: the network is deterministic. Population rate
            ~11 Hz, stationary (1 s runs, 100 ms windows); W = 0.0012 leaves only the pacemakers
            firing, W = 0.002 drives all cells to ~30 Hz.
  run       dt = 0.025 ms fixed step, tstop 200 ms (--tstop). Spike times and event delivery
            follow each peer's own rules (NEURON: spikes at the end of the crossing step,
            events at the nearest step; Arbor: interpolated spikes, events in the step that
            holds them), so the peers' spike counts agree closely, not spike for spike.
NEURON: ParallelContext (gid2node, gid_connect, psolve), nthread T, cache_efficient 0 (its
default; --cache-efficient 1 measured the same within noise). Arbor: context(threads=T),
partition_load_balance with cable cells in groups of --group-size 32 cells (0: Arbor's
default, one cell per group, about 3x slower here).
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

SEED = 1
SOMA_L = SOMA_DIAM = 20.0
DEND_L, DEND_DIAM, DEND_NCV = 200.0, 1.0, 19
CVS = 1 + DEND_NCV
SYN_X, SYN_TAU, SYN_E = 0.5, 2.0, 0.0  # "exc" at dend(0.5)
INH_TAU, INH_E = 5.0, -80.0  # "inh" at soma(0.5)
INH_EVERY = 5  # gid % 5 == 4: inhibitory source
THRESHOLD = -10.0
W, DELAY = 0.0015, 20.0
G_INH = 4.0  # inhibitory weight = G_INH * W
PACE_AMP, BIAS_AMP, PACE_EVERY = 0.2, 0.05, 10
PACE_STAGGER, PACE_STEP = 80, 0.25
DT = 0.025


def sources(n, s, i):
    """The S distinct sources of target i (never i itself)."""
    j = np.random.default_rng([SEED, i]).choice(n - 1, size=s, replace=False)
    return j + (j >= i)


def synapse_of(src):
    """(label, weight uS) of a connection from cell src."""
    return ("inh", G_INH * W) if src % INH_EVERY == INH_EVERY - 1 else ("exc", W)


def clamp(gid):
    """(delay ms, amplitude nA) of the cell's clamp: pacemakers start staggered on the dt grid."""
    if gid % PACE_EVERY == 0:
        return (gid // PACE_EVERY % PACE_STAGGER) * PACE_STEP, PACE_AMP
    return 0.0, BIAS_AMP


def rss_mib(key):
    """VmHWM (peak) or VmRSS (now) of this process in MiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def run_neuron(args):
    from neuron import h

    h.load_file("stdrun.hoc")
    base = rss_mib("VmRSS")
    t0 = time.perf_counter()
    pc = h.ParallelContext()
    pc.nthread(args.threads)
    h.cvode.cache_efficient(args.cache_efficient)
    h.celsius = 6.3
    h.usetable_hh = 0
    h.secondorder = 0
    h.dt = DT
    cells = []
    for gid in range(args.N):
        soma = h.Section(name=f"soma{gid}")
        soma.L, soma.diam = SOMA_L, SOMA_DIAM
        soma.insert("hh")
        dend = h.Section(name=f"dend{gid}")
        dend.L, dend.diam, dend.nseg = DEND_L, DEND_DIAM, DEND_NCV
        dend.insert("pas")
        for seg in dend:
            seg.pas.g, seg.pas.e = 0.001, -65.0
        dend.connect(soma(1), 0)
        for sec in (soma, dend):
            sec.cm, sec.Ra = 1.0, 100.0
        soma.ena, soma.ek = 50.0, -77.0
        exc = h.ExpSyn(dend(SYN_X))
        exc.tau, exc.e = SYN_TAU, SYN_E
        inh = h.ExpSyn(soma(0.5))
        inh.tau, inh.e = INH_TAU, INH_E
        ic = h.IClamp(soma(0.5))
        (ic.delay, ic.amp), ic.dur = clamp(gid), 1e9
        pc.set_gid2node(gid, pc.id())
        det = h.NetCon(soma(0.5)._ref_v, None, sec=soma)
        det.threshold = THRESHOLD
        pc.cell(gid, det)
        cells.append((soma, dend, {"exc": exc, "inh": inh}, ic))
    netcons = []
    for gid in range(args.N):
        for src in sources(args.N, args.S, gid):
            label, weight = synapse_of(src)
            nc = pc.gid_connect(int(src), cells[gid][2][label])
            nc.weight[0], nc.delay = weight, DELAY
            netcons.append(nc)
    tvec, idvec = h.Vector(), h.Vector()
    pc.spike_record(-1, tvec, idvec)
    pc.set_maxstep(10)
    h.finitialize(-65.0)
    setup = time.perf_counter() - t0
    t0, c0 = time.perf_counter(), time.process_time()
    pc.psolve(args.tstop)
    run = (time.perf_counter() - t0, time.process_time() - c0)
    return setup, run, base, np.array(tvec), np.array(idvec), {"cache_efficient": args.cache_efficient}


def run_arbor(args):
    import arbor as A
    from arbor import units as U

    base = rss_mib("VmRSS")
    t0 = time.perf_counter()
    total = SOMA_L + DEND_L  # no fork: soma and dend are one branch, positions along it

    def loc(um):
        return f"(location 0 {um / total!r})"

    tree = A.segment_tree()
    soma_seg = tree.append(A.mnpos, A.mpoint(0, 0, 0, SOMA_DIAM / 2), A.mpoint(SOMA_L, 0, 0, SOMA_DIAM / 2), tag=1)
    tree.append(soma_seg, A.mpoint(SOMA_L, 0, 0, DEND_DIAM / 2), A.mpoint(total, 0, 0, DEND_DIAM / 2), tag=3)
    morph = A.morphology(tree)
    labels = A.label_dict({"soma": "(tag 1)", "dend": "(tag 3)"})
    bounds = [0.0] + [(SOMA_L + DEND_L * k / DEND_NCV) / total for k in range(DEND_NCV + 1)]
    policy = A.cv_policy_explicit("(sum " + " ".join(f"(location 0 {b!r})" for b in bounds) + ")")

    def make_cell(delay, amp):
        dec = A.decor()
        dec.set_property(Vm=-65 * U.mV, cm=0.01 * U.F / U.m2, rL=100 * U.Ohm * U.cm, tempK=(6.3 + 273.15) * U.Kelvin)
        dec.set_ion("na", rev_pot=50 * U.mV)
        dec.set_ion("k", rev_pot=-77 * U.mV)
        dec.paint('"soma"', A.density("hh"))
        dec.paint('"dend"', A.density("pas/e=-65", g=0.001))
        dec.place(loc(SOMA_L + DEND_L * SYN_X), A.synapse("expsyn", tau=SYN_TAU, e=SYN_E), "exc")
        dec.place(loc(SOMA_L / 2), A.synapse("expsyn", tau=INH_TAU, e=INH_E), "inh")
        dec.place(loc(SOMA_L / 2), A.threshold_detector(THRESHOLD * U.mV), "det")
        dec.place(loc(SOMA_L / 2), A.i_clamp(delay * U.ms, 1e9 * U.ms, amp * U.nA))
        return A.cable_cell(morph, dec, labels, policy)

    kinds = {}  # one description per distinct clamp
    n, s = args.N, args.S

    class Recipe(A.recipe):
        def __init__(self):
            A.recipe.__init__(self)
            self.props = A.neuron_cable_properties()

        def num_cells(self):
            return n

        def cell_kind(self, gid):
            return A.cell_kind.cable

        def cell_description(self, gid):
            key = clamp(gid)
            if key not in kinds:
                kinds[key] = make_cell(*key)
            return kinds[key]

        def connections_on(self, gid):
            return [A.connection((int(src), "det"), *synapse_of(src), DELAY * U.ms) for src in sources(n, s, gid)]

        def global_properties(self, kind):
            return self.props

    recipe = Recipe()
    ctx = A.context(threads=args.threads)
    if args.group_size:
        hints = {A.cell_kind.cable: A.partition_hint(cpu_group_size=args.group_size)}
        decomp = A.partition_load_balance(recipe, ctx, hints)
    else:  # Arbor's default: one cell per group
        decomp = A.partition_load_balance(recipe, ctx)
    sim = A.simulation(recipe, ctx, decomp)
    sim.record(A.spike_recording.all)
    setup = time.perf_counter() - t0
    t0, c0 = time.perf_counter(), time.process_time()
    sim.run(args.tstop * U.ms, DT * U.ms)
    run = (time.perf_counter() - t0, time.process_time() - c0)
    spikes = sim.spikes()
    return setup, run, base, spikes["time"], spikes["source"]["gid"], {"group_size": args.group_size or 1}


def one(args):
    import importlib.metadata as md

    setup, (run, cpu), base, times, gids, extra = (run_neuron if args.peer == "neuron" else run_arbor)(args)
    late = times >= args.tstop / 2  # sustained activity: the second half of the run
    steps = round(args.tstop / DT)
    out = {
        "peer": args.peer,
        "version": md.version(args.peer),
        "threads": args.threads,
        "N": args.N,
        "S": args.S,
        "cvs_per_cell": CVS,
        "tstop_ms": args.tstop,
        "setup_s": round(setup, 3),
        "run_s": round(run, 3),
        "ns_per_cv_step": round(run * 1e9 / (args.N * CVS * steps), 2),
        "run_cpu_s": round(cpu, 3),
        "cpu_ns_per_cv_step": round(cpu * 1e9 / (args.N * CVS * steps), 2),
        "spikes": len(times),
        "rate_hz": round(len(times) / args.N / (args.tstop / 1000.0), 2),
        "rate_second_half_hz": round(late.sum() / args.N / (args.tstop / 2000.0), 2),
        "cells_firing_second_half": len(np.unique(gids[late])),
        "peak_rss_mib": round(rss_mib("VmHWM"), 1),
        "model_rss_mib": round(rss_mib("VmHWM") - base, 1),
        "load_avg_1min": os.getloadavg()[0],
    }
    out.update(extra)
    print(json.dumps(out), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--N", type=int, default=1000)
    ap.add_argument("--S", type=int, default=10)
    ap.add_argument("--tstop", type=float, default=200.0)
    ap.add_argument("--peer", choices=["neuron", "arbor"], help="one run of this peer (default: all runs)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument(
        "--group-size",
        type=int,
        default=32,
        help="Arbor: cable cells per cell group (0: Arbor's default partition, one per group)",
    )
    ap.add_argument("--repeat", type=int, default=3, help="runs per configuration; the fastest is printed")
    ap.add_argument(
        "--cache-efficient",
        type=int,
        choices=[0, 1],
        default=0,
        help="NEURON: cvode.cache_efficient (its default 0 measured faster here)",
    )
    args = ap.parse_args()
    if args.N < 2 or not 1 <= args.S < args.N:
        ap.error(f"need N >= 2 and 1 <= S < N, got N={args.N} S={args.S}")
    if args.peer:
        return one(args)
    # Each peer with 1 and 2 threads, then its other setting with 1 thread.
    runs = (
        [("neuron", t, []) for t in (1, 2)]
        + [("arbor", t, []) for t in (1, 2)]
        + [("neuron", 1, ["--cache-efficient", "1"]), ("arbor", 1, ["--group-size", "0"])]
    )
    results = [[] for _ in runs]
    for _ in range(args.repeat):  # the machine is shared: rounds over all runs, the fastest kept
        for k, (peer, threads, extra) in enumerate(runs):
            cmd = [
                sys.executable,
                os.path.abspath(__file__),
                "--peer",
                peer,
                "--threads",
                str(threads),
                "--N",
                str(args.N),
                "--S",
                str(args.S),
                "--tstop",
                str(args.tstop),
            ] + extra
            done = subprocess.run(cmd, capture_output=True, text=True)
            lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
            if done.returncode or not lines:
                sys.exit(f"{peer} threads={threads} failed:\n{done.stderr[-2000:]}")
            results[k].append(json.loads(lines[-1]))
    for rows in results:
        out = min(rows, key=lambda r: r["run_s"])
        out["run_s_all"] = [r["run_s"] for r in rows]
        out["cpu_ns_per_cv_step_min"] = min(r["cpu_ns_per_cv_step"] for r in rows)
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
