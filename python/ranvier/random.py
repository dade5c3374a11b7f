"""Random parameters (``rv.random.normal(mean, std)`` and friends), drawn in the kernel from
counter-based streams keyed by the node or connection they belong to."""

import math

import numpy as np

from .errors import BadParameterError
from .parameter_operators import Operators


def _number(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise BadParameterError(f"{name} must be a number, got {name} = {value!r}")
    value = float(value)
    if math.isnan(value):
        raise BadParameterError(f"{name} must be a number, got {name} = nan")
    return value


class Parameter(Operators):
    """A distribution; values are drawn where they are used. ``redraw`` bounds draw again
    outside [low, high); ``clip`` bounds then clamp (see rv.math)."""

    kind = ""

    def __init__(self, p0, p1):
        self.p0, self.p1 = p0, p1
        self.redraw = (-math.inf, math.inf)
        self.clip = (-math.inf, math.inf)

    def spec(self):
        return (self.kind, self.p0, self.p1, *self.redraw, *self.clip, np.empty(0))

    def _with(self, redraw=None, clip=None):
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        if redraw is not None:
            copy.redraw = redraw
        if clip is not None:
            copy.clip = clip
        return copy

    def is_spatial(self):
        """PyNEST's: whether the value depends on positions (a random parameter's does not)."""
        return False

    def GetValue(self):
        """One value (PyNEST's GetValue): a new draw at every call of a random parameter, the
        same on every rank."""
        from .parameter_arithmetic import value_of

        return value_of(self)

    def __repr__(self):
        return f"rv.random.{self.kind}({self.p0}, {self.p1})"


class uniform(Parameter):
    kind = "uniform"

    def __init__(self, min=0.0, max=1.0):
        lo, hi = _number("min", min), _number("max", max)
        if not lo < hi:
            raise BadParameterError(f"uniform needs min < max, got min = {lo}, max = {hi}")
        super().__init__(lo, hi)


class normal(Parameter):
    kind = "normal"

    def __init__(self, mean=0.0, std=1.0):
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

    def __init__(self, beta=1.0):
        super().__init__(_number("beta", beta), 0.0)

    def __repr__(self):
        return f"rv.random.exponential({self.p0})"


class uniform_int(Parameter):
    """The integers 0, 1, ..., max - 1, equally likely."""

    kind = "uniform_int"

    def __init__(self, max):
        if isinstance(max, bool) or not isinstance(max, (int, np.integer)) or not 1 <= max <= 2**53:
            raise BadParameterError(f"uniform_int needs an integer max > 0, got max = {max!r}")
        super().__init__(float(max), 0.0)

    def __repr__(self):
        return f"rv.random.uniform_int({int(self.p0)})"
