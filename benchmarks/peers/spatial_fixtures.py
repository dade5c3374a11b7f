"""Writes tests/fixtures/spatial_nest.json from NEST 3.10: layer positions, extents and
centres, displacements, the exact connection sets of masks (p = 1), spatial weights, layer
dumps, and connection counts by distance for a distance-dependent p.

    /work/peers-venv/bin/python benchmarks/peers/spatial_fixtures.py
"""

import json
import os
import sys
import tempfile

import nest
import numpy as np

nest.verbosity = nest.VerbosityLevel.ERROR
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "spatial_nest.json")

# Layers used by several cases, as (kind, args) that tests rebuild in Ranvier.
RNG = np.random.default_rng(7)
FREE2 = RNG.uniform(-0.5, 0.5, (60, 2)).tolist()  # unrounded: no node on a mask edge
FREE3 = RNG.uniform(-0.5, 0.5, (80, 3)).tolist()
DENSE = RNG.uniform(-0.5, 0.5, (200, 2)).tolist()
LAYERS = {
    "grid2": {"grid": {"shape": [4, 3], "extent": [2.0, 1.5], "center": [0.5, -0.2]}},
    "grid3": {"grid": {"shape": [2, 3, 2], "extent": [2.0, 3.0, 4.0], "center": [1.0, 0.0, 0.0]}},
    "grid_wrap": {"grid": {"shape": [9, 9], "extent": [1.0, 1.0], "edge_wrap": True}},
    "grid_plain": {"grid": {"shape": [9, 9], "extent": [1.0, 1.0]}},
    "free2": {"free": {"pos": FREE2}},
    "free2_wrap": {"free": {"pos": FREE2, "extent": [1.0, 1.0], "edge_wrap": True}},
    "free3": {"free": {"pos": FREE3}},
    "dense_wrap": {"free": {"pos": DENSE, "extent": [1.0, 1.0], "edge_wrap": True}},
    "free3_wrap": {"free": {"pos": FREE3, "extent": [1.0, 1.0, 1.0], "edge_wrap": True}},
    "grid3_wrap": {"grid": {"shape": [5, 4, 3], "extent": [1.0, 1.0, 1.0], "edge_wrap": True}},
    "free_line": {"free": {"pos": [[0.0, 0.0], [1.0, 0.0]]}},
    "free_big": {"free": {"pos": [[0.0, 0.0], [3.0, 2.0], [0.2, 0.3]]}},
    "free3_ext": {"free": {"pos": [[0.1, 0.2, 0.0], [0.5, -0.3, 1.0], [0.2, 0.4, 2.0]], "extent": [2.0, 2.0, 3.0]}},
}


def make(name):
    ((kind, args),) = LAYERS[name].items()
    positions = nest.spatial.grid(**args) if kind == "grid" else nest.spatial.free(**args)
    return nest.Create("iaf_psc_alpha", positions=positions)


def pairs(pre, post):
    """The connection matrix [source, target] of 0/1 as packed bits in hex (compact JSON)."""
    c = nest.GetConnections(pre, post)
    matrix = np.zeros((len(pre), len(post)), dtype=np.uint8)
    matrix[np.asarray(c.get("source")) - pre[0].global_id, np.asarray(c.get("target")) - post[0].global_id] = 1
    return np.packbits(matrix.ravel()).tobytes().hex()


def layers():
    out = {}
    for name in LAYERS:
        nest.ResetKernel()
        layer = make(name)
        s = layer.spatial
        out[name] = {
            "extent": list(map(float, s["extent"])),
            "center": list(map(float, s["center"])),
            "edge_wrap": bool(s["edge_wrap"]),
        }
        pos = np.asarray(nest.GetPosition(layer))
        given = LAYERS[name].get("free", {}).get("pos")
        if given is None or not np.array_equal(pos, given):  # free layers keep what they are given
            out[name]["positions"] = pos.tolist()
    return out


