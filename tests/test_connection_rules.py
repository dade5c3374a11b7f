"""Connection rules: exact degrees, uniform partner choice, switches, weights and delays."""

import numpy as np
import pytest
from scipy import stats

import ranvier as rv


def populations(n_pre, n_post, threads=1, seed=7):
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": seed})
    pre = rv.Create("iaf_psc_alpha", n_pre)
    post = rv.Create("iaf_psc_alpha", n_post)
    return pre, post


def assert_uniform(counts, alpha=1e-4):
    """Chi-square test that counts come from a uniform distribution."""
    _, p = stats.chisquare(counts)
    assert p > alpha, f"partner choice not uniform (p = {p})"


def test_one_to_one():
    pre, post = populations(30, 30)
    rv.Connect(pre, post, "one_to_one", {"weight": np.arange(30.0), "delay": 2.0})
    c = rv.GetConnections()
    np.testing.assert_array_equal(c.source, pre.tolist())
    np.testing.assert_array_equal(c.target, post.tolist())
    np.testing.assert_array_equal(c.weight, np.arange(30.0))
    assert np.all(np.asarray(c.delay) == 2.0)


def test_all_to_all_with_and_without_autapses():
    pre, _ = populations(12, 1)
    rv.Connect(pre, pre, "all_to_all")
    assert len(rv.GetConnections()) == 144
    pre, _ = populations(12, 1)
    rv.Connect(pre, pre, {"rule": "all_to_all", "allow_autapses": False})
    c = rv.GetConnections()
    assert len(c) == 132 and not np.any(np.asarray(c.source) == np.asarray(c.target))


def test_all_to_all_weight_array_is_post_by_pre():
    pre, post = populations(3, 2)
    w = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    rv.Connect(pre, post, "all_to_all", {"weight": w})
    c = rv.GetConnections()
    for s, t, weight in zip(c.source, c.target, c.weight):
        assert weight == w[post.index(t), pre.index(s)]


@pytest.mark.parametrize(
    "rule,n_pre,n_post,degree", [("fixed_indegree", 50, 400, 25), ("fixed_outdegree", 400, 60, 20)]
)
def test_fixed_degree_exact_and_partners_uniform(rule, n_pre, n_post, degree):
    pre, post = populations(n_pre, n_post)
    rv.Connect(pre, post, {"rule": rule, rule.split("_")[1]: degree})
    c = rv.GetConnections()
    fixed, free = (np.asarray(c.target) - post[0].global_id, np.asarray(c.source) - pre[0].global_id)
    n_fixed, n_free = n_post, n_pre
    if rule == "fixed_outdegree":
        fixed, free, n_fixed, n_free = free, fixed, n_pre, n_post
    np.testing.assert_array_equal(np.bincount(fixed, minlength=n_fixed), degree)
    assert_uniform(np.bincount(free, minlength=n_free))


@pytest.mark.parametrize("rule,degree,n", [("fixed_indegree", "indegree", 40), ("fixed_outdegree", "outdegree", 30)])
def test_fixed_degree_without_autapses_and_multapses(rule, degree, n):
    pre, _ = populations(n, 1)
    rv.Connect(pre, pre, {"rule": rule, degree: n - 1, "allow_autapses": False, "allow_multapses": False})
    c = rv.GetConnections()
    assert not np.any(np.asarray(c.source) == np.asarray(c.target))
    pairs = set(zip(c.source, c.target))
    assert len(pairs) == len(c) == n * (n - 1)


def test_multapses_occur_when_allowed():
    pre, post = populations(5, 50)
    rv.Connect(pre, post, {"rule": "fixed_indegree", "indegree": 5})
    c = rv.GetConnections()
    assert len(set(zip(c.source, c.target))) < len(c)


def test_fixed_total_number_exact_and_uniform():
    pre, post = populations(40, 50)
    rv.Connect(pre, post, {"rule": "fixed_total_number", "N": 20000})
    c = rv.GetConnections()
    assert len(c) == 20000
    assert_uniform(np.bincount(np.asarray(c.source) - pre[0].global_id, minlength=40))
    assert_uniform(np.bincount(np.asarray(c.target) - post[0].global_id, minlength=50))


