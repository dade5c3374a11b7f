"""List-valued neuron parameters (NEST's tau_syn of the multisynapse models): one list per
Create call, kept by the kernel on every rank; its length sets the receptor ports and shows as
a read-only count (n_synapses). What a model has comes from the kernel (_kernel.neuron_lists)."""

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _state
from ._state import Model
from .errors import BadParameterError, kernel_errors
from .nodes import NodeCollection


def lists_of(model: Model) -> dict[str, tuple[str, str]]:
    """{list name: (count name, per-port recordable prefix)} of a neuron model."""
    return _state.NEURON_LISTS.get(model.base, {})


def counts_of(model: Model) -> dict[str, str]:
    return {count: name for name, (count, _) in lists_of(model).items() if count}


def recordables(model: Model, lists: dict[str, Any] | None = None) -> list[str] | None:
    """A model's recordables as NEST lists them, for its default lists or the given ones ({list
    name: its values}, a Create call's): those its kernel model declares and each port's
    (I_syn_1, ...); None where NEST lists none."""
    declared = _state.NEURON_RECORDABLES[model.base]
    if declared is None:
        return None
    names = list(declared)
    for name, (_, prefix) in lists_of(model).items():
        if prefix:
            names += [f"{prefix}_{k}" for k in range(1, len((lists or model.defaults)[name]) + 1)]
    return sorted(names)


def node_recordables(model: Model, gids: np.ndarray) -> dict[int, list[str] | None]:
    """{gid: its recordables} of neurons of one model, with the lists of their Create calls."""
    s = _state.state
    out: dict[int, Any] = {}
    for call in np.unique(s.range_index(gids)):
        lists = {}
        for name in lists_of(model):
            with kernel_errors():
                lists[name] = s.kernel.get_list(int(s.range_starts[call]), name)
        names = recordables(model, lists)
        out.update((gid, names) for gid in gids[s.range_index(gids) == call].tolist())
    return out


def checked(name: str, value: Any, n_nodes: int | None = None) -> list[float]:
    """value as a list of floats: one list, or (n_nodes given) one equal list per node."""
    if isinstance(value, (str, dict, bool)) or not hasattr(value, "__len__"):
        raise BadParameterError(f"{name} must be a list of numbers, got {name} = {value!r}")
    try:
        values = np.asarray(value, dtype=float)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an integer beyond any double
        raise BadParameterError(f"{name} must be a list of numbers, got {name} = {value!r}") from None
    if values.ndim == 2 and n_nodes is not None and values.shape[0] == n_nodes:
        if np.any(values != values[:1]):
            raise BadParameterError(
                f"{name} is one list for all nodes of a Create call in Ranvier, got different "
                f"lists per node: {name} = {value!r}"
            )
        values = values[0]
    if values.ndim != 1:
        raise BadParameterError(f"{name} must be a list of numbers, got {name} = {value!r}")
    if np.isnan(values).any():
        raise BadParameterError(f"{name} must not hold NaN, got {name} = {value!r}")
    return values.tolist()


def set_lists(model: Model, gids: np.ndarray, params: dict[str, Any]) -> dict[str, Any]:
    """Sets the list parameters among params on gids (every rank, all nodes); returns the rest."""
    lists, counts = lists_of(model), counts_of(model)
    for name in params:
        if name in counts:
            raise BadParameterError(
                f"{name} is read-only (the length of {counts[name]}), got {name} = {params[name]!r}"
            )
    given = {name: checked(name, params[name], len(gids)) for name in params if name in lists}
    if given:  # together: a model may need its lists to agree (the multisynapse aeif's lengths)
        with kernel_errors():
            _state.state.kernel.set_lists(np.ascontiguousarray(gids), given)
    return {k: v for k, v in params.items() if k not in lists}


def get(model: Model, gids: np.ndarray, name: str) -> dict[int, Any] | None:
    """{gid: value} of a list parameter (an array per node) or its count; None for another name."""
    lists, counts = lists_of(model), counts_of(model)
    if name not in lists and name not in counts:
        return None
    kernel, s = _state.state.kernel, _state.state
    out = {}
    for call in np.unique(s.range_index(gids)):
        first = s.range_starts[call]
        with kernel_errors():
            values = kernel.get_list(int(first), counts.get(name, name))
        value = len(values) if name in counts else None
        for gid in gids[s.range_index(gids) == call].tolist():
            out[gid] = value if value is not None else np.asarray(values)
    return out


def hoist(nodes: NodeCollection, params: Sequence[Any]) -> tuple[dict[str, Any], Sequence[Any]]:
    """From one dict per node: the list parameters that every dict gives alike, to be set on all
    nodes at once (Create(model, n, params=[...]) with one tau_syn); the dicts without them."""
    if not params or not all(isinstance(p, dict) for p in params):
        return {}, params
    common = {}
    for name in set(params[0]):
        if any(name in lists_of(m) for m in _state.state.models_in(nodes._gids)):
            values = [p.get(name) for p in params]
            if all(v is not None for v in values) and all(np.array_equal(values[0], v) for v in values):
                common[name] = values[0]
    if not common:
        return {}, params
    return common, [{k: v for k, v in p.items() if k not in common} for p in params]
