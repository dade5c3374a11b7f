"""step_current_generator and ac_generator against NEST 3.10 (fixture by
benchmarks/peers/nest_device_traces.py), and bad parameters of the current generators.

The generators drive an iaf_psc_alpha whose V_m NEST and Ranvier integrate with the same
exact propagator, so the traces agree to rounding (1e-9 mV)."""

import sys

import numpy as np
import pytest
from device_fixture import FIXTURE, SPEC, H, applied_current, reset, trace
from ranvier.errors import BadParameterError

import ranvier as rv


@pytest.mark.parametrize("name", sorted(n for n in SPEC["traces"] if not n.startswith("dc_")))
def test_trace_matches_nest(name):
    nest = FIXTURE[f"trace/{name}"]  # NEST's voltmeter holds the samples up to T - min_delay
    np.testing.assert_allclose(trace(name)[: len(nest)], nest, rtol=0, atol=1e-9)


def test_step_current_generator_amplitudes():
    # amplitude_values[i] acts from amplitude_times[i] on (plus the delay of 1 ms)
    current = applied_current(trace("step")[:, None])[:, 0]
    times, values = SPEC["traces"]["step"][1]["amplitude_times"], SPEC["traces"]["step"][1]["amplitude_values"]
    expected = np.zeros_like(current)
    for t, v in zip(times, values):
        expected[round((t + 1.0) / H) :] = v
    np.testing.assert_allclose(current, expected, rtol=0, atol=1e-7)


def test_ac_generator_is_a_sinusoid():
    model, p, delay = SPEC["traces"]["ac"]
    current = applied_current(trace("ac")[:, None])[:, 0]
    steps = np.arange(len(current)) - round(delay / H)  # acts in step k + 1: phase of (k + 1) h
    expected = p["offset"] + p["amplitude"] * np.sin(
        2 * np.pi * p["frequency"] * 1e-3 * steps * H + np.radians(p["phase"])
    )
    expected[steps < 1] = 0.0
    np.testing.assert_allclose(current, expected, rtol=0, atol=1e-7)


@pytest.mark.parametrize("name", ["step_window", "ac_window"])
def test_traces_identical_for_any_threads(name):
    one = trace(name, threads=1)
    for threads in (2, 3):
        np.testing.assert_array_equal(trace(name, threads=threads), one)


# bad parameters


@pytest.mark.parametrize(
    "model,params,named",
    [
        ("dc_generator", {"amplitude": "high"}, "amplitude"),
        ("dc_generator", {"amplitude": True}, "amplitude"),
        ("dc_generator", {"start": 5.0, "stop": 2.0}, "stop"),
        ("step_current_generator", {"amplitude_times": [1.0, 2.0], "amplitude_values": [1.0]}, "amplitude_values"),
        ("step_current_generator", {"amplitude_times": [1.0, 2.0]}, "amplitude_times"),
        ("step_current_generator", {"amplitude_times": [1.05], "amplitude_values": [1.0]}, "amplitude_times"),
        ("step_current_generator", {"amplitude_times": [2.0, 1.0], "amplitude_values": [1.0, 2.0]}, "amplitude_times"),
        ("step_current_generator", {"amplitude_times": [0.0], "amplitude_values": [1.0]}, "amplitude_times"),
        (
            "step_current_generator",
            {"allow_offgrid_times": True, "amplitude_times": [1.01, 1.02], "amplitude_values": [1.0, 2.0]},
            "amplitude_times",
        ),
        ("step_current_generator", {"allow_offgrid_times": 1.0}, "allow_offgrid_times"),
        ("ac_generator", {"frequency": float("nan")}, "frequency"),
    ],
)
def test_bad_parameters_raise(model, params, named):
    reset()
    with pytest.raises(BadParameterError, match=named):
        rv.Create(model, params=params)
    n = rv.Create(model)  # the kernel stays usable
    with pytest.raises(BadParameterError, match=named):
        n.set(params)
    assert rv.GetStatus(n)[0]["stop"] == sys.float_info.max


def test_offgrid_times_set_before_times_only():
    reset()
    g = rv.Create("step_current_generator", params={"amplitude_times": [1.0], "amplitude_values": [2.0]})
    with pytest.raises(BadParameterError, match="allow_offgrid_times"):
        g.set(allow_offgrid_times=True)
    g.set(allow_offgrid_times=True, amplitude_times=[1.05], amplitude_values=[2.0])
    assert g.get("allow_offgrid_times") is True
    assert g.get("amplitude_times") == [1.1]  # the end of its step, as NEST 3.10 shows it


def test_current_on_its_way_survives_disconnecting_its_generator():
    """A thread without current generators reads one shared current row; disconnecting the last
    one still delivers the current it sent before (its delay is 5 ms), and connecting one later
    gives the thread its current rows."""

    def v_m(disconnect_at=None, connect_at=None):
        rv.ResetKernel()
        neuron = rv.Create("iaf_psc_alpha")
        dc = rv.Create("dc_generator", params={"amplitude": 300.0})
        vm = rv.Create("voltmeter", params={"interval": 0.1})
        rv.Connect(vm, neuron)
        if connect_at is None:
            rv.Connect(dc, neuron, syn_spec={"delay": 5.0})
        for t in (10.0, 10.0):
            rv.Simulate(t)
            if rv.biological_time == disconnect_at:
                rv.Disconnect(rv.GetConnections(dc))
            if rv.biological_time == connect_at:
                rv.Connect(dc, neuron, syn_spec={"delay": 5.0})
        return vm.events["times"], vm.events["V_m"]

    times, steady = v_m()
    _, cut = v_m(disconnect_at=10.0)
    on_its_way = times <= 15.1 + 1e-9  # sent in the steps before 10 ms, acting one step after 5 ms
    np.testing.assert_array_equal(cut[on_its_way], steady[on_its_way])
    assert np.all(cut[~on_its_way] < steady[~on_its_way])
    _, late = v_m(connect_at=10.0)
    assert np.all(late[on_its_way] == -70.0) and np.all(late[~on_its_way] > -70.0)
