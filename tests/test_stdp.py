"""stdp_pl_synapse_hom against the rule of Morrison et al. (2007) computed by hand."""

import json
import math
import pathlib

import numpy as np
import pytest
import stdp_drift_network

import ranvier as rv

COMMON = {"tau_plus": 15.0, "lambda": 0.1, "alpha": 0.0513, "mu": 0.4}
TAU_MINUS = 30.0


def expected_weights(w, pre, post, delay, mu_at=lambda t: COMMON["mu"]):
    """Weight after each pre spike, by NEST's convention: the synapse sees post spikes
    through the (dendritic) delay; K+ and K- are the pre and post traces; mu_at(t) is the
    exponent at a pre spike at t."""
    lam, alpha, tau_plus = COMMON["lambda"], COMMON["alpha"], COMMON["tau_plus"]
    k_plus, t_last, out = 0.0, 0.0, []
    for t in pre:
        mu = mu_at(t)
        for tp in post:  # post spikes in (t_last - d, t - d]: facilitation
            if t_last - delay < tp <= t - delay:
                w += lam * w**mu * k_plus * math.exp((t_last - (tp + delay)) / tau_plus)
        k_minus = sum(math.exp(-(t - delay - tp) / TAU_MINUS) for tp in post if tp < t - delay)
        w = max(0.0, w - lam * alpha * w * k_minus)  # depression
        k_plus = k_plus * math.exp((t_last - t) / tau_plus) + 1.0
        t_last = t
        out.append(w)
    return out


PRE_TIMES = [10.0, 24.0, 31.0, 52.0, 60.0, 83.0, 90.0]
POST_TIMES = [5.0, 12.0, 27.0, 29.0, 45.0, 55.0, 58.0, 70.0, 86.0]


def parrot_pair(syn_spec):
    """Parrots driven by PRE_TIMES and POST_TIMES (each a ms later), the pre one connected to
    the post one through "stdp" with syn_spec."""
    rv.CopyModel("stdp_pl_synapse_hom", "stdp", COMMON)
    drive_pre = rv.Create("spike_generator", params={"spike_times": PRE_TIMES})
    drive_post = rv.Create("spike_generator", params={"spike_times": POST_TIMES})
    pre, post = rv.Create("parrot_neuron"), rv.Create("parrot_neuron", params={"tau_minus": TAU_MINUS})
    rv.Connect(drive_pre, pre, syn_spec={"delay": 1.0})
    rv.Connect(drive_post, post, syn_spec={"delay": 1.0})
    rv.Connect(pre, post, syn_spec={"synapse_model": "stdp", "weight": 40.0, **syn_spec})
    return pre, post


@pytest.mark.parametrize("delay", [1.0, 2.5])
def test_weight_trajectory(delay):
    pre, post = parrot_pair({"delay": delay})
    sr_pre, sr_post = rv.Create("spike_recorder"), rv.Create("spike_recorder")
    rv.Connect(pre, sr_pre)
    rv.Connect(post, sr_post)

    weights = []
    for t in PRE_TIMES:  # the weight changes when the pre spike is delivered
        rv.Simulate(t + 1.0 + 2 * delay + 1.0 - rv.GetKernelStatus("biological_time"))
        weights.append(rv.GetConnections(pre, post).weight)
    rv.Simulate(5.0)
    pre_spikes = sr_pre.events["times"]
    post_spikes = sr_post.events["times"]
    np.testing.assert_allclose(pre_spikes, np.array(PRE_TIMES) + 1.0)
    # post fires for its own drive and once more for each pre spike (a parrot repeats all)
    assert len(post_spikes) == len(POST_TIMES) + len(PRE_TIMES)
    expected = expected_weights(40.0, pre_spikes.tolist(), post_spikes.tolist(), delay)
    np.testing.assert_allclose(weights, expected, rtol=1e-12)
    assert len(set(np.round(weights, 9))) == len(weights)  # every spike moved the weight


def test_an_exponent_set_between_runs_applies_from_the_next():
    """w^mu comes from a table the kernel builds before each run (core/power.hpp): SetDefaults
    of mu between two Simulate calls changes the rule from the next pre spike on."""
    pre, post = parrot_pair({"delay": 1.0, "receptor_type": 1})  # receptor 1: post repeats only its drive
    rv.Simulate(40.0)
    rv.SetDefaults("stdp", {"mu": 0.7})
    rv.Simulate(60.0)
    pre_spikes, post_spikes = [t + 1.0 for t in PRE_TIMES], [t + 1.0 for t in POST_TIMES]
    expected = expected_weights(40.0, pre_spikes, post_spikes, 1.0, lambda t: 0.4 if t < 39 else 0.7)[-1]
    assert rv.GetConnections(pre, post).weight == pytest.approx(expected, rel=1e-12)
    assert expected != pytest.approx(expected_weights(40.0, pre_spikes, post_spikes, 1.0)[-1])


