"""NEST's soft threshold (escape noise) of iaf_psc_exp and iaf_tum_2000: with a width delta > 0
a cell fires in each step with probability rho exp((V_m - V_th) / delta) h, refractory or not
(NEST tests the threshold in every step; run here, NEST 3.10 gave 10,008 spikes where these
cells give 10,001, of 10,000 expected, in the first case below). Cells held at a fixed
distance from V_th (E_L and V_reset there too) fire at that rate; delta 0 is the hard threshold."""

import math

import numpy as np
import pytest

import ranvier as rv

H = 0.1


@pytest.mark.parametrize("model", ["iaf_psc_exp", "iaf_tum_2000"])
@pytest.mark.parametrize("below, delta, rho", [(0.0, 2.0, 50.0), (3.0, 1.5, 400.0)])
def test_cells_held_below_threshold_fire_at_the_escape_rate(model, below, delta, rho):
    rv.ResetKernel()
    n, steps, v = 200, 10000, -55.0 - below
    at = {"E_L": v, "V_m": v, "V_th": -55.0, "V_reset": v - 1e-9}
    cells = rv.Create(model, n, params={**at, "delta": delta, "rho": rho})
    spikes = rv.Create("spike_recorder")
    rv.Connect(cells, spikes)
    rv.Simulate(steps * H)
    p = rho * math.exp(-below / delta) * H * 1e-3
    count, expected = len(spikes.events["times"]), n * steps * p
    assert abs(count - expected) < 5 * math.sqrt(expected * (1 - p))
    assert len(np.unique(spikes.events["senders"])) == n


@pytest.mark.parametrize("model", ["iaf_psc_exp", "iaf_tum_2000"])
def test_zero_width_is_the_hard_threshold_and_bad_values_raise(model):
    rv.ResetKernel()
    cells = rv.Create(model, 2, params={"I_e": 500.0})
    cells[1].set(rho=1e6)  # no effect without a width
    spikes = rv.Create("spike_recorder")
    rv.Connect(cells, spikes)
    rv.Simulate(100.0)
    times = spikes.events["times"]
    senders = spikes.events["senders"]
    np.testing.assert_array_equal(times[senders == cells[0].global_id], times[senders == cells[1].global_id])
    for name in ("delta", "rho"):
        with pytest.raises(rv.BadParameterError, match=f"{name} = -1"):
            cells.set({name: -1.0})
    assert rv.GetDefaults(model)["delta"] == 0.0 and rv.GetDefaults(model)["rho"] == 0.01
