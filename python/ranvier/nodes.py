"""NodeCollection: an ordered set of node ids, as PyNEST 3 has it."""

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, ClassVar

import numpy as np
from numpy.typing import DTypeLike

from . import _state, kernel_ref
from .errors import BadIndexError, BadParameterError, KernelStateError, UnknownNodeError
from .spatial.layers import spatial_of


class ParameterAccess:
    """How node collections read and write their parameters. That is parameters.py's job, a
    layer above this one (it makes node collections itself: a weight recorder's senders), so
    it fills these in when it is imported; ``import ranvier`` imports it."""

    get: ClassVar[Callable[..., Any]]  # get_parameters(nodes, keys)
    set: ClassVar[Callable[..., None]]  # set_parameters(nodes, params)
    places: ClassVar[Callable[..., dict[str, Any]]]  # places(gids): vp, thread, local


def to_json(values: Any) -> str:
    """PyNEST's JSON text of values: arrays, tuples and numpy scalars as JSON's lists and numbers."""

    def plain(v):
        if isinstance(v, (np.ndarray, NodeCollection)):
            return plain(v.tolist())
        if isinstance(v, np.generic):
            return v.item()
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        if isinstance(v, dict):
            return {plain(k): plain(x) for k, x in v.items()}
        return v

    return json.dumps(plain(values))


