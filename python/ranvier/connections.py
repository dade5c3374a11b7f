"""GetConnections and its result, the SynapseCollection: one array per connection property."""

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from . import _state, eprop, kernel_ref, synapse_aliases
from .errors import BadParameterError, KernelStateError, UnknownParameterError, kernel_errors
from .models import _model
from .nodes import NodeCollection, nonempty_nodes, to_json
from .parameter_arithmetic import Parameter
from .parameters import apply_pending
from .spatial.layers import connection_distances

# What a connection keeps for its life: a get reads the rest anew.
_FIXED = ("source", "target", "delay", "synapse_model", "receptor", "target_thread")
# Also shown, as NEST: port (the connection's position among its thread's of its model, which
# changes as connections are added: read anew, never set) and synapse_id (the model's id, or a
# model's own per-connection value of that name)


REMOVED = np.uint32(0xFFFFFFFF)  # the multapse index of a removed connection: it names none
_TRIPLE = np.dtype([(name, np.int64) for name in ("source", "target", "synapse")])


def _multapses_now(source, target, synapse, multapse, seen):
    """Multapse indices of connections listed after `seen` Disconnect calls, as they are after all
    calls so far: each removal of a connection of the same (source, target, synapse) with a
    smaller index moves one down by one; a connection removed itself becomes REMOVED. A
    collection thus keeps naming its connections across Disconnects of others, as in NEST."""
    s = _state.state
    if seen == len(s.disconnected):
        return multapse
    since = s.disconnected_keys[s.disconnected[seen] :]  # in call order
    both = np.zeros(len(source) + len(since), dtype=_TRIPLE)  # mine, then those removed since
    for name, column in zip(_TRIPLE.names or (), (source, target, synapse)):
        both[name] = np.concatenate([column, since[name]])
    _, triple = np.unique(both, return_inverse=True)
    mine_triple, since_triple = triple[: len(source)], triple[len(source) :]
    touched = np.isin(mine_triple, since_triple)
    k = multapse.astype(np.int64)
    if not touched.any():
        return multapse
    relevant = np.isin(since_triple, mine_triple[touched])
    at, kt = mine_triple[touched], k[touched]
    for call in np.unique(since["call"][relevant]):  # in order: each call's indices are as they were then
        these = relevant & (since["call"] == call)
        span = int(max(kt.max(initial=0), since["multapse"][these].max(initial=0))) + 2
        removed = np.sort(since_triple[these] * span + since["multapse"][these])
        key = at * span + np.maximum(kt, 0)
        below = np.searchsorted(removed, key) - np.searchsorted(removed, at * span)
        hit = np.searchsorted(removed, key, side="right") > np.searchsorted(removed, key)
        kt = np.where(kt < 0, kt, np.where(hit, -1, kt - below))
    k[touched] = kt
    return np.where(k < 0, REMOVED, k).astype(np.uint32)


def _positions(keys, wanted):
    """Where each of `wanted` (a tuple of key columns) is among `keys`: (found mask, index)."""
    table, query = (np.rec.fromarrays([np.asarray(c, dtype=np.int64) for c in k]) for k in (keys, wanted))
    order = np.argsort(table, kind="stable")
    at = np.searchsorted(table[order], query)
    at = np.minimum(at, len(order) - 1) if len(order) else at
    found = (table[order][at] == query) if len(order) else np.zeros(len(query), dtype=bool)
    return found, order[at][found] if len(order) else at[found]


def _same(a, b):
    return np.array_equal(a, b, equal_nan=a.dtype.kind == "f")  # NaN: a parameter its model lacks


def _scalar(value):
    """A numpy scalar as Python's (NEST gives one connection's source as an int); None for a
    parameter the connection's model lacks (NaN in its column)."""
    value = value.item() if isinstance(value, np.generic) else value
    return None if isinstance(value, float) and np.isnan(value) else value


def _listed(values):
    return [_scalar(v) for v in values] if values.dtype.kind == "f" and np.isnan(values).any() else values.tolist()


