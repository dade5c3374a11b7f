"""NEST's aeif_cond_alpha_multisynapse and aeif_cond_beta_multisynapse: the aeif membrane with
a conductance per receptor port, each with its E_rev and time constants. NEST 3.10's traces
(fixture from benchmarks/peers/nest_multisynapse_traces.py), the closed-form conductance of one
spike, the lists as one per Create call with NEST's rules, NEST's errors, and bit-identity
across threads."""

import math

import numpy as np
import port_fixture
import pytest
from ranvier.errors import BadParameterError

import ranvier as rv

MODELS = ["aeif_cond_alpha_multisynapse", "aeif_cond_beta_multisynapse"]
FIXTURE, SPEC = port_fixture.load("nest_multisynapse_traces.npz")
TIME_CONSTANTS = {
    "aeif_cond_alpha_multisynapse": ("tau_syn",),
    "aeif_cond_beta_multisynapse": ("tau_rise", "tau_decay"),
}


@pytest.mark.parametrize("model", MODELS)
def test_matches_nest(model):
    # the same equations and step control as NEST's (RKF45 at gsl_error_tol 1e-6) but for
    # rounding (and Ranvier's exp): the same spike steps, every trace within 1e-9 of its scale
    # (measured: 7e-11 at most, w of the Delta_T = 0 neuron)
    neurons = range(len(SPEC["models"][model]["neurons"]))
    port_fixture.assert_matches(FIXTURE, SPEC, model, neurons, lambda r, x: 1e-9 * max(1.0, np.abs(x).max()))


@pytest.mark.parametrize("model", MODELS)
def test_one_spike_peaks_at_its_weight_with_the_closed_form(model):
    """A spike of weight w on receptor 2 (far below threshold): g_2 follows w e t/tau e^(-t/tau)
    (alpha) or the normalised difference of exponentials (beta), g_1 stays 0."""
    rv.ResetKernel()
    lists = {"E_rev": [0.0, -80.0]}
    if model == "aeif_cond_alpha_multisynapse":
        lists["tau_syn"] = [1.0, 3.0]
        shape = lambda s: math.e * s / 3.0 * np.exp(-s / 3.0)  # noqa: E731
    else:
        lists.update(tau_rise=[1.0, 0.5], tau_decay=[2.0, 4.0])
        t_peak = 4.0 * 0.5 * math.log(4.0 / 0.5) / 3.5
        peak = math.exp(-t_peak / 4.0) - math.exp(-t_peak / 0.5)
        shape = lambda s: (np.exp(-s / 4.0) - np.exp(-s / 0.5)) / peak  # noqa: E731
    n = rv.Create(model, params={**lists, "gsl_error_tol": 1e-10})
    sg = rv.Create("spike_generator", params={"spike_times": [4.0]})
    rv.Connect(sg, n, syn_spec={"weight": 7.0, "delay": 1.0, "receptor_type": 2})
    mm = rv.Create("multimeter", params={"interval": 0.1, "record_from": ["g_1", "g_2"]})
    rv.Connect(mm, n)
    rv.Simulate(30.0)
    t, ev = mm.events["times"], mm.events
    expected = np.where(t >= 5.0 - 1e-9, 7.0 * shape(np.maximum(t - 5.0, 0.0)), 0.0)
    np.testing.assert_allclose(ev["g_2"], expected, rtol=0, atol=1e-6)
    assert np.max(ev["g_2"]) == pytest.approx(7.0, abs=0.05) and not np.any(ev["g_1"])


@pytest.mark.parametrize("model", MODELS)
def test_lists_are_one_per_create_call_and_change_together(model):
    rv.ResetKernel()
    taus = TIME_CONSTANTS[model]
    d = rv.GetDefaults(model)
    assert d["E_rev"] == [0.0] and d["n_receptors"] == 1 and d["recordables"] == ["V_m", "g_1", "w"]
    assert d["g"] == [0.0] and d["dg"] == [0.0]
    lists = {"E_rev": [0.0, -85.0, -70.0], **{k: [1.0, 2.0, 3.0] for k in taus}}
    n = rv.Create(model, 2, params=lists)
    assert list(n.get("n_receptors")) == [3, 3] and n[0].get("recordables") == ["V_m", "g_1", "g_2", "g_3", "w"]
    np.testing.assert_array_equal(n[1].get("g"), [0.0, 0.0, 0.0])
    with pytest.raises(BadParameterError, match="as long as E_rev"):
        n.set(E_rev=[0.0, -85.0])  # NEST: a change of the number of receptors needs every list
    n.set({"E_rev": [0.0, -85.0], **{k: [1.0, 2.0] for k in taus}})
    assert n[0].get("n_receptors") == 2 and len(n[0].get("g")) == 2
    with pytest.raises(BadParameterError, match="n_receptors is read-only"):
        n.set(n_receptors=4)


@pytest.mark.parametrize("model", MODELS)
def test_nest_errors(model):
    rv.ResetKernel()
    taus = TIME_CONSTANTS[model]
    n = rv.Create(model, params={"E_rev": [0.0, -85.0], **{k: [1.0, 2.0] for k in taus}})
    sg = rv.Create("spike_generator", params={"spike_times": [1.0]})
    with pytest.raises(BadParameterError, match="receptor_type = 3"):
        rv.Connect(sg, n, syn_spec={"receptor_type": 3})
    with pytest.raises(BadParameterError, match="receptor_type = 0"):
        rv.Connect(sg, n, syn_spec={"receptor_type": 0})
    with pytest.raises(BadParameterError, match=f"{taus[0]} = \\[0, 2\\]"):
        n.set({taus[0]: [0.0, 2.0]})
    if model == "aeif_cond_beta_multisynapse":
        with pytest.raises(BadParameterError, match=">= tau_rise.*tau_decay = \\[1, 0.5\\]"):
            n.set(tau_decay=[1.0, 0.5])
    with pytest.raises(BadParameterError, match="V_peak"):
        n.set(V_peak=-60.0)
    with pytest.raises(BadParameterError, match="at most 16 receptors"):
        n.set({"E_rev": [0.0] * 17, **{k: [1.0] * 17 for k in taus}})
    # NEST: conductance weights must be positive (raised when the spike arrives)
    rv.Connect(sg, n, syn_spec={"weight": -1.0, "receptor_type": 2})
    with pytest.raises(BadParameterError, match="must be positive.*receptor_type 2"):
        rv.Simulate(5.0)


@pytest.mark.parametrize("model", MODELS)
def test_threads_give_identical_spikes_and_traces(model):
    def run(threads):
        rv.ResetKernel()
        rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": 3})
        taus = TIME_CONSTANTS[model]
        cells = rv.Create(model, 40, params={"E_rev": [0.0, -80.0, 0.0], **{k: [0.5, 2.0, 6.0] for k in taus}})
        cells.I_e = rv.random.uniform(400.0, 800.0)
        for port, w in ((1, 4.0), (2, 6.0), (3, 2.0)):
            rv.Connect(cells, cells, {"rule": "fixed_indegree", "indegree": 5}, {"weight": w, "receptor_type": port})
        sr = rv.Create("spike_recorder")
        rv.Connect(cells, sr)
        mm = rv.Create("multimeter", params={"record_from": ["V_m", "g_3"], "interval": 1.0})
        rv.Connect(mm, cells)
        rv.Simulate(200.0)
        order = np.lexsort((sr.events["senders"], sr.events["times"]))
        return sr.events["senders"][order], sr.events["times"][order], np.sort(mm.events["V_m"])

    one, two = run(1), run(2)
    assert len(one[0]) > 100
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a, b)