class NodeCollection:
    """Ascending, distinct node ids. Supports len, iteration, indexing, (step) slicing,
    ``a + b``, ``get``/``set`` and parameter attributes (``pop.V_m``).

    Consecutive ids (what Create makes, and slices and sums of such) are kept as their first id
    and count, never as an array: one rank of many holds few of a large network's neurons, and
    its memory must not grow with the populations' sizes (issue 31). ``_gids`` makes the array
    where one is needed; ``_ids`` is a ``range`` for consecutive ids, else that array."""

    __slots__ = ("_array", "_first", "_count", "_kernel")  # _array None: the range; the kernel whose nodes they are

    def __init__(self, gids: "Iterable[int | np.integer] | NodeCollection | np.ndarray" = ()) -> None:
        """gids: ascending distinct node ids, as any iterable of ints (a list, array, generator...)."""
        if isinstance(gids, NodeCollection):
            gids = gids._gids
        elif not isinstance(gids, np.ndarray):
            gids = list(gids)
        gids = np.asarray(gids)
        if gids.size and (gids.ndim != 1 or gids.dtype.kind not in "iu"):
            raise TypeError(f"node ids must be a one-dimensional sequence of integers, got {gids.tolist()!r}")
        gids = gids.astype(np.int64)
        if gids.size and (gids.min() < 1 or gids.max() > _state.state.n_nodes):
            bad = gids[(gids < 1) | (gids > _state.state.n_nodes)][0]
            raise UnknownNodeError(f"Node with id {bad} does not exist.")  # NEST's words
        if gids.size > 1 and np.any(np.diff(gids) == 0):
            raise BadParameterError(f"node ids of a NodeCollection must be distinct, got {gids.tolist()}")
        if gids.size > 1 and np.any(np.diff(gids) < 0):
            raise BadParameterError(f"node ids of a NodeCollection must be ascending, got {gids.tolist()}")
        self._store(gids.astype(np.uint32))

    @classmethod
    def _ascending(cls, gids):
        """A collection of gids known to be valid, ascending and distinct (no checks): an array
        or a ``range``."""
        nodes = object.__new__(cls)
        nodes._store(gids)
        return nodes

    def _store(self, gids) -> None:
        n = len(gids)
        if n and (gids.step == 1 if isinstance(gids, range) else int(gids[-1]) - int(gids[0]) + 1 == n):  # consecutive
            array, first = None, int(gids[0])
        else:
            array, first = np.asarray(gids, dtype=np.uint32), 0
        object.__setattr__(self, "_array", array)
        object.__setattr__(self, "_first", first)
        object.__setattr__(self, "_count", n)
        object.__setattr__(self, "_kernel", kernel_ref.current())

    @property
    def _ids(self) -> "range | np.ndarray":
        return range(self._first, self._first + self._count) if self._array is None else self._array

    @property
    def _gids(self) -> np.ndarray:
        if self._array is None:
            return np.arange(self._first, self._first + self._count, dtype=np.uint32)
        return self._array

    def _check_kernel(self) -> None:
        """Nodes of a kernel that ResetKernel replaced are gone: reading or setting them, or
        connecting them, would reach the new network's nodes of the same ids (NEST reads those,
        and refuses them to Connect)."""
        if len(self) and not kernel_ref.is_current(self._kernel):  # an empty one names nothing
            raise KernelStateError(
                f"this NodeCollection ({len(self)} nodes from {self._ids[0] if len(self) else '-'}) was made before "
                "ResetKernel and its nodes are gone; make them anew"
            )

    @property
    def global_id(self) -> int | np.ndarray:
        return int(self._ids[0]) if len(self) == 1 else self._gids.astype(np.int64)

    def tolist(self) -> list[int]:
        return [int(g) for g in self._gids]

    def _to_array(self, selection="all"):
        """PyNEST's debugging helper: {"All": ids}, {"Rank r": this rank's ids} or
        {thread: this rank's ids on that thread}."""
        if selection == "all":
            return {"All": self.tolist()}
        if selection not in ("rank", "thread"):
            raise BadParameterError(f"selection must be 'all', 'rank' or 'thread', got selection = {selection!r}")
        where = ParameterAccess.places(self._gids)
        local = self._gids[where["local"]].tolist()
        if selection == "rank":
            return {f"Rank {_state.state.kernel.rank}": local}
        by_thread: dict[int, list[int]] = {}
        for gid, thread in zip(local, where["thread"][where["local"]].tolist()):
            by_thread.setdefault(thread, []).append(gid)
        return by_thread

    def __array__(self, dtype: DTypeLike | None = None, copy: bool | None = None) -> np.ndarray:
        return self._gids.astype(dtype or np.int64)

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator["NodeCollection"]:
        for gid in self._ids:
            yield NodeCollection._ascending(range(int(gid), int(gid) + 1))

    def __getitem__(
        self, key: int | np.integer | slice | Sequence[int] | Sequence[bool] | np.ndarray
    ) -> "NodeCollection":
        """As PyNEST: an index, a slice (positive step, not empty, its start and stop inside the
        collection), or ascending distinct indices or a mask (a list, tuple or 1-d array)."""
        n = len(self)
        if isinstance(key, (int, np.integer)) and not isinstance(key, (bool, np.bool_)):
            if not -n <= key < n:
                raise BadIndexError(f"index {key} out of range for a NodeCollection of {n} nodes")
            gid = int(self._ids[key])
            return NodeCollection._ascending(range(gid, gid + 1))
        if isinstance(key, slice):
            return self._slice(key)
        if isinstance(key, (list, tuple)):
            if all(isinstance(k, (bool, np.bool_)) for k in key):
                key = np.asarray(key, dtype=bool)
            elif all(isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)) for k in key):
                key = np.asarray(key, dtype=np.int64)
            else:
                raise TypeError(f"indices must be integers or bools, got {list(key)!r}")
        if not isinstance(key, np.ndarray):
            raise BadIndexError(f"a NodeCollection takes an index, slice, list, tuple or array, got {key!r}")
        if key.size == 0:
            return NodeCollection._ascending(self._gids[:0])
        if key.ndim != 1 or key.dtype.kind not in "biu":
            raise TypeError(f"indices must be a one-dimensional array of integers or bools, got {key.tolist()!r}")
        if key.dtype == bool:
            if key.size != n:
                raise BadIndexError(f"a mask of a NodeCollection of {n} nodes needs {n} bools, got {key.size}")
            return NodeCollection._ascending(self._gids[key])
        if key.min() < 0 or key.max() >= n:
            raise BadIndexError(f"indices must be within 0..{n - 1}, got {key.tolist()}")
        if np.unique(key).size != key.size:
            raise ValueError(f"indices of a NodeCollection must be distinct, got {key.tolist()}")
        if np.any(np.diff(key) < 0):
            raise BadParameterError(f"indices of a NodeCollection must be ascending, got {key.tolist()}")
        return NodeCollection._ascending(self._gids[key])

    def _slice(self, key):
        n = len(self)
        if key.start is not None and not -n <= key.start < n:
            raise BadIndexError(f"slice start {key.start} outside of a NodeCollection of {n} nodes")
        if key.stop is not None and not 1 - n <= key.stop <= n:
            raise BadIndexError(f"slice stop {key.stop} outside of a NodeCollection of {n} nodes")
        if key.step is not None and key.step < 1:
            raise BadIndexError(f"slice step must be >= 1, got step = {key.step}")
        start, stop, _ = key.indices(n)
        if start >= stop:
            raise BadParameterError(f"slice start must be before its stop, got start = {start}, stop = {stop}")
        ids = self._ids[key]
        return NodeCollection._ascending(
            ids if isinstance(ids, range) and ids.step == 1 else np.asarray(ids, np.uint32)
        )

    def __add__(self, other: "NodeCollection | int") -> "NodeCollection":
        if isinstance(other, (int, float, np.number)) and not isinstance(other, bool) and other == 0:
            return self  # sum() of collections starts at 0
        if not isinstance(other, NodeCollection):
            raise TypeError(f"cannot add {type(other).__name__} to NodeCollection")
        first, second = sorted((self, other), key=lambda c: c._first if c._array is None or not len(c) else c._array[0])
        if first._array is None and second._array is None and first._first + first._count == second._first:
            return NodeCollection._ascending(range(first._first, second._first + second._count))  # end to end
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

    __radd__ = __add__

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NodeCollection):
            return False
        if self._array is None or other._array is None:  # consecutive ids are always kept as a range
            return self._array is other._array and (self._first, self._count) == (other._first, other._count)
        return np.array_equal(self._array, other._array)

    def __hash__(self) -> int:
        return hash((self._first, self._count) if self._array is None else self._array.tobytes())

    def __contains__(self, gid: Any) -> bool:
        gid = int(gid.global_id) if isinstance(gid, NodeCollection) else int(gid)
        if self._array is None:
            return gid in self._ids
        i = np.searchsorted(self._array, gid)
        return bool(i < len(self) and self._array[i] == gid)

    def index(self, gid: "int | np.integer | NodeCollection") -> int:
        if gid not in self:
            raise ValueError(f"node {gid} is not in the collection")
        if self._array is None:
            return int(gid) - self._first
        return int(np.searchsorted(self._array, int(gid)))

    def __repr__(self) -> str:
        if not len(self):
            return "NodeCollection(<empty>)"
        ids = self._ids
        models = sorted(m.name for m in _state.state.models_in(ids))
        return f"NodeCollection(model={','.join(models)}, size={len(self)}, first={ids[0]}, last={ids[-1]})"

    def get(self, *keys: str | Iterable[str], output: str = "") -> Any:
        """PyNEST's get: a value (a tuple of them for several nodes), a dict of them, or the
        values of a recorder's events (``get("events", "times")``); ``output="pandas"`` gives a
        DataFrame indexed by node id, ``output="json"`` the values as JSON text."""
        if output not in ("", "pandas", "json"):
            raise BadParameterError(f"output must be '', 'pandas' or 'json', got output = {output!r}")
        self._check_kernel()
        values = ParameterAccess.get(self, keys)
        if output == "json":
            return to_json(values)
        if output == "pandas":
            import pandas

            if len(keys) in (1, 2) and isinstance(keys[-1], str):  # one value (of the events)
                values = {keys[-1]: values}
            if len(self) == 1:
                values = {k: [v] for k, v in values.items()}
            return pandas.DataFrame(values, index=self.tolist())
        return values

    def set(
        self, params: dict[str, Any] | list[dict[str, Any]] | tuple[dict[str, Any], ...] | None = None, **kwargs: Any
    ) -> None:
        """PyNEST's set: a dict, keyword arguments, or a list of dicts, one per node."""
        self._check_kernel()
        if isinstance(params, (list, tuple)):
            if kwargs:
                raise BadParameterError(
                    f"set takes a list of dicts or keyword arguments, not both; got {', '.join(kwargs)} with the list"
                )
            ParameterAccess.set(self, params)
        else:
            ParameterAccess.set(self, {**(params or {}), **kwargs})

    @property
    def spatial(self) -> dict[str, Any] | None:
        return spatial_of(self)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return self.get(name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_"):
            raise AttributeError(f"cannot set {name}")
        self.set({name: value})


def kernel_ids(ids: "range | np.ndarray") -> "tuple[int, int] | np.ndarray":
    """Node ids as the kernel takes them: consecutive ones as (first, count), others as an array."""
    return (ids.start, len(ids)) if isinstance(ids, range) else np.ascontiguousarray(ids, dtype=np.uint32)


def ids_at(ids: "range | np.ndarray", positions: np.ndarray) -> np.ndarray:
    """The ids at positions (this rank's, mostly), as an array."""
    if isinstance(ids, range):
        return (np.asarray(positions, dtype=np.int64) + ids.start).astype(np.uint32)
    return np.ascontiguousarray(ids[positions])


def nonempty_nodes(nodes: Any, name: str) -> NodeCollection:
    if not isinstance(nodes, NodeCollection):
        raise BadParameterError(f"{name} must be a NodeCollection, got {type(nodes).__name__}")
    nodes._check_kernel()
    if len(nodes) == 0:
        raise BadParameterError(f"{name} must not be empty")
    return nodes
