"""Writes tests/fixtures/nest_stdp_nn.json: NEST 3.10's weights of the nearest-neighbour STDP
synapses (and stdp_synapse) for the trains of tests/stdp_nn_network.py (shared with
tests/test_stdp_nn.py).

    /work/peers-nest/bin/python benchmarks/peers/nest_stdp_nn_fixture.py
"""

import json
import os
import sys

import nest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import stdp_nn_network  # noqa: E402

FIXTURE = os.path.join(HERE, "..", "..", "tests", "fixtures", "nest_stdp_nn.json")

if __name__ == "__main__":
    nest.set_verbosity("M_ERROR")
    with open(FIXTURE, "w") as f:
        json.dump(stdp_nn_network.run(nest), f)
    print("wrote", FIXTURE)
