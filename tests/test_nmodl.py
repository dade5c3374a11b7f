"""NMODL mechanisms (ranvier.load_mechanisms): the Allen Institute's channels that BMTK ships,
each in one compartment under current clamps, against NEURON 9 compiling the same files
(fixture: benchmarks/peers/neuron_nmodl_channels.py); NEURON's own synapses (expsyn.mod,
exp2syn.mod) as point processes against NEURON's traces (test_cable.py's fixtures); and the
errors of files Ranvier cannot use."""

import importlib.util
import json
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest
from mpi_launch import HAVE_MPI, mpirun
from networks import nmodl_somata

import ranvier as rv

if importlib.util.find_spec("neuron") is None:  # found, not imported: importing it starts NEURON
    pytest.skip("load_mechanisms needs NEURON's NMODL front end", allow_module_level=True)
bmtk = pytest.importorskip("bmtk", reason="the Allen channels ship with BMTK")

FIXTURE = pathlib.Path(__file__).parent / "fixtures" / "cable" / "neuron_nmodl_channels.npz"
ALLEN = pathlib.Path(bmtk.__file__).parent / "utils" / "scripts" / "bionet" / "mechanisms" / "modfiles"
CHANNELS = sorted(f.stem for f in ALLEN.glob("*.mod") if f.stem != "vecevent")  # VERBATIM
OWN = pathlib.Path(__file__).parent / "fixtures" / "cable" / "nmodl"  # nlgate.mod: derivimplicit
NEURON_MODFILES = pathlib.Path(importlib.util.find_spec("neuron").origin).parent / ".data" / "share" / "modfile"

# The fixture's cases (benchmarks/peers/neuron_nmodl_channels.py): mechanisms beside pas.
CASES = json.loads(str(np.load(FIXTURE)["cases"]))


@pytest.fixture(scope="module")
def allen(tmp_path_factory):
    folder = tmp_path_factory.mktemp("allen")
    for name in CHANNELS:
        shutil.copy(ALLEN / f"{name}.mod", folder)
    names = rv.load_mechanisms(folder)
    assert rv.load_mechanisms(OWN) == ["nlgate"]
    return folder, names


@pytest.fixture(scope="module")
def neuron_synapses():
    """NEURON's ExpSyn and Exp2Syn from its own .mod files (beside Ranvier's expsyn and exp2syn)."""
    return rv.load_mechanisms([NEURON_MODFILES / "expsyn.mod", NEURON_MODFILES / "exp2syn.mod"])


def soma(mechanisms):
    return {
        "morphology": {"branches": [{"name": "soma", "length": 20.0, "diameter": 20.0}]},
        "cv_policy": {"per_branch": {"soma": 1}},
        "dt": 0.025,
        "cm": 1.0,
        "Ra": 100.0,
        "V_init": -70.0,
        "celsius": 34.0,
        "ions": {"na": {"e": 53.0}, "k": {"e": -107.0}},
        "mechanisms": {"soma": {"pas": {"g": 1e-4, "e": -70.0}, **mechanisms}},
        "spike_detector": {"location": ["soma", 0.5], "threshold": -10.0},
        "current_clamps": [
            {"location": ["soma", 0.5], "delay": 10.0, "duration": 50.0, "amplitude": -0.03},
            {"location": ["soma", 0.5], "delay": 80.0, "duration": 100.0, "amplitude": 0.05},
        ],
    }


def voltage(description, tstop=200.0):
    """V at the soma every 0.1 ms, and the sample times."""
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": 0.025})
    cell = rv.Create("cable_cell", 1, params=description)
    meter = rv.Create("multimeter", params={"record_from": ["V_m"], "location": ["soma", 0.5], "interval": 0.1})
    rv.Connect(meter, cell)
    rv.Simulate(tstop)
    events = meter.get("events")
    return events["times"], events["V_m"]


