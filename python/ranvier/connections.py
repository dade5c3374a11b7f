"""The result of GetConnections: one array per connection property."""
import numpy as np

from . import _state
from .errors import BadParameterError, KernelStateError, UnknownParameterError, kernel_errors

_PROPERTIES = ("source", "target", "weight", "delay", "synapse_model")


def _same(a, b):
    return np.array_equal(a, b, equal_nan=a.dtype.kind == "f")  # NaN: a parameter its model lacks


class SynapseCollection:
    """Connections in (source, target) order; ``.source``, ``.target``, ``.weight``,
    ``.delay`` and ``.synapse_model`` are numpy arrays (the model names an object array), and
    so are the per-connection parameters of their models (``.p_transmit``, ``.u``, ``.x``, ...).
    As PyNEST's: len, iteration (one connection at a time), indexing and slicing, and ``get``."""

    def __init__(self, columns, synapse_names, record_names):
        """record_names: by synapse id, the per-connection parameters in each connection's record
        (columns["record"], record_width per connection); each becomes a property, NaN for
        connections of models without it."""
        self.source = columns["source"].astype(np.int64)
        self.target = columns["target"].astype(np.int64)
        self.weight = columns["weight"]
        self.delay = columns["delay"]
        ids = columns["synapse_id"]
        self._synapse_id = np.asarray(ids, dtype=np.uint32)
        # which of the connections with equal (source, target, model) each is, in creation order
        # (the order they come in), so a slice can still name them
        key = np.stack([self.source, self.target, self._synapse_id.astype(np.int64)]) if len(self.source) else None
        self._multapse = np.zeros(len(self.source), dtype=np.uint32)
        if key is not None:
            starts = np.r_[True, np.any(key[:, 1:] != key[:, :-1], axis=0)]
            first = np.maximum.accumulate(np.where(starts, np.arange(len(starts)), 0))
            self._multapse = (np.arange(len(starts)) - first).astype(np.uint32)
        self.synapse_model = np.asarray(synapse_names, dtype=object)[ids] if len(self.source) else np.empty(0, dtype=object)
        record = columns["record"].reshape(len(self.source), columns["record_width"])
        self._properties = _PROPERTIES
        for synapse_id in np.unique(ids):
            for slot, name in enumerate(record_names[synapse_id]):
                if name not in self._properties:
                    self._properties += (name,)
                    setattr(self, name, np.full(len(self.source), np.nan))
                mine = ids == synapse_id
                getattr(self, name)[mine] = record[mine, slot]

    def _selected(self, which):
        out = object.__new__(SynapseCollection)
        out._properties = self._properties
        out._synapse_id = np.atleast_1d(self._synapse_id[which])
        out._multapse = np.atleast_1d(self._multapse[which])
        for name in self._properties:
            setattr(out, name, np.atleast_1d(getattr(self, name)[which]))
        return out

    def __len__(self):
        return len(self.source)

    def __iter__(self):
        for k in range(len(self)):
            yield self._selected(slice(k, k + 1))

    def __getitem__(self, key):
        if isinstance(key, (int, np.integer)):
            if not -len(self) <= key < len(self):
                raise IndexError(f"index {key} out of range for {len(self)} connections")
            key = slice(key, key + 1 if key != -1 else None)
        return self._selected(key)

    def __eq__(self, other):
        return isinstance(other, SynapseCollection) and self._properties == other._properties and all(
            _same(getattr(self, k), getattr(other, k)) for k in self._properties)

    __hash__ = None

    def sources(self):
        return self.source

    def targets(self):
        return self.target

    def get(self, keys=None, output=""):
        """PyNEST's get: every property (a dict), one (its values; a scalar for one connection)
        or a list of them (a dict); ``output="pandas"`` gives a DataFrame, ``"json"`` text."""
        if keys is None:
            keys = list(self._properties)
        names = [keys] if isinstance(keys, str) else list(keys)
        for k in names:
            if k not in self._properties:
                raise UnknownParameterError(f"connections have no property {k}; they have {', '.join(self._properties)}")
        if output == "pandas":
            import pandas

            return pandas.DataFrame({k: getattr(self, k) for k in names})
        if output == "json":
            import json

            return json.dumps({k: getattr(self, k).tolist() for k in names})
        if output != "":
            raise BadParameterError(f"output must be '', 'pandas' or 'json', got output = {output!r}")
        one = len(self) == 1
        values = {k: (getattr(self, k)[0] if one else getattr(self, k)) for k in names}
        return values[keys] if isinstance(keys, str) else values

    def set(self, params=None, **kwargs):
        """PyNEST's set: ``set(weight=2.0)``, ``set({"U": 0.3})``, one value for every connection or
        a list with one per connection, or a list of dicts, one per connection. Weights and the
        models' per-connection parameters (``p_transmit``, ``U``, ``u``, ``x``, ...) can change;
        delays cannot. Call it on every rank under MPI (each sets the connections it holds)."""
        if isinstance(params, (list, tuple)):
            if len(params) != len(self) or not all(isinstance(p, dict) for p in params):
                raise BadParameterError(f"set takes one dict per connection ({len(self)}), got {len(params)}")
            names = set().union(*params) if params else set()
            params = {k: [p[k] for p in params] for k in names}
        params = {**(params or {}), **kwargs}
        for name in params:
            if name == "delay":
                raise KernelStateError("SynapseCollection.set: Ranvier cannot change the delay of existing connections")
            if name in ("source", "target", "synapse_model") or name not in self._properties + ("weight",):
                raise UnknownParameterError(f"connections have no settable parameter {name}")
        for name, value in params.items():
            values = np.broadcast_to(np.asarray(value, dtype=float), (len(self),)) if np.ndim(value) == 0 else (
                np.asarray(value, dtype=float))
            if values.shape != (len(self),):
                raise BadParameterError(f"{name} needs one value or {len(self)}, got shape {values.shape}")
            with kernel_errors():
                _state.state.kernel.set_connections(self.source.astype(np.uint32), self.target.astype(np.uint32),
                                                    self._synapse_id, self._multapse, name,
                                                    np.ascontiguousarray(values))
            setattr(self, name, values.copy())

    def disconnect(self):
        """Removes these connections (PyNEST's SynapseCollection.disconnect). Call it on every rank
        under MPI (each removes the connections it holds)."""
        with kernel_errors():
            _state.state.kernel.disconnect(self.source.astype(np.uint32), self.target.astype(np.uint32),
                                           self._synapse_id, self._multapse)

    def __repr__(self):
        return f"SynapseCollection({len(self)} connections)"
