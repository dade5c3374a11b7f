"""The network tests/test_iaf_chs_2007.py runs on Ranvier and
benchmarks/peers/nest_scenario_fixtures.py on NEST 3.10: two iaf_chs_2007 neurons at
resolution 0.1 ms under the same spike train (weights 0.9 to 2.5, and negative ones, which the
model ignores), the second with V_noise 0.4 and a noise signal of one value per step (a fixed
sequence, so both simulators read the same numbers), 300 ms."""

import math

T_SIM = 300.0
STEPS = 3000
TIMES = [5.0, 12.3, 20.0, 20.1, 33.0, 47.5, 60.0, 61.0, 62.0, 90.4, 130.0, 131.5, 170.0, 210.2, 250.0]
WEIGHTS = [1.2, -3.0, 2.5, 0.9, 1.6, -1.0, 1.1, 1.1, 1.1, 2.0, -2.0, 2.4, 1.5, 2.2, 1.3]


def noise_signal():
    """A deterministic stand-in for white noise: values in [-1, 1] that both simulators read."""
    return [math.sin(0.37 * k) * math.cos(1.3 * k + 0.5) for k in range(STEPS)]


def run(sim):
    sim.ResetKernel()
    sim.SetKernelStatus({"resolution": 0.1})
    cells = sim.Create("iaf_chs_2007", 2)
    cells[1].set({"V_noise": 0.4, "noise": noise_signal()})
    train = sim.Create("spike_generator", params={"spike_times": TIMES, "spike_weights": WEIGHTS})
    sim.Connect(train, cells, syn_spec={"weight": 1.0, "delay": 1.0})
    meter = sim.Create("multimeter", params={"record_from": ["V_m"], "interval": 0.1})
    sim.Connect(meter, cells)
    spikes = sim.Create("spike_recorder")
    sim.Connect(cells, spikes)
    sim.Simulate(T_SIM)
    events, fired = meter.get("events"), spikes.get("events")
    return {
        "senders": [int(s) for s in events["senders"]],
        "times": [float(t) for t in events["times"]],
        "V_m": [float(v) for v in events["V_m"]],
        "spike_senders": [int(s) for s in fired["senders"]],
        "spike_times": [float(t) for t in fired["times"]],
    }
