"""PyNEST 3.10's NodeCollection and SynapseCollection idioms that NEST's example scripts use."""

import json
import re

import numpy as np
import pytest

import ranvier as nest


def test_synapse_collection_get_iterate_slice():
    pre, post = nest.Create("iaf_psc_alpha", 2), nest.Create("iaf_psc_alpha", 3)
    nest.Connect(pre, post, syn_spec={"weight": 2.5, "delay": 1.5})
    conns = nest.GetConnections()
    assert len(conns) == 6
    assert conns.get("weight") == [2.5] * 6  # a list, as PyNEST gives connections' values
    assert conns[0].get("weight") == 2.5 and conns[0].get("source") == 1 and conns[-1].get("target") == 5
    assert [c.get("target") for c in conns[:3]] == [3, 4, 5]
    both = conns.get(["source", "delay"])
    assert both["source"] == [1, 1, 1, 2, 2, 2] and set(both["delay"]) == {1.5}
    fixed = {"source", "target", "weight", "delay", "synapse_model", "receptor", "target_thread"}
    assert set(conns.get()) == fixed | {"port", "synapse_id"}
    assert json.loads(conns.get("weight", output="json")) == [2.5] * 6
    assert json.loads(conns.get(["weight"], output="json")) == {"weight": [2.5] * 6}
    assert conns[1:3] == conns[1:3] and conns[1:3] != conns[2:4]
    # NEST's port: a connection's position among its thread's of its model (by source, then target)
    assert conns.get("port") == [0, 1, 2, 3, 4, 5]
    assert conns.get("synapse_id") == [nest.GetDefaults("static_synapse", "synapse_modelid")] * 6
    with pytest.raises(nest.UnknownParameterError, match="port"):
        conns.set(port=3)
    conns[2:4].set(weight=1.0)  # SynapseCollection.set: tests/test_synapse_models.py
    assert nest.GetConnections().weight == [2.5, 2.5, 1.0, 1.0, 2.5, 2.5]
    conns.set(delay=2.0)
    assert set(nest.GetConnections().delay) == {2.0}


def test_synapse_collection_attributes_get_and_set_the_connections():
    pre, post = nest.Create("iaf_psc_alpha", 2), nest.Create("iaf_psc_alpha", 2)
    nest.Connect(pre, post, "one_to_one", {"weight": 2.5})
    conns = nest.GetConnections()
    conns.weight = 5.0
    assert nest.GetConnections().weight == [5.0, 5.0] and conns.weight == [5.0, 5.0]
    conns[1].weight = 7.0
    assert nest.GetConnections().weight == [5.0, 7.0]
    one = conns[0]
    assert one.source == 1 and type(one.source) is int and type(one.target) is int
    assert one.weight == 5.0 and one.synapse_model == "static_synapse"
    assert list(conns.sources()) == [1, 2] and list(conns.targets()) == [3, 4]
    with pytest.raises(nest.UnknownParameterError, match="foo"):
        conns.foo = 1
    with pytest.raises(nest.UnknownParameterError, match="foo"):
        conns.foo  # noqa: B018 (reading the attribute is what raises)
    conns.delay = 3.0
    assert set(conns.delay) == {3.0}
    with pytest.raises(nest.BadParameterError, match="weight = 'abc'"):
        conns.set(weight="abc")
    with pytest.raises(nest.BadParameterError, match="weight = True"):
        conns.weight = True
    with pytest.raises(nest.BadParameterError, match="weight"):
        conns.set(weight=[1.0, [2.0, 3.0]])
    now = nest.GetConnections()  # the failed assignments changed nothing
    assert now.weight == [5.0, 7.0] and now.delay == [3.0, 3.0]
    assert not hasattr(conns, "_nothing")


def test_set_takes_one_dict_per_node():
    n = nest.Create("iaf_psc_alpha", 2)
    n.set([{"V_m": -60.0}, {"V_m": -61.0, "I_e": 5.0}])
    assert n.V_m == (-60.0, -61.0) and n.I_e == (0.0, 5.0)
    nest.SetStatus(n, [{"I_e": 1.0}, {"I_e": 2.0}])
    assert n.I_e == (1.0, 2.0)
    pg = nest.Create("poisson_generator", 2)
    nest.SetStatus(pg, ({"rate": 3.0}, {"rate": 4.0}))
    assert pg.rate == (3.0, 4.0)
    with pytest.raises(nest.BadParameterError, match=r"one parameter dict per node \(2\), got 3"):
        n.set([{"I_e": 1.0}] * 3)
    with pytest.raises(nest.BadParameterError, match="C_m"):
        n.set([{"I_e": 1.0}, {"I_e": 2.0}], C_m=3.0)
    with pytest.raises(nest.BadParameterError, match="C_m = -1"):
        nest.SetStatus(n, [{"C_m": 100.0}, {"C_m": -1.0}])
    assert n.I_e == (1.0, 2.0)