def test_the_allen_channels_load_with_their_parameters(allen, tmp_path):
    folder, names = allen
    assert names == CHANNELS
    assert rv.load_mechanisms(folder) == CHANNELS  # the same files again: loaded already
    assert rv.load_mechanisms(ALLEN / "NaTs.mod") == ["NaTs"]  # the same code from another file
    other = tmp_path / "NaTs.mod"
    other.write_text((ALLEN / "NaTs.mod").read_text().replace("gbar = 0.00001", "gbar = 0.00002"))
    with pytest.raises(rv.KernelStateError, match="mechanism NaTs of .*NaTs.mod exists already"):
        rv.load_mechanisms(other)  # other code, a name taken
    density = rv.cable.mechanisms()["density"]
    assert density["NaTs"]["gbar"] == 1e-5 and density["NaTs"]["mvhalf"] == -40.0
    assert density["CaDynamics"] == {"gamma": 0.05, "decay": 80.0, "depth": 0.1, "minCai": 1e-4}
    assert rv.units("NaTs")["gbar"] == "S/cm2"


@pytest.mark.parametrize("case", CASES)
def test_each_channel_matches_neuron(allen, case):
    """Within 1e-6 mV of NEURON over 200 ms (spikes included): the same fixed step, the same
    mechanism code; the differences are exp's and pow's last bits. NaV's KINETIC scheme is solved
    by Newton's method on its backward Euler step as NEURON's `sparse`, its initial state by its
    LINEAR block; nlgate's nonlinear ODE by derivimplicit's Newton iterations."""
    reference = np.load(FIXTURE)[case]  # from t = 0, every 0.1 ms
    times, v = voltage(soma(CASES[case]))
    assert len(v) > 1900
    np.testing.assert_allclose(v, reference[np.rint(times / 0.1).astype(int)], rtol=0, atol=1e-6)


def test_neurons_synapses_from_their_mod_files_match_neuron_and_the_built_ins(neuron_synapses):
    """ExpSyn from NEURON's expsyn.mod in the ball-and-stick of test_cable.py: NEURON's trace within
    its 9 decimals, as the built-in expsyn; Exp2Syn from exp2syn.mod equals the built-in exp2syn
    but for the last bits of the conductance's di/dv (NEURON's difference quotient)."""
    from test_cable import BALL_AND_STICK, CASES, compare, peer_spikes, simulate_cell, trace

    assert neuron_synapses == ["Exp2Syn", "ExpSyn"]
    assert rv.cable.mechanisms()["synapse"]["Exp2Syn"] == {"tau1": 0.1, "tau2": 10.0, "e": 0.0}
    assert rv.units("Exp2Syn")["tau2"] == "ms"
    for case in ("ball_stick_w0.01", "ball_stick_w0.05"):
        description, tstop, sites, weight = CASES[case]
        description = {**description, "synapses": {"syn": {**description["synapses"]["syn"], "model": "ExpSyn"}}}
        spikes, times, voltages = simulate_cell(description, tstop, list(sites.values()), weight=weight)
        assert len(spikes) == 3
        np.testing.assert_allclose(spikes, peer_spikes("neuron", case), rtol=0, atol=1e-6)
        assert np.all(compare(trace(f"neuron_{case}.csv"), times, voltages, sites) < 1e-6)
    sites = [["soma", 0.5], ["dend", 0.5]]
    runs = {}
    for model in ("exp2syn", "Exp2Syn"):
        synapse = {"model": model, "location": ["dend", 0.5], "tau1": 0.5, "tau2": 3.0, "e": 0.0}
        runs[model] = simulate_cell({**BALL_AND_STICK, "synapses": {"syn": synapse}}, 60.0, sites, weight=0.02)
    assert len(runs["exp2syn"][0]) == 3
    np.testing.assert_allclose(runs["Exp2Syn"][0], runs["exp2syn"][0], rtol=0, atol=1e-9)
    for mine, built_in in zip(runs["Exp2Syn"][2], runs["exp2syn"][2]):
        np.testing.assert_allclose(mine, built_in, rtol=0, atol=1e-9)


