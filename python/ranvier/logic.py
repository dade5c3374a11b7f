"""``nest.logic.conditional(condition, if_true, if_false)``: a parameter that takes the value
of if_true where the condition parameter (a comparison such as ``p < 0.5``) holds."""
from .parameter_arithmetic import Expression


def conditional(condition, param_if_true, param_if_false):
    return Expression("conditional", condition, param_if_true, param_if_false)
