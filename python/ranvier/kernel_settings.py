"""ResetKernel, SetKernelStatus and GetKernelStatus."""
import math

import numpy as np

from . import _kernel, _state
from .errors import BadParameterError, KernelStateError, UnknownParameterError, kernel_errors

_ALIASES = {"total_num_virtual_procs": "local_num_threads"}
_PHASES = ("deliver", "stimulate", "update", "collocate", "synchronize", "communicate")


def ResetKernel():
    """Forgets every node, connection and setting."""
    _state.reset()


def _check(name, value):
    def integer(low, high):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
            raise BadParameterError(f"{name} must be an integer in [{low}, {high}], got {name} = {value!r}")
        return int(value)

    if name == "resolution":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) or value <= 0:
            raise BadParameterError(f"resolution must be a positive number of ms, got resolution = {value!r}")
        return float(value)
    if name == "rng_seed":
        return integer(0, 2**32 - 1)
    if name == "tics_per_ms":  # NEST takes a double that is a whole number (what nest.tics_per_ms gives)
        if isinstance(value, (float, np.floating)) and value.is_integer():
            value = int(value)
        return integer(1, 2**40)
    if name == "local_num_threads":
        return integer(1, 1024)
    if name == "dry_run":
        return integer(0, 2**24)
    if name in ("multisend_phases", "multisend_subintervals"):
        return integer(1, 2)
    if name == "max_D":
        return integer(1, 2**20)
    if name in ("sync_barrier", "record_cycle_times", "overlap_exchange", "persistent_exchange"):
        if not isinstance(value, (bool, np.bool_)):
            raise BadParameterError(f"{name} must be True or False, got {name} = {value!r}")
        return bool(value)
    if name == "placement":
        if value not in ("round_robin", "consecutive", "random", "area"):
            raise BadParameterError(f"placement must be round_robin, consecutive, random or area, got placement = {value!r}")
        return value
    if name == "spike_exchange":
        methods = set(_kernel.exchange_methods()) | {"auto"}
        if value not in methods:
            raise BadParameterError(f"spike_exchange must be one of {sorted(methods)}, got spike_exchange = {value!r}")
        return value
    if isinstance(_state.SETTINGS.get(name), str) and not isinstance(value, str):  # the kernel checks its text
        raise BadParameterError(f"{name} must be a string, got {name} = {value!r}")
    return value


def _check_time_representation(checked):
    """NEST's rules beyond the kernel's own (a resolution that is a whole number of tics)."""
    if "tics_per_ms" in checked and "resolution" not in checked:
        raise BadParameterError(f"tics_per_ms = {checked['tics_per_ms']} must be set together with resolution "
                                "(a multiple of the new tic)")
    if ("tics_per_ms" in checked or "resolution" in checked) and _state.state.kernel.step > 0:
        raise KernelStateError("the network has been simulated: resolution and tics_per_ms cannot change; "
                               "call ResetKernel first")


def SetKernelStatus(params):
    s = _state.state
    checked = {}
    for name, value in params.items():
        key = _ALIASES.get(name, name)
        if key not in _state.SETTINGS:
            raise UnknownParameterError(f"the kernel has no settable parameter {name}")
        checked[key] = _check(name, value)
    structural = {k: v for k, v in checked.items() if k not in _state.LIVE_SETTINGS}
    if s.n_nodes and structural:
        names = ", ".join(sorted(structural))
        raise KernelStateError(f"{names} cannot change after nodes were created; call ResetKernel first")
    _check_time_representation(checked)
    if structural:
        models = {k: m for k, m in s.models.items()}
        _state.reset(**{**s.settings, **checked})
        _restore_models(models, s.device_models)
        return
    s.settings.update(checked)
    with kernel_errors():
        if "rng_seed" in checked:  # as NEST, at any time: later draws follow the new seed
            s.kernel.set_seed(s.settings["rng_seed"])
            s.seed = s.settings["rng_seed"]
        if "spike_exchange" in checked or "multisend_phases" in checked:
            s.kernel.set_exchange(s.settings["spike_exchange"], s.settings["multisend_phases"])
        for name in sorted(_state.LIVE_SETTINGS - {"rng_seed", "spike_exchange", "multisend_phases"}):
            if name in checked:  # every other live setting has a kernel setter of its name
                getattr(s.kernel, f"set_{name}")(s.settings[name])


def _fit_resolution(model, defaults, old_builtin):
    """As NEST, a default that depends on the resolution (noise_generator's dt) keeps its value
    where that still fits the new resolution, and else takes the new default."""
    s = _state.state
    new_builtin = s.device_models[model.base]
    for name, value in new_builtin.items():
        if value != old_builtin[model.base][name]:
            try:
                _kernel.check_device(model.base, {**new_builtin, name: defaults[name]}, s.resolution)
            except Exception:
                defaults[name] = value
    return defaults


def _restore_models(models, old_device_models):
    """Keeps CopyModel / SetDefaults across a kernel rebuild (ResetKernel drops them)."""
    from .models import register_synapse_copy

    s = _state.state
    for model in models.values():
        if model.kind == "device" and model.base in _state.STIMULATORS:
            model.defaults = _fit_resolution(model, dict(model.defaults), old_device_models)
    for name, model in models.items():
        if name in s.models and s.models[name].base == name:
            s.models[name].defaults = dict(model.defaults)
            if model.kind == "synapse":
                register_synapse_copy(s.models[name], update_only=True)
    for name, model in models.items():
        if name not in s.models:
            copy = _state.Model(name, model.base, model.kind, model.defaults)
            s.models[name] = copy
            if model.kind == "synapse":
                register_synapse_copy(copy)


def _all_ranks(values):
    """One row per rank of the given per-rank numbers."""
    values = np.ascontiguousarray(values, dtype=float)
    return _state.state.kernel.allgather_doubles(values).reshape(-1, len(values))


def _collective_status(key, status):
    kernel = _state.state.kernel
    if key == "phase_times_all_ranks":
        rows = _all_ranks([status[f"time_{p}"] for p in _PHASES])
        return {p: rows[:, k] for k, p in enumerate(_PHASES)}
    if key == "exchange_counts_all_ranks":
        rows = _all_ranks([status["spikes_sent"], status["spikes_received"]])
        return {"sent": rows[:, 0].astype(np.int64), "received": rows[:, 1].astype(np.int64)}
    if key == "cycle_times_all_ranks":
        mine = kernel.cycle_times()
        lengths = _all_ranks([len(mine)])[:, 0].astype(int)
        flat = kernel.allgather_doubles(np.ascontiguousarray(mine))
        return np.split(flat, np.cumsum(lengths)[:-1])
    raise KeyError(key)


def GetKernelStatus(keys=None):
    """The kernel's settings and measurements of this rank. ``"phase_times_all_ranks"``,
    ``"cycle_times_all_ranks"`` and ``"exchange_counts_all_ranks"`` gather from every rank
    (ask for them on all ranks)."""
    from .parameters import apply_pending

    apply_pending()
    s = _state.state
    status = s.kernel.status()
    status["areas"] = list(s.areas)
    status["cycle_times"] = s.kernel.cycle_times()
    status["exchange_log"] = s.kernel.exchange_log()
    if keys is None:
        return status
    if isinstance(keys, str):
        if keys in ("phase_times_all_ranks", "cycle_times_all_ranks", "exchange_counts_all_ranks"):
            return _collective_status(keys, status)
        if keys not in status:
            raise UnknownParameterError(f"the kernel has no parameter {keys}")
        return status[keys]
    return [GetKernelStatus(k) for k in keys]