def test_fixed_total_number_without_multapses_fills_every_pair():
    pre, post = populations(6, 7)
    rv.Connect(pre, post, {"rule": "fixed_total_number", "N": 42, "allow_multapses": False})
    c = rv.GetConnections()
    assert len(set(zip(c.source, c.target))) == 42


def test_pairwise_bernoulli_count_and_uniformity():
    pre, post = populations(200, 300)
    p = 0.1
    rv.Connect(pre, post, {"rule": "pairwise_bernoulli", "p": p})
    c = rv.GetConnections()
    n = 200 * 300
    z = (len(c) - n * p) / np.sqrt(n * p * (1 - p))
    assert abs(z) < 5
    assert_uniform(np.bincount(np.asarray(c.source) - pre[0].global_id, minlength=200))
    assert len(set(zip(c.source, c.target))) == len(c)


def test_pairwise_bernoulli_autapses():
    pre, _ = populations(100, 1)
    rv.Connect(pre, pre, {"rule": "pairwise_bernoulli", "p": 1.0, "allow_autapses": False})
    c = rv.GetConnections()
    assert len(c) == 100 * 99 and not np.any(np.asarray(c.source) == np.asarray(c.target))


@pytest.mark.parametrize("mean", [0.5, 3.0, 120.0])
def test_pairwise_poisson_counts_are_poisson(mean):
    pre, post = populations(40, 50)
    rv.Connect(pre, post, {"rule": "pairwise_poisson", "pairwise_avg_num_conns": mean})
    c = rv.GetConnections()
    pairs = (np.asarray(c.source) - pre[0].global_id) * 50 + (np.asarray(c.target) - post[0].global_id)
    counts = np.bincount(pairs, minlength=2000)
    n = len(counts)
    assert abs(counts.mean() - mean) < 5 * np.sqrt(mean / n)  # the mean within 5 standard errors
    assert abs(counts.var() / mean - 1) < 5 * np.sqrt(2 / n)  # Poisson: variance = mean
    if mean < 5:  # the whole distribution
        k = np.arange(8)
        observed = np.bincount(np.minimum(counts, 7), minlength=8)
        expected = n * np.r_[stats.poisson.pmf(k[:-1], mean), stats.poisson.sf(6, mean)]
        assert (
            stats.chisquare(
                observed[expected > 5],
                expected[expected > 5] * observed[expected > 5].sum() / expected[expected > 5].sum(),
            )[1]
            > 1e-4
        )


def test_pairwise_poisson_needs_multapses_and_keeps_autapses_out():
    pre, _ = populations(30, 1)
    with pytest.raises(rv.BadParameterError, match="allow_multapses"):
        rv.Connect(pre, pre, {"rule": "pairwise_poisson", "pairwise_avg_num_conns": 1.0, "allow_multapses": False})
    with pytest.raises(rv.BadParameterError, match="pairwise_avg_num_conns"):
        rv.Connect(pre, pre, {"rule": "pairwise_poisson", "pairwise_avg_num_conns": -1.0})
    rv.Connect(pre, pre, {"rule": "pairwise_poisson", "pairwise_avg_num_conns": 2.0, "allow_autapses": False})
    c = rv.GetConnections()
    assert len(c) > 0 and not np.any(np.asarray(c.source) == np.asarray(c.target))


SYMMETRIC = {"rule": "symmetric_pairwise_bernoulli", "allow_autapses": False, "make_symmetric": True}


