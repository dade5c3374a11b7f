"""ppd_sup_generator against the statistics of Poisson processes with dead time (Deger et al.
2011): a component fires at `rate` with no interval shorter than `dead_time`; its intervals
are dead_time plus an exponential wait, so CV^2 = (1 - dead_time rate)^2; n_proc of them pooled
fire at n_proc rate with CV^2 = (n_proc - 1 + 2 (1 - dead_time rate)^(n_proc + 1)) / (n_proc + 1).
Tolerances are about 4 standard errors."""

import numpy as np
import pytest
from device_fixture import spikes_to_parrots
from ranvier.errors import BadParameterError

import ranvier as rv


def recorded(params, t_sim, h=1.0):
    """The times of one generator's spikes, recorded directly (as NEST's own test does)."""
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": h})
    gen = rv.Create("ppd_sup_generator", params=params)
    sr = rv.Create("spike_recorder")
    rv.Connect(gen, sr)
    rv.Simulate(t_sim)
    return sr.get("events")["times"]


def cv_squared(times):
    isi = np.diff(times)
    return isi.var() / isi.mean() ** 2


def test_a_single_process_keeps_its_dead_time():
    rate, dead = 15.0, 45.0
    times = recorded({"rate": rate, "dead_time": dead, "n_proc": 1}, 200_000.0)
    assert abs(len(times) / 200.0 / rate - 1.0) < 0.02
    assert np.diff(times).min() >= dead
    assert cv_squared(times) == pytest.approx((1.0 - dead * rate / 1000.0) ** 2, rel=0.06)


def test_a_superposition_has_the_pooled_rate_and_cv():
    rate, dead, n = 10.0, 25.0, 5
    times = recorded({"rate": rate, "dead_time": dead, "n_proc": n}, 100_000.0)
    # several components may fire in one step: the recorder keeps each spike
    assert abs(len(times) / 100.0 / (n * rate) - 1.0) < 0.02
    theory = (n - 1.0 + 2.0 * (1.0 - dead * rate / 1000.0) ** (n + 1)) / (n + 1.0)
    assert cv_squared(times) == pytest.approx(theory, rel=0.06)


def test_the_hazard_follows_the_modulation():
    params = {"rate": 20.0, "dead_time": 5.0, "n_proc": 50, "frequency": 10.0, "relative_amplitude": 1.0}
    times = recorded(params, 20_000.0, h=0.1)
    phase = np.mod(times, 100.0)  # the sine rises in the first half of each 100 ms period
    assert (phase < 50.0).sum() > 1.5 * (phase >= 50.0).sum()


def test_targets_differ_and_threads_do_not_matter():
    params = {"rate": 50.0, "dead_time": 4.0, "n_proc": 3}
    times, senders = spikes_to_parrots(params, 2, 2000.0, model="ppd_sup_generator")
    first, second = times[senders == 0], times[senders == 1]
    assert len(first) > 200 and not np.array_equal(first, second[: len(first)])
    again, senders_again = spikes_to_parrots(params, 2, 2000.0, threads=2, model="ppd_sup_generator")
    np.testing.assert_array_equal(np.sort(again), np.sort(times))


@pytest.mark.parametrize(
    "params, name",
    [
        ({"dead_time": -1.0}, "dead_time"),
        ({"rate": 100.0, "dead_time": 10.0}, "rate"),
        ({"n_proc": 0}, "n_proc"),
        ({"relative_amplitude": 1.5}, "relative_amplitude"),
    ],
)
def test_bad_parameters_are_refused(params, name):
    with pytest.raises(BadParameterError, match=name):
        rv.Create("ppd_sup_generator", params=params)
