"""step_rate_generator (NEST's): its rates and a rate neuron's response against NEST 3.10's
(tests/fixtures/nest_step_rate.json, written by benchmarks/peers/nest_network_fixtures.py from
tests/step_rate_network.py), and NEST's rules for its parameters and connections."""

import json
import pathlib

import numpy as np
import pytest
import step_rate_network
from ranvier.errors import BadParameterError, IllegalConnectionError

import ranvier as rv

NEST = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_step_rate.json").read_text())


@pytest.mark.parametrize("case", sorted(step_rate_network.CASES))
def test_rates_are_nest_s(case):
    got, ref = step_rate_network.run(rv, case), NEST[case]
    assert got["generator"] == ref["generator"] and got["amplitude_times"] == ref["amplitude_times"]
    np.testing.assert_allclose(got["neuron"], ref["neuron"], rtol=0, atol=2e-16)  # the last bit of a sum
    assert len(set(ref["generator"])) > 2 and max(ref["neuron"]) > 0.1


def test_parameters_and_connections_follow_nest_s_rules():
    generator, neuron = rv.Create("step_rate_generator"), rv.Create("lin_rate_ipn")
    assert rv.GetDefaults("step_rate_generator")["element_type"] == "stimulator"
    with pytest.raises(BadParameterError, match="amplitude_times"):
        generator.set({"amplitude_times": [1.0, 2.0]})  # without values
    with pytest.raises(BadParameterError, match="amplitude_values"):
        generator.set({"amplitude_times": [1.0, 2.0], "amplitude_values": [1.0]})
    with pytest.raises(BadParameterError, match="strictly increasing"):
        generator.set({"amplitude_times": [2.0, 1.0], "amplitude_values": [1.0, 2.0]})
    with pytest.raises(BadParameterError, match="not representable"):
        generator.set({"amplitude_times": [1.05], "amplitude_values": [1.0]})
    with pytest.raises(IllegalConnectionError, match="does not support rate"):
        rv.Connect(generator, neuron, syn_spec={"synapse_model": "rate_connection_instantaneous"})
    with pytest.raises(BadParameterError):
        rv.Connect(neuron, generator, syn_spec={"synapse_model": "rate_connection_delayed"})  # it takes no input
