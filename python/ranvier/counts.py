"""Integer arguments checked against the widths the kernel holds them in, so a value too
large for the binding is an error naming it, not a TypeError of nanobind's. The kernel
checks the finer limits (the node ids left, a model's input ports)."""

from typing import Any

import numpy as np

from .errors import BadParameterError

NODE_IDS = 2**32 - 1  # node ids and input ports are 32-bit
COUNT_MAX = 2**63 - 1  # degrees and connection counts are 64-bit signed


def count(key: str, value: Any) -> int:
    """A non-negative integer the kernel can hold as a degree or a number of connections."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise BadParameterError(f"{key} must be a non-negative integer, got {key} = {value!r}")
    if value > COUNT_MAX:
        raise BadParameterError(f"{key} must be at most {COUNT_MAX}, got {key} = {value}")
    return int(value)
