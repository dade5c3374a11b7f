"""The PyNEST-style API: NodeCollection, parameters, models, devices, kernel status."""

import numpy as np
import pytest

import ranvier as rv


def test_node_collection_basics():
    a = rv.Create("iaf_psc_alpha", 10)
    b = rv.Create("iaf_psc_exp", 5)
    assert len(a) == 10 and a[0].global_id == 1 and b[-1].global_id == 15
    assert a[2:8:3].tolist() == [3, 6]
    assert [n.global_id for n in b] == [11, 12, 13, 14, 15]
    both = b + a[:2]
    assert both.tolist() == [1, 2, 11, 12, 13, 14, 15]
    assert 12 in both and 5 not in both
    assert a[:3] == rv.NodeCollection([1, 2, 3])
    assert "iaf_psc_alpha" in repr(a)


def test_get_and_set():
    pop = rv.Create("iaf_psc_alpha", 4, params={"I_e": 100.0, "V_m": np.array([-70.0, -65.0, -60.0, -58.0])})
    np.testing.assert_array_equal(pop.get("V_m"), [-70.0, -65.0, -60.0, -58.0])
    assert pop[1].get("V_m") == -65.0
    assert pop.I_e == (100.0,) * 4  # a tuple, as PyNEST gives several nodes' values
    pop.set(tau_m=12.0)
    pop.set({"C_m": np.arange(100.0, 104.0)})
    pop[0].V_th = -50.0
    assert pop.get(["tau_m", "V_th"])["V_th"][0] == -50.0
    assert pop.get("C_m") == (100.0, 101.0, 102.0, 103.0)
    rv.SetStatus(pop, {"E_L": -60.0})
    assert rv.GetStatus(pop[:2], "E_L") == (-60.0, -60.0)
    everything = pop[0].get()
    assert everything["model"] == "iaf_psc_alpha" and everything["global_id"] == 1
    assert everything["tau_syn_ex"] == 2.0


def test_random_parameters_are_partition_independent():
    values = []
    for threads in (1, 3):
        rv.ResetKernel()
        rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": 5})
        pop = rv.Create("iaf_psc_alpha", 5000, params={"V_m": rv.random.normal(-60.0, 4.0)})
        pop.set(I_e=rv.random.uniform(10.0, 20.0))
        values.append((np.asarray(pop.get("V_m")), np.asarray(pop.get("I_e"))))
    np.testing.assert_array_equal(values[0][0], values[1][0])
    np.testing.assert_array_equal(values[0][1], values[1][1])
    v, i = values[0]
    assert abs(v.mean() + 60.0) < 0.3 and abs(v.std() - 4.0) < 0.2
    assert i.min() >= 10.0 and i.max() < 20.0


def test_defaults_and_copies():
    assert rv.GetDefaults("iaf_psc_alpha", "C_m") == 250.0
    rv.CopyModel("iaf_psc_alpha", "fast", {"tau_m": 5.0})
    rv.SetDefaults("iaf_psc_exp", {"t_ref": 1.0})
    assert rv.Create("fast").get("tau_m") == 5.0
    assert rv.Create("iaf_psc_exp").get("t_ref") == 1.0
    assert "fast" in rv.Models() and "stdp_pl_synapse_hom" in rv.Models("synapses")
    rv.SetDefaults("static_synapse", {"weight": 3.0, "delay": 2.0})
    pre = rv.Create("iaf_psc_alpha")
    rv.Connect(pre, pre)
    c = rv.GetConnections(source=pre)
    assert c.weight == 3.0 and c.delay == 2.0 and c.synapse_model == "static_synapse"


def test_kernel_status():
    rv.SetKernelStatus({"resolution": 0.05, "local_num_threads": 2, "rng_seed": 42})
    assert rv.resolution == 0.05
    assert rv.GetKernelStatus("local_num_threads") == 2
    rv.rng_seed = 43
    assert rv.GetKernelStatus("rng_seed") == 43
    pop = rv.Create("iaf_psc_alpha", 100)
    rv.Connect(pop, pop, {"rule": "fixed_indegree", "indegree": 10}, {"delay": 1.0})
    rv.Simulate(10.0)
    s = rv.GetKernelStatus()
    for key in (
        "time_create",
        "time_connect",
        "time_prepare",
        "time_simulate",
        "time_deliver",
        "time_update",
        "time_collocate",
        "rss_mib",
        "peak_rss_mib",
        "bytes_per_synapse",
    ):
        assert s[key] >= 0, key
    assert s["num_connections"] == 1000 and s["min_delay"] == 1.0
    assert s["biological_time"] == pytest.approx(10.0)
    assert 4 <= s["bytes_per_synapse"] < 40
    assert s["peak_rss_mib"] >= s["rss_mib"] > 0


