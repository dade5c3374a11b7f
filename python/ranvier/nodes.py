"""NodeCollection: an ordered set of node ids, as PyNEST 3 has it."""

import numpy as np

from . import _state
from .errors import BadParameterError, UnknownNodeError


class NodeCollection:
    """Ascending, distinct node ids. Supports len, iteration, indexing, (step) slicing,
    ``a + b``, ``get``/``set`` and parameter attributes (``pop.V_m``)."""

    __slots__ = ("_gids",)

    def __init__(self, gids=()):
        gids = np.asarray(gids, dtype=np.int64).ravel()
        if gids.size and (gids.min() < 1 or gids.max() > _state.state.n_nodes):
            bad = gids[(gids < 1) | (gids > _state.state.n_nodes)][0]
            raise UnknownNodeError(f"node {bad} does not exist")
        if gids.size > 1 and np.any(np.diff(gids) <= 0):
            raise BadParameterError("node ids of a NodeCollection must be ascending and distinct")
        object.__setattr__(self, "_gids", gids.astype(np.uint32))

    @classmethod
    def _ascending(cls, gids):
        """A collection of gids known to be valid, ascending and distinct (no checks)."""
        nodes = object.__new__(cls)
        object.__setattr__(nodes, "_gids", gids)
        return nodes

    @property
    def global_id(self):
        return int(self._gids[0]) if len(self) == 1 else self._gids.astype(np.int64)

    def tolist(self):
        return [int(g) for g in self._gids]

    def __array__(self, dtype=None, copy=None):
        return self._gids.astype(dtype or np.int64)

    def __len__(self):
        return int(self._gids.size)

    def __iter__(self):
        for g in self._gids:
            yield NodeCollection([g])

    def __getitem__(self, key):
        if isinstance(key, (int, np.integer)):
            if not -len(self) <= key < len(self):
                raise IndexError(f"index {key} out of range for a NodeCollection of {len(self)} nodes")
            return NodeCollection([self._gids[key]])
        if isinstance(key, slice):
            if key.step is not None and key.step < 1:
                raise BadParameterError(f"slice step must be >= 1, got step = {key.step}")
            return NodeCollection._ascending(self._gids[key])
        selected = np.asarray(key)
        if selected.dtype == bool:
            return NodeCollection(self._gids[selected])
        return NodeCollection(np.sort(self._gids[selected.astype(np.int64)]))

    def __add__(self, other):
        if not isinstance(other, NodeCollection):
            return NotImplemented
        a, b = self._gids, other._gids
        if len(a) and len(b) and b[0] < a[0]:
            a, b = b, a
        if not len(a) or not len(b) or a[-1] < b[0]:  # one after the other: no search needed
            return NodeCollection._ascending(np.concatenate([a, b]))
        where = np.searchsorted(a, b)
        inside = where < len(a)
        if np.any(a[where[inside]] == b[inside]):
            raise BadParameterError("NodeCollections to join must not overlap")
        return NodeCollection._ascending(np.sort(np.concatenate([a, b]), kind="stable"))

    def __eq__(self, other):
        return isinstance(other, NodeCollection) and np.array_equal(self._gids, other._gids)

    def __hash__(self):
        return hash(self._gids.tobytes())

    def __contains__(self, gid):
        gid = int(gid.global_id) if isinstance(gid, NodeCollection) else int(gid)
        i = np.searchsorted(self._gids, gid)
        return bool(i < len(self) and self._gids[i] == gid)

    def index(self, gid):
        if gid not in self:
            raise ValueError(f"node {gid} is not in the collection")
        return int(np.searchsorted(self._gids, int(gid)))

    def __repr__(self):
        if not len(self):
            return "NodeCollection(<empty>)"
        models = sorted(m.name for m in _state.state.models_in(self._gids))
        return (
            f"NodeCollection(model={','.join(models)}, size={len(self)}, first={self._gids[0]}, last={self._gids[-1]})"
        )

    def get(self, *keys, output=""):
        """PyNEST's get; ``output="pandas"`` gives a DataFrame indexed by node id, "json" text."""
        from .parameters import get_parameters

        values = get_parameters(self, keys)
        if output == "":
            return values
        if output not in ("pandas", "json"):
            raise BadParameterError(f"output must be '', 'pandas' or 'json', got output = {output!r}")
        table = values if isinstance(values, dict) else {keys[0]: values}
        table = {
            k: np.atleast_1d(v).tolist() if not isinstance(v, list) else v for k, v in table.items() if k != "events"
        }
        if output == "json":
            import json

            return json.dumps(table)
        import pandas

        table.pop("global_id", None)
        return pandas.DataFrame(table, index=pandas.Index(self.tolist(), name="global_id"))

    def set(self, params=None, **kwargs):
        """PyNEST's set: a dict, keyword arguments, or a list of dicts, one per node."""
        from .parameters import set_parameters

        if isinstance(params, (list, tuple)):
            if kwargs:
                raise BadParameterError(
                    f"set takes a list of dicts or keyword arguments, not both; got {', '.join(kwargs)} with the list"
                )
            set_parameters(self, params)
        else:
            set_parameters(self, {**(params or {}), **kwargs})

    @property
    def spatial(self):
        from .spatial import spatial_of

        return spatial_of(self)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self.get(name)

    def __setattr__(self, name, value):
        if name.startswith("_"):
            raise AttributeError(f"cannot set {name}")
        self.set({name: value})
