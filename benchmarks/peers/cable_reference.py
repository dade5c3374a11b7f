#!/usr/bin/env python3
"""Reference traces of two small cable cells, and a ring of them, from NEURON 9 and Arbor 0.12,
written as CSV fixtures into tests/fixtures/cable/ for Ranvier's cable-cell tests (issue 13).

    python3 -m venv /work/peers-cable && /work/peers-cable/bin/pip install neuron 'arbor==0.12.*' numpy
    /work/peers-cable/bin/python benchmarks/peers/cable_reference.py [--pade-check]
    /work/peers-cable/bin/python benchmarks/peers/cable_reference.py --delivery-check

Cases (both peers, the same discretisation, dt = 0.025 ms fixed step, backward Euler):
  hh_soma       one CV, soma L = diam = 18.8 um, hh (defaults, NEURON without rate tables),
                IClamp at the soma: delay 10 ms, dur 100 ms, amp 0.1 nA; tstop 120 ms
  ball_stick_w0.001 / _w0.01 / _w0.05
                soma L = diam = 20 um (1 CV, hh), dend L = 200 um diam 1 um (21 CVs,
                pas g = 0.001 S/cm2 e = -65 mV) attached to soma(1); ExpSyn at dend(0.5)
                tau 2 ms e 0 mV driven by events at 5, 15, 15.5, 16, 40 ms with weight
                0.001 uS (subthreshold), 0.01 or 0.05 uS (the soma spikes 3 times); tstop 60 ms
  ball_stick_offgrid_w0.01
                the same with weight 0.01 uS and events off the dt grid at 5.01, 15.02, 15.51,
                16.013, 40.024 ms (the peers round them differently)
  ball_stick_offgrid02_w0.01
                the same with events 0.2 or 0.8 dt past a boundary: 5.005, 15.02, 15.505, 16.02,
                40.005 ms (NEURON acts from the nearest step, 5.0 15.025 15.5 16.025 40.0; Arbor
                from the step that holds the event, 5.0 15.0 15.5 16.0 40.0)
  ring8         8 of those ball-and-sticks in a ring: cell i -> cell (i + 1) % 8, spike threshold
                -10 mV at soma(0.5), onto the ExpSyn at dend(0.5) with weight 0.05 uS, delay 5 ms;
                started by one event at 10.005 ms (off the grid), weight 0.05 uS, on cell 0;
                tstop 100 ms. Trace: cell 0's soma and dend(0.5); spikes: every cell's, as cases
                ring8_cell0 .. ring8_cell7 of spikes.csv
All: cm 1 uF/cm2, Ra 100 Ohm cm, celsius 6.3 (Arbor: 279.45 K), v_init -65 mV,
ena 50 mV, ek -77 mV, spike threshold -10 mV at soma(0.5).
Traces are written every 0.1 ms (every 4th step); spike times come from the full-dt trace.
tests/fixtures/cable/README.md lists the files and the conventions reconciled here.
--pade-check also runs NEURON with hh_pade.mod (hh with Arbor's Pade gate step) and prints its
differences from Arbor: the HH difference between the peers is that step alone.
--delivery-check writes nothing: it prints at which dt step each peer acts on an event 0 .. 0.8 dt
past a boundary, from a generator and from another cell's spike (README item 9).
"""

import argparse
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "tests", "fixtures", "cable")
DT = 0.025
THRESHOLD = -10.0
# Event times of the ball-and-stick cases: on the dt grid, and off it (where NEURON rounds to
# the nearest step and Arbor down to the step that holds the event).
EVENTS = {
    "ball_stick": [5.0, 15.0, 15.5, 16.0, 40.0],
    "ball_stick_offgrid": [5.01, 15.02, 15.51, 16.013, 40.024],
    "ball_stick_offgrid02": [5.005, 15.02, 15.505, 16.02, 40.005],
}
WEIGHTS = [0.001, 0.01, 0.05]
RING_CELLS, RING_WEIGHT, RING_DELAY, RING_KICK, RING_TSTOP = 8, 0.05, 5.0, 10.005, 100.0
# --delivery-check: generator events 0, 0.2, 0.496, 0.5, 0.504 and 0.8 dt past the boundary at 5 ms.
DELIVERY_TIMES = [5.0, 5.005, 5.0124, 5.0125, 5.0126, 5.02]
DEND_NCV = 21
# Dendrite sites recorded; NEURON maps dend(0.95) to the node of segment 19, centre 19.5/21.
DEND_SITES = [0.5, 0.95]


