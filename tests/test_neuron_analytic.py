"""Single-neuron traces against closed-form solutions of the membrane equations."""

import math

import numpy as np
import pytest
from scipy import integrate

import ranvier as rv

H = 0.1
PARAMS = {
    "E_L": -70.0,
    "V_m": -70.0,
    "C_m": 250.0,
    "tau_m": 10.0,
    "tau_syn_ex": 2.0,
    "tau_syn_in": 2.0,
    "V_th": 1e6,
    "V_reset": -70.0,
    "t_ref": 2.0,
}


def record(neuron, t_sim):
    vm = rv.Create("voltmeter", params={"interval": H})
    rv.Connect(vm, neuron)
    rv.Simulate(t_sim)
    ev = vm.events
    return ev["times"], ev["V_m"]


def psp_alpha(t, w, tau_s, tau_m, c_m):
    """Voltage response to w * e/tau_s * t exp(-t/tau_s) for t >= 0."""
    a = 1 / tau_m - 1 / tau_s
    t = np.maximum(t, 0.0)
    return w * math.e / tau_s / c_m * (np.exp(-t / tau_s) * (a * t - 1) + np.exp(-t / tau_m)) / a**2


def psp_exp(t, w, tau_s, tau_m, c_m):
    """Voltage response to w exp(-t/tau_s) for t >= 0."""
    t = np.maximum(t, 0.0)
    return w / c_m * (np.exp(-t / tau_s) - np.exp(-t / tau_m)) / (1 / tau_m - 1 / tau_s)


def test_psp_formulas_match_numerical_convolution():
    # The closed forms used below, checked against quadrature of the membrane equation.
    for kernel, psp in (
        (lambda s: 30 * math.e / 2.0 * s * math.exp(-s / 2.0), psp_alpha),
        (lambda s: 30 * math.exp(-s / 2.0), psp_exp),
    ):
        t = 7.3
        value, _ = integrate.quad(
            lambda s: math.exp(-(t - s) / 10.0) * kernel(s) / 250.0, 0, t, epsabs=1e-14, epsrel=1e-13
        )
        assert psp(t, 30.0, 2.0, 10.0, 250.0) == pytest.approx(value, rel=1e-10)


@pytest.mark.parametrize("model", ["iaf_psc_alpha", "iaf_psc_exp"])
def test_constant_current_trace(model):
    n = rv.Create(model, params={**PARAMS, "I_e": 300.0})
    times, vm = record(n, 50.0)
    # the samples of the last min_delay slice (1 ms: the voltmeter's own connection) come with
    # the next Run, as in NEST 3.10 (490 samples, the last at 49 ms)
    np.testing.assert_allclose(times, np.arange(1, 491) * H, rtol=0, atol=1e-12)
    expected = -70.0 + 300.0 * 10.0 / 250.0 * (1 - np.exp(-times / 10.0))
    np.testing.assert_allclose(vm, expected, rtol=0, atol=1e-9)


@pytest.mark.parametrize("model", ["iaf_psc_alpha", "iaf_psc_exp"])
def test_dc_generator_arrives_one_step_after_its_delay(model):
    # As in NEST: a current sent in step k with delay d is read at the end of step k + d and
    # acts on the membrane from the next step on.
    n = rv.Create(model, params=PARAMS)
    dc = rv.Create("dc_generator", params={"amplitude": 200.0})
    rv.Connect(dc, n, syn_spec={"delay": 1.0})
    times, vm = record(n, 30.0)
    onset = 1.0 + H
    expected = -70.0 + 200.0 * 10.0 / 250.0 * (1 - np.exp(-np.maximum(times - onset, 0) / 10.0))
    np.testing.assert_allclose(vm, expected, rtol=0, atol=1e-9)


@pytest.mark.parametrize("model,psp", [("iaf_psc_alpha", psp_alpha), ("iaf_psc_exp", psp_exp)])
def test_input_spike_trace(model, psp):
    n = rv.Create(model, params={**PARAMS, "tau_syn_ex": 0.5, "tau_syn_in": 3.0})
    sg = rv.Create("spike_generator", params={"spike_times": [2.0, 5.3, 11.0]})
    rv.Connect(sg, n, syn_spec={"weight": 80.0, "delay": 1.0})
    sg2 = rv.Create("spike_generator", params={"spike_times": [4.0]})
    rv.Connect(sg2, n, syn_spec={"weight": -120.0, "delay": 2.5})
    times, vm = record(n, 40.0)
    expected = -70.0 + sum(psp(times - (t + 1.0), 80.0, 0.5, 10.0, 250.0) for t in (2.0, 5.3, 11.0))
    expected += psp(times - 6.5, -120.0, 3.0, 10.0, 250.0)
    np.testing.assert_allclose(vm, expected, rtol=0, atol=1e-9)
    assert vm.max() > -70.0 + 0.1  # the input did arrive


