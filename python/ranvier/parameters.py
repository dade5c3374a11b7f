"""Reading and writing node parameters: neurons live in the kernel, devices here."""

import math
from typing import Any

import numpy as np

from . import (
    _kernel,
    _state,
    choices,
    cm,
    compartments,
    correlation_detectors,
    list_parameters,
    recording,
    structural_plasticity,
    weight_recording,
)
from ._state import Model
from .errors import BadParameterError, UnknownParameterError, WrongCountError, kernel_errors
from .nodes import NodeCollection, ParameterAccess, ids_at, kernel_ids
from .parameter_arithmetic import Expression
from .random import Parameter
from .spatial.parameters import SpatialParameter
from .structural_plasticity import has_elements


def _per_node_values(name, value, gids, positions, boolean=False):
    """A scalar, array (one value per node of gids) or random parameter as one float per
    node at `positions` of gids (the nodes of this rank). A boolean parameter takes True or
    False (or 1, 0), stored as 1.0 or 0.0."""
    n = len(gids)
    if boolean:
        if not (isinstance(value, (bool, np.bool_)) or (isinstance(value, (int, float)) and value in (0, 1))):
            raise BadParameterError(f"{name} must be True or False, got {name} = {value!r}")
        return np.full(len(positions), float(value))
    if isinstance(value, SpatialParameter):  # of the nodes' positions (spatial.pos)
        return np.asarray(value.node_values(NodeCollection._ascending(gids)))[positions]
    if isinstance(value, Expression):  # evaluated over every node of the call (see parameter_arithmetic)
        return value.node_values(np.asarray(gids, dtype=np.uint32))[positions]
    if isinstance(value, Parameter):
        with kernel_errors():  # keyed by gid: the same values whatever the partition
            return _state.state.kernel.draw_node_values(value.spec(), ids_at(gids, positions))
    if isinstance(value, (bool, np.bool_, str)) or value is None:
        raise BadParameterError(f"{name} must be a number, got {name} = {value!r}")
    try:
        values = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise BadParameterError(f"{name} must be a number or an array of numbers, got {name} = {value!r}") from None
    except OverflowError:  # an integer beyond any double
        raise BadParameterError(
            f"{name} must be a number within the range of a double, got {name} = {value!r}"
        ) from None
    if values.ndim == 0:
        if np.isnan(values):
            raise BadParameterError(f"{name} must not be NaN, got {name} = nan")
        return np.full(len(positions), float(values))
    if values.shape != (n,):
        raise WrongCountError(f"{name} needs one value per node ({n}), got shape {values.shape}")
    if np.isnan(values).any():
        raise BadParameterError(f"{name} must not be NaN, got {name} = nan")
    return np.ascontiguousarray(values[positions])


def list_value(name: str, value: Any) -> list[float]:
    """A list parameter's value (a sequence of numbers) as a list of floats."""
    if isinstance(value, (str, dict, bool)) or not hasattr(value, "__len__"):
        raise BadParameterError(f"{name} must be a list of numbers, got {name} = {value!r}")
    try:
        out = [float(v) for v in value]
    except (TypeError, ValueError, OverflowError):  # OverflowError: an integer beyond any double
        raise BadParameterError(f"{name} must be a list of numbers, got {name} = {value!r}") from None
    if any(math.isnan(v) for v in out) or any(isinstance(v, (bool, np.bool_)) for v in value):
        raise BadParameterError(f"{name} must be a list of numbers, got {name} = {value!r}")
    return out


def as_lists(model: Model, params: dict[str, Any]) -> dict[str, Any]:
    """params with a number given for a list variable that takes one as a list of it."""
    lists = _state.ONE_ELEMENT_LISTS.get(model.base, set())
    return {
        k: [v] if k in lists and isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) else v
        for k, v in params.items()
    }


def _per_node_lists(name, value, n, positions):
    """One list (the same, or one per node when value holds n sequences) for each node at positions."""
    if (
        hasattr(value, "__len__")
        and len(value) == n
        and n > 0
        and all(hasattr(v, "__len__") and not isinstance(v, str) for v in value)
    ):
        return [list_value(name, value[k]) for k in positions]
    same = list_value(name, value)
    return [same for _ in positions]


