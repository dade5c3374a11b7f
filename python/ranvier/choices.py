"""Neuron variables that are choices among names (NEST's string parameters, such as the e-prop
neurons' surrogate_gradient_function): the kernel keeps the index of the name, users give and
see the name."""

from typing import Any

from . import _state
from .errors import BadParameterError


def of(model: str) -> dict[str, list[str]]:
    """A model's choice variables with their names."""
    return _state.NEURON_CHOICES.get(model, {})


def index(model: str, name: str, value: Any) -> float:
    """The kernel's value of choice variable `name` of `model` for the name `value`."""
    names = of(model)[name]
    if not isinstance(value, str) or value not in names:
        raise BadParameterError(f"{name} must be one of {names}, got {name} = {value!r}")
    return float(names.index(value))
