"""Layers and layer queries against NEST 3.10 (tests/fixtures/spatial_nest.json) and geometry."""

import numpy as np
import pytest
from spatial_fixture import NEST, make

import ranvier as rv


@pytest.mark.parametrize("name", sorted(NEST["layers"]))
def test_layer_positions_extent_and_center_match_nest(name):
    layer = make(name)
    want = NEST["layers"][name]
    given = NEST["layers_spec"][name].get("free", {}).get("pos")  # NEST keeps a free layer's positions
    assert rv.GetPosition(layer) == want.get("positions", given)  # bit for bit, in NEST's node order
    s = layer.spatial
    np.testing.assert_allclose(s["extent"], want["extent"], rtol=0, atol=1e-15)
    np.testing.assert_allclose(s["center"], want["center"], rtol=0, atol=1e-15)
    assert s["edge_wrap"] == want["edge_wrap"] and s["network_size"] == len(layer)


def test_spatial_dict_has_shape_for_grids_and_positions_for_free_layers():
    grid = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([3, 2]))
    free = rv.Create("iaf_psc_alpha", positions=rv.spatial.free([[0.0, 0.0], [0.5, 0.5]]))
    assert list(grid.spatial["shape"]) == [3, 2] and "positions" not in grid.spatial
    assert np.array_equal(free.spatial["positions"], [[0.0, 0.0], [0.5, 0.5]])
    assert rv.Create("iaf_psc_alpha").spatial is None
    assert rv.GetPosition(grid[4]) == rv.GetPosition(grid)[4]  # a slice keeps its positions


def test_free_layer_from_a_parameter_lies_in_its_extent():
    layer = rv.Create("iaf_psc_alpha", 500, positions=rv.spatial.free(rv.random.uniform(-0.5, 0.5), num_dimensions=3))
    pos = np.asarray(rv.GetPosition(layer))
    assert pos.shape == (500, 3) and pos.min() >= -0.5 and pos.max() < 0.5
    assert len(np.unique(pos[:, 0])) == 500 and not np.array_equal(pos[:, 0], pos[:, 1])


@pytest.mark.parametrize("name", ["grid_wrap", "free2", "free2_wrap"])
def test_displacement_distance_and_nearest_match_nest(name):
    layer, want = make(name), NEST["displacements"][name]
    n = len(layer)
    np.testing.assert_allclose(rv.Displacement(layer[0], layer[n - 1]), want["node_node"], atol=1e-14)
    np.testing.assert_allclose(rv.Displacement(layer[0:5], layer[7]), want["nodes_node"], atol=1e-14)
    np.testing.assert_allclose(rv.Displacement(layer[3], layer[10:15]), want["node_nodes"], atol=1e-14)
    np.testing.assert_allclose(rv.Displacement([[0.31, -0.27]], layer[0:6]), want["pos_nodes"], atol=1e-14)
    np.testing.assert_allclose(rv.Distance(layer[0:5], layer[20:25]), want["distance"], atol=1e-14)
    np.testing.assert_allclose(rv.Distance([[0.45, 0.45]], layer[0:6]), want["pos_distance"], atol=1e-14)
    nearest = rv.FindNearestElement(layer, [[0.1, 0.1], [-0.45, 0.4]])[0]
    assert nearest.global_id - layer[0].global_id == want["nearest"]
    assert rv.FindCenterElement(layer).global_id - layer[0].global_id == want["center"]


