"""noise_generator against NEST 3.10 (fixture by benchmarks/peers/nest_device_traces.py).

The current each target receives is read back from the V_m of an iaf_psc_alpha. The noise is
random: when it changes is compared with NEST exactly, its statistics (mean, standard
deviation, modulation of the variance, independence between targets) with tolerances of a
few standard errors computed from the sample sizes, against theory and NEST's fixture."""

import math

import numpy as np
import pytest
from device_fixture import FIXTURE, SPEC, H, noise_currents, reset
from ranvier.errors import BadParameterError

import ranvier as rv


def test_noise_changes_when_nest_changes():
    p = SPEC["noise"]
    nest = FIXTURE["noise/first_steps"]
    mine = noise_currents(p, SPEC["noise_targets"], 10.0)[: len(nest)]
    changes = lambda c: np.flatnonzero(np.any(np.diff(c, axis=0) != 0, axis=1))
    np.testing.assert_array_equal(changes(mine), changes(nest))
    assert np.all(mine[:20] == 0) and np.all(mine[20] != 0)  # sent from step 9 (start 1 ms), acts in 20


def test_noise_statistics_match_nest_and_theory():
    p, targets = SPEC["noise"], 16
    current = noise_currents(p, targets, SPEC["t_noise"])
    blocks = current[20 :: round(p["dt"] / H)]  # one row per draw
    n = len(blocks)
    se_mean, se_std = p["std"] / math.sqrt(n), p["std"] / math.sqrt(2 * n)
    assert np.all(np.abs(blocks.mean(axis=0) - p["mean"]) < 4.5 * se_mean)
    assert np.all(np.abs(blocks.std(axis=0) - p["std"]) < 4.5 * se_std)
    # NEST's four targets, each from n draws: the same mean and std within the joint error
    nest_mean, nest_std = FIXTURE["noise/mean"], FIXTURE["noise/std"]
    assert abs(blocks.mean() - nest_mean.mean()) < 4.5 * math.hypot(se_mean / 4, se_mean / 2)
    assert abs(blocks.std() - nest_std.mean()) < 4.5 * math.hypot(se_std / 4, se_std / 2)
    # independent noise per target, as NEST's
    corr = np.corrcoef(blocks.T)[np.triu_indices(targets, 1)]
    assert np.all(np.abs(corr) < 4.5 / math.sqrt(n))
    assert np.all(np.abs(FIXTURE["noise/corr"][np.triu_indices(4, 1)]) < 4.5 / math.sqrt(n))


def test_noise_modulation_of_the_variance():
    # variance std^2 + std_mod^2 sin(w t + phi), t the time of the draw: fitted over steps
    p, targets = SPEC["noise_mod"], 20
    current = noise_currents(p, targets, SPEC["t_noise"])[12:]
    phase = 2 * np.pi * p["frequency"] * 1e-3 * (np.arange(len(current)) + 2) * H + np.radians(p["phase"])
    slope, intercept = np.polyfit(np.sin(phase), current.var(axis=1, ddof=1), 1)
    assert abs(slope - p["std_mod"] ** 2) < 0.05 * p["std_mod"] ** 2
    assert abs(intercept - p["std"] ** 2) < 0.03 * p["std"] ** 2
    nest_slope, nest_intercept = FIXTURE["noise_mod/variance_by_sin"]  # from 4 targets: wider
    assert abs(nest_slope - slope) < 0.15 * p["std_mod"] ** 2
    assert abs(nest_intercept - intercept) < 0.08 * p["std"] ** 2


def test_noise_identical_for_any_threads():
    p = {**SPEC["noise_mod"], "dt": 0.3}
    one = noise_currents(p, 7, 50.0, threads=1)
    for threads in (2, 3):
        np.testing.assert_array_equal(noise_currents(p, 7, 50.0, threads=threads), one)
    assert not np.array_equal(noise_currents(p, 7, 50.0, seed=2), one)


@pytest.mark.parametrize("resolution,dt", [(0.25, 1.0), (0.3, 3.0), (0.05, 1.0)])
def test_noise_dt_defaults_to_ten_steps(resolution, dt):
    # NEST 3.10: dt defaults to 10 steps at 0.1 ms, and keeps 1 ms under another resolution
    # where 1 ms is a multiple of it, else becomes 10 steps of the new resolution
    rv.ResetKernel()
    assert rv.GetDefaults("noise_generator")["dt"] == pytest.approx(1.0)
    rv.SetKernelStatus({"resolution": resolution})
    assert rv.GetDefaults("noise_generator")["dt"] == pytest.approx(dt)
    assert rv.Create("noise_generator").get("dt") == pytest.approx(dt)
    rv.ResetKernel()


@pytest.mark.parametrize(
    "params,named",
    [
        ({"std": -1.0}, "std"),
        ({"std": 1.0, "std_mod": 2.0}, "std_mod"),
        ({"dt": 0.25}, "dt"),
        ({"dt": 0.0}, "dt"),
        ({"mean": "big"}, "mean"),
    ],
)
def test_bad_parameters_raise(params, named):
    reset()
    with pytest.raises(BadParameterError, match=named):
        rv.Create("noise_generator", params=params)
    g = rv.Create("noise_generator")
    with pytest.raises(BadParameterError, match=named):
        g.set(params)


def test_rejected_value_changes_no_device():
    reset()
    gs = rv.Create("noise_generator", 3, params={"std": 5.0, "std_mod": 2.0})
    with pytest.raises(BadParameterError, match="std_mod"):
        gs.set(std=1.0)  # below std_mod: no device changes
    assert list(gs.get("std")) == [5.0, 5.0, 5.0]
    with pytest.raises(BadParameterError, match="std_mod"):
        rv.SetDefaults("noise_generator", {"std_mod": 1.0})  # above the default std 0
