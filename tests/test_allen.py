"""Allen Institute perisomatic cell models, whole (ranvier.allen.perisomatic: BMTK's morphologies
and fits with the Allen channels loaded by load_mechanisms), against NEURON 9 building them as
BMTK and the AllenSDK do (fixture: benchmarks/peers/neuron_allen_cell.py): an excitatory Scnn1a
cell and a fast-spiking Pvalb cell, whose sodium channel (NaV) is a KINETIC scheme."""

import collections
import importlib.util
import json
import pathlib

import numpy as np
import pytest

import ranvier as rv

if importlib.util.find_spec("neuron") is None:  # found, not imported: importing it starts NEURON
    pytest.skip("load_mechanisms needs NEURON's NMODL front end", allow_module_level=True)
bmtk = pytest.importorskip("bmtk", reason="the Allen models ship with BMTK")

FIXTURE = np.load(pathlib.Path(__file__).parent / "fixtures" / "cable" / "neuron_allen_cell.npz")
SETUP = json.loads(str(FIXTURE["setup"]))
MODELS = ["scnn1a", "pvalb"]
COMPONENTS = pathlib.Path(bmtk.__file__).parent / "utils" / "scripts" / "bionet"


@pytest.fixture(scope="module")
def mechanisms():
    modfiles = COMPONENTS / "mechanisms" / "modfiles"
    return rv.load_mechanisms([f for f in modfiles.glob("*.mod") if f.stem != "vecevent"])


def description(model):
    """The model's cell with the fixture's clamps and spike detector."""
    setup = SETUP[model]
    d = rv.allen.perisomatic(
        COMPONENTS / "morphologies" / setup["morphology"], COMPONENTS / "biophysical_neuron_models" / setup["fit"]
    )
    d["current_clamps"] = [
        {"location": ["soma", 0.5], "delay": delay, "duration": duration, "amplitude": amplitude}
        for delay, duration, amplitude in setup["clamps"]
    ]
    d["spike_detector"] = {"location": ["soma", 0.5], "threshold": -10.0}
    return d


def test_the_description_follows_the_fit(mechanisms):
    d = description("scnn1a")
    fit = json.loads((COMPONENTS / "biophysical_neuron_models" / SETUP["scnn1a"]["fit"]).read_text())
    assert d["Ra"] == fit["passive"][0]["ra"]
    assert d["cm"] == {"soma": 1.0, "axon": 1.0, "apic": 2.12, "dend": 2.12}
    assert d["mechanisms"]["soma"]["NaTs"] == {"gbar": 0.9822899589299999}
    assert d["mechanisms"]["soma"]["CaDynamics"] == {"gamma": 0.00125107755106, "decay": 717.9166004289999}
    assert d["mechanisms"]["apic"] == {"pas": {"e": fit["passive"][0]["e_pas"], "g": 9.58618554762e-05}}
    assert d["ions"] == {"na": {"e": {"soma": 53.0}}, "k": {"e": {"soma": -107.0}}}
    assert "apic" not in description("pvalb")["cm"]  # a section type the morphology lacks
    for model in MODELS:  # NEURON's sections and segments
        branches = rv.cable.branches(description(model))
        counts = collections.Counter(b["name"] for b in branches)
        assert {kind: counts.get(kind, 0) for kind in SETUP[model]["sections"]} == SETUP[model]["sections"]
        assert sum(b["n_cv"] for b in branches) == SETUP[model]["nseg"]
    with pytest.raises(rv.BadParameterError, match="not an Allen perisomatic fit"):
        rv.allen.perisomatic(COMPONENTS / "morphologies" / SETUP["scnn1a"]["morphology"], {"passive": []})


@pytest.mark.parametrize("model", MODELS)
def test_the_whole_cell_matches_neuron(mechanisms, model):
    """Subthreshold (the hyperpolarising step, to 200 ms) within 1e-5 mV of NEURON, every spike of
    the depolarising step within 0.001 ms (the issue asks 0.01 mV and hundredths of a ms;
    measured: scnn1a 2e-6 mV and 2e-4 ms, pvalb below in the note), the stub's far end within 0.1
    mV."""
    d = description(model)
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": 0.025})
    cell = rv.Create("cable_cell", 1, params=d)
    recorder = rv.Create("spike_recorder")
    rv.Connect(cell, recorder)
    stub_end = len(rv.cable.branches(d)) - 1
    meters = [
        rv.Create("multimeter", params={"record_from": ["V_m"], "location": site, "interval": 0.1})
        for site in (["soma", 0.5], ["branch", stub_end, 0.5])
    ]
    for meter in meters:
        rv.Connect(meter, cell)
    rv.Simulate(SETUP["tstop"])
    spikes = recorder.get("events")["times"]
    reference = {key: FIXTURE[f"{model}_{key}"] for key in ("soma", "axon", "spikes")}
    assert len(spikes) == len(reference["spikes"]) > 10
    np.testing.assert_allclose(spikes, reference["spikes"], rtol=0, atol=1e-3)
    times = meters[0].get("events")["times"]
    at = np.rint(times / 0.1).astype(int)
    soma, axon = (m.get("events")["V_m"] for m in meters)
    below = times < 200.0
    np.testing.assert_allclose(soma[below], reference["soma"][at][below], rtol=0, atol=1e-5)
    np.testing.assert_allclose(soma, reference["soma"][at], rtol=0, atol=0.5)
    np.testing.assert_allclose(axon, reference["axon"][at], rtol=0, atol=0.1)
