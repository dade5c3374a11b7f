"""NEST's per-compartment parameter dicts (iaf_cond_alpha_mc: ``"soma": {"g_L": 12.0}``). The
kernel names a compartment's variables with its suffix (``g_L.s``, as NEST's recordables
``V_m.s``) and tells each model's compartments; here they are unfolded into those names for
setting and folded back into one dict per compartment for reading."""

from typing import Any

from . import _kernel
from .errors import BadParameterError, UnknownParameterError

COMPARTMENTS: dict[str, dict[str, str]] = _kernel.neuron_compartments()  # model -> {compartment: suffix}


def of(base: str) -> dict[str, str]:
    return COMPARTMENTS.get(base, {})


def unfolded(base: str, defaults: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    """params with each compartment's dict replaced by its suffixed names."""
    compartments = of(base)
    if not compartments or not any(k in compartments for k in params):
        return params
    out = {}
    for name, value in params.items():
        if name not in compartments:
            out[name] = value
            continue
        if not isinstance(value, dict):
            raise BadParameterError(f"{name} takes a dict of the compartment's parameters, got {name} = {value!r}")
        for inner, v in value.items():
            flat = f"{inner}.{compartments[name]}"
            if flat not in defaults:
                raise UnknownParameterError(f"{base}'s compartment {name} has no parameter {inner}")
            out[flat] = v
    return out


def folded(base: str, values: dict[str, Any]) -> dict[str, Any]:
    """values with each compartment's suffixed names gathered into its dict (NEST's GetStatus)."""
    compartments = of(base)
    if not compartments:
        return values
    suffixes = {f".{suffix}": name for name, suffix in compartments.items()}
    out: dict[str, Any] = {}
    for key, value in values.items():
        stem, dot, suffix = key.rpartition(".")
        if dot and dot + suffix in suffixes:
            out.setdefault(suffixes[dot + suffix], {})[stem] = value
        else:
            out[key] = value
    return out


def names_in(base: str, compartment: str, defaults: dict[str, Any]) -> dict[str, str]:
    """The compartment's parameters: their names in its dict and here (g_L -> g_L.s)."""
    suffix = "." + of(base)[compartment]
    return {k[: -len(suffix)]: k for k in defaults if k.endswith(suffix)}
