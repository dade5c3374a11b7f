"""The process-wide kernel and what the Python layer knows about models and nodes."""
import bisect
import math

import numpy as np

from . import _kernel

DEVICE_MODELS = {
    "poisson_generator": {"rate": 0.0, "start": 0.0, "stop": math.inf, "origin": 0.0},
    "dc_generator": {"amplitude": 0.0, "start": 0.0, "stop": math.inf, "origin": 0.0},
    "spike_generator": {"spike_times": [], "spike_weights": [], "start": 0.0, "stop": math.inf,
                        "origin": 0.0},
    "spike_recorder": {"start": 0.0, "stop": math.inf, "origin": 0.0, "record_to": "memory"},
    "multimeter": {"interval": 1.0, "record_from": [], "start": 0.0, "stop": math.inf,
                   "origin": 0.0, "record_to": "memory"},
    "voltmeter": {"interval": 1.0, "record_from": ["V_m"], "start": 0.0, "stop": math.inf,
                  "origin": 0.0, "record_to": "memory"},
}
STIMULATORS = {"poisson_generator", "dc_generator", "spike_generator"}
RECORDERS = {"spike_recorder", "multimeter", "voltmeter"}
SYNAPSE_BASES = {
    "static_synapse": {"weight": 1.0, "delay": 1.0},
    "stdp_pl_synapse_hom": {"weight": 1.0, "delay": 1.0, "tau_plus": 20.0, "lambda": 0.1,
                            "alpha": 1.0, "mu": 0.4},
}
STDP_COMMON = ("tau_plus", "lambda", "alpha", "mu")


class Model:
    """A named model: a built-in one or a CopyModel of it, with its own defaults."""

    def __init__(self, name, base, kind, defaults):
        self.name, self.base, self.kind, self.defaults = name, base, kind, dict(defaults)
        self.synapse_id = None  # kernel id of a synapse model


# Kernel settings and their defaults; changing one rebuilds the kernel (empty network only),
# except those in LIVE_SETTINGS.
SETTINGS = {"local_num_threads": 1, "resolution": 0.1, "rng_seed": 12345, "placement": "round_robin",
            "spike_exchange": "auto", "dry_run": 0, "multisend_phases": 1, "sync_barrier": True,
            "record_cycle_times": False, "max_D": 2**20}
LIVE_SETTINGS = {"spike_exchange", "multisend_phases", "sync_barrier", "record_cycle_times", "max_D"}


class State:
    def __init__(self, **settings):
        self.settings = {**SETTINGS, **settings}
        c = self.settings
        self.kernel = _kernel.Kernel(c["local_num_threads"], c["resolution"], c["rng_seed"], c["placement"],
                                     c["spike_exchange"], c["dry_run"], c["multisend_phases"], c["sync_barrier"],
                                     c["record_cycle_times"], c["max_D"])
        self.threads, self.resolution, self.seed = c["local_num_threads"], c["resolution"], c["rng_seed"]
        self.models = {}
        for name in _kernel.neuron_model_names():
            self.models[name] = Model(name, name, "neuron", dict(_kernel.neuron_model_variables(name)))
        for name, defaults in DEVICE_MODELS.items():
            self.models[name] = Model(name, name, "device", defaults)
        for k, (name, defaults) in enumerate(SYNAPSE_BASES.items()):
            self.models[name] = Model(name, name, "synapse", defaults)
            self.models[name].synapse_id = k  # the kernel registers the bases in this order
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
