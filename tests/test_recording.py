"""Recorders' backends against NEST 3.10 (tests/fixtures/nest_recording.json, written by
benchmarks/peers/nest_recording_fixture.py): file names, headers and rows of the ASCII backend,
memory events in steps, n_events, errors, and grid times as the nearest doubles."""

import json
import os
import sys

import numpy as np
import pytest

import ranvier as nest

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "benchmarks", "peers"))
from nest_recording_fixture import scenario  # noqa: E402

NEST_ERROR_NAMES = {"BadProperty": nest.NESTErrors.BadProperty, "IOError": nest.NESTErrors.IOError}


@pytest.fixture
def reference():
    with open(os.path.join(HERE, "fixtures", "nest_recording.json")) as f:
        return json.load(f)


@pytest.fixture
def result(tmp_path):
    nest.data_path, nest.data_prefix = "", ""
    out = scenario(nest, str(tmp_path))
    yield out
    nest.data_path, nest.data_prefix = "", ""


@pytest.mark.parametrize(
    "key",
    [
        "filenames",
        "memory_events_in_steps",
        "files_after_two_simulates",
        "files_after_run_manager",
        "spike_times_repr",
        "n_events_before_clear",
        "n_events_after_clear",
        "n_events_ascii",
        "kernel_status_type",
        "get_two_keys_type",
        "after_reset",
    ],
)
def test_as_nest(result, reference, key):
    assert result[key] == reference[key]


@pytest.mark.parametrize("key", ["error_n_events_3", "error_time_in_steps_after_simulate", "error_existing_file"])
def test_errors_as_nest(result, reference, key):
    assert result[key] is not None
    assert issubclass(getattr(nest, result[key]), NEST_ERROR_NAMES[reference[key]])


def test_existing_file_stops_before_anything_is_simulated(tmp_path):
    nest.data_path = str(tmp_path)
    (tmp_path / "spike_recorder-2-0.dat").write_text("keep me")
    nest.Create("iaf_psc_alpha")
    nest.Create("spike_recorder", params={"record_to": "ascii"})
    with pytest.raises(nest.RecordingFileError, match="spike_recorder-2-0.dat"):
        nest.Simulate(10.0)
    assert nest.biological_time == 0.0
    assert (tmp_path / "spike_recorder-2-0.dat").read_text() == "keep me"
    nest.overwrite_files = True
    nest.Simulate(10.0)  # the kernel stays usable
    assert nest.biological_time == 10.0
    nest.data_path = ""


def test_label_with_a_path_and_padded_ids(tmp_path):
    nest.Create("iaf_psc_alpha", 120)
    sr = nest.Create("spike_recorder", params={"record_to": "ascii", "label": str(tmp_path / "pop")})
    assert sr.filenames == [str(tmp_path / "pop-121-0.dat")]


def test_grid_times_are_the_nearest_doubles():
    n = nest.Create("iaf_psc_exp", params={"I_e": 400.0})
    sr = nest.Create("spike_recorder")
    nest.Connect(n, sr)
    nest.Simulate(1000.0)
    times = sr.events["times"]
    assert len(times) > 10
    steps = np.rint(times * 10).astype(int)
    assert [repr(float(t)) for t in times] == [repr(float(f"{s // 10}.{s % 10}")) for s in steps]


def test_screen_prints_rows(capsys):
    n = nest.Create("iaf_psc_exp", params={"I_e": 400.0})
    sr = nest.Create("spike_recorder", params={"record_to": "screen"})
    nest.Connect(n, sr)
    nest.Simulate(60.0)
    assert capsys.readouterr().out.splitlines() == ["1\t27.800", "1\t57.600"]
    assert sr.n_events == 2 and len(sr.events["times"]) == 0  # counted, as by every backend; kept by memory only


@pytest.mark.parametrize(
    "params, match",
    [
        ({"record_to": "hdf5"}, "record_to"),
        ({"precision": -1}, "precision"),
        ({"time_in_steps": 1}, "time_in_steps"),
        ({"label": 3}, "label"),
    ],
)
def test_bad_recorder_parameters(params, match):
    with pytest.raises(nest.BadParameterError, match=match):
        nest.Create("spike_recorder", params=params)