def test_create_with_params_as_second_argument():
    pg = nest.Create("poisson_generator", {"rate": 300.0})
    assert len(pg) == 1 and pg.rate == 300.0


def test_device_values_one_per_node():
    pg = nest.Create("poisson_generator", 2)
    pg.rate = [10.0, 20.0]
    assert pg.rate == (10.0, 20.0)
    one = nest.Create("poisson_generator")
    one.set(rate=[5.0])
    assert one.rate == 5.0
    sg = nest.Create("spike_generator", 2, params={"spike_times": [[1.0, 2.0], [3.0]]})
    assert sg.get("spike_times") == ([1.0, 2.0], [3.0])
    same = nest.Create("spike_generator", 2, params={"spike_times": [1.0, 2.0]})
    assert same.get("spike_times") == ([1.0, 2.0], [1.0, 2.0])
    with pytest.raises(nest.BadParameterError, match="rate"):
        pg.rate = [1.0, 2.0, 3.0]


def test_hierarchical_events_key_and_json_output():
    n = nest.Create("iaf_psc_exp", params={"I_e": 400.0})
    sr = nest.Create("spike_recorder")
    nest.Connect(n, sr)
    nest.Simulate(60.0)
    assert sr.get("events", "times").tolist() == [27.8, 57.6]
    assert json.loads(n.get(["I_e", "C_m"], output="json")) == {"I_e": 400.0, "C_m": 250.0}
    assert json.loads(sr.get("events", "times", output="json")) == [27.8, 57.6]


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
    assert len(new) == 2 and new.weight == [7.0, 7.0]
    assert new.source == [1, 2] and new.target == [4, 5]
    stdp = nest.Connect(pre[:1], post[:1], syn_spec="stdp_synapse", return_synapsecollection=True)
    assert len(stdp) == 1 and stdp.synapse_model == "stdp_synapse" and stdp.weight == 1.0
    new.weight = 9.0  # it names the connections: set changes those two only
    assert sorted(nest.GetConnections(synapse_model="static_synapse").weight) == [1.0] * 12 + [9.0, 9.0]
    assert len(nest.GetConnections()) == 15


def _weights_set_randomly(threads, parameter):
    nest.ResetKernel()
    nest.SetKernelStatus({"local_num_threads": threads, "rng_seed": 3})
    nodes = nest.Create("iaf_psc_alpha", 60)
    nest.Connect(nodes, nodes, {"rule": "fixed_indegree", "indegree": 30})  # multapses too
    nest.GetConnections().set(weight=parameter)
    c = nest.GetConnections()
    source, target, weight = np.asarray(c.source), np.asarray(c.target), np.asarray(c.weight)
    order = np.lexsort((weight, target, source))
    return source[order], target[order], weight[order]


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
    again = np.asarray(nest.GetConnections().weight)
    assert np.all((again >= 0.0) & (again < 1.0)) and not np.array_equal(np.sort(again), np.sort(weight))
    with pytest.raises(nest.BadParameterError, match="not an affine function"):
        c.set(weight=nest.math.exp(nest.random.normal(0.0, 1.0)))