def cv_centre(x, n):
    """Centre of the CV (of n equal CVs on a branch) that holds position x, as NEURON's seg.x."""
    k = min(int(x * n), n - 1)
    return (k + 0.5) / n


def crossings(t, v, threshold=THRESHOLD):
    """Linearly interpolated upward threshold crossings of a trace sampled every dt."""
    k = np.nonzero((v[:-1] < threshold) & (v[1:] >= threshold))[0]
    return t[k] + (threshold - v[k]) / (v[k + 1] - v[k]) * (t[k + 1] - t[k])


# ---------------------------------------------------------------- NEURON


def neuron_init(hh="hh", mechanisms=None, exact=0):
    from neuron import h

    if mechanisms:
        h.nrn_load_dll(mechanisms)
        h.exact_hhpade = exact
    h.load_file("stdrun.hoc")
    h.celsius = 6.3
    h.usetable_hh = 0
    h.secondorder = 0
    h.CVode().active(0)
    h.dt = DT
    h.steps_per_ms = 1.0 / DT
    return h


def neuron_cell(h, case, hh, i):
    """One cell: its soma, its synapse (None for hh_soma), the segments recorded and the objects to keep."""
    soma = h.Section(name=f"soma_{i}")
    soma.nseg = 1
    soma.insert(hh)
    if case == "hh_soma":
        soma.L = soma.diam = 18.8
        ic = h.IClamp(soma(0.5))
        ic.delay, ic.dur, ic.amp = 10.0, 100.0, 0.1
        soma.cm, soma.Ra = 1.0, 100.0
        soma.ena, soma.ek = 50.0, -77.0
        return soma, None, [soma(0.5)], [ic]
    soma.L = soma.diam = 20.0
    dend = h.Section(name=f"dend_{i}")
    dend.L, dend.diam, dend.nseg = 200.0, 1.0, DEND_NCV
    dend.insert("pas")
    for seg in dend:
        seg.pas.g, seg.pas.e = 0.001, -65.0
    dend.connect(soma(1), 0)
    syn = h.ExpSyn(dend(0.5))
    syn.tau, syn.e = 2.0, 0.0
    for sec in (soma, dend):
        sec.cm, sec.Ra = 1.0, 100.0
    soma.ena, soma.ek = 50.0, -77.0
    return soma, syn, [soma(0.5)] + [dend(x) for x in DEND_SITES], [dend]


