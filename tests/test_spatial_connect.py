"""Spatial Connect: parameters against NEST 3.10 and their formulas, connection
probability against p(d) (binned chi-square), exact degrees, identity across threads, errors."""

import numpy as np
import pytest
from scipy import stats
from spatial_fixture import NEST, make

import ranvier as rv

SD = rv.spatial_distributions
WEIGHTS = {
    "distance": lambda s: s.distance,
    "distance_x": lambda s: s.distance.x,
    "distance_y": lambda s: s.distance.y,
    "exponential": lambda s: SD.exponential(s.distance, beta=0.3),
    "gaussian": lambda s: SD.gaussian(s.distance, mean=0.1, std=0.2),
    "gaussian2D": lambda s: SD.gaussian2D(
        s.distance.x, s.distance.y, mean_x=0.05, mean_y=-0.02, std_x=0.3, std_y=0.2, rho=0.4
    ),
    "gamma": lambda s: SD.gamma(s.distance, kappa=2.5, theta=0.2),
    "gabor": lambda s: SD.gabor(s.distance.x, s.distance.y, theta=30.0, gamma=0.7, std=0.4, lam=0.5, psi=-60.0),
    "positions": lambda s: 1.0 + 2.0 * s.source_pos.x - s.target_pos.y,
    "arithmetic": lambda s: 0.5 + 3.0 * s.distance * s.distance - s.distance / 2.0,
}


def _connections(pre, post=None):
    c = rv.GetConnections(pre, post if post is not None else pre)
    return {k: np.asarray(c.get(k)).ravel() for k in ("source", "target", "weight", "delay")}


@pytest.mark.parametrize("key", sorted(NEST["weights"]))
def test_spatial_weights_equal_nest(key):
    layer_name, name = key.split("/")
    layer = make(layer_name)
    rv.Connect(
        layer[:8],
        layer[:8],
        {"rule": "pairwise_bernoulli", "p": 1.0},
        {"weight": WEIGHTS[name](rv.spatial), "delay": 1.0},
    )
    c = _connections(layer[:8])
    order = np.lexsort((c["target"], c["source"]))
    first = layer[0].global_id  # NEST's weights are every pair of the 8 nodes, source-major
    assert np.array_equal(c["source"][order] - first, np.repeat(np.arange(8), 8))
    assert np.array_equal(c["target"][order] - first, np.tile(np.arange(8), 8))
    np.testing.assert_allclose(c["weight"][order], NEST["weights"][key], rtol=1e-13, atol=1e-15)


def test_weights_and_delays_follow_their_formula_for_every_connection():
    pts = np.random.default_rng(5).uniform(-0.5, 0.5, (300, 2))
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.free(pts, extent=[1.0, 1.0], edge_wrap=True))
    rv.Connect(
        layer,
        layer,
        {"rule": "pairwise_bernoulli", "p": 0.5, "mask": {"circular": {"radius": 0.2}}},
        {"weight": 2.0 - 4.0 * rv.spatial.distance, "delay": 1.0 + 10.0 * rv.spatial.distance.y},
    )
    c = _connections(layer)
    d = pts[c["target"] - 1] - pts[c["source"] - 1]
    d -= np.round(d)  # shortest wrapped displacement on the unit torus
    r = np.linalg.norm(d, axis=1)
    assert len(r) > 1000 and r.max() <= 0.2
    np.testing.assert_allclose(c["weight"], 2.0 - 4.0 * r, atol=1e-12)
    # delays are rounded to the resolution grid
    np.testing.assert_allclose(c["delay"], np.round((1.0 + 10.0 * np.abs(d[:, 1])) / 0.1) * 0.1, atol=1e-9)


