#!/usr/bin/env python3
"""A passive Y-shaped cable in NEURON 9 and Arbor 0.12, written as fixtures
tests/fixtures/cable/{neuron,arbor}_y_cable.csv: how the peers join branches at a fork.

    /work/peers-cable/bin/python benchmarks/peers/cable_fork_reference.py

Cell: branch b0 (the root) and its children b1, b2 on b0's distal end; each L = 100 um,
diam 1 um, 5 CVs, pas g = 0.001 S/cm2 e = -65 mV; cm 1 uF/cm2, Ra 100 Ohm cm, v_init -65 mV.
IClamp at b1(1) (the last CV of b1): delay 1 ms, dur 100 ms, amp 0.01 nA; dt 0.025 ms, tstop 20.
Recorded: V of all 15 CVs (centres (k + 1/2)/5) and of the fork: NEURON's zero-area node at
b0(1), Arbor's zero-length CV that holds the fork (its default at a CV boundary on a fork).
It also prints the steady state of two discrete models against NEURON's last sample: the
fork as a zero-area node joined to each adjacent CV centre by half a CV's axial resistance
(NEURON and Arbor), and a tree without that node, each child's first CV joined straight to
the parent's last CV centre to centre.
"""

import os

import numpy as np
from cable_reference import DT, OUT, in_child, write_trace

NCV, L, DIAM, RA, G_PAS, E_PAS = 5, 100.0, 1.0, 100.0, 0.001, -65.0
AMP, DELAY, DUR, TSTOP = 0.01, 1.0, 100.0, 20.0
CENTRES = [(k + 0.5) / NCV for k in range(NCV)]
COLUMNS = [f"v_b{b}_{x:g}_mV" for b in range(3) for x in CENTRES] + ["v_fork_mV"]


def neuron_y():
    from neuron import h

    h.load_file("stdrun.hoc")
    h.secondorder = 0
    h.dt = DT
    h.steps_per_ms = 1.0 / DT
    secs = [h.Section(name=f"b{b}") for b in range(3)]
    for sec in secs:
        sec.L, sec.diam, sec.nseg, sec.Ra, sec.cm = L, DIAM, NCV, RA, 1.0
        sec.insert("pas")
        for seg in sec:
            seg.pas.g, seg.pas.e = G_PAS, E_PAS
    secs[1].connect(secs[0](1), 0)
    secs[2].connect(secs[0](1), 0)
    ic = h.IClamp(secs[1](1))
    ic.delay, ic.dur, ic.amp = DELAY, DUR, AMP
    recs = [h.Vector().record(sec(x)._ref_v) for sec in secs for x in CENTRES]
    recs.append(h.Vector().record(secs[0](1)._ref_v))
    h.finitialize(E_PAS)
    h.continuerun(TSTOP)
    n = int(round(TSTOP / DT))
    return np.column_stack([np.array(r)[:n] for r in recs])


def arbor_y():
    import arbor as A
    from arbor import units as U

    tree = A.segment_tree()
    r = DIAM / 2
    b0 = tree.append(A.mnpos, A.mpoint(0, 0, 0, r), A.mpoint(L, 0, 0, r), tag=3)
    tree.append(b0, A.mpoint(L, 0, 0, r), A.mpoint(2 * L, 0, 0, r), tag=3)
    tree.append(b0, A.mpoint(L, 0, 0, r), A.mpoint(L, L, 0, r), tag=3)
    dec = A.decor()
    dec.set_property(Vm=E_PAS * U.mV, cm=0.01 * U.F / U.m2, rL=RA * U.Ohm * U.cm)
    dec.paint("(all)", A.density(f"pas/e={E_PAS}", g=G_PAS))
    dec.place("(location 1 1)", A.i_clamp(DELAY * U.ms, DUR * U.ms, AMP * U.nA))
    cell = A.cable_cell(tree, dec, A.label_dict(), A.cv_policy_fixed_per_branch(NCV))
    assert A.cv_data(cell).num_cv == 3 * NCV + 1  # and one zero-length CV at the fork
    # Probes at CV centres (and at the fork) read the CV's value, uninterpolated.
    sites = [f"(location {b} {x!r})" for b in range(3) for x in CENTRES] + ["(location 0 1)"]

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


def steady_state(fork_node):
    """Steady V of the 15 CVs (mV) with the fork as a zero-area node, or without one."""
    n = 3 * NCV + 1
    g_half = 1.0 / (RA * (L / NCV / 2) / (np.pi * (DIAM / 2) ** 2) * 0.01)  # uS, half a CV
    g_m = G_PAS * np.pi * DIAM * (L / NCV) * 1e-2  # uS per CV
    G = np.zeros((n, n))

    def link(a, b, g):
        G[a, a] += g
        G[b, b] += g
        G[a, b] -= g
        G[b, a] -= g

    for b in range(3):
        for k in range(NCV):
            G[b * NCV + k, b * NCV + k] += g_m
            if k:
                link(b * NCV + k - 1, b * NCV + k, g_half / 2)
    last, fork = NCV - 1, 3 * NCV
    if fork_node:
        for c in (last, NCV, 2 * NCV):
            link(fork, c, g_half)
    else:
        G[fork, fork] = 1.0  # unused
        for c in (NCV, 2 * NCV):
            link(last, c, g_half / 2)
    rhs = np.zeros(n)
    rhs[2 * NCV - 1] = AMP  # nA into the last CV of b1
    return E_PAS + np.linalg.solve(G, rhs)[: 3 * NCV]


def main():
    import arbor
    import neuron

    t = np.arange(int(round(TSTOP / DT))) * DT
    setup = (
        "Y cable: b0 (root), b1 and b2 on b0(1); each L=100 diam=1 5 CVs, pas g=0.001 e=-65;"
        " cm 1, Ra 100, v_init -65; IClamp b1(1) delay 1 dur 100 amp 0.01 nA; dt 0.025, tstop 20"
    )
    runs = {
        "neuron": (
            f"NEURON {neuron.__version__}",
            in_child(neuron_y),
            "NEURON: nseg 5 per section, v at segment centres and at the zero-area node b0(1)",
        ),
        "arbor": (
            f"Arbor {arbor.__version__}",
            arbor_y(),
            "Arbor: cv_policy_fixed_per_branch(5): 16 CVs, one of zero length holding the fork",
        ),
    }
    for peer, (version, traces, how) in runs.items():
        header = [
            f"{version}, case y_cable: see benchmarks/peers/cable_fork_reference.py and README.md",
            setup,
            how,
            "V of each CV, sampled every 0.1 ms (every 4th step of dt 0.025 ms)",
        ]
        write_trace(os.path.join(OUT, f"{peer}_y_cable.csv"), header, t, traces, COLUMNS)
    nrn, arb = runs["neuron"][1], runs["arbor"][1]
    print(f"NEURON vs Arbor: max |dV| {np.abs(nrn - arb).max():.2e} mV")
    last = nrn[-1, : 3 * NCV]
    for fork_node, name in ((True, "fork as a zero-area node"), (False, "tree, no fork node")):
        print(
            f"steady state, {name}: max |V - V_NEURON(t = {t[-1]})| = "
            f"{np.abs(steady_state(fork_node) - last).max():.2e} mV (deflection {np.abs(last - E_PAS).max():.3f})"
        )


if __name__ == "__main__":
    main()