def neuron_net(case, n, generators, links, tstop, hh="hh", mechanisms=None, exact=0):
    """n cells of `case`; generators {cell: (weight, event times)}, links [(source, target, weight, delay)].
    Returns t, V (step, cell, site) every dt, and each cell's NetCon spike times."""
    h = neuron_init(hh, mechanisms, exact)
    cells = [neuron_cell(h, case, hh, i) for i in range(n)]
    keep, spikes = [], []
    for soma, _, _, _ in cells:
        det = h.NetCon(soma(0.5)._ref_v, None, sec=soma)
        det.threshold = THRESHOLD
        spikes.append(h.Vector())
        det.record(spikes[-1])
        keep.append(det)
    for source, target, weight, delay in links:
        soma = cells[source][0]
        nc = h.NetCon(soma(0.5)._ref_v, cells[target][1], sec=soma)
        nc.threshold, nc.delay, nc.weight[0] = THRESHOLD, delay, weight
        keep.append(nc)
    # pip's NEURON has no VecStim: a source-less NetCon takes the events (NetCon.event after
    # finitialize delivers at the given time exactly, without the NetCon delay).
    stims = []
    for cell, (weight, times) in generators.items():
        nc = h.NetCon(None, cells[cell][1])
        nc.weight[0] = weight
        stims.append((nc, times))
    tvec = h.Vector().record(h._ref_t)
    recs = [[h.Vector().record(seg._ref_v) for seg in sites] for _, _, sites, _ in cells]
    h.finitialize(-65.0)
    for nc, times in stims:
        for te in times:
            nc.event(te)
    h.continuerun(tstop)
    m = int(round(tstop / DT))  # samples at k*dt, k < m, as Arbor's
    t = np.arange(m) * DT
    assert np.allclose(np.array(tvec)[:m], t, atol=1e-9)
    v = np.array([[np.array(r)[:m] for r in cell] for cell in recs]).transpose(2, 0, 1)
    return t, v, [np.array(s) for s in spikes]


# ---------------------------------------------------------------- Arbor


def arbor_cell(case):
    """The cell of `case` and its probes (soma, then the dendrite sites), tagged v0, v1, ..."""
    import arbor as A
    from arbor import units as U

    tree = A.segment_tree()
    if case == "hh_soma":
        tree.append(A.mnpos, A.mpoint(0, 0, 0, 9.4), A.mpoint(18.8, 0, 0, 9.4), tag=1)
        soma_len, total = 18.8, 18.8
    else:
        s = tree.append(A.mnpos, A.mpoint(0, 0, 0, 10.0), A.mpoint(20, 0, 0, 10.0), tag=1)
        tree.append(s, A.mpoint(20, 0, 0, 0.5), A.mpoint(220, 0, 0, 0.5), tag=3)
        soma_len, total = 20.0, 220.0

    # Without a fork, Arbor makes soma + dend ONE branch (branch 0, arc length 0..total um):
    # locations are positions along it.
    def loc(um):
        return f"(location 0 {um / total!r})"

    def dend_um(x):
        return soma_len + 200.0 * x

    labels = A.label_dict({"soma": "(tag 1)", "dend": "(tag 3)"})
    dec = A.decor()
    dec.set_property(Vm=-65 * U.mV, cm=0.01 * U.F / U.m2, rL=100 * U.Ohm * U.cm, tempK=(6.3 + 273.15) * U.Kelvin)
    dec.set_ion("na", rev_pot=50 * U.mV)
    dec.set_ion("k", rev_pot=-77 * U.mV)
    dec.paint('"soma"', A.density("hh"))
    soma_site = loc(soma_len / 2)
    dec.place(soma_site, A.threshold_detector(THRESHOLD * U.mV), "det")
    dec.place(soma_site, A.synapse("expsyn"), "sink")  # see arbor_net
    probes = [A.cable_probe_membrane_voltage(soma_site, "v0")]
    if case == "hh_soma":
        dec.place(soma_site, A.i_clamp(10 * U.ms, 100 * U.ms, 0.1 * U.nA))
        boundaries = [0.0, 1.0]
    else:
        dec.paint('"dend"', A.density("pas/e=-65", g=0.001))  # e is a global of Arbor's pas
        dec.place(loc(dend_um(0.5)), A.synapse("expsyn", tau=2.0, e=0.0), "syn")
        # Probe at the CV centre: Arbor interpolates between CV centres elsewhere.
        probes += [
            A.cable_probe_membrane_voltage(loc(dend_um(cv_centre(x, DEND_NCV))), f"v{i + 1}")
            for i, x in enumerate(DEND_SITES)
        ]
        boundaries = [0.0] + [dend_um(k / DEND_NCV) / total for k in range(DEND_NCV + 1)]
    policy = A.cv_policy_explicit("(sum " + " ".join(f"(location 0 {b!r})" for b in boundaries) + ")")
    cell = A.cable_cell(tree, dec, labels, policy)
    ncv = A.cv_data(cell).num_cv
    assert ncv == (1 if case == "hh_soma" else 1 + DEND_NCV), ncv
    return cell, probes


