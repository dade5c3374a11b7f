"""Layers: where the nodes of a Create call sit (``positions=grid(...)`` or ``free(...)``),
with NEST 3.10's rules for the default extent and centre and the order of grid nodes."""

import math
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
from numpy.typing import ArrayLike

from .. import _state
from ..errors import BadParameterError
from ..random import Parameter


class Nodes(Protocol):
    """What this layer reads of a NodeCollection (nodes.py, a layer above): its node ids."""

    @property
    def _gids(self) -> np.ndarray: ...

    def __len__(self) -> int: ...


def _vector(name, value, dims=None):
    try:
        v = np.asarray(value, dtype=float).ravel()
    except (TypeError, ValueError):
        raise BadParameterError(f"{name} must be a list of numbers, got {name} = {value!r}") from None
    if (dims is not None and v.size != dims) or v.size not in (2, 3) or not np.all(np.isfinite(v)):
        want = f"{dims}" if dims is not None else "2 or 3"
        raise BadParameterError(f"{name} must be {want} finite numbers, got {name} = {value!r}")
    return v


def _edge_wrap(value):
    if not isinstance(value, (bool, np.bool_)):
        raise BadParameterError(f"edge_wrap must be True or False, got edge_wrap = {value!r}")
    return bool(value)


class Layer:
    """The positions of one Create call's nodes, stored once (by node index in the call)."""

    def __init__(
        self,
        positions: ArrayLike,
        extent: ArrayLike,
        center: ArrayLike,
        edge_wrap: bool,
        shape: list[int] | None = None,
    ) -> None:
        self.positions = np.ascontiguousarray(positions, dtype=float)
        self.extent, self.center = np.asarray(extent, dtype=float), np.asarray(center, dtype=float)
        self.edge_wrap, self.shape = edge_wrap, shape
        self.dims = self.positions.shape[1]

    @property
    def lower_left(self) -> np.ndarray:
        return self.center - self.extent / 2

    def displacement(self, from_pos: ArrayLike, to_pos: ArrayLike) -> np.ndarray:
        """NEST's displacement from -> to: periodic dimensions wrap into [-extent/2, extent/2)."""
        d = np.asarray(to_pos, dtype=float) - np.asarray(from_pos, dtype=float)
        if self.edge_wrap:
            half = 0.5 * self.extent
            d = -half + np.fmod(d + half, self.extent)
            d = np.where(d < -half, d + self.extent, d)
        return d


class grid:
    """Nodes on a regular grid: ``shape`` is (columns, rows[, layers]); nodes are numbered
    column by column, rows from the top (largest y) down, depth from the front up."""

    def __init__(
        self,
        shape: Sequence[int],
        extent: ArrayLike | None = None,
        center: ArrayLike | None = None,
        edge_wrap: bool = False,
    ) -> None:
        try:
            self.shape = [int(s) for s in shape]
        except (TypeError, ValueError):
            raise BadParameterError(f"shape must be 2 or 3 positive integers, got shape = {shape!r}") from None
        if len(self.shape) not in (2, 3) or min(self.shape) < 1 or any(s != t for s, t in zip(self.shape, shape)):
            raise BadParameterError(f"shape must be 2 or 3 positive integers, got shape = {shape!r}")
        dims = len(self.shape)
        self.extent = None if extent is None else _vector("extent", extent, dims)
        if self.extent is not None and np.any(self.extent <= 0):
            raise BadParameterError(f"extent must be > 0 in every dimension, got extent = {extent!r}")
        self.center = None if center is None else _vector("center", center, dims)
        self.edge_wrap = _edge_wrap(edge_wrap)

    def count(self) -> int | None:
        return math.prod(self.shape)

    def layer(self, n: int, gids: np.ndarray) -> Layer:
        dims = len(self.shape)
        extent = self.extent if self.extent is not None else np.ones(dims)
        center = self.center if self.center is not None else np.zeros(dims)
        # from the upper left corner, y stepping down: NEST's order of operations, to the bit
        corner, span = center - extent / 2, extent.copy()
        corner[1] += span[1]
        span[1] = -span[1]
        step = span / np.asarray(self.shape)
        axes = [corner[k] + step[k] * np.arange(self.shape[k]) + step[k] * 0.5 for k in range(dims)]
        mesh = np.meshgrid(*axes, indexing="ij")  # x slowest, then y, then z
        positions = np.column_stack([m.ravel() for m in mesh])
        return Layer(positions, extent, center, self.edge_wrap, shape=list(self.shape))


