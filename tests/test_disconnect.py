"""Disconnect (PyNEST 3.10): by pairs of nodes, and a SynapseCollection's connections."""

import numpy as np
import pytest

import ranvier as rv


def network(threads=1):
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads})
    a = rv.Create("iaf_psc_alpha", 4)
    b = rv.Create("iaf_psc_alpha", 4)
    rv.Connect(a, b, "all_to_all", {"weight": rv.random.uniform(1.0, 2.0), "delay": 1.0})
    rv.Connect(a[:1], b[:1], "one_to_one", {"weight": 50.0, "delay": 2.0})  # a multapse
    return a, b


@pytest.mark.parametrize("threads", [1, 2])
def test_one_to_one_removes_one_connection_per_pair(threads):
    a, b = network(threads)
    before = rv.GetConnections(a, b)
    rv.Disconnect(a, b, "one_to_one", {"synapse_model": "static_synapse"})
    after = rv.GetConnections(a, b)
    assert len(after) == len(before) - 4
    pairs = list(zip(after.source, after.target))
    for s, t in zip(a.tolist(), b.tolist()):
        assert pairs.count((s, t)) == (1 if s == a[0].global_id else 0)  # the multapse's second stays
    assert rv.GetKernelStatus("num_connections") == len(after)


def test_collection_disconnect_removes_exactly_those_and_the_network_runs_on():
    a, b = network()
    conns = rv.GetConnections(a[:2], b)
    weight = np.asarray(conns.weight)
    heavy = conns[np.flatnonzero(weight > 1.5)]
    kept = conns[np.flatnonzero(weight <= 1.5)]
    heavy.disconnect()
    np.testing.assert_array_equal(np.sort(rv.GetConnections(a[:2], b).weight), np.sort(kept.weight))
    # the tables stay consistent through a simulation: a[0]'s spike reaches b over what is left
    gen = rv.Create("spike_generator", params={"spike_times": [1.0]})
    rv.Connect(gen, a[:1], syn_spec={"weight": 1e4})
    rv.Disconnect(rv.GetConnections(a[1:], b))
    mm = rv.Create("multimeter", params={"record_from": ["I_syn_ex"], "interval": 0.1})
    rv.Connect(mm, b)
    rv.Simulate(10.0)
    assert len(rv.GetConnections(a[1:], b)) == 0
    left = rv.GetConnections(a[:1], b)
    peak = {t: mm.events["I_syn_ex"][mm.events["senders"] == t].max() for t in b.tolist()}
    assert 0 < len(set(left.targets())) < len(b)  # some targets lost all of a[0]'s input
    # a[0]'s spikes reach each target through the weights left: currents in proportion to their sums
    weights, targets = np.atleast_1d(left.weight), np.atleast_1d(left.target)  # a scalar for one connection
    summed = np.array([weights[targets == t].sum() for t in b.tolist()])
    peaks = np.array([peak[t] for t in b.tolist()])
    scale = peaks.max() / summed[np.argmax(peaks)]
    np.testing.assert_allclose(peaks, scale * summed, rtol=1e-9, atol=1e-12)


def test_all_to_all_and_errors_name_the_missing_pair():
    a, b = network()
    rv.Disconnect(a[2:], b[2:], {"rule": "all_to_all"}, "static_synapse")
    assert len(rv.GetConnections(a[2:], b[2:])) == 0
    with pytest.raises(rv.BadParameterError, match=f"from node {a[2].global_id} to node {b[2].global_id}"):
        rv.Disconnect(a[2:3], b[2:3])
    with pytest.raises(rv.BadParameterError, match="rule"):
        rv.Disconnect(a, b, "fixed_indegree")


def test_rules_and_their_parameters_are_checked_by_the_rule_registry():
    a, b = network()
    before = len(rv.GetConnections(a, b))
    with pytest.raises(
        rv.BadParameterError,
        match=r"^Disconnect takes the rules all_to_all and one_to_one, got rule = 'fixed_indegree'$",
    ):
        rv.Disconnect(a, b, {"rule": "fixed_indegree", "indegree": 1})
    with pytest.raises(rv.BadParameterError, match=r"^one_to_one needs pre and post of equal size, got 4 and 3$"):
        rv.Disconnect(a, b[:3])
    with pytest.raises(rv.UnknownParameterError, match="rule all_to_all has no parameter p"):
        rv.Disconnect(a, b, {"rule": "all_to_all", "p": 0.5})
    with pytest.raises(rv.BadParameterError, match="conn_spec must be a rule name or a dict with 'rule'"):
        rv.Disconnect(a, b, {"synapse_model": "static_synapse"})
    with pytest.raises(rv.BadParameterError, match="unknown connection rule: rule = 3"):
        rv.Disconnect(a, b, {"rule": 3})
    assert len(rv.GetConnections(a, b)) == before  # a refused call removes nothing


def test_a_collection_names_its_connections_after_others_of_their_pair_are_removed():
    """Three connections of one pair: removing the first through its own handle leaves the handles
    of the others naming them (NEST's test_issue_3532), also for set; removing one twice does
    nothing more."""
    n = rv.Create("parrot_neuron", 2)
    for w in (1.0, 2.0, 3.0):
        rv.Connect(n[0], n[1], syn_spec={"weight": w})
    one, two, three = rv.GetConnections()
    rv.Disconnect(one)
    rv.Disconnect(three)
    assert rv.GetConnections().weight == 2.0
    two.set(weight=5.0)
    rv.Disconnect(one)
    assert rv.GetConnections().weight == 5.0 and two.weight == 5.0


def test_random_disconnects_of_multapses_leave_the_others():
    rng = np.random.default_rng(3)
    n = rv.Create("parrot_neuron", 6)
    pairs = [(s, t) for s in n.tolist() for t in n.tolist() for _ in range(3)]
    order = rng.permutation(len(pairs))
    rv.Connect([pairs[i][0] for i in order], [pairs[i][1] for i in order], "one_to_one")
    kept = []
    for conn in rv.GetConnections():
        if rng.random() < 0.6:
            rv.Disconnect(conn)
        else:
            kept.append((conn.source, conn.target))
    left = rv.GetConnections()
    assert sorted(kept) == sorted(zip(left.source, left.target)) and len(kept) < len(pairs)
