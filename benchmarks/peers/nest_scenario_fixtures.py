"""Writes tests/fixtures/nest_<name>.json for each scenario named: NEST 3.10 running
tests/<name>_scenario.py's ``run(simulator)``, which the test of the model runs on Ranvier
(iaf_chs_2007: V_m and spikes under a spike train and a noise signal; iaf_chxk_2008: every
recordable and the precise spike times of four neurons, ahp_bug on and off; iaf_cond_alpha_mc:
every compartment's recordables under input at all nine receptors).

    /work/peers-nest/bin/python benchmarks/peers/nest_scenario_fixtures.py iaf_chs_2007 iaf_chxk_2008 iaf_cond_alpha_mc"""

import importlib
import json
import os
import sys

TESTS = os.path.join(os.path.dirname(__file__), "..", "..", "tests")
sys.path.insert(0, TESTS)
import nest  # noqa: E402

if __name__ == "__main__":
    nest.set_verbosity("M_ERROR")
    for name in sys.argv[1:]:
        scenario = importlib.import_module(f"{name}_scenario")
        with open(os.path.join(TESTS, "fixtures", f"nest_{name}.json"), "w") as f:
            json.dump(scenario.run(nest), f)
