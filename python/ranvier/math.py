"""Operations on random parameters, with NEST's names: ``rv.math.max(p, low)`` clips from
below, ``rv.math.min(p, high)`` from above, ``rv.math.redraw(p, min, max)`` draws again
until the value lies in [min, max); ``exp``, ``sin``, ``cos`` and ``pow`` of a parameter are
parameter expressions (see parameter_arithmetic), of a spatial parameter spatial parameters."""

import builtins
from typing import Any

from .errors import BadParameterError
from .parameter_arithmetic import Constant, Expression, Parameter, _number
from .spatial.parameters import SpatialParameter, math_function


def _parameter(p: Any) -> Parameter:
    if not isinstance(p, Parameter):
        raise BadParameterError(f"expected a random parameter, got {p!r}")
    return p


def max(p: Parameter | SpatialParameter, value: float) -> Parameter | SpatialParameter:  # noqa: A001 - NEST's name
    if isinstance(p, SpatialParameter):
        return math_function("max", p, value)
    p = _parameter(p)
    if p.kind == "constant":  # the max of a constant is a constant
        return Constant(builtins.max(p.p0, _number("value", value)))
    return p._with(clip=(builtins.max(p.clip[0], _number("value", value)), p.clip[1]))


def min(p: Parameter | SpatialParameter, value: float) -> Parameter | SpatialParameter:  # noqa: A001 - NEST's name
    if isinstance(p, SpatialParameter):
        return math_function("min", p, value)
    p = _parameter(p)
    if p.kind == "constant":
        return Constant(builtins.min(p.p0, _number("value", value)))
    return p._with(clip=(p.clip[0], builtins.min(p.clip[1], _number("value", value))))


def redraw(p: Parameter, min: float, max: float) -> Parameter:  # noqa: A002 - NEST's names
    p = _parameter(p)
    low, high = _number("min", min), _number("max", max)
    if not low < high:
        raise BadParameterError(f"redraw needs min < max, got min = {low}, max = {high}")
    return p._with(redraw=(low, high))


def _function(name: str, p: Any, *args: Any) -> Parameter | SpatialParameter:
    if isinstance(p, SpatialParameter):
        return math_function(name, p, *args)
    return Expression(name, _parameter(p), *args)


def exp(p: Parameter | SpatialParameter) -> Parameter | SpatialParameter:
    return _function("exp", p)


def sin(p: Parameter | SpatialParameter) -> Parameter | SpatialParameter:
    return _function("sin", p)


def cos(p: Parameter | SpatialParameter) -> Parameter | SpatialParameter:
    return _function("cos", p)


def pow(p: Parameter | SpatialParameter, exponent: float) -> Parameter | SpatialParameter:  # noqa: A001 - NEST's name
    return _function("pow", p, exponent)
