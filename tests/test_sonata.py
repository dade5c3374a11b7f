"""SONATA: SonataNetwork builds the network its files describe (nodes, edges with their
per-edge and per-type values, spike inputs), the same for any hyperslab size, thread count
and number of processes; spike files are read in every layout and written by the sonata
recording backend. NEST's own test (300_pointneurons: 400 nodes, 48,432 connections, 18,828
spikes) passes through benchmarks/peers/run_nest_suite.py."""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

h5py = pytest.importorskip("h5py")

from mpi_launch import HAVE_MPI, mpirun  # noqa: E402
from ranvier.sonata import spike_files  # noqa: E402

import ranvier as nest  # noqa: E402
from ranvier import _state  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mpi"))
import sonata_files  # noqa: E402


@pytest.fixture(scope="module")
def network(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sonata")
    return folder, sonata_files.write(folder)


def _spikes(recorder):
    events = recorder.events
    return sorted(zip(events["senders"].tolist(), events["times"].tolist()))


def _build(config, slab=2**20, threads=1):
    nest.ResetKernel()
    nest.local_num_threads = threads
    net = nest.SonataNetwork(config)
    collections = net.BuildNetwork(hdf5_hyperslab_size=slab)
    recorder = nest.Create("spike_recorder")
    nest.Connect(collections["cells"], recorder)
    return net, collections, recorder


@pytest.mark.parametrize("slab", [7, 2**20])
def test_connections_are_the_edges(network, slab):
    folder, config = network
    _, collections, _ = _build(config, slab)
    c = nest.GetConnections(target=collections["cells"])
    assert sorted(zip(c.source, c.target, c.weight, c.delay)) == sonata_files.expected_edges(folder)


def test_nodes_take_models_and_parameters_by_node_id(network):
    _, config = network
    _, collections, _ = _build(config)
    cells = collections["cells"]
    models = [sonata_files.TYPE_MODELS[t] for t in sonata_files.CELL_TYPES]
    assert [nest.GetStatus(cells[k], "model")[0] for k in range(12)] == models
    for k, t in enumerate(sonata_files.CELL_TYPES):
        for name, value in sonata_files.TYPE_PARAMS[t].items():
            assert cells[k].get(name) == value
        assert cells[k].get("V_m") == sonata_files.V_M.get(k, -70.0)
    inputs = collections["inputs"]
    e = np.load(network[0] / "expected.npz")
    for k in range(5):
        times = np.sort(e["spike_times"][e["spike_ids"] == k])
        on_grid = np.ceil(times / 0.1 - 1e-9) * 0.1  # moved to the end of their step
        assert np.allclose(inputs[k].get("spike_times"), on_grid, rtol=0, atol=1e-12)


def test_same_spikes_as_connect_and_for_any_threads_and_hyperslab(network):
    folder, config = network
    net, _, recorder = _build(config, 7, threads=1)
    net.Simulate()
    sonata = _spikes(recorder)
    assert len(sonata) > 20
    net, _, recorder = _build(config, 2**20, threads=2)
    net.Simulate()
    assert _spikes(recorder) == sonata
    # the same network by Create and Connect calls
    nest.ResetKernel()
    cells = [
        nest.Create(sonata_files.TYPE_MODELS[t], params=sonata_files.TYPE_PARAMS[t]) for t in sonata_files.CELL_TYPES
    ]
    for k, v in sonata_files.V_M.items():
        cells[k].V_m = v
    e = np.load(folder / "expected.npz")
    for k in range(5):
        times = np.sort(e["spike_times"][e["spike_ids"] == k])
        nest.Create("spike_train_injector", params={"spike_times": times, "allow_offgrid_times": True})
    for s, t, w, d in sonata_files.expected_edges(folder):
        nest.Connect([s], [t], "one_to_one", {"weight": w, "delay": d})
    recorder = nest.Create("spike_recorder")
    nest.Connect(nest.NodeCollection(list(range(1, 13))), recorder)
    nest.Simulate(200.0)
    assert _spikes(recorder) == sonata


@pytest.mark.skipif(not HAVE_MPI, reason="needs MPI")
def test_any_number_of_processes_gives_the_same_network_and_spikes(network):
    _, config = network
    runs = {
        (n, t, s): mpirun(n, "sonata_network.py", config, t, s).split()
        for n, t, s in [(1, 1, 2**20), (2, 1, 7), (3, 2, 16)]
    }
    first = runs[(1, 1, 2**20)]
    assert int(first[0]) == 170 + 12 and int(first[2]) > 20  # the edges and the recorder's 12, as NEST counts
    assert all(r == first for r in runs.values()), runs


def test_output_spike_file_holds_the_populations_spikes(tmp_path):
    config = sonata_files.write(tmp_path, output=True)
    net, collections, recorder = _build(config)
    net.Simulate()
    written = spike_files.read_spikes(str(tmp_path / "output" / "spikes.h5"))
    assert list(written) == ["cells"]  # the virtual population is not recorded
    ids, times = written["cells"]
    expected = sorted((s - 1, t) for s, t in _spikes(recorder))
    assert list(zip(ids.tolist(), times.tolist())) == expected  # spikes_sort_order "id"
    with h5py.File(tmp_path / "output" / "spikes.h5") as f:
        group = f["spikes/cells"]
        assert h5py.check_enum_dtype(group.attrs.get_id("sorting").dtype) == {"none": 0, "by_id": 1, "by_time": 2}
        assert group.attrs["sorting"] == 1 and group["timestamps"].attrs["units"] == "ms"


def test_record_to_sonata_names_a_population_per_create_call(tmp_path):
    nest.ResetKernel()
    nest.data_path = str(tmp_path)
    a = nest.Create("iaf_psc_alpha", 3, params={"I_e": 400.0})
    b = nest.Create("iaf_psc_alpha", 2, params={"I_e": 450.0})
    files = nest.Create("spike_recorder", params={"record_to": "sonata", "label": "run"})
    memory = nest.Create("spike_recorder")
    nest.Connect(a + b, files)
    nest.Connect(a + b, memory)
    nest.Simulate(100.0)
    written = spike_files.read_spikes(str(tmp_path / "run.h5"))
    assert sorted(written) == ["iaf_psc_alpha_0", "iaf_psc_alpha_1"]
    events = memory.events
    for name, nodes in (("iaf_psc_alpha_0", a), ("iaf_psc_alpha_1", b)):
        mine = np.isin(events["senders"], nodes.tolist())
        ids, times = written[name]
        assert np.array_equal(ids, events["senders"][mine] - nodes[0].global_id)
        assert np.array_equal(times, events["times"][mine])  # in time order ("by_time")
    assert files.n_events == len(events["times"]) and files.events["times"].size == 0  # none kept in memory
    assert len(_state.state.kernel.events(files.global_id)[0]) == 0  # the kernel freed what was written
    with pytest.raises(nest.RecordingFileError, match="already exists"):
        nest.Simulate(10.0)  # each Simulate opens the file anew, as the ascii backend does
    nest.overwrite_files = True
    nest.Simulate(10.0)


def test_samplers_cannot_record_to_sonata():
    nest.ResetKernel()
    with pytest.raises(nest.BadParameterError, match="record_to"):
        nest.Create("multimeter", params={"record_to": "sonata"})


def test_older_spike_layouts_and_units_are_read(tmp_path):
    path = tmp_path / "old.h5"
    with h5py.File(path, "w") as f:
        f["spikes/gids"] = np.array([3, 1, 3])
        f["spikes/timestamps"] = np.array([0.0015, 0.002, 0.0105])
        f["spikes/timestamps"].attrs["units"] = "s"
        f["spikes"].attrs["sorting"] = "by_time"
    ids, times = spike_files.read_spikes(str(path))[""]
    assert ids.tolist() == [3, 1, 3] and np.allclose(times, [1.5, 2.0, 10.5], rtol=0, atol=1e-12)
    with h5py.File(path, "w") as f:
        f["spikes/gids"] = np.array([1])
    with pytest.raises(nest.BadParameterError, match="timestamps"):
        spike_files.read_spikes(str(path))


def test_a_killed_run_leaves_every_spike_up_to_its_last_flush(tmp_path):
    """kill -9 during Simulate: the file reads back, and holds exactly the spikes of the run up
    to some time (a prefix of the whole run's)."""
    script = tmp_path / "run.py"
    script.write_text(
        "import sys, ranvier as nest\n"
        "nest.data_path = sys.argv[1]\n"
        "n = nest.Create('iaf_psc_alpha', 2000, params={'I_e': 390.0})\n"
        "n.V_m = nest.random.uniform(-70.0, -55.0)\n"
        "r = nest.Create('spike_recorder', params={'record_to': sys.argv[2], 'label': 'run'})\n"
        "nest.Connect(n, r)\n"
        "nest.Simulate(float(sys.argv[3]))\n"
        "if sys.argv[2] == 'memory':\n"
        "    import numpy as np; np.save(sys.argv[1] + '/all.npy', np.stack([r.events['senders'], r.events['times']]))\n"
    )
    child = subprocess.Popen([sys.executable, str(script), str(tmp_path), "sonata", "1e6"])
    path, deadline, seen = tmp_path / "run.h5", time.time() + 60, 0
    while time.time() < deadline and seen < 2000:
        time.sleep(0.2)
        try:
            with h5py.File(path, "r", swmr=True) as f:
                seen = f["spikes/iaf_psc_alpha_0/timestamps"].shape[0]
        except (OSError, KeyError):
            pass
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert seen >= 2000, "the run wrote nothing within a minute"
    ids, times = spike_files.read_spikes(str(path))["iaf_psc_alpha_0"]
    last = times.max()
    subprocess.run([sys.executable, str(script), str(tmp_path), "memory", str(last + 1.0)], check=True)
    senders, all_times = np.load(tmp_path / "all.npy")
    upto = all_times <= last
    assert np.array_equal(ids, senders[upto] - 1) and np.array_equal(times, all_times[upto])


def test_bad_input_names_the_value(network, tmp_path):
    _, config = network
    nest.ResetKernel()
    net = nest.SonataNetwork(config)
    with pytest.raises(TypeError, match="hdf5_hyperslab_size"):
        net.BuildNetwork(hdf5_hyperslab_size="big")
    with pytest.raises(nest.BadParameterError, match="hdf5_hyperslab_size = 0"):
        net.BuildNetwork(hdf5_hyperslab_size=0)
    with pytest.raises(nest.KernelStateError, match="Create"):
        net.Connect()
    text = config.read_text()
    bad = tmp_path / "bad.json"
    bad.write_text(text.replace('"dt": 0.1', '"dx": 0.1'))
    with pytest.raises(nest.BadParameterError, match="dt"):
        nest.SonataNetwork(bad)
    bad.write_text(text.replace('"NEST"', '"NEURON"').replace("${configdir}", str(config.parent)))
    with pytest.raises(nest.BadParameterError, match="target_simulator = 'NEURON'"):
        nest.SonataNetwork(bad)
    bad.write_text(
        text.replace('"node_set": "inputs"', '"node_set": "elsewhere"').replace("${configdir}", str(config.parent))
    )
    nest.ResetKernel()
    with pytest.raises(nest.BadParameterError, match="node_set 'inputs'"):
        nest.SonataNetwork(bad).Create()
    types = config.parent / "network" / "cell_types.csv"
    saved = types.read_text()
    try:
        types.write_text(saved.replace("nest:iaf_psc_exp", "nrn:iaf_psc_exp"))
        nest.ResetKernel()
        with pytest.raises(nest.BadParameterError, match="model_template = 'nrn:iaf_psc_exp'"):
            nest.SonataNetwork(config).Create()
    finally:
        types.write_text(saved)


def test_libsonata_reads_the_spike_files(tmp_path):
    """The SONATA reference reader (libsonata, on HDF5 1.14) reads what the backend writes."""
    libsonata = pytest.importorskip("libsonata")
    config = sonata_files.write(tmp_path, output=True)
    net, _, recorder = _build(config)
    net.Simulate()
    population = libsonata.SpikeReader(str(tmp_path / "output" / "spikes.h5"))["cells"]
    assert population.sorting == "by_id"
    assert sorted(population.get()) == sorted((s - 1, t) for s, t in _spikes(recorder))
    assert population.get(node_ids=[3]) == [(3, t) for s, t in _spikes(recorder) if s == 4]