def _groups_by_model(nodes, ranges=False):
    """(model, gids) for each model among the nodes (gids ascending; ranges: a range where the
    nodes are consecutive, so that setting a population's values makes no array of its ids)."""
    ids = nodes._ids
    if len(_state.state.models_in(ids)) == 1:
        return [(_state.state.model_of(ids[0]), ids if ranges else nodes._gids)]
    gids = nodes._gids
    index = np.asarray([_state.state.range_models[i].name for i in _state.state.range_index(gids)])
    return [(_state.state.models[name], np.ascontiguousarray(gids[index == name])) for name in dict.fromkeys(index)]


def set_neuron_parameters(model: Model, gids: np.ndarray, params: dict[str, Any]) -> None:
    structure, params = cm.split(model, params)
    params = as_lists(model, compartments.unfolded(model.base, model.defaults, params))
    for name in params:
        if name not in model.defaults and not (name == structural_plasticity.ELEMENT_CHANGES and has_elements(model)):
            raise UnknownParameterError(f"{model.name} has no parameter {name}")
    elements = structural_plasticity.element_params(params)
    _set_neuron_values(model, gids, {k: v for k, v in params.items() if k not in elements})
    if elements:  # once the values were taken
        structural_plasticity.set_elements(np.asarray(gids, dtype=np.uint32), elements)
    if structure:
        cm.set_structure(gids, structure)


def _set_neuron_values(model, gids, params):
    params = list_parameters.set_lists(model, gids, params)
    if not params:
        return
    kernel = _state.state.kernel
    with kernel_errors():
        positions = kernel.local_positions(kernel_ids(gids))  # only this rank's nodes get values
    lists = [name for name in params if isinstance(model.defaults[name], list)]
    names = [name for name in params if name not in lists]
    named = choices.of(model.base)
    params = {k: choices.index(model.base, k, v) if k in named else v for k, v in params.items()}
    values = (
        np.stack(
            [
                _per_node_values(name, params[name], gids, positions, isinstance(model.defaults[name], bool))
                for name in names
            ]
        )
        if names
        else np.zeros((0, len(positions)))
    )
    list_values = [_per_node_lists(name, params[name], len(gids), positions) for name in lists]
    with kernel_errors():  # all names at once: a rejected value leaves every node unchanged
        kernel.set_variables(names, ids_at(gids, positions), np.ascontiguousarray(values), lists, list_values)


def _as_default_type(model, name, value):
    """A device's value (accepted by the kernel) in the type of its default, as GetStatus shows it."""
    default = _state.state.device_models[model.base][name]
    if isinstance(default, tuple):  # node ids
        return tuple(int(v) for v in value)
    if isinstance(default, bool):
        return bool(value)
    if isinstance(default, int):
        return int(value)
    if isinstance(default, list):
        return [float(v) if not isinstance(v, str) else v for v in value]
    return float(value) if isinstance(default, float) else value


def _plain(model, name, value):
    """A device's value for the kernel: numpy arrays and tuples as lists, node collections
    (where the default is node ids) as their ids."""
    if isinstance(model.defaults.get(name), tuple):
        value = weight_recording.checked_filter(name, value)
    return value.tolist() if isinstance(value, np.ndarray) else list(value) if isinstance(value, tuple) else value


def check_device_values(model: Model, params: dict[str, Any]) -> dict[str, Any]:
    """params for SetDefaults or CopyModel of a device model, checked by the kernel together
    with the model's other defaults."""
    params = {k: _plain(model, k, v) for k, v in params.items()}
    defaults = {k: _plain(model, k, v) for k, v in model.defaults.items()}
    with kernel_errors():
        _kernel.check_device(
            model.base, {**defaults, **params}, _state.state.resolution, _state.state.settings["tics_per_ms"]
        )
    return {k: _as_default_type(model, k, v) for k, v in params.items()}


def _split_per_node(model, gids, params):
    """One dict per node where a value is a list with one entry per node (PyNEST's
    ``nodes.set(rate=[r1, r2])``; for list-valued parameters a list of lists), else None."""

    def per_node(name, value):
        if isinstance(value, (str, dict)) or not hasattr(value, "__len__") or len(value) != len(gids):
            return False
        if isinstance(model.defaults.get(name), tuple):  # node ids: one node collection for every node
            return False
        if isinstance(model.defaults.get(name), list):
            return all(hasattr(v, "__len__") and not isinstance(v, str) for v in value)
        return True

    split = [name for name, value in params.items() if per_node(name, value)]
    if not split:
        return None
    return [{**params, **{name: params[name][k] for name in split}} for k in range(len(gids))]


