"""``nest.logic.conditional(condition, if_true, if_false)``: a parameter that takes the value
of if_true where the condition parameter (a comparison such as ``p < 0.5``) holds."""

from typing import Any

from .parameter_arithmetic import Expression
from .spatial.parameters import CONDITIONAL, SpatialParameter, as_parameter


def conditional(condition: Any, param_if_true: Any, param_if_false: Any) -> Expression | SpatialParameter:
    operands = (condition, param_if_true, param_if_false)
    if any(isinstance(o, SpatialParameter) for o in operands):  # evaluated per connection
        return SpatialParameter(CONDITIONAL, (), tuple(as_parameter(o, "operand") for o in operands))
    return Expression("conditional", *operands)