def arbor_net(case, n, generators, links, tstop):
    """As neuron_net: n cells of `case`, generators {cell: (weight, times)}, links [(source, target,
    weight, delay)]. Returns t, V (step, cell, site) every dt, and each cell's detector spike times."""
    import arbor as A
    from arbor import units as U

    cell, probes = arbor_cell(case)

    class Recipe(A.recipe):
        def __init__(self):
            A.recipe.__init__(self)
            self.props = A.neuron_cable_properties()

        def num_cells(self):
            return n

        def cell_kind(self, gid):
            return A.cell_kind.cable

        def cell_description(self, gid):
            return cell

        def probes(self, gid):
            return probes

        def global_properties(self, kind):
            return self.props

        def event_generators(self, gid):
            if gid not in generators:
                return []
            weight, times = generators[gid]
            return [A.event_generator("syn", weight, A.explicit_schedule([te * U.ms for te in times]))]

        def connections_on(self, gid):
            inputs = [
                A.connection((source, "det"), "syn", weight, delay * U.ms)
                for source, target, weight, delay in links
                if target == gid
            ]
            # Arbor 0.12 records no spikes from a recipe without connections: a self-connection
            # of weight 0 whose delay lies beyond tstop (it changes nothing) makes it record them.
            return inputs or [A.connection((gid, "det"), "sink", 0.0, 2 * tstop * U.ms)]

    sim = A.simulation(Recipe())
    sim.record(A.spike_recording.all)
    handles = [
        [sim.sample((gid, f"v{i}"), A.regular_schedule(DT * U.ms)) for i in range(len(probes))] for gid in range(n)
    ]
    sim.run(tstop * U.ms, DT * U.ms)
    m = int(round(tstop / DT))
    t = np.arange(m) * DT
    data = [[sim.samples(hd)[0][0] for hd in cell_handles] for cell_handles in handles]
    # Arbor's steps start again at each epoch's end (half the least connection delay): they are
    # the k dt grid only when that is a multiple of dt.
    assert all(len(d) == m and np.allclose(d[:, 0], t, atol=1e-9) for cell_data in data for d in cell_data)
    v = np.array([[d[:, 1] for d in cell_data] for cell_data in data]).transpose(2, 0, 1)
    spikes = [np.sort([s[1] for s in sim.spikes() if s[0][0] == gid]) for gid in range(n)]
    return t, v, spikes


# ---------------------------------------------------------------- writing