def set_device_parameters(model: Model, gids: np.ndarray, params: dict[str, Any]) -> None:
    per_node = _split_per_node(model, gids, params)
    if per_node is not None:
        for gid, p in zip(gids, per_node):
            set_device_parameters(model, gids[gids == gid], p)
        return
    restart = False
    if correlation_detectors.analyses(model):
        params, restart = correlation_detectors.resets(model, params)
    elif "n_events" in params and model.base in _state.RECORDERS:
        params = dict(params)
        recording.set_n_events(gids, params.pop("n_events"))
    for name in params:
        if name not in model.defaults or name in ("events", "n_events"):
            raise UnknownParameterError(f"{model.name} has no parameter {name}")
    plain = {k: _plain(model, k, v) for k, v in params.items()}
    _refuse_sampling_changes(model, gids, plain)
    if isinstance(plain.get("time_in_steps"), (bool, np.bool_)):  # other values: the kernel names them
        recording.check_time_in_steps(gids, bool(plain["time_in_steps"]))
    with kernel_errors():  # the kernel checks every value, and sets all of them or none
        _state.state.kernel.configure_devices(np.asarray(gids).tolist(), plain)
    if model.base in _state.RECORDERS:
        recording.configured(gids, {k: _as_default_type(model, k, v) for k, v in plain.items()})
    if restart:
        recording.clear(gids)


# What a sampler's connections were made with (its probes keep them): NEST refuses changes once
# it records, and so does Ranvier.
_SAMPLING = ("interval", "offset", "record_from")


def _refuse_sampling_changes(model: Model, gids: np.ndarray, plain: dict[str, Any]) -> None:
    if _state.RECORDS.get(model.base) != "samples":
        return
    for gid in gids.tolist():
        if gid not in _state.state.sampled:
            continue
        for name in _SAMPLING:
            if name in plain and plain[name] != _device_value(model, gid, name):
                raise BadParameterError(
                    f"{name} of {model.name} {gid} cannot change once it records nodes "
                    f"(its interval, offset and record_from), got {name} = {plain[name]!r}"
                )


def apply_pending() -> None:
    """Sets the parameters that Create calls under area placement left for later, in the
    order of the calls (random values then come out as in any other placement)."""
    s = _state.state
    pending, s.pending_parameters = s.pending_parameters, []
    for nodes, params in pending:
        _set_parameters_now(nodes, params)


def set_parameters(nodes: NodeCollection, params: Any, model_defaults: bool = False) -> None:
    """Sets params on nodes; model_defaults: they are the model's defaults (Create), which
    may hold the parameters that users set through SetDefaults or CopyModel only."""
    apply_pending()
    if not model_defaults:
        for p in params if isinstance(params, (list, tuple)) else [params]:
            for name in set(p) & _state.MODEL_ONLY if isinstance(p, dict) else ():
                if any(m.kind == "device" and name in m.defaults for m in _state.state.models_in(nodes._gids)):
                    raise BadParameterError(
                        f"{name} can only be set as a model default (SetDefaults or CopyModel), "
                        f"got {name} = {p[name]!r}"
                    )
    _set_parameters_now(nodes, params)


def _set_parameters_now(nodes, params):
    if isinstance(params, (list, tuple)):  # one dict per node
        if len(params) != len(nodes):
            raise WrongCountError(f"need one parameter dict per node ({len(nodes)}), got {len(params)}")
        common, params = list_parameters.hoist(nodes, params)
        if common:
            _set_parameters_now(nodes, common)
        for node, p in zip(nodes, params):
            _set_parameters_now(node, p)
        return
    if not isinstance(params, dict):
        raise BadParameterError(f"parameters must be a dict, got {params!r}")
    if "frozen" in params:
        params = dict(params)
        _set_frozen(nodes._gids, params.pop("frozen"))
    for model, gids in _groups_by_model(nodes, ranges=True):
        if model.kind == "neuron":
            set_neuron_parameters(model, gids, params)
        else:
            set_device_parameters(model, np.asarray(gids, dtype=np.uint32), params)


