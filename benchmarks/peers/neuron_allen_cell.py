#!/usr/bin/env python3
"""Reference voltages of whole Allen Institute perisomatic cell models from NEURON 9, built as
BMTK's aibs_perisomatic and the AllenSDK build them, written to
tests/fixtures/cable/neuron_allen_cell.npz for tests/test_allen.py (issue 24).

    /work/peers-cable/bin/pip install neuron bmtk
    PATH=/work/peers-cable/bin:$PATH /work/peers-cable/bin/python benchmarks/peers/neuron_allen_cell.py

The models (MODELS; BMTK's pairs of morphology and fit): scnn1a, Scnn1a_473845048_m.swc with
472363762_fit.json (an excitatory cell), and pvalb, Pvalb_470522102_m.swc with 472912177_fit.json
(a fast-spiking interneuron whose sodium channel is NaV, a KINETIC scheme). Each: the SWC read by
NEURON's Import3d (Import3d_SWC_read, Import3d_GUI's instantiate into soma/dend/apic/axon arrays
and their section lists), the axon replaced by a stub of two sections (L 30 um, diam 1 um;
axon[0](0) on soma(0.5), axon[1](0) on axon[0](1)), nseg = 1 + 2 int(L / 40) for every section,
and the fit: Ra and cm per section type, pas everywhere with e_pas, the genome's mechanisms and
values per section type, ena and ek on the sections the fit names, celsius and v_init from its
conditions. The Allen channels compiled by nrnivmodl from BMTK's .mod files (all but
vecevent.mod). Fixed step dt 0.025 ms, secondorder 0, tstop 600 ms; IClamps at soma(0.5): -0.05
nA from 20 to 120 ms, then the model's step from 200 to 500 ms. Written per model (keys
<model>_soma, <model>_axon, <model>_spikes): v at soma(0.5) and axon[1](0.5) every 0.1 ms from
t = 0, and the spike times (upward crossings of -10 mV at soma(0.5), linearly interpolated
within the dt step, from the full trace); "setup" (JSON) holds each model's files, clamps,
section counts and nseg sum."""

import json
import tempfile
from pathlib import Path

import numpy as np
from neuron_nmodl_channels import compile_channels

HERE = Path(__file__).resolve().parent
OUT = HERE.parent.parent / "tests" / "fixtures" / "cable" / "neuron_allen_cell.npz"
DT, TSTOP, EVERY, THRESHOLD = 0.025, 600.0, 4, -10.0
# model: morphology, fit, clamps (delay, duration (ms), amplitude (nA))
MODELS = {
    "scnn1a": ("Scnn1a_473845048_m.swc", "472363762_fit.json", [(20.0, 100.0, -0.05), (200.0, 300.0, 0.2)]),
    "pvalb": ("Pvalb_470522102_m.swc", "472912177_fit.json", [(20.0, 100.0, -0.05), (200.0, 300.0, 0.3)]),
}

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


def build(h, morphology: str, fit: dict):
    """One cell of the model (NEURON's import3d.hoc loaded)."""
    if not hasattr(h, "AllenCell"):
        h(CELL_TEMPLATE)
    cell = h.AllenCell(str(components() / "morphologies" / morphology))
    for sec in cell.axon:  # the stub
        h.delete_section(sec=sec)
    h.execute("create axon[2]", cell)
    cell.axon[0].connect(cell.soma[0](0.5), 0)
    cell.axon[1].connect(cell.axon[0](1), 0)
    for sec in cell.axon:
        sec.L, sec.diam = 30.0, 1.0
        cell.all.append(sec=sec)
    sections = list(cell.all)  # Import3d's sections (not the template's unused placeholders)
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


def run(h, morphology: str, fit_name: str, clamps: list) -> dict:
    fit = json.loads((components() / "biophysical_neuron_models" / fit_name).read_text())
    cell, sections = build(h, morphology, fit)
    stimuli = []
    for delay, duration, amplitude in clamps:
        clamp = h.IClamp(cell.soma[0](0.5))
        clamp.delay, clamp.dur, clamp.amp = delay, duration, amplitude
        stimuli.append(clamp)
    t = h.Vector().record(h._ref_t)
    soma = h.Vector().record(cell.soma[0](0.5)._ref_v)
    axon = h.Vector().record(cell.axon[1](0.5)._ref_v)
    h.dt, h.celsius, h.secondorder = DT, fit["conditions"][0]["celsius"], 0
    h.finitialize(fit["conditions"][0]["v_init"])
    h.continuerun(TSTOP)
    t, v = np.array(t), np.array(soma)
    setup = {
        "morphology": morphology,
        "fit": fit_name,
        "clamps": clamps,
        "sections": {
            kind: sum(section_type(sec) == kind for sec in sections) for kind in ("soma", "dend", "apic", "axon")
        },
        "nseg": sum(sec.nseg for sec in sections),
    }
    return {"soma": v[::EVERY], "axon": np.array(axon)[::EVERY], "spikes": crossings(t, v), "setup": setup}


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        compile_channels(Path(scratch))
        from neuron import h, load_mechanisms

        load_mechanisms(scratch)
        h.load_file("stdrun.hoc")
        h.load_file("import3d.hoc")
        results = {name: run(h, *model) for name, model in MODELS.items()}
    arrays = {f"{name}_{key}": r[key] for name, r in results.items() for key in ("soma", "axon", "spikes")}
    setup = {"tstop": TSTOP, **{name: r["setup"] for name, r in results.items()}}
    np.savez_compressed(OUT, setup=json.dumps(setup), **arrays)
    for name, r in results.items():
        print(
            f"{name}: {r['setup']['sections']}, nseg {r['setup']['nseg']}; {len(r['spikes'])} spikes, "
            f"v at 119.9 ms {r['soma'][1199]:.4f} mV"
        )


if __name__ == "__main__":
    main()