# PyNEST's table of connections: up to ROWS_SHOWN rows whole, else the first and last HALF_SHOWN
# around a row of ellipses; weights and delays to four significant digits.
ROWS_SHOWN, HALF_SHOWN = 34, 15


def _table(values: dict[str, np.ndarray]) -> str:
    models = values["synapse_model"].tolist()
    width = max([15, *map(len, models)])
    heads = [("source", 8), ("target", 8), ("synapse model", width), ("weight", 8), ("delay", 7)]
    lines = [" ".join(name.center(w) for name, w in heads), " ".join("-" * w for _, w in heads)]

    def row(k: int) -> str:
        source, target = values["source"][k], values["target"][k]
        return f"{source:>7} {target:>8} {models[k]:>{width}} {values['weight'][k]:>#8.4g} {values['delay'][k]:>#7.4g}"

    n = len(models)
    shown = range(n) if n <= ROWS_SHOWN else [*range(HALF_SHOWN), -1, *range(n - HALF_SHOWN, n)]
    for k in shown:
        lines.append(row(k) if k >= 0 else " ".join(["⋮".rjust(6)] + ["⋮".rjust(w) for _, w in heads[1:]]) + " ")
    return "\n".join(lines)


def _numbers(name, value, n):
    """`value` as n floats: one number for every connection or one per connection."""
    try:
        values = np.asarray(value)
    except ValueError:
        values = np.asarray(None)
    if values.dtype.kind not in "iuf":
        raise BadParameterError(f"{name} takes numbers, got {name} = {value!r}")
    values = np.array(np.broadcast_to(values, (n,)) if values.ndim == 0 else values, dtype=float)
    if values.shape != (n,):
        raise BadParameterError(f"{name} needs one value or {n}, got shape {values.shape}")
    return values


