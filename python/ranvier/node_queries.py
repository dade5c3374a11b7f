"""Questions about the network's nodes: GetNodes, GetLocalNodeCollection, PrintNodes."""

from typing import Any

import numpy as np

from . import _state
from .errors import BadParameterError, kernel_errors
from .nodes import NodeCollection
from .parameters import _groups_by_model


def _all_nodes():
    return NodeCollection._ascending(range(1, _state.state.n_nodes + 1))


def GetNodes(properties: dict[str, Any] | None = None, local_only: bool = False) -> NodeCollection:
    """Every node whose parameters equal `properties` (all nodes without), as one collection."""
    if properties is not None and not isinstance(properties, dict):
        raise BadParameterError(f"properties must be a dict, got properties = {properties!r}")
    nodes = GetLocalNodeCollection(_all_nodes()) if local_only else _all_nodes()
    if not properties or not len(nodes):
        return nodes
    found = []
    for model, gids in _groups_by_model(nodes):
        if any(k not in model.defaults and k != "model" for k in properties):
            continue
        keep = np.ones(len(gids), dtype=bool)
        for key, wanted in properties.items():
            values = model.name if key == "model" else NodeCollection._ascending(gids).get(key)
            values = np.broadcast_to(np.asarray(values, dtype=object), (len(gids),))
            keep &= np.asarray([v == wanted for v in values], dtype=bool)
        found.append(gids[keep])
    return NodeCollection._ascending(np.sort(np.concatenate(found))) if found else NodeCollection()


def GetLocalNodeCollection(nodes: NodeCollection) -> NodeCollection:
    """The nodes of `nodes` that live on this MPI rank (devices live on every rank)."""
    if not isinstance(nodes, NodeCollection):
        raise BadParameterError(f"nodes must be a NodeCollection, got {type(nodes).__name__}")
    gids = nodes._gids
    is_neuron = np.asarray([m.kind == "neuron" for m in _state.state.models_of(gids)], dtype=bool)
    local = ~is_neuron
    if is_neuron.any():
        with kernel_errors():
            positions = _state.state.kernel.local_positions(np.ascontiguousarray(gids[is_neuron]))
        local[np.flatnonzero(is_neuron)[positions]] = True
    return NodeCollection._ascending(gids[local])


def PrintNodes() -> None:
    """One line per run of consecutive node ids of one model, as NEST prints them."""
    s = _state.state
    starts = s.range_starts + [s.n_nodes + 1]
    width = len(str(s.n_nodes))
    lines: list[list[Any]] = []
    for k, model in enumerate(s.range_models):
        first, last = starts[k], starts[k + 1] - 1
        if lines and lines[-1][2] == model.name and lines[-1][1] == first - 1:
            lines[-1][1] = last
        else:
            lines.append([first, last, model.name])
    for first, last, name in lines:
        ids = f"{first:>{width}}" if first == last else f"{first:>{width}} .. {last:>{width}}"
        print(f"{ids} {name}")