def _set_frozen(gids: np.ndarray, value: Any) -> None:
    """NEST's frozen: a frozen neuron is not updated (kernel/frozen_nodes.hpp); Ranvier's devices
    are never frozen."""
    if not (isinstance(value, (bool, np.bool_)) or (isinstance(value, (int, np.integer)) and value in (0, 1))):
        raise BadParameterError(f"frozen must be True or False, got frozen = {value!r}")
    neurons = _is_neuron(gids)
    if value and not neurons.all():
        raise BadParameterError(
            f"frozen: devices cannot be frozen, got frozen = {value!r} for node {gids[~neurons][0]}"
        )
    with kernel_errors():
        _state.state.kernel.set_frozen(np.ascontiguousarray(gids[neurons]), bool(value))


def _is_neuron(gids: np.ndarray) -> np.ndarray:
    return np.asarray([m.kind == "neuron" for m in _state.state.models_of(gids)], dtype=bool)


def _frozen(gids: np.ndarray) -> np.ndarray:
    out = np.zeros(len(gids), dtype=bool)
    neurons = _is_neuron(gids)
    if neurons.any():
        with kernel_errors():
            out[neurons] = _state.state.kernel.get_variable("frozen", np.ascontiguousarray(gids[neurons])) == 1.0
    return out


def _device_value(model, gid, name):
    if model.base in _state.RECORDERS and name in correlation_detectors.status_keys(model):
        if correlation_detectors.analyses(model):
            return correlation_detectors.value(model, gid, name)
        return recording.events(gid) if name == "events" else recording.n_events(gid)
    if name == "filenames" and model.base in _state.RECORDERS:
        return recording.filenames(gid)
    if name not in model.defaults:
        raise UnknownParameterError(f"{model.name} has no parameter {name}")
    value = _state.state.kernel.device_parameters(gid)[name]
    return weight_recording.as_nodes(value) if isinstance(value, tuple) else value


def archiving(m: Model) -> bool:
    """Whether a neuron model keeps spikes for STDP (it has tau_minus: NEST's ArchivingNode);
    its nodes then answer t_spike, the time of their last spike (ms, -1.0 before the first)."""
    return "tau_minus" in m.defaults


# NEST's node properties of where a node lives.
PLACES = ("vp", "thread", "local", "thread_local_id")


def places(gids: np.ndarray) -> dict[str, np.ndarray]:
    """vp, thread and local (on this rank) of each node, as NEST reports them; a device has an
    instance on every virtual process: vp 0, thread 0, local everywhere."""
    s = _state.state
    vp, thread, rank = s.kernel.virtual_processes(np.ascontiguousarray(gids))
    device = np.asarray([m.kind != "neuron" for m in s.models_of(gids)], dtype=bool)
    return {"vp": vp, "thread": thread, "local": device | (rank == s.kernel.rank)}


def _thread_local_ids(gids: np.ndarray) -> np.ndarray:
    """Each node's place among the nodes of its virtual process in id order, devices (on every
    one) among them (NEST shows -1 until its first Connect or Simulate)."""
    s = _state.state
    vp = places(gids)["vp"]
    last = int(gids.max())  # only nodes of smaller ids count
    every = np.arange(1, last + 1, dtype=np.uint32)
    every_vp = s.kernel.virtual_processes(every)[0]
    sizes = np.diff(s.range_starts + [s.n_nodes + 1])  # by Create call
    devices = np.repeat([m.kind != "neuron" for m in s.range_models], sizes).astype(bool)[:last]
    out = np.empty(len(gids), dtype=np.int64)
    for v in np.unique(vp):
        members = every[devices | (every_vp == v)]  # ascending
        mine = vp == v
        out[mine] = np.searchsorted(members, gids[mine])
    return out