def test_alpha_psc_peak_equals_weight():
    n = rv.Create("iaf_psc_alpha", params={**PARAMS, "tau_syn_ex": 2.0})
    sg = rv.Create("spike_generator", params={"spike_times": [1.0]})
    rv.Connect(sg, n, syn_spec={"weight": 50.0, "delay": 1.0})
    mm = rv.Create("multimeter", params={"interval": H, "record_from": ["I_syn_ex"]})
    rv.Connect(mm, n)
    rv.Simulate(10.0)
    ev = mm.events
    peak = ev["I_syn_ex"].max()
    assert peak == pytest.approx(50.0, rel=1e-12)
    assert ev["times"][np.argmax(ev["I_syn_ex"])] == pytest.approx(2.0 + 2.0)


def first_crossing(v0, v_inf, theta, start_step):
    """First grid step k > start_step with the relaxation from v0 at or above theta."""
    k = np.arange(start_step + 1, start_step + 100000)
    v = v_inf + (v0 - v_inf) * np.exp(-(k - start_step) * H / 10.0)
    return int(k[np.argmax(v >= theta)])


@pytest.mark.parametrize("model", ["iaf_psc_alpha", "iaf_psc_exp"])
def test_spike_times_on_grid_with_refractoriness(model):
    p = {**PARAMS, "V_th": -55.0, "I_e": 450.0, "t_ref": 2.0}
    n = rv.Create(model, params=p)
    sr = rv.Create("spike_recorder")
    rv.Connect(n, sr)
    rv.Simulate(100.0)
    v_inf = -70.0 + 450.0 * 10.0 / 250.0
    expected, step = [], 0
    start_v = -70.0
    while True:
        k = first_crossing(start_v, v_inf, -55.0, step)
        if k * H > 100.0:
            break
        expected.append(k)
        step, start_v = k + 20, -70.0  # clamped at V_reset for t_ref = 20 steps
    assert len(expected) >= 4
    np.testing.assert_array_equal(np.rint(sr.events["times"] / H).astype(int), expected)
    np.testing.assert_allclose(sr.events["times"], np.array(expected) * H, rtol=0, atol=1e-12)


def test_ignore_and_fire_fires_at_rate_and_phase():
    n = rv.Create("ignore_and_fire", 2, params={"rate": 10.0, "phase": [1.0, 0.25]})
    sr = rv.Create("spike_recorder")
    rv.Connect(n, sr)
    rv.Simulate(300.0)
    ev = sr.events
    first = ev["times"][ev["senders"] == n[0].global_id]
    second = ev["times"][ev["senders"] == n[1].global_id]
    np.testing.assert_allclose(first, [100.0, 200.0, 300.0])
    np.testing.assert_allclose(second, [25.0, 125.0, 225.0])


def test_parrot_repeats_input_one_delay_later():
    sg = rv.Create("spike_generator", params={"spike_times": [1.0, 3.0, 3.0 + H]})
    parrot = rv.Create("parrot_neuron")
    rv.Connect(sg, parrot, syn_spec={"weight": -5.0, "delay": 1.0})
    sr = rv.Create("spike_recorder")
    rv.Connect(parrot, sr)
    rv.Simulate(10.0)
    np.testing.assert_allclose(sr.events["times"], [2.0, 4.0, 4.0 + H])


def test_repeated_simulate_continues():
    def run(chunks):
        rv.ResetKernel()
        n = rv.Create("iaf_psc_exp", params={**PARAMS, "V_th": -55.0, "I_e": 500.0})
        sr = rv.Create("spike_recorder")
        rv.Connect(n, sr)
        rv.Connect(n, n, syn_spec={"weight": 10.0, "delay": 1.5})
        for c in chunks:
            rv.Simulate(c)
        return sr.events["times"]

    np.testing.assert_array_equal(run([100.0]), run([33.3, 0.1, 16.6, 50.0]))
    assert rv.GetKernelStatus("biological_time") == pytest.approx(100.0)