def write_trace(path, header, t, traces, columns):
    keep = slice(0, None, 4)
    with open(path, "w") as f:
        for line in header:
            f.write("# " + line + "\n")
        f.write(",".join(["t_ms"] + columns) + "\n")
        for ti, row in zip(t[keep], traces[keep]):
            f.write(f"{ti:.3f}," + ",".join(f"{x:.9f}" for x in row) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=OUT)
    ap.add_argument(
        "--pade-check",
        action="store_true",
        help="also run NEURON with hh_pade.mod (hh whose gates use Arbor's Pade step) and "
        "print its largest differences from Arbor",
    )
    ap.add_argument(
        "--delivery-check",
        action="store_true",
        help="only print at which dt step each peer acts on events off the dt grid (writes nothing)",
    )
    args = ap.parse_args()
    if args.delivery_check:
        delivery_check()
        return
    os.makedirs(args.out, exist_ok=True)
    import arbor
    import neuron

    versions = {"neuron": f"NEURON {neuron.__version__}", "arbor": f"Arbor {arbor.__version__}"}
    cases = (
        [("hh_soma", None)]
        + [(f"ball_stick_w{w}", w) for w in WEIGHTS]
        + [("ball_stick_offgrid_w0.01", 0.01), ("ball_stick_offgrid02_w0.01", 0.01), ("ring8", None)]
    )
    results = {}
    spike_rows = []
    for peer in ("neuron", "arbor"):
        for name, w in cases:
            t, v, det = run_case(peer, name, w)
            interp = []
            for i, cell_det in enumerate(det):
                interp.append(crossings(t, v[:, i, 0]))
                assert len(cell_det) == len(interp[-1]), (peer, name, i, cell_det, interp[-1])
                label = f"{name}_cell{i}" if len(det) > 1 else name
                spike_rows += [(peer, label, a, b) for a, b in zip(cell_det, interp[-1])]
            # ring8: cell 0's soma and dend(0.5) (its synapse); the other cases: every site of their cell
            traces = v[:, 0, :2] if name == "ring8" else v[:, 0, :]
            results[peer, name] = (traces, np.concatenate(interp))
            columns = ["v_soma_mV"] + [f"v_dend_{x}_mV" for x in DEND_SITES][: traces.shape[1] - 1]
            whose = "cell 0's CV" if name == "ring8" else "the CV"
            header = [
                f"{versions[peer]}, case {name}: see benchmarks/peers/cable_reference.py and README.md",
                setup_line(name, w),
                peer_line(peer, name),
                f"V of {whose} holding each site, sampled every 0.1 ms (every 4th step of dt 0.025 ms)",
            ]
            write_trace(os.path.join(args.out, f"{peer}_{name}.csv"), header, t, traces, columns)
            for i, cell_interp in enumerate(interp):
                print(
                    peer, name + (f" cell {i}" if len(interp) > 1 else ""), "spikes", np.round(cell_interp, 4).tolist()
                )
    with open(os.path.join(args.out, "spikes.csv"), "w") as f:
        f.write(
            f"# {versions['neuron']} and {versions['arbor']}; cases as in the trace files; threshold -10 mV at soma(0.5)\n"
        )
        f.write(
            "# t_detector_ms: the peer's own spike time (NEURON NetCon: first grid time with V >= threshold,"
            " not interpolated; Arbor threshold_detector: linear interpolation between steps)\n"
        )
        f.write("# t_interpolated_ms: linear interpolation of the upward crossing from the dt = 0.025 ms trace\n")
        f.write("# ring8_cell<i>: the spikes of cell i of case ring8\n")
        f.write("peer,case,t_detector_ms,t_interpolated_ms\n")
        for peer, name, a, b in spike_rows:
            f.write(f"{peer},{name},{a:.9f},{b:.9f}\n")
    for name, _ in cases:
        compare("NEURON vs Arbor", name, results["neuron", name], results["arbor", name])
    if args.pade_check:
        dll = compile_pade()
        t, v, _ = run_case("neuron", "hh_soma", None, hh="hhpade", mechanisms=dll, exact=1)
        compare(
            "NEURON hh_pade with exact_hhpade = 1 vs NEURON hh",
            "hh_soma",
            (v[:, 0, :], crossings(t, v[:, 0, 0])),
            results["neuron", "hh_soma"],
        )
        for name, w in cases:
            if name == "ring8":
                continue
            t, v, _ = run_case("neuron", name, w, hh="hhpade", mechanisms=dll)
            compare("NEURON hh_pade vs Arbor", name, (v[:, 0, :], crossings(t, v[:, 0, 0])), results["arbor", name])


def case_setup(name, w):
    """(cell, number of cells, generators, links, tstop) of a fixture case, as neuron_net and arbor_net take them."""
    if name == "hh_soma":
        return "hh_soma", 1, {}, [], 120.0
    if name == "ring8":
        links = [(i, (i + 1) % RING_CELLS, RING_WEIGHT, RING_DELAY) for i in range(RING_CELLS)]
        return "ball_stick", RING_CELLS, {0: (RING_WEIGHT, [RING_KICK])}, links, RING_TSTOP
    return "ball_stick", 1, {0: (w, EVENTS[name.split("_w")[0]])}, [], 60.0


