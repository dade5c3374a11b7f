"""A property-based fuzz test of the PyNEST API (Hypothesis): random sequences of Create,
Connect, set, SetKernelStatus, GetConnections and Simulate calls with valid and invalid values.
Invariants: a call either works or raises a RanvierError (a named error, never a crash, a bare
Python error or a hang), a failed call changes nothing (the node and connection counts), a
network loaded from a checkpoint continues as the one that saved it, and afterwards the kernel
still builds and simulates a network. The examples are derandomised, so
CI runs the same ones every time (issue 30)."""

import math
import pickle
import tempfile

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import ranvier as rv  # noqa: E402

MODELS = ["iaf_psc_alpha", "iaf_cond_exp", "aeif_cond_alpha", "hh_psc_alpha", "iaf_psc_exp_multisynapse",
          "parrot_neuron", "poisson_generator", "spike_generator", "dc_generator", "spike_recorder", "no_such_model"]  # fmt: skip
PARAMETERS = ["V_m", "C_m", "tau_m", "t_ref", "I_e", "V_th", "V_reset", "g_L", "tau_syn", "rate", "amplitude",
              "spike_times", "start", "stop", "gsl_error_tol", "no_such_parameter"]  # fmt: skip
NUMBERS = st.one_of(
    st.sampled_from([0.0, -1.0, 1.0, 1e-300, 1e300, math.inf, -math.inf, math.nan, 10**400, -70.0, 2.5]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**6), 10**6),
)
VALUES = st.one_of(NUMBERS, st.lists(NUMBERS, max_size=4), st.sampled_from(["text", None, True, [], {}]))
RULES = st.one_of(
    st.sampled_from(["all_to_all", "one_to_one", "no_such_rule"]),
    st.builds(lambda k, v: {"rule": "fixed_indegree", k: v}, st.sampled_from(["indegree", "outdegree"]), NUMBERS),
    st.builds(lambda p: {"rule": "pairwise_bernoulli", "p": p}, NUMBERS),
    st.builds(lambda n, a: {"rule": "fixed_total_number", "N": n, "allow_autapses": a}, NUMBERS, st.booleans()),
)
SYN_SPECS = st.one_of(
    st.just({}),
    st.fixed_dictionaries({"weight": NUMBERS}),
    st.fixed_dictionaries({"delay": NUMBERS}),
    st.fixed_dictionaries(
        {"synapse_model": st.sampled_from(["static_synapse", "stdp_synapse", "no_such_synapse"]), "weight": NUMBERS}
    ),  # fmt: skip
    st.fixed_dictionaries({"receptor_type": st.integers(-1, 4)}),
)
SETTINGS = st.fixed_dictionaries({st.sampled_from(["resolution", "rng_seed", "min_delay", "local_num_threads",
                                                   "spike_exchange", "no_such_setting"]): VALUES})  # fmt: skip


def counts():
    return rv.GetKernelStatus("network_size"), rv.GetKernelStatus("num_connections")


def everything():
    """Every node's status and every connection's, as bytes (equal values, equal bytes)."""
    n = rv.GetKernelStatus("network_size")
    nodes = rv.GetStatus(rv.NodeCollection(list(range(1, n + 1)))) if n else ()
    connections = rv.GetConnections()
    return pickle.dumps((nodes, connections.get() if len(connections) else {}, rv.GetKernelStatus("biological_time")))


def continues_from_checkpoint():
    with tempfile.TemporaryDirectory() as where:
        rv.SaveCheckpoint(where + "/ckpt")
        rv.Simulate(2.0)
        continued = everything()
        rv.LoadCheckpoint(where + "/ckpt")
        rv.Simulate(2.0)
        assert everything() == continued, "the loaded network did not continue as the saved one"


def node_collections():
    """Collections of the nodes made so far (all, and each Create call's)."""
    n = rv.GetKernelStatus("network_size")
    return [rv.NodeCollection(list(range(1, n + 1)))] + [rv.NodeCollection([k]) for k in range(1, n + 1, 3)]


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_random_calls_raise_named_errors_and_leave_the_kernel_usable(data):
    rv.ResetKernel()
    for _ in range(data.draw(st.integers(3, 10), label="calls")):
        kind = data.draw(
            st.sampled_from(["create", "connect", "set", "kernel", "simulate", "connections", "checkpoint"])
        )
        nodes = node_collections()
        before = counts()
        try:
            if kind == "create":
                n = data.draw(st.sampled_from([1, 3, 0, -1, 2.5, 10**12]))
                params = data.draw(st.dictionaries(st.sampled_from(PARAMETERS), VALUES, max_size=2))
                rv.Create(data.draw(st.sampled_from(MODELS)), n, params=params)
            elif kind == "connect" and rv.GetKernelStatus("network_size"):
                pre, post = data.draw(st.sampled_from(nodes)), data.draw(st.sampled_from(nodes))
                rv.Connect(pre, post, data.draw(RULES), data.draw(SYN_SPECS))
            elif kind == "set" and rv.GetKernelStatus("network_size"):
                target = data.draw(st.sampled_from(nodes))
                target.set({data.draw(st.sampled_from(PARAMETERS)): data.draw(VALUES)})
            elif kind == "kernel":
                rv.SetKernelStatus(data.draw(SETTINGS))
            elif kind == "simulate":
                rv.Simulate(data.draw(st.sampled_from([0.1, 1.0, 5.0, 0.0, -1.0, 0.05, math.nan, math.inf])))
            elif kind == "connections" and rv.GetKernelStatus("num_connections"):
                connections = rv.GetConnections()
                connections.set({data.draw(st.sampled_from(["weight", "delay", "U"])): data.draw(VALUES)})
            elif kind == "checkpoint":
                continues_from_checkpoint()
        except rv.RanvierError:
            if kind in ("create", "connect"):
                assert counts() == before, f"a failed {kind} left nodes or connections"
    # still usable
    rv.ResetKernel()
    cells = rv.Create("iaf_psc_alpha", 20, params={"I_e": 500.0})
    rv.Connect(cells, cells, {"rule": "fixed_indegree", "indegree": 3}, {"weight": 10.0})
    recorder = rv.Create("spike_recorder")
    rv.Connect(cells, recorder)
    rv.Simulate(50.0)
    assert recorder.n_events > 0
