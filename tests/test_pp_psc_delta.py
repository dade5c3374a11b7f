"""pp_psc_delta against the statistics of its point process: at a constant rate lambda (c_1 = c_3
= 0, c_2 = lambda) with a dead time d, a step fires with probability p = 1 - exp(-lambda h) once
the dead time has passed, so intervals are d + a geometric wait and the rate is 1 / (d + h / p);
without a dead time the counts per step are Poisson; a gamma dead time of shape k and mean d adds
its variance d^2 / k. Tolerances are about 4 standard errors."""

import numpy as np
import pytest
from ranvier.errors import BadParameterError

import ranvier as rv

H = 0.1


def spikes(params, t_sim, threads=1, n=1):
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": H, "local_num_threads": threads})
    cells = rv.Create("pp_psc_delta", n, params=params)
    sr = rv.Create("spike_recorder")
    rv.Connect(cells, sr)
    rv.Simulate(t_sim)
    ev = sr.get("events")
    return ev["times"], ev["senders"] - cells[0].global_id


def test_a_fixed_dead_time_gives_the_renewal_rate():
    rate, dead = 80.0, 5.0
    times, _ = spikes({"c_1": 0.0, "c_2": rate, "c_3": 0.0, "dead_time": dead}, 100_000.0)
    p = -np.expm1(-rate * H * 1e-3)
    expected = 1000.0 / (dead + H / p)
    assert abs(len(times) / 100.0 / expected - 1.0) < 0.02
    assert np.diff(times).min() >= dead


def test_without_a_dead_time_counts_are_poisson():
    rate = 3000.0  # 0.3 spikes per step: several spikes in one step happen
    times, _ = spikes({"c_1": 0.0, "c_2": rate, "c_3": 0.0, "dead_time": 0.0}, 20_000.0)
    counts = np.bincount(np.round(times / H).astype(int), minlength=200_000)[1:]
    assert counts.mean() == pytest.approx(rate * H * 1e-3, rel=0.02)
    assert counts.var() / counts.mean() == pytest.approx(1.0, abs=0.02)
    assert counts.max() >= 2


def test_a_random_dead_time_adds_its_variance():
    rate, dead, shape = 100.0, 8.0, 4
    params = {
        "c_1": 0.0,
        "c_2": rate,
        "c_3": 0.0,
        "dead_time": dead,
        "dead_time_random": True,
        "dead_time_shape": shape,
    }
    isi = np.diff(spikes(params, 100_000.0)[0])
    p = -np.expm1(-rate * H * 1e-3)
    wait_mean, wait_var = H / p, H * H * (1 - p) / p**2  # geometric wait in steps of H
    assert isi.mean() == pytest.approx(dead + wait_mean, rel=0.02)
    assert isi.var() == pytest.approx(dead**2 / shape + wait_var, rel=0.08)


def test_adaptation_lowers_the_rate_and_e_sfa_follows_the_spikes():
    base = {"c_1": 0.0, "c_2": 50.0, "c_3": 0.1, "dead_time": 2.0}
    plain = len(spikes(base, 20_000.0)[0])
    adapted = len(spikes({**base, "tau_sfa": [20.0, 200.0], "q_sfa": [5.0, 2.0]}, 20_000.0)[0])
    assert adapted < 0.7 * plain
    rv.ResetKernel()
    cell = rv.Create(
        "pp_psc_delta", params={**base, "c_2": 1e9, "tau_sfa": [20.0], "q_sfa": [5.0], "dead_time": 1000.0}
    )
    rv.Simulate(50.0)  # fires in the first step, then waits out its dead time
    assert cell.E_sfa == pytest.approx(5.0 * np.exp(-49.9 / 20.0), rel=1e-12)


def test_threads_give_identical_spikes():
    params = {"c_1": 1.0, "c_2": 20.0, "c_3": 0.2, "dead_time": 1.5, "dead_time_random": True, "I_e": 50.0}
    times, senders = spikes(params, 2000.0, n=6)
    again, senders_again = spikes(params, 2000.0, threads=3, n=6)
    assert sorted(zip(senders, times)) == sorted(zip(senders_again, again))
    assert len(times) > 100


@pytest.mark.parametrize(
    "params, name",
    [
        ({"C_m": 0.0}, "C_m"),
        ({"dead_time": -1.0}, "dead_time"),
        ({"dead_time_shape": 0}, "dead_time_shape"),
        ({"c_3": -0.1}, "c_3"),
        ({"tau_sfa": [10.0], "q_sfa": []}, "q_sfa"),
    ],
)
def test_bad_parameters_are_refused(params, name):
    with pytest.raises(BadParameterError, match=name):
        rv.Create("pp_psc_delta", params=params)
