"""A small SONATA network written with h5py for the tests: a population of 12 point neurons of
three node types (two models, stored out of node id order, some with per-node V_m), a virtual
population of 5 spike sources with a spike file, and two edge populations whose edges take
weight and delay from their own datasets or from their edge types. `expected_edges` is what
the files say, read back the simple way."""

import json
from pathlib import Path

import h5py
import numpy as np

CELL_TYPES = [100] * 4 + [102] * 3 + [101] * 5  # by node id: models alpha, exp, alpha
TYPE_PARAMS = {100: {"I_e": 380.0, "tau_m": 12.0}, 101: {"I_e": 0.0}, 102: {"I_e": 200.0}}
TYPE_MODELS = {100: "iaf_psc_alpha", 101: "iaf_psc_alpha", 102: "iaf_psc_exp"}
V_M = {2: -60.0, 9: -55.0}  # per-node dynamics_params of nodes 2 and 9
TYPE_DELAY = {200: 1.5, 201: 2.0, 300: 1.0}
TYPE_WEIGHT = {201: 5.0}  # 200 and 300 have none: their edges give theirs


def _types(path, key, header, rows):
    lines = [" ".join(header)] + [" ".join(str(v) for v in row) for row in rows]
    path.write_text("\n".join(lines) + "\n")