def run_case(peer, name, w, **kw):
    return run_net(peer, *case_setup(name, w), **kw)


def run_net(peer, *setup, **kw):
    if peer == "arbor":
        return arbor_net(*setup)
    # NEURON keeps one global model per process: each NEURON run is made in a child.
    return in_child(neuron_net, *setup, **kw)


def compare(what, name, a, b):
    dv = np.abs(a[0] - b[0]).max(axis=0)
    dt = np.abs(a[1] - b[1]).max(initial=0.0) if len(a[1]) == len(b[1]) else float("nan")
    print(f"{what} {name}: max |dV| per site (mV) {np.array2string(dv, precision=6)}, max |d spike time| (ms) {dt:.2e}")


# ---------------------------------------------------------------- event delivery


def past_boundary(te):
    """How far (in dt) an event time lies past the dt boundary before it."""
    k = np.floor(te / DT + 1e-9)
    return (te - k * DT) / DT


def acts_from(t, v, rest):
    """Start of the first dt step whose end V differs from the run without the event: the step that acts on it."""
    first = np.nonzero(v != rest)[0][0]
    return t[first - 1]


def delivery_check():
    """Prints at which dt step each peer starts to act on an event, from a generator (events at
    DELIVERY_TIMES, weight 0.01 uS) and from another cell's spike (cell 0 -> cell 1 of two
    ball-and-sticks, cell 0 kicked at 5 ms with 0.05 uS; delay 5 ms, and delays that put the
    event 0.2 and 0.8 dt past a boundary). The step found is checked by moving the event onto
    that step's start: the receiving cell's V must be the same bits."""
    rows = []
    for peer in ("neuron", "arbor"):
        rest = run_net(peer, "ball_stick", 1, {}, [], 10.0)[1]
        for te in DELIVERY_TIMES:
            t, v, _ = run_net(peer, "ball_stick", 1, {0: (0.01, [te])}, [], 10.0)
            step = acts_from(t, v[:, 0, 1], rest[:, 0, 1])
            on_grid = run_net(peer, "ball_stick", 1, {0: (0.01, [step])}, [], 10.0)[1]
            rows.append(("generator", peer, "", "", te, step, np.abs(v - on_grid).max()))
        # A weight-0 link 1 -> 0 of 5 ms keeps Arbor's least delay, and so its epochs (2.5 ms,
        # 100 dt), the same whatever the delay checked (>= 5 ms).
        kick, pin = {0: (0.05, [5.0])}, (1, 0, 0.0, 5.0)
        rest = run_net(peer, "ball_stick", 2, {}, [(0, 1, 0.05, 5.0), pin], 20.0)[1]
        spike = run_net(peer, "ball_stick", 2, kick, [(0, 1, 0.05, 5.0), pin], 20.0)[2][0][0]
        to_boundary = (1.0 - past_boundary(spike)) * DT  # spike + 5 + to_boundary: the next dt boundary
        for delay in (5.0, 5.0 + to_boundary + 0.2 * DT, 5.0 + to_boundary + 0.8 * DT):
            t, v, _ = run_net(peer, "ball_stick", 2, kick, [(0, 1, 0.05, delay), pin], 20.0)
            step = acts_from(t, v[:, 1, 1], rest[:, 1, 1])
            on_grid = run_net(peer, "ball_stick", 2, {**kick, 1: (0.05, [step])}, [pin], 20.0)[1]
            rows.append(("spike", peer, spike, delay, spike + delay, step, np.abs(v[:, 1] - on_grid[:, 1]).max()))
    print(
        "source     peer    spike (ms)    delay (ms)  event (ms)    past (dt)  acts from (ms)  max |dV| vs event there"
    )
    for source, peer, spike, delay, te, step, dv in rows:
        spike = f"{spike:.6f}" if source == "spike" else ""
        delay = f"{delay:.6f}" if source == "spike" else ""
        print(
            f"{source:10s} {peer:7s} {spike:13s} {delay:11s} {te:<13.6f} {past_boundary(te):<10.3f} {step:<15.3f} {dv:g}"
        )


