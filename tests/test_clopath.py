"""Clopath plasticity (aeif_psc_delta_clopath, hh_psc_alpha_clopath, clopath_synapse) against
NEST 3.10 (tests/fixtures/nest_clopath.json, written by benchmarks/peers/nest_scenario_fixtures.py
on tests/clopath_scenario.py): every recordable, every weight the synapses transmit and their
final weights and traces, to the last bit, on one thread and on two; NEST's checks."""

import json
import pathlib

import numpy as np
import pytest
from clopath_scenario import HH_RECORDABLES, RECORDABLES, run

import ranvier as rv

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_clopath.json").read_text())
KEYS = RECORDABLES + [f"hh_{k}" for k in HH_RECORDABLES] + ["times", "senders", "hh_senders"]


@pytest.mark.parametrize("threads", [1, 2])
def test_neurons_and_weights_are_nests(threads):
    got = run(rv, threads)
    for key in KEYS:  # the multimeters list samples by time, then sender
        order, nest_order = (np.lexsort((np.asarray(x["senders"]), np.asarray(x["times"]))) for x in (got, FIXTURE))
        if key.startswith("hh_"):
            order, nest_order = (
                np.argsort(got["hh_senders"], kind="stable"),
                np.argsort(FIXTURE["hh_senders"], kind="stable"),
            )
        np.testing.assert_array_equal(np.asarray(got[key])[order], np.asarray(FIXTURE[key])[nest_order], err_msg=key)
    wr, nest_wr = (
        np.lexsort((np.asarray(x["wr_targets"]), np.asarray(x["wr_senders"]), np.asarray(x["wr_times"])))
        for x in (got, FIXTURE)
    )
    for key in ("wr_senders", "wr_targets", "wr_weights"):
        np.testing.assert_array_equal(np.asarray(got[key])[wr], np.asarray(FIXTURE[key])[nest_wr], err_msg=key)
    np.testing.assert_allclose(np.asarray(got["wr_times"])[wr], np.asarray(FIXTURE["wr_times"])[nest_wr], atol=1e-9)
    assert [list(c) for c in got["connections"]] == FIXTURE["connections"]
    weights = np.asarray(FIXTURE["wr_weights"])
    assert (weights > 0.5).any() and (weights < 0.5).any()  # both ways
    np.testing.assert_allclose(sorted(got["spike_times"]), sorted(FIXTURE["spike_times"]), rtol=0, atol=1e-9)


def test_only_clopath_neurons_take_clopath_synapses():
    rv.ResetKernel()
    for model in ("aeif_psc_delta_clopath", "hh_psc_alpha_clopath"):
        n = rv.Create(model, 2)
        rv.Connect(n, n, {"rule": "all_to_all"}, {"synapse_model": "clopath_synapse"})
    plain = rv.Create("iaf_psc_alpha", 2)
    with pytest.raises(rv.IllegalConnectionError, match="needs neurons that keep its history as targets"):
        rv.Connect(plain, plain, {"rule": "all_to_all"}, {"synapse_model": "clopath_synapse"})


@pytest.mark.parametrize(
    "syn_spec, message",
    [
        ({"weight": -1.0, "Wmin": 0.0}, "of the sign of Wmin"),  # checked with the parameters, as NEST
        ({"weight": 1.0, "Wmax": -1.0}, "of the sign of Wmax"),
        ({"weight": 1.0, "tau_x": 0.0}, "tau_x"),
    ],
)
def test_nests_synapse_checks(syn_spec, message):
    rv.ResetKernel()
    n = rv.Create("aeif_psc_delta_clopath", 2)
    with pytest.raises(rv.BadParameterError, match=message):
        rv.Connect(n[0], n[1], syn_spec={"synapse_model": "clopath_synapse", **syn_spec})


@pytest.mark.parametrize(
    "model, params, name",
    [
        ("aeif_psc_delta_clopath", {"u_ref_squared": 0.0}, "u_ref_squared"),
        ("aeif_psc_delta_clopath", {"V_th_max": -60.0}, "V_th_max"),
        ("aeif_psc_delta_clopath", {"tau_u_bar_bar": -1.0}, "tau_u_bar_bar"),
        ("hh_psc_alpha_clopath", {"tau_u_bar_plus": 0.0}, "tau_u_bar_plus"),
    ],
)
def test_nests_neuron_checks(model, params, name):
    rv.ResetKernel()
    with pytest.raises(rv.BadParameterError, match=name):
        rv.Create(model, params=params)
