"""NEST's structural plasticity (Diaz-Pier et al. 2016) as PyNEST has it: neurons' synaptic
elements (the node parameters synaptic_elements and synaptic_elements_param), the kernel
attribute structural_plasticity_synapses, EnableStructuralPlasticity and
DisableStructuralPlasticity, and the counts of connected elements that Connect and Disconnect
keep where their syn_spec names the elements. The kernel grows the elements with each neuron's
calcium and makes and removes the synapses (kernel/structural_plasticity.hpp)."""

from typing import Any

import numpy as np

from . import _kernel, _state
from .errors import (
    BadParameterError,
    UnknownModelError,
    UnknownParameterError,
    UnsupportedRequestError,
    kernel_errors,
)

ELEMENTS = "synaptic_elements"  # a neuron's elements; setting it replaces them all
ELEMENT_CHANGES = "synaptic_elements_param"  # changes to the elements a neuron has (set only, as NEST)
PRE, POST = "pre_synaptic_element", "post_synaptic_element"
# an entry of structural_plasticity_synapses: its keys and their defaults (NEST's); weight and delay
# default to the synapse model's
_SYNAPSE_KEYS = {
    "synapse_model": "static_synapse",
    PRE: None,
    POST: None,
    "allow_autapses": True,
    "allow_multapses": True,
}
_CONNECTION_KEYS = ("weight", "delay")


def has_elements(model: Any) -> bool:
    """Whether the neurons of a model have synaptic elements (NEST's archiving nodes)."""
    return model.kind == "neuron" and ELEMENTS in model.defaults


def checked_elements(value: Any) -> dict[str, dict[str, Any]]:
    """A synaptic_elements value checked as a neuron takes it, with each element's every value
    (a model default, as NEST shows it)."""
    if not isinstance(value, dict):
        raise BadParameterError(f"{ELEMENTS} must be a dict of element names to their parameters, got {value!r}")
    with kernel_errors():
        return _kernel.Kernel.checked_synaptic_elements(value)


def element_params(params: dict[str, Any]) -> dict[str, Any]:
    """The params that set synaptic elements."""
    return {k: v for k, v in params.items() if k in (ELEMENTS, ELEMENT_CHANGES)}


def set_elements(gids: np.ndarray, params: dict[str, Any]) -> None:
    """Sets the elements (element_params) on the neurons (all of a model with elements)."""
    kernel = _state.state.kernel
    for name, replace in ((ELEMENTS, True), (ELEMENT_CHANGES, False)):
        if name in params:
            value = params[name]
            if not isinstance(value, dict):
                raise BadParameterError(f"{name} must be a dict of element names to their parameters, got {value!r}")
            with kernel_errors():
                kernel.set_synaptic_elements(gids, value, replace)


def get_elements(gids: np.ndarray) -> list[dict[str, dict[str, Any]]]:
    """Each neuron's elements with NEST's keys, z and z_connected as they stand."""
    with kernel_errors():
        return _state.state.kernel.get_synaptic_elements(gids)


def growth_curves() -> list[str]:
    return list(_kernel.Kernel.growth_curves())


def synapses() -> dict[str, dict[str, Any]]:
    """The kernel attribute structural_plasticity_synapses, as NEST shows it."""
    names = _state.state.kernel.synapse_model_names()
    return {
        name: {
            "allow_autapses": autapses,
            "allow_multapses": multapses,
            POST: post,
            PRE: pre,
            "synapse_model": names[synapse],
        }
        for name, synapse, pre, post, autapses, multapses, _, _ in _state.state.kernel.structural_synapses()
    }


