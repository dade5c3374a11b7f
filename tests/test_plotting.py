"""nest.raster_plot and nest.voltage_trace: what they draw (points, bars, lines, labels)."""
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
    raster, rates = nest.raster_plot.from_device(sr, hist=True, hist_binwidth=10.0)
    x, y = raster.lines[0].get_data()
    assert np.array_equal(x, sr.events["times"]) and np.array_equal(y, sr.events["senders"])
    heights = [bar.get_height() for bar in rates.patches]
    assert sum(h * 10.0 * 2 / 1000.0 for h in heights) == pytest.approx(len(x))  # Hz back to counts
    assert rates.get_ylabel() == "Rate (Hz)" and raster.get_ylabel() == "Neuron ID"
    assert raster.get_title() == f"Raster plot from device '{sr.global_id}'"


def test_raster_from_file_equals_from_device(tmp_path):
    _, sr, _ = regular_spikes("ascii", tmp_path)
    ax = nest.raster_plot.from_file(sr.filenames, hist=False)
    x, y = ax.lines[0].get_data()
    assert len(x) >= 6 and set(y) == {1, 2}
    assert ax.get_xlabel() == "Time (ms)"
    from_device = nest.raster_plot.from_device(sr, hist=False)
    assert np.array_equal(from_device.lines[0].get_data()[0], x)


def test_raster_from_data_selects_senders():
    data = np.array([[1, 5.0], [2, 6.0], [1, 7.0], [3, 9.0]])
    ax = nest.raster_plot.from_data(data, sel=[1], hist=False, title="mine")
    x, y = ax.lines[0].get_data()
    assert x.tolist() == [5.0, 7.0] and y.tolist() == [1.0, 1.0] and ax.get_title() == "mine"


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
    lines = nest.voltage_trace.from_device(vm)
    assert [line.get_label() for line in lines] == ["Neuron 1", "Neuron 2"]
    ev = vm.events
    x, y = lines[0].get_data()
    assert np.array_equal(x, ev["times"][ev["senders"] == 1]) and np.array_equal(y, ev["V_m"][ev["senders"] == 1])
    assert plt.gca().get_ylabel() == "Membrane potential (mV)"
    seconds = nest.voltage_trace.from_device(vm, neurons=[2], timeunit="s")
    assert np.allclose(seconds[0].get_data()[0], ev["times"][ev["senders"] == 2] / 1000.0)
    plt.close("all")
    nest.ResetKernel()
    _, _, vm_file = regular_spikes("ascii", tmp_path)
    from_file = nest.voltage_trace.from_file(vm_file.filenames)
    assert len(from_file) == 2
    # the file holds 3 decimals, and not the sample at the end of the Run (NEST writes it with the next)
    assert np.allclose(from_file[0].get_data()[1], y[:-1], atol=5e-4)
