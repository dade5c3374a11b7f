"""Questions about layers: positions, displacements and distances (periodic where the
layer wraps), nearest nodes, the partners of connections, and text dumps, as PyNEST 3.10
answers them."""

import os
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike

from .. import _state
from ..connections import GetConnections
from ..errors import BadParameterError
from ..nodes import NodeCollection
from .layers import require_layer
from .masks import Mask, mask_from_spec


def _nodes(value, name):
    if not isinstance(value, NodeCollection):
        raise BadParameterError(f"{name} must be a NodeCollection, got {type(value).__name__}")
    return value


def _positions_of(nodes, name="nodes"):
    layer, index = require_layer(_nodes(nodes, name), name)
    return layer, layer.positions[index]


def GetPosition(nodes: NodeCollection) -> list[float] | list[list[float]]:
    """Position of one node (a list), or of each node (a list of lists)."""
    _, pos = _positions_of(nodes)
    return pos[0].tolist() if len(pos) == 1 else pos.tolist()


def _displacements(from_arg, to_arg):
    """NEST's Displacement as an array (n, dims). From nodes it is the wrapped difference
    from_pos - to_pos (as NEST 3.10 computes it); from given positions, to_pos - from_pos."""
    layer, to_pos = _positions_of(to_arg, "to_arg")
    if isinstance(from_arg, NodeCollection):
        _, from_pos = _positions_of(from_arg, "from_arg")
        first, second = to_pos, from_pos
    else:
        try:
            from_pos = np.asarray(from_arg, dtype=float).reshape(-1, layer.dims)
        except (TypeError, ValueError):
            raise BadParameterError(
                f"from_arg must be a NodeCollection or positions with {layer.dims} "
                f"coordinates, got from_arg = {from_arg!r}"
            ) from None
        first, second = from_pos, to_pos
    if len(first) > 1 and len(second) > 1 and len(first) != len(second):
        raise BadParameterError(
            f"to_arg and from_arg must have the same size unless one has size 1, got {len(from_pos)} and {len(to_pos)}"
        )
    return layer.displacement(first, second)


def Displacement(from_arg: NodeCollection | ArrayLike, to_arg: NodeCollection) -> list[list[float]]:
    return _displacements(from_arg, to_arg).tolist()


def Distance(from_arg: NodeCollection | ArrayLike, to_arg: NodeCollection) -> list[float]:
    return np.linalg.norm(_displacements(from_arg, to_arg), axis=1).tolist()


def FindNearestElement(layer: NodeCollection, locations: ArrayLike, find_all: bool = False) -> Any:
    """The node nearest each location (ties: the first, or all of them with find_all)."""
    _nodes(layer, "layer")
    locations = np.asarray(locations, dtype=float)
    dimensions = len(cast(dict[str, Any], layer.spatial)["center"])
    if locations.size == 0 or locations.shape[-1] != dimensions or locations.ndim > 2:
        raise BadParameterError(
            f"locations must be a position of {dimensions} coordinates or a list of them, got locations = "
            f"{locations.tolist()!r}"
        )
    single = locations.ndim == 1
    result: list[Any] = []
    for loc in np.atleast_2d(locations):
        d = np.asarray(Distance(loc[None, :], layer))
        if not find_all:
            result.append(layer[int(np.argmin(d))])
        else:
            best = d.min()
            result.append([layer[int(i)] for i in np.flatnonzero(np.abs(d - best) <= 1e-14 * best)])
    return result[0] if single or len(result) == 1 else result


def FindCenterElement(layer: NodeCollection) -> Any:
    return FindNearestElement(layer, cast(dict[str, Any], layer.spatial)["center"])


def _connections(sources, targets, syn_model):
    conns = GetConnections(sources, targets, synapse_model=syn_model, gather=True)
    return np.asarray(conns.get("source")).ravel(), np.asarray(conns.get("target")).ravel()


def _partners(owners, others, syn_model, by_source):
    src, tgt = _connections(owners if by_source else others, others if by_source else owners, syn_model)
    mine, theirs = (src, tgt) if by_source else (tgt, src)
    return {gid: np.unique(theirs[mine == gid]) for gid in owners.tolist()}


def GetTargetNodes(
    sources: NodeCollection, tgt_layer: NodeCollection, syn_model: str | None = None
) -> tuple[NodeCollection, ...]:
    """For each source, its targets in tgt_layer (a tuple of NodeCollections)."""
    found = _partners(_nodes(sources, "sources"), _nodes(tgt_layer, "tgt_layer"), syn_model, True)
    return tuple(NodeCollection(found[g]) for g in sources.tolist())


