"""Mask membership: the exact connection sets of NEST 3.10 (p = 1) for every mask type,
anchor, rotation, periodic boundary and use_on_source, and geometry computed here."""

import numpy as np
import pytest
from spatial_fixture import NEST, make, matrix, nest_matrix

import ranvier as rv

MASKS = {k: v for k, v in NEST["masks"].items() if "pairs" in v}
COMBINED = {k: v for k, v in NEST["masks"].items() if "selected" in v}


@pytest.mark.parametrize("case", sorted(MASKS))
def test_mask_connections_equal_nest(case):
    want = MASKS[case]
    layer = make(want["layer"])
    rv.Connect(
        layer,
        layer,
        {"rule": "pairwise_bernoulli", "p": 1.0, "mask": want["mask"], "use_on_source": want["use_on_source"]},
    )
    got = matrix(layer, layer)
    expected = nest_matrix(want["pairs"], len(layer))
    assert expected.sum() > len(layer)  # the case has connections beyond autapses
    assert np.array_equal(got, expected), f"{int((got != expected).sum())} pairs differ"


def _mask(spec):
    spec = dict(spec)
    anchor = spec.pop("anchor", None)
    ((kind, params),) = spec.items()
    return rv.CreateMask(kind, params, anchor)


@pytest.mark.parametrize("case", sorted(COMBINED))
def test_combined_masks_select_what_nest_selects(case):
    want = COMBINED[case]
    layer = make(want["layer"])
    a, b = (_mask(m) for m in want["masks"])
    mask = a & b if want["op"] == "&" else a | b if want["op"] == "|" else a - b
    for anchor, selected in zip(want["anchors"], want["selected"]):
        got = rv.SelectNodesByMask(layer, anchor, mask)
        assert (np.asarray(got.tolist(), dtype=int) - layer[0].global_id).tolist() == selected


def test_combined_mask_connects_its_geometry():
    pts = np.random.default_rng(3).uniform(-0.5, 0.5, (80, 2))
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.free(pts, extent=[1.0, 1.0]))
    ring = rv.CreateMask("circular", {"radius": 0.3}) - rv.CreateMask("circular", {"radius": 0.1})
    half = rv.CreateMask("rectangular", {"lower_left": [0.0, -1.0], "upper_right": [1.0, 1.0]})
    rv.Connect(layer, layer, {"rule": "pairwise_bernoulli", "p": 1.0, "mask": ring & half})
    d = pts[None, :, :] - pts[:, None, :]  # [source, target]: the target seen from the source (NEST)
    r = np.linalg.norm(d, axis=2)
    want = (r <= 0.3) & ~(r <= 0.1) & (d[..., 0] >= 0.0)
    assert np.array_equal(matrix(layer, layer).astype(bool), want)


def test_box_mask_boundaries_and_anchor_in_3d():
    g = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([5, 5, 5], extent=[1.0, 1.0, 1.0]))
    pos = np.asarray(rv.GetPosition(g))
    mask = {"box": {"lower_left": [-0.2, -0.2, 0.0], "upper_right": [0.2, 0.4, 0.2]}, "anchor": [0.0, 0.2, 0.0]}
    rv.Connect(g, g, {"rule": "pairwise_bernoulli", "p": 1.0, "mask": mask})
    d = pos[None, :, :] - pos[:, None, :] - [0.0, 0.2, 0.0]  # the target seen from the source, minus the anchor
    eps = 1e-12
    want = np.all((d >= [-0.2 - eps, -0.2 - eps, -eps]) & (d <= [0.2 + eps, 0.4 + eps, 0.2 + eps]), axis=2)
    assert np.array_equal(matrix(g, g).astype(bool), want)


def test_mask_errors_name_the_parameter_and_leave_the_kernel_usable():
    layer2 = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([4, 4], extent=[1.0, 1.0], edge_wrap=True))
    free = rv.Create("iaf_psc_alpha", positions=rv.spatial.free([[0.0, 0.0], [0.3, 0.2]]))

    def connect(mask, pre=layer2, **extra):
        rv.Connect(pre, pre, {"rule": "pairwise_bernoulli", "p": 1.0, "mask": mask, **extra})

    with pytest.raises(rv.BadParameterError, match="radius"):
        connect({"circular": {"radius": -1.0}})
    with pytest.raises(rv.UnknownParameterError, match="radios"):
        connect({"circular": {"radios": 1.0}})
    with pytest.raises(rv.BadParameterError, match="unknown mask type: 'hexagonal'"):
        connect({"hexagonal": {"radius": 1.0}})
    with pytest.raises(rv.BadParameterError, match="upper_right"):
        connect({"rectangular": {"lower_left": [0.1, 0.0], "upper_right": [0.0, 0.2]}})
    with pytest.raises(rv.BadParameterError, match="inner_radius"):
        connect({"doughnut": {"inner_radius": 0.3, "outer_radius": 0.2}})
    with pytest.raises(rv.BadParameterError, match="3D mask cannot be used on a 2D layer"):
        connect({"spherical": {"radius": 0.2}})
    with pytest.raises(rv.BadParameterError, match="exceeds the layer's extent"):
        connect({"circular": {"radius": 0.6}})
    with pytest.raises(rv.BadParameterError, match="anchor"):
        connect({"grid": {"shape": [2, 2]}, "anchor": [0.5, 0]})  # whole cells (outside the shape is NEST's too)
    with pytest.raises(rv.BadParameterError, match="grid masks can only be used with grid layers"):
        connect({"grid": {"shape": [2, 2]}}, pre=free)
    with pytest.raises(rv.BadParameterError, match="anchor"):
        connect({"circular": {"radius": 0.2}, "anchor": [0.1]})
    with pytest.raises(rv.BadParameterError, match="minor_axis"):
        connect({"elliptical": {"major_axis": 0.1, "minor_axis": 0.2}})
    assert rv.GetKernelStatus("num_connections") == 0
    connect({"circular": {"radius": 0.6}}, allow_oversized_mask=True)  # allowed on request
    within = sum(int(np.sum(np.asarray(rv.Distance(layer2[i], layer2)) <= 0.6)) for i in range(16))
    assert 0 < within < 16 * 16 and rv.GetKernelStatus("num_connections") == within


