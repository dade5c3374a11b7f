"""Astrocytes (NEST's astrocyte_lr_1994), the neurons they drive (aeif_cond_alpha_astro) through
sic_connection, and TripartiteConnect: every recordable of a network of both is NEST 3.10's to
the bit (tests/mpi/astrocyte_network.py, fixture by benchmarks/peers/nest_network_fixtures.py
astrocytes), also for any threads and processes; the third-factor rule's pools and pairings
follow NEST's definitions and are the same for any partition; errors are NEST's."""

import json
import pathlib
import sys

import numpy as np
import pytest
from mpi_launch import HAVE_MPI, mpirun
from ranvier.errors import BadParameterError, IllegalConnectionError, UnknownParameterError

import ranvier as rv

sys.path.insert(0, str(pathlib.Path(__file__).parent / "mpi"))
import astrocyte_network  # noqa: E402

NEST = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_astrocytes.json").read_text())
PAIRWISE = {"rule": "pairwise_bernoulli", "p": 1.0}
THIRD = "third_factor_bernoulli_with_pool"


@pytest.fixture(autouse=True)
def fresh_kernel():
    rv.ResetKernel()
    yield
    rv.ResetKernel()


def test_network_is_nest_s_to_the_bit():
    got = astrocyte_network.run(rv)
    assert got.keys() == NEST.keys()
    for key in NEST:
        if key != "spikes.times":
            assert got[key] == NEST[key], key
    # NEST shows a spike's time as its tics times 0.001 ms (125.10000000000001), Ranvier the
    # nearest double to it (125.1)
    np.testing.assert_allclose(got["spikes.times"], NEST["spikes.times"], rtol=0, atol=1e-12)
    assert len(got["spikes.times"]) > 20 and max(got["I_SIC"]) > 10.0 and max(got["IP3"]) > 0.5


def test_threads_give_identical_networks():
    assert astrocyte_network.run(rv, 3) == astrocyte_network.run(rv)
    for pool in ("random", "block"):
        assert astrocyte_network.tripartite(rv, 3, pool) == astrocyte_network.tripartite(rv, 1, pool)


@pytest.mark.skipif(not HAVE_MPI, reason="needs MPI")
def test_processes_give_identical_networks():
    reference = {
        case: astrocyte_network.run(rv) if case == "network" else astrocyte_network.tripartite(rv, 1, case)
        for case in ("network", "random")
    }
    for n, threads in ((2, 1), (3, 2)):
        for case, expected in reference.items():
            assert json.loads(mpirun(n, "astrocyte_network.py", case, threads)) == expected, (case, n)


def test_slow_inward_current_arrives_after_its_delay():
    """An astrocyte whose calcium is above SIC_th from the start: its current reaches each neuron
    the connection's delay after the step it was made in, times the weight."""
    astrocyte = rv.Create("astrocyte_lr_1994", params={"Ca_astro": 0.23})
    neurons = rv.Create("aeif_cond_alpha_astro", 2)
    for neuron, weight, delay in ((neurons[0], 1.0, 1.0), (neurons[1], 2.0, 2.3)):
        rv.Connect(astrocyte, neuron, syn_spec={"synapse_model": "sic_connection", "weight": weight, "delay": delay})
    mm = rv.Create("multimeter", params={"interval": 0.1, "record_from": ["I_SIC"]})
    ca = rv.Create("multimeter", params={"interval": 0.1, "record_from": ["Ca_astro"]})
    rv.Connect(mm, neurons)
    rv.Connect(ca, astrocyte)
    rv.Simulate(10.0)
    calcium = ca.events["Ca_astro"]
    made = np.where((calcium - 0.19669) * 1000.0 > 1.0, np.log((calcium - 0.19669) * 1000.0), 0.0)
    for neuron, weight, steps in ((neurons[0], 1.0, 10), (neurons[1], 2.0, 23)):
        got = mm.events["I_SIC"][mm.events["senders"] == neuron.global_id]
        assert np.all(got[:steps] == 0.0)
        np.testing.assert_allclose(got[steps:], weight * made[:-steps], rtol=1e-15)


