"""A NESTML synapse's own name for its weight (stdp_synapse's w): NEST takes it wherever it takes
weight (CopyModel, SetDefaults, Connect, set), shows it beside weight (GetDefaults, get) and refuses
both at once."""

from typing import Any

from . import _state
from .errors import BadParameterError


def of(model_name: str) -> str | None:
    """A synapse model's own name for its weight, if it has one."""
    return _state.WEIGHT_NAMES.get(_state.state.models[model_name].base)


def as_weight(base: str, params: dict[str, Any]) -> dict[str, Any]:
    """params with the model's own name for its weight given as weight."""
    name = _state.WEIGHT_NAMES.get(base)
    return params if name is None else as_weight_named(name, params)


def as_weight_named(name: str, params: dict[str, Any]) -> dict[str, Any]:
    if name not in params:
        return params
    if "weight" in params:
        raise BadParameterError(f"give either weight or {name}, not both: they are the same value")
    renamed = {k: v for k, v in params.items() if k != name}
    renamed["weight"] = params[name]
    return renamed


def shown(base: str, values: dict[str, Any]) -> dict[str, Any]:
    """A model's defaults with its weight also under its own name."""
    name = _state.WEIGHT_NAMES.get(base)
    return {**values, name: values["weight"]} if name else values
