"""What the scenarios (tests/<model>_scenario.py, run on Ranvier by their tests and on NEST 3.10
by benchmarks/peers/nest_scenario_fixtures.py) record: a multimeter's recordables at every step
and the spikes, as plain JSON data; and how their tests order what was recorded and compare it."""

import numpy as np


def record(sim, cells, recordables, t_sim, interval=None):
    """Records the cells while simulating t_sim ms, every interval ms (every step: None)."""
    meter = sim.Create("multimeter", params={"record_from": recordables, "interval": interval or sim.resolution})
    sim.Connect(meter, cells)
    spikes = sim.Create("spike_recorder")
    sim.Connect(cells, spikes)
    sim.Simulate(t_sim)
    events, fired = meter.get("events"), spikes.get("events")
    out = {k: [float(v) for v in events[k]] for k in recordables + ["times"]}
    out["senders"] = [int(s) for s in events["senders"]]
    out["spike_senders"] = [int(s) for s in fired["senders"]]
    out["spike_times"] = [float(t) for t in fired["times"]]
    return out


def by_sender(events, *keys):
    """events[k] for each of keys, ordered by the first key (a sender), then as recorded: the
    simulators order one step's events otherwise."""
    order = np.argsort(events[keys[0]], kind="stable")
    return [np.asarray(events[k])[order] for k in keys]


def assert_like_nest(got, nests, keys, atol=None):
    """The multimeter's events of a scenario against NEST's, sender by sender: times within 1e-9 ms
    (Ranvier's times are steps times h, NEST's tics), every other key to the bit unless atol
    names a tolerance for it. keys: "senders" first."""
    atol = atol or {}
    for key, ours, theirs in zip(keys, by_sender(got, *keys), by_sender(nests, *keys)):
        tolerance = 1e-9 if key == "times" else atol.get(key, 0.0)
        if tolerance:
            np.testing.assert_allclose(ours, theirs, rtol=0, atol=tolerance, err_msg=key)
        else:
            np.testing.assert_array_equal(ours, theirs, err_msg=key)
