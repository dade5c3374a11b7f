"""Arithmetic and comparison on parameters, as PyNEST has them: ``2.0 * nest.random.normal()``,
``p + q``, ``p / 3``, ``-p``, ``p ** 2``, ``p < 0.5``. Each builds a parameter expression
(parameter_arithmetic.Expression), evaluated where the parameter is used. ``==`` and ``!=``
stay Python's identity comparison (PyNEST makes them parameters too; Ranvier code compares
values with ==, so they keep their meaning)."""


def _expression(op, *operands):
    from .parameter_arithmetic import Expression
    from .spatial.parameters import SpatialParameter

    if any(isinstance(o, SpatialParameter) for o in operands):
        return NotImplemented  # the spatial parameter's reflected operator takes this one in
    return Expression(op, *operands)


class Operators:
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