class SynapseCollection:
    """Connections by synapse model (in the order of their ids, as NEST lists them), then in
    (source, target) order. As PyNEST's: len, iteration (one connection at a
    time), indexing and slicing, ``get`` and ``set``, and attributes: ``.weight`` is
    ``get("weight")`` (a list; its one value for one connection, as ``.source`` is an int
    then), and ``conns.weight = 2.0`` is ``set(weight=2.0)``. The properties are
    ``source``, ``target``, ``weight``, ``delay``, ``synapse_model`` (an object array of names),
    ``receptor`` (the target's receptor_type), ``target_thread`` and the per-connection
    parameters of their models (``p_transmit``, ``U``, ``u``, ...)."""

    def __init__(
        self,
        columns: dict[str, Any],
        synapse_names: Sequence[str | None],
        record_names: Sequence[Sequence[str] | None],
        gathered: bool = False,
    ) -> None:
        """record_names: by synapse id, the per-connection parameters in each connection's record
        (columns["record"], record_width per connection); each becomes a property, NaN for
        connections of models without it. gathered: the connections of all ranks (GetConnections'
        gather), whose values are then read anew from all ranks."""
        source, target = columns["source"].astype(np.int64), columns["target"].astype(np.int64)
        ids = np.asarray(columns["synapse_id"], dtype=np.uint32)
        weight, delay = columns["weight"], columns["delay"]
        receptor, thread = columns["receptor"].astype(np.int64), columns["target_thread"].astype(np.int64)
        port = columns["port"].astype(np.int64)
        record = columns["record"].reshape(len(source), columns["record_width"])
        if len(ids) > 1 and np.any(ids[1:] < ids[:-1]):  # as NEST: by synapse model, then as they come
            order = np.argsort(ids, kind="stable")
            source, target, ids, weight, delay, receptor, thread, port, record = (
                a[order] for a in (source, target, ids, weight, delay, receptor, thread, port, record)
            )
        # which of the connections with equal (source, target, model) each is, in creation order
        # (the order they come in), so a slice can still name them
        multapse = np.zeros(len(source), dtype=np.uint32)
        if len(source):
            key = np.stack([source, target, ids.astype(np.int64)])
            starts = np.r_[True, np.any(key[:, 1:] != key[:, :-1], axis=0)]
            first = np.maximum.accumulate(np.where(starts, np.arange(len(starts)), 0))
            multapse = (np.arange(len(starts)) - first).astype(np.uint32)
        values = {
            "source": source,
            "target": target,
            "weight": weight,
            "delay": delay,
            "synapse_model": np.asarray(synapse_names, dtype=object)[ids] if len(source) else np.empty(0, dtype=object),
            "receptor": receptor,
            "target_thread": thread,
            "port": port,
            "synapse_id": ids.astype(np.int64),
        }
        fixed = {"weight": weight, "delay": delay}  # what a model's own names may stand for
        for synapse_id in np.unique(ids):
            mine = ids == synapse_id
            for slot, name in enumerate(record_names[synapse_id]):
                values.setdefault(name, np.full(len(source), np.nan))[mine] = record[mine, slot]
            for alias, named in synapse_aliases.of(synapse_names[synapse_id]).items():  # again, under that name
                values.setdefault(alias, np.full(len(source), np.nan))[mine] = fixed[named][mine]
        self._hold(values, ids, multapse, gathered)

    def _hold(self, values, synapse_id, multapse, gathered, seen=None):
        object.__setattr__(self, "_values", values)  # by property, one value per connection
        object.__setattr__(self, "_synapse_id", synapse_id)
        object.__setattr__(self, "_multapse", multapse)
        object.__setattr__(self, "_gathered", gathered)
        # the Disconnect calls before these connections were listed (their multapse indices count
        # the connections left after those)
        object.__setattr__(self, "_seen", len(_state.state.disconnected) if seen is None else seen)
        object.__setattr__(self, "_kernel", kernel_ref.current())

    def _check_kernel(self) -> None:
        """A collection of a kernel that ResetKernel replaced names connections that are gone:
        reading or setting through it would reach the new network's."""
        if not kernel_ref.is_current(self._kernel):
            raise KernelStateError(
                "this SynapseCollection was made before ResetKernel and its connections are gone; "
                "call GetConnections anew"
            )

    def _read_anew(self, names):
        """The values of `names` that plasticity and set change (weights, a model's per-connection
        state), read from the kernel as NEST reads them at every get; connections since removed
        keep their last values."""
        self._reread([k for k in names if k not in _FIXED])

    def _reread(self, names: list[str]) -> None:
        if not names or not len(self):
            return
        source, target = self._values["source"], self._values["target"]
        fresh = GetConnections(
            NodeCollection(np.unique(source)), NodeCollection(np.unique(target)), gather=self._gathered
        )
        found, at = _positions(fresh._keys(), self._keys())
        for k in names:
            self._values[k][found] = fresh._values[k][at]

    @property
    def _properties(self):
        return tuple(self._values)

    def _selected(self, which):
        out = object.__new__(SynapseCollection)
        out._hold(
            {k: np.atleast_1d(v[which]) for k, v in self._values.items()},
            np.atleast_1d(self._synapse_id[which]),
            np.atleast_1d(self._multapse[which]),
            self._gathered,
            self._seen,
        )
        object.__setattr__(out, "_kernel", self._kernel)
        return out

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # not a property: copy, pickle and numpy probe for these
            raise AttributeError(name)
        if name == "distance":  # as NEST: an attribute only (a list, also of one), not in get()
            return connection_distances(self._values["source"], self._values["target"]).tolist()
        return self.get(name)

    def __setattr__(self, name: str, value: Any) -> None:
        self.set({name: value})

    def __len__(self) -> int:
        return len(self._values["source"])

    def __iter__(self) -> Iterator["SynapseCollection"]:
        for k in range(len(self)):
            yield self._selected(slice(k, k + 1))

    def __getitem__(self, key: int | slice | ArrayLike) -> "SynapseCollection":
        if isinstance(key, (int, np.integer)):
            if not -len(self) <= key < len(self):
                raise IndexError(f"index {key} out of range for {len(self)} connections")
            key = slice(key, key + 1 if key != -1 else None)
        return self._selected(key)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, SynapseCollection)
            and self._properties == other._properties
            and all(_same(self._values[k], other._values[k]) for k in self._properties)
        )

    __hash__ = None  # type: ignore[assignment]  # unhashable: set() changes the values

    def sources(self) -> Iterator[int]:
        return iter(self._values["source"].tolist())

    def targets(self) -> Iterator[int]:
        return iter(self._values["target"].tolist())

    def get(self, keys: str | Iterable[str] | None = None, output: str = "") -> Any:
        """PyNEST's get: every property (a dict), one (a list of its values; a scalar for one connection)
        or a list of them (a dict); ``output="pandas"`` gives a DataFrame, ``"json"`` text."""
        self._check_kernel()
        if not len(self) and output == "" and (keys is None or isinstance(keys, str)):
            return {} if keys is None else ()  # NEST's answers for no connections
        if keys is None:
            keys = list(self._properties)
        names = [keys] if isinstance(keys, str) else list(keys)
        for k in names:
            if k not in self._properties:
                raise UnknownParameterError(
                    f"connections have no property {k}; they have {', '.join(self._properties)}"
                )
        self._read_anew(names)
        if output == "pandas":
            import pandas

            return pandas.DataFrame({k: self._values[k] for k in names})
        if output not in ("", "json"):
            raise BadParameterError(f"output must be '', 'pandas' or 'json', got output = {output!r}")
        one = len(self) == 1
        values = {k: (_scalar(self._values[k][0]) if one else _listed(self._values[k])) for k in names}
        values = values[keys] if isinstance(keys, str) else values
        return to_json(values) if output == "json" else values

    def set(self, params: dict[str, Any] | list[dict[str, Any]] | None = None, **kwargs: Any) -> None:
        """PyNEST's set: ``set(weight=2.0)``, ``set({"U": 0.3})``, one value for every connection or
        a list with one per connection, or a list of dicts, one per connection. Weights and the
        models' per-connection parameters (``p_transmit``, ``U``, ``u``, ``x``, ...) and delays
        (rounded to the resolution, as Connect rounds them) can change. Call it on every rank under
        MPI (each sets the connections it holds)."""
        self._check_kernel()
        each = None
        if isinstance(params, (list, tuple)):
            if len(params) != len(self) or not all(isinstance(p, dict) for p in params):
                raise BadParameterError(f"set takes one dict per connection ({len(self)}), got {len(params)}")
            each = [eprop.connection_state(self._as_named(p)) for p in params]
            params = {k: None for k in set().union(*each)}
        params = eprop.connection_state(self._as_named({**(params or {}), **kwargs}))
        # e-prop optimizer state goes to the kernel only (GetConnections does not list it)
        state = {k: params.pop(k) for k in list(params) if eprop.is_connection_state(k)}
        for name in state:
            values = [p[name] for p in each] if each is not None else state[name]
            with kernel_errors():
                _state.state.kernel.set_connections(*self._keys(), name, _numbers(name, values, len(self)))
        for name in params:
            if (name in _FIXED and name != "delay") or name not in self._properties + ("weight",):
                raise UnknownParameterError(f"connections have no settable parameter {name}")
        if each is not None:  # a connection whose dict lacks a name keeps its value
            self._read_anew(list(params))
            params = {k: [p.get(k, self._values[k][i]) for i, p in enumerate(each)] for k in params}
        params = {name: self._values_of(name, value) for name, value in params.items()}
        for name, values in params.items():
            with kernel_errors():
                _state.state.kernel.set_connections(*self._keys(), name, values)
            self._values[name] = values
        if "delay" in params:  # as the kernel rounded them
            self._reread(["delay"])
        aliases = synapse_aliases.every()  # the weight and delay also under the models' own names
        self._reread([k for k in self._values if aliases.get(k) in params])

    def _as_named(self, params: dict[str, Any]) -> dict[str, Any]:
        """params with values given under a model's own names for its weight or delay as weight
        and delay."""
        for alias, named in synapse_aliases.every().items():
            if alias in params and alias in self._values:
                params = synapse_aliases.renamed({alias: named}, params)
        return params

    def _values_of(self, name, value):
        """One float per connection: a number, one per connection, or a random parameter drawn
        per connection (keyed by the connection, so the same on any partition)."""
        if not isinstance(value, Parameter):
            return _numbers(name, value, len(self))
        with kernel_errors():
            return _state.state.kernel.draw_connection_values(value.spec(), *self._keys())

    def _keys(self):
        """What names each connection to the kernel now: (source, target, synapse model, the
        how-manyth of that triple), the last moved down past the connections of its triple that a
        Disconnect removed since this collection was listed (REMOVED for one it removed)."""
        source, target = self._values["source"].astype(np.uint32), self._values["target"].astype(np.uint32)
        return (
            source,
            target,
            self._synapse_id,
            _multapses_now(source, target, self._synapse_id, self._multapse, self._seen),
        )

    def disconnect(self) -> None:
        """Removes these connections (PyNEST's SynapseCollection.disconnect). Call it on every rank
        under MPI (each removes the connections it holds)."""
        self._check_kernel()
        keys = self._keys()
        here = keys[3] != REMOVED  # those already removed stay so
        keys = tuple(np.ascontiguousarray(k[here]) for k in keys)
        with kernel_errors():
            _state.state.kernel.disconnect(*keys)
        _state.state.log_disconnect(*keys)

    def __repr__(self) -> str:
        return f"SynapseCollection({len(self)} connections)"

    def __str__(self) -> str:
        """PyNEST's table of the connections."""
        self._check_kernel()
        if len(self) == 0:
            return "The synapse collection does not contain any connections."
        self._read_anew(["weight", "delay"])
        return _table(self._values)


