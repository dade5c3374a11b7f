"""Models(), GetDefaults, SetDefaults and CopyModel for neuron, device and synapse models."""

import copy
import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from . import (
    _kernel,
    _state,
    choices,
    compartments,
    correlation_detectors,
    eprop,
    list_parameters,
    structural_plasticity,
    synapse_aliases,
)
from ._state import Model
from .errors import BadParameterError, UnknownModelError, UnknownParameterError, kernel_errors
from .neuromodulation import TRANSMITTER, checked_transmitter, transmitter_nodes
from .nodes import to_json
from .parameters import archiving, as_lists, check_device_values, list_value
from .synapse_copies import register_synapse_copy
from .weight_recording import as_nodes, checked_attachment


def _model(name: Any) -> Model:
    if not isinstance(name, str) or name not in _state.state.models:
        raise UnknownModelError(f"unknown model: {name!r}")
    return _state.state.models[name]


def units(model: str) -> dict[str, str]:
    """The unit of each parameter and state variable the kernel declares for a neuron, synapse or
    device model (or a copy of one) or a cable mechanism ("hh", "expsyn"), as NEST's model
    documentation writes it: {"C_m": "pF", "tau_m": "ms", ...}; "" for a dimensionless one. A
    synaptic weight (and Wmax, spike_weights) takes its target's unit: "pA, nS or mV"."""
    name = _model(model).base if model in _state.state.models else model
    if not isinstance(name, str) or name not in _state.UNITS:
        raise UnknownModelError(f"unknown model: {model!r}")
    return dict(_state.UNITS[name])


def Models(mtype: str = "all") -> list[str]:
    kinds = {"all": ("neuron", "device", "synapse"), "nodes": ("neuron", "device"), "synapses": ("synapse",)}
    if mtype not in kinds:
        raise BadParameterError(f"mtype must be 'all', 'nodes' or 'synapses', got mtype = {mtype!r}")
    return sorted(n for n, m in _state.state.models.items() if m.kind in kinds[mtype])


# Backend settings NEST lists among a recorder's defaults only once SetDefaults or CopyModel
# set them (a node's only parameters, a weight_recorder's filters, never show).
_SHOWN_ONCE_SET = ("precision", "file_extension")


def _device_defaults(m):
    """A device model's defaults under NEST 3.10's keys: its parameters and what NEST reports
    of a model's prototype node (NEST's node memory-pool statistics aside)."""
    recorder = m.base in _state.RECORDERS
    built_in = _state.state.device_models[m.base]
    values = {
        k: v
        for k, v in m.defaults.items()
        if not (recorder and k in _SHOWN_ONCE_SET and v == built_in[k]) and k not in _state.NODE_ONLY[m.base]
    }
    values.update(_prototype_node(m, "recorder" if recorder else "stimulator"))
    if correlation_detectors.analyses(m):
        values.update(correlation_detectors.empty(m, m.defaults))
    elif recorder:
        values.update({"events": {"senders": np.array([]), "times": np.array([])}, "n_events": 0})
    return values


# What NEST reports of a model's prototype node (NEST's node memory-pool statistics aside).
def _prototype_node(m, element_type):
    return {
        "element_type": element_type,
        "frozen": False,
        "global_id": 0,
        "local": True,
        "model": m.name,
        "model_id": _state.state.node_model_id(m.name),
        "node_uses_wfr": _state.uses_wfr(m),
        "thread": -1,
        "thread_local_id": -1,
        "type_id": m.base,
        "vp": -1,
    }


def _neuron_defaults(m):
    """A neuron model's defaults under NEST 3.10's keys: its parameters and state, its prototype
    node's, NEST's recordables; a model that keeps spikes for STDP (it has tau_minus, NEST's
    ArchivingNode) shows its prototype's empty spike history, one with receptor ports (a list
    parameter) that it has no connections."""
    values = copy.deepcopy(m.defaults)  # a user's change to what GetDefaults gave changes no default
    values.update(_prototype_node(m, _state.NEURON_ELEMENT_TYPES[m.base]))
    if archiving(m):
        values.update({"archiver_length": 0, "t_spike": -1.0, "post_trace": 0.0})
    if list_parameters.lists_of(m):
        values["has_connections"] = False
    if m.base in _state.NEURON_RECEPTOR_TYPES:
        values["receptor_types"] = dict(_state.NEURON_RECEPTOR_TYPES[m.base])
    recordables = list_parameters.recordables(m)
    if recordables is not None:
        values["recordables"] = recordables
    return compartments.folded(m.base, values)


