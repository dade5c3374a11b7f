"""Cable cells whose description's scalars differ per cell: lists with one value per cell and
random Parameters reach each cell (each equals a lone cell with its values), are the same for any
threads and processes, and scalars that set the tree or its CVs are refused."""

import copy

import numpy as np
import pytest
from mpi_launch import HAVE_MPI, mpirun
from networks import cable_per_cell
from test_cable import BALL_AND_STICK

import ranvier as rv

CELL = {
    **BALL_AND_STICK,
    "synapses": {"syn": {"model": "exp2syn", "location": ["dend", 0.5], "tau1": 0.5, "tau2": 2.0, "e": 0.0}},
    "current_clamps": [{"location": ["soma", 0.5], "delay": 5.0, "duration": 1e9, "amplitude": 0.1}],
}

# A value per cell for each scalar that may differ (the other cells keep CELL's).
PER_CELL = {
    ("cm",): [1.0, 1.2, 0.9],
    ("Ra",): [100.0, 150.0, 70.0],
    ("V_init",): [-65.0, -70.0, -60.0],
    ("celsius",): [6.3, 10.0, 6.3],
    ("ions", "na", "e"): [50.0, 55.0, 45.0],
    ("mechanisms", "soma", "hh", "gnabar"): [0.12, 0.10, 0.15],
    ("mechanisms", "dend", "pas", "g"): [0.001, 0.0005, 0.002],
    ("synapses", "syn", "tau2"): [2.0, 4.0, 1.0],
    ("spike_detector", "threshold"): [-10.0, 0.0, -20.0],
    ("current_clamps", 0, "amplitude"): [0.1, 0.15, 0.05],
    ("current_clamps", 0, "delay"): [5.0, 12.0, 0.0],
}


def with_value(description, path, value):
    out = copy.deepcopy(description)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


def run(description, n, threads=1, t_sim=40.0):
    """Spike times per cell and the dendrite's V_m per cell, with events on the synapse."""
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads, "rng_seed": 3})
    cells = rv.Create("cable_cell", n, params=description)
    generator = rv.Create("spike_generator", params={"spike_times": [2.0, 9.0, 9.5, 20.0]})
    rv.Connect(generator, cells, syn_spec={"weight": 0.01, "delay": 1.0, "receptor_type": "syn"})
    recorder = rv.Create("spike_recorder")
    meter = rv.Create("multimeter", params={"record_from": ["V_m"], "location": ["dend", 0.7], "interval": 0.5})
    rv.Connect(cells, recorder)
    rv.Connect(meter, cells)
    rv.Simulate(t_sim)
    spikes, samples = recorder.get("events"), meter.get("events")
    ids = cells.tolist()
    return (
        [spikes["times"][spikes["senders"] == i] for i in ids],
        [samples["V_m"][samples["senders"] == i] for i in ids],
    )


@pytest.mark.parametrize("path", list(PER_CELL), ids=lambda p: ".".join(map(str, p)))
def test_a_value_per_cell_gives_each_cell_what_it_would_have_alone(path):
    values = PER_CELL[path]
    spikes, voltages = run(with_value(CELL, path, values), len(values))
    for i, value in enumerate(values):
        alone_spikes, alone_voltage = run(with_value(CELL, path, value), 1)
        np.testing.assert_array_equal(spikes[i], alone_spikes[0])
        np.testing.assert_array_equal(voltages[i], alone_voltage[0])
    assert not (np.array_equal(voltages[0], voltages[1]) and np.array_equal(spikes[0], spikes[1]))


RANDOM = {
    **CELL,
    "V_init": rv.random.uniform(-70.0, -60.0),
    "mechanisms": {"soma": {"hh": {"gnabar": rv.random.normal(0.12, 0.01)}}, "dend": {"pas": {"g": 0.001, "e": -65.0}}},
    "synapses": {
        "syn": {"model": "exp2syn", "location": ["dend", 0.5], "tau1": 0.5, "tau2": 1.0 + rv.random.lognormal(0.5, 0.5)}
    },
    "current_clamps": [
        {"location": ["soma", 0.5], "delay": 5.0, "duration": 1e9, "amplitude": rv.random.uniform(0.05, 0.2)}
    ],
}


def test_random_parameters_are_drawn_per_cell_the_same_for_any_threads():
    rv.ResetKernel()
    rv.SetKernelStatus({"rng_seed": 3})
    v_init = np.array(rv.Create("cable_cell", 50, params=RANDOM).get("V_m"))
    assert np.all((v_init >= -70.0) & (v_init < -60.0)) and len(set(v_init)) == 50
    spikes, voltages = run(RANDOM, 20)
    assert len({s[0] for s in spikes if len(s)}) == 20  # every cell fires, each at its own time
    for threads in (2, 3):
        s, v = run(RANDOM, 20, threads=threads)
        for a, b in zip(spikes + voltages, s + v):
            np.testing.assert_array_equal(a, b)


@pytest.mark.skipif(not HAVE_MPI, reason="Ranvier built without MPI")
def test_random_parameters_are_the_same_on_two_processes(tmp_path):
    rv.ResetKernel()
    reference = cable_per_cell()
    assert "processes 2" in mpirun(2, "run_network.py", tmp_path / "out.npz", 2, "cable_per_cell")
    distributed = np.load(tmp_path / "out.npz")
    assert len(reference["times"]) > 50
    for key, value in reference.items():
        np.testing.assert_array_equal(distributed[key], value)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"cm": [1.0, 1.1]}, r"cm needs one value per cell \(3\), got 2 values"),
        (
            with_value(CELL, ("current_clamps", 0, "amplitude"), [0.1] * 4)["current_clamps"],
            r"current clamp amplitude needs one value per cell \(3\), got 4 values",
        ),
        ({"mechanisms": {"soma": {"hh": {"gkbar": [0.036]}}}}, r"gkbar\] needs one value per cell \(3\), got 1"),
        ({"synapses": {"syn": {"model": "expsyn", "location": ["dend", 0.5], "tau": [2.0, -1.0, 2.0]}}}, "cell 1"),
        ({"dt": [0.025, 0.05, 0.025]}, "dt cannot differ between cells"),
        (
            {"morphology": {"branches": [{"name": "soma", "length": rv.random.uniform(10.0, 20.0), "diameter": 20.0}]}},
            "morphology cannot differ between cells",
        ),
        (
            {"morphology": {"branches": [{"name": "soma", "length": [10.0, 20.0, 30.0], "diameter": 20.0}]}},
            "soma length cannot differ between cells",
        ),
        (
            {"synapses": {"syn": {"model": "expsyn", "location": ["dend", [0.1, 0.5, 0.9]]}}},
            "x cannot differ between cells",
        ),
        (
            {"Ra": [100.0, 120.0, 90.0], "cv_policy": {"d_lambda": 0.1}},
            "Ra differs between cells, but cv_policy d_lambda",
        ),
    ],
)
def test_bad_per_cell_values_raise_naming_the_key(change, message):
    rv.ResetKernel()
    if isinstance(change, list):
        change = {"current_clamps": change}
    with pytest.raises(rv.BadParameterError, match=message):
        rv.Create("cable_cell", 3, params={**CELL, **change})
    assert rv.GetKernelStatus("network_size") == 0
