"""What the scenarios (tests/<model>_scenario.py, run on Ranvier by their tests and on NEST 3.10
by benchmarks/peers/nest_scenario_fixtures.py) record: a multimeter's recordables at every step
and the spikes, as plain JSON data; and how their tests order what was recorded."""

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