def network(threads, tstop, save=None, load=None):
    """Ten spiking somata, each with its own NaTs, NaV and Ca_HVA conductance, driven by one Poisson
    source through a built-in expsyn and NEURON's Exp2Syn (exp2syn.mod); spikes (sender, time),
    with an optional checkpoint saved or loaded at its start."""
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": 0.025, "local_num_threads": threads, "rng_seed": 7})
    if load:
        rv.LoadCheckpoint(load)
        recorder = rv.GetNodes({"model": "spike_recorder"})
    else:
        mechanisms = {
            **CASES["soma"],
            "NaTs": {"gbar": rv.random.uniform(0.8, 1.2)},
            # Newton per lane: the same for any block mates
            "NaV": {"gbar": rv.random.uniform(0.0, 0.05)},
            "nlgate": {"gbar": rv.random.uniform(0.0, 0.001), "e": -90.0},
            "Ca_HVA": {"gbar": rv.random.uniform(1e-4, 1e-3)},
        }
        description = soma(mechanisms)
        description["synapses"] = {
            "syn": {"model": "expsyn", "location": ["soma", 0.5], "tau": 2.0, "e": 0.0},
            "nmodl": {"model": "Exp2Syn", "location": ["soma", 0.5], "tau1": 0.5, "tau2": rv.random.uniform(2.0, 4.0)},
        }
        cells = rv.Create("cable_cell", 10, params=description)
        source = rv.Create("poisson_generator", params={"rate": 800.0})
        rv.Connect(source, cells, syn_spec={"weight": 0.001, "delay": 1.0, "receptor_type": "syn"})
        rv.Connect(source, cells, syn_spec={"weight": 0.0006, "delay": 1.5, "receptor_type": "nmodl"})
        recorder = rv.Create("spike_recorder")
        rv.Connect(cells, recorder)
    rv.Simulate(tstop)
    if save:
        rv.SaveCheckpoint(save)
    events = recorder.get("events")
    return sorted(zip(events["senders"].tolist(), events["times"].tolist()))


def test_cells_with_nmodl_mechanisms_are_the_same_for_any_threads_and_continue_from_a_checkpoint(
    allen, neuron_synapses, tmp_path
):
    whole = network(1, 300.0)
    assert len({sender for sender, _ in whole}) == 10 and len(whole) > 30  # every cell fires
    assert network(3, 300.0) == whole
    network(2, 150.0, save=tmp_path / "ckpt")
    continued = network(1, 150.0, load=tmp_path / "ckpt")
    assert continued == whole


