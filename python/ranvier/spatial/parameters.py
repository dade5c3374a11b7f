"""Spatial parameters: values of a connection computed from where its two nodes sit
(``distance``, ``distance.x``, ``source_pos.x``, the spatial distributions), combined with
numbers and random parameters by arithmetic. The kernel evaluates them per connection from
a postfix program; random leaves draw from streams keyed by the connection's owner."""

import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .. import _kernel, _state
from ..errors import BadParameterError
from ..parameter_arithmetic import DEFERS_TO, Parameter
from ..random import PARAMETER_TYPES
from .layers import Nodes, require_layer

RECORD = 9  # doubles per program record (parameter.hpp)
(
    CONSTANT,
    DISTANCE,
    DISTANCE_ALONG,
    SOURCE_POSITION,
    TARGET_POSITION,
    ADD,
    SUBTRACT,
    MULTIPLY,
    DIVIDE,
    POWER,
    MINIMUM,
    MAXIMUM,
    EXP,
    SIN,
    COS,
    RANDOM,
    EXPONENTIAL,
    GAUSSIAN,
    GAUSSIAN2D,
    GAMMA,
    COMPARE,
    CONDITIONAL,
    GABOR,
) = range(23)
_RANDOM_KINDS = {"uniform": 0, "normal": 1, "lognormal": 2, "exponential": 3, "uniform_int": 4}
_COMPARISONS = {"<": 0, "<=": 1, "==": 2, "!=": 3, ">=": 4, ">": 5}


class SpatialParameter:
    """A node of a parameter expression: an op, its numeric arguments and its operands."""

    def __init__(
        self,
        op: int,
        args: Iterable[float] = (),
        operands: Iterable["SpatialParameter"] = (),
        dimension: int | None = None,
    ) -> None:
        self.op, self.args, self.operands = op, tuple(float(a) for a in args), tuple(operands)
        self.dimension = dimension  # of a distance or position component, to check against layers

    def program(self) -> np.ndarray:
        records: list[np.ndarray] = []
        self._emit(records)
        return np.ascontiguousarray(np.concatenate(records))

    def _emit(self, records):
        for operand in self.operands:
            operand._emit(records)
        rec = np.zeros(RECORD)
        rec[0] = self.op
        rec[1 : 1 + len(self.args)] = self.args
        records.append(rec)

    def apply(self, spatial_nc: Nodes, positions: ArrayLike | None = None) -> tuple[float, ...]:
        """NEST's Parameter.apply: with `positions`, the values for connections from the single
        node `spatial_nc` to nodes at those positions (displacements wrapped in its layer);
        without, the value at each node of `spatial_nc` (a parameter of node positions)."""
        if positions is None:
            return tuple(self.node_values(spatial_nc))
        if len(spatial_nc) != 1:
            raise BadParameterError(f"apply needs one source node, got {len(spatial_nc)}")
        layer, index = require_layer(spatial_nc, "spatial_nc")
        if not isinstance(positions, (list, tuple, np.ndarray)) or not all(
            isinstance(p, (list, tuple, np.ndarray)) for p in positions
        ):
            raise TypeError(f"positions must be a list of positions, got positions = {positions!r}")
        if len({len(p) for p in positions}) > 1:
            raise ValueError(f"positions must all have the same dimensions, got positions = {positions!r}")
        targets = np.asarray(positions, dtype=float)
        if targets.shape[1] != layer.dims:
            raise BadParameterError(f"positions must have {layer.dims} coordinates, got {targets.shape[1]}")
        sources = np.repeat(layer.positions[index], len(targets), axis=0)
        return tuple(self._values(layer, sources, targets, layer.displacement(sources, targets)))

    def node_values(self, nodes: Nodes) -> np.ndarray:
        """The value at each node of a layer, for a parameter of node positions (``pos``),
        numbers and random parameters only."""
        if not self._of_nodes():
            raise BadParameterError(
                f"a parameter of two nodes (a distance, source_pos, target_pos) has no node values: {self!r}"
            )
        layer, index = require_layer(nodes, "nodes")
        if self.max_dimension() >= layer.dims:
            raise BadParameterError(
                f"pos has dimensions 0..{layer.dims - 1} in a {layer.dims}-d layer, got dimension {self.max_dimension()}"
            )
        at = layer.positions[index]
        return self._values(layer, at, at, np.zeros_like(at))

    def _values(self, layer, sources, targets, displacements):
        return _kernel.spatial_parameter_values(
            self.program(),
            layer.dims,
            np.ascontiguousarray(sources.ravel()),
            np.ascontiguousarray(targets.ravel()),
            np.ascontiguousarray(displacements.ravel()),
            _state.state.seed,
        )

    def _of_nodes(self):
        pairwise = self.op in (DISTANCE, DISTANCE_ALONG, TARGET_POSITION, SOURCE_POSITION)
        return (isinstance(self, _NodePosition) or not pairwise) and all(o._of_nodes() for o in self.operands)

    def is_spatial(self) -> bool:
        return True

    def max_dimension(self) -> int:
        own = -1 if self.dimension is None else self.dimension
        return max([own] + [o.max_dimension() for o in self.operands])

    def is_constant(self) -> bool:
        return self.op == CONSTANT

    def _binary(self, op, other, reverse=False, args=()):
        other = _converted(other)
        if other is None:
            return NotImplemented
        return SpatialParameter(op, args, (other, self) if reverse else (self, other))

    def __add__(self, other):
        return self._binary(ADD, other)

    def __radd__(self, other):
        return self._binary(ADD, other, True)

    def __sub__(self, other):
        return self._binary(SUBTRACT, other)

    def __rsub__(self, other):
        return self._binary(SUBTRACT, other, True)

    def __mul__(self, other):
        return self._binary(MULTIPLY, other)

    def __rmul__(self, other):
        return self._binary(MULTIPLY, other, True)

    def __truediv__(self, other):
        return self._binary(DIVIDE, other)

    def __rtruediv__(self, other):
        return self._binary(DIVIDE, other, True)

    def __pow__(self, other):
        return self._binary(POWER, other)

    def __neg__(self):
        return SpatialParameter(MULTIPLY, (), (constant(-1.0), self))

    def __lt__(self, other):
        return self._binary(COMPARE, other, args=(_COMPARISONS["<"],))

    def __le__(self, other):
        return self._binary(COMPARE, other, args=(_COMPARISONS["<="],))

    def __gt__(self, other):
        return self._binary(COMPARE, other, args=(_COMPARISONS[">"],))

    def __ge__(self, other):
        return self._binary(COMPARE, other, args=(_COMPARISONS[">="],))

    def __eq__(self, other):
        return self._binary(COMPARE, other, args=(_COMPARISONS["=="],))

    def __ne__(self, other):
        return self._binary(COMPARE, other, args=(_COMPARISONS["!="],))

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"SpatialParameter(op={self.op}, args={self.args}, operands={len(self.operands)})"