def _chi_square_by_distance(layer, pos, p_of_d, radius, periodic, bins=8):
    """Observed connections per distance bin against the expected sum of p(d) over the
    pairs of that bin; returns the p-value of the chi-square statistic."""
    c = _connections(layer)
    first = layer[0].global_id

    def distances(src, tgt):
        d = pos[tgt] - pos[src]
        if periodic:
            d -= np.round(d)
        return np.linalg.norm(d, axis=-1)

    all_d = np.concatenate([distances(np.full(len(pos), i), np.arange(len(pos))) for i in range(len(pos))])
    all_d = all_d[all_d <= radius]
    edges = np.linspace(0.0, radius, bins + 1)
    expected = np.array([p_of_d(all_d[(all_d >= a) & (all_d < b)]).sum() for a, b in zip(edges[:-1], edges[1:])])
    observed = np.histogram(distances(c["source"] - first, c["target"] - first), edges)[0]
    # a Bernoulli count has variance sum p(1-p)
    var = np.array(
        [
            (lambda q: (q * (1 - q)).sum())(p_of_d(all_d[(all_d >= a) & (all_d < b)]))
            for a, b in zip(edges[:-1], edges[1:])
        ]
    )
    chi2 = float(np.sum((observed - expected) ** 2 / var))
    return stats.chi2.sf(chi2, bins), observed, expected


@pytest.mark.parametrize("periodic", [True, False])
def test_connection_probability_by_distance_matches_p(periodic):
    rv.SetKernelStatus({"rng_seed": 4321})
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([40, 40], extent=[1.0, 1.0], edge_wrap=periodic))
    pos = np.asarray(rv.GetPosition(layer))
    p = SD.gaussian(rv.spatial.distance, std=0.15)
    rv.Connect(layer, layer, {"rule": "pairwise_bernoulli", "p": p, "mask": {"circular": {"radius": 0.4}}})
    pvalue, observed, expected = _chi_square_by_distance(
        layer, pos, lambda d: np.exp(-(d**2) / (2 * 0.15**2)), 0.4, periodic
    )
    assert pvalue > 1e-3, (observed, expected)
    if periodic:  # NEST's own draw of the same network, binned the same way
        nest = NEST["probabilities"]
        np.testing.assert_allclose(nest["edges"], np.linspace(0.0, 0.4, 9))
        table = np.array([observed, nest["counts"]])
        assert stats.chi2_contingency(table)[1] > 1e-3


def test_use_on_source_draws_the_same_distribution():
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([30, 30], extent=[1.0, 1.0], edge_wrap=True))
    pos = np.asarray(rv.GetPosition(layer))
    rv.Connect(
        layer,
        layer,
        {
            "rule": "pairwise_bernoulli",
            "p": SD.exponential(rv.spatial.distance, beta=0.1),
            "mask": {"circular": {"radius": 0.3}},
            "use_on_source": True,
        },
    )
    pvalue, observed, expected = _chi_square_by_distance(layer, pos, lambda d: np.exp(-d / 0.1), 0.3, True)
    assert pvalue > 1e-3, (observed, expected)


def test_fixed_degrees_with_a_mask_are_exact_and_inside_it():
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([20, 20], extent=[1.0, 1.0], edge_wrap=True))
    pos = np.asarray(rv.GetPosition(layer))
    mask = {"circular": {"radius": 0.15}}
    rv.Connect(
        layer,
        layer,
        {
            "rule": "fixed_indegree",
            "indegree": 12,
            "mask": mask,
            "allow_multapses": False,
            "allow_autapses": False,
            "p": SD.gaussian(rv.spatial.distance, std=0.1),
        },
    )
    c = _connections(layer)
    first = layer[0].global_id
    assert np.all(np.bincount(c["target"] - first, minlength=400) == 12)
    d = pos[c["target"] - first] - pos[c["source"] - first]
    d -= np.round(d)
    assert np.linalg.norm(d, axis=1).max() <= 0.15 and not np.any(c["source"] == c["target"])
    assert len(set(zip(c["source"], c["target"]))) == len(c["source"])  # no multapses
    out = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([20, 20], extent=[1.0, 1.0], edge_wrap=True))
    rv.Connect(
        out,
        out,
        {
            "rule": "fixed_outdegree",
            "outdegree": 7,
            "mask": {"rectangular": {"lower_left": [-0.1, -0.1], "upper_right": [0.1, 0.1]}},
        },
    )
    c = _connections(out)
    assert np.all(np.bincount(c["source"] - out[0].global_id, minlength=400) == 7)
    d = pos[c["target"] - out[0].global_id] - pos[c["source"] - out[0].global_id]
    d -= np.round(d)
    assert np.abs(d).max() <= 0.1 + 1e-12