def test_periodic_displacement_is_the_shortest_wrapped_one():
    layer = rv.Create(
        "iaf_psc_alpha",
        positions=rv.spatial.free(
            [[-0.45, 0.0], [0.45, 0.0], [0.0, 0.3], [0.0, -0.3], [0.25, 0.25]], extent=[1.0, 1.0], edge_wrap=True
        ),
    )
    # across the x edge: 0.9 apart inside, 0.1 around
    np.testing.assert_allclose(rv.Displacement([[-0.45, 0.0]], layer[1]), [[-0.1, 0.0]], atol=1e-15)
    np.testing.assert_allclose(rv.Distance([[0.0, 0.3]], layer[3]), [0.4], atol=1e-15)
    # exactly half the extent apart: NEST's interval is [-extent/2, extent/2)
    np.testing.assert_allclose(rv.Displacement([[0.0, 0.0]], layer[4]), [[0.25, 0.25]], atol=1e-15)
    half = rv.Create(
        "iaf_psc_alpha", positions=rv.spatial.free([[0.0, 0.0], [0.5, 0.0]], extent=[2.0, 1.0], edge_wrap=True)
    )
    np.testing.assert_allclose(rv.Displacement([[-0.5, 0.0]], half[1]), [[-1.0, 0.0]], atol=1e-15)
    # every displacement of a random periodic layer lies in [-L/2, L/2) and differs from the
    # plain one by a whole number of extents
    pts = np.random.default_rng(1).uniform(-1.0, 1.0, (50, 2))
    wrap = rv.Create("iaf_psc_alpha", positions=rv.spatial.free(pts, extent=[2.0, 2.0], edge_wrap=True))
    d = np.asarray(rv.Displacement([[0.3, -0.7]], wrap))
    assert np.all(d >= -1.0) and np.all(d < 1.0)
    k = (d - (pts - [0.3, -0.7])) / 2.0
    np.testing.assert_allclose(k, np.round(k), atol=1e-12)


def test_layer_dumps_match_nest(tmp_path):
    want = NEST["dumps"]
    layer = make("free2_wrap")
    rv.Connect(
        layer[:10],
        layer[:10],
        {"rule": "pairwise_bernoulli", "p": 1.0, "mask": {"circular": {"radius": 0.4}}},
        {"weight": rv.spatial.distance, "delay": 1.5},
    )
    rv.DumpLayerNodes(layer[:10], tmp_path / "nodes.txt")
    rv.DumpLayerConnections(layer[:10], layer[:10], "static_synapse", tmp_path / "conns.txt")
    assert layer[0].global_id == want["first"]
    # NEST 3.10 dumps the whole layer of a slice; Ranvier dumps the nodes it is given
    assert (tmp_path / "nodes.txt").read_text().splitlines() == want["nodes"].splitlines()[:10]

    def rows(text):
        return np.asarray(sorted([float(x) for x in line.split()] for line in text.splitlines()))

    np.testing.assert_allclose(rows((tmp_path / "conns.txt").read_text()), rows(want["connections"]), atol=1e-5)


def test_target_and_source_queries():
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([5, 5], extent=[1.0, 1.0]))
    rv.Connect(
        layer,
        layer,
        {"rule": "pairwise_bernoulli", "p": 1.0, "mask": {"circular": {"radius": 0.21}}, "allow_autapses": False},
    )
    pos = np.asarray(rv.GetPosition(layer))
    centre = layer[12]
    (targets,) = rv.GetTargetNodes(centre, layer)
    want = [g for g, p in zip(layer.tolist(), pos) if 0 < np.linalg.norm(p - pos[12]) <= 0.21]
    assert targets.tolist() == want
    (sources,) = rv.GetSourceNodes(layer, centre)
    assert sources.tolist() == want  # the mask is symmetric
    assert sorted(map(tuple, rv.GetTargetPositions(centre, layer)[0])) == sorted(
        tuple(pos[g - layer[0].global_id]) for g in want
    )
    assert len(rv.GetSourcePositions(layer, layer[0:2])) == 2