def test_symmetric_pairwise_bernoulli_connects_both_ways():
    pre, post = populations(40, 50)
    rv.Connect(pre, post, {**SYMMETRIC, "p": 0.3})
    c = rv.GetConnections()
    pairs = list(zip(np.asarray(c.source).tolist(), np.asarray(c.target).tolist()))
    assert set(pairs) == {(t, s) for s, t in pairs}  # every connection has its mirror
    forward = sum(1 for s, t in pairs if s <= 40)
    n = 40 * 50
    assert forward == len(pairs) // 2 and abs(forward - 0.3 * n) < 5 * np.sqrt(n * 0.21)
    # one population: each ordered pair decides apart, so a pair chosen both ways connects twice
    pop, _ = populations(60, 1)
    rv.Connect(pop, pop, {**SYMMETRIC, "p": 0.5})
    c = rv.GetConnections()
    counts = np.bincount((np.asarray(c.source) - 1) * 60 + np.asarray(c.target) - 1, minlength=3600).reshape(60, 60)
    assert np.all(counts == counts.T) and np.all(np.diag(counts) == 0) and counts.max() == 2
    n = 60 * 59  # ordered pairs, each drawn once: a draw makes two connections
    assert abs(counts.sum() - 2 * 0.5 * n) < 5 * np.sqrt(2 * n * 0.25)


def test_symmetric_pairwise_bernoulli_needs_nests_flags():
    pop, _ = populations(10, 1)
    with pytest.raises(rv.BadParameterError, match="allow_autapses"):
        rv.Connect(pop, pop, {**SYMMETRIC, "p": 0.5, "allow_autapses": True})
    with pytest.raises(rv.BadParameterError, match="allow_multapses"):
        rv.Connect(pop, pop, {**SYMMETRIC, "p": 0.5, "allow_multapses": False})
    with pytest.raises(rv.BadParameterError, match="make_symmetric"):
        rv.Connect(pop, pop, {**SYMMETRIC, "p": 0.5, "make_symmetric": False})


def test_weights_and_delays_from_distributions():
    pre, post = populations(100, 200)
    rv.Connect(
        pre,
        post,
        {"rule": "fixed_indegree", "indegree": 100},
        {"weight": rv.random.normal(10.0, 2.0), "delay": rv.random.uniform(0.5, 3.0)},
    )
    c = rv.GetConnections()
    n = len(c)
    assert abs(np.asarray(c.weight).mean() - 10.0) < 5 * 2.0 / np.sqrt(n)
    assert abs(np.asarray(c.weight).std() - 2.0) < 0.05
    assert stats.kstest(c.weight, "norm", args=(10.0, 2.0)).pvalue > 1e-4
    # delays are rounded to the grid: 0.5 .. 3.0 in steps of 0.1
    steps = np.asarray(c.delay) / 0.1
    np.testing.assert_allclose(steps, np.rint(steps), atol=1e-9)
    assert np.asarray(c.delay).min() >= 0.5 - 1e-12 and np.asarray(c.delay).max() <= 3.0 + 1e-12
    inner = np.bincount(np.rint(steps).astype(int))[6:30]  # interior grid points, equally likely
    assert_uniform(inner)


def test_lognormal_weights():
    pre, post = populations(100, 100)
    rv.Connect(pre, post, "all_to_all", {"weight": rv.random.lognormal(1.0, 0.5)})
    logw = np.log(rv.GetConnections().weight)
    assert abs(logw.mean() - 1.0) < 0.01 and abs(logw.std() - 0.5) < 0.01


def test_redrawn_normal_weights_and_delays_as_the_microcircuit_draws_them():
    """fixed_total_number with weights redrawn to their sign and delays to >= h / 2, as
    Potjans and Diesmann (2014) draw them: the truncated normals, exactly."""
    pre, post = populations(300, 400, seed=3)
    rv.Connect(
        pre,
        post,
        {"rule": "fixed_total_number", "N": 120000},
        {
            "weight": rv.math.redraw(rv.random.normal(1.0, 1.0), min=0.0, max=np.inf),
            "delay": rv.math.redraw(rv.random.normal(1.5, 0.75), min=0.05, max=np.inf),
        },
    )
    c = rv.GetConnections()
    assert len(c) == 120000 and np.asarray(c.weight).min() >= 0.0
    assert stats.kstest(c.weight, stats.truncnorm(-1.0, np.inf, loc=1.0, scale=1.0).cdf).pvalue > 1e-4
    # delays on the 0.1 ms grid: step s holds the truncated normal's mass in [(s - 1/2) h, (s + 1/2) h)
    steps = np.rint(np.asarray(c.delay) / 0.1).astype(int)
    assert steps.min() >= 1
    delay = stats.truncnorm((0.05 - 1.5) / 0.75, np.inf, loc=1.5, scale=0.75)
    edges = np.concatenate(([0.05], (np.arange(1, 40) + 0.5) * 0.1, [np.inf]))
    expected = np.diff(delay.cdf(edges)) * len(c)
    observed = np.bincount(np.minimum(steps, 40), minlength=41)[1:]
    _, p = stats.chisquare(observed, expected)
    assert p > 1e-4, f"delays not the rounded truncated normal (p = {p})"


