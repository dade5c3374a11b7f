"""The process-wide kernel and what the Python layer knows about models and nodes."""

import bisect
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from . import _kernel

# What the kernel's registries declare: each model's parameters and defaults. The neuron
# models' entries grow when Install adds a module's (learn_neuron_models).
NEURON_MODELS = _kernel.neuron_models()
NEURON_LISTS = _kernel.neuron_lists()  # list parameters: list_parameters.py
NEURON_RECORDABLES = _kernel.neuron_recordables()  # NEST's recordables (None: GetDefaults lists none)
NEURON_ELEMENT_TYPES = _kernel.neuron_element_types()  # "neuron", or "other" (volume_transmitter)
WFR_NEURONS = set(_kernel.wfr_neuron_models())  # rate, Siegert and gap-junction neurons (waveform relaxation)
NEURON_CHOICES = _kernel.neuron_choices()  # per model: variables that name one of their choices (choices.py)
NEURON_RECEPTOR_TYPES = _kernel.neuron_receptor_types()  # per model that names its receptors


def _one_element_lists() -> dict[str, set[str]]:
    """Per model: list variables that take a number for a list of one (NEST's pp_psc_delta's q_sfa)."""
    return {name: set(names) for name, names in _kernel.neuron_one_element_lists().items()}


ONE_ELEMENT_LISTS = _one_element_lists()
_DEVICES = _kernel.device_models(0.1)
STIMULATORS = {name for name, (role, *_) in _DEVICES.items() if role == "stimulator"}
RECORDERS = {name for name, (role, *_) in _DEVICES.items() if role == "recorder"}
# What each recorder records ("spikes", "samples" or "transmissions"), and the columns of its
# events beyond sender and time where it fixes them (else its record_from's).
RECORDS = {name: records for name, (records, _) in _kernel.recorder_models().items()}
EVENT_COLUMNS = {name: tuple(columns) for name, (_, columns) in _kernel.recorder_models().items() if columns}
# Per model and cable mechanism: each declared parameter's unit (ranvier.units).
UNITS = _kernel.units()
# What a multimeter may record of a stimulator (NEST's recordables: the current generators' I).
DEVICE_RECORDABLES = _kernel.device_recordables()
# Parameters set through SetDefaults or CopyModel only (NEST's individual_spike_trains).
MODEL_ONLY = {p for _, _, names, _ in _DEVICES.values() for p in names}
# Per model: parameters set on nodes only, never as model defaults (a weight_recorder's filters).
NODE_ONLY = {name: set(names) for name, (*_, names) in _DEVICES.items()}


def device_models(resolution: float) -> dict[str, dict[str, Any]]:
    """Each device model's defaults: some depend on the resolution (noise_generator's dt); node
    ids are a tuple (node collections to the user)."""
    return {name: defaults for name, (_, defaults, *_) in _kernel.device_models(resolution).items()}


# every synapse model may report to a weight_recorder (node ids; weight_recording.py) and has
# the receptor_type its connections take where Connect names none (network.py)
def _synapse_bases() -> dict[str, dict[str, Any]]:
    return {
        name: {**defaults, "weight_recorder": (), "receptor_type": 0}
        for name, (defaults, _) in _kernel.synapse_models().items()
    }


SYNAPSE_BASES = _synapse_bases()
# The synapse defaults that the Python layer keeps (the kernel has the others).
SYNAPSE_PYTHON_DEFAULTS = ("weight_recorder", "receptor_type")


def _per_connection() -> dict[str, tuple[str, ...]]:
    """Per synapse model: the parameters each connection has (given in Connect); the others
    are common to the model (SetDefaults, CopyModel)."""
    return {name: tuple(names) for name, (_, names) in _kernel.synapse_models().items()}


PER_CONNECTION = _per_connection()


def _record_parameters() -> dict[str, tuple[str, ...]]:
    """Those each connection keeps in its record (all but weight and delay), in the kernel's order."""
    return {name: tuple(n for n in names if n not in ("weight", "delay")) for name, names in PER_CONNECTION.items()}