def displacements():
    out = {}
    for name in ("grid_wrap", "free2", "free2_wrap"):
        nest.ResetKernel()
        layer = make(name)
        out[name] = {
            "node_node": nest.Displacement(layer[0], layer[len(layer) - 1]),
            "nodes_node": nest.Displacement(layer[0:5], layer[7]),
            "node_nodes": nest.Displacement(layer[3], layer[10:15]),
            "pos_nodes": nest.Displacement([[0.31, -0.27]], layer[0:6]),
            "distance": nest.Distance(layer[0:5], layer[20:25]),
            "pos_distance": nest.Distance([[0.45, 0.45]], layer[0:6]),
            "nearest": nest.FindNearestElement(layer, [[0.1, 0.1], [-0.45, 0.4]])[0].global_id - layer[0].global_id,
            "center": nest.FindCenterElement(layer).global_id - layer[0].global_id,
        }
    return out


MASK_CASES = {
    "rectangular": ("free2", {"rectangular": {"lower_left": [-0.2, -0.1], "upper_right": [0.3, 0.25]}}),
    "rectangular_anchor": (
        "free2",
        {"rectangular": {"lower_left": [-0.2, -0.1], "upper_right": [0.3, 0.25]}, "anchor": [0.1, -0.05]},
    ),
    "rectangular_rotated": (
        "free2",
        {"rectangular": {"lower_left": [-0.3, -0.1], "upper_right": [0.3, 0.1], "azimuth_angle": 30.0}},
    ),
    "circular": ("free2", {"circular": {"radius": 0.25}}),
    "circular_wrap": ("free2_wrap", {"circular": {"radius": 0.3}}),
    "circular_anchor_wrap": ("free2_wrap", {"circular": {"radius": 0.2}, "anchor": [0.3, 0.1]}),
    "doughnut": ("free2", {"doughnut": {"inner_radius": 0.1, "outer_radius": 0.3}}),
    "elliptical": ("free2", {"elliptical": {"major_axis": 0.6, "minor_axis": 0.2, "azimuth_angle": 45.0}}),
    "elliptical_anchor": ("free2", {"elliptical": {"major_axis": 0.5, "minor_axis": 0.3}, "anchor": [0.1, 0.05]}),
    "grid_mask": ("grid_plain", {"grid": {"shape": [3, 2]}}),
    "grid_mask_anchor": ("grid_wrap", {"grid": {"shape": [3, 3]}, "anchor": [1, 1]}),
    "grid_mask_anchor2": ("grid_plain", {"grid": {"shape": [4, 2]}, "anchor": [2, 0]}),
    "rect_on_grid_wrap": ("grid_wrap", {"rectangular": {"lower_left": [-0.2, -0.3], "upper_right": [0.25, 0.1]}}),
    "box": ("free3", {"box": {"lower_left": [-0.2, -0.1, -0.3], "upper_right": [0.3, 0.25, 0.2]}}),
    "box_rotated": (
        "free3",
        {
            "box": {
                "lower_left": [-0.3, -0.1, -0.2],
                "upper_right": [0.3, 0.1, 0.2],
                "azimuth_angle": 30.0,
                "polar_angle": 40.0,
            }
        },
    ),
    "spherical": ("free3", {"spherical": {"radius": 0.3}}),
    "spherical_anchor_wrap": ("free3_wrap", {"spherical": {"radius": 0.25}, "anchor": [0.2, -0.1, 0.3]}),
    "box_wrap": ("free3_wrap", {"box": {"lower_left": [-0.2, -0.1, -0.3], "upper_right": [0.3, 0.25, 0.2]}}),
    "ellipsoidal": (
        "free3",
        {
            "ellipsoidal": {
                "major_axis": 0.7,
                "minor_axis": 0.3,
                "polar_axis": 0.4,
                "azimuth_angle": 30.0,
                "polar_angle": 50.0,
            }
        },
    ),
}
COMBINED = {  # (layer, first mask, operator, second mask)
    "and": (
        "free2",
        {"circular": {"radius": 0.3}},
        "&",
        {"rectangular": {"lower_left": [0.0, -0.5], "upper_right": [0.5, 0.5]}},
    ),
    "or": (
        "free2",
        {"circular": {"radius": 0.15}},
        "|",
        {"rectangular": {"lower_left": [0.1, -0.05], "upper_right": [0.4, 0.05]}},
    ),
    "minus": ("free2", {"circular": {"radius": 0.3}}, "-", {"circular": {"radius": 0.1}}),
}


