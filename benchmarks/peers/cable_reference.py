#!/usr/bin/env python3
"""Reference traces of two small cable cells from NEURON 9 and Arbor 0.12, written as CSV
fixtures into tests/fixtures/cable/ for Ranvier's cable-cell tests (issue 13).

    python3 -m venv /work/peers-cable && /work/peers-cable/bin/pip install neuron 'arbor==0.12.*' numpy
    /work/peers-cable/bin/python benchmarks/peers/cable_reference.py [--pade-check]

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
All: cm 1 uF/cm2, Ra 100 Ohm cm, celsius 6.3 (Arbor: 279.45 K), v_init -65 mV,
ena 50 mV, ek -77 mV, spike threshold -10 mV at soma(0.5).
Traces are written every 0.1 ms (every 4th step); spike times come from the full-dt trace.
tests/fixtures/cable/README.md lists the files and the conventions reconciled here.
--pade-check also runs NEURON with hh_pade.mod (hh with Arbor's Pade gate step) and prints its
differences from Arbor: the HH difference between the peers is that step alone.
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
EVENTS = {"ball_stick": [5.0, 15.0, 15.5, 16.0, 40.0],
          "ball_stick_offgrid": [5.01, 15.02, 15.51, 16.013, 40.024]}
WEIGHTS = [0.001, 0.01, 0.05]
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

def neuron_run(case, weight=None, hh="hh", mechanisms=None, exact=0):
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
    keep = []
    soma = h.Section(name="soma")
    soma.nseg = 1
    soma.insert(hh)
    sections = [soma]
    if case == "hh_soma":
        soma.L = soma.diam = 18.8
        ic = h.IClamp(soma(0.5))
        ic.delay, ic.dur, ic.amp = 10.0, 100.0, 0.1
        keep.append(ic)
        tstop = 120.0
    else:
        soma.L = soma.diam = 20.0
        dend = h.Section(name="dend")
        dend.L, dend.diam, dend.nseg = 200.0, 1.0, DEND_NCV
        dend.insert("pas")
        for seg in dend:
            seg.pas.g, seg.pas.e = 0.001, -65.0
        dend.connect(soma(1), 0)
        sections.append(dend)
        syn = h.ExpSyn(dend(0.5))
        syn.tau, syn.e = 2.0, 0.0
        # pip's NEURON has no VecStim: a source-less NetCon takes the events (NetCon.event after
        # finitialize delivers at the given time exactly, without the NetCon delay).
        nc_in = h.NetCon(None, syn)
        nc_in.weight[0] = weight
        keep += [syn, nc_in]
        tstop = 60.0
    for sec in sections:
        sec.cm, sec.Ra = 1.0, 100.0
    soma.ena, soma.ek = 50.0, -77.0
    det = h.NetCon(soma(0.5)._ref_v, None, sec=soma)
    det.threshold = THRESHOLD
    nc_times = h.Vector()
    det.record(nc_times)
    tvec = h.Vector().record(h._ref_t)
    recs = [h.Vector().record(soma(0.5)._ref_v)]
    if case != "hh_soma":
        recs += [h.Vector().record(dend(x)._ref_v) for x in DEND_SITES]
    h.finitialize(-65.0)
    if case != "hh_soma":
        for te in EVENTS[case]:
            nc_in.event(te)
    h.continuerun(tstop)
    n = int(round(tstop / DT))  # samples at k*dt, k < n, as Arbor's
    t = np.arange(n) * DT
    assert np.allclose(np.array(tvec)[:n], t, atol=1e-9)
    traces = np.column_stack([np.array(r)[:n] for r in recs])
    det_times = np.array(nc_times)
    return t, traces, det_times


# ---------------------------------------------------------------- Arbor

def arbor_run(case, weight=None):
    import arbor as A
    from arbor import units as U

    tree = A.segment_tree()
    if case == "hh_soma":
        tree.append(A.mnpos, A.mpoint(0, 0, 0, 9.4), A.mpoint(18.8, 0, 0, 9.4), tag=1)
        soma_len, total, tstop = 18.8, 18.8, 120.0
    else:
        s = tree.append(A.mnpos, A.mpoint(0, 0, 0, 10.0), A.mpoint(20, 0, 0, 10.0), tag=1)
        tree.append(s, A.mpoint(20, 0, 0, 0.5), A.mpoint(220, 0, 0, 0.5), tag=3)
        soma_len, total, tstop = 20.0, 220.0, 60.0
    # Without a fork, Arbor makes soma + dend ONE branch (branch 0, arc length 0..total um):
    # locations are positions along it.
    def loc(um):
        return f"(location 0 {um / total!r})"

    def dend_um(x):
        return soma_len + 200.0 * x

    labels = A.label_dict({"soma": "(tag 1)", "dend": "(tag 3)"})
    dec = A.decor()
    dec.set_property(Vm=-65 * U.mV, cm=0.01 * U.F / U.m2, rL=100 * U.Ohm * U.cm,
                     tempK=(6.3 + 273.15) * U.Kelvin)
    dec.set_ion("na", rev_pot=50 * U.mV)
    dec.set_ion("k", rev_pot=-77 * U.mV)
    dec.paint('"soma"', A.density("hh"))
    soma_site = loc(soma_len / 2)
    dec.place(soma_site, A.threshold_detector(THRESHOLD * U.mV), "det")
    dec.place(soma_site, A.synapse("expsyn"), "sink")  # see connections_on
    probes = [A.cable_probe_membrane_voltage(soma_site, "v0")]
    if case == "hh_soma":
        dec.place(soma_site, A.i_clamp(10 * U.ms, 100 * U.ms, 0.1 * U.nA))
        boundaries = [0.0, 1.0]
    else:
        dec.paint('"dend"', A.density("pas/e=-65", g=0.001))  # e is a global of Arbor's pas
        dec.place(loc(dend_um(0.5)), A.synapse("expsyn", tau=2.0, e=0.0), "syn")
        # Probe at the CV centre: Arbor interpolates between CV centres elsewhere.
        probes += [A.cable_probe_membrane_voltage(loc(dend_um(cv_centre(x, DEND_NCV))), f"v{i + 1}")
                   for i, x in enumerate(DEND_SITES)]
        boundaries = [0.0] + [dend_um(k / DEND_NCV) / total for k in range(DEND_NCV + 1)]
    policy = A.cv_policy_explicit("(sum " + " ".join(f"(location 0 {b!r})" for b in boundaries) + ")")
    cell = A.cable_cell(tree, dec, labels, policy)
    ncv = A.cv_data(cell).num_cv
    assert ncv == (1 if case == "hh_soma" else 1 + DEND_NCV), ncv

    class Recipe(A.recipe):
        def __init__(self):
            A.recipe.__init__(self)
            self.props = A.neuron_cable_properties()

        def num_cells(self):
            return 1

        def cell_kind(self, gid):
            return A.cell_kind.cable

        def cell_description(self, gid):
            return cell

        def probes(self, gid):
            return probes

        def global_properties(self, kind):
            return self.props

        def event_generators(self, gid):
            if case == "hh_soma":
                return []
            sched = A.explicit_schedule([t * U.ms for t in EVENTS[case]])
            return [A.event_generator("syn", weight, sched)]

        def connections_on(self, gid):
            # Arbor 0.12 records no spikes from a recipe without connections: a self-connection
            # of weight 0 whose delay lies beyond tstop (it changes nothing) makes it record them.
            return [A.connection((0, "det"), "sink", 0.0, 2 * tstop * U.ms)]

    sim = A.simulation(Recipe())
    sim.record(A.spike_recording.all)
    handles = [sim.sample((0, p), A.regular_schedule(DT * U.ms)) for p in
               ["v0"] + [f"v{i + 1}" for i in range(len(probes) - 1)]]
    sim.run(tstop * U.ms, DT * U.ms)
    data = [sim.samples(hd)[0][0] for hd in handles]
    n = int(round(tstop / DT))
    t = np.arange(n) * DT
    assert all(len(d) == n and np.allclose(d[:, 0], t, atol=1e-9) for d in data)
    traces = np.column_stack([d[:, 1] for d in data])
    det_times = np.array([s[1] for s in sim.spikes()])
    return t, traces, det_times


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
    ap.add_argument("--pade-check", action="store_true",
                    help="also run NEURON with hh_pade.mod (hh whose gates use Arbor's Pade step) and "
                         "print its largest differences from Arbor")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    import arbor
    import neuron
    versions = {"neuron": f"NEURON {neuron.__version__}", "arbor": f"Arbor {arbor.__version__}"}
    cases = [("hh_soma", None)] + [(f"ball_stick_w{w}", w) for w in WEIGHTS] + [("ball_stick_offgrid_w0.01", 0.01)]
    results = {}
    spike_rows = []
    for peer in ("neuron", "arbor"):
        for name, w in cases:
            t, traces, det = run_case(peer, name, w)
            interp = crossings(t, traces[:, 0])
            assert len(det) == len(interp), (peer, name, det, interp)
            results[peer, name] = (traces, interp)
            spike_rows += [(peer, name, a, b) for a, b in zip(det, interp)]
            columns = ["v_soma_mV"] + [f"v_dend_{x}_mV" for x in DEND_SITES][:traces.shape[1] - 1]
            header = [f"{versions[peer]}, case {name}: see benchmarks/peers/cable_reference.py and README.md",
                      setup_line(name, w), peer_line(peer),
                      "V of the CV holding each site, sampled every 0.1 ms (every 4th step of dt 0.025 ms)"]
            write_trace(os.path.join(args.out, f"{peer}_{name}.csv"), header, t, traces, columns)
            print(peer, name, "spikes", np.round(interp, 4).tolist())
    with open(os.path.join(args.out, "spikes.csv"), "w") as f:
        f.write(f"# {versions['neuron']} and {versions['arbor']}; cases as in the trace files; threshold -10 mV at soma(0.5)\n")
        f.write("# t_detector_ms: the peer's own spike time (NEURON NetCon: first grid time with V >= threshold,"
                " not interpolated; Arbor threshold_detector: linear interpolation between steps)\n")
        f.write("# t_interpolated_ms: linear interpolation of the upward crossing from the dt = 0.025 ms trace\n")
        f.write("peer,case,t_detector_ms,t_interpolated_ms\n")
        for peer, name, a, b in spike_rows:
            f.write(f"{peer},{name},{a:.9f},{b:.9f}\n")
    for name, _ in cases:
        compare("NEURON vs Arbor", name, results["neuron", name], results["arbor", name])
    if args.pade_check:
        dll = compile_pade()
        t, traces, _ = run_case("neuron", "hh_soma", None, hh="hhpade", mechanisms=dll, exact=1)
        compare("NEURON hh_pade with exact_hhpade = 1 vs NEURON hh", "hh_soma",
                (traces, crossings(t, traces[:, 0])), results["neuron", "hh_soma"])
        for name, w in cases:
            t, traces, _ = run_case("neuron", name, w, hh="hhpade", mechanisms=dll)
            compare("NEURON hh_pade vs Arbor", name, (traces, crossings(t, traces[:, 0])), results["arbor", name])


def run_case(peer, name, w, **kw):
    case = name.split("_w")[0]
    if peer == "arbor":
        return arbor_run(case, w)
    # NEURON keeps one global model per process: each NEURON case runs in a child.
    return in_child(neuron_run, case, w, *kw.values())


def compare(what, name, a, b):
    dv = np.abs(a[0] - b[0]).max(axis=0)
    dt = np.abs(a[1] - b[1]).max(initial=0.0) if len(a[1]) == len(b[1]) else float("nan")
    print(f"{what} {name}: max |dV| per site (mV) {np.array2string(dv, precision=6)},"
          f" max |d spike time| (ms) {dt:.2e}")


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
        return ("soma L=diam=18.8 um, 1 CV, hh defaults (gnabar .12 gkbar .036 gl .0003 el -54.3, ena 50 ek -77),"
                " cm 1, Ra 100, celsius 6.3, v_init -65, IClamp soma(0.5) delay 10 dur 100 amp 0.1 nA,"
                " dt 0.025 fixed step backward Euler, tstop 120")
    return ("soma L=diam=20 um 1 CV hh defaults; dend L=200 diam=1 21 CVs pas g=0.001 e=-65 on soma(1);"
            f" cm 1, Ra 100, celsius 6.3, v_init -65; ExpSyn dend(0.5) tau 2 e 0, events (NetCon.event / event_generator) at"
            f" {' '.join(str(e) for e in EVENTS[name.split('_w')[0]])} ms weight {w} uS; dt 0.025 fixed step, tstop 60")


def peer_line(peer):
    if peer == "neuron":
        return ("NEURON: usetable_hh=0, secondorder=0, cvode off, source-less NetCon.event(t) after finitialize -> ExpSyn,"
                " v recorded at soma(0.5), dend(0.5), dend(0.95) (= node at 19.5/21)")
    return ("Arbor: neuron_cable_properties, tempK 279.45, soma+dend one branch, cv_policy_explicit at the"
            " same boundaries, probes at CV centres, explicit_schedule event_generator")


def in_child(fn, *args):
    """fn(*args) in a forked child process."""
    import multiprocessing as mp
    ctx = mp.get_context("fork")
    with ctx.Pool(1) as pool:
        return pool.apply(fn, args)


if __name__ == "__main__":
    main()
