"""NEST's iaf_tum_2000 (tests/fixtures/nest_iaf_tum_2000.json, written by
benchmarks/peers/nest_scenario_fixtures.py on tests/iaf_tum_2000_scenario.py): the number each
spike carries (its released resource) reaches the targets at receptor_type 1 exactly, on one
thread and on two (tests/mpi/networks.py carries it across processes, tests/mpi/run_checkpoint.py
through checkpoints); NEST's own test (the same dynamics as iaf_psc_exp with tsodyks_synapse);
NEST's connection rules and parameter checks (its soft threshold: tests/test_soft_threshold.py)."""

import json
import pathlib

import numpy as np
import pytest
from iaf_tum_2000_scenario import run
from scenario_recording import assert_like_nest, by_sender

import ranvier as rv

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_iaf_tum_2000.json").read_text())
TRACES = ["senders", "times", "V_m", "I_syn_ex", "I_syn_in"]


@pytest.mark.parametrize("threads", [1, 2])
def test_traces_spikes_and_resources_are_nests(threads):
    got = run(rv, threads)
    # V_m within an ulp of -70 mV (iaf_psc_exp's own, tests/test_iaf_relative.py), the currents to the bit
    assert_like_nest(got, FIXTURE, TRACES, atol={"V_m": 3e-14})
    ours = by_sender(got, *TRACES)
    assert np.ptp(ours[3]) > 100 and np.ptp(ours[4]) > 10  # both kinds of input arrived
    # NEST's recorder subtracts the number a spike carries from its time: off the grid by it
    np.testing.assert_array_equal(got["spike_senders"], FIXTURE["spike_senders"])
    np.testing.assert_allclose(got["spike_times"], FIXTURE["spike_times"], rtol=0, atol=1e-12)
    assert len(got["spike_times"]) > 20
    for key in ("x", "y", "u", "plain_V_m"):
        np.testing.assert_array_equal(got[key], FIXTURE[key], err_msg=key)


def test_the_same_as_iaf_psc_exp_with_tsodyks_synapse():
    """NEST's test_iaf_tum_2000.py: the depression computed in the sender equals the synapse's."""
    rv.ResetKernel()
    dc = rv.Create("dc_generator", params={"amplitude": 500.0, "start": 50.0, "stop": 1050.0})
    tsodyks = {"tau_psc": 2.0, "tau_rec": 400.0, "tau_fac": 1000.0}
    pre, post = rv.Create("iaf_tum_2000", 2, params=tsodyks)
    exp_pre, exp_post = rv.Create("iaf_psc_exp", 2)
    rv.Connect(dc, pre + exp_pre)
    rv.Connect(pre, post, syn_spec={"weight": 250.0, "receptor_type": 1})
    # the synapse from iaf_tum_2000's initial resources (its x is 0, the synapse's 1)
    start = {"U": 0.5, "u": 0.0, "x": 0.0, "y": 0.0}
    rv.Connect(exp_pre, exp_post, syn_spec={"synapse_model": "tsodyks_synapse", "weight": 250.0, **tsodyks, **start})
    meters = [rv.Create("multimeter", params={"record_from": ["V_m", "I_syn_ex"]}) for _ in range(2)]
    rv.Connect(meters[0], post)
    rv.Connect(meters[1], exp_post)
    rv.Simulate(1200.0)
    for key in ("V_m", "I_syn_ex"):
        np.testing.assert_almost_equal(meters[0].events[key], meters[1].events[key])
    assert meters[0].events["I_syn_ex"].max() > 10.0  # the depressed input arrived


def test_nests_connection_rules_and_checks():
    rv.ResetKernel()
    tum = rv.Create("iaf_tum_2000", 2)
    with pytest.raises(rv.IllegalConnectionError, match="must be connected via receptor_type 1"):
        rv.Connect(tum[0], tum[1])
    with pytest.raises(rv.IllegalConnectionError, match="cannot be connected to precise spiking neurons"):
        rv.Connect(tum[0], rv.Create("iaf_psc_exp_ps"))
    with pytest.raises(rv.BadParameterError, match="receptor_type = 2"):
        rv.Connect(tum[0], tum[1], syn_spec={"receptor_type": 2})
    assert rv.GetKernelStatus("num_connections") == 0
    rv.Connect(tum[0], tum[1], syn_spec={"receptor_type": 1})
    rv.Connect(rv.Create("dc_generator"), tum, syn_spec={"receptor_type": 1})  # filtered current
    for params, name in (({"U": 1.5}, "U = 1.5"), ({"u": -0.1}, "u = -0.1"), ({"x": 0.7, "y": 0.6}, "x = 0.7"),
                         ({"tau_rec": 0.0}, "tau_rec = 0"), ({"tau_fac": -1.0}, "tau_fac = -1"),
                         ({"rho": -1.0}, "rho = -1"), ({"delta": -1.0}, "delta = -1")):  # fmt: skip
        with pytest.raises(rv.BadParameterError, match=name):
            tum[0].set(params)
    assert tum[0].get("U") == 0.5
    assert sorted(rv.GetDefaults("iaf_tum_2000")["recordables"]) == ["I_syn_ex", "I_syn_in", "V_m"]
    rv.Simulate(10.0)
