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


def test_a_multimeter_records_a_node_once_and_keeps_what_it_was_connected_with():
    """NEST: connecting a multimeter to a node again is an IllegalConnection, and its interval,
    offset and record_from cannot change once it records (the same values may be set)."""
    n = rv.Create("iaf_psc_exp", 3)
    mm = rv.Create("multimeter", params={"record_from": ["V_m"], "interval": 0.5})
    rv.Connect(mm, n[:2])
    with pytest.raises(rv.IllegalConnectionError, match="node 2 already"):
        rv.Connect(mm, n[1:])
    rv.Connect(mm, n[2])  # a node it does not record yet
    mm.set(interval=0.5, offset=0.0, record_from=["V_m"])
    for name, value in (("interval", 1.0), ("offset", 5.0), ("record_from", ["I_syn_ex"])):
        with pytest.raises(rv.BadParameterError, match=name):
            mm.set({name: value})
    rv.Simulate(2.0)
    assert set(mm.events["senders"].tolist()) == set(n.tolist())  # each node recorded, once per sample