def GetConnections(
    source: NodeCollection | None = None,
    target: NodeCollection | None = None,
    synapse_model: str | None = None,
    synapse_label: int | None = None,
    gather: bool = False,
) -> SynapseCollection:
    """Connections, optionally only from `source`, to `target`, of one synapse model or with one
    synapse_label (of the _lbl models). Under MPI each rank gets those it holds, as in NEST, and
    may ask alone; `gather` (Ranvier's) gives every rank all of them (call it on every rank then)."""
    apply_pending()
    s = _state.state
    synapse_id = -1
    if synapse_model is not None:
        m = _model(synapse_model)
        if m.kind != "synapse":
            raise BadParameterError(f"synapse_model must be a synapse model, got synapse_model = {synapse_model!r}")
        synapse_id = m.synapse_id
    for name, nodes in (("source", source), ("target", target)):
        if nodes is not None and not isinstance(nodes, NodeCollection):
            raise TypeError(f"{name} must be a NodeCollection, got {name} = {nodes!r}")
    src = None if source is None else nonempty_nodes(source, "source")._gids
    tgt = None if target is None else nonempty_nodes(target, "target")._gids
    with kernel_errors(collective=gather):
        columns = s.kernel.get_connections(src, tgt, synapse_id, not gather)
    names: list[str | None] = [None] * (1 + max(m.synapse_id for m in s.models.values() if m.kind == "synapse"))
    records: list[tuple[str, ...] | None] = [None] * len(names)
    for m in s.models.values():
        if m.kind == "synapse":
            names[m.synapse_id] = m.name
            records[m.synapse_id] = _state.RECORD_PARAMETERS[m.base]
    found = SynapseCollection(columns, names, records, gather)
    if synapse_label is None:
        return found
    if isinstance(synapse_label, bool) or not isinstance(synapse_label, (int, np.integer)):
        raise BadParameterError(f"synapse_label must be an integer, got synapse_label = {synapse_label!r}")
    labels = found._values.get("synapse_label")
    return found._selected(np.zeros(len(found), dtype=bool) if labels is None else labels == synapse_label)
