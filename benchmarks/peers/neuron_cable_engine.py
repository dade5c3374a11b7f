#!/usr/bin/env python3
"""Voltage traces of two cable cells in NEURON 9, the fixture of tests/cpp/cable_neuron_test.cpp.

    pip install neuron && python benchmarks/peers/neuron_cable_engine.py

Writes tests/fixtures/neuron_cable_engine.txt: for each case a line
``case NAME ROWS COLUMNS STRIDE`` and ROWS rows of the voltages (mV) at the case's probe
locations, every STRIDE-th step of dt = 0.025 ms from t = 0, then ``spikes NAME t...``: NEURON's
threshold crossings (-10 mV at the detector), which its fixed step reports at the end of the step.
hh without lookup tables (usetable_hh = 0), events sent with NetCon.event at fixed times (NEURON
delivers an event at the first step whose midpoint t + dt/2 is at or after its time).

- ball_and_stick: soma (20 x 20 µm, nseg 1, hh) and a dendrite (200 x 1 µm, nseg 7, pas) at
  soma(1); Ra 100; ExpSyn at dend(0.5), Exp2Syn at dend(0.9); IClamp at soma(0.5).
- tree: seven sections with two children at soma(1), one at soma(0.5), one at d1(0) (which is
  soma(1)), one at soma(0), one at d3(0.3); hh with its own gnabar on d3, celsius 18.5, ena 55,
  ek -80, cm 0.9, Ra 80; an ExpSyn at d2(1) and an IClamp at d5(1) (zero-area end nodes); probes
  at CV centres and at soma(1).
"""

import os

import numpy as np
from neuron import h

DT = 0.025
STRIDE = 8
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "neuron_cable_engine.txt")


def make_sections(spec, Ra, cm):
    """spec: (name, parent index or None, parent_x, L, diam, nseg) per section."""
    secs = []
    for name, parent, parent_x, length, diam, nseg in spec:
        sec = h.Section(name=name)
        sec.L, sec.diam, sec.nseg, sec.Ra, sec.cm = length, diam, nseg, Ra, cm
        if parent is not None:
            sec.connect(secs[parent](parent_x), 0)
        secs.append(sec)
    return secs


def insert_pas(sec, g, e):
    sec.insert("pas")
    for seg in sec:
        seg.pas.g, seg.pas.e = g, e


def run(secs, synapses, probes, tstop, detector):
    """synapses: (point process, weight, event times); probes: (section index, x)."""
    netcons = []
    for syn, weight, _ in synapses:
        nc = h.NetCon(None, syn)
        nc.weight[0] = weight
        netcons.append(nc)
    spikes = h.Vector()
    det = h.NetCon(detector._ref_v, None, sec=detector.sec)
    det.threshold = -10
    det.record(spikes)
    recs = [h.Vector().record(secs[i](x)._ref_v) for i, x in probes]
    h.dt = DT
    h.steps_per_ms = 1 / DT
    h.finitialize(-65)
    for nc, (_, _, times) in zip(netcons, synapses):
        for t in times:
            nc.event(t)
    h.continuerun(tstop)
    return np.array([r.as_numpy() for r in recs]).T[::STRIDE], np.array(spikes)


def ball_and_stick():
    secs = make_sections([("soma", None, 1, 20, 20, 1), ("dend", 0, 1.0, 200, 1, 7)], Ra=100, cm=1)
    soma, dend = secs
    soma.insert("hh")
    insert_pas(dend, 0.001, -65)
    syn = h.ExpSyn(dend(0.5))
    syn.tau = 2.0
    syn2 = h.Exp2Syn(dend(0.9))
    syn2.tau1, syn2.tau2 = 0.5, 2.0
    clamp = h.IClamp(soma(0.5))
    clamp.delay, clamp.dur, clamp.amp = 10, 20, 0.2
    events = [2.0, 5.0, 40.0, 41.3]
    return run(
        secs,
        [(syn, 0.01, events), (syn2, 0.005, [t + 0.5 for t in events])],
        [(0, 0.5), (1, 0.5), (1, 0.9)],
        50,
        soma(0.5),
    )


def tree():
    secs = make_sections(
        [
            ("soma", None, 1, 20, 20, 3),
            ("d1", 0, 1.0, 150, 2, 4),
            ("d2", 0, 1.0, 100, 1, 2),
            ("d3", 0, 0.5, 80, 1.5, 3),
            ("d4", 1, 0.0, 60, 0.8, 2),
            ("d5", 0, 0.0, 120, 1, 2),
            ("d6", 3, 0.3, 50, 0.7, 1),
        ],
        Ra=80,
        cm=0.9,
    )
    h.celsius = 18.5
    secs[0].insert("hh")
    secs[3].insert("hh")
    for seg in secs[3]:
        seg.hh.gnabar = 0.05
    for sec in (secs[0], secs[3]):
        sec.ena, sec.ek = 55, -80
    for sec in secs[1:]:
        insert_pas(sec, 0.0005, -62)
    syn = h.ExpSyn(secs[2](1.0))
    syn.tau = 1.5
    syn2 = h.Exp2Syn(secs[4](0.7))
    syn2.tau1, syn2.tau2 = 0.3, 3.0
    clamp = h.IClamp(secs[5](1.0))
    clamp.delay, clamp.dur, clamp.amp = 3, 10, 0.3
    events = [1.0, 20.0, 21.0]
    result = run(
        secs,
        [(syn, 0.02, events), (syn2, 0.01, [t + 0.3 for t in events])],
        [(0, 0.5), (1, 0.6), (2, 1.0), (3, 0.5), (4, 0.7), (5, 1.0), (6, 0.5), (0, 1.0)],
        40,
        secs[0](0.5),
    )
    h.celsius = 6.3
    return result


def main():
    h.load_file("stdrun.hoc")
    h.usetable_hh = 0
    with open(OUT, "w") as out:
        for name, make in [("ball_and_stick", ball_and_stick), ("tree", tree)]:
            traces, spikes = make()
            out.write(f"case {name} {traces.shape[0]} {traces.shape[1]} {STRIDE}\n")
            for row in traces:
                out.write(" ".join(f"{v:.12g}" for v in row) + "\n")
            out.write(f"spikes {name} " + " ".join(f"{t:.12g}" for t in spikes) + "\n")
            h("forall delete_section()")
    print("wrote", os.path.normpath(OUT))


if __name__ == "__main__":
    main()
