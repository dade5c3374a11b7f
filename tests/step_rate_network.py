"""NEST's step_rate_generator driving a rate neuron through rate_connection_delayed: with an
active window and an origin, and with off-grid amplitude times, recorded every step. Written
against PyNEST's API so that NEST 3.10 (benchmarks/peers/nest_network_fixtures.py) and Ranvier
(tests/test_step_rate_generator.py) build the same. The recorders' connections have a delay of
one step, so that NEST's cycle is one step: its longer cycles shift what the generator sends by
amounts that do not follow the connection's delay."""

CASES = {
    "window": {
        "amplitude_times": [0.5, 1.0, 2.3, 3.0],
        "amplitude_values": [1.0, 2.0, 3.0, 4.0],
        "start": 0.7,
        "stop": 2.6,
        "origin": 0.2,
    },
    "offgrid": {
        "allow_offgrid_times": True,
        "amplitude_times": [0.55, 1.01, 2.3],
        "amplitude_values": [1.0, -2.0, 3.0],
    },
}


def run(nest, case):
    """The generator's and the neuron's rate every step, and the amplitude times as kept."""
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.1, "use_wfr": False})
    neuron = nest.Create("lin_rate_ipn", params={"sigma": 0.0, "tau": 2.0})
    generator = nest.Create("step_rate_generator")
    generator.set(CASES[case])
    nest.Connect(generator, neuron, syn_spec={"synapse_model": "rate_connection_delayed", "weight": 0.5, "delay": 0.5})
    meter = nest.Create("multimeter", params={"record_from": ["rate"], "interval": 0.1})
    nest.Connect(meter, generator + neuron, syn_spec={"delay": 0.1})
    nest.Simulate(5.0)
    events = meter.get("events")

    def rates(node):
        return [float(r) for r, s in zip(events["rate"], events["senders"]) if s == node.global_id]

    return {
        "generator": rates(generator),
        "neuron": rates(neuron),
        "amplitude_times": [float(t) for t in generator.get("amplitude_times")],
    }


def fixture(nest):
    return {case: run(nest, case) for case in CASES}
