"""iaf_chs_2007 (Carandini, Horton and Sincich 2007) against NEST 3.10
(tests/fixtures/nest_iaf_chs_2007.json, written by benchmarks/peers/nest_scenario_fixtures.py
on tests/iaf_chs_2007_scenario.py): V_m at every step and the spikes of a neuron under a spike
train and of one with a noise signal besides; the noise signal's use and NEST's checks."""

import json
import pathlib

import numpy as np
import pytest
from iaf_chs_2007_scenario import run

import ranvier as rv

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_iaf_chs_2007.json").read_text())


def in_order(events, sender, time, *keys):
    """The events ordered by time and sender (the simulators order a step's events otherwise)."""
    order = np.lexsort((events[sender], events[time]))
    return [np.asarray(events[k])[order] for k in (sender, time, *keys)]


def test_traces_and_spikes_are_nests():
    got = run(rv)
    assert len(got["spike_times"]) == len(FIXTURE["spike_times"]) > 10
    # times as steps: NEST's recorders compute them in ms otherwise in the last bit
    (senders, times), (nest_senders, nest_times) = (in_order(e, "spike_senders", "spike_times") for e in (got, FIXTURE))
    np.testing.assert_array_equal(senders, nest_senders)
    np.testing.assert_array_equal(np.rint(times / 0.1), np.rint(nest_times / 0.1))
    (senders, times, v), (nest_senders, nest_times, nest_v) = (
        in_order(e, "senders", "times", "V_m") for e in (got, FIXTURE)
    )
    np.testing.assert_array_equal(senders, nest_senders)
    np.testing.assert_array_equal(np.rint(times / 0.1), np.rint(nest_times / 0.1))
    np.testing.assert_array_equal(v, nest_v)  # to the last bit


def test_setting_the_noise_starts_it_again_and_a_signal_that_runs_out_raises():
    rv.ResetKernel()
    cell = rv.Create("iaf_chs_2007", params={"V_noise": 0.5, "noise": [0.2, -0.4]})
    v = []
    for step in range(4):
        if step == 2:
            cell.set(noise=[0.6, 0.8])
        rv.Simulate(0.1)
        v.append(cell.get("V_m"))
    np.testing.assert_allclose(v, [0.1, -0.2, 0.3, 0.4], rtol=0, atol=1e-15)
    with pytest.raises(rv.BadParameterError, match="noise has 2 values.*ran out"):
        rv.Simulate(1.0)


@pytest.mark.parametrize(
    "params, message",
    [({"V_epsp": -0.1}, "V_epsp"), ({"V_reset": -1.0}, "V_reset"), ({"tau_epsp": 0.0}, "tau_epsp")],
)
def test_nests_checks_raise_naming_the_parameter(params, message):
    rv.ResetKernel()
    with pytest.raises(rv.BadParameterError, match=message):
        rv.Create("iaf_chs_2007", params=params)


def test_it_takes_no_currents():
    rv.ResetKernel()
    with pytest.raises(rv.errors.IllegalConnectionError, match="no currents"):
        rv.Connect(rv.Create("dc_generator"), rv.Create("iaf_chs_2007"))