def test_fixed_degree_weights_candidates_by_p():
    """With p = 1 below distance 0.12 and 0 beyond, every chosen source lies within 0.12."""
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([20, 20], extent=[1.0, 1.0], edge_wrap=True))
    pos = np.asarray(rv.GetPosition(layer))
    rv.Connect(
        layer,
        layer,
        {
            "rule": "fixed_indegree",
            "indegree": 30,
            "mask": {"circular": {"radius": 0.3}},
            "p": rv.spatial.distance < 0.12,
        },
    )
    c = _connections(layer)
    d = pos[c["target"] - 1] - pos[c["source"] - 1]
    d -= np.round(d)
    assert len(c["source"]) == 400 * 30 and np.linalg.norm(d, axis=1).max() < 0.12


def _network(threads, rule):
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": 99})
    pos = rv.spatial.free(rv.random.uniform(-0.5, 0.5), num_dimensions=2, edge_wrap=False)
    a = rv.Create(
        "iaf_psc_alpha",
        400,
        positions=rv.spatial.free(
            np.random.default_rng(2).uniform(-0.5, 0.5, (400, 2)), extent=[1.0, 1.0], edge_wrap=True
        ),
    )
    b = rv.Create("iaf_psc_exp", 300, positions=pos)
    spec = {"rule": rule, "mask": {"doughnut": {"inner_radius": 0.05, "outer_radius": 0.25}}}
    if rule == "pairwise_bernoulli":
        spec["p"] = SD.gaussian(rv.spatial.distance, std=0.1)
    else:
        spec["indegree" if rule == "fixed_indegree" else "outdegree"] = 8
    syn = {"weight": rv.random.normal(1.0, 0.5) + rv.spatial.distance, "delay": 1.0 + rv.spatial.distance}
    rv.Connect(a, a, spec, syn)
    rv.Connect(b, b, {**spec, "mask": {"circular": {"radius": 0.2}}}, {"weight": rv.random.uniform(0.0, 1.0)})
    c = _connections(a + b)
    order = np.lexsort((c["weight"], c["target"], c["source"]))
    return {k: v[order] for k, v in c.items()}


@pytest.mark.parametrize("rule", ["pairwise_bernoulli", "fixed_indegree", "fixed_outdegree"])
def test_connectivity_is_identical_for_1_2_and_3_threads(rule):
    one = _network(1, rule)
    assert len(one["source"]) > 1000
    for threads in (2, 3):
        other = _network(threads, rule)
        for key in one:
            assert np.array_equal(one[key], other[key]), (threads, key)


def test_all_to_all_with_spatial_weights():
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([3, 3], extent=[1.0, 1.0]))
    rv.Connect(layer, layer, "all_to_all", {"weight": rv.spatial.distance})
    c = _connections(layer)
    pos = np.asarray(rv.GetPosition(layer))
    assert len(c["source"]) == 81
    np.testing.assert_allclose(
        c["weight"], np.linalg.norm(pos[c["target"] - 1] - pos[c["source"] - 1], axis=1), atol=1e-15
    )


def test_spatial_connect_errors_name_the_parameter():
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([4, 4], extent=[1.0, 1.0]))
    plain = rv.Create("iaf_psc_alpha", 4)
    mask = {"circular": {"radius": 0.3}}
    with pytest.raises(rv.BadParameterError, match="p must be in"):
        rv.Connect(layer, layer, {"rule": "pairwise_bernoulli", "p": 1.5, "mask": mask})
    with pytest.raises(TypeError, match="pre must be a layer"):  # as PyNEST
        rv.Connect(plain, layer, {"rule": "pairwise_bernoulli", "p": 1.0, "mask": mask})
    with pytest.raises(rv.BadParameterError, match="delay must be >= the resolution"):
        rv.Connect(layer, layer, {"rule": "pairwise_bernoulli", "mask": mask}, {"delay": 0.0 * rv.spatial.distance})
    with pytest.raises(rv.BadParameterError, match="weight uses dimension z"):
        rv.Connect(layer, layer, {"rule": "pairwise_bernoulli", "mask": mask}, {"weight": rv.spatial.distance.z})
    with pytest.raises(rv.UnknownParameterError, match="radius"):
        rv.Connect(layer, layer, {"rule": "pairwise_bernoulli", "mask": mask, "radius": 0.1})
    with pytest.raises(rv.BadParameterError, match="one_to_one"):
        rv.Connect(layer, layer, {"rule": "one_to_one", "mask": mask})
    with pytest.raises(rv.BadParameterError, match="indegree = 20 exceeds the"):
        rv.Connect(layer, layer, {"rule": "fixed_indegree", "indegree": 20, "mask": mask, "allow_multapses": False})
    with pytest.raises(rv.BadParameterError, match="std must be > 0"):
        SD.gaussian(rv.spatial.distance, std=0.0)
    with pytest.raises(rv.BadParameterError, match="rho"):
        SD.gaussian2D(rv.spatial.distance.x, rv.spatial.distance.y, rho=1.0)
    assert rv.GetKernelStatus("num_connections") == 0  # nothing of the failed calls remains
    rv.Connect(layer, layer, {"rule": "fixed_indegree", "indegree": 3, "mask": mask})
    assert rv.GetKernelStatus("num_connections") == 48