def test_node_collection_get_gives_values_as_pynest_does():
    """One node: its value; several: a tuple; a list of names: a dict; no names: every
    parameter, None where a node's model lacks it; an unknown name: a KeyError."""
    a = nest.Create("iaf_psc_alpha", 2, params={"V_m": [-77.0, -88.0]})
    b = nest.Create("iaf_psc_delta")
    assert a.V_m == (-77.0, -88.0) and a[1].V_m == -88.0 and b.get("C_m") == 250.0
    assert a.get(["V_m", "C_m"]) == {"V_m": (-77.0, -88.0), "C_m": (250.0, 250.0)}
    both = (a + b).get()
    assert both["V_m"] == (-77.0, -88.0, -70.0) and both["tau_syn_ex"] == (2.0, 2.0, None)
    assert both["model"] == ("iaf_psc_alpha", "iaf_psc_alpha", "iaf_psc_delta") and both["global_id"] == (1, 2, 3)
    with pytest.raises(KeyError, match="no parameter foo"):
        a.foo  # noqa: B018 (reading the attribute is what raises)
    assert json.loads(a.get("V_m", output="json")) == [-77.0, -88.0]
    assert json.loads(b.get(["V_m"], output="json")) == {"V_m": -70.0}
    sr = nest.Create("spike_recorder", 2)
    times = sr.get("events", "times")
    assert isinstance(times, list) and len(times) == 2 and all(t.size == 0 for t in times)
    assert set(sr[0].get("events", ["senders", "times"])) == {"senders", "times"}


def test_get_status_has_nest_3_9s_layout():
    n = nest.Create("iaf_psc_alpha", 2)
    assert nest.GetStatus(n, "V_m") == (-70.0, -70.0) and nest.GetStatus(n[0], "V_m") == (-70.0,)
    assert nest.GetStatus(n, ["V_m", "C_m"]) == ((-70.0, 250.0), (-70.0, 250.0))
    assert [d["global_id"] for d in nest.GetStatus(n)] == [1, 2]
    assert json.loads(nest.GetStatus(n, "V_m", output="json")) == [-70.0, -70.0]
    nest.Connect(n, n, "one_to_one")
    assert nest.GetStatus(nest.GetConnections(), "weight") == [1.0, 1.0]


def test_node_collection_indexing_as_pynest():
    nc = nest.Create("iaf_psc_alpha", 10)
    assert nc[-4:].tolist() == [7, 8, 9, 10] and nc[1:6:3].tolist() == [2, 5] and nc[-10].tolist() == [1]
    assert nc[[1, 4]].tolist() == [2, 5] and nc[np.array([True] * 5 + [False] * 5)].tolist() == [1, 2, 3, 4, 5]
    assert len(nc[[]]) == 0
    for key, error, text in [
        (slice(10, None), IndexError, "start 10"),
        (slice(None, 11), IndexError, "stop 11"),
        (slice(None, None, -3), IndexError, "step = -3"),
        (slice(5, 5), nest.BadParameterError, "start = 5, stop = 5"),
        (10, IndexError, "index 10"),
        ([6, 5], nest.BadParameterError, "ascending, got [6, 5]"),
        ([2, 2], ValueError, "distinct, got [2, 2]"),
        ([2, 5.5], TypeError, "integers or bools"),
        (np.array([[2, 4], [6, 8]]), TypeError, "one-dimensional"),
        ([True] * 4, IndexError, "needs 10 bools, got 4"),
        (1.0, IndexError, "got 1.0"),
    ]:
        with pytest.raises(error, match=re.escape(text)):
            nc[key]
    with pytest.raises(nest.BadParameterError, match="ascending"):
        nest.NodeCollection([3, 2])
    with pytest.raises(nest.BadParameterError, match="distinct"):
        nest.NodeCollection([3, 3])


def test_sums_and_iterables_of_node_collections():
    a, b = nest.Create("iaf_psc_alpha", 3), nest.Create("iaf_psc_exp", 2)
    assert sum([a, b]) == a + b and 0 + a == a and a + 0 == a
    assert nest.NodeCollection(n.global_id for n in a + b if n.global_id % 2) == nest.NodeCollection([1, 3, 5])
    with pytest.raises(TypeError, match="int"):
        a + 1


def test_to_array_lists_the_ids_by_rank_and_thread():
    nest.local_num_threads = 2
    nc = nest.Create("parrot_neuron", 10)[::3]
    assert nc._to_array() == {"All": [1, 4, 7, 10]} and nc._to_array("rank") == {"Rank 0": [1, 4, 7, 10]}
    by_thread = nc._to_array("thread")
    assert sorted(sum(by_thread.values(), [])) == [1, 4, 7, 10]
    for thread, ids in by_thread.items():
        assert all(t == thread for t in nest.NodeCollection(ids).get("thread"))
    with pytest.raises(nest.BadParameterError, match="selection"):
        nc._to_array("vp")


