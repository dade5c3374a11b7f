"""Writes tests/fixtures/nest_dopamine.json: NEST 3.10's weights, eligibility c, dopamine n and
K+ of stdp_dopamine_synapse connections and the weights its weight_recorder saw, for the
networks of tests/mpi/dopamine_network.py (shared with tests/test_dopamine.py).

    /work/peers-nest/bin/python benchmarks/peers/nest_dopamine_fixture.py
"""

import json
import os
import sys

import nest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "mpi"))
import dopamine_network  # noqa: E402

FIXTURE = os.path.join(HERE, "..", "..", "tests", "fixtures", "nest_dopamine.json")

if __name__ == "__main__":
    nest.set_verbosity("M_ERROR")
    out = {case: dopamine_network.run(nest, case) for case in dopamine_network.CASES}
    with open(FIXTURE, "w") as f:
        json.dump(out, f)
    print("wrote", FIXTURE, {case: len(v["events"]["times"]) for case, v in out.items()})
