"""The kernel's attributes as PyNEST 3.10 has them: ``nest.set(**kw)``, ``nest.get(*keys)``,
``nest.X`` and ``nest.X = v``, and the SetKernelStatus / GetKernelStatus that serve all of them.

Settings the C++ kernel knows go to kernel_settings; those of the Python layer (files,
progress) to python_settings, verbosity to messages; NEST switches that Ranvier has no use for are accepted and
stored as no-ops (NO_OPS says why each one is). ResetKernel restores every default."""

import importlib.util
import os
import platform
import types
from collections.abc import Iterable
from typing import Any

from . import _kernel, _state, kernel_ref, kernel_settings, python_settings, recording, run_phase, structural_plasticity
from . import messages as verbosity
from ._version import __version__
from .errors import BadParameterError, KernelStateError, UnknownParameterError
from .kernel_settings import t_max
from .parameters import apply_pending
from .python_settings import NO_OPS, PYTHON_SETTINGS, Settings

RNG_TYPE = "Philox_32"  # counter-based streams; the only generator Ranvier has


def _build_info():
    return {
        "version": "ranvier " + __version__,
        "have_mpi": bool(_kernel.built_with_mpi()),
        "have_threads": True,
        "threads_model": "openmp",
        # NEST builds its ODE models (aeif, hh, iaf_cond) only with GSL, and iaf_bw_2001 (its
        # incomplete gamma function) only with Boost; Ranvier has them, with its own solver
        # (core/rkf45.hpp) and function, so NEST's tests of them run
        "have_gsl": True,
        "have_boost": True,
        "have_hdf5": importlib.util.find_spec("h5py") is not None,  # SONATA's files (sonata/)
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
        "prepared": run_phase.is_prepared(),
        "node_models": sorted(m for m in s.models if s.models[m].kind in ("neuron", "device")),
        "synapse_models": sorted(m for m in s.models if s.models[m].kind == "synapse"),
        "connection_rules": tuple(_state.CONNECTION_RULES),  # the kernel's registry, sorted
        "recording_backends": ("ascii", "memory", "screen", "sonata"),
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
        "growth_curves": structural_plasticity.growth_curves(),
        "structural_plasticity_synapses": structural_plasticity.synapses(),
    }


def ResetKernel() -> None:
    """Forgets every node, connection and setting (PyNEST's ResetKernel)."""
    recording.close_all()
    kernel_settings.ResetKernel()
    Settings.current()


def SetKernelStatus(params: dict[str, Any]) -> None:
    """Sets kernel attributes; every key is checked before any is set."""
    if not isinstance(params, dict):
        raise BadParameterError(f"kernel parameters must be a dict, got {params!r}")
    mine, kernel = {}, {}
    for name, value in params.items():
        if name in PYTHON_SETTINGS or name in NO_OPS:
            mine[name] = python_settings.checked(name, value)
        elif name == "verbosity":
            mine[name] = verbosity.level(value)
        elif name == "rng_type":
            if value != RNG_TYPE:
                raise BadParameterError(
                    f"rng_type must be {RNG_TYPE!r} (Ranvier's only generator), got rng_type = {value!r}"
                )
        elif name == "biological_time":
            _check_clock_set(value)
        elif name in READ_ONLY_NAMES or name in _KERNEL_READ_ONLY:
            raise UnknownParameterError(f"{name} is a read-only kernel attribute")
        elif name == _SP_SYNAPSES:
            continue  # set once the others are (it reads the resolution)
        else:
            kernel[name] = value
    settings = dict(Settings.current())
    if kernel:
        kernel_settings.SetKernelStatus(kernel)  # may make a new kernel: keep our settings
    Settings.owner, Settings.values = kernel_ref.current(), settings
    if _SP_SYNAPSES in params:
        structural_plasticity.set_synapses(params[_SP_SYNAPSES])
    for name, value in mine.items():
        if name == "verbosity":
            verbosity.set_verbosity(value)
        else:
            settings[name] = value


def _check_clock_set(value: Any) -> None:
    """NEST's biological_time may be set to 0.0 only; Ranvier's clock does not run back, so
    setting it is a no-op before the first Simulate and refused after it."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != 0.0:
        raise BadParameterError(
            f"biological_time can only be set to 0.0 (NEST's rule), got biological_time = {value!r}"
        )
    now = _state.state.kernel.step * _state.state.resolution
    if now != 0.0:
        raise KernelStateError(
            f"biological_time is {now} ms: Ranvier's clock does not run back to 0.0; call ResetKernel to start anew"
        )


def GetKernelStatus(keys: str | Iterable[str] | None = None) -> Any:
    """All attributes (a dict), one (its value) or several (a tuple, as NEST 3 returns)."""
    if isinstance(keys, str):
        settings = Settings.current()
        if keys in settings:
            return settings[keys]
        apply_pending()  # the kernel's status counts the nodes placed by then
        if keys in READ_ONLY_NAMES or keys in ("verbosity", "rng_type", "tics_per_ms", _SP_SYNAPSES):
            return _read_only(kernel_settings.GetKernelStatus())[keys]
        return kernel_settings.GetKernelStatus(keys)
    apply_pending()
    status = kernel_settings.GetKernelStatus()
    status.update(_read_only(status))
    status.update(Settings.current())
    if keys is None:
        return status
    return tuple(GetKernelStatus(k) for k in keys)


def set(**kwargs: Any) -> None:  # noqa: A001 - PyNEST's name
    """``nest.set(resolution=0.1, print_time=True)``."""
    SetKernelStatus(kwargs)


def get(*keys: str) -> Any:
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
        "growth_curves",
    )
)
_SP_SYNAPSES = "structural_plasticity_synapses"  # set by structural_plasticity, not the kernel's settings
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


def is_attribute(name: str) -> bool:
    """Whether ``nest.<name>`` is a kernel attribute."""
    return (
        name in PYTHON_SETTINGS
        or name in NO_OPS
        or name in READ_ONLY_NAMES
        or name in _KERNEL_READ_ONLY
        or name in _state.SETTINGS
        or name in ("verbosity", "rng_type", "total_num_virtual_procs", _SP_SYNAPSES)
    )


class KernelAttributeModule(types.ModuleType):
    """Makes ``ranvier.resolution`` read and ``ranvier.local_num_threads = 2`` set the kernel."""

    def __getattr__(self, name: str) -> Any:
        if name == "kernel_status":  # NEST's read-only attribute: the whole status
            return GetKernelStatus()
        if is_attribute(name):
            return GetKernelStatus(name)
        if not name.startswith("_"):  # the kernel's measurements (time_simulate, ...) read too
            apply_pending()
            status = kernel_settings.GetKernelStatus()
            if name in status:
                return status[name]
        raise AttributeError(f"module 'ranvier' has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        if is_attribute(name) or name == "kernel_status":
            if name in READ_ONLY_NAMES or name in _KERNEL_READ_ONLY - {"biological_time"} or name == "kernel_status":
                raise AttributeError(f"{name} is a read-only kernel attribute")
            SetKernelStatus({name: value})
        elif isinstance(value, types.ModuleType):  # the import system names the package's submodules
            super().__setattr__(name, value)
        elif name in self.__dict__:  # the API's functions and classes stay what they are, as in NEST
            raise AttributeError(f"ranvier.{name} is part of the API, not a kernel attribute: it cannot be replaced")
        else:  # a misspelt attribute would otherwise set nothing, silently
            raise AttributeError(f"module 'ranvier' has no kernel attribute {name!r}")
