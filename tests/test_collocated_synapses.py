"""CollocatedSynapses (NEST's): one connection per synapse spec for each pair the rule chooses
once, each spec with its own random weights; the same for any number of threads."""

import numpy as np
import pytest
from ranvier.errors import BadParameterError

import ranvier as rv


def connect(threads, conn_spec, syn_spec):
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": 11})
    pre, post = rv.Create("iaf_psc_alpha", 30), rv.Create("iaf_psc_alpha", 20)
    rv.Connect(pre, post, conn_spec, syn_spec)
    c = rv.GetConnections()
    return {k: np.asarray(v) for k, v in c.get(["source", "target", "synapse_model", "weight", "delay"]).items()}


def by_model(got, model):
    keep = got["synapse_model"] == model
    order = np.lexsort([got["target"][keep], got["source"][keep]])
    return {k: v[keep][order] for k, v in got.items()}


@pytest.mark.parametrize(
    "conn_spec",
    [
        {"rule": "fixed_indegree", "indegree": 4},
        {"rule": "pairwise_bernoulli", "p": 0.2},
        {"rule": "fixed_total_number", "N": 50},
    ],
)
def test_every_spec_connects_the_same_pairs(conn_spec):
    specs = rv.CollocatedSynapses(
        {"weight": rv.random.normal(5.0, 1.0)},
        {"synapse_model": "stdp_synapse", "weight": rv.random.normal(5.0, 1.0), "delay": 2.0},
    )
    got = connect(1, conn_spec, specs)
    static, stdp = by_model(got, "static_synapse"), by_model(got, "stdp_synapse")
    assert len(static["source"]) > 20
    np.testing.assert_array_equal(static["source"], stdp["source"])
    np.testing.assert_array_equal(static["target"], stdp["target"])
    assert set(stdp["delay"]) == {2.0}
    assert not np.any(static["weight"] == stdp["weight"])  # each spec draws its own weights
    # the first spec is what a Connect of it alone makes
    alone = connect(1, conn_spec, specs.syn_specs[0])
    np.testing.assert_array_equal(by_model(alone, "static_synapse")["weight"], static["weight"])
    # and nothing depends on the threads
    for k, v in connect(3, conn_spec, specs).items():
        np.testing.assert_array_equal(np.sort(v), np.sort(got[k]))


def test_one_to_one_and_a_single_pair():
    n = rv.Create("iaf_psc_alpha")
    rv.Connect(n, n, syn_spec=rv.CollocatedSynapses({"weight": -2.0}, {"weight": 3.0}))
    assert rv.num_connections == 2 and rv.GetConnections().weight == [-2.0, 3.0]


def test_bad_groups_are_refused():
    with pytest.raises(BadParameterError, match="CollocatedSynapses"):
        rv.CollocatedSynapses()
    n = rv.Create("iaf_psc_alpha", 2)
    with pytest.raises(BadParameterError, match="SynapseCollection"):
        rv.Connect(n, n, syn_spec=rv.CollocatedSynapses({"weight": 1.0}), return_synapsecollection=True)
    rv.Connect(n, n, syn_spec=rv.CollocatedSynapses({"weight": 1.0}, {"weight": 2.0}))  # still usable
    assert rv.num_connections == 8
