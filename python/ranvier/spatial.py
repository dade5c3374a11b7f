"""Node positions given at Create (``positions=rv.spatial.free(...)`` or ``grid``)."""
import numpy as np

from . import _state
from .errors import BadParameterError
from .random import Parameter


class free:
    """Positions given as an (n, d) array, or drawn uniformly from a random parameter."""

    def __init__(self, pos, extent=None, num_dimensions=2):
        self.pos, self.extent, self.num_dimensions = pos, extent, num_dimensions

    def positions(self, n, gids):
        if isinstance(self.pos, Parameter):
            columns = [_state.state.kernel.draw_node_values(self.pos.spec(), gids) for _ in range(self.num_dimensions)]
            return np.column_stack(columns)
        pos = np.asarray(self.pos, dtype=float)
        if pos.ndim != 2 or pos.shape[0] != n or pos.shape[1] not in (2, 3):
            raise BadParameterError(f"positions must have shape ({n}, 2) or ({n}, 3), got {pos.shape}")
        return pos


class grid:
    """Nodes on a regular grid of the given shape, centred on the origin, spacing 1 / extent."""

    def __init__(self, shape, extent=None, center=None):
        self.shape = tuple(int(s) for s in shape)
        self.extent = extent or [1.0] * len(self.shape)
        self.center = center or [0.0] * len(self.shape)

    def count(self):
        return int(np.prod(self.shape))

    def positions(self, n, gids):
        axes = [c - e / 2 + (np.arange(s) + 0.5) * e / s for s, e, c in zip(self.shape, self.extent, self.center)]
        mesh = np.meshgrid(*axes, indexing="ij")
        return np.column_stack([m.ravel() for m in mesh])


def spatial_of(nodes):
    for first, pos in _state.state.positions.items():
        if int(nodes._gids[0]) >= first and int(nodes._gids[0]) < first + len(pos):
            return {"positions": pos[nodes._gids.astype(np.int64) - first]}
    return None


def GetPosition(nodes):
    info = spatial_of(nodes)
    if info is None:
        raise BadParameterError("these nodes were created without positions")
    return info["positions"]
