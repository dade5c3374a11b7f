"""Any Ranvier model as a PyNN cell type, with its parameters and units as Ranvier has them."""

from pyNN.models import BaseCellType

import ranvier as rv
from ranvier import _state

from .standardmodels import RanvierCell

_STATE = ("V_m", "w", "U_m", "g_ex", "g_in")


def native_cell_type(model: str) -> type:
    """A cell type class for a Ranvier model: parameters by their Ranvier names and units."""
    if model not in _state.state.models:
        raise rv.UnknownModelError(f"unknown model: {model!r}")
    settable = _state.state.models[model].defaults  # what a user may set (GetDefaults shows more)
    recordables = list(rv.GetDefaults(model).get("recordables", ()))
    numbers = {k: float(v) for k, v in settable.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    parameters = {k: v for k, v in numbers.items() if k not in _STATE}
    state = {k: numbers[k] for k in _STATE if k in numbers}
    attributes = {
        "ranvier_name": model,
        "default_parameters": parameters,
        "default_initial_values": state,
        "recordable": ["spikes", *recordables],
        "state_variables": {name: (name, 1.0) for name in {*state, *recordables}},
        "units": dict.fromkeys(recordables, "dimensionless"),
        "receptor_types": ("excitatory", "inhibitory"),
        "conductance_based": "g_ex" in recordables,
    }
    return type(model, (RanvierCell, BaseCellType), attributes)
