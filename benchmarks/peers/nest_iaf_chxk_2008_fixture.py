"""Writes tests/fixtures/nest_iaf_chxk_2008.json: NEST 3.10's iaf_chxk_2008 (Casti et al. 2008)
in the scenario of tests/iaf_chxk_2008_scenario.py (``run(simulator)``, which builds the same
network on either): every recordable of three neurons at every step and their precise spike
times.

    /work/peers-nest/bin/python benchmarks/peers/nest_iaf_chxk_2008_fixture.py"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests"))
import nest  # noqa: E402
from iaf_chxk_2008_scenario import run  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "nest_iaf_chxk_2008.json")

if __name__ == "__main__":
    nest.set_verbosity("M_ERROR")
    with open(FIXTURE, "w") as f:
        json.dump(run(nest), f)
