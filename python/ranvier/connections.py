"""The result of GetConnections: one array per connection property."""
import numpy as np


class SynapseCollection:
    """Connections in (source, target) order; ``.source``, ``.target``, ``.weight``,
    ``.delay`` and ``.synapse_model`` are numpy arrays (the model names an object array)."""

    def __init__(self, columns, synapse_names):
        self.source = columns["source"].astype(np.int64)
        self.target = columns["target"].astype(np.int64)
        self.weight = columns["weight"]
        self.delay = columns["delay"]
        self.synapse_model = np.asarray(synapse_names, dtype=object)[columns["synapse_id"]] if len(self.source) else np.empty(0, dtype=object)

    def __len__(self):
        return len(self.source)

    def sources(self):
        return self.source

    def targets(self):
        return self.target

    def get(self, keys=None):
        names = ("source", "target", "weight", "delay", "synapse_model")
        if keys is None:
            return {k: getattr(self, k) for k in names}
        if isinstance(keys, str):
            if keys not in names:
                raise KeyError(f"connections have no property {keys}")
            return getattr(self, keys)
        return {k: self.get(k) for k in keys}

    def __repr__(self):
        return f"SynapseCollection({len(self)} connections)"
