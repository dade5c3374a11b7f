"""iaf_cond_alpha_mc (NEST's three-compartment neuron) against NEST 3.10
(tests/fixtures/nest_iaf_cond_alpha_mc.json, written by benchmarks/peers/nest_scenario_fixtures.py
on tests/iaf_cond_alpha_mc_scenario.py): every recordable at every step and the spikes, with
parameters set through NEST's per-compartment dicts; the dicts themselves; NEST's checks."""

import json
import pathlib

import numpy as np
import pytest
from iaf_cond_alpha_mc_scenario import RECORDABLES, run
from scenario_recording import by_sender

import ranvier as rv

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_iaf_cond_alpha_mc.json").read_text())


def test_every_compartment_and_the_spikes_are_nests():
    got = run(rv)
    senders, times, *values = by_sender(got, "senders", "times", *RECORDABLES)
    nest_senders, nest_times, *nest_values = by_sender(FIXTURE, "senders", "times", *RECORDABLES)
    np.testing.assert_array_equal(senders, nest_senders)
    np.testing.assert_allclose(times, nest_times, rtol=0, atol=1e-9)
    for name, mine, nests in zip(RECORDABLES, values, nest_values):
        np.testing.assert_array_equal(mine, nests, err_msg=name)  # to the last bit: NEST's steps and arithmetic
    spike_senders, spike_times = by_sender(got, "spike_senders", "spike_times")
    nest_spike_senders, nest_spike_times = by_sender(FIXTURE, "spike_senders", "spike_times")
    assert len(spike_times) >= 10
    np.testing.assert_array_equal(spike_senders, nest_spike_senders)
    np.testing.assert_allclose(spike_times, nest_spike_times, rtol=0, atol=1e-9)
    for compartment in ("soma", "distal"):  # NEST's keys (Ranvier shows the conductances' state too)
        assert [{k: d[k] for k in n} for d, n in zip(got[compartment], FIXTURE[compartment])] == FIXTURE[compartment]


def test_defaults_show_nests_compartment_dicts_and_receptors():
    rv.ResetKernel()
    d = rv.GetDefaults("iaf_cond_alpha_mc")
    assert d["proximal"]["g_L"] == 5.0 and d["proximal"]["C_m"] == 75.0 and d["soma"]["V_m"] == -70.0
    assert (d["g_sp"], d["g_pd"], d["V_th"], d["V_reset"], d["t_ref"]) == (2.5, 1.0, -55.0, -60.0, 2.0)
    assert d["receptor_types"]["distal_inh"] == 6 and d["receptor_types"]["soma_curr"] == 7
    assert d["recordables"] == sorted(RECORDABLES)  # as NEST lists them
    n = rv.Create("iaf_cond_alpha_mc", 2)
    n.distal = {"g_L": 7.0}
    assert n.get("distal")[1]["g_L"] == 7.0 and n[0].get("soma")["g_L"] == 10.0


@pytest.mark.parametrize(
    "params, message",
    [
        ({"soma": {"C_m": 0.0}}, "C_m.s"),
        ({"distal": {"tau_syn_in": -1.0}}, "tau_syn_in.d"),
        ({"V_reset": -50.0}, "V_reset"),
        ({"soma": {"g_X": 1.0}}, "g_X"),
        ({"soma": 3.0}, "soma"),
    ],
)
def test_nests_checks_raise_naming_the_parameter(params, message):
    rv.ResetKernel()
    with pytest.raises((rv.BadParameterError, rv.UnknownParameterError), match=message):
        rv.Create("iaf_cond_alpha_mc", params=params)


@pytest.mark.parametrize("receptor, current", [(0, False), (7, False), (6, True), (10, True)])
def test_a_receptor_of_the_wrong_kind_is_refused(receptor, current):
    rv.ResetKernel()
    n = rv.Create("iaf_cond_alpha_mc")
    source = rv.Create("dc_generator" if current else "spike_generator")
    with pytest.raises(rv.BadParameterError, match="receptor_type"):
        rv.Connect(source, n, syn_spec={"receptor_type": receptor})


@pytest.mark.parametrize(
    "model, params, receptor",
    [("iaf_cond_alpha_mc", {}, 8), ("iaf_psc_alpha_multisynapse", {"tau_syn": [1.0, 2.0]}, 0), ("ht_neuron", {}, 0)],
)
def test_a_current_generators_connection_lists_the_receptor_it_was_made_with(model, params, receptor):
    """As NEST lists it for the models whose spike receptors start at 1 (0 for currents), and as
    a checkpoint's load makes it again (iaf_cond_alpha_mc's proximal_curr: 8)."""
    rv.ResetKernel()
    n = rv.Create(model, params=params)
    dc = rv.Create("dc_generator")
    rv.Connect(dc, n, syn_spec={"receptor_type": receptor})
    assert rv.GetConnections(dc).receptor == receptor
