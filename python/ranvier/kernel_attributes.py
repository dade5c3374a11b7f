"""The kernel's attributes as PyNEST 3.10 has them: ``nest.set(**kw)``, ``nest.get(*keys)``,
``nest.X`` and ``nest.X = v``, and the SetKernelStatus / GetKernelStatus that serve all of them.

Settings the C++ kernel knows go to kernel_settings; those of the Python layer (files,
progress, verbosity) live here; NEST switches that Ranvier has no use for are accepted and
stored as no-ops (NO_OPS says why each one is). ResetKernel restores every default."""

import math
import os
import platform
import types

from . import _kernel, _state, kernel_ref, kernel_settings
from . import messages as verbosity
from .errors import BadParameterError, UnknownParameterError

# Settings of the Python layer and their defaults.
PYTHON_SETTINGS = {"print_time": False, "overwrite_files": False, "data_path": "", "data_prefix": ""}

# NEST settings Ranvier accepts without effect, with why they need none.
NO_OPS = {
    "keep_source_table": (True, "Ranvier's connection tables need no source table to be kept"),
    "use_compressed_spikes": (True, "spikes are always exchanged in one compact form"),
    "sort_connections_by_source": (True, "connections are always sorted by source"),
    "adaptive_target_buffers": (True, "buffers always grow as needed"),
    "adaptive_spike_buffers": (True, "buffers always grow as needed"),
    "dict_miss_is_error": (True, "unknown keys are always errors"),
    "use_wfr": (True, "no model with gap junctions or rate coupling"),
    "wfr_comm_interval": (1.0, "no waveform relaxation"),
    "wfr_tol": (0.0001, "no waveform relaxation"),
    "wfr_max_iterations": (15, "no waveform relaxation"),
    "wfr_interpolation_order": (3, "no waveform relaxation"),
    "off_grid_spiking": (
        False,
        "spikes carry their offsets wherever the network holds cable cells, whatever this says",
    ),
    "structural_plasticity_update_interval": (10000.0, "no structural plasticity"),
    "update_time_limit": (math.inf, "simulations are never cut short"),
    "max_buffer_size_target_data": (2**24, "buffers always grow as needed"),
    "spike_buffer_grow_extra": (0.5, "buffers always grow as needed"),
    "spike_buffer_shrink_limit": (0.2, "buffers always grow as needed"),
    "spike_buffer_shrink_spare": (0.1, "buffers always grow as needed"),
}

_KEPT_BY_RESET = ("data_path", "data_prefix")

RNG_TYPE = "Philox_32"  # counter-based streams; the only generator Ranvier has


def _build_info():
    return {
        "version": "ranvier " + _version(),
        "have_mpi": bool(_kernel.built_with_mpi()),
        "have_threads": True,
        "threads_model": "openmp",
        "have_gsl": False,
        "have_boost": False,
        "have_hdf5": False,
        "have_libneurosim": False,
        "have_music": False,
        "have_sionlib": False,
        "ndebug": True,
        "host": f"{platform.machine()}-{platform.system().lower()}",
        "hostcpu": platform.machine(),
        "hostos": platform.system().lower(),
        "prefix": os.path.dirname(os.path.abspath(__file__)),
        "exitcode": 0,
    }


def _prepared():
    from .simulation import _prepared

    return _prepared()


def _version():
    from . import __version__

    return __version__


