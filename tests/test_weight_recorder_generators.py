"""Generator input through a synapse model with a weight_recorder, as NEST 3.10 records it
(tests/fixtures/nest_weight_recorder_generators.json, written by
benchmarks/peers/nest_weight_recorder_generators_fixture.py): NEST records nothing of what
poisson_generator and spike_generator send, only what neurons (here a parrot) send."""

import json
import os
import sys

import ranvier as nest

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "benchmarks", "peers"))
from nest_weight_recorder_generators_fixture import scenario  # noqa: E402


def test_generator_input_as_nest():
    with open(os.path.join(HERE, "fixtures", "nest_weight_recorder_generators.json")) as f:
        reference = json.load(f)["events"]
    try:
        mine = scenario(nest)
    finally:
        nest.ResetKernel()
    assert mine == reference
    assert mine["senders"] == [4, 4]  # the parrot only: generators' input is not recorded
