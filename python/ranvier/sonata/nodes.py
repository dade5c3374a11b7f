"""A SONATA network's nodes: each node population of the nodes files becomes Create calls,
one per run of consecutive nodes (by node id) of one model. Point neurons take their model
from the types table's ``model_template`` (``nest:<model>``) and their parameters from its
``dynamics_params`` JSON file, then from the population's per-node ``dynamics_params``
datasets; virtual nodes become spike_train_injectors that emit the spikes of the input whose
``node_set`` is the population."""

from pathlib import Path
from typing import Any

import numpy as np

from ..errors import BadParameterError
from ..network import Create
from ..nodes import NodeCollection
from . import populations, spike_files
from .config import read_json
from .tables import read_types

NEURON_TYPES = ("point_neuron", "point_process")
TEMPLATE_PREFIXES = ("nest:", "ranvier:")


def _model(template: Any, where: str) -> str:
    for prefix in TEMPLATE_PREFIXES:
        if isinstance(template, str) and template.startswith(prefix):
            return template[len(prefix) :]
    raise BadParameterError(
        f"model_template must name a model as nest:<model>, got model_template = {template!r} in {where}"
    )


def _node_order(group, path: str, name: str) -> np.ndarray:
    """The positions of the population's nodes in node id order (node ids 0..n-1)."""
    n = group["node_type_id"].shape[0]
    if "node_id" not in group:
        return np.arange(n)
    ids = group["node_id"][:].astype(np.int64)
    order = np.argsort(ids, kind="stable")
    if not np.array_equal(ids[order], np.arange(n)):
        raise BadParameterError(f"the node ids of population {name!r} in {path!r} are not 0..{n - 1}")
    return order


def _per_node_parameters(group, order: np.ndarray) -> dict[str, np.ndarray]:
    """The population's per-node dynamics_params datasets (in its node groups), by node id;
    NaN where a node's group has none."""
    if "node_group_id" not in group:
        return {}
    group_ids, index = group["node_group_id"][:][order], group["node_group_index"][:][order]
    out: dict[str, np.ndarray] = {}
    for gid in np.unique(group_ids):
        params = group.get(f"{gid}/dynamics_params")
        if params is None:
            continue
        mine = group_ids == gid
        for name, dataset in params.items():
            values = out.setdefault(name, np.full(len(order), np.nan))
            values[mine] = dataset[:][index[mine]]
    return out


class NodeBuilder:
    """Creates the populations of a config's nodes files; remembers each population's node ids."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.collections: dict[str, NodeCollection] = {}
        self.gids: dict[str, np.ndarray] = {}  # population -> gid of each node id
        self.virtual: set[str] = set()

    def create(self) -> dict[str, NodeCollection]:
        h5py = spike_files.h5py_module()
        for entry in self.config.get("networks", {}).get("nodes", []):
            path, types_path = entry["nodes_file"], entry["node_types_file"]
            types = read_types(types_path, "node_type_id")
            with h5py.File(path, "r") as f:
                for name, group in f["nodes"].items():
                    if name in self.collections:
                        raise BadParameterError(f"node population {name!r} is defined twice (again in {path!r})")
                    self._population(name, group, types, path, types_path)
        return self.collections

    def _population(self, name, group, types, path, types_path):
        order = _node_order(group, path, name)
        type_ids = group["node_type_id"][:][order]
        unknown = set(np.unique(type_ids).tolist()) - set(types)
        if unknown:
            raise BadParameterError(
                f"population {name!r} in {path!r} uses node types {sorted(unknown)} that {types_path!r} lacks"
            )
        kinds = {types[t].get("model_type") for t in np.unique(type_ids).tolist()}
        if len(kinds) != 1:
            raise BadParameterError(
                f"population {name!r} mixes model types {sorted(map(str, kinds))}: Ranvier takes one per population"
            )
        kind = kinds.pop()
        if kind == "virtual":
            nodes = self._injectors(name, len(order))
            self.virtual.add(name)
        elif kind in NEURON_TYPES:
            nodes = self._neurons(name, type_ids, types, _per_node_parameters(group, order), types_path)
        else:
            raise BadParameterError(
                f"model_type {kind!r} of population {name!r} is not one Ranvier runs: point_process or virtual"
            )
        self.collections[name] = nodes
        self.gids[name] = nodes._gids.astype(np.int64)

    def _neurons(self, name, type_ids, types, per_node, types_path):
        models = np.array([_model(types[t].get("model_template"), types_path) for t in type_ids.tolist()])
        cuts = np.r_[0, np.flatnonzero(models[1:] != models[:-1]) + 1, len(models)]
        parts = []
        for start, stop in zip(cuts[:-1], cuts[1:]):
            nodes = Create(str(models[start]), int(stop - start))
            populations.register(int(nodes._gids[0]), name, int(start))
            for t in np.unique(type_ids[start:stop]).tolist():
                if "dynamics_params" in types[t]:
                    folder = self.config.get("components", {}).get("point_neuron_models_dir")
                    params = read_json(folder, types[t]["dynamics_params"], "dynamics_params file")
                    nodes[type_ids[start:stop] == t].set(params)
            for param, values in per_node.items():
                mine = values[start:stop]
                given = ~np.isnan(mine)
                if given.any():
                    nodes[given].set({param: mine[given]})
            parts.append(nodes)
        out = parts[0]
        for part in parts[1:]:
            out = out + part
        return out

    def _input_file(self, population: str) -> str:
        sets = {}
        if "node_sets_file" in self.config and Path(self.config["node_sets_file"]).is_file():
            sets = read_json(None, self.config["node_sets_file"], "node sets file")
        for spec in self.config.get("inputs", {}).values():
            if spec.get("input_type", "spikes") != "spikes":
                continue
            node_set = spec.get("node_set")
            named = sets.get(node_set, {}) if isinstance(node_set, str) else node_set or {}
            if node_set == population or (isinstance(named, dict) and named.get("population") == population):
                return spec["input_file"]
        raise BadParameterError(f"no spike input of the config has node_set {population!r}, the virtual population")

    def _injectors(self, name, n):
        path = self._input_file(name)
        trains = spike_files.read_spikes(path)
        key = name if name in trains else ""  # "": a file of the older layout, without populations
        if key not in trains:
            raise BadParameterError(f"the spike file {path!r} has no population {name!r}")
        ids, times = trains[key]
        if ids.size and (ids.min() < 0 or ids.max() >= n):
            raise BadParameterError(f"the spike file {path!r} names node ids of {name!r} outside 0..{n - 1}")
        order = np.lexsort((times, ids))
        ids, times = ids[order], times[order]
        bounds = np.searchsorted(ids, np.arange(n + 1))
        params = [{"spike_times": times[bounds[k] : bounds[k + 1]], "allow_offgrid_times": True} for k in range(n)]
        nodes = Create("spike_train_injector", n, params=params)
        populations.register(int(nodes._gids[0]), name, 0)
        return nodes