class free:
    """Nodes at given positions (an (n, 2) or (n, 3) list), or drawn from a random parameter
    (one per dimension, or one for all with ``num_dimensions``)."""

    pos: list[Parameter] | np.ndarray

    def __init__(
        self,
        pos: Any,
        extent: Sequence[float] | np.ndarray | None = None,
        edge_wrap: bool = False,
        num_dimensions: int | None = None,
    ) -> None:
        if extent is not None and num_dimensions is not None:
            raise BadParameterError("extent and num_dimensions cannot be given together")
        self.edge_wrap = _edge_wrap(edge_wrap)
        if isinstance(pos, Parameter):
            dims = len(extent) if extent is not None else num_dimensions
            if dims not in (2, 3):
                raise BadParameterError(
                    f"num_dimensions must be 2 or 3 with a parameter as pos, got num_dimensions = {num_dimensions!r}"
                )
            self.pos = [pos] * dims
        elif isinstance(pos, (list, tuple)) and pos and all(isinstance(p, Parameter) for p in pos):
            if num_dimensions is not None or len(pos) not in (2, 3):
                raise BadParameterError(f"pos as parameters needs 2 or 3 of them, got {len(pos)}")
            self.pos = list(pos)
        else:
            if num_dimensions is not None:
                raise BadParameterError("num_dimensions cannot be given with an array of positions")
            try:
                self.pos = np.asarray(pos, dtype=float)
            except (TypeError, ValueError):
                raise BadParameterError(f"pos must be a list of positions or a parameter, got pos = {pos!r}") from None
            if self.pos.ndim != 2 or self.pos.shape[1] not in (2, 3) or not np.all(np.isfinite(self.pos)):
                raise BadParameterError(
                    f"pos must have shape (n, 2) or (n, 3) of finite numbers, got shape {self.pos.shape}"
                )
        dims = len(self.pos) if isinstance(self.pos, list) else self.pos.shape[1]
        self.extent = None if extent is None else _vector("extent", extent, dims)
        if self.extent is not None and np.any(self.extent <= 0):
            raise BadParameterError(f"extent must be > 0 in every dimension, got extent = {extent!r}")

    def count(self) -> int | None:
        return None if isinstance(self.pos, list) else len(self.pos)

    def layer(self, n: int, gids: np.ndarray) -> Layer:
        if isinstance(self.pos, list):
            kernel = _state.state.kernel
            positions = np.column_stack([kernel.draw_node_values(p.spec(), gids) for p in self.pos])
        else:
            positions = self.pos
            if len(positions) != n:
                raise BadParameterError(f"pos must hold one position per node: {n} nodes, {len(positions)} positions")
        low, high = positions.min(axis=0), positions.max(axis=0)
        center = (low + high) / 2
        if self.extent is None:
            if n <= 1:
                raise BadParameterError("a free layer of one node needs its extent")
            extent = np.ceil(high - low)  # NEST 3.10: the points' extent, rounded up
        else:
            extent = self.extent
            if np.any(low < center - extent / 2) or np.any(high > center + extent / 2):
                raise BadParameterError(f"node positions lie outside the layer of extent = {list(extent)}")
        return Layer(positions, extent, center, self.edge_wrap)


def layer_of(nodes: Nodes, name: str = "nodes") -> tuple[Layer, np.ndarray] | None:
    """The layer of a NodeCollection and the index of each of its nodes in it; None if the
    nodes have no positions. Nodes of two layers are an error."""
    s = _state.state
    gids = nodes._gids
    if not len(gids) or not s.positions:
        return None
    starts = np.asarray(s.range_starts)
    calls = np.searchsorted(starts, gids[[0, -1]], side="right") - 1
    first = int(starts[calls[0]])
    layer = s.positions.get(first)
    if layer is None:
        return None
    if calls[0] != calls[1]:
        raise BadParameterError(f"{name} must belong to one layer, got nodes of several Create calls")
    return layer, (gids.astype(np.int64) - first)


def require_layer(nodes: Nodes, name: str = "nodes") -> tuple[Layer, np.ndarray]:
    found = layer_of(nodes, name)
    if found is None:
        raise BadParameterError(f"{name} must be a layer (nodes created with positions)")
    return found


def spatial_of(nodes: Nodes) -> dict[str, Any] | None:
    """``NodeCollection.spatial``: NEST's dict (extent, center, edge_wrap, network_size, and
    shape for grids or positions for free layers); None for nodes without positions."""
    found = layer_of(nodes)
    if found is None:
        return None
    layer, index = found
    info = {
        "center": layer.center.copy(),
        "edge_wrap": layer.edge_wrap,
        "extent": layer.extent.copy(),
        "network_size": len(nodes),
    }
    if layer.shape is not None and len(index) == len(layer.positions):
        info["shape"] = np.asarray(layer.shape)
    else:
        info["positions"] = layer.positions[index]
    return info


def connection_distances(sources: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """NEST's SynapseCollection.distance: for each connection the distance from its source's
    position to its target's (periodic where the target's layer wraps); NaN where either node
    has no position or their layers differ in dimensions."""
    s = _state.state
    out = np.full(len(sources), np.nan)
    if not s.positions or not len(sources):
        return out
    starts = np.asarray(s.range_starts)
    calls = [np.searchsorted(starts, ids, side="right") - 1 for ids in (sources, targets)]
    pairs, which = np.unique(np.stack(calls, axis=1), axis=0, return_inverse=True)
    for k, (source_call, target_call) in enumerate(pairs.tolist()):
        source_layer = s.positions.get(int(starts[source_call]))
        target_layer = s.positions.get(int(starts[target_call]))
        if source_layer is None or target_layer is None or source_layer.dims != target_layer.dims:
            continue
        mine = which.ravel() == k
        from_pos = source_layer.positions[sources[mine] - starts[source_call]]
        to_pos = target_layer.positions[targets[mine] - starts[target_call]]
        out[mine] = np.linalg.norm(target_layer.displacement(from_pos, to_pos), axis=1)
    return out
