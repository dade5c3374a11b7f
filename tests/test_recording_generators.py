"""Spike recorders fed by generators (NEST's Connect(generator, spike_recorder)): the recorder
records the train the generator sends it, at the times the spikes leave the generator."""

import numpy as np
import pytest

import ranvier as rv


def record(threads=1, delay=2.0, recorder_params=None):
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": 3})
    pg = rv.Create("poisson_generator", params={"rate": 1000.0})
    sg = rv.Create("spike_generator", params={"spike_times": [1.0, 2.5, 2.5, 7.0]})
    sr = rv.Create("spike_recorder", params=recorder_params or {})
    rv.Connect(pg + sg, sr, syn_spec={"delay": delay})
    rv.Simulate(1000.0)
    return pg, sg, sr.get("events")


def test_spike_generator_times_are_recorded_as_sent():
    _, sg, events = record()
    mine = events["senders"] == sg.global_id
    np.testing.assert_array_equal(events["times"][mine], [1.0, 2.5, 2.5, 7.0])


def test_poisson_train_to_a_recorder_has_the_rate_and_is_the_same_for_any_threads():
    pg, _, events = record()
    times = events["times"][events["senders"] == pg.global_id]
    assert abs(len(times) - 1000) < 5 * np.sqrt(1000)  # Poisson count of mean 1000
    assert np.all(np.diff(times) >= 0) and times.min() > 0 and times.max() <= 1000.0
    _, _, again = record(threads=3)
    np.testing.assert_array_equal(again["senders"], events["senders"])
    np.testing.assert_array_equal(again["times"], events["times"])


def test_the_delay_does_not_move_the_recorded_times_and_the_window_applies():
    _, sg, events = record(delay=5.0, recorder_params={"start": 2.0, "stop": 7.0})
    np.testing.assert_array_equal(events["times"][events["senders"] == sg.global_id], [2.5, 2.5, 7.0])


def test_current_generators_cannot_feed_a_spike_recorder():
    rv.ResetKernel()
    sr = rv.Create("spike_recorder")
    with pytest.raises(rv.BadParameterError, match="sends currents"):
        rv.Connect(rv.Create("dc_generator"), sr)
    with pytest.raises(rv.BadParameterError, match="spike_recorder"):
        rv.Connect(rv.Create("multimeter"), sr)
