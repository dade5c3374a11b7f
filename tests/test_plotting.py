"""nest.raster_plot and nest.voltage_trace: what they draw (points, bars, lines, labels)."""

import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import ranvier as nest  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")
    nest.data_path = ""


def regular_spikes(record_to="memory", tmp_path=None):
    if tmp_path is not None:
        nest.data_path = str(tmp_path)
    n = nest.Create("iaf_psc_exp", 2, params={"I_e": [400.0, 500.0]})
    sr = nest.Create("spike_recorder", params={"record_to": record_to})
    vm = nest.Create("voltmeter", params={"record_to": record_to, "interval": 1.0})
    nest.Connect(n, sr)
    nest.Connect(vm, n)
    nest.Simulate(100.0)
    return n, sr, vm


def test_raster_from_device_with_histogram():
    n, sr, _ = regular_spikes()
    lines = nest.raster_plot.from_device(sr, hist=True, hist_binwidth=10.0)
    raster, rates = plt.gcf().axes
    x, y = lines[0].get_data()
    assert np.array_equal(x, sr.events["times"]) and np.array_equal(y, sr.events["senders"])
    heights = [bar.get_height() for bar in rates.patches]
    assert sum(h * 10.0 * 2 / 1000.0 for h in heights) == pytest.approx(len(x))  # Hz back to counts
    assert rates.get_ylabel() == "Rate (spks/s)" and raster.get_ylabel() == "Neuron ID"
    assert raster.get_title() == f"Raster plot from device '{sr.global_id}'"


def test_histogram_as_nest_draws_it():
    """As NEST 3.10 (tests/fixtures/nest_raster_histogram.json, from
    benchmarks/peers/nest_plot_fixture.py): bins from the first spike, each bar centred on its
    bin's start, the last bin open (the spike at the latest time counts)."""
    with open(os.path.join(os.path.dirname(__file__), "fixtures", "nest_raster_histogram.json")) as f:
        nest_drew = json.load(f)
    lines = nest.raster_plot.from_data(np.array(nest_drew["data"]), hist=True, hist_binwidth=nest_drew["hist_binwidth"])
    raster, rates = plt.gcf().axes
    assert type(lines[0]).__name__ == nest_drew["returned"]
    assert [round(b.get_height(), 6) for b in rates.patches] == nest_drew["bar_heights"]
    assert [b.get_x() for b in rates.patches] == nest_drew["bar_lefts"]
    assert [raster.get_ylabel(), rates.get_ylabel(), rates.get_xlabel(), raster.get_title()] == nest_drew["labels"]


def test_raster_from_file_equals_from_device(tmp_path):
    _, sr, _ = regular_spikes("ascii", tmp_path)
    lines = nest.raster_plot.from_file(sr.filenames, hist=False)
    x, y = lines[0].get_data()
    assert len(x) >= 6 and set(y) == {1, 2}
    assert plt.gca().get_xlabel() == "Time (ms)"
    from_device = nest.raster_plot.from_device(sr, hist=False)
    assert np.array_equal(from_device[0].get_data()[0], x)


def test_raster_from_data_selects_senders():
    data = np.array([[1, 5.0], [2, 6.0], [1, 7.0], [3, 9.0]])
    lines = nest.raster_plot.from_data(data, sel=[1], hist=False, title="mine")
    x, y = lines[0].get_data()
    assert x.tolist() == [5.0, 7.0] and y.tolist() == [1.0, 1.0] and plt.gca().get_title() == "mine"


def test_raster_refuses_other_devices_and_empty_recorders():
    n = nest.Create("iaf_psc_alpha")
    sr = nest.Create("spike_recorder")
    nest.Connect(n, sr)
    nest.Simulate(10.0)
    with pytest.raises(nest.NESTError, match="No events"):
        nest.raster_plot.from_device(sr)
    with pytest.raises(nest.NESTError, match="spike_recorder"):
        nest.raster_plot.from_device(n)


def test_voltage_trace_from_device_and_file(tmp_path):
    n, _, vm = regular_spikes()
    lines = [plotted[0] for plotted in nest.voltage_trace.from_device(vm)]
    assert [line.get_label() for line in lines] == ["Neuron 1", "Neuron 2"]
    ev = vm.events
    x, y = lines[0].get_data()
    assert np.array_equal(x, ev["times"][ev["senders"] == 1]) and np.array_equal(y, ev["V_m"][ev["senders"] == 1])
    assert plt.gca().get_ylabel() == "Membrane potential (mV)"
    seconds = nest.voltage_trace.from_device(vm, neurons=[2], timeunit="s")
    assert np.allclose(seconds[0][0].get_data()[0], ev["times"][ev["senders"] == 2] / 1000.0)
    plt.close("all")
    nest.ResetKernel()
    _, _, vm_file = regular_spikes("ascii", tmp_path)
    from_file = nest.voltage_trace.from_file(vm_file.filenames)
    assert len(from_file) == 2
    # the file holds 3 decimals; the sample at the end of the Run is in neither (NEST's timing)
    assert np.allclose(from_file[0][0].get_data()[1], y, atol=5e-4)


def test_plots_read_tables_without_a_header_as_pynest_does(tmp_path):
    """numpy.savetxt's tables (sender, time[, V_m]), which PyNEST's from_file reads; PyNEST's
    numpy and pandas readers give the same raster."""
    np.savetxt(tmp_path / "spikes.txt", [[1, 5.0], [2, 6.0], [1, 7.0]])
    for read in (nest.raster_plot.from_file, nest.raster_plot.from_file_numpy, nest.raster_plot.from_file_pandas):
        x, y = read([str(tmp_path / "spikes.txt")], hist=False)[0].get_data()
        assert x.tolist() == [5.0, 6.0, 7.0] and y.tolist() == [1.0, 2.0, 1.0]
        plt.close("all")
    np.savetxt(tmp_path / "vm.txt", [[1, 0.1, -70.0], [1, 0.2, -69.5], [2, 0.1, -65.0]])
    lines = nest.voltage_trace.from_file(str(tmp_path / "vm.txt"))
    assert sorted(line[0].get_ydata().tolist() for line in lines) == [[-70.0, -69.5], [-65.0]]  # one plot each
    with pytest.raises(nest.BadParameterError, match="2 columns of numbers and no header"):
        nest.voltage_trace.from_file(str(tmp_path / "spikes.txt"))