def test_common_parameters_come_from_the_model():
    rv.CopyModel("stdp_pl_synapse_hom", "weak", {"lambda": 0.0})
    sg = rv.Create("spike_generator", params={"spike_times": [5.0, 10.0, 20.0]})
    pre, post = rv.Create("parrot_neuron"), rv.Create("parrot_neuron")
    rv.Connect(sg, pre)
    rv.Connect(sg, post)
    rv.Connect(pre, post, syn_spec={"synapse_model": "weak", "weight": 3.0})
    rv.Simulate(40.0)
    assert rv.GetConnections(pre, post).weight == 3.0
    rv.SetDefaults("weak", {"lambda": 0.1})
    rv.Simulate(40.0)
    assert rv.GetConnections(pre, post).weight == 3.0  # no spikes after 20 ms
    assert rv.GetDefaults("weak", "lambda") == 0.1


def test_synapse_created_during_the_simulation():
    """A source's synapses share their pre trace until a new synapse joins mid-run; the new one
    starts from K+ = 0 and both follow the rule from then on."""
    rv.CopyModel("stdp_pl_synapse_hom", "stdp", COMMON)
    pre_times = [10.0, 24.0, 31.0, 52.0, 60.0, 83.0, 90.0]
    post_times = {"early": [5.0, 12.0, 27.0, 55.0, 70.0], "late": [47.0, 58.0, 75.0, 86.0]}
    drive_pre = rv.Create("spike_generator", params={"spike_times": pre_times})
    pre = rv.Create("parrot_neuron")
    rv.Connect(drive_pre, pre, syn_spec={"delay": 1.0})
    sr = {"pre": rv.Create("spike_recorder")}
    rv.Connect(pre, sr["pre"])
    post = {}
    for name, weight in (("early", 40.0), ("late", 20.0)):
        if name == "late":
            rv.Simulate(40.0)  # three pre spikes reach the early synapse first
        drive = rv.Create("spike_generator", params={"spike_times": post_times[name]})
        post[name] = rv.Create("parrot_neuron", params={"tau_minus": TAU_MINUS})
        rv.Connect(drive, post[name], syn_spec={"delay": 1.0})
        rv.Connect(pre, post[name], syn_spec={"synapse_model": "stdp", "weight": weight, "delay": 1.0})
        sr[name] = rv.Create("spike_recorder")
        rv.Connect(post[name], sr[name])
    rv.Simulate(60.0)
    pre_spikes = sr["pre"].events["times"].tolist()
    for name, weight in (("early", 40.0), ("late", 20.0)):
        seen = [t for t in pre_spikes if name == "early" or t > 40.0]
        expected = expected_weights(weight, seen, sr[name].events["times"].tolist(), 1.0)[-1]
        assert rv.GetConnections(pre, post[name]).weight == pytest.approx(expected, rel=1e-12)


def test_silent_post_neuron_leaves_the_weight_alone():
    """No post spikes: no facilitation (and K- = 0), even for pre spikes within the delay of
    time 0, whose windows reach back before the start."""
    rv.CopyModel("stdp_pl_synapse_hom", "stdp", COMMON)
    drive = rv.Create("spike_generator", params={"spike_times": [0.1, 0.5, 3.0, 20.0]})
    pre, post = rv.Create("parrot_neuron"), rv.Create("iaf_psc_alpha")  # 40 pA cannot fire it
    rv.Connect(drive, pre, syn_spec={"delay": 0.1})
    rv.Connect(pre, post, syn_spec={"synapse_model": "stdp", "weight": 40.0, "delay": 2.5})
    sr = rv.Create("spike_recorder")
    rv.Connect(post, sr)
    rv.Simulate(30.0)
    assert len(sr.events["times"]) == 0
    assert rv.GetConnections(pre, post).weight == 40.0


def test_power_law_weights_after_a_million_updates_are_nest_s():
    """10^6 facilitations and depressions (tests/stdp_drift_network.py) against NEST 3.10's
    (tests/fixtures/nest_stdp_drift.json, benchmarks/peers/nest_network_fixtures.py). NEST
    takes w^mu from std::pow, Ranvier from a table within 4.2 x 2^-53 of it (core/power.hpp):
    a step's difference is below an ulp of the weight, and differences do not compound."""
    nest = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_stdp_drift.json").read_text())
    got = stdp_drift_network.run(rv)
    assert got["pre_spikes"] == nest["pre_spikes"] > 900_000
    np.testing.assert_allclose(got["weights"], nest["weights"], rtol=1e-13, atol=0)
    weights = np.asarray(nest["weights"])
    assert weights.std() > 0.1 and abs(weights.mean() - stdp_drift_network.WEIGHT) > 0.1  # they moved apart