def test_delay_rounded_to_one_step_is_valid_as_in_nest():
    """NEST 3.10, run: a delay is rounded to the grid first and refused only where it rounds
    to 0 steps (0.05 ms and 0.06 ms connect at 0.1 ms, 0.04 ms raises BadDelay)."""
    pre, post = populations(2, 2)
    rv.Connect(pre, post, "one_to_one", {"delay": 0.05})
    rv.Connect(pre, post, "one_to_one", {"delay": np.array([0.06, 0.099])})
    assert rv.GetConnections().delay == pytest.approx([0.1] * 4)
    with pytest.raises(rv.BadParameterError, match="delay = 0.04"):
        rv.Connect(pre, post, "one_to_one", {"delay": np.array([0.1, 0.04])})


def test_off_grid_delay_is_rounded():
    pre, post = populations(1, 1)
    rv.Connect(pre, post, syn_spec={"delay": 1.26})
    assert rv.GetConnections().delay == pytest.approx(1.3)


RULES = [
    ({"rule": "fixed_indegree", "indegree": 17}, {"weight": rv.random.normal(0, 1)}),
    ({"rule": "fixed_outdegree", "outdegree": 13}, {"delay": rv.random.uniform(0.2, 4.0)}),
    ({"rule": "fixed_total_number", "N": 3000}, {"weight": rv.random.uniform(0, 1)}),
    ({"rule": "pairwise_bernoulli", "p": 0.05}, {"weight": rv.random.lognormal(0, 1)}),
    ({"rule": "all_to_all", "allow_autapses": False}, {"weight": rv.random.normal(0, 1)}),
    (
        {"rule": "fixed_total_number", "N": 4000},
        {
            "weight": rv.math.redraw(rv.random.normal(-1, 1), min=-np.inf, max=0.0),
            "delay": rv.math.redraw(rv.random.normal(0.5, 0.5), min=0.05, max=np.inf),
        },
    ),
    ({"rule": "fixed_outdegree", "outdegree": 40}, {"weight": rv.math.redraw(rv.random.normal(0, 1), min=-1, max=2)}),
    ({"rule": "pairwise_poisson", "pairwise_avg_num_conns": 0.2}, {"weight": rv.random.uniform(0, 1)}),
    ({**SYMMETRIC, "p": 0.1}, {"weight": 2.0}),
]


@pytest.mark.parametrize("conn_spec,syn_spec", RULES)
def test_connectivity_independent_of_thread_count(conn_spec, syn_spec):
    results = []
    for threads in (1, 2, 3):
        pre, _ = populations(150, 1, threads=threads, seed=99)
        rv.Connect(pre, pre, conn_spec, syn_spec)
        results.append(rv.GetConnections().get())
    for other in results[1:]:
        for key in ("source", "target", "weight", "delay"):
            np.testing.assert_array_equal(results[0][key], other[key])


def test_seed_changes_connectivity():
    pre, _ = populations(50, 1, seed=1)
    rv.Connect(pre, pre, {"rule": "fixed_indegree", "indegree": 5})
    a = rv.GetConnections().source
    pre, _ = populations(50, 1, seed=2)
    rv.Connect(pre, pre, {"rule": "fixed_indegree", "indegree": 5})
    assert not np.array_equal(a, rv.GetConnections().source)


