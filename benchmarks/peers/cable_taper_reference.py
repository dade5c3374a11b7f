#!/usr/bin/env python3
"""A passive tapered cable in NEURON 9 and Arbor 0.12, written as fixtures
tests/fixtures/cable/{neuron,arbor}_tapered_cable.csv: how the peers discretise truncated cones.

    /work/peers-cable/bin/python benchmarks/peers/cable_taper_reference.py

Cell: two truncated cones end to end, b0 from diameter 3 to 2 um and b1 (on b0(1)) from 2 to
0.5 um, each L = 100 um and 5 CVs; pas g = 0.001 S/cm2 e = -65 mV; cm 1 uF/cm2, Ra 100 Ohm cm,
v_init -65 mV. IClamp at b1(1): delay 1 ms, dur 100 ms, amp 0.02 nA; dt 0.025 ms, tstop 20 ms.
NEURON: each section two 3D points (pt3dadd) and nseg 5. Arbor: one branch of two segments
(tapered samples, radius 1.5 -> 1 -> 0.25 um), cv_policy_fixed_per_branch(10): the same CV
boundaries. Recorded: V at the 10 CV centres.
"""

import os

import numpy as np
from cable_reference import DT, OUT, in_child, write_trace

NCV, L, RA, G_PAS, E_PAS = 5, 100.0, 100.0, 0.001, -65.0
DIAMS = (3.0, 2.0, 0.5)  # at b0(0), b0(1) = b1(0), b1(1)
AMP, DELAY, DUR, TSTOP = 0.02, 1.0, 100.0, 20.0
CENTRES = [(k + 0.5) / NCV for k in range(NCV)]
COLUMNS = [f"v_b{b}_{x:g}_mV" for b in range(2) for x in CENTRES]


def neuron_taper():
    from neuron import h

    h.load_file("stdrun.hoc")
    h.secondorder = 0
    h.dt = DT
    h.steps_per_ms = 1.0 / DT
    secs = [h.Section(name=f"b{b}") for b in range(2)]
    for b, sec in enumerate(secs):
        sec.pt3dclear()
        sec.pt3dadd(b * L, 0, 0, DIAMS[b])
        sec.pt3dadd((b + 1) * L, 0, 0, DIAMS[b + 1])
        sec.nseg, sec.Ra, sec.cm = NCV, RA, 1.0
        sec.insert("pas")
        for seg in sec:
            seg.pas.g, seg.pas.e = G_PAS, E_PAS
    secs[1].connect(secs[0](1), 0)
    ic = h.IClamp(secs[1](1))
    ic.delay, ic.dur, ic.amp = DELAY, DUR, AMP
    recs = [h.Vector().record(sec(x)._ref_v) for sec in secs for x in CENTRES]
    h.finitialize(E_PAS)
    h.continuerun(TSTOP)
    n = int(round(TSTOP / DT))
    areas = [seg.area() for sec in secs for seg in sec]
    ris = [seg.ri() for sec in secs for seg in sec]
    return np.column_stack([np.array(r)[:n] for r in recs]), areas, ris


def arbor_taper():
    import arbor as A
    from arbor import units as U

    tree = A.segment_tree()
    r = [d / 2 for d in DIAMS]
    s0 = tree.append(A.mnpos, A.mpoint(0, 0, 0, r[0]), A.mpoint(L, 0, 0, r[1]), tag=3)
    tree.append(s0, A.mpoint(L, 0, 0, r[1]), A.mpoint(2 * L, 0, 0, r[2]), tag=3)
    dec = A.decor()
    dec.set_property(Vm=E_PAS * U.mV, cm=0.01 * U.F / U.m2, rL=RA * U.Ohm * U.cm)
    dec.paint("(all)", A.density(f"pas/e={E_PAS}", g=G_PAS))
    dec.place("(location 0 1)", A.i_clamp(DELAY * U.ms, DUR * U.ms, AMP * U.nA))
    cell = A.cable_cell(tree, dec, A.label_dict(), A.cv_policy_fixed_per_branch(2 * NCV))
    assert A.cv_data(cell).num_cv == 2 * NCV
    sites = [f"(location 0 {(k + 0.5) / (2 * NCV)!r})" for k in range(2 * NCV)]

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
            return [A.cable_probe_membrane_voltage(s, f"v{i}") for i, s in enumerate(sites)]

        def global_properties(self, kind):
            return self.props

    sim = A.simulation(Recipe())
    handles = [sim.sample((0, f"v{i}"), A.regular_schedule(DT * U.ms)) for i in range(len(sites))]
    sim.run(TSTOP * U.ms, DT * U.ms)
    return np.column_stack([sim.samples(hd)[0][0][:, 1] for hd in handles])


def main():
    import arbor
    import neuron

    t = np.arange(int(round(TSTOP / DT))) * DT
    setup = (
        "tapered cable: b0 diam 3 -> 2 um, b1 on b0(1) diam 2 -> 0.5 um; each L=100, 5 CVs, pas g=0.001 e=-65;"
        " cm 1, Ra 100, v_init -65; IClamp b1(1) delay 1 dur 100 amp 0.02 nA; dt 0.025, tstop 20"
    )
    nrn, areas, ris = in_child(neuron_taper)
    print("NEURON segment areas (um2):", " ".join(f"{a:.9g}" for a in areas))
    print("NEURON segment ri (MOhm):", " ".join(f"{x:.9g}" for x in ris))
    runs = {
        "neuron": (
            f"NEURON {neuron.__version__}",
            nrn,
            "NEURON: two 3D points per section, nseg 5, v at segment centres",
        ),
        "arbor": (
            f"Arbor {arbor.__version__}",
            arbor_taper(),
            "Arbor: one branch of two tapered segments, cv_policy_fixed_per_branch(10)",
        ),
    }
    for peer, (version, traces, how) in runs.items():
        header = [
            f"{version}, case tapered_cable: see benchmarks/peers/cable_taper_reference.py",
            setup,
            how,
            "V of each CV, sampled every 0.1 ms (every 4th step of dt 0.025 ms)",
        ]
        write_trace(os.path.join(OUT, f"{peer}_tapered_cable.csv"), header, t, traces, COLUMNS)
    print(
        f"NEURON vs Arbor: max |dV| {np.abs(runs['neuron'][1] - runs['arbor'][1]).max():.2e} mV, "
        f"deflection {np.abs(nrn[-1] - E_PAS).max():.3f} mV"
    )


if __name__ == "__main__":
    main()