def test_math_functions_of_spatial_parameters():
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.free([[0.0, 0.0], [0.3, 0.4], [-0.2, 0.1]]))
    d = rv.spatial.distance
    weight = (
        rv.math.exp(-d / 0.5)
        + rv.math.sin(d) * rv.math.cos(d)
        + rv.math.pow(d, 2.0)
        - rv.math.max(d, 0.3)
        + rv.math.min(d, 0.3)
        + (d > 0.3)
    )
    rv.Connect(layer, layer, {"rule": "pairwise_bernoulli", "p": 1.0}, {"weight": weight})
    c = _connections(layer)
    pos = np.asarray(rv.GetPosition(layer))
    r = np.linalg.norm(pos[c["target"] - 1] - pos[c["source"] - 1], axis=1)
    want = np.exp(-r / 0.5) + np.sin(r) * np.cos(r) + r**2 - np.maximum(r, 0.3) + np.minimum(r, 0.3) + (r > 0.3)
    np.testing.assert_allclose(c["weight"], want, atol=1e-14)


def test_parameter_expressions_mix_with_spatial_parameters():
    # A random expression (2 U + d), a clipped normal and a conditional on the distance,
    # each evaluated per connection by the kernel.
    rv.ResetKernel()
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid(shape=[5, 5]))
    p = rv.logic.conditional(rv.spatial.distance < 0.3, 1.0, 0.0)
    rv.Connect(
        layer,
        layer,
        {"rule": "pairwise_bernoulli", "p": p, "allow_autapses": False},
        {
            "weight": 2.0 * rv.random.uniform(1.0, 2.0) + rv.spatial.distance,
            "delay": rv.math.max(rv.random.normal(1.0, 0.5), 0.5),
        },
    )
    c = _connections(layer)
    pos = np.asarray(rv.GetPosition(layer))
    first = layer[0].global_id
    d = np.linalg.norm(pos[c["target"] - first] - pos[c["source"] - first], axis=1)
    expected = sum(int(0 < x < 0.3) for x in np.linalg.norm(pos[:, None] - pos[None], axis=2).ravel())
    assert len(d) == expected and np.all(d < 0.3)
    u = (c["weight"] - d) / 2.0
    assert np.all((u >= 1.0) & (u < 2.0)) and np.std(u) > 0.1
    assert c["delay"].min() == 0.5 and c["delay"].max() > 1.0


def test_exponential_and_uniform_int_mix_with_spatial_parameters():
    rv.ResetKernel()
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid(shape=[5, 5]))
    rv.Connect(
        layer,
        layer,
        {"rule": "pairwise_bernoulli", "p": 1.0},
        {"weight": rv.random.uniform_int(3) + rv.spatial.distance},
    )
    c = _connections(layer)
    pos = np.asarray(rv.GetPosition(layer))
    first = layer[0].global_id
    d = np.linalg.norm(pos[c["target"] - first] - pos[c["source"] - first], axis=1)
    k = c["weight"] - d
    np.testing.assert_allclose(k, np.rint(k), atol=1e-12)
    assert set(np.rint(k).tolist()) == {0.0, 1.0, 2.0}
    rv.Disconnect(rv.GetConnections())
    rv.Connect(
        layer,
        layer,
        {"rule": "pairwise_bernoulli", "p": 1.0},
        {"weight": rv.random.exponential(2.0) * (rv.spatial.distance + 1.0)},
    )
    c = _connections(layer)
    d = np.linalg.norm(pos[c["target"] - first] - pos[c["source"] - first], axis=1)
    e = c["weight"] / (d + 1.0)
    assert e.min() >= 0.0 and abs(e.mean() - 2.0) < 5 * 2.0 / np.sqrt(len(e))