def test_get_connections_filters():
    pre, post = populations(10, 10)
    rv.Connect(pre, post, "all_to_all")
    rv.CopyModel("static_synapse", "other")
    rv.Connect(post, pre, "one_to_one", {"synapse_model": "other"})
    assert len(rv.GetConnections(source=pre[:3])) == 30
    assert len(rv.GetConnections(target=post[4])) == 10
    c = rv.GetConnections(synapse_model="other")
    assert len(c) == 10 and set(c.synapse_model) == {"other"}
    assert len(rv.GetConnections(source=post, target=pre[0])) == 1


def test_non_contiguous_targets_use_only_the_listed_nodes():
    pre, post = populations(20, 40, threads=3)
    chosen = post[::3] + post[1:3]
    rv.Connect(pre, chosen, {"rule": "fixed_indegree", "indegree": 4})
    c = rv.GetConnections()
    assert set(c.target) == set(chosen.tolist())
    np.testing.assert_array_equal(np.unique(np.asarray(c.target), return_counts=True)[1], 4)


def test_sources_spread_over_a_huge_gid_range():
    # Few connections from far-apart sources take the kernel's sparse sorting path.
    rv.SetKernelStatus({"local_num_threads": 2})
    pop = rv.Create("parrot_neuron", 200000)
    sources = pop[::20000]
    targets = pop[5:9]
    rv.Connect(sources, targets, "all_to_all", {"weight": np.arange(40.0).reshape(4, 10), "delay": 1.0})
    rv.Connect(sources, targets, "all_to_all", {"delay": 2.0})
    c = rv.GetConnections()
    assert len(c) == 80
    expected_sources = np.repeat(sources.tolist(), 8)
    np.testing.assert_array_equal(c.source, expected_sources)
    np.testing.assert_array_equal(c.target, np.tile(np.repeat(targets.tolist(), 2), 10))
    np.testing.assert_array_equal(c.delay, np.tile([1.0, 2.0], 40))
    drive = rv.Create("spike_generator", params={"spike_times": [1.0]})
    rv.Connect(drive, sources[3])
    sr = rv.Create("spike_recorder")
    rv.Connect(targets, sr)
    rv.Simulate(10.0)
    np.testing.assert_allclose(np.sort(sr.events["times"]), [3.0] * 4 + [4.0] * 4)


def test_more_connections_on_one_thread_than_nest_allows():
    """NEST 3.10 stops at 2^27 connections per thread and synapse model, which is why the
    full-scale microcircuit needs at least 3 NEST threads; Ranvier holds more on one thread."""
    rv.ResetKernel()
    n = 2**27 + 1000
    pre = rv.Create("iaf_psc_alpha", 1000)
    post = rv.Create("iaf_psc_alpha", 1000, params={"I_e": 0.0})
    rv.Connect(pre, post, {"rule": "fixed_total_number", "N": n}, {"weight": 0.5, "delay": 1.0})
    rv.Simulate(1.0)  # preparation sorts them into one table
    assert rv.GetKernelStatus("num_connections") == n
    last = rv.GetConnections(pre[-1:], post[-1:])
    assert len(last) > 0 and set(last.get("weight")) == {0.5}
    rv.ResetKernel()  # gives the memory back to the rest of the suite


