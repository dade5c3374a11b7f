"""A NESTML synapse's own names for its weight and its delay (stdp_synapse's w, a delay variable
d): NEST takes them wherever it takes weight and delay (CopyModel, SetDefaults, Connect, set),
shows them beside weight and delay (GetDefaults, get) and refuses a value under both names."""

from typing import Any

from . import _state
from .errors import BadParameterError


def of(model_name: str) -> dict[str, str]:
    """A synapse model's own names, each with the parameter it names (weight or delay)."""
    return _state.SYNAPSE_ALIASES.get(_state.state.models[model_name].base, {})


def every() -> dict[str, str]:
    """Every model's own names, each with the parameter it names."""
    return {alias: named for aliases in _state.SYNAPSE_ALIASES.values() for alias, named in aliases.items()}


def as_named(base: str, params: dict[str, Any]) -> dict[str, Any]:
    """params with values given under the model's own names given as weight and delay."""
    return renamed(_state.SYNAPSE_ALIASES.get(base, {}), params)


def renamed(aliases: dict[str, str], params: dict[str, Any]) -> dict[str, Any]:
    for alias, named in aliases.items():
        if alias not in params:
            continue
        if named in params:
            raise BadParameterError(f"give either {named} or {alias}, not both: they are the same value")
        params = {**{k: v for k, v in params.items() if k != alias}, named: params[alias]}
    return params


def shown(base: str, values: dict[str, Any]) -> dict[str, Any]:
    """A model's defaults with its weight and delay also under its own names."""
    return {**values, **{alias: values[named] for alias, named in _state.SYNAPSE_ALIASES.get(base, {}).items()}}