def test_a_checkpoint_needing_mechanisms_not_loaded_says_which(tmp_path):
    """Saved by a process that loaded nlgate.mod, loaded by a fresh one that did not (both fresh,
    so that nothing this process installed or loaded enters the checkpoint)."""
    save = (
        "import sys, ranvier as rv\n"
        "rv.load_mechanisms(sys.argv[2])\n"
        "cell = {'morphology': {'branches': [{'name': 'soma', 'length': 20.0, 'diameter': 20.0}]},\n"
        "        'mechanisms': {'soma': {'pas': {}, 'nlgate': {'gbar': 0.0005}}}}\n"
        "rv.Create('cable_cell', 2, params=cell)\n"
        "rv.Simulate(5.0)\n"
        "rv.SaveCheckpoint(sys.argv[1])\n"
    )
    load = (
        "import sys, ranvier as rv\n"
        "try:\n    rv.LoadCheckpoint(sys.argv[1])\n"
        "except rv.BadParameterError as e:\n    print(e, rv.GetKernelStatus('network_size'))\n"
    )
    where = tmp_path / "ckpt"
    subprocess.run([sys.executable, "-c", save, where, OWN / "nlgate.mod"], capture_output=True, check=True)
    done = subprocess.run([sys.executable, "-c", load, where], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "unknown density mechanism 'nlgate'" in done.stdout and "load_mechanisms" in done.stdout
    assert done.stdout.split()[-1] == "0"  # nothing half-loaded


def test_neurons_hh_mod_matches_neuron_as_the_built_in_hh_does(tmp_path):
    """NEURON's own hh.mod (from the neuron wheel, its SUFFIX renamed beside the built-in hh, its
    TABLE computed directly) against NEURON's trace of hh without tables (test_cable.py's)."""
    (tmp_path / "hh_mod.mod").write_text((NEURON_MODFILES / "hh.mod").read_text().replace("SUFFIX hh", "SUFFIX hh_mod"))
    assert rv.load_mechanisms(tmp_path) == ["hh_mod"]
    from test_cable import HH_SOMA, compare, simulate_cell, trace

    description = {**HH_SOMA, "mechanisms": {"soma": {"hh_mod": {}}}}
    spikes, times, voltages = simulate_cell(description, 120.0, [["soma", 0.5]])
    neuron = trace("neuron_hh_soma.csv")
    assert len(spikes) > 3
    assert np.all(compare(neuron, times, voltages, ["v_soma_mV"]) < 1e-6)


@pytest.mark.parametrize(
    "name, outcome",
    [
        ("exp2syn", ["Exp2Syn"]),
        ("expsyn", ["ExpSyn"]),
        ("hh", r"hh.mod exists already"),  # the built-ins' names
        ("passive", r"pas of .*passive.mod exists already"),
        ("netstim", r"netstim\.mod:5: ARTIFICIAL_CELL"),
        ("pattern", r"pattern\.mod:\d+: VERBATIM"),
        ("stim", r"stim\.mod:11: ELECTRODE_CURRENT"),
        ("svclmp", r"svclmp\.mod:30: ELECTRODE_CURRENT"),
    ],
)
def test_every_mod_file_neuron_ships_loads_or_is_refused_with_its_reason(name, outcome):
    assert sorted(f.stem for f in NEURON_MODFILES.glob("*.mod")) == sorted(
        ["exp2syn", "expsyn", "hh", "netstim", "passive", "pattern", "stim", "svclmp"]
    )
    if isinstance(outcome, list):
        assert rv.load_mechanisms(NEURON_MODFILES / f"{name}.mod") == outcome
    else:
        with pytest.raises((rv.BadParameterError, rv.KernelStateError), match=outcome):
            rv.load_mechanisms(NEURON_MODFILES / f"{name}.mod")


@pytest.mark.parametrize(
    "name, text, message",
    [
        (
            "verbatim",
            "NEURON { SUFFIX x }\nVERBATIM\nint k;\nENDVERBATIM\n",
            r"verbatim\.mod:2: VERBATIM is not supported",
        ),
        (
            "steadystate",
            "NEURON { SUFFIX x }\nSTATE { a b }\nINITIAL {\n SOLVE k STEADYSTATE sparse\n}\n"
            "BREAKPOINT { SOLVE k METHOD sparse }\nKINETIC k {\n ~ a <-> b (1, 1)\n}\n",
            r"steadystate\.mod:4: SOLVE k in INITIAL is not supported \(only of a LINEAR block",
        ),
        (
            "nonlinear",
            "NEURON { SUFFIX x }\nSTATE { a }\nNONLINEAR n {\n ~ a*a = 1\n}\n",
            r"nonlinear\.mod:3: NONLINEAR is not supported",
        ),
        (
            "euler",
            "NEURON { SUFFIX x }\nSTATE { s }\nBREAKPOINT { SOLVE d METHOD euler }\nDERIVATIVE d { s' = -s }\n",
            r"euler\.mod:3: METHOD euler is not supported",
        ),
        ("artificial", "NEURON { ARTIFICIAL_CELL A }\n", r"artificial\.mod:1: ARTIFICIAL_CELL .* not supported"),
        (
            "arguments",
            "NEURON { POINT_PROCESS P }\nSTATE { g }\nNET_RECEIVE(w, tlast) {\n g = g + w\n}\n",
            r"arguments\.mod:3: NET_RECEIVE with 2 arguments is not supported",
        ),
        (
            "net_send",
            "NEURON { POINT_PROCESS P }\nSTATE { g }\nNET_RECEIVE(w) {\n g = g + w\n net_send(1, 1)\n}\n",
            r"net_send\.mod:5: net_send .*is not supported",
        ),
        (
            "density_events",
            "NEURON { SUFFIX x }\nSTATE { g }\nNET_RECEIVE(w) {\n g = g + w\n}\n",
            r"density_events\.mod:3: NET_RECEIVE in a density mechanism takes no events",
        ),
        ("pointer", "NEURON { SUFFIX x POINTER p }\nASSIGNED { p }\n", r"pointer\.mod:1: POINTER is not supported"),
        ("valence", "NEURON { SUFFIX x USEION zz READ ezz }\n", r"valence\.mod:1: USEION zz without VALENCE"),
        ("unknown", "NEURON { SUFFIX x }\nBREAKPOINT { y = 1 }\n", r"unknown\.mod:2: the name y is not declared"),
        ("syntax", "NEURON { SUFFIX x \n", r"syntax\.mod"),
    ],
)
def test_a_file_ranvier_cannot_use_is_refused_naming_file_line_and_construct(tmp_path, name, text, message):
    path = tmp_path / f"{name}.mod"
    path.write_text(text)
    with pytest.raises(rv.BadParameterError, match=message):
        rv.load_mechanisms(path)


def test_an_unknown_mechanism_or_parameter_raises_naming_it(allen, neuron_synapses):
    with pytest.raises(rv.BadParameterError, match="unknown density mechanism 'NaTz'.*load_mechanisms"):
        rv.Create("cable_cell", 1, params=soma({"NaTz": {}}))
    with pytest.raises(rv.BadParameterError, match=r"'NaTs'\) has no parameter 'gmax'"):
        rv.Create("cable_cell", 1, params=soma({"NaTs": {"gmax": 1.0}}))
    with pytest.raises(rv.BadParameterError, match="unknown synapse model 'Exp3Syn'.*point processes"):
        rv.Create(
            "cable_cell", 1, params={**soma({}), "synapses": {"s": {"model": "Exp3Syn", "location": ["soma", 0.5]}}}
        )
    with pytest.raises(rv.BadParameterError, match="unknown density mechanism 'ExpSyn'"):
        rv.Create("cable_cell", 1, params=soma({"ExpSyn": {}}))  # a point process is no density
    with pytest.raises(rv.BadParameterError, match="no .mod files"):
        rv.load_mechanisms(ALLEN / "nowhere")


@pytest.mark.skipif(not HAVE_MPI, reason="Ranvier built without MPI")
def test_cells_with_nmodl_mechanisms_are_the_same_on_two_processes(tmp_path):
    rv.ResetKernel()
    reference = nmodl_somata()
    assert len(set(reference["senders"].tolist())) == 10
    assert "processes 2" in mpirun(2, "run_network.py", tmp_path / "out.npz", 1, "nmodl_somata")
    distributed = np.load(tmp_path / "out.npz")
    for key, value in reference.items():
        np.testing.assert_array_equal(distributed[key], value)


def test_parsed_files_are_cached_by_their_text(tmp_path, monkeypatch):
    """A second parse of the same text (in any process) skips NMODL's passes; another text does not."""
    from ranvier.nmodl import frontend

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    mod = tmp_path / "leak.mod"
    mod.write_text((OWN / "nlgate.mod").read_text())
    first = frontend.parse(mod)

    def unavailable():
        raise AssertionError("NMODL's passes ran again")

    with monkeypatch.context() as m:
        m.setattr(frontend, "_library", unavailable)
        assert frontend.parse(mod) == first
        mod.write_text(mod.read_text() + "\n: a comment changes the text\n")
        with pytest.raises(AssertionError, match="ran again"):
            frontend.parse(mod)
