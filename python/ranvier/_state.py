"""The process-wide kernel and what the Python layer knows about models and nodes."""
import bisect

import numpy as np

from . import _kernel

# What the kernel's registries declare: each model's parameters and defaults.
NEURON_MODELS = _kernel.neuron_models()
STIMULATORS = {name for name, (role, _) in _kernel.device_models().items() if role == "stimulator"}
RECORDERS = {name for name, (role, _) in _kernel.device_models().items() if role == "recorder"}
# Where and how recorders write: the recording backends live in Python (recording.py), so their
# settings join the kernel's recorder defaults here.
RECORDING_DEFAULTS = {"record_to": "memory", "label": "", "time_in_steps": False, "precision": 3,
                      "file_extension": "dat"}
DEVICE_MODELS = {name: {**defaults, **(RECORDING_DEFAULTS if name in RECORDERS else {})}
                 for name, (_, defaults) in _kernel.device_models().items()}
SYNAPSE_BASES = _kernel.synapse_models()
CONNECTION_RULES = {name: set(parameters) for name, parameters in _kernel.connection_rules().items()}
PER_CONNECTION = ("weight", "delay")  # every other synapse parameter is common to the model


class Model:
    """A named model: a built-in one or a CopyModel of it, with its own defaults."""

    def __init__(self, name, base, kind, defaults):
        self.name, self.base, self.kind, self.defaults = name, base, kind, dict(defaults)
        self.synapse_id = None  # kernel id of a synapse model


# Kernel settings and their defaults; changing one rebuilds the kernel (empty network only),
# except those in LIVE_SETTINGS.
SETTINGS = {"local_num_threads": 1, "resolution": 0.1, "rng_seed": 12345, "placement": "round_robin",
            "spike_exchange": "auto", "dry_run": 0, "multisend_phases": 1, "sync_barrier": True,
            "record_cycle_times": False, "max_D": 2**20, "overlap_exchange": False, "multisend_subintervals": 1}
LIVE_SETTINGS = {"spike_exchange", "multisend_phases", "sync_barrier", "record_cycle_times", "max_D",
                 "overlap_exchange", "multisend_subintervals"}


class State:
    def __init__(self, **settings):
        self.settings = {**SETTINGS, **settings}
        c = self.settings
        self.kernel = _kernel.Kernel(c["local_num_threads"], c["resolution"], c["rng_seed"], c["placement"],
                                     c["spike_exchange"], c["dry_run"], c["multisend_phases"], c["sync_barrier"],
                                     c["record_cycle_times"], c["max_D"], c["overlap_exchange"])
        if c["multisend_subintervals"] != 1:
            self.kernel.set_multisend_subintervals(c["multisend_subintervals"])
        self.threads, self.resolution, self.seed = c["local_num_threads"], c["resolution"], c["rng_seed"]
        self.models = {}
        for name, defaults in NEURON_MODELS.items():
            self.models[name] = Model(name, name, "neuron", defaults)
        for name, defaults in DEVICE_MODELS.items():
            self.models[name] = Model(name, name, "device", defaults)
        for synapse_id, name in enumerate(self.kernel.synapse_model_names()):
            self.models[name] = Model(name, name, "synapse", SYNAPSE_BASES[name])
            self.models[name].synapse_id = synapse_id
        self.range_starts, self.range_models = [], []  # one entry per Create call
        self.n_nodes = 0
        self.device_params = {}  # gid -> dict
        self.positions = {}  # gid of a Create call's first node -> its spatial.layers.Layer
        self.areas = {}  # area name -> kernel id
        # Area placement places the neurons of all Create calls together when they are first
        # needed; their parameters wait until then: (nodes, params) in creation order.
        self.pending_parameters = []

    def add_range(self, first, count, model):
        self.range_starts.append(first)
        self.range_models.append(model)
        self.n_nodes = first + count - 1

    def remove_last_range(self):
        first = self.range_starts.pop()
        self.range_models.pop()
        for gid in range(first, self.n_nodes + 1):
            self.device_params.pop(gid, None)
        self.n_nodes = first - 1

    def model_of(self, gid):
        return self.range_models[bisect.bisect_right(self.range_starts, int(gid)) - 1]

    def range_index(self, gids):
        """Index of the Create call of each gid."""
        return np.searchsorted(np.asarray(self.range_starts), gids, side="right") - 1

    def models_of(self, gids):
        return [self.range_models[i] for i in self.range_index(gids)]

    def models_in(self, gids):
        """The distinct models among ascending gids, without a Python object per node."""
        if len(gids) == 0:
            return []
        first, last = self.range_index([gids[0], gids[-1]])
        if last - first + 1 <= 64 and int(gids[-1]) - int(gids[0]) + 1 == len(gids):
            indices = range(first, last + 1)  # a contiguous collection covers whole calls
        else:
            indices = np.unique(self.range_index(gids))
        models = {}
        for i in indices:
            models[self.range_models[i].name] = self.range_models[i]
        return list(models.values())


state = State()


def reset(**settings):
    global state
    state = State(**settings)