def test_nodes_list_their_recordables():
    multi = nest.Create("iaf_psc_exp_multisynapse", 2, params={"tau_syn": [1.0, 2.0, 3.0]})
    assert multi[0].recordables == ["I_syn", "I_syn_1", "I_syn_2", "I_syn_3", "V_m"]
    assert multi.recordables == (multi[0].recordables,) * 2
    assert nest.Create("dc_generator").recordables == ["I"]
    with pytest.raises(KeyError, match="poisson_generator has no parameter recordables"):
        nest.Create("poisson_generator").recordables  # noqa: B018 (reading the attribute is what raises)


def test_get_connections_lists_them_by_synapse_model_first():
    n = nest.Create("iaf_psc_alpha", 4)
    nest.Connect(n[2:], n[:2], "one_to_one", "stdp_synapse")
    nest.Connect(n[:2], n[2:], "one_to_one")
    conns = nest.GetConnections()
    assert conns.synapse_model == ["static_synapse"] * 2 + ["stdp_synapse"] * 2
    assert conns.source == [1, 2, 3, 4] and conns.target == [3, 4, 1, 2]
    conns[2].set(weight=5.0)  # the collection still names each connection
    assert nest.GetConnections().weight == [1.0, 1.0, 5.0, 1.0]


def test_get_takes_any_iterable_of_names():
    params = {"rate": 10.0, "start": 1.0}
    pg = nest.Create("poisson_generator", params=params)
    assert pg.get(params) == pg.get(params.keys()) == params
    with pytest.raises(TypeError, match="iterable of them"):
        pg.get(3)
    nest.CopyModel("static_synapse", "twice")
    with pytest.raises(nest.NESTErrors.NewModelNameExists, match="unused"):
        nest.CopyModel("static_synapse", "twice")


def test_synapse_collection_prints_pynests_table():
    """The layout NEST 3.10 prints (run there with these connections): weights and delays to four
    significant digits, the model column as wide as its longest name."""
    a, b = nest.Create("iaf_psc_alpha", 2), nest.Create("iaf_psc_alpha", 3)
    assert str(nest.GetConnections()) == "The synapse collection does not contain any connections."
    nest.Connect(a, b[1], syn_spec={"weight": [[1.0, 12.5]], "delay": [[1.5, 10.25]]})
    nest.Connect(a, b[:2], syn_spec={"synapse_model": "stdp_synapse", "weight": [[123.456, -2.0], [1e-5, 123456.0]]})
    assert str(nest.GetConnections()) == (
        " source   target   synapse model   weight   delay \n"
        "-------- -------- --------------- -------- -------\n"
        "      1        4  static_synapse    1.000   1.500\n"
        "      2        4  static_synapse    12.50   10.30\n"
        "      1        3    stdp_synapse    123.5   1.000\n"
        "      1        4    stdp_synapse 1.000e-05   1.000\n"
        "      2        3    stdp_synapse   -2.000   1.000\n"
        "      2        4    stdp_synapse 1.235e+05   1.000"
    )
    nest.ResetKernel()
    n = nest.Create("iaf_psc_alpha", 35)
    nest.Connect(n, n, "one_to_one", {"synapse_model": "stdp_pl_synapse_hom", "weight": 2.0})
    lines = str(nest.GetConnections()).splitlines()
    assert lines[0] == " source   target     synapse model     weight   delay "
    assert len(lines) == 33 and lines[2].endswith("1 stdp_pl_synapse_hom    2.000   1.000")  # first 15, last 15
    assert lines[17] == "     ⋮        ⋮                   ⋮        ⋮       ⋮ " and lines[-1].startswith(
        "     35       35"
    )


def test_parameters_a_connections_model_lacks_are_none():
    n = nest.Create("iaf_psc_alpha", 2)
    nest.Connect(n, n, "one_to_one")
    nest.Connect(n, n, "one_to_one", {"synapse_model": "stdp_synapse", "alpha": 2.0})
    assert nest.GetConnections().get("alpha") == [None, None, 2.0, 2.0]


def test_a_list_of_dicts_may_leave_out_names_and_name_no_unknown_one():
    n = nest.Create("iaf_psc_alpha", 2)
    nest.Connect(n, n)
    conns = nest.GetConnections()
    conns.set([{"weight": 2.0}, {"delay": 3.0}, {"weight": 4.0, "delay": 2.0}, {}])
    assert conns.get("weight") == [2.0, 1.0, 4.0, 1.0] and conns.get("delay") == [1.0, 3.0, 2.0, 1.0]
    with pytest.raises(nest.UnknownParameterError, match="foo"):
        conns.set([{"foo": 1.0}, {}, {}, {}])