# a parameter's arithmetic with a spatial one leaves it to the spatial one's operators
DEFERS_TO.append(SpatialParameter)


def math_function(name: str, x: Any, *args: Any) -> SpatialParameter:
    """nest.math's exp, sin, cos, pow, max and min of a spatial parameter."""
    x = as_parameter(x, "x")
    if name in ("exp", "sin", "cos"):
        return SpatialParameter({"exp": EXP, "sin": SIN, "cos": COS}[name], (), (x,))
    op = {"pow": POWER, "max": MAXIMUM, "min": MINIMUM}[name]
    return SpatialParameter(op, (), (x, as_parameter(args[0], "value")))


def constant(value: float) -> SpatialParameter:
    return SpatialParameter(CONSTANT, (value,))


def as_parameter(value: Any, name: str) -> SpatialParameter:
    """A SpatialParameter for a number, a random parameter or a spatial parameter; an error
    naming `name` for anything else."""
    found = _converted(value)
    if found is None:
        raise BadParameterError(f"{name} must be a number or a parameter, got {name} = {value!r}")
    return found


def _converted(value: Any) -> SpatialParameter | None:
    """as_parameter's SpatialParameter, or None."""
    if isinstance(value, SpatialParameter):
        return value
    if getattr(value, "kind", None) == "expression":
        return _from_expression(value)
    if getattr(value, "kind", None) == "constant":
        return constant(value.p0)
    if isinstance(value, Parameter):
        return SpatialParameter(RANDOM, (_RANDOM_KINDS[value.kind], value.p0, value.p1, *value.redraw, *value.clip))
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and np.isfinite(float(value)):
        return constant(float(value))
    return None


_EXPRESSION_OPS = {
    "add": ADD,
    "sub": SUBTRACT,
    "mul": MULTIPLY,
    "div": DIVIDE,
    "pow": POWER,
    "min": MINIMUM,
    "max": MAXIMUM,
    "exp": EXP,
    "sin": SIN,
    "cos": COS,
    "conditional": CONDITIONAL,
}


def _from_expression(e):
    """The kernel program of a parameter expression (parameter_arithmetic), so that
    ``2.0 * nest.random.uniform()`` and ``nest.logic.conditional`` work per connection too."""
    if e.op == "clip":  # bounds of nest.math.min / max; infinite ones clip nothing
        x = as_parameter(e.operands[0], "operand")
        low, high = e.operands[1:]
        if np.isfinite(low):
            x = SpatialParameter(MAXIMUM, (), (x, constant(low)))
        return SpatialParameter(MINIMUM, (), (x, constant(high))) if np.isfinite(high) else x
    comparisons = {"lt": "<", "le": "<=", "eq": "==", "ne": "!="}
    if e.op not in _EXPRESSION_OPS and e.op not in comparisons:
        raise BadParameterError(f"nest.math.redraw of an expression cannot be drawn per connection, got {e!r}")
    operands = tuple(as_parameter(o, "operand") for o in e.operands)
    if e.op in comparisons:
        return SpatialParameter(COMPARE, (_COMPARISONS[comparisons[e.op]],), operands)
    return SpatialParameter(_EXPRESSION_OPS[e.op], (), operands)