def t_max(resolution, tics_per_ms):
    """NEST's bound on times: the whole steps within 2**60 tics, in ms as NEST computes it
    (tics times ms_per_tic)."""
    tics_per_step = round(resolution * tics_per_ms)
    return float(2**60 // tics_per_step * tics_per_step) * (1.0 / tics_per_ms)


def _read_only(status):
    """Kernel attributes that are computed, not set."""
    s = _state.state
    tics_per_ms = float(s.settings["tics_per_ms"])  # a float in NEST too
    return {
        "build_info": _build_info(),
        "memory_size": int(status["rss_mib"] * 1024),  # KiB, as NEST reports it
        "time_construction_create": status["time_create"],
        "time_construction_connect": status["time_connect"],
        "time_communicate_prepare": status["time_prepare"],
        "prepared": _prepared(),
        "node_models": sorted(m for m in s.models if s.models[m].kind in ("neuron", "device")),
        "synapse_models": sorted(m for m in s.models if s.models[m].kind == "synapse"),
        "connection_rules": tuple(_state.CONNECTION_RULES),  # the kernel's registry, sorted
        "recording_backends": ("ascii", "memory", "screen"),
        "stimulation_backends": (),
        "rng_types": (RNG_TYPE,),
        "rng_type": RNG_TYPE,
        "ms_per_tic": 1.0 / tics_per_ms,
        "tics_per_ms": tics_per_ms,
        "tics_per_step": round(s.resolution * tics_per_ms),
        "T_min": -t_max(s.resolution, tics_per_ms),
        "T_max": t_max(s.resolution, tics_per_ms),
        "to_do": 0,
        "verbosity": verbosity.get_verbosity(),
    }


class _Settings:
    """The Python layer's settings of the current kernel; a new kernel (ResetKernel) starts
    from the defaults, except for where files go (NEST 3.10 keeps data_path and data_prefix)."""

    owner, values = None, {}

    @classmethod
    def current(cls):
        if not kernel_ref.is_current(cls.owner):
            kept = {k: cls.values[k] for k in _KEPT_BY_RESET if k in cls.values}
            cls.owner = kernel_ref.current()
            cls.values = {**PYTHON_SETTINGS, **{k: v[0] for k, v in NO_OPS.items()}, **kept}
        return cls.values


def ResetKernel():
    """Forgets every node, connection and setting (PyNEST's ResetKernel)."""
    from . import recording

    recording.close_all()
    kernel_settings.ResetKernel()
    _Settings.current()


def _check_python_setting(name, value):
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
    elif name in NO_OPS:
        default = NO_OPS[name][0]
        kind = bool if isinstance(default, bool) else (int, float)
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise BadParameterError(f"{name} must be like {default!r}, got {name} = {value!r}")
    return value


def SetKernelStatus(params):
    """Sets kernel attributes; every key is checked before any is set."""
    if not isinstance(params, dict):
        raise BadParameterError(f"kernel parameters must be a dict, got {params!r}")
    mine, kernel = {}, {}
    for name, value in params.items():
        if name in PYTHON_SETTINGS or name in NO_OPS:
            mine[name] = _check_python_setting(name, value)
        elif name == "verbosity":
            mine[name] = verbosity.level(value)
        elif name == "rng_type":
            if value != RNG_TYPE:
                raise BadParameterError(
                    f"rng_type must be {RNG_TYPE!r} (Ranvier's only generator), got rng_type = {value!r}"
                )
        elif name in READ_ONLY_NAMES or name in _KERNEL_READ_ONLY:
            raise UnknownParameterError(f"{name} is a read-only kernel attribute")
        else:
            kernel[name] = value
    settings = dict(_Settings.current())
    if kernel:
        kernel_settings.SetKernelStatus(kernel)  # may make a new kernel: keep our settings
    _Settings.owner, _Settings.values = kernel_ref.current(), settings
    for name, value in mine.items():
        if name == "verbosity":
            verbosity.set_verbosity(value)
        else:
            settings[name] = value


def GetKernelStatus(keys=None):
    """All attributes (a dict), one (its value) or several (a tuple, as NEST 3 returns)."""
    if isinstance(keys, str):
        settings = _Settings.current()
        if keys in settings:
            return settings[keys]
        if keys in READ_ONLY_NAMES or keys in ("verbosity", "rng_type", "tics_per_ms"):
            return _read_only(kernel_settings.GetKernelStatus())[keys]
        return kernel_settings.GetKernelStatus(keys)
    status = kernel_settings.GetKernelStatus()
    status.update(_read_only(status))
    status.update(_Settings.current())
    if keys is None:
        return status
    return tuple(GetKernelStatus(k) for k in keys)


def set(**kwargs):  # noqa: A001 - PyNEST's name
    """``nest.set(resolution=0.1, print_time=True)``."""
    SetKernelStatus(kwargs)


def get(*keys):
    """``nest.get()`` is every attribute, ``nest.get("a")`` one value, ``nest.get("a", "b")`` a tuple."""
    if not keys:
        return GetKernelStatus()
    if len(keys) == 1:
        return GetKernelStatus(keys[0])
    return GetKernelStatus(keys)


READ_ONLY_NAMES = frozenset(
    (
        "build_info",
        "memory_size",
        "node_models",
        "synapse_models",
        "connection_rules",
        "recording_backends",
        "stimulation_backends",
        "rng_types",
        "ms_per_tic",
        "tics_per_step",
        "T_min",
        "T_max",
        "to_do",
        "time_construction_create",
        "time_construction_connect",
        "time_communicate_prepare",
        "prepared",
    )
)
# Kernel measurements that are reported, never set.
_KERNEL_READ_ONLY = frozenset(
    (
        "biological_time",
        "network_size",
        "num_connections",
        "local_spike_counter",
        "num_processes",
        "mpi_rank",
    )
)


def is_attribute(name):
    """Whether ``nest.<name>`` is a kernel attribute."""
    return (
        name in PYTHON_SETTINGS
        or name in NO_OPS
        or name in READ_ONLY_NAMES
        or name in _KERNEL_READ_ONLY
        or name in _state.SETTINGS
        or name in ("verbosity", "rng_type", "total_num_virtual_procs")
    )


class KernelAttributeModule(types.ModuleType):
    """Makes ``ranvier.resolution`` read and ``ranvier.local_num_threads = 2`` set the kernel."""

    def __getattr__(self, name):
        if name == "kernel_status":  # NEST's read-only attribute: the whole status
            return GetKernelStatus()
        if is_attribute(name):
            return GetKernelStatus(name)
        if not name.startswith("_"):  # the kernel's measurements (time_simulate, ...) read too
            status = kernel_settings.GetKernelStatus()
            if name in status:
                return status[name]
        raise AttributeError(f"module 'ranvier' has no attribute {name!r}")

    def __setattr__(self, name, value):
        if is_attribute(name) or name == "kernel_status":
            if name in READ_ONLY_NAMES or name in _KERNEL_READ_ONLY or name == "kernel_status":
                raise AttributeError(f"{name} is a read-only kernel attribute")
            SetKernelStatus({name: value})
        else:
            super().__setattr__(name, value)
