"""Writes the NEST 3.10 fixtures of networks that a test builds with PyNEST's API on both
simulators: each module below (in tests/ or tests/mpi/) has fixture(nest), whose result on NEST
goes to tests/fixtures/nest_<name>.json for the test to compare with Ranvier's.

    /work/peers-nest/bin/python benchmarks/peers/nest_network_fixtures.py [NAME ...]
"""

import importlib
import json
import os
import sys

import nest

TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests")
NETWORKS = {  # name: module (in tests/ or tests/mpi/), its test
    "dopamine": "dopamine_network",  # tests/mpi/dopamine_network.py, tests/test_dopamine.py
    "cont_delay": "cont_delay_network",  # tests/test_cont_delay.py
    "stdp_nn": "stdp_nn_network",  # tests/test_stdp_nn.py
    "stdp_drift": "stdp_drift_network",  # tests/test_stdp.py
    "rates": "rate_network",  # tests/mpi/rate_network.py, tests/test_rate_neurons.py
    "gap_junctions": "gap_network",  # tests/mpi/gap_network.py, tests/test_gap_junctions.py
    "siegert": "siegert_network",  # tests/mpi/siegert_network.py, tests/test_siegert_neuron.py
    "step_rate": "step_rate_network",  # tests/step_rate_network.py, tests/test_step_rate_generator.py
    "eprop": "eprop_network",  # tests/mpi/eprop_network.py, tests/test_eprop.py
    "structural": "structural_network",  # tests/mpi/structural_network.py, tests/test_structural_plasticity.py
    "ht": "ht_network",  # tests/ht_network.py, tests/test_ht_neuron.py
    "astrocytes": "astrocyte_network",  # tests/mpi/astrocyte_network.py, tests/test_astrocytes.py
    "correlation": "correlation_network",  # tests/correlation_network.py, tests/test_correlation_detectors.py
}

if __name__ == "__main__":
    nest.set_verbosity("M_ERROR")
    sys.path[:0] = [TESTS, os.path.join(TESTS, "mpi")]
    for name in sys.argv[1:] or NETWORKS:
        path = os.path.join(TESTS, "fixtures", f"nest_{name}.json")
        with open(path, "w") as f:
            json.dump(importlib.import_module(NETWORKS[name]).fixture(nest), f)
        print("wrote", os.path.normpath(path))
