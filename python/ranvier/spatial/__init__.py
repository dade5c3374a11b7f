"""NEST's spatial module: layers (``grid``, ``free``), spatial parameters (``distance``,
``source_pos``, ``target_pos``, ``pos`` of nodes), masks and spatial Connect. The layer queries
(queries.py) and plots (plotting.py) sit a layer higher, on connections and node collections:
this package's namespace leaves them out, and ``ranvier`` exports them."""

import warnings
from typing import Any

from ..errors import BadParameterError
from . import connect
from .layers import free, grid, spatial_of
from .masks import CreateMask, Mask
from .parameters import distance, pos, source_pos, target_pos


def layer_size(positions: grid | free, n: Any) -> int:
    """The number of nodes Create makes for `positions` (grid: its shape; free: its list)."""
    if not isinstance(positions, (grid, free)):
        raise BadParameterError(f"positions must be a spatial.grid or spatial.free, got positions = {positions!r}")
    if isinstance(positions, grid) and n != 1:
        raise BadParameterError(f"n cannot be given with grid positions, got n = {n!r}")
    count = positions.count()
    if count is not None and n not in (1, count):  # NEST makes count nodes whatever n says (its suite relies on it)
        warnings.warn(f"Create makes {count} nodes, one per position given, not n = {n!r}", stacklevel=3)
    return n if count is None else count