def write(folder: Path, output: bool = False) -> Path:
    """Writes the network under folder; returns the config's path."""
    rng = np.random.default_rng(7)
    net, comp = folder / "network", folder / "components"
    net.mkdir(parents=True), comp.mkdir()
    for t, params in TYPE_PARAMS.items():
        (comp / f"type{t}.json").write_text(json.dumps(params))
    (comp / "exc.json").write_text("{}")
    _types(
        net / "cell_types.csv",
        "node_type_id",
        ["node_type_id", "model_type", "model_template", "dynamics_params", "model_name"],
        [[t, "point_process", f"nest:{TYPE_MODELS[t]}", f"type{t}.json", '"a cell"'] for t in TYPE_PARAMS],
    )
    _types(net / "input_types.csv", "node_type_id", ["node_type_id", "model_type", "ei"], [[1, "virtual", "e"]])
    storage = rng.permutation(12)  # node k is stored at row where storage == k
    with h5py.File(net / "cells.h5", "w") as f:
        g = f.create_group("nodes/cells")
        g["node_id"] = storage
        g["node_type_id"] = np.asarray(CELL_TYPES)[storage]
        g["node_group_id"] = np.where(np.isin(storage, list(V_M)), 0, 1)
        g["node_group_index"] = np.where(
            np.isin(storage, list(V_M)), [sorted(V_M).index(k) if k in V_M else 0 for k in storage], 0
        )
        g["0/dynamics_params/V_m"] = np.asarray([V_M[k] for k in sorted(V_M)])
        g.create_group("1")
    with h5py.File(net / "inputs.h5", "w") as f:
        f["nodes/inputs/node_type_id"] = np.ones(5, dtype=np.int64)
    n = 150
    src, tgt = rng.integers(0, 12, n), np.sort(rng.integers(0, 12, n))
    types = rng.choice([200, 201], n)
    groups = rng.choice([0, 1, 2], n)
    index = np.zeros(n, dtype=np.int64)
    for k in range(3):
        index[groups == k] = np.arange((groups == k).sum())
    weights, delays = rng.uniform(-20, 60, n).round(2), rng.uniform(0.5, 4, n).round(1)
    with h5py.File(net / "cells_cells.h5", "w") as f:
        g = f.create_group("edges/cells_to_cells")
        g["source_node_id"], g["target_node_id"] = src, tgt
        g["source_node_id"].attrs["node_population"] = "cells"
        g["target_node_id"].attrs["node_population"] = "cells"
        g["edge_type_id"], g["edge_group_id"], g["edge_group_index"] = types, groups, index
        g["0/syn_weight"], g["0/delay"] = weights[groups == 0], delays[groups == 0]
        g["1/syn_weight"] = weights[groups == 1]
        g.create_group("2")
    _types(
        net / "cells_cells_types.csv",
        "edge_type_id",
        ["edge_type_id", "model_template", "delay", "syn_weight", "dynamics_params"],
        [[200, "static_synapse", 1.5, "NULL", "exc.json"], [201, "static_synapse", 2.0, 5.0, "exc.json"]],
    )
    m = 20
    in_src, in_tgt, in_w = rng.integers(0, 5, m), rng.integers(0, 12, m), rng.uniform(50, 300, m).round(1)
    with h5py.File(net / "inputs_cells.h5", "w") as f:
        g = f.create_group("edges/inputs_to_cells")
        g["source_node_id"], g["target_node_id"] = in_src, in_tgt
        g["source_node_id"].attrs["node_population"] = "inputs"
        g["target_node_id"].attrs["node_population"] = "cells"
        g["edge_type_id"] = np.full(m, 300)
        g["0/syn_weight"] = in_w
    _types(
        net / "inputs_cells_types.csv",
        "edge_type_id",
        ["edge_type_id", "model_template", "delay"],
        [[300, "static_synapse", 1.0]],
    )
    spike_ids = rng.integers(0, 5, 60)
    spike_times = rng.uniform(1, 190, 60).round(4)  # off the grid of 0.1 ms
    (folder / "inputs").mkdir()
    with h5py.File(folder / "inputs" / "spikes.h5", "w") as f:
        f["spikes/inputs/node_ids"], f["spikes/inputs/timestamps"] = spike_ids, spike_times
        f["spikes/inputs"].attrs["sorting"] = "none"
    np.savez(
        folder / "expected.npz",
        src=src,
        tgt=tgt,
        types=types,
        groups=groups,
        weights=weights,
        delays=delays,
        in_src=in_src,
        in_tgt=in_tgt,
        in_w=in_w,
        spike_ids=spike_ids,
        spike_times=spike_times,
    )
    config = {
        "manifest": {
            "$BASE_DIR": "${configdir}",
            "$NETWORK_DIR": "$BASE_DIR/network",
            "$COMPONENTS_DIR": "$BASE_DIR/components",
        },
        "components": {"point_neuron_models_dir": "$COMPONENTS_DIR", "synaptic_models_dir": "$COMPONENTS_DIR"},
        "networks": {
            "nodes": [
                {"nodes_file": "$NETWORK_DIR/cells.h5", "node_types_file": "$NETWORK_DIR/cell_types.csv"},
                {"nodes_file": "$NETWORK_DIR/inputs.h5", "node_types_file": "$NETWORK_DIR/input_types.csv"},
            ],
            "edges": [
                {"edges_file": "$NETWORK_DIR/cells_cells.h5", "edge_types_file": "$NETWORK_DIR/cells_cells_types.csv"},
                {
                    "edges_file": "$NETWORK_DIR/inputs_cells.h5",
                    "edge_types_file": "$NETWORK_DIR/inputs_cells_types.csv",
                },
            ],
        },
        "run": {"tstop": 200.0, "dt": 0.1},
        "target_simulator": "NEST",
        "inputs": {
            "external": {
                "input_type": "spikes",
                "module": "h5",
                "input_file": "./inputs/spikes.h5",
                "node_set": "inputs",
            }
        },
    }
    if output:
        config["output"] = {"output_dir": "$BASE_DIR/output", "spikes_file": "spikes.h5", "spikes_sort_order": "id"}
    path = folder / "config.json"
    path.write_text(json.dumps(config))
    return path


def expected_edges(folder: Path) -> list[tuple[int, int, float, float]]:
    """(source gid, target gid, weight, delay) of every edge, sorted, for the gids SonataNetwork
    gives: cells 1..12 by node id, inputs 13..17; delays in steps of 0.1 ms times 0.1, as NEST
    reports them."""
    e = np.load(folder / "expected.npz")
    out = []
    for s, t, ty, g, w, d in zip(e["src"], e["tgt"], e["types"], e["groups"], e["weights"], e["delays"]):
        weight = w if g in (0, 1) else TYPE_WEIGHT.get(int(ty), 1.0)
        delay = d if g == 0 else TYPE_DELAY[int(ty)]
        out.append((int(s) + 1, int(t) + 1, float(weight), round(delay / 0.1) * 0.1))
    for s, t, w in zip(e["in_src"], e["in_tgt"], e["in_w"]):
        out.append((int(s) + 13, int(t) + 1, float(w), round(TYPE_DELAY[300] / 0.1) * 0.1))
    return sorted(out)
