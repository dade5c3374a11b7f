"""gif_psc_exp's and gif_cond_exp's stochastic firing against its escape rate, and gif_psc_exp's
list parameters (their traces against NEST 3.10 are in test_models_nest.py, bit-identity
across threads in test_models_threads.py).

With no adaptation, t_ref = 0 and V_m held at its steady state E_L + I_e / g_L (the model never
resets V_m outside t_ref), the neuron fires in each step independently with probability
p = 1 - exp(-lambda h), lambda = lambda_0 exp((V_m - V_T_star) / Delta_V): the count of N
neurons over T is binomial(N T / h, p) and the ISIs are geometric (CV^2 = 1 - p)."""

import math

import numpy as np
import pytest
from ranvier.errors import BadParameterError

import ranvier as rv

H, N, T = 0.1, 100, 1000.0
MODELS = ["gif_psc_exp", "gif_cond_exp"]  # without input, the same membrane


def steady_spikes(params, seed=3, threads=1, model="gif_psc_exp"):
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": H, "rng_seed": seed, "local_num_threads": threads})
    v_inf = params["E_L"] + params["I_e"] / params["g_L"]
    nodes = rv.Create(model, N, params={**params, "V_m": v_inf, "t_ref": 0.0})
    sr = rv.Create("spike_recorder")
    rv.Connect(nodes, sr)
    rv.Simulate(T)
    return sr.events, v_inf


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("lambda_0,delta_v", [(5.0, 2.0), (0.5, 0.5)])
def test_escape_rate(lambda_0, delta_v, model):
    params = {"E_L": -70.0, "g_L": 4.0, "I_e": 100.0, "V_T_star": -50.0, "lambda_0": lambda_0, "Delta_V": delta_v}
    ev, v_inf = steady_spikes(params, model=model)
    rate = lambda_0 * 1e-3 * math.exp((v_inf - params["V_T_star"]) / delta_v)  # 1/ms
    p = -math.expm1(-rate * H)
    trials = N * T / H
    assert abs(len(ev["times"]) - trials * p) < 4.5 * math.sqrt(trials * p * (1 - p))
    isis = np.concatenate([np.diff(ev["times"][ev["senders"] == s]) for s in np.unique(ev["senders"])])
    cv2 = isis.var() / isis.mean() ** 2
    # the estimate's standard error: about 2 / sqrt(n) for nearly exponential ISIs, less for large p
    assert abs(cv2 - (1 - p)) < 4.5 * 2.0 / math.sqrt(len(isis))


def test_adaptation_lowers_the_rate_and_is_set_per_node():
    params = {"E_L": -70.0, "g_L": 4.0, "I_e": 100.0, "V_T_star": -50.0, "lambda_0": 5.0, "Delta_V": 2.0}
    plain, _ = steady_spikes(params)
    adapted, _ = steady_spikes({**params, "q_sfa": [3.0], "tau_sfa": [50.0], "q_stc": [10.0], "tau_stc": [20.0]})
    assert len(adapted["times"]) < 0.7 * len(plain["times"])
    n = rv.Create("gif_psc_exp", 2, params={"q_sfa": [[1.0], [2.0, 3.0]], "tau_sfa": [[10.0], [5.0, 50.0]]})
    assert [list(q) for q in n.get("q_sfa")] == [[1.0], [2.0, 3.0]]


@pytest.mark.parametrize("model", MODELS)
def test_identical_for_any_threads(model):
    params = {
        "E_L": -70.0,
        "g_L": 4.0,
        "I_e": 100.0,
        "V_T_star": -50.0,
        "lambda_0": 5.0,
        "Delta_V": 2.0,
        "q_sfa": [3.0],
        "tau_sfa": [50.0],
    }
    one, _ = steady_spikes(params, threads=1, model=model)
    two, _ = steady_spikes(params, threads=2, model=model)
    o1, o2 = np.lexsort((one["senders"], one["times"])), np.lexsort((two["senders"], two["times"]))
    np.testing.assert_array_equal(one["times"][o1], two["times"][o2])
    np.testing.assert_array_equal(one["senders"][o1], two["senders"][o2])


def test_defaults_as_nest():
    d = rv.GetDefaults("gif_psc_exp")
    expected = {
        "C_m": 80.0,
        "g_L": 4.0,
        "E_L": -70.0,
        "V_reset": -55.0,
        "Delta_V": 0.5,
        "V_T_star": -35.0,
        "lambda_0": 1.0,
        "t_ref": 4.0,
        "tau_syn_ex": 2.0,
        "tau_syn_in": 2.0,
        "I_e": 0.0,
        "V_m": -70.0,
        "q_sfa": [],
        "tau_sfa": [],
        "q_stc": [],
        "tau_stc": [],
    }
    assert {k: d[k] for k in expected} == expected
    assert {"V_m", "E_sfa", "I_stc", "I_syn_ex", "I_syn_in"} <= set(d["recordables"])


@pytest.mark.parametrize(
    "params,named",
    [
        ({"q_sfa": [1.0]}, "q_sfa"),  # tau_sfa is empty
        ({"q_stc": [1.0, 2.0], "tau_stc": [5.0]}, "q_stc"),
        ({"q_stc": [1.0], "tau_stc": [-5.0]}, "tau_stc"),
        ({"tau_sfa": [0.0], "q_sfa": [1.0]}, "tau_sfa"),
        ({"tau_sfa": "long"}, "tau_sfa"),
    ],
)
def test_bad_lists_raise(params, named):
    rv.ResetKernel()
    with pytest.raises(BadParameterError, match=named):
        rv.Create("gif_psc_exp", params=params)
    n = rv.Create("gif_psc_exp")
    with pytest.raises(BadParameterError, match=named):
        n.set(params)
    assert list(n.get("q_sfa")) == [] and list(n.get("tau_stc")) == []
    rv.Simulate(1.0)