def GetSourceNodes(
    src_layer: NodeCollection, targets: NodeCollection, syn_model: str | None = None
) -> tuple[NodeCollection, ...]:
    """For each target, its sources in src_layer (a tuple of NodeCollections)."""
    found = _partners(_nodes(targets, "targets"), _nodes(src_layer, "src_layer"), syn_model, False)
    return tuple(NodeCollection(found[g]) for g in targets.tolist())


def _partner_positions(owners, layer, syn_model, by_source):
    layer_info, index = require_layer(layer, "tgt_layer" if by_source else "src_layer")
    first = int(layer._gids[0]) - int(index[0])
    src, tgt = _connections(owners if by_source else layer, layer if by_source else owners, syn_model)
    mine, theirs = (src, tgt) if by_source else (tgt, src)
    return [layer_info.positions[theirs[mine == g].astype(np.int64) - first].tolist() for g in owners.tolist()]


def GetTargetPositions(
    sources: NodeCollection, tgt_layer: NodeCollection, syn_model: str | None = None
) -> list[list[list[float]]]:
    """For each source, the positions of its targets (one per connection)."""
    return _partner_positions(_nodes(sources, "sources"), _nodes(tgt_layer, "tgt_layer"), syn_model, True)


def GetSourcePositions(
    src_layer: NodeCollection, targets: NodeCollection, syn_model: str | None = None
) -> list[list[list[float]]]:
    """For each target, the positions of its sources (one per connection)."""
    return _partner_positions(_nodes(targets, "targets"), _nodes(src_layer, "src_layer"), syn_model, False)


def _rank_file(name):
    n, rank = _state.state.kernel.num_processes, _state.state.kernel.rank
    if n == 1:
        return str(name)
    name, digits = str(name), len(str(n - 1))
    dot = name.find(".")
    return f"{name}-{rank:0{digits}d}" if dot < 0 else f"{name[:dot]}-{rank:0{digits}d}{name[dot:]}"


def DumpLayerNodes(layer: NodeCollection, outname: str | os.PathLike[str]) -> None:
    """Writes 'gid x y [z]' for each node, one line each."""
    _, pos = _positions_of(layer, "layer")
    with open(_rank_file(outname), "w") as f:
        for gid, p in zip(layer.tolist(), pos):
            f.write(f"{gid} " + " ".join(f"{v:g}" for v in p) + "\n")


def DumpLayerConnections(
    source_layer: NodeCollection,
    target_layer: NodeCollection,
    synapse_model: str | None,
    outname: str | os.PathLike[str],
) -> None:
    """Writes 'source target weight delay dx dy [dz]' for each connection from source_layer
    to target_layer, the displacement from source to target in the target layer."""
    src_info, src_pos = _positions_of(source_layer, "source_layer")
    tgt_info, tgt_pos = _positions_of(target_layer, "target_layer")
    conns = GetConnections(source_layer, target_layer, synapse_model=synapse_model, gather=True)
    src, tgt = np.asarray(conns.get("source")).ravel(), np.asarray(conns.get("target")).ravel()
    w, d = np.asarray(conns.get("weight")).ravel(), np.asarray(conns.get("delay")).ravel()
    disp = tgt_info.displacement(
        src_pos[np.searchsorted(source_layer._gids, src)], tgt_pos[np.searchsorted(target_layer._gids, tgt)]
    )
    with open(_rank_file(outname), "w") as f:
        for row in range(len(src)):
            f.write(f"{src[row]} {tgt[row]} {w[row]:g} {d[row]:g} " + " ".join(f"{v:g}" for v in disp[row]) + "\n")


def SelectNodesByMask(layer: NodeCollection, anchor: ArrayLike, mask_obj: Mask | dict[str, Any]) -> NodeCollection:
    """The nodes of `layer` inside `mask_obj` placed at position `anchor`."""
    info, pos = _positions_of(layer, "layer")
    mask = mask_from_spec(mask_obj)
    anchor = np.asarray(anchor, dtype=float)
    if anchor.shape != (info.dims,):
        raise BadParameterError(f"anchor must be {info.dims} numbers, got anchor = {anchor.tolist()}")
    inside = mask.select(info, anchor, pos)
    return NodeCollection(layer._gids[inside])
