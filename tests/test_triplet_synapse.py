"""stdp_triplet_synapse against NEST 3.10 (tests/fixtures/nest_synapse_traces.json, from
benchmarks/peers/nest_synapse_traces.py), by hand, across threads and from a checkpoint; the
neurons' tau_minus_triplet."""

import json
import pathlib

import numpy as np
import pytest

import ranvier as rv

MODEL = "stdp_triplet_synapse"
FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_synapse_traces.json").read_text())[MODEL]


def triplet_network(scenario):
    """The fixture's scenario: pre and post parrots driven by trains, one connection per row."""
    pre, post = rv.Create("parrot_neuron", 2), rv.Create("parrot_neuron", 3)
    for node, params in zip(post, scenario["post"]):
        node.set(params)
    for group, trains in ((pre, scenario["pre_times"]), (post, scenario["post_times"])):
        for node, times in zip(group, trains):
            rv.Connect(rv.Create("spike_generator", params={"spike_times": times}), node, syn_spec={"delay": 1.0})
    for i, j, weight, delay, params in scenario["connections"]:
        syn = {"synapse_model": MODEL, "weight": weight, "delay": delay, "receptor_type": 1, **params}
        rv.Connect(pre[i], post[j], syn_spec=syn)
    return pre, post


def traces(scenario, pre, post):
    trace = {key: [] for key in FIXTURE["read"]}
    while rv.biological_time < scenario["t_end"]:
        rv.Simulate(10.0)
        conns = [rv.GetConnections(pre[i], post[j]) for i, j, *_ in scenario["connections"]]
        for key in FIXTURE["read"]:
            trace[key].append([c.get(key) for c in conns])
    return {k: np.array(v) for k, v in trace.items()}


def test_weights_and_traces_are_nest_s():
    scenario = FIXTURE["scenario"]
    got = traces(scenario, *triplet_network(scenario))
    for key in FIXTURE["read"]:
        np.testing.assert_allclose(got[key], FIXTURE[key], rtol=1e-13, atol=0, err_msg=key)
    moved = np.abs(np.array(FIXTURE["weight"][-1]) - [c[2] for c in scenario["connections"]])
    assert np.all(moved > 0.5)  # every connection's weight moved


def test_pairs_and_triplets_by_hand():
    """Post spikes at 20, 30 and 50 ms, pre spikes at 40, 45 and 71, delay 1 (a pre spike at t
    sees the post spikes up to t - 1). At 40 no pre spike came before (K+ = 0): depression only,
    by K-(39) Aminus (the pre triplet trace x is 0). At 45: depression by K-(44) (Aminus +
    Aminus_triplet x), x = e^(-5/tau_x). At 71: facilitation by the post spike at 50, K+ (Aplus +
    Aplus_triplet y) with y the post triplet trace just before it (from the spikes at 20 and 30),
    then depression as before."""
    tau_minus, tau_y, tau_plus, tau_x = 20.0, 50.0, 15.0, 80.0
    a = {"Aplus": 0.5, "Aminus": 0.25, "Aplus_triplet": 0.125, "Aminus_triplet": 0.0625}
    pre, post = rv.Create("parrot_neuron"), rv.Create("parrot_neuron", params={"tau_minus": tau_minus})
    post.set(tau_minus_triplet=tau_y)
    rv.Connect(rv.Create("spike_generator", params={"spike_times": [39.0, 44.0, 70.0]}), pre)
    rv.Connect(rv.Create("spike_generator", params={"spike_times": [19.0, 29.0, 49.0]}), post)
    syn = {"synapse_model": MODEL, "weight": 10.0, "delay": 1.0, "receptor_type": 1}
    rv.Connect(pre, post, syn_spec={**syn, "tau_plus": tau_plus, "tau_plus_triplet": tau_x, **a})
    conn = rv.GetConnections(pre, post)

    def k_minus(t, posts):
        return sum(np.exp(-(t - p) / tau_minus) for p in posts)

    rv.Simulate(42.0)
    w = 10.0 - k_minus(39, [20, 30]) * a["Aminus"]
    assert conn.get("weight") == pytest.approx(w, rel=1e-14)
    rv.Simulate(10.0)
    w -= k_minus(44, [20, 30]) * (a["Aminus"] + a["Aminus_triplet"] * np.exp(-5 / tau_x))
    assert conn.get("weight") == pytest.approx(w, rel=1e-14)
    rv.Simulate(30.0)
    k_plus = (np.exp(-5 / tau_plus) + 1) * np.exp(-(50 + 1 - 45) / tau_plus)
    y = np.exp(-20 / tau_y) + np.exp(-30 / tau_y)
    w += k_plus * (a["Aplus"] + a["Aplus_triplet"] * y)
    x = (np.exp(-5 / tau_x) + 1) * np.exp(-26 / tau_x)
    w -= k_minus(70, [20, 30, 50]) * (a["Aminus"] + a["Aminus_triplet"] * x)
    assert conn.get("weight") == pytest.approx(w, rel=1e-14)
    assert conn.get("Kplus_triplet") == pytest.approx(x + 1, rel=1e-14)


def test_identical_for_any_number_of_threads():
    scenario = FIXTURE["scenario"]
    reference = traces(scenario, *triplet_network(scenario))
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": 3})
    got = traces(scenario, *triplet_network(scenario))
    for key in FIXTURE["read"]:
        np.testing.assert_array_equal(got[key], reference[key], err_msg=key)


def test_continues_from_a_checkpoint_as_without_one(tmp_path):
    """The post triplet traces travel with the spike archives."""
    scenario = FIXTURE["scenario"]
    pre, post = triplet_network(scenario)
    rv.Simulate(scenario["t_end"])
    expected = rv.GetConnections(synapse_model=MODEL).get(["weight", "Kplus", "Kplus_triplet"])
    rv.ResetKernel()
    triplet_network(scenario)
    rv.Simulate(135.0)
    rv.SaveCheckpoint(tmp_path / "ckpt")
    rv.ResetKernel()
    rv.LoadCheckpoint(tmp_path / "ckpt")
    rv.Simulate(scenario["t_end"] - 135.0)
    assert rv.GetConnections(synapse_model=MODEL).get(["weight", "Kplus", "Kplus_triplet"]) == expected


def test_every_archiving_neuron_has_tau_minus_triplet_and_refuses_non_positive_values():
    for model in ("iaf_psc_alpha", "parrot_neuron", "aeif_cond_alpha", "hh_psc_alpha", "gif_psc_exp", "glif_psc"):
        assert rv.GetDefaults(model, "tau_minus_triplet") == 110.0, model
    n = rv.Create("iaf_psc_exp", 2)
    with pytest.raises(rv.BadParameterError, match="tau_minus_triplet"):
        n.set(tau_minus_triplet=0.0)
    assert n.get("tau_minus_triplet") == (110.0, 110.0)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"weight": -1.0, "Aplus": 0.1}, "weight"),  # NEST checks the sign with the connection's parameters
        ({"Kplus_triplet": -0.5}, "Kplus_triplet"),
        ({"tau_plus_triplet": 0.0}, "tau_plus_triplet"),
    ],
)
def test_bad_values_are_refused_by_name(params, match):
    n = rv.Create("parrot_neuron", 2)
    with pytest.raises(rv.BadParameterError, match=match):
        rv.Connect(n[0], n[1], syn_spec={"synapse_model": MODEL, **params})
    assert rv.GetKernelStatus("num_connections") == 0
