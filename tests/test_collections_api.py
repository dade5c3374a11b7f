"""PyNEST 3.10's NodeCollection and SynapseCollection idioms that NEST's example scripts use."""

import json

import numpy as np
import pytest

import ranvier as nest


def test_synapse_collection_get_iterate_slice():
    pre, post = nest.Create("iaf_psc_alpha", 2), nest.Create("iaf_psc_alpha", 3)
    nest.Connect(pre, post, syn_spec={"weight": 2.5, "delay": 1.5})
    conns = nest.GetConnections()
    assert len(conns) == 6
    assert conns.get("weight").tolist() == [2.5] * 6
    assert conns[0].get("weight") == 2.5 and conns[0].get("source") == 1 and conns[-1].get("target") == 5
    assert [c.get("target") for c in conns[:3]] == [3, 4, 5]
    both = conns.get(["source", "delay"])
    assert both["source"].tolist() == [1, 1, 1, 2, 2, 2] and set(both["delay"]) == {1.5}
    assert set(conns.get()) == {"source", "target", "weight", "delay", "synapse_model"}
    assert json.loads(conns.get("weight", output="json")) == {"weight": [2.5] * 6}
    assert conns[1:3] == conns[1:3] and conns[1:3] != conns[2:4]
    with pytest.raises(nest.UnknownParameterError, match="receptor"):
        conns.get("receptor")
    conns[2:4].set(weight=1.0)  # SynapseCollection.set: tests/test_synapse_models.py
    assert nest.GetConnections().weight.tolist() == [2.5, 2.5, 1.0, 1.0, 2.5, 2.5]
    with pytest.raises(nest.KernelStateError, match="delay"):
        conns.set(delay=2.0)


def test_synapse_collection_attributes_get_and_set_the_connections():
    pre, post = nest.Create("iaf_psc_alpha", 2), nest.Create("iaf_psc_alpha", 2)
    nest.Connect(pre, post, "one_to_one", {"weight": 2.5})
    conns = nest.GetConnections()
    conns.weight = 5.0
    assert nest.GetConnections().weight.tolist() == [5.0, 5.0] and conns.weight.tolist() == [5.0, 5.0]
    conns[1].weight = 7.0
    assert nest.GetConnections().weight.tolist() == [5.0, 7.0]
    one = conns[0]
    assert one.source == 1 and type(one.source) is int and type(one.target) is int
    assert one.weight == 5.0 and one.synapse_model == "static_synapse"
    assert list(conns.sources()) == [1, 2] and list(conns.targets()) == [3, 4]
    with pytest.raises(nest.UnknownParameterError, match="foo"):
        conns.foo = 1
    with pytest.raises(nest.UnknownParameterError, match="foo"):
        conns.foo  # noqa: B018 (reading the attribute is what raises)
    with pytest.raises(nest.KernelStateError, match="delay"):
        conns.delay = 3.0
    with pytest.raises(nest.BadParameterError, match="weight = 'abc'"):
        conns.set(weight="abc")
    with pytest.raises(nest.BadParameterError, match="weight = True"):
        conns.weight = True
    with pytest.raises(nest.BadParameterError, match="weight"):
        conns.set(weight=[1.0, [2.0, 3.0]])
    now = nest.GetConnections()  # the failed assignments changed nothing
    assert now.weight.tolist() == [5.0, 7.0] and now.delay.tolist() == [1.0, 1.0]
    assert not hasattr(conns, "_nothing")


def test_set_takes_one_dict_per_node():
    n = nest.Create("iaf_psc_alpha", 2)
    n.set([{"V_m": -60.0}, {"V_m": -61.0, "I_e": 5.0}])
    assert n.V_m.tolist() == [-60.0, -61.0] and n.I_e.tolist() == [0.0, 5.0]
    nest.SetStatus(n, [{"I_e": 1.0}, {"I_e": 2.0}])
    assert n.I_e.tolist() == [1.0, 2.0]
    pg = nest.Create("poisson_generator", 2)
    nest.SetStatus(pg, ({"rate": 3.0}, {"rate": 4.0}))
    assert pg.rate.tolist() == [3.0, 4.0]
    with pytest.raises(nest.BadParameterError, match=r"one parameter dict per node \(2\), got 3"):
        n.set([{"I_e": 1.0}] * 3)
    with pytest.raises(nest.BadParameterError, match="C_m"):
        n.set([{"I_e": 1.0}, {"I_e": 2.0}], C_m=3.0)
    with pytest.raises(nest.BadParameterError, match="C_m = -1"):
        nest.SetStatus(n, [{"C_m": 100.0}, {"C_m": -1.0}])
    assert n.I_e.tolist() == [1.0, 2.0]


