"""Parameters: the base class of every distribution, and parameter expressions built by
arithmetic, comparisons, nest.math functions and nest.logic.conditional over parameters and
numbers, as PyNEST has them: ``2.0 * nest.random.normal()``, ``p + q``, ``p / 3``, ``-p``,
``p ** 2``, ``p < 0.5``. ``==`` and ``!=`` stay Python's identity comparison (PyNEST makes them
parameters too; Ranvier code compares values with ==, so they keep their meaning).

Where an expression is an affine map a*X + b of one distribution X (with its redraw and clip
bounds), it folds into one distribution the kernel draws (normal, uniform, lognormal and exponential scaled),
so it works everywhere a distribution does: node parameters, weights and delays.
Any other expression is evaluated for nodes in numpy over kernel draws: each occurrence of a
distribution is one kernel draw keyed by node id and the draw's sequence number, over all
nodes of the call on every rank, so the values are the same for any number of threads and
processes. Connection parameters need the folded form."""

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from . import _state
from .errors import BadParameterError, kernel_errors

# Operand types that take a parameter in by their own reflected operators: spatial parameters
# (spatial/parameters.py, a layer above, adds its class here).
DEFERS_TO: list[type] = []


def _expression(op, *operands):
    if any(isinstance(o, tuple(DEFERS_TO)) for o in operands):
        return NotImplemented
    return Expression(op, *operands)


class Operators:
    """Arithmetic and comparisons of parameters: each builds an Expression."""

    def __add__(self, other):
        return _expression("add", self, other)

    def __radd__(self, other):
        return _expression("add", other, self)

    def __sub__(self, other):
        return _expression("sub", self, other)

    def __rsub__(self, other):
        return _expression("sub", other, self)

    def __mul__(self, other):
        return _expression("mul", self, other)

    def __rmul__(self, other):
        return _expression("mul", other, self)

    def __truediv__(self, other):
        return _expression("div", self, other)

    def __rtruediv__(self, other):
        return _expression("div", other, self)

    def __neg__(self):
        return _expression("mul", -1.0, self)

    def __pos__(self):
        return self

    def __pow__(self, exponent):
        return _expression("pow", self, exponent)

    def __lt__(self, other):
        return _expression("lt", self, other)

    def __le__(self, other):
        return _expression("le", self, other)

    def __gt__(self, other):
        return _expression("lt", other, self)

    def __ge__(self, other):
        return _expression("le", other, self)

    # As PyNEST's: == and != compare values, giving a parameter of 1.0 or 0.0; a parameter
    # stays hashable by identity.
    def __eq__(self, other):
        return _expression("eq", self, other)

    def __ne__(self, other):
        return _expression("ne", self, other)

    __hash__ = object.__hash__


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

    def __init__(self, p0: float, p1: float) -> None:
        self.p0, self.p1 = p0, p1
        self.redraw = (-math.inf, math.inf)
        self.clip = (-math.inf, math.inf)

    def spec(self) -> tuple[Any, ...]:
        return (self.kind, self.p0, self.p1, *self.redraw, *self.clip, np.empty(0))

    def _with(self, redraw: tuple[float, float] | None = None, clip: tuple[float, float] | None = None) -> "Parameter":
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        if redraw is not None:
            copy.redraw = redraw
        if clip is not None:
            copy.clip = clip
        return copy

    def is_spatial(self) -> bool:
        """PyNEST's: whether the value depends on positions (a random parameter's does not)."""
        return False

    def GetValue(self) -> float:
        """One value (PyNEST's GetValue): a new draw at every call of a random parameter, the
        same on every rank."""
        return value_of(self)

    def __repr__(self) -> str:
        return f"rv.random.{self.kind}({self.p0}, {self.p1})"


MAX_REDRAWS = 1000  # rounds of redrawing before an expression's bounds count as unreachable

_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.divide,
    "pow": np.power,
    "lt": lambda a, b: (a < b).astype(float),
    "le": lambda a, b: (a <= b).astype(float),
    "eq": lambda a, b: (a == b).astype(float),
    "ne": lambda a, b: (a != b).astype(float),
    "min": np.minimum,
    "max": np.maximum,
}
_UNARY: dict[str, Callable[[Any], Any]] = {"exp": np.exp, "sin": np.sin, "cos": np.cos}


def _operand(value):
    if isinstance(value, Parameter):
        return value
    return _number("operand", value)


class Expression(Parameter):
    """An operation on parameters and numbers; ``op`` is one of _BINARY, _UNARY, "redraw"
    (operand, low, high), "clip" (operand, low, high) or "conditional" (condition, if, else)."""

    kind = "expression"

    def __init__(self, op: str, *operands: Any) -> None:
        self.op = op
        self.operands = tuple(_operand(o) for o in operands)
        self.redraw = (-math.inf, math.inf)  # bounds of this node itself live in the op tree
        self.clip = (-math.inf, math.inf)

    def _with(self, redraw: tuple[float, float] | None = None, clip: tuple[float, float] | None = None) -> Parameter:
        """nest.math.redraw / min / max on an expression wrap it."""
        if redraw is not None:
            return Expression("redraw", self, *redraw)
        assert clip is not None  # one of the two is given
        return Expression("clip", self, *clip)

    def __repr__(self) -> str:
        return f"Expression({self.op}, {', '.join(map(repr, self.operands))})"

    # -- the folded form: one distribution for the kernel --------------------------------

    def spec(self) -> tuple[Any, ...]:
        spec = _fold(self)
        if spec is None:
            raise BadParameterError(
                f"the parameter {self!r} is not an affine function of one distribution, which connection "
                "parameters need; node parameters accept any expression"
            )
        return spec

    # -- numeric evaluation for nodes -------------------------------------------------------

    def node_values(self, gids: ArrayLike) -> np.ndarray:
        """One value per node id (every node of the call, on every rank)."""
        gids = np.ascontiguousarray(gids, dtype=np.uint32)
        spec = _fold(self)
        if spec is not None:
            return _draw(spec, gids)
        return _evaluate(self, gids)


