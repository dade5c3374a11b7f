"""Writes tests/fixtures/nest_cont_delay.json: NEST 3.10's spike times and delays for the
cont_delay_synapse network of tests/cont_delay_network.py (shared with tests/test_cont_delay.py).

    /work/peers-nest/bin/python benchmarks/peers/nest_cont_delay_fixture.py
"""

import json
import os
import sys

import nest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import cont_delay_network  # noqa: E402

FIXTURE = os.path.join(HERE, "..", "..", "tests", "fixtures", "nest_cont_delay.json")

if __name__ == "__main__":
    nest.set_verbosity("M_ERROR")
    out = cont_delay_network.run(nest)
    with open(FIXTURE, "w") as f:
        json.dump(out, f)
    print("wrote", FIXTURE, out)