# ---------------------------------------------------------------- setup lines, Pade check, processes


def compile_pade():
    """nrnivmodl hh_pade.mod in a temporary folder; returns the mechanism library."""
    import glob
    import shutil
    import subprocess
    import sys
    import tempfile

    folder = tempfile.mkdtemp(prefix="hh_pade_")
    shutil.copy(os.path.join(HERE, "hh_pade.mod"), folder)
    nrnivmodl = os.path.join(os.path.dirname(sys.executable), "nrnivmodl")
    subprocess.run([nrnivmodl, "hh_pade.mod"], cwd=folder, check=True, capture_output=True)
    return glob.glob(os.path.join(folder, "*", "libnrnmech.so"))[0]


def setup_line(name, w):
    if name == "hh_soma":
        return (
            "soma L=diam=18.8 um, 1 CV, hh defaults (gnabar .12 gkbar .036 gl .0003 el -54.3, ena 50 ek -77),"
            " cm 1, Ra 100, celsius 6.3, v_init -65, IClamp soma(0.5) delay 10 dur 100 amp 0.1 nA,"
            " dt 0.025 fixed step backward Euler, tstop 120"
        )
    cell = (
        "soma L=diam=20 um 1 CV hh defaults; dend L=200 diam=1 21 CVs pas g=0.001 e=-65 on soma(1);"
        " cm 1, Ra 100, celsius 6.3, v_init -65; ExpSyn dend(0.5) tau 2 e 0"
    )
    if name == "ring8":
        return (
            f"{RING_CELLS} cells, each: {cell}; cell i -> cell (i+1)%{RING_CELLS}: threshold -10 mV at soma(0.5),"
            f" ExpSyn weight {RING_WEIGHT} uS, delay {RING_DELAY} ms; one event (NetCon.event / event_generator)"
            f" at {RING_KICK} ms weight {RING_WEIGHT} uS on cell 0; dt 0.025 fixed step, tstop {RING_TSTOP:g}"
        )
    return (
        f"{cell}, events (NetCon.event / event_generator) at"
        f" {' '.join(str(e) for e in EVENTS[name.split('_w')[0]])} ms weight {w} uS; dt 0.025 fixed step, tstop 60"
    )


def peer_line(peer, name):
    if name == "ring8" and peer == "neuron":
        return (
            "NEURON: usetable_hh=0, secondorder=0, cvode off, NetCon(soma(0.5)._ref_v, next cell's ExpSyn, sec=soma)"
            " threshold -10 delay 5 (its spike time is on the dt grid), source-less NetCon.event(10.005) on cell 0,"
            " v recorded at cell 0's soma(0.5), dend(0.5)"
        )
    if name == "ring8":
        return (
            "Arbor: neuron_cable_properties, tempK 279.45, soma+dend one branch, cv_policy_explicit at the"
            " same boundaries, recipe connections (i-1)%8 'det' -> i 'syn' delay 5 ms (threshold_detector spike"
            " times are interpolated), explicit_schedule event_generator on gid 0, probes of gid 0 at CV centres"
        )
    if peer == "neuron":
        return (
            "NEURON: usetable_hh=0, secondorder=0, cvode off, source-less NetCon.event(t) after finitialize -> ExpSyn,"
            " v recorded at soma(0.5), dend(0.5), dend(0.95) (= node at 19.5/21)"
        )
    return (
        "Arbor: neuron_cable_properties, tempK 279.45, soma+dend one branch, cv_policy_explicit at the"
        " same boundaries, probes at CV centres, explicit_schedule event_generator"
    )


def in_child(fn, *args, **kwargs):
    """fn(*args, **kwargs) in a forked child process."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    with ctx.Pool(1) as pool:
        return pool.apply(fn, args, kwargs)


if __name__ == "__main__":
    main()