RECORD_PARAMETERS = _record_parameters()
SYNAPSE_ALIASES = (
    _kernel.synapse_aliases()
)  # per model that names its weight or delay otherwise too (synapse_aliases.py)
# the synapse models between coupled nodes (rate and gap-junction neurons), by what they carry;
# gap junctions join neurons both ways (NEST's requires_symmetric)
COUPLING_SYNAPSES = _kernel.coupling_synapse_models()
SYMMETRIC_SYNAPSES = {name for name, kind in COUPLING_SYNAPSES.items() if kind == "gap_junction"}
EPROP_SYNAPSES = set(_kernel.eprop_synapse_models())  # only e-prop neurons take them
CONNECTION_RULES = {name: set(parameters) for name, parameters in _kernel.connection_rules().items()}
RULE_TRAITS = _kernel.connection_rule_traits()  # per rule: per_source, both_ways


class Model:
    """A named model: a built-in one or a CopyModel of it, with its own defaults."""

    def __init__(self, name: str, base: str, kind: str, defaults: dict[str, Any]) -> None:
        self.name, self.base, self.kind, self.defaults = name, base, kind, dict(defaults)
        self.synapse_id = -1  # kernel id of a synapse model (-1 for the others)


# Kernel settings as the kernel declares them (kernel/settings.hpp), with their defaults;
# changing one rebuilds the kernel (empty network only), except the live ones.
SETTING_DECLARATIONS = _kernel.kernel_settings()
SETTINGS = {name: d["default"] for name, d in SETTING_DECLARATIONS.items()}
LIVE_SETTINGS = {name for name, d in SETTING_DECLARATIONS.items() if d["phase"] != "empty_kernel"}
SETTING_ALIASES = {d["alias"]: name for name, d in SETTING_DECLARATIONS.items() if d["alias"]}


DISCONNECTED = np.dtype([(name, np.int64) for name in ("source", "target", "synapse", "multapse", "call")])


class State:
    def __init__(self, **settings: Any) -> None:
        self.settings = {**SETTINGS, **settings}
        c = self.settings
        self.kernel = _kernel.Kernel(c)
        self.threads, self.resolution, self.seed = c["local_num_threads"], c["resolution"], c["rng_seed"]
        self.models = {}
        for name, defaults in NEURON_MODELS.items():
            self.models[name] = Model(name, name, "neuron", defaults)
        self.device_models = device_models(self.resolution)
        for name, defaults in self.device_models.items():
            self.models[name] = Model(name, name, "device", defaults)
        for synapse_id, name in enumerate(self.kernel.synapse_model_names()):
            self.models[name] = Model(name, name, "synapse", SYNAPSE_BASES[name])
            self.models[name].synapse_id = synapse_id
        self.range_starts: list[int] = []  # one entry per Create call
        self.range_models: list[Model] = []
        self.n_nodes = 0
        self.positions: dict[int, Any] = {}  # gid of a Create call's first node -> its spatial.layers.Layer
        # every Disconnect call's connections (source, target, synapse id, multapse index then, the
        # call's number) and where each call's begin, so that a SynapseCollection listed before a
        # call still names its connections (connections.py)
        self.disconnected_keys = np.zeros(0, dtype=DISCONNECTED)
        self.disconnected: list[int] = []
        self.areas: dict[str, int] = {}  # area name -> kernel id
        self.cell_kinds: dict[int, Any] = {}  # first gid of a Create call of cable cells -> the kernel's CableKind
        self.cell_descriptions: dict[int, Any] = {}  # ... -> the description it was made of (checkpoints)
        self.range_areas: dict[int, str] = {}  # first gid of a Create call with an area -> the area's name
        # first gid of a Create call -> (SONATA node population, node id of its first node) where a
        # SONATA network made it (sonata/populations.py names the others)
        self.populations: dict[int, tuple[str, int]] = {}
        self.recorded_calls: dict[int, set[int]] = {}  # recorder gid -> the Create calls (indices) it records
        self.sampled: dict[int, np.ndarray] = {}  # sampler gid -> the nodes it records (sorted): each once
        # Area placement places the neurons of all Create calls together when they are first
        # needed; their parameters wait until then: (nodes, params) in creation order.
        self.pending_parameters: list[tuple[Any, Any]] = []

    def log_disconnect(self, *keys: np.ndarray) -> None:
        """A Disconnect call's connections: source, target, synapse id and multapse index."""
        call = np.zeros(len(keys[0]), dtype=DISCONNECTED)
        for name, column in zip(("source", "target", "synapse", "multapse"), keys):
            call[name] = column
        call["call"] = len(self.disconnected)
        self.disconnected.append(len(self.disconnected_keys))
        self.disconnected_keys = np.concatenate([self.disconnected_keys, call])

    def add_range(self, first: int, count: int, model: Model) -> None:
        self.range_starts.append(first)
        self.range_models.append(model)
        self.n_nodes = first + count - 1

    def remove_last_range(self) -> None:
        first = self.range_starts.pop()
        self.range_models.pop()
        self.cell_kinds.pop(first, None)
        self.cell_descriptions.pop(first, None)
        self.range_areas.pop(first, None)
        self.populations.pop(first, None)
        self.n_nodes = first - 1

    def device_gids(self) -> list[int]:
        """Every device's node id, ascending."""
        return [
            gid
            for first, model, end in zip(
                self.range_starts, self.range_models, self.range_starts[1:] + [self.n_nodes + 1]
            )
            if model.kind == "device"
            for gid in range(first, end)
        ]

    def model_of(self, gid: int | np.integer) -> Model:
        return self.range_models[bisect.bisect_right(self.range_starts, int(gid)) - 1]

    def range_index(self, gids: ArrayLike) -> np.ndarray:
        """Index of the Create call of each gid."""
        return np.searchsorted(np.asarray(self.range_starts), gids, side="right") - 1

    def models_of(self, gids: ArrayLike) -> list[Model]:
        return [self.range_models[i] for i in self.range_index(gids)]

    def node_model_id(self, name: str) -> int:
        """NEST's model_id: the node models numbered as they became known, the kernel's first and
        CopyModel's copies after them (so a copy's id is higher than its original's)."""
        return [n for n, m in self.models.items() if m.kind in ("neuron", "device")].index(name)

    def calls_among(self, gids: "np.ndarray | range") -> np.ndarray:
        """The Create calls (indices, ascending) that gids in any order come from."""
        if isinstance(gids, range):  # consecutive ids: every call from the first's to the last's
            first, last = self.range_index([gids[0], gids[-1]]) if len(gids) else (0, -1)
            return np.arange(first, last + 1)
        return np.flatnonzero(np.bincount(self.range_index(gids), minlength=len(self.range_models)))

    def models_among(self, gids: np.ndarray) -> list[Model]:
        """The distinct models among gids in any order (one pass, no sort)."""
        return list({self.range_models[i].name: self.range_models[i] for i in self.calls_among(gids)}.values())

    def models_in(self, gids: "np.ndarray | range") -> list[Model]:
        """The distinct models among ascending gids, without a Python object per node."""
        if len(gids) == 0:
            return []
        first, last = self.range_index([gids[0], gids[-1]])
        if isinstance(gids, range) or (last - first + 1 <= 64 and int(gids[-1]) - int(gids[0]) + 1 == len(gids)):
            indices: range | np.ndarray = range(first, last + 1)  # a contiguous collection covers whole calls
        else:
            indices = np.unique(self.range_index(gids))
        models = {}
        for i in indices:
            models[self.range_models[i].name] = self.range_models[i]
        return list(models.values())