def test_create_with_params_as_second_argument():
    pg = nest.Create("poisson_generator", {"rate": 300.0})
    assert len(pg) == 1 and pg.rate == 300.0


def test_device_values_one_per_node():
    pg = nest.Create("poisson_generator", 2)
    pg.rate = [10.0, 20.0]
    assert pg.rate.tolist() == [10.0, 20.0]
    one = nest.Create("poisson_generator")
    one.set(rate=[5.0])
    assert one.rate == 5.0
    sg = nest.Create("spike_generator", 2, params={"spike_times": [[1.0, 2.0], [3.0]]})
    assert sg.get("spike_times") == [[1.0, 2.0], [3.0]]
    same = nest.Create("spike_generator", 2, params={"spike_times": [1.0, 2.0]})
    assert same.get("spike_times") == [[1.0, 2.0], [1.0, 2.0]]
    with pytest.raises(nest.BadParameterError, match="rate"):
        pg.rate = [1.0, 2.0, 3.0]


def test_hierarchical_events_key_and_json_output():
    n = nest.Create("iaf_psc_exp", params={"I_e": 400.0})
    sr = nest.Create("spike_recorder")
    nest.Connect(n, sr)
    nest.Simulate(60.0)
    assert sr.get("events", "times").tolist() == [27.8, 57.6]
    assert json.loads(n.get(["I_e", "C_m"], output="json")) == {"I_e": [400.0], "C_m": [250.0]}


def test_synapse_defaults_count_connections():
    n = nest.Create("iaf_psc_alpha", 4)
    nest.CopyModel("static_synapse", "excitatory", {"weight": 1.0})
    nest.Connect(n, n, {"rule": "fixed_indegree", "indegree": 2}, "excitatory")
    assert nest.GetDefaults("excitatory")["num_connections"] == 8
    assert nest.GetDefaults("static_synapse", "num_connections") == 0


def test_connect_returns_the_new_connections():
    pre, post = nest.Create("iaf_psc_alpha", 2), nest.Create("iaf_psc_alpha", 3)
    nest.Connect(pre, post, syn_spec={"weight": 1.0})
    assert nest.Connect(pre, post) is None
    new = nest.Connect(pre, post[1:], "one_to_one", {"weight": 7.0}, return_synapsecollection=True)
    assert len(new) == 2 and new.weight.tolist() == [7.0, 7.0]
    assert new.source.tolist() == [1, 2] and new.target.tolist() == [4, 5]
    stdp = nest.Connect(pre[:1], post[:1], syn_spec="stdp_synapse", return_synapsecollection=True)
    assert len(stdp) == 1 and stdp.synapse_model == "stdp_synapse" and stdp.weight == 1.0
    new.weight = 9.0  # it names the connections: set changes those two only
    assert sorted(nest.GetConnections(synapse_model="static_synapse").weight.tolist()) == [1.0] * 12 + [9.0, 9.0]
    assert len(nest.GetConnections()) == 15


def _weights_set_randomly(threads, parameter):
    nest.ResetKernel()
    nest.SetKernelStatus({"local_num_threads": threads, "rng_seed": 3})
    nodes = nest.Create("iaf_psc_alpha", 60)
    nest.Connect(nodes, nodes, {"rule": "fixed_indegree", "indegree": 30})  # multapses too
    nest.GetConnections().set(weight=parameter)
    c = nest.GetConnections()
    order = np.lexsort((c.weight, c.target, c.source))
    return c.source[order], c.target[order], c.weight[order]


def test_synapse_collection_set_draws_a_random_parameter_per_connection():
    """As NEST, set() takes a random Parameter; each connection's value is keyed by the
    connection (source, target, model, multapse index), not by its place in the collection or
    thread, so it is the same for any partition."""
    parameter = 2.0 * nest.random.normal(10.0, 2.0) + 1.0
    source, target, weight = _weights_set_randomly(1, parameter)
    assert len(weight) == 1800 and len(np.unique(weight)) == 1800
    assert abs(weight.mean() - 21.0) < 5 * 4.0 / np.sqrt(1800)
    assert abs(weight.std() / 4.0 - 1.0) < 0.1
    for threads in (2, 3):
        np.testing.assert_array_equal(_weights_set_randomly(threads, parameter)[2], weight)
    c = nest.GetConnections()
    c.weight = nest.random.uniform(0.0, 1.0)  # a second call draws anew
    again = nest.GetConnections().weight
    assert np.all((again >= 0.0) & (again < 1.0)) and not np.array_equal(np.sort(again), np.sort(weight))
    with pytest.raises(nest.BadParameterError, match="not an affine function"):
        c.set(weight=nest.math.exp(nest.random.normal(0.0, 1.0)))