def test_bad_data_path_and_prefix(tmp_path):
    with pytest.raises(nest.BadParameterError, match="data_path"):
        nest.data_path = str(tmp_path / "missing")
    with pytest.raises(nest.BadParameterError, match="data_prefix"):
        nest.data_prefix = "a/b"


def test_n_events_clears_memory():
    n = nest.Create("iaf_psc_exp", params={"I_e": 400.0})
    sr = nest.Create("spike_recorder")
    nest.Connect(n, sr)
    nest.Simulate(60.0)
    sr.n_events = 0
    nest.Simulate(30.0)
    assert sr.events["times"].tolist() == [87.4]


def test_multimeter_sample_at_the_end_of_a_run_shows_after_the_next():
    """NEST 3.10: a voltmeter with interval 1 ms shows 19 samples (1..19 ms) after Simulate(20)."""
    n = nest.Create("iaf_psc_exp")
    vm = nest.Create("voltmeter")
    nest.Connect(vm, n)
    nest.Simulate(20.0)
    assert vm.events["times"].tolist() == [float(t) for t in range(1, 20)]
    nest.Simulate(5.0)
    assert vm.events["times"][-5:].tolist() == [20.0, 21.0, 22.0, 23.0, 24.0]
    vm.n_events = 0
    nest.Simulate(1.0)
    assert vm.events["times"].tolist() == [25.0]


def test_multimeter_offset_starts_its_grid_of_sample_times():
    """NEST's offset: samples at offset + k interval, within the window (start, stop]."""
    nest.ResetKernel()
    nest.resolution = 2**-3
    neuron = nest.Create("iaf_psc_alpha")
    early = nest.Create("multimeter", params={"interval": 3.0, "offset": 5.0, "record_from": ["V_m"]})
    late = nest.Create(
        "multimeter", params={"interval": 3.0, "offset": 5.0, "start": 20.0, "stop": 30.0, "record_from": ["V_m"]}
    )
    nest.Connect(early, neuron)
    nest.Connect(late, neuron)
    nest.Simulate(30.0)
    assert list(early.events["times"]) == [5.0, 8.0, 11.0, 14.0, 17.0, 20.0, 23.0, 26.0, 29.0]
    assert list(late.events["times"]) == [23.0, 26.0, 29.0]
    with pytest.raises(nest.BadParameterError, match="offset"):
        nest.Create("multimeter", params={"offset": 0.05})


def test_recorders_connections_are_listed_and_counted_as_in_nest():
    """NEST 3.10, run on this network: GetConnections lists recorders' connections (static_synapse,
    weight 1, the Connect call's delay); a node's n-th sampler connection has receptor n, a spike
    recorder's receptor 0; num_connections counts them (7 here)."""
    nest.ResetKernel()
    cells = nest.Create("iaf_psc_alpha", 2)
    mm1, mm2 = (nest.Create("multimeter", params={"record_from": ["V_m"]}) for _ in range(2))
    sr, vm = nest.Create("spike_recorder"), nest.Create("voltmeter")
    nest.Connect(mm1, cells)
    nest.Connect(mm2, cells)
    nest.Connect(cells, sr)
    nest.Connect(vm, cells[0])
    keys = ["source", "target", "receptor", "synapse_model", "weight", "delay"]
    assert nest.GetConnections(mm2).get(keys) == {
        "source": [4, 4],
        "target": [1, 2],
        "receptor": [2, 2],
        "synapse_model": ["static_synapse"] * 2,
        "weight": [1.0, 1.0],
        "delay": [1.0, 1.0],
    }
    assert nest.GetConnections(target=sr).get(["source", "receptor"]) == {"source": [1, 2], "receptor": [0, 0]}
    assert nest.GetConnections(vm).receptor == 3
    assert len(nest.GetConnections()) == nest.num_connections == 7


def test_recorders_connections_cannot_change():
    nest.ResetKernel()
    cells, meter = nest.Create("iaf_psc_alpha", 2), nest.Create("voltmeter")
    nest.Connect(meter, cells)
    with pytest.raises(nest.BadParameterError, match="connections of recorder 3 cannot change"):
        nest.GetConnections(meter).set(weight=2.0)
    with pytest.raises(nest.BadParameterError, match="Disconnect: the connections of recorder 3"):
        nest.Disconnect(nest.GetConnections(meter))
    assert nest.GetConnections(meter).weight == [1.0, 1.0]
