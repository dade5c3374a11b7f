"""Urbanczik-Senn plasticity (pp_cond_exp_mc_urbanczik, urbanczik_synapse) against NEST 3.10
(tests/fixtures/nest_urbanczik.json, written by benchmarks/peers/nest_scenario_fixtures.py on
tests/urbanczik_scenario.py): every recordable and every transmitted weight to the last bit, on
one thread and on two; the stochastic soma's spike count against its rate, the same on any number
of threads; NEST's checks."""

import json
import math
import pathlib

import numpy as np
import pytest
from scenario_recording import by_sender
from urbanczik_scenario import RECORDABLES, run

import ranvier as rv

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_urbanczik.json").read_text())


@pytest.mark.parametrize("threads", [1, 2])
def test_neurons_and_weights_are_nests(threads):
    got = run(rv, threads)
    for mine, nests, key in zip(
        by_sender(got, "senders", "times", *RECORDABLES),
        by_sender(FIXTURE, "senders", "times", *RECORDABLES),
        ["senders", "times", *RECORDABLES],
    ):
        np.testing.assert_array_equal(mine, nests, err_msg=key)
    for mine, nests, key in zip(
        by_sender(got, "wr_senders", "wr_targets", "wr_weights"),
        by_sender(FIXTURE, "wr_senders", "wr_targets", "wr_weights"),
        ["senders", "targets", "weights"],
    ):
        np.testing.assert_array_equal(mine, nests, err_msg=key)
    assert got["spike_times"] == [] and min(got["wr_weights"]) < 99.5  # no spike, yet they learn


def spikes_at_rest(threads, t_ref, n=100, t_sim=1000.0):
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": 3})
    cells = rv.Create("pp_cond_exp_mc_urbanczik", n, params={"t_ref": t_ref})
    sr = rv.Create("spike_recorder")
    rv.Connect(cells, sr)
    rv.Simulate(t_sim)
    order = np.lexsort((sr.events["senders"], sr.events["times"]))
    return sr.events["senders"][order], sr.events["times"][order]


def test_the_soma_fires_at_its_rate_alike_on_any_threads():
    """At rest (-70 mV) the rate is phi_max / (1 + rate_slope e^(beta (theta - V))) per ms;
    without dead time the counts are Poisson."""
    d = rv.GetDefaults("pp_cond_exp_mc_urbanczik")
    rate = d["phi_max"] / (1.0 + d["rate_slope"] * math.exp(d["beta"] * (d["theta"] - d["soma"]["V_m"])))
    senders, times = spikes_at_rest(1, 0.0)
    expected = 100 * 1000.0 * rate
    assert abs(len(times) - expected) < 5 * math.sqrt(expected), (len(times), expected)
    two_threads = spikes_at_rest(2, 0.0)
    np.testing.assert_array_equal(senders, two_threads[0])
    np.testing.assert_array_equal(times, two_threads[1])
    # with dead time t_ref: at most one spike per t_ref
    senders, times = spikes_at_rest(1, 3.0, n=20)
    for cell in np.unique(senders):
        assert np.all(np.diff(times[senders == cell]) >= 3.0)


def test_only_urbanczik_neurons_take_urbanczik_synapses():
    rv.ResetKernel()
    n = rv.Create("pp_cond_exp_mc_urbanczik", 2)
    rv.Connect(n, n, {"rule": "all_to_all"}, {"synapse_model": "urbanczik_synapse", "receptor_type": 3})
    plain = rv.Create("aeif_psc_delta_clopath", 2)
    with pytest.raises(rv.IllegalConnectionError, match="Urbanczik's"):
        rv.Connect(plain, plain, {"rule": "all_to_all"}, {"synapse_model": "urbanczik_synapse"})
    with pytest.raises(rv.BadParameterError, match="of the sign of Wmax"):
        rv.Connect(n[0], n[1], syn_spec={"synapse_model": "urbanczik_synapse", "receptor_type": 3, "weight": -1.0,
                                         "Wmax": 10.0})  # fmt: skip
    with pytest.raises(rv.BadParameterError, match="receptor_type"):
        rv.Connect(n[0], n[1], syn_spec={"receptor_type": 7})
