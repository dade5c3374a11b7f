"""Recorders' backends against NEST 3.10 (tests/fixtures/nest_recording.json, written by
benchmarks/peers/nest_recording_fixture.py): file names, headers and rows of the ASCII backend,
memory events in steps, n_events, errors, and grid times as the nearest doubles."""

import json
import os
import sys

import numpy as np
import pytest
from ranvier.recording_files import read_events

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


def test_a_killed_run_leaves_its_ascii_file_complete_up_to_its_last_piece(tmp_path):
    """kill -9 during a long Simulate (issue 30: NEST's files held 7,095 spikes, Ranvier's was
    empty): the file holds exactly the spikes of the run up to some time, every row whole, and
    the kernel freed what it wrote (n_events still counts it)."""
    import signal
    import subprocess
    import time

    script = tmp_path / "run.py"
    script.write_text(
        "import sys, ranvier as nest\n"
        "nest.data_path = sys.argv[1]\n"
        "n = nest.Create('iaf_psc_alpha', 1200, params={'I_e': 390.0})\n"
        "n.V_m = nest.random.uniform(-70.0, -55.0)\n"
        "r = nest.Create('spike_recorder', params={'record_to': sys.argv[2], 'label': 'run'})\n"
        "nest.Connect(n, r)\n"
        "nest.Simulate(float(sys.argv[3]))\n"
        "if sys.argv[2] == 'memory':\n"
        "    import numpy as np; np.save(sys.argv[1] + '/all.npy', np.stack([r.events['senders'], r.events['times']]))\n"
    )
    child = subprocess.Popen([sys.executable, str(script), str(tmp_path), "ascii", "1e6"])
    path, deadline, rows = tmp_path / "run-1201-0.dat", time.time() + 60, 0
    while time.time() < deadline and rows < 2000:
        time.sleep(0.2)
        if path.exists():
            rows = path.read_text().count("\n") - 3
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert rows >= 2000, "the run wrote nothing within a minute"
    text = path.read_text()
    assert text.endswith("\n")  # whole rows: each piece is written and flushed at once
    written = read_events([str(path)])
    last = written["time_ms"].max()
    subprocess.run([sys.executable, str(script), str(tmp_path), "memory", str(last + 1.0)], check=True)
    senders, times = np.load(tmp_path / "all.npy")
    upto = times <= last
    assert np.array_equal(written["sender"], senders[upto]) and np.allclose(written["time_ms"], times[upto], atol=5e-4)


def test_ascii_recorders_free_what_they_wrote_and_count_it(tmp_path):
    """The file has every spike, n_events counts them all, and the kernel holds none of those
    written (a long run's memory stays bounded)."""
    from ranvier import _state

    nest.ResetKernel()
    nest.data_path = str(tmp_path)
    n = nest.Create("iaf_psc_alpha", 200, params={"I_e": 390.0})
    r = nest.Create("spike_recorder", params={"record_to": "ascii", "label": "free"})
    m = nest.Create("spike_recorder")
    nest.Connect(n, r)
    nest.Connect(n, m)
    with nest.RunManager():
        nest.Run(250.0)
        nest.Run(250.0)
    (path,) = tmp_path.glob("free-*.dat")
    written = read_events([str(path)])
    assert r.n_events == m.n_events == len(written["sender"]) > 1000
    assert np.array_equal(written["sender"], m.events["senders"])
    assert len(_state.state.kernel.events(r.global_id)[0]) == 0


@pytest.mark.skipif(not __import__("mpi_launch").HAVE_MPI, reason="needs MPI")
def test_streamed_ascii_file_is_the_same_for_any_partition(tmp_path):
    """Rank 0 writes every rank's spikes after each piece of a Run: the same rows and counts
    for 1 process, 2 processes and 3 processes of 2 threads."""
    from mpi_launch import mpirun

    runs = []
    for n, threads in ((1, 1), (2, 1), (3, 2)):
        folder = tmp_path / f"{n}x{threads}"
        folder.mkdir()
        runs.append(mpirun(n, "ascii_recording.py", str(folder), threads).split())
    assert int(runs[0][0]) == int(runs[0][1]) > 1000 and runs[1] == runs[0] and runs[2] == runs[0]


def test_a_samplers_delay_counts_in_nest_s_delay_extrema():
    """Connect(voltmeter, neuron, syn_spec={"delay": ...}): NEST counts the delay in min_delay,
    and its voltmeter then receives the samples of all but the last of those shorter slices."""
    nest.ResetKernel()
    n = nest.Create("iaf_psc_alpha")
    vm = nest.Create("voltmeter", params={"interval": 0.1})
    nest.Connect(vm, n, syn_spec={"delay": 0.1})
    nest.Simulate(20.0)
    assert list(nest.GetKernelStatus(["min_delay", "max_delay"])) == [0.1, 0.1]
    assert len(vm.events["times"]) == 199