def get_parameters(nodes: NodeCollection, keys: tuple[Any, ...]) -> Any:
    """PyNEST's NodeCollection.get(*keys): for one node its value, for several a tuple of their
    values; a list of names gives a dict; no names every parameter (None where a node's model
    lacks one); two keys address into a dict parameter (``get("events", "times")``)."""
    apply_pending()
    if not len(nodes):
        raise BadParameterError("cannot get parameters of an empty NodeCollection")
    if len(keys) > 1:
        return _get_inside(nodes, keys)
    if not keys:
        return _get_all(nodes)
    if isinstance(keys[0], str):
        return cm.wrapped(nodes, keys[0], _get_one(nodes, keys[0]))
    names = list(keys[0]) if hasattr(keys[0], "__iter__") else None  # as PyNEST, any iterable (a dict's keys)
    if names is None or not all(isinstance(k, str) for k in names):
        raise TypeError(f"get takes parameter names (a str or an iterable of them), got {keys[0]!r}")
    return {k: _get_one(nodes, k) for k in names}


def _get_inside(nodes, keys):
    """get(outer, ..., inner): the inner key(s) of a dict parameter, per node (PyNEST reads the
    first key and the last)."""
    if not isinstance(keys[0], str):
        raise TypeError(f"get takes a name and the name(s) inside its value, got {keys!r}")
    outer = _get_one(nodes, keys[0])
    inner = [keys[-1]] if isinstance(keys[-1], str) else list(keys[-1])
    dicts = outer if len(nodes) > 1 else (outer,)
    for d, gid in zip(dicts, nodes._gids.tolist()):
        if not isinstance(d, dict):
            raise TypeError(f"{keys[0]} of node {gid} holds no names, it is {d!r}")
        for k in inner:
            if k not in d:
                raise KeyError(f"{keys[0]} of node {gid} has no {k}")
    values = {k: dicts[0][k] if len(nodes) == 1 else [d[k] for d in dicts] for k in inner}
    return values[keys[-1]] if isinstance(keys[-1], str) else values


# The properties NEST's status shows of every node, beside its model's parameters.
NODE_PROPERTIES = ("element_type", "frozen", "node_uses_wfr")
# A recorder's settings of the file backends, which NEST's status shows for nodes recording to files only.
FILE_SETTINGS = ("precision", "file_extension")


def _status_names(model, gids):
    """What NEST's status of these nodes of one model lists: the model's parameters (a
    recorder's file settings only where one records to files, a multimeter's location only where
    one has it, Ranvier's extension for cable cells), a recorder's events (or its files) or a
    detector's results, the node properties, the recordables where the model has them, and an
    archiving neuron's t_spike."""
    names = list(model.defaults)
    if model.base in _state.RECORDERS:
        to_files = [recording.filenames(g) != [] for g in gids.tolist()]
        hidden = set() if any(to_files) else set(FILE_SETTINGS)
        if "location" in names and all(_device_value(model, g, "location") in ([], None) for g in gids.tolist()):
            hidden.add("location")
        keys = correlation_detectors.status_keys(model)
        if any(to_files) and not correlation_detectors.analyses(model):  # files instead of events
            keys = (*(k for k in keys if k != "events" or not all(to_files)), "filenames")
        names = [n for n in names if n not in hidden] + [k for k in keys if k not in names]
    names += [k for k in NODE_PROPERTIES if k not in names]
    if (model.kind == "neuron" and _state.NEURON_RECORDABLES[model.base] is not None) or (
        model.base in _state.DEVICE_RECORDABLES
    ):
        names.append("recordables")
    if model.kind == "neuron" and archiving(model):
        names.append("t_spike")
    return names


def _get_all(nodes):
    """Every parameter of the nodes' models, None for a node whose model lacks it."""
    groups = [(model, gids, _status_names(model, gids)) for model, gids in _groups_by_model(nodes)]
    names = list(dict.fromkeys(n for _, _, shown in groups for n in shown))
    names = sorted(set(names)) if len(groups) > 1 else names
    out = {}
    for name in names:
        values: dict[int, Any] = {}
        for _, gids, shown in groups:
            known = name in shown
            got: Any = _get_one(NodeCollection._ascending(gids), name) if known else None
            values.update(zip(gids.tolist(), got if len(gids) > 1 and known else [got] * len(gids)))
        out[name] = _collected([values[g] for g in nodes._gids.tolist()])
    out.update({k: _get_one(nodes, k) for k in ("model", "model_id", "global_id") + PLACES})
    return compartments.folded(groups[0][0].base, out) if len(groups) == 1 else out


def _element_type(model):
    """NEST's element_type of a model's nodes."""
    if model.kind == "neuron":
        return _state.NEURON_ELEMENT_TYPES[model.base]
    return "recorder" if model.base in _state.RECORDERS else "stimulator"


