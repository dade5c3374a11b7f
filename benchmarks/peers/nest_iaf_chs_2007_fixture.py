"""Writes tests/fixtures/nest_iaf_chs_2007.json: NEST 3.10's iaf_chs_2007 (Carandini et al. 2007)
in the scenario of tests/test_iaf_chs_2007.py (``run(simulator)``, which builds the same network
on either): two neurons driven by a spike train of positive and negative weights (NEST ignores
the latter), the second with a noise signal that it reads one value per step; V_m of both at
every step and their spike times.

    /work/peers-nest/bin/python benchmarks/peers/nest_iaf_chs_2007_fixture.py"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests"))
import nest  # noqa: E402
from iaf_chs_2007_scenario import run  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "nest_iaf_chs_2007.json")

if __name__ == "__main__":
    nest.set_verbosity("M_ERROR")
    with open(FIXTURE, "w") as f:
        json.dump(run(nest), f)