def test_synapse_collection_distance_as_nest():
    """conns.distance: from each source's position to its target's, periodic in a wrapping
    target layer; NaN where a node has no position."""
    rv.ResetKernel()
    ring = rv.Create(
        "iaf_psc_alpha", positions=rv.spatial.free([[-0.4, 0.0], [0.4, 0.0]], extent=[1.0, 1.0], edge_wrap=True)
    )
    plain = rv.Create("iaf_psc_alpha", positions=rv.spatial.free([[0.0, 0.3], [0.4, 0.0]]))
    other = rv.Create("iaf_psc_alpha")
    rv.Connect(ring[0], ring[1])
    rv.Connect(ring[0], plain)
    rv.Connect(other, ring[0])
    assert rv.GetConnections(ring[0], ring[1]).distance == pytest.approx([0.2])  # across the edge
    assert rv.GetConnections(ring[0], plain).distance == pytest.approx([0.5, 0.8])
    assert np.isnan(rv.GetConnections(other).distance).all()


def test_p_of_a_degree_rule_connects_layers_as_pynest():
    """As PyNEST: p with fixed_indegree or fixed_outdegree is the spatial rule's (layers only,
    TypeError otherwise); all_to_all takes neither p nor a mask."""
    rv.ResetKernel()
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([4, 5], extent=[10.0, 10.0]))
    rv.Connect(layer, layer, {"rule": "fixed_indegree", "indegree": 2, "p": 1.0})
    assert len(rv.GetConnections()) == 40
    with pytest.raises(TypeError, match="pre must be a layer"):
        rv.Connect(rv.Create("iaf_psc_alpha", 3), layer, {"rule": "fixed_outdegree", "outdegree": 1, "p": 1.0})
    for spec in ({"rule": "all_to_all", "p": 0.5}, {"rule": "all_to_all", "mask": {"circular": {"radius": 1.0}}}):
        with pytest.raises(rv.UnknownParameterError, match="rule all_to_all has no parameter"):
            rv.Connect(layer, layer, spec)


def test_p_of_symmetric_pairwise_bernoulli_is_not_spatial():
    rv.ResetKernel()
    n = rv.Create("iaf_psc_alpha", 3)
    spec = {"rule": "symmetric_pairwise_bernoulli", "p": 1.0, "make_symmetric": True, "allow_autapses": False}
    rv.Connect(n, n, spec)  # nodes without positions: the kernel's rule, not a spatial connect
    assert len(rv.GetConnections()) == 2 * 3 * 2


def test_receptor_type_and_record_parameters_come_from_the_syn_spec():
    """As NEST's: a spatial Connect's syn_spec gives the targets' receptor_type and the model's
    per-connection parameters (here a synapse_label and STDP's tau_plus), one number each."""
    layer = rv.Create(
        "iaf_psc_exp_multisynapse", params={"tau_syn": [1.0, 2.0, 3.0]}, positions=rv.spatial.grid([2, 2])
    )
    spec = {"rule": "pairwise_bernoulli", "p": 1.0, "mask": {"circular": {"radius": 2.0}}}
    rv.Connect(
        layer,
        layer,
        spec,
        {"synapse_model": "stdp_synapse_lbl", "receptor_type": 3, "synapse_label": 7, "tau_plus": 12.0},
    )
    c = rv.GetConnections(layer, layer)
    assert len(c) == 16
    assert set(c.receptor) == {3} and set(c.synapse_label) == {7} and set(c.tau_plus) == {12.0}
    with pytest.raises(rv.BadParameterError, match="receptor_type must be 1..3"):
        rv.Connect(layer, layer, spec, {"receptor_type": 4})