def value_of(p: Parameter) -> float:
    """One value of a parameter, as for a node that does not exist (id 0): each call draws anew."""
    return float(_evaluate(p, np.zeros(1, dtype=np.uint32))[0])


def _draw(spec, gids):
    with kernel_errors():
        return _state.state.kernel.draw_node_values(spec, gids)


def _evaluate(p, gids):
    if not isinstance(p, Parameter):
        return np.full(len(gids), p)
    if not isinstance(p, Expression):
        return _draw(p.spec(), gids)
    if p.op in _UNARY:
        return _UNARY[p.op](_evaluate(p.operands[0], gids))
    if p.op in _BINARY:
        with np.errstate(divide="ignore", invalid="ignore"):
            return _BINARY[p.op](_evaluate(p.operands[0], gids), _evaluate(p.operands[1], gids))
    if p.op == "conditional":
        condition, yes, no = (_evaluate(o, gids) for o in p.operands)
        return np.where(condition != 0, yes, no)
    inner, low, high = p.operands
    values = _evaluate(inner, gids)
    if p.op == "clip":
        return np.clip(values, low, high)
    for _ in range(MAX_REDRAWS):  # "redraw": draw again where the value is outside [low, high)
        outside = ~((values >= low) & (values < high))
        if not outside.any():
            return values
        values[outside] = _evaluate(inner, gids[outside])
    raise BadParameterError(
        f"redraw found no value in [{low}, {high}) for some nodes after {MAX_REDRAWS} "
        f"rounds: the bounds exclude nearly all of {inner!r}"
    )


class Constant(Parameter):
    """A parameter with one value (PyNEST's ``CreateParameter("constant", {"value": v})``)."""

    kind = "constant"

    def __init__(self, value: float) -> None:
        super().__init__(_number("value", value), 0.0)

    def __repr__(self) -> str:
        return f"Constant({self.p0})"


# -- folding a*X + b -------------------------------------------------------------------------


def _affine(p):
    """(a, b, X) with p = a*X + b for one distribution X (None for a constant), or None."""
    if not isinstance(p, Parameter):
        return 0.0, p, None
    if isinstance(p, Constant):
        return 0.0, min(max(p.p0, p.clip[0]), p.clip[1]), None
    if not isinstance(p, Expression):
        return 1.0, 0.0, p
    if p.op in ("add", "sub", "mul", "div"):
        left, right = _affine(p.operands[0]), _affine(p.operands[1])
        if left is None or right is None:
            return None
        (a1, b1, x1), (a2, b2, x2) = left, right
        if p.op in ("add", "sub"):
            if x1 is not None and x2 is not None:
                return None
            sign = 1.0 if p.op == "add" else -1.0
            return a1 + sign * a2, b1 + sign * b2, x1 if x1 is not None else x2
        if p.op == "mul":
            if x1 is not None and x2 is not None:
                return None
            if x2 is None:
                return a1 * b2, b1 * b2, x1
            return a2 * b1, b2 * b1, x2
        if x2 is not None or b2 == 0:  # div by a distribution, or by zero
            return None
        return a1 / b2, b1 / b2, x1
    if p.op in ("redraw", "clip"):
        inner = _affine(p.operands[0])
        if inner is None:
            return None
        a, b, x = inner
        if x is None or a == 0:
            return None
        low, high = sorted(((p.operands[1] - b) / a, (p.operands[2] - b) / a))  # bounds in X's units
        if p.op == "redraw":
            if x.clip != (-math.inf, math.inf):
                return None  # X is clipped before this redraw: not one distribution
            bounds = (max(x.redraw[0], low), min(x.redraw[1], high))
            return a, b, x._with(redraw=bounds)
        return a, b, x._with(clip=(max(x.clip[0], low), min(x.clip[1], high)))
    return None


def _fold(p):
    """The kernel's (kind, p0, p1, redraw min, max, clip min, max, values) for p, or None."""
    affine = _affine(p)
    if affine is None:
        return None
    a, b, x = affine
    empty = np.empty(0)
    if x is None or a == 0:
        return ("constant", float(b), 0.0, -math.inf, math.inf, -math.inf, math.inf, empty)

    def bounds(pair):
        return tuple(sorted((a * pair[0] + b, a * pair[1] + b)))

    if x.kind == "normal":
        p0, p1 = a * x.p0 + b, abs(a) * x.p1
    elif x.kind == "uniform":
        p0, p1 = sorted((a * x.p0 + b, a * x.p1 + b))
    elif x.kind == "lognormal" and b == 0 and a > 0:
        p0, p1 = x.p0 + math.log(a), x.p1
    elif x.kind == "exponential" and b == 0:
        p0, p1 = a * x.p0, 0.0
    elif x.kind == "uniform_int" and a == 1.0:
        p0, p1 = x.p0, b  # the integers b .. b + n - 1
    else:
        return None
    redraw, clip = bounds(x.redraw), bounds(x.clip)
    return (x.kind, p0, p1, *redraw, *clip, empty)
