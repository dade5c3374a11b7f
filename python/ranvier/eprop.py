"""NEST's e-prop optimizer settings: the kernel keeps eprop_synapse's optimizer as common
parameters ``optimizer.<name>``; users set them as NEST's dictionary ``"optimizer"`` (its
``type`` gradient_descent or adam, batch_size, eta, Wmin, Wmax, optimize_each_step and Adam's
beta_1, beta_2, epsilon) and see the same dictionary, with the type under ``"optimizer"``."""

from collections.abc import Callable
from typing import Any

from .errors import BadParameterError, UnknownParameterError

OPTIMIZER = "optimizer"
_PREFIX = "optimizer."
TYPES = ("gradient_descent", "adam")
_ADAM_ONLY = ("beta_1", "beta_2", "epsilon")
# NEST's first optimization of a connection uses the first learning rate the model was set to
_ETA_FIRST, _ETA_CHANGES = _PREFIX + "eta_first", _PREFIX + "eta_changes"
_HIDDEN = (_ETA_FIRST, _ETA_CHANGES)


def has_optimizer(defaults: dict[str, Any]) -> bool:
    return _PREFIX + "type" in defaults


# the _bsshslm_2020 synapse's switch, a number in the kernel
_AVERAGE = "average_gradient"


def flattened(
    defaults: dict[str, Any], built_in: dict[str, Any], params: dict[str, Any], connections: Callable[[], int]
) -> dict[str, Any]:
    """params with an "optimizer" dictionary as the kernel's flat parameters. A new type starts
    from that optimizer's defaults (NEST makes a new one), which it refuses once the model has
    connections; a new eta counts as NEST counts it."""
    if _AVERAGE in params:
        if not isinstance(params[_AVERAGE], (bool, int)) or params[_AVERAGE] not in (0, 1):
            raise BadParameterError(
                f"average_gradient must be True or False, got average_gradient = {params[_AVERAGE]!r}"
            )
        params = {**params, _AVERAGE: float(params[_AVERAGE])}
    if OPTIMIZER not in params:
        return params
    given = params[OPTIMIZER]
    if not isinstance(given, dict):
        raise BadParameterError(f"optimizer must be a dictionary, got optimizer = {given!r}")
    out = {k: v for k, v in params.items() if k != OPTIMIZER}
    current = dict(defaults)
    kind = given.get("type", TYPES[int(current[_PREFIX + "type"])])
    if kind not in TYPES:
        raise BadParameterError(f"optimizer type must be one of {list(TYPES)}, got type = {kind!r}")
    if TYPES.index(kind) != current[_PREFIX + "type"]:
        if connections() > 0:
            raise BadParameterError("The optimizer cannot be changed because synapses have been created.")
        current.update({k: v for k, v in built_in.items() if k.startswith(_PREFIX)})
        out.update({k: v for k, v in built_in.items() if k.startswith(_PREFIX)})
        out[_PREFIX + "type"] = float(TYPES.index(kind))
    for key, value in given.items():
        if key == "type":
            continue
        flat = _PREFIX + key
        if flat not in current or flat in _HIDDEN or (key in _ADAM_ONLY and kind != "adam"):
            raise UnknownParameterError(f"the {kind} optimizer has no parameter {key}")
        if isinstance(value, str) or not isinstance(value, (int, float)):
            raise BadParameterError(f"optimizer {key} must be a number, got {key} = {value!r}")
        out[flat] = float(value)
    w_min, w_max = (out.get(_PREFIX + k, current[_PREFIX + k]) for k in ("Wmin", "Wmax"))
    if not w_min <= w_max:
        raise BadParameterError(f"optimizer Wmin must be <= Wmax, got Wmin = {w_min} and Wmax = {w_max}")
    eta = out.get(_PREFIX + "eta")
    if eta is not None and eta != current[_PREFIX + "eta"]:
        if current[_ETA_CHANGES] == 0:
            out[_ETA_FIRST] = eta
        out[_ETA_CHANGES] = current[_ETA_CHANGES] + 1
    return out


def shown(values: dict[str, Any]) -> dict[str, Any]:
    """A synapse model's defaults with its optimizer as NEST's dictionary."""
    flat = {k: values.pop(k) for k in [k for k in values if k.startswith(_PREFIX)]}
    kind = TYPES[int(flat[_PREFIX + "type"])]
    optimizer: dict[str, Any] = {"optimizer": kind}
    for key in ("batch_size", "eta", "Wmin", "Wmax", "optimize_each_step") + (_ADAM_ONLY if kind == "adam" else ()):
        optimizer[key] = flat[_PREFIX + key]
    optimizer["batch_size"] = int(optimizer["batch_size"])
    optimizer["optimize_each_step"] = bool(optimizer["optimize_each_step"])
    values[OPTIMIZER] = optimizer
    if _AVERAGE in values:
        values[_AVERAGE] = bool(values[_AVERAGE])
    return values


# An e-prop connection's optimizer state that SynapseCollection.set takes (NEST's "optimizer"
# dictionary of a connection: Adam's moments).
_CONNECTION_STATE = ("m", "v")


def connection_state(params: dict[str, Any]) -> dict[str, Any]:
    """A connection's parameters with its "optimizer" dictionary as the kernel's names."""
    if OPTIMIZER not in params:
        return params
    given = params[OPTIMIZER]
    if not isinstance(given, dict) or not set(given) <= set(_CONNECTION_STATE):
        raise UnknownParameterError(
            f"a connection's optimizer takes {list(_CONNECTION_STATE)}, got optimizer = {given!r}"
        )
    return {**{k: v for k, v in params.items() if k != OPTIMIZER}, **{_PREFIX + k: v for k, v in given.items()}}


def is_connection_state(name: str) -> bool:
    return name.startswith(_PREFIX)
