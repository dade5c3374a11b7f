#!/usr/bin/env python3
"""The SWC cell tests/fixtures/cable/fork.swc in NEURON 9, read by Import3d (sections through the
samples as 3D points, so tapered where their radii differ), passive, written as the fixture
tests/fixtures/cable/neuron_swc_fork.csv.

    /work/peers-cable/bin/python benchmarks/peers/cable_swc_reference.py

Sections (Ranvier's branches): soma[0] (0), dend[0] (1), dend[1] (2), dend[2] (3), axon[0] (4);
nseg = ceil(L / 10 um): 2, 6, 4, 6, 10. pas g = 0.0005 S/cm2 e = -65 mV everywhere; cm 1 uF/cm2,
Ra 100 Ohm cm, v_init -65 mV. IClamp at dend[2](1): delay 1 ms, dur 100 ms, amp 0.05 nA; dt
0.025 ms, tstop 20 ms. Recorded: V at every segment centre. (Import3d stores diameters as
32-bit floats: 1.2 um is 1.2000000477, a relative 4e-8.)
"""

import math
import os

import numpy as np
from cable_reference import DT, OUT, in_child, write_trace

HERE = os.path.dirname(os.path.abspath(__file__))
SWC = os.path.join(HERE, "..", "..", "tests", "fixtures", "cable", "fork.swc")
SECTIONS = ["soma[0]", "dend[0]", "dend[1]", "dend[2]", "axon[0]"]  # in Ranvier's branch order
RA, G_PAS, E_PAS, AMP, DELAY, DUR, TSTOP, MAX_LENGTH = 100.0, 0.0005, -65.0, 0.05, 1.0, 100.0, 20.0, 10.0


def neuron_swc():
    from neuron import h

    h.load_file("stdrun.hoc")
    h.load_file("import3d.hoc")
    reader = h.Import3d_SWC_read()
    reader.input(SWC)
    h.Import3d_GUI(reader, False).instantiate(None)
    h.secondorder = 0
    h.dt = DT
    h.steps_per_ms = 1.0 / DT
    secs = {sec.name(): sec for sec in h.allsec()}
    columns, recs = [], []
    for b, name in enumerate(SECTIONS):
        sec = secs[name]
        sec.nseg, sec.Ra, sec.cm = math.ceil(sec.L / MAX_LENGTH), RA, 1.0
        sec.insert("pas")
        for seg in sec:
            seg.pas.g, seg.pas.e = G_PAS, E_PAS
            columns.append(f"v_branch{b}_{seg.x:.6g}_mV")
            recs.append(h.Vector().record(seg._ref_v))
    ic = h.IClamp(secs["dend[2]"](1))
    ic.delay, ic.dur, ic.amp = DELAY, DUR, AMP
    h.finitialize(E_PAS)
    h.continuerun(TSTOP)
    n = int(round(TSTOP / DT))
    return np.column_stack([np.array(r)[:n] for r in recs]), columns


def main():
    import neuron

    t = np.arange(int(round(TSTOP / DT))) * DT
    traces, columns = in_child(neuron_swc)
    header = [
        f"NEURON {neuron.__version__}, case swc_fork: see benchmarks/peers/cable_swc_reference.py",
        "fork.swc by Import3d; nseg ceil(L/10); pas g=0.0005 e=-65 everywhere; cm 1, Ra 100, v_init -65;"
        " IClamp dend[2](1) delay 1 dur 100 amp 0.05 nA; dt 0.025, tstop 20",
        "V at every segment centre, column v_branch<Ranvier branch>_<x>_mV, every 0.1 ms",
    ]
    write_trace(os.path.join(OUT, "neuron_swc_fork.csv"), header, t, traces, columns)
    print(f"deflection {np.abs(traces[-1] - E_PAS).max():.3f} mV, {len(columns)} segments")


if __name__ == "__main__":
    main()
