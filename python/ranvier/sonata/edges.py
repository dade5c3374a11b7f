"""A SONATA network's edges: each edge population of the edges files is read in hyperslabs
(``hdf5_hyperslab_size`` edges of every dataset at a time, so memory is bounded by it) and
connected by Connect of the slab's (source, target) pairs, one call per edge type. Each
process reads and checks every slab, and passes on only the pairs of its own targets, whose
connections it builds (construction over local targets, Ippen et al. 2017); every process
makes the same Connect calls, so an error in any slab raises on all.

An edge's synapse model, weight, delay and the model's per-connection parameters come from,
in rising precedence: the types table's columns (``model_template``, ``syn_weight``,
``delay``, ...), its ``dynamics_params`` JSON file, and the edge's own datasets in its edge
group (``syn_weight``, ``delay``, ...): the order NEST 3.10's sources read them in (its wheel,
built without HDF5, cannot run it to confirm).
"""

from typing import Any

import numpy as np

from .. import _state
from ..errors import BadParameterError
from ..network import connect_pairs
from ..node_queries import GetLocalNodeCollection
from ..nodes import NodeCollection
from . import spike_files
from .config import read_json
from .tables import read_types

HYPERSLAB_SIZE = 2**20  # NEST's default
_RENAMED = {"syn_weight": "weight", "model_template": "synapse_model"}


def check_hyperslab_size(size: Any) -> int:
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise TypeError(f"hdf5_hyperslab_size must be an int, got hdf5_hyperslab_size = {size!r}")
    if size <= 0:
        raise BadParameterError(f"hdf5_hyperslab_size must be positive, got hdf5_hyperslab_size = {size}")
    return int(size)


def _type_specs(types: dict[int, dict[str, Any]], folder: str | None, where: str) -> dict[int, dict[str, Any]]:
    """Each edge type's syn_spec: its synapse model with the table's and the JSON's values of
    the model's parameters."""
    specs = {}
    for type_id, row in types.items():
        values = {_RENAMED.get(k, k): v for k, v in row.items()}
        model = values.get("synapse_model", "static_synapse")
        if not isinstance(model, str) or _state.state.models.get(model, None) is None:
            raise BadParameterError(
                f"edge type {type_id} in {where!r} names synapse model {model!r}, which Ranvier lacks"
            )
        known = set(_state.state.models[model].defaults) | {"weight", "delay"}
        spec = {k: v for k, v in values.items() if k in known}
        if "dynamics_params" in values:
            spec.update(read_json(folder, values["dynamics_params"], "dynamics_params file"))
        specs[type_id] = {"synapse_model": model, **spec}
    return specs


class EdgeReader:
    """Connects the edge populations of a config's edges files between the nodes made."""

    def __init__(self, config: dict[str, Any], gids: dict[str, np.ndarray]) -> None:
        self.config, self.gids = config, gids
        self._local: dict[str, np.ndarray | None] = {}  # by population: which nodes are this rank's

    def _local_of(self, population: str) -> np.ndarray | None:
        """Whether each node of the population is this rank's; None: all are."""
        if population not in self._local:
            gids = self.gids[population]
            mine = np.isin(gids, GetLocalNodeCollection(NodeCollection(np.unique(gids).tolist())).tolist())
            self._local[population] = None if mine.all() else mine
        return self._local[population]

    def connect(self, hyperslab_size: int) -> None:
        h5py = spike_files.h5py_module()
        folder = self.config.get("components", {}).get("synaptic_models_dir")
        for entry in self.config.get("networks", {}).get("edges", []):
            if entry.get("enabled", True) is False:
                continue
            path = entry["edges_file"]
            specs = _type_specs(read_types(entry["edge_types_file"], "edge_type_id"), folder, entry["edge_types_file"])
            with h5py.File(path, "r") as f:
                for name, group in f["edges"].items():
                    self._population(name, group, specs, path, hyperslab_size)

    def _ends(self, group, end, path, name):
        dataset = group[f"{end}_node_id"]
        population = dataset.attrs.get("node_population")
        population = population.decode() if isinstance(population, bytes) else population
        if population not in self.gids:
            raise BadParameterError(
                f"the {end}s of edge population {name!r} in {path!r} are in node population {population!r}, "
                f"which the network lacks (it has {', '.join(sorted(self.gids))})"
            )
        return dataset, population

    def _population(self, name, group, specs, path, hyperslab_size):
        sources, source_population = self._ends(group, "source", path, name)
        targets, target_population = self._ends(group, "target", path, name)
        source_gids, target_gids = self.gids[source_population], self.gids[target_population]
        local = self._local_of(target_population)
        n = targets.shape[0]
        columns = ["edge_type_id"] + [c for c in ("edge_group_id", "edge_group_index") if c in group]
        for dataset in [sources, *(group[c] for c in columns)]:
            if dataset.shape[0] != n:
                raise BadParameterError(
                    f"{dataset.name} in {path!r} has {dataset.shape[0]} rows, target_node_id {n}: they must be equal"
                )
        for start in range(0, n, hyperslab_size):
            part = slice(start, min(start + hyperslab_size, n))
            src, tgt = sources[part].astype(np.int64), targets[part].astype(np.int64)
            for ids, gids, end in ((src, source_gids, "source"), (tgt, target_gids, "target")):
                if ids.size and (ids.min() < 0 or ids.max() >= len(gids)):
                    raise BadParameterError(
                        f"edge population {name!r} in {path!r} has {end} node ids outside 0..{len(gids) - 1}"
                    )
            type_ids = group["edge_type_id"][part]
            own = self._edge_values(group, part, len(type_ids))
            for type_id in np.unique(type_ids).tolist():
                if type_id not in specs:
                    raise BadParameterError(
                        f"edge population {name!r} in {path!r} uses edge type {type_id}, which its types table lacks"
                    )
                mine = np.flatnonzero(type_ids == type_id)
                spec = dict(specs[type_id])
                known = set(_state.state.models[spec["synapse_model"]].defaults) | {"weight", "delay"}
                defaults = _state.state.models[spec["synapse_model"]].defaults
                for key, values in own.items():
                    given = values[mine]
                    if key in known and not np.isnan(given).all():  # the type's value where an edge has none
                        spec[key] = np.where(np.isnan(given), spec.get(key, defaults.get(key, np.nan)), given)
                connect_pairs(
                    source_gids[src[mine]],
                    target_gids[tgt[mine]],
                    spec,
                    kept=None if local is None else local[tgt[mine]],
                )

    def _edge_values(self, group, part, n):
        """The slab's per-edge values from its edge groups, by name (NaN where an edge's group
        has none): syn_weight as weight, and every other dataset of the groups."""
        if "edge_group_id" in group:
            group_ids, index = group["edge_group_id"][part], group["edge_group_index"][part]
        else:  # one group, "0", edges in order
            group_ids, index = np.zeros(n, dtype=np.int64), np.arange(part.start, part.start + n)
        out: dict[str, np.ndarray] = {}
        for gid in np.unique(group_ids).tolist():
            edges = group.get(str(gid))
            if edges is None:
                continue
            mine = group_ids == gid
            rows = index[mine]
            lo, hi = int(rows.min()), int(rows.max()) + 1
            datasets = list(edges.items()) + list(edges.get("dynamics_params", {}).items())
            for key, dataset in datasets:
                if not hasattr(dataset, "shape") or len(dataset.shape) != 1 or dataset.dtype.kind not in "iuf":
                    continue  # the dynamics_params group itself, a table, or text
                values = out.setdefault(_RENAMED.get(key, key), np.full(n, np.nan))
                values[mine] = dataset[lo:hi][rows - lo]
        return out