def test_defaults_and_checks_are_nest_s():
    d = rv.GetDefaults("astrocyte_lr_1994")
    assert (d["Ca_astro"], d["IP3"], d["h_IP3R"], d["SIC_th"], d["tau_IP3"]) == (0.073, 0.16, 0.793, 0.19669, 7142.0)
    assert d["recordables"] == ["Ca_astro", "IP3", "h_IP3R"]
    assert "I_SIC" in rv.GetDefaults("aeif_cond_alpha_astro")["recordables"]
    assert rv.GetDefaults("sic_connection")["delay"] == 1.0
    for params, message in (
        ({"Ca_tot": 0.0}, "Ca_tot must be > 0"),
        ({"k_IP3R": -1.0}, "k_IP3R must be >= 0"),
        ({"h_IP3R": 1.5}, r"h_IP3R must be in \[0, 1\]"),
        ({"IP3": -0.1}, "IP3 must be >= 0"),
    ):
        with pytest.raises(BadParameterError, match=message):
            rv.Create("astrocyte_lr_1994", params=params)


def test_only_astrocytes_send_slow_inward_currents_and_only_astro_neurons_take_them():
    sic = {"synapse_model": "sic_connection"}
    kinds = ("astrocyte_lr_1994", "aeif_cond_alpha_astro", "iaf_psc_exp")
    for source in kinds:
        for target in kinds:
            pre, post = rv.Create(source), rv.Create(target)
            if (source, target) == ("astrocyte_lr_1994", "aeif_cond_alpha_astro"):
                rv.Connect(pre, post, syn_spec=sic)
            else:
                with pytest.raises(IllegalConnectionError, match="slow inward current"):
                    rv.Connect(pre, post, syn_spec=sic)
    with pytest.raises(IllegalConnectionError, match="does not support spike output"):  # it never spikes
        rv.Connect(rv.Create("astrocyte_lr_1994"), rv.Create("iaf_psc_alpha"))


def test_an_astrocyte_refuses_spikes_of_negative_weight_when_they_arrive():
    astrocyte = rv.Create("astrocyte_lr_1994")
    sg = rv.Create("spike_generator", params={"spike_times": [2.0]})
    rv.Connect(sg, astrocyte, syn_spec={"weight": -1.0})
    with pytest.raises(BadParameterError, match="weight >= 0 only"):
        rv.Simulate(5.0)


def _tripartite(n_pre, n_post, n_third, third_spec, conn_spec=PAIRWISE, syn_specs=None):
    pre = rv.Create("parrot_neuron", n_pre)
    post = rv.Create("parrot_neuron", n_post)
    third = rv.Create("parrot_neuron", n_third)
    rv.TripartiteConnect(pre, post, third, conn_spec, {"rule": THIRD, **third_spec}, syn_specs)
    return pre, post, third


def _pairs(source, target):
    c = rv.GetConnections(source, target)
    return list(zip(c.sources(), c.targets()))


