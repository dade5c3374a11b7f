"""The result of GetConnections: one array per connection property."""
import numpy as np

from .errors import BadParameterError, KernelStateError, UnknownParameterError

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
        raise KernelStateError("SynapseCollection.set: Ranvier's kernel cannot change existing connections yet; "
                               "give weights and delays in Connect's syn_spec")

    def __repr__(self):
        return f"SynapseCollection({len(self)} connections)"