class _Component(SpatialParameter):
    """A per-dimension family (``distance``, ``source_pos``): ``.x .y .z`` pick a dimension."""

    def __init__(self, op, args=(), component_op=None):
        super().__init__(op, args)
        self._component_op = component_op

    def _dimension(self, k):
        return SpatialParameter(self._component_op, (k,), dimension=k)

    def n(self, k: int) -> SpatialParameter:
        return self._dimension(_dimension(k))

    @property
    def x(self) -> SpatialParameter:
        return self._dimension(0)

    @property
    def y(self) -> SpatialParameter:
        return self._dimension(1)

    @property
    def z(self) -> SpatialParameter:
        return self._dimension(2)


class _NodePosition(SpatialParameter):
    """A component of ``pos``: a node's own position (its source position, as a connection
    sees it)."""


def _dimension(k):
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 0:
        raise BadParameterError(f"dimension must be a non-negative integer, got dimension = {k!r}")
    return int(k)


class _Position:
    """``pos``, ``source_pos`` / ``target_pos``: only their components (``.x .y .z``,
    ``.n(k)``) are parameters."""

    def __init__(self, op, kind=SpatialParameter):
        self._op, self._kind = op, kind

    def n(self, k: int) -> SpatialParameter:
        k = _dimension(k)
        return self._kind(self._op, (k,), dimension=k)

    x = property(lambda self: self.n(0))
    y = property(lambda self: self.n(1))
    z = property(lambda self: self.n(2))


distance = _Component(DISTANCE, component_op=DISTANCE_ALONG)
PARAMETER_TYPES["distance"] = lambda: distance  # CreateParameter("distance", {})
pos = _Position(SOURCE_POSITION, _NodePosition)
source_pos = _Position(SOURCE_POSITION)
target_pos = _Position(TARGET_POSITION)


def _positive(name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not float(value) > 0:
        raise BadParameterError(f"{name} must be > 0, got {name} = {value!r}")
    return float(value)


def _real(name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(float(value)):
        raise BadParameterError(f"{name} must be a number, got {name} = {value!r}")
    return float(value)


def exponential(x: Any, beta: float = 1.0) -> SpatialParameter:
    """exp(-x / beta)."""
    return SpatialParameter(EXPONENTIAL, (_positive("beta", beta),), (as_parameter(x, "x"),))


def gaussian(x: Any, mean: float = 0.0, std: float = 1.0) -> SpatialParameter:
    """exp(-(x - mean)^2 / (2 std^2))."""
    return SpatialParameter(GAUSSIAN, (_real("mean", mean), _positive("std", std)), (as_parameter(x, "x"),))


def gaussian2D(
    x: Any,
    y: Any,
    mean_x: float = 0.0,
    mean_y: float = 0.0,
    std_x: float = 1.0,
    std_y: float = 1.0,
    rho: float = 0.0,
) -> SpatialParameter:
    """A bivariate Gaussian of (x, y) with correlation rho, 1 at the mean."""
    rho = _real("rho", rho)
    if not -1 < rho < 1:
        raise BadParameterError(f"rho must be in (-1, 1), got rho = {rho}")
    args = (_real("mean_x", mean_x), _real("mean_y", mean_y), _positive("std_x", std_x), _positive("std_y", std_y), rho)
    return SpatialParameter(GAUSSIAN2D, args, (as_parameter(x, "x"), as_parameter(y, "y")))


def gabor(
    x: Any, y: Any, theta: float = 0.0, gamma: float = 1.0, std: float = 1.0, lam: float = 1.0, psi: float = 0.0
) -> SpatialParameter:
    """NEST's rectified Gabor of displacements (x, y): max(cos(2 pi y' / lam + psi), 0) exp(-(gamma^2
    x'^2 + y'^2) / (2 std^2)), with (x', y') (x, y) rotated by theta; theta and psi in degrees."""
    args = (
        _real("theta", theta),
        _real("gamma", gamma),
        _positive("std", std),
        _positive("lam", lam),
        _real("psi", psi),
    )
    return SpatialParameter(GABOR, args, (as_parameter(x, "x"), as_parameter(y, "y")))


def gamma(x: Any, kappa: float = 1.0, theta: float = 1.0) -> SpatialParameter:
    """The gamma density x^(kappa-1) exp(-x/theta) / (theta^kappa Gamma(kappa))."""
    return SpatialParameter(GAMMA, (_positive("kappa", kappa), _positive("theta", theta)), (as_parameter(x, "x"),))