def test_arrays_of_node_ids_pair_up_one_to_one():
    """As PyNEST: lists and arrays of ids are node collections where their ids are distinct; under
    one_to_one they pair up position by position (ids may repeat), a syn_spec value per pair."""
    rv.Create("iaf_psc_exp_multisynapse", 10, params={"tau_syn": [1.0, 2.0]})
    sources, targets = np.arange(1, 11), np.array([1, 1, 3, 5, 4, 5, 9, 7, 2, 8])
    syn_spec = {
        "synapse_model": "vogels_sprekeler_synapse",
        "weight": np.linspace(1.0, 10.0, 10),
        "delay": 1.5,
        "alpha": 0.1 * np.arange(10),
        "receptor_type": [1, 2] * 5,
    }
    rv.Connect(sources, targets, "one_to_one", syn_spec)
    c = rv.GetConnections()
    got = sorted(zip(c.source, c.target, c.weight, c.alpha))
    assert got == sorted(zip(sources.tolist(), targets.tolist(), syn_spec["weight"], syn_spec["alpha"]))
    assert set(c.delay) == {1.5}
    rv.Connect([1, 2], (3, 4), syn_spec={"receptor_type": 1})  # distinct ids: all_to_all, as NodeCollections
    assert len(rv.GetConnections(rv.NodeCollection([1, 2]), rv.NodeCollection([3, 4]))) == 4
    with pytest.raises(rv.BadParameterError, match="one_to_one only, got rule = 'all_to_all'"):
        rv.Connect(sources, targets)
    with pytest.raises(rv.BadParameterError, match="same length, got 10 and 2"):
        rv.Connect(sources, [1, 1], "one_to_one")
    with pytest.raises(rv.BadParameterError, match=r"weight needs one value per pair \(10\)"):
        rv.Connect(sources, targets, "one_to_one", {"weight": [1.0, 2.0]})
    with pytest.raises(TypeError, match="integers"):
        rv.Connect(sources.astype(float), targets, "one_to_one")
    with pytest.raises(rv.UnknownNodeError, match="node 11"):
        rv.Connect(sources + 1, targets, "one_to_one")


def _input_of_mixed_senders(mixed, rule="all_to_all"):
    rv.ResetKernel()
    n = rv.Create("iaf_psc_alpha", 2, params={"I_e": 400.0})
    pg = rv.Create("poisson_generator", params={"rate": 5000.0})
    sg = rv.Create("spike_generator", params={"spike_times": [1.0, 3.0, 7.5]})
    post = rv.Create("iaf_psc_alpha", 2 if rule == "all_to_all" else 3)
    vm = rv.Create("voltmeter")
    rv.Connect(vm, post)
    weights = np.array([[100.0, 50.0, 20.0], [-100.0, -50.0, -20.0]])
    if mixed:
        syn_spec = {"weight": weights if rule == "all_to_all" else weights[0]}
        rv.Connect(n[0] + pg + sg, post, rule, syn_spec)
    elif rule == "all_to_all":
        for k, source in enumerate((n[0], pg, sg)):
            rv.Connect(source, post, rule, {"weight": weights[:, k : k + 1]})
    else:
        for k, source in enumerate((n[0], pg, sg)):
            rv.Connect(source, post[k], rule, {"weight": weights[0, k]})
    rv.Simulate(50.0)
    return rv.GetConnections().get(["source", "target", "weight"]), vm.events["V_m"]


@pytest.mark.parametrize("rule", ["all_to_all", "one_to_one"])
def test_senders_of_several_kinds_connect_as_each_kind_alone(rule):
    """A pre of neurons and generators of two models connects as the same Connect of each kind
    of sender on its own, with its share of an array of weights."""
    mixed, apart = _input_of_mixed_senders(True, rule), _input_of_mixed_senders(False, rule)
    assert mixed[0] == apart[0]
    np.testing.assert_array_equal(mixed[1], apart[1])


def test_senders_of_several_kinds_and_a_rule_that_draws_over_all_of_them():
    n = rv.Create("iaf_psc_alpha", 3)
    pg = rv.Create("poisson_generator")
    with pytest.raises(rv.BadParameterError, match="rule fixed_indegree with a pre of neurons and devices"):
        rv.Connect(n + pg, n, {"rule": "fixed_indegree", "indegree": 2})
    with pytest.raises(rv.BadParameterError, match="pre must be neurons or stimulating devices"):
        rv.Connect(n + rv.Create("spike_recorder"), n)


