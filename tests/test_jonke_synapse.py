"""jonke_synapse against NEST 3.10 (tests/fixtures/nest_synapse_traces.json, from
benchmarks/peers/nest_synapse_traces.py) and by hand."""

import json
import pathlib

import numpy as np
import pytest

import ranvier as rv

MODEL = "jonke_synapse"
FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_synapse_traces.json").read_text())[MODEL]


def pair(scenario, common):
    """A pre and a post parrot driven by the scenario's trains, one connection (receptor 1)."""
    rv.SetDefaults(MODEL, common)
    pre, post = rv.Create("parrot_neuron"), rv.Create("parrot_neuron", params={"tau_minus": scenario["tau_minus"]})
    for node, times in ((pre, scenario["pre_times"]), (post, scenario["post_times"])):
        rv.Connect(rv.Create("spike_generator", params={"spike_times": times}), node, syn_spec={"delay": 1.0})
    syn = {"synapse_model": MODEL, "weight": scenario["weight"], "delay": scenario["delay"], "receptor_type": 1}
    rv.Connect(pre, post, syn_spec=syn)
    return rv.GetConnections(pre, post)


def test_weights_and_k_plus_after_each_pre_spike_are_nest_s():
    s = FIXTURE["scenario"]
    conn = pair(s, s["common"])
    weights, k_plus = [], []
    for t in s["pre_times"]:
        rv.Simulate(t + 1.0 + 2 * s["delay"] + 1.0 - rv.biological_time)
        weights.append(conn.get("weight"))
        k_plus.append(conn.get("Kplus"))
    np.testing.assert_allclose(weights, FIXTURE["weights"], rtol=1e-14)
    np.testing.assert_allclose(k_plus, FIXTURE["Kplus"], rtol=1e-14)
    assert max(weights) - min(weights) > 2.0


def test_one_post_then_pre_pair_by_hand():
    """Post at 12 ms, pre at 11 and 21 (delay 2: the second sees the post spike at 12 + 2 = 14,
    7 ms after the first pre spike): facilitation lambda (e^(mu_plus w) e^(-7/tau_plus) - beta),
    then depression lambda (-alpha e^(mu_minus w) K- - beta) with K- = e^(-(19 - 12)/tau_minus)."""
    common = {"tau_plus": 10.0, "lambda": 0.5, "alpha": 0.8, "beta": 0.02, "mu_plus": 0.03, "mu_minus": 0.02}
    s = {"tau_minus": 25.0, "pre_times": [10.0, 20.0], "post_times": [11.0], "weight": 5.0, "delay": 2.0}
    conn = pair(s, common)
    rv.Simulate(15.0)
    w = 5.0 + 0.5 * (-0.8 * np.exp(0.02 * 5.0) * 0.0 - 0.02)  # the first pre spike: no post spike before it
    assert conn.get("weight") == pytest.approx(w, rel=1e-15)
    rv.Simulate(10.0)
    w += 0.5 * (np.exp(0.03 * w) * np.exp(-(12 + 2 - 11) / 10.0) - 0.02)
    w += 0.5 * (-0.8 * np.exp(0.02 * w) * np.exp(-(19 - 12) / 25.0) - 0.02)
    assert conn.get("weight") == pytest.approx(w, rel=1e-14)


def test_lambda_zero_leaves_the_weight():
    s = FIXTURE["scenario"]
    conn = pair(s, {**s["common"], "lambda": 0.0})
    rv.Simulate(100.0)
    assert conn.get("weight") == s["weight"] and conn.get("Kplus") > 0.0


def test_a_negative_weight_is_refused_by_name():
    n = rv.Create("parrot_neuron", 2)
    with pytest.raises(rv.BadParameterError, match="weight"):
        rv.Connect(n[0], n[1], syn_spec={"synapse_model": MODEL, "weight": -1.0, "Kplus": 0.5})
