"""The integrate-and-fire models keep V_m - E_L between steps as NEST does (iaf::relative_potential)
and take NEST's propagators, so that V_m equals NEST 3.10's under I_e and spikes, also after V_m
and I_e are set mid-run (tests/fixtures/nest_iaf_relative.json, written by
benchmarks/peers/nest_scenario_fixtures.py on tests/iaf_relative_scenario.py): to the last bit, but
for the alpha-current models and iaf_psc_exp, which still differ by an ulp or two after some spikes;
the kept potential is no parameter a user sees."""

import json
import pathlib

import numpy as np
from iaf_relative_scenario import MODELS, run
from scenario_recording import by_sender

import ranvier as rv

ULPS_APART = {"iaf_psc_alpha", "iaf_psc_exp", "iaf_psc_alpha_multisynapse"}
FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_iaf_relative.json").read_text())


def test_v_m_is_nests_to_the_last_bit():
    got = run(rv)
    senders, times, v_m = by_sender(got, "senders", "times", "V_m")
    nest_senders, nest_times, nest_v_m = by_sender(FIXTURE, "senders", "times", "V_m")
    np.testing.assert_array_equal(senders, nest_senders)
    np.testing.assert_allclose(times, nest_times, rtol=0, atol=1e-9)
    for k, model in enumerate(MODELS):
        mine = senders == k + 1
        if model in ULPS_APART:
            np.testing.assert_allclose(v_m[mine], nest_v_m[mine], rtol=0, atol=5e-14, err_msg=model)
            assert (v_m[mine] == nest_v_m[mine]).mean() > 0.8, model  # mostly to the bit
        else:
            np.testing.assert_array_equal(v_m[mine], nest_v_m[mine], err_msg=model)


def test_the_kept_potential_is_hidden():
    rv.ResetKernel()
    for model in MODELS:
        assert "V_rel" not in rv.GetDefaults(model) and "V_rel" not in rv.Create(model).get()