def _recordables(nodes):
    """Each node's recordables, as NEST lists them (neurons and the current generators)."""
    values: dict[int, list[str] | None] = {}
    for model, gids in _groups_by_model(nodes):
        if model.base in cm.MODELS:
            values.update(cm.node_recordables(gids))
        elif model.kind == "neuron" and _state.NEURON_RECORDABLES[model.base] is not None:
            values.update(list_parameters.node_recordables(model, gids))
        elif model.base in _state.DEVICE_RECORDABLES:
            values.update((gid, list(_state.DEVICE_RECORDABLES[model.base])) for gid in gids.tolist())
        else:
            raise UnknownParameterError(f"{model.name} has no parameter recordables")
    return [values[g] for g in nodes._gids.tolist()]


def _collected(values):
    """One node's value, or several nodes' values as a tuple (as PyNEST gives them)."""
    return values[0] if len(values) == 1 else tuple(values)


def _compartment_dicts(nodes, model, compartment):
    """NEST's dict of one compartment's parameters, per node."""
    flat = compartments.names_in(model.base, compartment, model.defaults)
    got = {inner: _get_one(nodes, name) for inner, name in flat.items()}
    if len(nodes) == 1:
        return got
    return tuple({inner: got[inner][k] for inner in flat} for k in range(len(nodes)))


def _get_one(nodes, name):
    models = _state.state.models_in(nodes._ids)
    if len(models) == 1 and name in compartments.of(models[0].base):
        return _compartment_dicts(nodes, models[0], name)
    if name == "model":
        return _collected([m.name for m in _state.state.models_of(nodes._gids)])
    if name == "model_id":
        return _collected([_state.state.node_model_id(m.name) for m in _state.state.models_of(nodes._gids)])
    if name == "global_id":
        return _collected(nodes.tolist())
    if name == "thread_local_id":  # counting the nodes before each: only when asked for
        return _collected(_thread_local_ids(nodes._gids).tolist())
    if name in PLACES:
        return _collected(places(nodes._gids)[name].tolist())
    if name == "frozen":
        return _collected(_frozen(nodes._gids).tolist())
    if name == "node_uses_wfr":
        return _collected([_state.uses_wfr(m) for m in _state.state.models_of(nodes._gids)])
    if name == "element_type":
        return _collected([_element_type(m) for m in _state.state.models_of(nodes._gids)])
    if name == "recordables":
        return _collected(_recordables(nodes))
    if name == "receptor_types" and all(
        m.base in _state.NEURON_RECEPTOR_TYPES for m in _state.state.models_of(nodes._gids)
    ):
        return _collected([dict(_state.NEURON_RECEPTOR_TYPES[m.base]) for m in _state.state.models_of(nodes._gids)])
    values: dict[int, Any] = {}
    for model, gids in _groups_by_model(nodes):
        if model.kind == "neuron":
            if name not in model.defaults and not (name == "t_spike" and archiving(model)):
                raise UnknownParameterError(f"{model.name} has no parameter {name}")
            if name == structural_plasticity.ELEMENTS:
                values.update(zip(gids.tolist(), structural_plasticity.get_elements(gids)))
                continue
            if name in cm.GET and model.base in cm.MODELS:
                values.update(cm.get(gids, name))
                continue
            listed = list_parameters.get(model, gids, name)
            if listed is not None:
                values.update(listed)
                continue
            if isinstance(model.defaults.get(name), list):
                with kernel_errors():
                    got = [np.asarray(v) for v in _state.state.kernel.get_list_variable(name, gids)]
                values.update(zip(gids.tolist(), got))
                continue
            with kernel_errors():
                got = _state.state.kernel.get_variable(name, gids)
            if isinstance(model.defaults.get(name), bool):
                got = got.astype(bool)
            names = choices.of(model.base).get(name)
            values.update(zip(gids.tolist(), [names[int(v)] for v in got] if names else got.tolist()))
        else:
            for gid in gids.tolist():
                values[gid] = _device_value(model, gid, name)
    return _collected([values[g] for g in nodes._gids.tolist()])


# node collections read and write their parameters here (nodes.py is the layer below)
ParameterAccess.get, ParameterAccess.set, ParameterAccess.places = get_parameters, set_parameters, places