def test_values_for_another_number_of_nodes_are_an_index_error():
    """PyNEST raises IndexError; Ranvier's error is also a BadParameterError."""
    n = nest.Create("iaf_psc_alpha", 10)
    for attempt in (lambda: n.set(V_reset=[-85.0] * 5), lambda: nest.Create("iaf_psc_alpha", 3, {"V_m": [-50.0]})):
        with pytest.raises(IndexError, match="one value per node"):
            attempt()
    with pytest.raises(nest.WrongCountError, match="one parameter dict per node"):
        n.set([{"V_m": -60.0}] * 3)


def test_a_multimeter_recording_nothing_records_no_events():
    mm = nest.Create("multimeter", params={"record_from": []})
    nest.Connect(mm, nest.Create("iaf_psc_alpha"))
    nest.Simulate(10.0)
    assert len(mm.events["senders"]) == 0 and len(mm.events["times"]) == 0


def test_get_defaults_of_a_key_that_is_no_name_is_a_key_error():
    with pytest.raises(KeyError, match="no parameter 42"):
        nest.GetDefaults("iaf_psc_alpha", 42)
    assert nest.GetDefaults("iaf_psc_alpha", ("V_m",) * 3) == [-70.0] * 3


def test_defaults_and_kernel_status_as_json():
    assert json.loads(nest.GetDefaults("iaf_psc_alpha", output="json"))["C_m"] == 250.0
    assert json.loads(nest.GetDefaults("stdp_synapse", "alpha", output="json")) == 1.0
    assert json.loads(nest.to_json(nest.kernel_status))["resolution"] == 0.1
    with pytest.raises(nest.BadParameterError, match="output"):
        nest.GetDefaults("iaf_psc_alpha", output="yaml")


def test_thread_local_ids_count_the_nodes_of_each_virtual_process():
    """As NEST 3.10 shows them after a Simulate (run there): a node's place among the nodes of its
    virtual process in id order, a device (on every one, shown by its vp 0 instance) among them."""
    nest.local_num_threads = 2
    a = nest.Create("iaf_psc_alpha", 3)
    recorder = nest.Create("spike_recorder")
    b = nest.Create("parrot_neuron", 3)
    generator = nest.Create("poisson_generator")
    nest.Simulate(1.0)
    assert a.thread_local_id == (0, 0, 1) and recorder.thread_local_id == 1
    assert b.thread_local_id == (3, 2, 4) and generator.thread_local_id == 3
    assert a.get()["thread_local_id"] == (0, 0, 1)


def test_consecutive_ids_are_kept_as_first_and_count():
    """Create's collections, and their slices and sums while consecutive, hold no array of ids
    (one rank of a large machine must not hold its populations' ids); others keep their array,
    and the two kinds compare and hash by their ids."""
    a = nest.Create("iaf_psc_alpha", 100)
    b = nest.Create("iaf_psc_alpha", 50)
    assert a._array is None and (a + b)._array is None and (a[10:20] + a[20:30])._array is None
    assert (b + a) == nest.NodeCollection(list(range(1, 151)))
    assert a[::2]._array is not None and a[::2].tolist() == list(range(1, 101, 2))
    assert (a[:3] + a[5:7])._array is not None and (a[:3] + a[5:7]).tolist() == [1, 2, 3, 6, 7]
    assert nest.NodeCollection([4, 5, 6]) == a[3:6] and hash(nest.NodeCollection([4, 5, 6])) == hash(a[3:6])
    assert a[-1] == nest.NodeCollection([100]) and 100 in a and 101 not in a and a.index(42) == 41
    assert [n.global_id for n in a[:3]] == [1, 2, 3] and len(a + b) == 150


def test_the_kernel_connects_a_range_as_the_array_of_its_ids():
    from ranvier import network

    def connections(ids):
        nest.ResetKernel()
        nest.Create("iaf_psc_alpha", 300)
        network._connect_ids(ids, ids, {"rule": "fixed_indegree", "indegree": 20}, {"weight": 1.5})
        c = nest.GetConnections()
        return sorted(zip(c.source, c.target))

    by_range = connections(range(51, 251))
    assert len(by_range) == 200 * 20
    assert by_range == connections(np.arange(51, 251, dtype=np.uint32))