def _synapse_defaults(m):
    """A synapse model's defaults under NEST 3.10's keys (its size in memory, sizeof, aside)."""
    values = dict(m.defaults)
    values.update(
        {
            "element_type": "synapse",
            "has_delay": "delay" in _state.PER_CONNECTION[m.base],
            "requires_symmetric": m.base in _state.SYMMETRIC_SYNAPSES,
            "synapse_model": m.name,
            "synapse_modelid": m.synapse_id,
        }
    )
    values = synapse_aliases.shown(m.base, values)
    return eprop.shown(values) if eprop.has_optimizer(values) else values


def GetDefaults(model: str, keys: str | Iterable[str] | None = None, output: str = "") -> Any:
    """A model's defaults: all (a dict), one (its value) or several (a list); ``output="json"``
    gives them as JSON text, as PyNEST."""
    if output not in ("", "json"):
        raise BadParameterError(f"output must be '' or 'json', got output = {output!r}")
    if output == "json":
        return to_json(GetDefaults(model, keys))
    m = _model(model)
    values = {"device": _device_defaults, "neuron": _neuron_defaults, "synapse": _synapse_defaults}[m.kind](m)
    if m.kind == "synapse" and keys in (None, "num_connections"):
        values["num_connections"] = _count_connections(m)
    if m.base in _state.DEVICE_RECORDABLES:
        values["recordables"] = list(_state.DEVICE_RECORDABLES[m.base])
    if isinstance(values.get("weight_recorder"), tuple):  # node ids as a node collection
        values["weight_recorder"] = as_nodes(values["weight_recorder"])
    if m.kind == "synapse" and TRANSMITTER in values:
        values[TRANSMITTER] = transmitter_nodes(values[TRANSMITTER])
    if keys is None:
        return values
    if isinstance(keys, str) or not isinstance(keys, Iterable):
        if keys not in values:
            raise UnknownParameterError(f"{model} has no parameter {keys}")
        return values[keys]
    return [GetDefaults(model, k) for k in keys]  # a list of values, as PyNEST 3.10


def _count_connections(m):
    """Connections of a synapse model on all ranks (PyNEST's GetDefaults(...)["num_connections"]).
    Counting them prepares the kernel, so a network without connections is not asked."""
    kernel = _state.state.kernel
    if kernel.status()["num_connections"] == 0:
        return 0
    with kernel_errors():  # every rank's (collective, as GetConnections(gather=True))
        return len(kernel.get_connections(None, None, m.synapse_id, False)["source"])


