"""Connect between layers: masks, spatial probabilities, weights and delays. The kernel
builds the connections of each thread's own targets from a cell index over the candidates."""

from typing import Any, NamedTuple

import numpy as np

from .. import _kernel, _state
from .._state import Model
from ..counts import count
from ..errors import BadParameterError, UnknownParameterError, kernel_errors
from ..random import Parameter
from .layers import Nodes, require_layer
from .masks import Mask, mask_from_spec, no_mask
from .parameters import SpatialParameter, as_parameter

_RULES = _kernel.spatial_rules()  # name -> (conn_spec keys, degree key or None)
_COMMON = {"rule", "allow_autapses", "allow_multapses", "allow_oversized_mask"}


def is_spatial(conn_spec: Any, syn_spec: Any) -> bool:
    """Does this Connect need the spatial rules (a mask, a spatial p, weight or delay, or as
    PyNEST, a p of a rule other than the pairwise_bernoulli ones)?"""
    spatial = isinstance(conn_spec, dict) and (
        "mask" in conn_spec
        or "use_on_source" in conn_spec
        or ("p" in conn_spec and "pairwise_bernoulli" not in str(conn_spec.get("rule")))  # also symmetric_...
        or any(isinstance(conn_spec.get(k), SpatialParameter) for k in ("p", "indegree", "outdegree"))
    )
    return spatial or (
        isinstance(syn_spec, dict) and any(isinstance(syn_spec.get(k), SpatialParameter) for k in ("weight", "delay"))
    )


def _flag(spec, key, default):
    value = spec.get(key, default)
    if not isinstance(value, (bool, np.bool_)):
        raise BadParameterError(f"{key} must be True or False, got {key} = {value!r}")
    return bool(value)


def _layer_args(layer, index):
    return (
        np.ascontiguousarray(layer.positions[index].ravel()),
        layer.dims,
        list(layer.lower_left),
        list(layer.extent),
        bool(layer.edge_wrap),
    )


def _check_oversized(mask, layer, allowed):
    if allowed or not layer.edge_wrap:
        return
    width = mask.extent_in(layer)
    if np.any(width > layer.extent + 1e-12):
        raise BadParameterError(
            f"mask {mask!r} (width {list(width)}) exceeds the layer's extent = "
            f"{list(layer.extent)} with edge_wrap; set allow_oversized_mask to override"
        )


class Target(NamedTuple):
    """What a spatial Connect's syn_spec says beyond synapse, weight and delay: the targets'
    receptor_type, and the model's per-connection parameters (one number each)."""

    receptor: int
    parameters: dict[str, float]


def connect(
    pre: Nodes, post: Nodes, conn_spec: Any, syn_spec: Any, synapse: Model, weight: Any, delay: Any, target: Target
) -> None:
    """Spatial Connect of layers `pre` and `post` (NodeCollections); synapse, weight, delay and
    target come from Connect's syn_spec parsing."""
    spec: dict[str, Any] = (
        {"rule": conn_spec} if isinstance(conn_spec, str) else dict(conn_spec or {"rule": "all_to_all"})
    )
    rule = spec.get("rule")
    if rule not in _RULES:
        raise BadParameterError(
            f"rule {rule!r} cannot connect layers with masks or spatial parameters (use one of {', '.join(_RULES)})"
        )
    for key in spec:
        if key not in _COMMON | set(_RULES[rule][0]):
            raise UnknownParameterError(f"rule {rule} has no parameter {key}")
    source_layer, source_index = require_layer(pre, "pre")
    target_layer, target_index = require_layer(post, "post")
    if source_layer.dims != target_layer.dims:
        raise BadParameterError(
            f"pre and post layers must have the same dimensions, got {source_layer.dims}D and {target_layer.dims}D"
        )
    mask = None if spec.get("mask") is None else mask_from_spec(spec["mask"])
    if mask is not None and not isinstance(mask, Mask):
        raise BadParameterError(f"mask must be a Mask or a dict, got mask = {spec['mask']!r}")
    use_on_source = _flag(spec, "use_on_source", False)
    degree_key = _RULES[rule][1]
    degree = count(degree_key, spec.get(degree_key)) if degree_key else 0
    pool = target_layer if rule == "fixed_outdegree" else source_layer
    if mask is not None:
        _check_oversized(mask, pool, _flag(spec, "allow_oversized_mask", False))
    p = spec.get("p", 1.0)
    if not isinstance(p, (SpatialParameter, Parameter)) and (
        isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1
    ):
        raise BadParameterError(f"p must be in [0, 1] or a parameter, got p = {p!r}")
    programs = [as_parameter(v, name) for v, name in ((p, "p"), (weight, "weight"), (delay, "delay"))]
    for param, name in zip(programs, ("p", "weight", "delay")):
        if param.max_dimension() >= pool.dims:
            raise BadParameterError(f"{name} uses dimension z of a {pool.dims}D layer")
    call = _kernel.SpatialCall()
    call.rule = rule
    mask_program, mask_offset = mask.placed(pool) if mask is not None else (no_mask(), np.zeros(pool.dims))
    call.mask, call.mask_offset = list(mask_program), list(mask_offset)
    call.p, call.weight, call.delay = (list(q.program()) for q in programs)
    call.degree, call.use_on_source, call.synapse = degree, use_on_source, synapse.synapse_id
    call.receptor, call.parameters = target.receptor, target.parameters
    call.allow_autapses = _flag(spec, "allow_autapses", True)
    call.allow_multapses = _flag(spec, "allow_multapses", True)
    with kernel_errors():
        _kernel.connect_spatial(
            _state.state.kernel,
            pre._gids,
            post._gids,
            _layer_args(source_layer, source_index),
            _layer_args(target_layer, target_index),
            call,
        )
