"""sinusoidal_gamma_generator: its trains against the gamma process they should be (rate, CV of
the intervals, the rate's modulation over the cycle), NEST's individual_spike_trains, the
multimeter's rate, parameters changed between runs, threads, and NEST's errors.

Tolerances are statistical: each is at least five standard deviations of its estimate (stated
beside it), so a correct generator fails with probability below 1e-6 and a wrong order, rate or
phase fails by far."""

import numpy as np
import pytest
from ranvier.errors import BadParameterError

import ranvier as rv


def trains(params, n=100, t_sim=10000.0, threads=1, individual=True, split=None):
    rv.ResetKernel()
    rv.set(local_num_threads=threads, rng_seed=11)
    rv.SetDefaults("sinusoidal_gamma_generator", {"individual_spike_trains": individual})
    g = rv.Create("sinusoidal_gamma_generator", params=params)
    parrots = rv.Create("parrot_neuron", n)
    rv.Connect(g, parrots)
    sr = rv.Create("spike_recorder")
    rv.Connect(parrots, sr)
    if split is None:
        rv.Simulate(t_sim)
    else:
        rv.Simulate(t_sim / 2)
        g.set(split)
        rv.Simulate(t_sim / 2)
    return sr.events["times"], sr.events["senders"] - parrots[0].global_id


@pytest.mark.parametrize("order", [1.0, 2.5, 6.0])
def test_constant_rate_gives_gamma_intervals(order):
    rate, n, t_sim = 40.0, 100, 10000.0
    t, s = trains({"rate": rate, "order": order}, n, t_sim)
    # a renewal count over T has variance ~ (rate T) CV^2: here sd 0.1 Hz at order 1
    assert abs(len(t) / n / (t_sim / 1e3) - rate) < 0.6
    isi = np.concatenate([np.diff(np.sort(t[s == k])) for k in range(n)])
    cv = isi.std() / isi.mean()
    # a gamma variable of shape a has CV 1 / sqrt(a); the estimate's sd here is below 0.004
    assert abs(cv - 1.0 / np.sqrt(order)) < 0.025
    assert abs(isi.mean() - 1e3 / rate) < 0.4  # sd 0.08 ms at order 1


def test_rate_follows_the_sine():
    rate, amp, freq, phase = 50.0, 40.0, 5.0, 45.0
    t, _ = trains({"rate": rate, "amplitude": amp, "frequency": freq, "phase": phase, "order": 3.0}, 200)
    cycle = np.mod(t * 1e-3 * freq, 1.0)
    counts, edges = np.histogram(cycle, bins=10, range=(0, 1))
    centres = (edges[:-1] + edges[1:]) / 2
    # expected per bin: trains x cycles x integral of the rate over the bin
    width = 1.0 / freq / 10
    expected = 200 * 50 * width * (rate + amp * np.sinc(0.1) * np.sin(2 * np.pi * centres + np.radians(phase)))
    # each bin's count has sd ~ sqrt(expected) / sqrt(3) (order 3) < 60: allow 300
    np.testing.assert_allclose(counts, expected, atol=300)


def test_individual_trains_differ_shared_train_is_one():
    t, s = trains({"rate": 30.0, "order": 2.0}, n=5, t_sim=2000.0)
    assert len({tuple(t[s == k]) for k in range(5)}) == 5
    t, s = trains({"rate": 30.0, "order": 2.0}, n=5, t_sim=2000.0, individual=False)
    assert len(t) > 100 and len({tuple(t[s == k]) for k in range(5)}) == 1


@pytest.mark.parametrize("individual", [True, False])
def test_threads_give_the_same_trains(individual):
    params = {"rate": 60.0, "amplitude": 20.0, "frequency": 3.0, "order": 2.0}
    one = trains(params, n=12, t_sim=3000.0, individual=individual)
    three = trains(params, n=12, t_sim=3000.0, threads=3, individual=individual)
    for a, b in zip(one, three):
        order_a, order_b = np.lexsort((one[0], one[1])), np.lexsort((three[0], three[1]))
        np.testing.assert_array_equal(a[order_a], b[order_b])


def test_runs_in_pieces_continue_the_trains():
    params = {"rate": 40.0, "amplitude": 0.0, "order": 8.0}
    whole = trains(params, n=10, t_sim=2000.0)
    # a new frequency with no amplitude changes nothing: the integral so far is kept (NEST),
    # so the trains go on exactly as in one run
    pieces = trains(params, n=10, t_sim=2000.0, split={"frequency": 7.0})
    np.testing.assert_array_equal(whole[0], pieces[0])
    np.testing.assert_array_equal(whole[1], pieces[1])


def test_multimeter_records_the_rate():
    g = rv.Create(
        "sinusoidal_gamma_generator", params={"rate": 30.0, "amplitude": 10.0, "frequency": 2.0, "phase": 90.0}
    )
    mm = rv.Create("multimeter", params={"interval": 1.0, "record_from": ["rate"]})
    rv.Connect(mm, g)
    rv.Simulate(100.0)
    t = mm.events["times"]
    np.testing.assert_allclose(
        mm.events["rate"], 30.0 + 10.0 * np.sin(2 * np.pi * 2.0 * t * 1e-3 + np.pi / 2), rtol=1e-12
    )


@pytest.mark.parametrize(
    "params,shown",
    [({"order": 0.5}, "order = 0.5"), ({"rate": 10.0, "amplitude": 20.0}, "amplitude = 20")],
)
def test_bad_parameters_raise_with_name_and_value(params, shown):
    with pytest.raises(BadParameterError, match=shown):
        rv.Create("sinusoidal_gamma_generator", params=params)
    g = rv.Create("sinusoidal_gamma_generator")
    with pytest.raises(BadParameterError, match=shown):
        g.set(params)
    with pytest.raises(BadParameterError, match="individual_spike_trains"):
        g.set(individual_spike_trains=False)  # NEST: a model default only
    rv.Simulate(1.0)


@pytest.mark.parametrize("individual", [True, False])
def test_activity_window_is_nests(individual):
    # at 1e5 Hz of order 1 the hazard exceeds 1: a spike in every step it may send in, which NEST
    # 3.10 (run with this script) stamps 5.2, 5.3, ..., 6.1 ms for start 5 and stop 6
    t, s = trains({"rate": 1e5, "start": 5.0, "stop": 6.0}, n=3, t_sim=10.0, individual=individual)
    for k in range(3):
        np.testing.assert_allclose(np.sort(t[s == k]) - 1.0, np.arange(52, 62) * 0.1, atol=1e-9)  # parrots' delay 1 ms
