#!/usr/bin/env python3
"""Reference voltages of a whole Allen Institute perisomatic cell model from NEURON 9, built as
BMTK's aibs_perisomatic and the AllenSDK build it, written to
tests/fixtures/cable/neuron_allen_cell.npz for tests/test_allen.py (issue 24).

    /work/peers-cable/bin/pip install neuron bmtk
    PATH=/work/peers-cable/bin:$PATH /work/peers-cable/bin/python benchmarks/peers/neuron_allen_cell.py

The cell: BMTK's Scnn1a_473845048_m.swc read by NEURON's Import3d (Import3d_SWC_read,
Import3d_GUI's instantiate into soma/dend/apic/axon arrays and their section lists), the axon replaced by a stub of two
sections (L 30 um, diam 1 um; axon[0](0) on soma(0.5), axon[1](0) on axon[0](1)), nseg = 1 + 2
int(L / 40) for every section, and the fit 472363762_fit.json: Ra and cm per section type, pas
everywhere with e_pas, the genome's mechanisms and values per section type, ena and ek on the
sections the fit names, celsius and v_init from its conditions. The Allen channels compiled by
nrnivmodl from BMTK's .mod files (all but vecevent.mod and NaV.mod). Fixed step dt 0.025 ms,
secondorder 0, tstop 600 ms; IClamps at soma(0.5): -0.05 nA from 20 to 120 ms, then 0.2 nA
from 200 to 500 ms. Written: v at soma(0.5) and axon[1](0.5) every 0.1 ms from t = 0, the section
counts and nseg sum, and the spike times (upward crossings of -10 mV at soma(0.5), linearly
interpolated within the dt step, from the full trace)."""

import json
import tempfile
from pathlib import Path

import numpy as np
from neuron_nmodl_channels import compile_channels

HERE = Path(__file__).resolve().parent
OUT = HERE.parent.parent / "tests" / "fixtures" / "cable" / "neuron_allen_cell.npz"
DT, TSTOP, EVERY, THRESHOLD = 0.025, 600.0, 4, -10.0
CLAMPS = [(20.0, 100.0, -0.05), (200.0, 300.0, 0.2)]  # delay, duration (ms), amplitude (nA)
MORPHOLOGY, FIT = "Scnn1a_473845048_m.swc", "472363762_fit.json"

CELL_TEMPLATE = """
begintemplate AllenCell
public soma, dend, apic, axon, all, somatic, basal, apical, axonal
objref all, somatic, basal, apical, axonal, this
create soma[1], dend[1], apic[1], axon[1]
proc init() { localobj reader, gui
    all = new SectionList()
    somatic = new SectionList()
    basal = new SectionList()
    apical = new SectionList()
    axonal = new SectionList()
    forall delete_section()
    reader = new Import3d_SWC_read()
    reader.quiet = 1
    reader.input($s1)
    gui = new Import3d_GUI(reader, 0)
    gui.instantiate(this)
}
endtemplate AllenCell
"""


def components() -> Path:
    import bmtk

    return Path(bmtk.__file__).parent / "utils" / "scripts" / "bionet"


def section_type(sec) -> str:
    return sec.name().split(".")[-1].split("[")[0]


def build(h, fit: dict):
    h(CELL_TEMPLATE)
    cell = h.AllenCell(str(components() / "morphologies" / MORPHOLOGY))
    for sec in cell.axon:  # the stub
        h.delete_section(sec=sec)
    h.execute("create axon[2]", cell)
    cell.axon[0].connect(cell.soma[0](0.5), 0)
    cell.axon[1].connect(cell.axon[0](1), 0)
    for sec in cell.axon:
        sec.L, sec.diam = 30.0, 1.0
    sections = [sec for kind in (cell.soma, cell.dend, cell.apic, cell.axon) for sec in kind]
    passive, conditions = fit["passive"][0], fit["conditions"][0]
    cm = {c["section"]: c["cm"] for c in passive["cm"]}
    for sec in sections:
        sec.nseg = 1 + 2 * int(sec.L / 40.0)
        sec.Ra, sec.cm = passive["ra"], cm[section_type(sec)]
        sec.insert("pas")
        for seg in sec:
            seg.pas.e = passive["e_pas"]
    for gene in fit["genome"]:
        for sec in sections:
            if section_type(sec) == gene["section"]:
                if gene["mechanism"]:
                    sec.insert(gene["mechanism"])
                setattr(sec, gene["name"], gene["value"])
    for erev in conditions["erev"]:
        for sec in sections:
            if section_type(sec) == erev["section"]:
                sec.ena, sec.ek = erev["ena"], erev["ek"]
    return cell, sections


def crossings(t: np.ndarray, v: np.ndarray) -> np.ndarray:
    up = np.flatnonzero((v[:-1] < THRESHOLD) & (v[1:] >= THRESHOLD))
    return t[up] + DT * (THRESHOLD - v[up]) / (v[up + 1] - v[up])


def main() -> None:
    fit = json.loads((components() / "biophysical_neuron_models" / FIT).read_text())
    with tempfile.TemporaryDirectory() as scratch:
        compile_channels(Path(scratch))
        from neuron import h, load_mechanisms

        load_mechanisms(scratch)
        h.load_file("stdrun.hoc")
        h.load_file("import3d.hoc")
        cell, sections = build(h, fit)
        clamps = []
        for delay, duration, amplitude in CLAMPS:
            clamp = h.IClamp(cell.soma[0](0.5))
            clamp.delay, clamp.dur, clamp.amp = delay, duration, amplitude
            clamps.append(clamp)
        t = h.Vector().record(h._ref_t)
        soma = h.Vector().record(cell.soma[0](0.5)._ref_v)
        axon = h.Vector().record(cell.axon[1](0.5)._ref_v)
        h.dt, h.celsius, h.secondorder = DT, fit["conditions"][0]["celsius"], 0
        h.finitialize(fit["conditions"][0]["v_init"])
        h.continuerun(TSTOP)
        t, soma, axon = np.array(t), np.array(soma), np.array(axon)
        counts = {kind: len(getattr(cell, kind)) for kind in ("soma", "dend", "apic", "axon")}
        nseg = sum(sec.nseg for sec in sections)
    spikes = crossings(t, soma)
    np.savez_compressed(
        OUT,
        soma=soma[::EVERY],
        axon=axon[::EVERY],
        spikes=spikes,
        setup=json.dumps(
            {"morphology": MORPHOLOGY, "fit": FIT, "clamps": CLAMPS, "tstop": TSTOP, "sections": counts, "nseg": nseg}
        ),
    )
    print(f"sections {counts}, nseg {nseg}; {len(spikes)} spikes, first {spikes[:3]}")
    print(f"soma v at 119.9 ms {soma[int(119.9 / DT)]:.4f} mV, min {soma.min():.3f}, max {soma.max():.3f}")


if __name__ == "__main__":
    main()