def test_block_pools_are_each_target_s_block_of_the_third():
    pre, post, third = _tripartite(3, 4, 8, {"pool_type": "block", "pool_size": 2})
    for k, target in enumerate(post.tolist()):
        used = {s for s, t in _pairs(third, post) if t == target}
        assert used <= set(third.tolist()[2 * k : 2 * k + 2]) and used
    rv.ResetKernel()
    pre, post, third = _tripartite(3, 6, 2, {"pool_type": "block", "pool_size": 1})  # 3 targets per third node
    for k, target in enumerate(post.tolist()):
        assert {s for s, t in _pairs(third, post) if t == target} == {third.tolist()[k // 3]}


def test_each_primary_connection_takes_one_third_node_of_its_target_s_pool():
    pre, post, third = _tripartite(30, 10, 12, {"pool_type": "random", "pool_size": 3})
    primary, third_in, third_out = _pairs(pre, post), _pairs(pre, third), _pairs(third, post)
    assert len(primary) == len(third_in) == len(third_out) == 300
    for target in post.tolist():
        assert len({s for s, t in third_out if t == target}) <= 3
    # the source of each pairing connects to the third node that connects to its target
    assert sorted(s for s, _ in third_in) == sorted(s for s, _ in primary)


def test_pairing_probability():
    """p = 0.3 over 2,500 primary connections: the pairings are binomial (2,500, 0.3)."""
    pre, post, third = _tripartite(50, 50, 10, {"p": 0.3, "pool_size": 1})
    n = len(_pairs(third, post))
    assert abs(n - 750) < 4 * np.sqrt(2500 * 0.3 * 0.7)
    assert len(_pairs(pre, third)) == n


@pytest.mark.parametrize(
    ("conn_spec", "count"),
    [
        ({"rule": "one_to_one"}, 6),
        ({"rule": "all_to_all"}, 36),
        ({"rule": "fixed_indegree", "indegree": 3}, 18),
        ({"rule": "fixed_total_number", "N": 23}, 23),
    ],
)
def test_every_primary_rule_pairs(conn_spec, count):
    pre, post, third = _tripartite(6, 6, 5, {}, conn_spec)
    assert len(_pairs(pre, post)) == len(_pairs(pre, third)) == len(_pairs(third, post)) == count


def test_synapse_specs_of_each_projection():
    pre, post, third = _tripartite(
        4,
        2,
        3,
        {},
        syn_specs={
            "primary": rv.CollocatedSynapses({"weight": 2.0}, {"synapse_model": "tsodyks_synapse", "delay": 3.0}),
            "third_in": {"weight": rv.random.uniform(0.5, 1.5)},
            "third_out": "static_synapse_lbl",
        },
    )
    assert len(rv.GetConnections(pre, post, synapse_model="tsodyks_synapse")) == 8
    assert set(rv.GetConnections(pre, post, synapse_model="static_synapse").weight) == {2.0}
    assert len(set(rv.GetConnections(pre, third).weight)) == 8
    assert len(rv.GetConnections(third, post, synapse_model="static_synapse_lbl")) == 8


@pytest.mark.parametrize(
    ("third_spec", "conn_spec", "syn_specs", "error", "message"),
    [
        ({"rule": "one_to_one"}, PAIRWISE, None, IllegalConnectionError, "third-factor rule"),
        ({"rule": THIRD, "pool_size": 0}, PAIRWISE, None, BadParameterError, r"pool_size must be in \[1, 3\]"),
        ({"rule": THIRD, "pool_size": 4}, PAIRWISE, None, BadParameterError, "pool_size must be"),
        ({"rule": THIRD, "p": 1.5}, PAIRWISE, None, BadParameterError, r"p must be in \[0, 1\]"),
        ({"rule": THIRD, "pool_type": "ring"}, PAIRWISE, None, BadParameterError, "pool_type must be"),
        ({"rule": THIRD, "pool_type": "block"}, PAIRWISE, None, BadParameterError, "block pools fit"),
        ({"rule": THIRD, "n": 1}, PAIRWISE, None, UnknownParameterError, "has no parameter n"),
        ({"rule": THIRD}, {"rule": "one_to_one", "make_symmetric": True}, None, BadParameterError, "make_symmetric"),
        ({"rule": THIRD}, PAIRWISE, {"third_in": {"weight": [1.0, 2.0]}}, ValueError, "no parameter lists"),
        ({"rule": THIRD}, PAIRWISE, {"fourth": {}}, BadParameterError, "syn_specs takes"),
    ],
)
def test_bad_requests_connect_nothing(third_spec, conn_spec, syn_specs, error, message):
    pre, post, third = rv.Create("parrot_neuron", 2), rv.Create("parrot_neuron", 2), rv.Create("parrot_neuron", 3)
    with pytest.raises(error, match=message):
        rv.TripartiteConnect(pre, post, third, conn_spec, third_spec, syn_specs)
    assert len(rv.GetConnections()) == 0
    with pytest.raises(TypeError, match="third must be a NodeCollection"):
        rv.TripartiteConnect(pre, post, [5], PAIRWISE, {"rule": THIRD})