def _as_mask(spec):
    spec = dict(spec)
    anchor = spec.pop("anchor", None)
    ((kind, params),) = spec.items()
    return nest.CreateMask(kind, params, anchor) if anchor is not None else nest.CreateMask(kind, params)


def masks():
    out = {}
    for name, (layer_name, mask) in MASK_CASES.items():
        for on_source in (False, True):
            nest.ResetKernel()
            layer = make(layer_name)
            spec = {"rule": "pairwise_bernoulli", "p": 1.0, "mask": mask, "use_on_source": on_source}
            nest.Connect(layer, layer, spec)
            out[name + ("_on_source" if on_source else "")] = {
                "layer": layer_name,
                "mask": mask,
                "use_on_source": on_source,
                "pairs": pairs(layer, layer),
            }
    for name, (layer_name, a, op, b) in COMBINED.items():
        nest.ResetKernel()
        layer = make(layer_name)
        ma, mb = _as_mask(a), _as_mask(b)
        mask = ma & mb if op == "&" else ma | mb if op == "|" else ma - mb
        # NEST 3.10 takes only dicts as conn_spec masks: combined masks are checked by selection
        anchors = [[0.05, -0.02], [0.3, 0.2], [-0.4, 0.1]]
        selected = [
            (np.asarray(nest.SelectNodesByMask(layer, a, mask).tolist(), dtype=int) - layer[0].global_id).tolist()
            for a in anchors
        ]
        out[name] = {"layer": layer_name, "masks": [a, b], "op": op, "anchors": anchors, "selected": selected}
    return out


WEIGHTS = {
    "distance": lambda s: s.distance,
    "distance_x": lambda s: s.distance.x,
    "distance_y": lambda s: s.distance.y,
    "exponential": lambda s: nest.spatial_distributions.exponential(s.distance, beta=0.3),
    "gaussian": lambda s: nest.spatial_distributions.gaussian(s.distance, mean=0.1, std=0.2),
    "gaussian2D": lambda s: nest.spatial_distributions.gaussian2D(
        s.distance.x, s.distance.y, mean_x=0.05, mean_y=-0.02, std_x=0.3, std_y=0.2, rho=0.4
    ),
    "gamma": lambda s: nest.spatial_distributions.gamma(s.distance, kappa=2.5, theta=0.2),
    "gabor": lambda s: nest.spatial_distributions.gabor(
        s.distance.x, s.distance.y, theta=30.0, gamma=0.7, std=0.4, lam=0.5, psi=-60.0
    ),
    "positions": lambda s: 1.0 + 2.0 * s.source_pos.x - s.target_pos.y,
    "arithmetic": lambda s: 0.5 + 3.0 * s.distance * s.distance - s.distance / 2.0,
}


def weights():
    out = {}
    for layer_name in ("free2", "free2_wrap"):
        for name, make_param in WEIGHTS.items():
            nest.ResetKernel()
            layer = make(layer_name)
            nest.Connect(
                layer[:8],
                layer[:8],
                {"rule": "pairwise_bernoulli", "p": 1.0},
                {"weight": make_param(nest.spatial), "delay": 1.0},
            )
            c = nest.GetConnections(layer[:8], layer[:8])
            src = np.asarray(c.get("source")) - layer[0].global_id
            tgt = np.asarray(c.get("target")) - layer[0].global_id
            order = np.lexsort((tgt, src))
            assert np.array_equal(src[order], np.repeat(np.arange(8), 8)) and np.array_equal(
                tgt[order], np.tile(np.arange(8), 8)
            )
            out[f"{layer_name}/{name}"] = np.asarray(c.get("weight"))[order].tolist()  # source-major
    return out