@pytest.mark.parametrize(
    "weight, delay, per_connection_bytes",
    [
        (2.0, 1.5, 4),  # target only
        (rv.random.normal(2.0, 0.5), 1.5, 4 + 8),  # + weight
        (2.0, rv.random.uniform(1.0, 3.0), 4 + 1),  # + delay, one byte below 256 steps
        (2.0, rv.random.uniform(1.0, 30.0), 4 + 2),  # + delay, two bytes up to 300 steps
    ],
)
def test_values_shared_by_a_source_are_stored_once(weight, delay, per_connection_bytes):
    pop = rv.Create("iaf_psc_alpha", 400)
    rv.Connect(pop, pop, {"rule": "fixed_indegree", "indegree": 100}, {"weight": weight, "delay": delay})
    rv.Simulate(1.0)
    run_overhead = 8 / 100  # per source: offset and gid over ~100 connections (one weight and delay for the table)
    assert rv.GetKernelStatus("bytes_per_static_synapse") == pytest.approx(per_connection_bytes + run_overhead, abs=0.1)
    c = rv.GetConnections(pop[:5])
    # (a parameter's == gives a parameter, as in PyNEST: the constants are told apart by type)
    assert len(set(c.weight)) == (1 if isinstance(weight, float) else len(c.weight))
    assert len(set(c.delay)) == 1 if isinstance(delay, float) else len(set(c.delay)) > 5


def test_recorders_window_and_multimeter():
    n = rv.Create("iaf_psc_alpha", 2, params={"I_e": 600.0})
    sr = rv.Create("spike_recorder", params={"start": 20.0, "stop": 60.0})
    rv.Connect(n, sr)
    mm = rv.Create("multimeter", params={"interval": 2.0, "record_from": ["V_m", "I_syn_ex"]})
    rv.Connect(mm, n[1])
    rv.Simulate(100.0)
    t = sr.events["times"]
    assert len(t) > 2 and t.min() > 20.0 and t.max() <= 60.0
    assert sr.n_events == len(t) and np.all(np.diff(t) >= 0)
    ev = mm.events
    np.testing.assert_allclose(
        ev["times"], np.arange(2.0, 98.01, 2.0)
    )  # as NEST: the sample at 100 ms comes with the next Run
    assert set(ev) == {"senders", "times", "V_m", "I_syn_ex"} and np.all(ev["senders"] == 2)


def test_spike_generator_weights_and_positions():
    sg = rv.Create("spike_generator", params={"spike_times": [1.0, 2.0], "spike_weights": [10.0, -10.0]})
    n = rv.Create("iaf_psc_exp")
    rv.Connect(sg, n)
    mm = rv.Create("multimeter", params={"interval": 0.1, "record_from": ["I_syn_ex", "I_syn_in"]})
    rv.Connect(mm, n)
    rv.Simulate(5.0)
    ev = mm.events
    assert ev["I_syn_ex"].max() == pytest.approx(10.0) and ev["I_syn_in"].min() == pytest.approx(-10.0)
    grid = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([3, 2]))
    assert len(grid) == 6 and np.shape(rv.GetPosition(grid)) == (6, 2)


def test_model_id_numbers_copies_after_their_originals():
    """NEST's model_id: the kernel's models first, CopyModel's copies after them, whatever the name."""
    rv.ResetKernel()
    rv.CopyModel("iaf_psc_alpha", "aaa_copy")
    original, copy = rv.Create("iaf_psc_alpha"), rv.Create("aaa_copy")
    assert copy.model_id > original.model_id
    assert copy.model_id == rv.GetDefaults("aaa_copy")["model_id"]
    assert (original + copy).get("model_id") == (original.model_id, copy.model_id)


def test_create_takes_the_first_values_of_a_longer_array_as_nest_does():
    rv.ResetKernel()
    with pytest.warns(UserWarning, match="V_m has 5 values for 3 nodes of iaf_psc_alpha: the first 3"):
        cells = rv.Create("iaf_psc_alpha", 3, params={"V_m": np.array([-60.0, -61.0, -62.0, -63.0, -64.0])})
    assert cells.V_m == (-60.0, -61.0, -62.0)
    with pytest.raises(rv.BadParameterError, match="V_m"):
        rv.Create("iaf_psc_alpha", 3, params={"V_m": [-60.0, -61.0]})
    generator = rv.Create("spike_generator", params={"spike_times": [1.0, 2.0, 3.0]})  # a list parameter stays whole
    assert list(generator.spike_times) == [1.0, 2.0, 3.0]