def _check_defaults(m: Model, params: dict[str, Any]) -> dict[str, Any]:
    """params checked, list parameters as lists of floats with their counts beside them."""
    params = as_lists(m, compartments.unfolded(m.base, m.defaults, params)) if m.kind == "neuron" else dict(params)
    if m.kind == "synapse":
        params = synapse_aliases.as_named(m.base, params)
    if m.kind == "synapse" and eprop.has_optimizer(m.defaults):
        params = eprop.flattened(m.defaults, _state.SYNAPSE_BASES[m.base], params, lambda: _count_connections(m))
    for name, value in list(params.items()):
        node_only = _state.NODE_ONLY.get(m.base, ())
        if name not in m.defaults or name in node_only:
            raise UnknownParameterError(
                f"{m.name} has no parameter {name}"
                + (" (a node's parameter, not a model default)" if name in node_only else "")
            )
        if m.kind == "device":
            continue
        if name == "weight_recorder":
            params[name] = checked_attachment(value)
            continue
        if name == TRANSMITTER and m.kind == "synapse":
            params[name] = checked_transmitter(value)
            continue
        if name == structural_plasticity.ELEMENTS:
            params[name] = structural_plasticity.checked_elements(value)
            continue
        if name in list_parameters.counts_of(m):
            raise BadParameterError(
                f"{name} is read-only (the length of {list_parameters.counts_of(m)[name]}), got {name} = {value!r}"
            )
        if name in list_parameters.lists_of(m):
            params[name] = list_parameters.checked(name, value)
            with kernel_errors():
                _kernel.check_list(m.base, name, params[name])
            count = list_parameters.lists_of(m)[name][0]
            if count:  # glif_psc shows no count
                params[count] = len(params[name])
            continue
        if isinstance(m.defaults[name], list):  # a list variable of a neuron model (one per neuron)
            list_value(name, value)
            continue
        if name in choices.of(m.base):  # a choice among names
            choices.index(m.base, name, value)
            continue
        if isinstance(m.defaults[name], bool):  # a switch of a neuron model
            if not (isinstance(value, bool) or (isinstance(value, (int, float)) and value in (0, 1))):
                raise BadParameterError(f"{name} must be True or False, got {name} = {value!r}")
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
            raise BadParameterError(f"{name} must be a number, got {name} = {value!r}")
    if m.kind == "synapse":
        delay = params.get("delay", m.defaults["delay"])
        if delay < _state.state.resolution:
            raise BadParameterError(f"delay must be >= the resolution, got delay = {delay}")
        with kernel_errors():  # finite and within the steps a connection holds, as NEST checks here too
            _state.state.kernel.check_delay(float(delay))
    return params


def _default_type(m, name, value):
    """A neuron model's switch as a bool and list as a list of floats, a synapse model's list of
    integers with its whole numbers as ints (the kernel refuses others); other values as given."""
    if m.kind == "neuron" and isinstance(m.defaults[name], bool):
        return bool(value)
    if isinstance(m.defaults[name], list):
        values = list_value(name, value)
        if m.kind == "synapse" and all(isinstance(v, int) for v in m.defaults[name]):
            return [int(v) if v.is_integer() else v for v in values]
        return values
    return value


def _check_neuron_defaults(m: Model, defaults: dict[str, Any]) -> None:
    """A neuron model's defaults checked as Create checks a neuron (NEST's BadProperty at
    SetDefaults): every scalar, the earlier defaults with the new. A cable cell's are checked
    with its description, at Create."""
    if m.base == "cable_cell":
        return
    scalars = {k: float(v) for k, v in defaults.items() if isinstance(v, (int, float)) and not math.isnan(v)}
    with kernel_errors():
        _kernel.check_neuron(m.base, scalars)


def SetDefaults(model: str, params: str | dict[str, Any], val: Any = None) -> None:
    if isinstance(params, str):
        params = {params: val}
    m = _model(model)
    params = _check_defaults(m, params)
    if m.kind == "device":
        params = check_device_values(m, params)
    if m.kind == "neuron":
        _check_neuron_defaults(m, {**m.defaults, **params})
    before = dict(m.defaults)
    m.defaults.update({k: _default_type(m, k, v) for k, v in params.items()})
    if m.kind == "synapse":
        try:  # the kernel checks the values: all or nothing
            register_synapse_copy(m, update_only=True)
        except Exception:
            m.defaults = before
            raise


def CopyModel(existing: str, new: str, params: dict[str, Any] | None = None) -> None:
    m = _model(existing)
    if not isinstance(new, str) or new in _state.state.models:
        raise BadParameterError(f"new model name must be unused, got new = {new!r}")
    copy = _state.Model(new, m.base, m.kind, m.defaults)
    params = params or {}
    params = _check_defaults(copy, params)
    if m.kind == "device":
        params = check_device_values(copy, params)
    if m.kind == "neuron":
        _check_neuron_defaults(copy, {**copy.defaults, **params})
    copy.defaults.update({k: _default_type(copy, k, v) for k, v in params.items()})
    if m.kind == "synapse":
        register_synapse_copy(copy)
    _state.state.models[new] = copy
