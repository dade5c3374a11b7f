"""Events act on cable cells from the start of the dt step that holds their time (what Arbor
0.12 does when run), whatever the network's resolution: spikes of cable cells and spike_generator's precise_times
carry their offset within the step, and a cell acts on each event from its own dt boundary."""

import numpy as np
import pytest
from ranvier.errors import BadParameterError

import ranvier as rv

CELL = {
    "morphology": {
        "branches": [
            {"name": "soma", "length": 20.0, "diameter": 20.0},
            {"name": "dend", "parent": "soma", "length": 100.0, "diameter": 1.0},
        ]
    },
    "cv_policy": {"per_branch": {"dend": 5}},
    "dt": 0.025,
    "mechanisms": {"soma": {"hh": {}}, "dend": {"pas": {"g": 0.001, "e": -65.0}}},
    "synapses": {"syn": {"model": "expsyn", "location": ["dend", 0.5], "tau": 2.0}},
}


def one_event(resolution, time, precise, delay=1.0):
    """V_m (every 0.1 ms) of a cell receiving one event sent at `time` with `delay`."""
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": resolution})
    cell = rv.Create("cable_cell", 1, params=CELL)
    kick = rv.Create("spike_generator", params={"spike_times": [time], "precise_times": precise})
    rv.Connect(kick, cell, syn_spec={"weight": 0.002, "delay": delay, "receptor_type": "syn"})
    mm = rv.Create("multimeter", params={"record_from": ["V_m"], "interval": 0.1})
    rv.Connect(mm, cell)
    rv.Simulate(20.0)
    return mm.events["V_m"]


@pytest.mark.parametrize(
    "sent, acts_from",
    [
        (10.03, 11.025),  # arrives at 11.03, 0.2 dt into the dt step [11.025, 11.05): from its start
        (10.045, 11.025),  # 0.8 dt into the same dt step: from its start too
        (10.025, 11.025),  # on a dt boundary: from there
        (10.0249, 11.0),  # just before it: from the dt step that holds it, the network step's first
        (10.0001, 11.0),  # just after a network step's start: from that start
        (10.0999, 11.075),  # in the last dt step of the network step [11.0, 11.1): from that dt step
    ],
)
def test_an_off_grid_event_acts_from_the_start_of_its_dt_step(sent, acts_from):
    """At a resolution of 0.1 ms (4 dt steps), an event sent off the grid acts exactly as one
    sent on the dt grid that arrives at the start of the dt step holding its arrival: the same bits."""
    precise = one_event(0.1, sent, precise=True)
    on_dt_grid = one_event(0.025, round(acts_from - 1.0, 3), precise=False)
    np.testing.assert_array_equal(precise, on_dt_grid)
    assert precise.max() > precise[0] + 0.1  # the event did depolarise the cell
    later = one_event(0.025, round(acts_from - 1.0 + 0.025, 3), precise=False)
    assert not np.array_equal(precise, later)


def test_precise_times_on_the_grid_equal_plain_times():
    np.testing.assert_array_equal(one_event(0.1, 10.0, precise=True), one_event(0.1, 10.0, precise=False))


def ring(resolution, threads=1):
    """Five cable cells in a ring, started by one off-grid event; every cell has one input."""
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": resolution, "local_num_threads": threads})
    cells = rv.Create("cable_cell", 5, params=CELL)
    for source, target in ((cells[:-1], cells[1:]), (cells[-1:], cells[:1])):
        rv.Connect(source, target, "one_to_one", {"weight": 0.05, "delay": 2.0, "receptor_type": "syn"})
    kick = rv.Create("spike_generator", params={"spike_times": [1.0137], "precise_times": True})
    rv.Connect(kick, cells[:1], syn_spec={"weight": 0.05, "delay": 1.0, "receptor_type": "syn"})
    sr = rv.Create("spike_recorder")
    rv.Connect(cells, sr)
    mm = rv.Create("multimeter", params={"record_from": ["V_m"], "interval": 0.1})
    rv.Connect(mm, cells)
    rv.Simulate(60.0)
    return sr.events, mm.events


def test_a_ring_of_cable_cells_is_the_same_at_any_resolution():
    """Spikes travel with their offsets, so a network step of 0.1 ms gives the cells the same
    events in the same dt steps as a network step of dt: bit-identical voltages, and spike
    times equal up to the rounding of the step's start time."""
    fine_spikes, fine_v = ring(0.025)
    coarse_spikes, coarse_v = ring(0.1)
    assert len(fine_spikes["times"]) >= 15
    np.testing.assert_array_equal(fine_spikes["senders"], coarse_spikes["senders"])
    np.testing.assert_allclose(fine_spikes["times"], coarse_spikes["times"], rtol=0, atol=1e-9)
    np.testing.assert_array_equal(fine_v["V_m"], coarse_v["V_m"])


def test_a_ring_of_cable_cells_is_the_same_on_two_threads():
    one, v_one = ring(0.1)
    two, v_two = ring(0.1, threads=2)
    order = lambda e: np.lexsort((e["senders"], e["times"]))
    np.testing.assert_array_equal(one["times"][order(one)], two["times"][order(two)])
    np.testing.assert_array_equal(
        v_one["V_m"][np.lexsort((v_one["senders"], v_one["times"]))],
        v_two["V_m"][np.lexsort((v_two["senders"], v_two["times"]))],
    )


def test_spike_times_off_the_grid_need_precise_times():
    g = rv.Create("spike_generator")
    with pytest.raises(BadParameterError, match="spike_times"):
        g.set(spike_times=[1.03])
    g.set(precise_times=True, spike_times=[1.03, 2.5])
    assert g.get("precise_times") is True


def test_a_precise_spike_reaches_point_neurons_at_the_end_of_its_step():
    """NEST's point neurons take precise spikes on their grid: the step that holds the time."""
    rv.SetKernelStatus({"resolution": 0.1})
    kick = rv.Create("spike_generator", params={"spike_times": [2.03], "precise_times": True})
    parrot = rv.Create("parrot_neuron")
    rv.Connect(kick, parrot, syn_spec={"delay": 1.0})
    sr = rv.Create("spike_recorder")
    rv.Connect(parrot, sr)
    rv.Simulate(5.0)
    np.testing.assert_allclose(sr.events["times"], [3.1], atol=1e-12)


def test_parrots_take_no_currents():
    parrot = rv.Create("parrot_neuron")
    dc = rv.Create("dc_generator", params={"amplitude": 10.0})
    with pytest.raises(rv.NESTErrors.IllegalConnection, match="parrot_neuron"):
        rv.Connect(dc, parrot)
