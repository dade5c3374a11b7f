"""Random parameters (``rv.random.normal(mean, std)`` and friends), drawn in the kernel from
counter-based streams keyed by the node or connection they belong to, and PyNEST's
CreateParameter, which makes them (or a constant) by name."""

from collections.abc import Callable
from typing import Any

import numpy as np

from .errors import BadParameterError
from .parameter_arithmetic import Constant, Parameter, _number


class uniform(Parameter):
    kind = "uniform"

    def __init__(self, min: float = 0.0, max: float = 1.0) -> None:
        lo, hi = _number("min", min), _number("max", max)
        if not lo < hi:
            raise BadParameterError(f"uniform needs min < max, got min = {lo}, max = {hi}")
        super().__init__(lo, hi)


class normal(Parameter):
    kind = "normal"

    def __init__(self, mean: float = 0.0, std: float = 1.0) -> None:
        std = _number("std", std)
        if std < 0:
            raise BadParameterError(f"std must be >= 0, got std = {std}")
        super().__init__(_number("mean", mean), std)


class lognormal(normal):
    """exp(X) with X normal(mean, std): mean and std belong to the underlying normal."""

    kind = "lognormal"


class exponential(Parameter):
    """beta * E with E standard exponential: mean beta (NEST's scale)."""

    kind = "exponential"

    def __init__(self, beta: float = 1.0) -> None:
        super().__init__(_number("beta", beta), 0.0)

    def __repr__(self) -> str:
        return f"rv.random.exponential({self.p0})"


class uniform_int(Parameter):
    """The integers 0, 1, ..., max - 1, equally likely."""

    kind = "uniform_int"

    def __init__(self, max: int) -> None:
        if isinstance(max, bool) or not isinstance(max, (int, np.integer)) or not 1 <= max <= 2**53:
            raise BadParameterError(f"uniform_int needs an integer max > 0, got max = {max!r}")
        super().__init__(float(max), 0.0)

    def __repr__(self) -> str:
        return f"rv.random.uniform_int({int(self.p0)})"


# CreateParameter's types; spatial/parameters.py (a layer above) adds its own ("distance").
PARAMETER_TYPES: dict[str, Callable[..., Any]] = {}


def CreateParameter(parametertype: str, specs: dict[str, Any]) -> Parameter:
    """PyNEST's factory: "constant" {value}, "uniform" {min, max}, "normal" {mean, std},
    "lognormal" {mean, std}, "exponential" {beta}, "uniform_int" {max}, "distance" {}."""
    kinds = PARAMETER_TYPES
    if parametertype not in kinds:
        raise BadParameterError(f"parametertype must be one of {sorted(kinds)}, got parametertype = {parametertype!r}")
    if not isinstance(specs, dict):
        raise BadParameterError(f"specs must be a dict, got specs = {specs!r}")
    try:
        return kinds[parametertype](**specs)
    except TypeError:
        raise BadParameterError(f"{parametertype} has no parameters {sorted(specs)}") from None


PARAMETER_TYPES.update(
    constant=Constant,
    uniform=uniform,
    normal=normal,
    lognormal=lognormal,
    exponential=exponential,
    uniform_int=uniform_int,
)