INSTALLED_MODELS: set[str] = set()  # the neuron and synapse models that Install added


def learn_module_models(neurons: list[str], synapses: list[str]) -> None:
    """Learns the neuron and synapse models that Install just added to the kernel; they stay
    known after ResetKernel (NEST's behaviour as read, not run)."""
    NEURON_MODELS.update(_kernel.neuron_models())
    NEURON_LISTS.update(_kernel.neuron_lists())
    NEURON_RECORDABLES.update(_kernel.neuron_recordables())
    NEURON_ELEMENT_TYPES.update(_kernel.neuron_element_types())
    WFR_NEURONS.update(_kernel.wfr_neuron_models())
    ONE_ELEMENT_LISTS.update(_one_element_lists())
    SYNAPSE_BASES.update(_synapse_bases())
    PER_CONNECTION.update(_per_connection())
    RECORD_PARAMETERS.update(_record_parameters())
    SYNAPSE_ALIASES.update(_kernel.synapse_aliases())
    UNITS.update(_kernel.units())
    INSTALLED_MODELS.update(neurons + synapses)
    for name in neurons:
        state.models[name] = Model(name, name, "neuron", NEURON_MODELS[name])
    for name in synapses:  # the live kernel takes it after the models it has
        state.models[name] = Model(name, name, "synapse", SYNAPSE_BASES[name])
        state.models[name].synapse_id = state.kernel.add_synapse_model(name, name, {}, {})


def uses_wfr(model: Model) -> bool:
    """NEST's node_uses_wfr: the neurons whose input waveform relaxation iterates."""
    return model.base in WFR_NEURONS and bool(state.settings["use_wfr"])


state = State()


def reset(**settings: Any) -> None:
    global state
    state = State(**settings)