def dumps():
    nest.ResetKernel()
    layer = make("free2_wrap")
    nest.Connect(
        layer[:10],
        layer[:10],
        {"rule": "pairwise_bernoulli", "p": 1.0, "mask": {"circular": {"radius": 0.4}}},
        {"weight": nest.spatial.distance, "delay": 1.5},
    )
    with tempfile.TemporaryDirectory() as d:
        nest.DumpLayerNodes(layer[:10], os.path.join(d, "nodes.txt"))
        nest.DumpLayerConnections(layer[:10], layer[:10], "static_synapse", os.path.join(d, "conns.txt"))
        nodes = open(os.path.join(d, "nodes.txt")).read()
        conns = open(os.path.join(d, "conns.txt")).read()
    first = layer[0].global_id
    return {"first": first, "nodes": nodes, "connections": conns}


DEGREE_MASK = {"rectangular": {"lower_left": [0.05, -0.1], "upper_right": [0.3, 0.1]}, "anchor": [0.02, 0.03]}


def degrees():
    """The pairs of each spatial rule with an asymmetric, anchored mask on a periodic layer:
    which way round each rule applies the mask."""
    out = {}
    for rule in ("pairwise_bernoulli", "fixed_indegree", "fixed_outdegree"):
        nest.ResetKernel()
        layer = make("dense_wrap")
        spec = {"rule": rule, "mask": DEGREE_MASK}
        spec.update(
            {"pairwise_bernoulli": {"p": 1.0}, "fixed_indegree": {"indegree": 2}, "fixed_outdegree": {"outdegree": 2}}[
                rule
            ]
        )
        nest.Connect(layer, layer, spec)
        c = nest.GetConnections(layer, layer)
        out[rule] = {
            "source": (np.asarray(c.get("source")) - layer[0].global_id).tolist(),
            "target": (np.asarray(c.get("target")) - layer[0].global_id).tolist(),
        }
    return {"mask": DEGREE_MASK, "rules": out}


def probabilities():
    """Connection counts by distance for p = gaussian(distance, std=0.15) in a circular mask
    on a periodic 40 x 40 grid: NEST's own draw of the distribution the tests check."""
    nest.ResetKernel()
    layer = nest.Create("iaf_psc_alpha", positions=nest.spatial.grid(shape=[40, 40], extent=[1.0, 1.0], edge_wrap=True))
    p = nest.spatial_distributions.gaussian(nest.spatial.distance, std=0.15)
    nest.Connect(layer, layer, {"rule": "pairwise_bernoulli", "p": p, "mask": {"circular": {"radius": 0.4}}})
    c = nest.GetConnections(layer, layer)
    src = np.asarray(c.get("source")) - layer[0].global_id
    tgt = np.asarray(c.get("target")) - layer[0].global_id
    pos = np.asarray(nest.GetPosition(layer))
    d = pos[src] - pos[tgt]
    d -= np.round(d)
    dist = np.linalg.norm(d, axis=1)
    edges = np.linspace(0.0, 0.4, 9)
    return {"edges": edges.tolist(), "counts": np.histogram(dist, edges)[0].tolist(), "total": int(len(src))}


def main():
    fixture = {
        "nest_version": nest.__version__,
        "layers_spec": LAYERS,
        "layers": layers(),
        "displacements": displacements(),
        "masks": masks(),
        "weights": weights(),
        "dumps": dumps(),
        "degrees": degrees(),
        "probabilities": probabilities(),
    }
    with open(OUT, "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
    print(f"wrote {os.path.relpath(OUT)} ({os.path.getsize(OUT)} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