def set_synapses(value: Any) -> None:
    """Sets structural_plasticity_synapses: {name: {synapse_model, pre_synaptic_element,
    post_synaptic_element, allow_autapses, allow_multapses[, weight, delay]}}; the synapses
    made take the weight and delay given, else the synapse model's defaults as they are now."""
    if not isinstance(value, dict):
        raise BadParameterError(f"structural_plasticity_synapses must be a dict of named entries, got {value!r}")
    entries = []
    for name, spec in value.items():
        if not isinstance(spec, dict):
            raise BadParameterError(f"structural_plasticity_synapses[{name!r}] must be a dict, got {spec!r}")
        unknown = set(spec) - set(_SYNAPSE_KEYS) - set(_CONNECTION_KEYS)
        if unknown:
            raise UnknownParameterError(
                f"structural_plasticity_synapses[{name!r}] has no key {sorted(unknown)[0]} "
                f"(it takes {', '.join(list(_SYNAPSE_KEYS) + list(_CONNECTION_KEYS))})"
            )
        s = {**_SYNAPSE_KEYS, **spec}
        if s[PRE] is None or s[POST] is None:
            raise BadParameterError("Structural plasticity requires both a pre- and postsynaptic element.")
        model = _state.state.models.get(s["synapse_model"])
        if model is None or model.kind != "synapse":
            raise UnknownModelError(f"unknown synapse model: synapse_model = {s['synapse_model']!r}")
        for key in ("allow_autapses", "allow_multapses"):
            if not isinstance(s[key], (bool, np.bool_)):
                raise BadParameterError(f"{key} must be True or False, got {key} = {s[key]!r}")
        weight, delay = (float(spec.get(k, model.defaults[k])) for k in _CONNECTION_KEYS)
        if not delay >= _state.state.resolution:
            raise BadParameterError(f"delay must be >= the resolution, got delay = {delay}")
        entries.append(
            (
                str(name),
                model.synapse_id,
                str(s[PRE]),
                str(s[POST]),
                bool(s["allow_autapses"]),
                bool(s["allow_multapses"]),
                weight,
                delay,
            )
        )
    _state.state.kernel.set_structural_synapses(entries)


def state() -> dict[str, Any]:
    """What a checkpoint keeps: the entries of structural_plasticity_synapses (with the weight and
    delay they took) and whether structural plasticity is enabled."""
    kernel = _state.state.kernel
    names = kernel.synapse_model_names()
    entries = [(e[0], names[e[1]], *e[2:]) for e in kernel.structural_synapses()]
    return {"synapses": entries, "enabled": kernel.structural_plasticity_enabled}


def restore(saved: dict[str, Any]) -> None:
    kernel = _state.state.kernel
    kernel.set_structural_synapses([(e[0], _state.state.models[e[1]].synapse_id, *e[2:]) for e in saved["synapses"]])
    kernel.structural_plasticity_enabled = saved["enabled"]


def EnableStructuralPlasticity() -> None:
    """Lets the structural_plasticity_synapses change the network during Simulate."""
    _state.state.kernel.structural_plasticity_enabled = True


def DisableStructuralPlasticity() -> None:
    _state.state.kernel.structural_plasticity_enabled = False


def sp_elements(syn_spec: Any, rule: str) -> tuple[str, str] | None:
    """The (pre, post) elements a Connect's syn_spec names, or None; NEST makes such
    connections one_to_one or all_to_all only."""
    if not isinstance(syn_spec, dict) or (PRE not in syn_spec and POST not in syn_spec):
        return None
    if PRE not in syn_spec or POST not in syn_spec:
        raise BadParameterError("Structural plasticity requires both a pre- and postsynaptic element.")
    if rule not in ("one_to_one", "all_to_all"):
        raise UnsupportedRequestError(
            f"connections that take synaptic elements are made one_to_one or all_to_all (NEST's), got rule = {rule!r}"
        )
    return str(syn_spec[PRE]), str(syn_spec[POST])


def without_elements(syn_spec: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in syn_spec.items() if k not in (PRE, POST)}


def count_connected(
    pre: np.ndarray, post: np.ndarray, rule: str, elements: tuple[str, str], allow_autapses: bool, sign: int
) -> None:
    """Counts the connections a Connect made (sign 1) or a Disconnect removed (-1) on the elements
    of their neurons: one per connection on its source's pre and its target's post element."""
    if rule == "one_to_one":
        kept = (pre != post) | allow_autapses
        sources, targets = pre[kept], post[kept]
        by_source = np.unique(sources, return_counts=True)
        by_target = np.unique(targets, return_counts=True)
    else:  # all_to_all

        def per_node(nodes, others):
            self_pairs = np.isin(nodes, others) & (not allow_autapses)
            return nodes, np.full(len(nodes), len(others), dtype=np.int64) - self_pairs

        by_source, by_target = per_node(pre, post), per_node(post, pre)
    kernel = _state.state.kernel
    with kernel_errors():
        for (gids, n), element in ((by_source, elements[0]), (by_target, elements[1])):
            kernel.connect_synaptic_elements(
                np.ascontiguousarray(gids, dtype=np.uint32), np.ascontiguousarray(n * sign, dtype=np.int64), element
            )


def sp_synapse_elements(model: str) -> tuple[str, str] | None:
    """The elements of the last structural_plasticity_synapses entry (by name) of a synapse model,
    which NEST's Disconnect counts for it."""
    names = _state.state.kernel.synapse_model_names()
    found = [
        (pre, post)
        for _, synapse, pre, post, *_ in _state.state.kernel.structural_synapses()
        if names[synapse] == model
    ]
    return found[-1] if found else None
