"""NEST's gif_psc_exp_multisynapse and gif_cond_exp_multisynapse against NEST 3.10's traces where
NEST's random draws cannot matter (fixture from benchmarks/peers/nest_gif_multisynapse_traces.py:
a neuron that never fires under four receptors, and one that fires in every step it may), the
escape-rate statistics, the receptors and NEST's errors.

Tolerance. Ranvier computes each step with NEST's propagators in NEST's order (the receptors'
currents enter the membrane as they stood at the step's start); only roundings differ. So V_m
and E_sfa must agree to 1e-9 mV, I_stc to 1e-9 pA, and every spike must fall in NEST's step.
gif_cond_exp_multisynapse takes the steps of NEST's RKF45 (gsl_error_tol 1e-3): its traces too
agree but for rounding (1e-9 of their scale)."""

import numpy as np
import port_fixture
import pytest
from ranvier.errors import BadParameterError

import ranvier as rv

MODEL = "gif_psc_exp_multisynapse"
FIXTURE, SPEC = port_fixture.load("nest_gif_multisynapse_traces.npz")


def test_silent_neuron_matches_nest():
    nodes, mms, _ = port_fixture.run(SPEC, MODEL)
    ev, k = mms[0].events, 0
    n_samples = len(FIXTURE[f"{MODEL}/{k}/times"])
    for r in ("V_m", "E_sfa", "I_stc"):
        np.testing.assert_allclose(ev[r][:n_samples], FIXTURE[f"{MODEL}/{k}/{r}"], rtol=0, atol=1e-9, err_msg=r)
    assert np.ptp(ev["V_m"]) > 5.0  # the receptors and the DC step move it


def test_certain_firing_matches_nest():
    port_fixture.assert_matches(FIXTURE, SPEC, MODEL, [1], lambda name, expected: 1e-9)


def test_escape_rate_is_lambda_0_at_threshold():
    # V_m held at V_T_star (no input, E_L = V_T_star, no adaptation): each step fires with
    # probability 1 - exp(-lambda_0 h), then t_ref passes; over 20 s at lambda_0 = 50/s the
    # count of 100 neurons has sd ~ 30 of ~100,000 / (1 + 50 t_ref)
    n, t_sim, rate, tref = 100, 20000.0, 50.0, 2.0
    cells = rv.Create(
        MODEL,
        n,
        params={"lambda_0": rate, "E_L": -50.0, "V_m": -50.0, "V_T_star": -50.0, "t_ref": tref, "V_reset": -50.0},
    )
    sr = rv.Create("spike_recorder")
    rv.Connect(cells, sr)
    rv.Simulate(t_sim)
    p = -np.expm1(-rate * 1e-3 * 0.1)
    steps_per_spike = (1 - p) / p + 1 + tref / 0.1  # geometric wait, its step, then t_ref
    expected = n * (t_sim / 0.1) / steps_per_spike
    assert abs(len(sr.events["times"]) - expected) < 5 * np.sqrt(expected)


def test_receptors_are_nests():
    d = rv.GetDefaults(MODEL)
    assert d["tau_syn"] == [2.0] and d["n_receptors"] == 1 and set(d["recordables"]) == {"V_m", "E_sfa", "I_stc"}
    n = rv.Create(MODEL, params={"tau_syn": [1.0, 4.0]})
    assert n.get("n_receptors") == 2
    sg = rv.Create("spike_generator", params={"spike_times": [1.0]})
    with pytest.raises(BadParameterError, match="receptor_type = 0"):
        rv.Connect(sg, n)
    with pytest.raises(BadParameterError, match="receptor_type = 3"):
        rv.Connect(sg, n, syn_spec={"receptor_type": 3})
    rv.Connect(sg, n, syn_spec={"receptor_type": 2, "weight": -300.0})
    rv.Simulate(5.0)
    assert n.get("V_m") < -70.0


@pytest.mark.parametrize(
    "params,shown",
    [
        ({"tau_syn": [1.0, -2.0]}, "tau_syn = -2"),
        ({"g_L": 0.0}, "g_L = 0"),
        ({"lambda_0": -1.0}, "lambda_0 = -1"),
        ({"tau_sfa": [10.0], "q_sfa": []}, "q_sfa"),
    ],
)
def test_bad_parameters_raise_with_name_and_value(params, shown):
    with pytest.raises(BadParameterError, match=shown):
        rv.Create(MODEL, params=params)
    rv.Simulate(1.0)