@pytest.mark.parametrize("rule", ["pairwise_bernoulli", "fixed_indegree", "fixed_outdegree"])
def test_each_rule_applies_the_mask_the_way_nest_does(rule):
    """NEST 3.10 tests target minus source for pairwise_bernoulli and the drawn node minus
    the centre node for the fixed degrees; the orientation the NEST pairs satisfy must be the
    one Ranvier's pairs satisfy."""
    want = NEST["degrees"]
    layer = make("dense_wrap")
    spec = {
        "rule": rule,
        "mask": want["mask"],
        **{"pairwise_bernoulli": {"p": 1.0}, "fixed_indegree": {"indegree": 2}, "fixed_outdegree": {"outdegree": 2}}[
            rule
        ],
    }
    rv.Connect(layer, layer, spec)
    c = rv.GetConnections(layer, layer)
    pos = np.asarray(rv.GetPosition(layer))
    low, high = want["mask"]["rectangular"]["lower_left"], want["mask"]["rectangular"]["upper_right"]

    def orientations(src, tgt):
        found = set()
        for name, d in (("t-s", pos[tgt] - pos[src]), ("s-t", pos[src] - pos[tgt])):
            q = d - want["mask"]["anchor"]
            q -= np.round(q)
            if np.all((q >= low) & (q <= high)):
                found.add(name)
        return found

    nest_pairs = want["rules"][rule]
    expected = orientations(np.asarray(nest_pairs["source"]), np.asarray(nest_pairs["target"]))
    got = orientations(np.asarray(c.get("source")) - 1, np.asarray(c.get("target")) - 1)
    assert len(expected) == 1 and got == expected
    assert len(c) == len(nest_pairs["source"])


def test_inside_tells_whether_a_point_lies_in_a_mask():
    """Mask.Inside(point), the point relative to the mask's origin (its anchor moves the shape),
    of shapes and of masks combined, as NEST answers it."""
    m1 = rv.CreateMask("rectangular", {"lower_left": [0, 0], "upper_right": [2, 2]})
    m2 = rv.CreateMask("rectangular", {"lower_left": [1, 1], "upper_right": [3, 3]})
    points = [(0.0, 0.0), (0.5, 0.5), (2.0, 2.0), (2.5, 2.5), (0.5, 3.5)]
    assert [(m1 | m2).Inside(p) for p in points] == [True, True, True, True, False]
    assert [(m1 & m2).Inside(p) for p in points] == [False, False, True, False, False]
    assert [(m2 - m1).Inside(p) for p in points] == [False, False, False, True, False]
    ellipse = rv.CreateMask("elliptical", {"major_axis": 2.0, "minor_axis": 1.0}, anchor=[1.0, 0.0])
    assert [ellipse.Inside([x, 0.0]) for x in (0.0, 1.0, -0.9, 0.9, -1.9)] == [True, True, False, True, False]
    with pytest.raises(rv.BadParameterError, match="point must be 2 numbers"):
        m1.Inside([1.0, 2.0, 3.0])


def test_round_masks_take_their_anchor_among_their_parameters():
    circle = rv.CreateMask("circular", {"radius": 1.0, "anchor": [1.0, 0.0]})
    assert circle.Inside([0.0, 0.0]) and circle.Inside([1.9, 0.0]) and not circle.Inside([-0.1, 0.0])
    with pytest.raises(rv.BadParameterError, match="anchor given twice"):
        rv.CreateMask("circular", {"radius": 1.0, "anchor": [1.0, 0.0]}, anchor=[0.0, 0.0])
    with pytest.raises(rv.UnknownParameterError, match="rectangular mask has no parameter anchor"):
        rv.CreateMask("rectangular", {"lower_left": [0.0, 0.0], "upper_right": [1.0, 1.0], "anchor": [1.0, 0.0]})