def test_bad_layers_raise_naming_the_value():
    with pytest.raises(rv.BadParameterError, match="shape"):
        rv.spatial.grid([3, 0])
    with pytest.raises(rv.BadParameterError, match="extent"):
        rv.spatial.grid([3, 3], extent=[1.0, -1.0])
    with pytest.raises(rv.BadParameterError, match="extent"):
        rv.Create("iaf_psc_alpha", positions=rv.spatial.free([[0.0, 0.0], [2.0, 0.0]], extent=[1.0, 1.0]))
    with pytest.raises(rv.BadParameterError, match="extent"):
        rv.Create("iaf_psc_alpha", positions=rv.spatial.free([[0.0, 0.0]]))
    with pytest.raises(rv.BadParameterError, match="num_dimensions"):
        rv.spatial.free(rv.random.uniform(), num_dimensions=4)
    with pytest.raises(rv.BadParameterError, match="n cannot"):
        rv.Create("iaf_psc_alpha", 4, positions=rv.spatial.grid([2, 2]))
    with pytest.raises(rv.BadParameterError, match="positions"):
        rv.Create("iaf_psc_alpha", positions=[[0.0, 0.0]])
    with pytest.raises(rv.BadParameterError, match="layer"):
        rv.GetPosition(rv.Create("iaf_psc_alpha", 2))
    assert rv.GetKernelStatus("network_size") == 2  # the failed Creates left nothing behind


def test_layers_under_area_placement_keep_their_positions():
    rv.ResetKernel()
    rv.SetKernelStatus({"placement": "area"})
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid(shape=[3, 3]), area="V1")
    rv.Create("iaf_psc_alpha", 4, area="V2")
    assert np.allclose(rv.GetPosition(layer[4]), [0.0, 0.0])
    rv.Connect(layer, layer, {"rule": "pairwise_bernoulli", "p": 1.0, "mask": {"circular": {"radius": 0.4}}})
    # spacing 1/3: each node reaches itself and its 2 to 4 grid neighbours
    assert len(rv.GetConnections()) == 4 * 3 + 4 * 4 + 5
    with pytest.raises(rv.UnknownParameterError, match="bogus"):
        rv.Create("iaf_psc_alpha", 2, params=[{"V_m": 1.0}, {"bogus": 2.0}], area="V1")
    assert rv.GetKernelStatus("network_size") == 13  # the failed call left nothing


def test_pos_sets_node_parameters_from_positions_and_apply_evaluates_them():
    """nest.spatial.pos: a node's own position as a node parameter (alone or in expressions);
    Parameter.apply(nodes) gives its value at each node, apply(node, positions) the values of a
    connection parameter towards those positions, as tuples."""
    rv.ResetKernel()
    positions = [[x, 0.5 * x] for x in np.linspace(0.0, 0.5, 5)]
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.free(positions))
    layer.set(V_m=rv.spatial.pos.x, E_L=rv.logic.conditional(rv.spatial.pos.y > 0.1, -60.0, -70.0))
    np.testing.assert_allclose(layer.V_m, np.linspace(0.0, 0.5, 5))
    assert layer.E_L == (-70.0, -70.0, -60.0, -60.0, -60.0)
    assert (2.0 * rv.spatial.pos.n(1) + 1.0).apply(layer[1:3]) == pytest.approx((1.125, 1.25))
    assert rv.spatial.distance.apply(layer[0], [[3.0, 4.0], [0.0, 0.0]]) == pytest.approx((5.0, 0.0))
    assert rv.spatial.distance.is_spatial() and not rv.random.uniform().is_spatial()
    with pytest.raises(rv.BadParameterError, match="dimension 2"):
        layer.set(V_m=rv.spatial.pos.z)
    with pytest.raises(rv.BadParameterError, match="dimension = -1"):
        rv.spatial.pos.n(-1)
    with pytest.raises(rv.BadParameterError, match="has no node values"):
        rv.spatial.distance.apply(layer)
    with pytest.raises(rv.BadParameterError, match="must be a layer"):
        rv.Create("iaf_psc_alpha").set(V_m=rv.spatial.pos.x)
    with pytest.raises(TypeError, match="list of positions"):
        rv.spatial.distance.apply(layer[0], [1.0, 2.0])
    with pytest.raises(ValueError, match="same dimensions"):
        rv.spatial.distance.apply(layer[0], [[1.0, 2.0], [1.0, 2.0, 3.0]])