def test_spikes_identical_across_threads():
    def run(threads):
        rv.ResetKernel()
        rv.set(local_num_threads=threads, rng_seed=5)
        cells = rv.Create(MODEL, 40, params={"tau_syn": [2.0, 5.0], "I_e": 120.0, "q_sfa": [3.0], "tau_sfa": [40.0]})
        noise = rv.Create("poisson_generator", params={"rate": 3000.0})
        rv.Connect(noise, cells, syn_spec={"weight": 30.0, "receptor_type": 1})
        rv.Connect(
            cells, cells, {"rule": "fixed_indegree", "indegree": 5}, {"weight": -40.0, "receptor_type": 2, "delay": 1.5}
        )
        sr = rv.Create("spike_recorder")
        rv.Connect(cells, sr)
        rv.Simulate(300.0)
        return sr.events["times"], sr.events["senders"], cells.get("V_m")

    one = run(1)
    assert len(one[0]) > 50
    for threads in (2, 3):
        other = run(threads)
        order_a, order_b = np.lexsort((one[1], one[0])), np.lexsort((other[1], other[0]))
        np.testing.assert_array_equal(one[0][order_a], other[0][order_b])
        np.testing.assert_array_equal(one[1][order_a], other[1][order_b])
        np.testing.assert_array_equal(one[2], other[2])


COND = "gif_cond_exp_multisynapse"


def test_conductance_receptors_match_nest():
    port_fixture.assert_matches(FIXTURE, SPEC, COND, [1], lambda r, x: 1e-9 * max(1.0, np.abs(x).max()))
    assert len(FIXTURE[f"{COND}/1/spikes"]) > 10
    rv.ResetKernel()
    nodes, mms, spikes = port_fixture.run(SPEC, COND)  # the silent one
    ev, n_samples = mms[0].events, len(FIXTURE[f"{COND}/0/times"])
    assert not np.any(spikes["senders"] == nodes[0].global_id)
    for r in ("V_m", "E_sfa", "I_stc"):
        np.testing.assert_allclose(ev[r][:n_samples], FIXTURE[f"{COND}/0/{r}"], rtol=0, atol=1e-9 * 70, err_msg=r)
    assert np.ptp(ev["V_m"]) > 20.0  # the receptors and the DC step move it


def test_conductance_receptors_are_nests():
    d = rv.GetDefaults(COND)
    assert d["E_rev"] == [0.0] and d["tau_syn"] == [2.0] and d["n_receptors"] == 1 and d["lambda_0"] == 1.0
    n = rv.Create(COND, params={"E_rev": [0.0, -80.0], "tau_syn": [1.0, 4.0]})
    assert n.get("n_receptors") == 2 and list(n.get("g")) == [0.0, 0.0]
    with pytest.raises(BadParameterError, match="tau_syn"):
        rv.Create(COND, params={"E_rev": [0.0, -80.0], "tau_syn": [1.0]})
    sg = rv.Create("spike_generator", params={"spike_times": [1.0]})
    with pytest.raises(BadParameterError, match="receptor_type = 3"):
        rv.Connect(sg, n, syn_spec={"receptor_type": 3})
    rv.Connect(sg, n, syn_spec={"receptor_type": 2, "weight": 5.0})
    mm = rv.Create("multimeter", params={"record_from": ["g_1", "g_2"], "interval": 0.1})
    rv.Connect(mm, n)
    rv.Simulate(10.0)
    g2 = mm.events["g_2"]
    assert not np.any(mm.events["g_1"]) and g2.max() == pytest.approx(5.0, rel=1e-6)  # a jump of the weight, then decay
    assert n.get("V_m") < -70.0  # towards E_rev -80
    rv.Connect(sg, n, syn_spec={"receptor_type": 1, "weight": -5.0})
    sg.set(spike_times=[12.0])
    with pytest.raises(BadParameterError, match="non-negative"):
        rv.Simulate(10.0)


def test_conductance_model_identical_across_threads():
    def run(threads):
        rv.ResetKernel()
        rv.set(local_num_threads=threads, rng_seed=5)
        cells = rv.Create(COND, 40, params={"E_rev": [0.0, -80.0], "tau_syn": [2.0, 5.0], "I_e": 100.0})
        noise = rv.Create("poisson_generator", params={"rate": 3000.0})
        rv.Connect(noise, cells, syn_spec={"weight": 2.0, "receptor_type": 1})
        rv.Connect(cells, cells, {"rule": "fixed_indegree", "indegree": 5}, {"weight": 3.0, "receptor_type": 2})
        sr = rv.Create("spike_recorder")
        rv.Connect(cells, sr)
        rv.Simulate(300.0)
        order = np.lexsort((sr.events["senders"], sr.events["times"]))
        return sr.events["times"][order], sr.events["senders"][order], cells.get("V_m")

    one = run(1)
    assert len(one[0]) > 50
    for threads in (2, 3):
        for a, b in zip(one, run(threads)):
            np.testing.assert_array_equal(a, b)
