"""NEST's iaf_bw_2001 (tests/fixtures/nest_iaf_bw_2001.json, written by
benchmarks/peers/nest_scenario_fixtures.py on tests/iaf_bw_2001_scenario.py): every recordable to
the last bit under AMPA, GABA and NMDA input, the NMDA jumps the spikes carry, the spike times
NEST's recorder shows, on one thread and on two (tests/mpi/networks.py carries the jumps across
processes); the gating variables against their closed form; NEST's connection rules and checks."""

import json
import pathlib

import numpy as np
import pytest
from iaf_bw_2001_scenario import RECORDABLES, run
from scenario_recording import assert_like_nest, by_sender

import ranvier as rv

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_iaf_bw_2001.json").read_text())
KEYS = ["senders", "times"] + RECORDABLES


@pytest.mark.parametrize("threads", [1, 2])
def test_every_recordable_and_spike_is_nests(threads):
    got = run(rv, threads)
    assert_like_nest(got, FIXTURE, KEYS)
    assert np.ptp(by_sender(got, "senders", "s_NMDA")[1]) > 1.0  # the jumps arrived
    ours, nests = by_sender(got, "spike_senders", "spike_times"), by_sender(FIXTURE, "spike_senders", "spike_times")
    np.testing.assert_array_equal(ours[0], nests[0])
    np.testing.assert_allclose(ours[1], nests[1], rtol=0, atol=1e-12)  # the times less the jumps, as NEST's
    assert len(set(got["spike_senders"])) == 3
    for key in FIXTURE:
        if key.startswith("final_"):
            np.testing.assert_array_equal(got[key], FIXTURE[key], err_msg=key)


def test_gating_variables_decay_from_each_spike():
    """s_AMPA and s_GABA jump by the weight when a spike arrives, then decay with their time
    constants (NEST's test_iaf_bw_2001's closed form); the NMDA jump a spike carries is k_0 +
    k_1 s_pre, with k_0 and k_1 from the lower incomplete gamma function."""
    rv.ResetKernel()
    params = {"t_ref": 0.0, "V_th": -50.0, "V_reset": -55.0}
    pre = rv.Create("iaf_bw_2001", params={**params, "V_m": -49.0})  # fires at the first step
    post = rv.Create("iaf_bw_2001", params=params)
    rv.Connect(pre, post, syn_spec={"weight": 40.0, "receptor_type": 1, "delay": 1.0})
    rv.Connect(pre, post, syn_spec={"weight": 15.0, "receptor_type": 2, "delay": 1.0})
    rv.Connect(pre, post, syn_spec={"weight": 1.0, "receptor_type": 3, "delay": 1.0})
    mm = rv.Create("multimeter", params={"record_from": ["s_AMPA", "s_GABA", "s_NMDA"], "interval": 0.1})
    rv.Connect(mm, post)
    rv.Simulate(30.0)
    t = mm.events["times"]
    arrived = t >= 1.1  # the spike at the end of the first step, one ms later
    s = t[arrived] - 1.1
    np.testing.assert_allclose(mm.events["s_AMPA"][arrived], 40.0 * np.exp(-s / 2.0), rtol=2e-4)
    np.testing.assert_allclose(mm.events["s_GABA"][arrived], 15.0 * np.exp(-s / 5.0), rtol=2e-4)
    assert (mm.events["s_AMPA"][~arrived] == 0).all()
    from scipy.special import gamma, gammainc

    a, x = 1 - 2.0 / 100.0, 0.5 * 2.0  # tau_rise / tau_decay; alpha tau_rise
    k_0 = x**a * gammainc(a, x) * gamma(a)
    np.testing.assert_allclose(mm.events["s_NMDA"][arrived][0], k_0 * np.exp(-0.0 / 100.0), rtol=1e-12)
    np.testing.assert_allclose(mm.events["s_NMDA"][arrived], k_0 * np.exp(-s / 100.0), rtol=2e-4)


def test_nests_connection_rules_and_checks():
    rv.ResetKernel()
    bw = rv.Create("iaf_bw_2001", 2)
    assert bw[0].receptor_types == {"AMPA": 1, "GABA": 2, "NMDA": 3}
    for source in (rv.Create("iaf_psc_alpha"), rv.Create("poisson_generator")):
        with pytest.raises(rv.IllegalConnectionError, match="pre-synaptic neuron must also be of type iaf_bw_2001"):
            rv.Connect(source, bw, syn_spec={"receptor_type": 3})
        rv.Connect(source, bw, syn_spec={"receptor_type": 1})  # AMPA takes any sender
    for receptor in (0, 4):
        with pytest.raises(rv.BadParameterError, match=f"receptor_type = {receptor}"):
            rv.Connect(bw[0], bw[1], syn_spec={"receptor_type": receptor})
    with pytest.raises(rv.BadParameterError, match="receptor_type = 1"):
        rv.Connect(rv.Create("dc_generator"), bw, syn_spec={"receptor_type": 1})
    rv.Connect(bw[0], bw[1], syn_spec={"receptor_type": 3})
    assert rv.GetConnections(bw[0], bw[1]).receptor == 3  # as given (the port is 2)
    for params, name in (({"V_reset": -50.0}, "V_reset = -50"), ({"C_m": 0.0}, "C_m = 0"),
                         ({"alpha": 0.0}, "alpha = 0"), ({"conc_Mg2": -1.0}, "conc_Mg2 = -1"),
                         ({"tau_decay_NMDA": 0.0}, "tau_decay_NMDA = 0"), ({"t_ref": -1.0}, "t_ref = -1"),
                         ({"gsl_error_tol": 0.0}, "gsl_error_tol = 0")):  # fmt: skip
        with pytest.raises(rv.BadParameterError, match=name):
            bw[0].set(params)
    assert sorted(rv.GetDefaults("iaf_bw_2001")["recordables"]) == sorted(RECORDABLES)
    rv.Simulate(10.0)
