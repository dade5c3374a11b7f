"""The Python layer's kernel settings (files, progress) and the NEST switches Ranvier accepts
as no-ops: their defaults, their checks and their values for the current kernel.
kernel_attributes serves them as kernel attributes; recording and simulation read them."""

import math
import os
from typing import Any

from . import kernel_ref
from .errors import BadParameterError

# Settings of the Python layer and their defaults.
PYTHON_SETTINGS = {
    "print_time": False,
    "overwrite_files": False,
    "data_path": "",
    "data_prefix": "",
    # Ranvier's: a checkpoint every checkpoint_interval ms of model time during Run (0: none),
    # into the directory checkpoint_path, of which the newest checkpoint_keep stay
    "checkpoint_interval": 0.0,
    "checkpoint_path": "checkpoints",
    "checkpoint_keep": 2,
}

# NEST settings Ranvier accepts without effect, with why they need none.
NO_OPS = {
    "keep_source_table": (True, "Ranvier's connection tables need no source table to be kept"),
    "use_compressed_spikes": (True, "spikes are always exchanged in one compact form"),
    "sort_connections_by_source": (True, "connections are always sorted by source"),
    "adaptive_target_buffers": (True, "buffers always grow as needed"),
    "adaptive_spike_buffers": (True, "buffers always grow as needed"),
    "dict_miss_is_error": (True, "unknown keys are always errors"),
    "off_grid_spiking": (
        False,
        "spikes carry their offsets wherever the network holds cable cells, whatever this says",
    ),
    "update_time_limit": (math.inf, "simulations are never cut short"),
    "max_buffer_size_target_data": (2**24, "buffers always grow as needed"),
    "spike_buffer_grow_extra": (0.5, "buffers always grow as needed"),
    "spike_buffer_shrink_limit": (0.2, "buffers always grow as needed"),
    "spike_buffer_shrink_spare": (0.1, "buffers always grow as needed"),
}

KEPT_BY_RESET = ("data_path", "data_prefix")


class Settings:
    """The Python layer's settings of the current kernel; a new kernel (ResetKernel) starts
    from the defaults, except for where files go (NEST 3.10 keeps data_path and data_prefix)."""

    owner: kernel_ref.Ref | None = None
    values: dict[str, Any] = {}

    @classmethod
    def current(cls) -> dict[str, Any]:
        if not kernel_ref.is_current(cls.owner):
            kept = {k: cls.values[k] for k in KEPT_BY_RESET if k in cls.values}
            cls.owner = kernel_ref.current()
            cls.values = {**PYTHON_SETTINGS, **{k: v[0] for k, v in NO_OPS.items()}, **kept}
        return cls.values


def checked(name: str, value: Any) -> Any:
    if name in ("print_time", "overwrite_files"):
        if not isinstance(value, bool):
            raise BadParameterError(f"{name} must be True or False, got {name} = {value!r}")
    elif name == "data_path":
        if not isinstance(value, (str, os.PathLike)):
            raise BadParameterError(f"data_path must be a path, got data_path = {value!r}")
        value = os.fspath(value)
        if value and not os.path.isdir(value):
            raise BadParameterError(f"data_path must be an existing directory, got data_path = {value!r}")
    elif name == "data_prefix":
        if not isinstance(value, str) or "/" in value:
            raise BadParameterError(f"data_prefix must be a file name prefix without '/', got data_prefix = {value!r}")
    elif name == "checkpoint_interval":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0 or math.isinf(value):
            raise BadParameterError(f"checkpoint_interval must be a time >= 0 ms, got checkpoint_interval = {value!r}")
        value = float(value)
    elif name == "checkpoint_path":
        if not isinstance(value, (str, os.PathLike)) or not os.fspath(value):
            raise BadParameterError(f"checkpoint_path must be a path, got checkpoint_path = {value!r}")
        value = os.fspath(value)
    elif name == "checkpoint_keep":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise BadParameterError(f"checkpoint_keep must be an integer >= 1, got checkpoint_keep = {value!r}")
    elif name in NO_OPS:
        default = NO_OPS[name][0]
        kind = bool if isinstance(default, bool) else (int, float)
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise BadParameterError(f"{name} must be like {default!r}, got {name} = {value!r}")
    return value