def test_recorders_connect_one_to_one():
    n = rv.Create("iaf_psc_alpha", 3, params={"I_e": [400.0, 500.0, 600.0]})
    mm = rv.Create("multimeter", 3, params={"record_from": ["V_m"]})
    sr = rv.Create("spike_recorder", 3)
    rv.Connect(mm, n, "one_to_one")
    rv.Connect(n, sr, "one_to_one")
    rv.Simulate(100.0)
    for k in range(3):
        assert set(mm[k].events["senders"]) == {k + 1} and set(sr[k].events["senders"]) == {k + 1}
    with pytest.raises(rv.BadParameterError, match="one_to_one needs as many spike_recorders"):
        rv.Connect(n, sr[:2], "one_to_one")
    with pytest.raises(rv.BadParameterError, match="connects all_to_all or one_to_one"):
        rv.Connect(n, sr, {"rule": "fixed_indegree", "indegree": 1})


def test_constant_parameters_as_rule_parameters():
    pre, post = populations(4, 5)
    one, two = rv.CreateParameter("constant", {"value": 1.0}), rv.CreateParameter("constant", {"value": 2.0})
    rv.Connect(pre, post, {"rule": "pairwise_bernoulli", "p": one})
    rv.Connect(pre, post, {"rule": "fixed_indegree", "indegree": two})
    assert len(rv.GetConnections()) == 4 * 5 + 2 * 5
    with pytest.raises(TypeError, match="source must be a NodeCollection, got source = 'foo'"):
        rv.GetConnections(source="foo")


def test_make_symmetric_connects_one_to_one_both_ways():
    """NEST's make_symmetric: pre[k] -> post[k] and post[k] -> pre[k] with the same values, also
    arrays of per-connection parameters (one_to_one takes one per pair); other rules and drawn
    values are refused, as in NEST."""
    a, b = populations(5, 5)
    syn_spec = {
        "synapse_model": "stdp_synapse",
        "weight": [1.0, 2.0, 3.0, 4.0, 5.0],
        "alpha": [1.2, 2.2, 3.2, 4.2, 5.2],
    }
    rv.Connect(a, b, {"rule": "one_to_one", "make_symmetric": True}, syn_spec)
    forth, back = rv.GetConnections(source=a), rv.GetConnections(source=b)
    assert forth.target == back.source == b.tolist() and forth.source == back.target == a.tolist()
    assert forth.weight == back.weight == syn_spec["weight"] and forth.alpha == back.alpha == syn_spec["alpha"]
    with pytest.raises(rv.NESTErrors.NotImplemented, match="rule = 'all_to_all'"):
        rv.Connect(a, b, {"rule": "all_to_all", "make_symmetric": True})
    with pytest.raises(rv.BadParameterError, match="drawn weight"):
        rv.Connect(a, b, {"rule": "one_to_one", "make_symmetric": True}, {"weight": rv.random.uniform()})
    with pytest.raises(rv.BadParameterError, match="make_symmetric must be True or False"):
        rv.Connect(a, b, {"rule": "one_to_one", "make_symmetric": 1})
    assert len(rv.GetConnections()) == 10


def test_all_to_all_takes_an_array_of_per_connection_parameters():
    """As NEST: targets x sources values of alpha (which the kernel takes one of per call) as of
    weight; without autapses the diagonal's values go unused."""
    pre, post = populations(3, 2)
    values = np.arange(6.0).reshape(2, 3)
    rv.Connect(pre, post, "all_to_all", {"synapse_model": "stdp_synapse", "alpha": values, "weight": values + 10.0})
    c = rv.GetConnections()
    assert c.source == [1, 1, 2, 2, 3, 3] and c.target == [4, 5, 4, 5, 4, 5]
    assert c.alpha == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0] and c.weight == [10.0, 13.0, 11.0, 14.0, 12.0, 15.0]
    rv.Connect(
        pre,
        pre,
        {"rule": "all_to_all", "allow_autapses": False},
        {"synapse_model": "stdp_synapse", "alpha": np.ones((3, 3))},
    )
    assert len(rv.GetConnections(pre, pre)) == 6
    with pytest.raises(rv.BadParameterError, match=r"array of 2 x 3 \(targets x sources\), got shape \(3, 2\)"):
        rv.Connect(pre, post, "all_to_all", {"synapse_model": "stdp_synapse", "alpha": np.ones((3, 2))})
