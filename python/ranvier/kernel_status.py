"""ResetKernel, SetKernelStatus and GetKernelStatus."""
import math

from . import _state
from .errors import BadParameterError, KernelStateError, UnknownParameterError

# Every setting rebuilds the kernel, so each needs an empty network.
_SETTABLE = {"resolution", "local_num_threads", "total_num_virtual_procs", "rng_seed"}


def ResetKernel():
    """Forgets every node, connection and setting."""
    _state.reset()


def _check(name, value):
    if name == "resolution":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) or value <= 0:
            raise BadParameterError(f"resolution must be a positive number of ms, got resolution = {value!r}")
        return float(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadParameterError(f"{name} must be an integer, got {name} = {value!r}")
    if name == "rng_seed" and not 0 <= value < 2**32:
        raise BadParameterError(f"rng_seed must be in [0, 2^32), got rng_seed = {value}")
    if name in ("local_num_threads", "total_num_virtual_procs") and not 1 <= value <= 1024:
        raise BadParameterError(f"{name} must be in [1, 1024], got {name} = {value}")
    return value


def SetKernelStatus(params):
    s = _state.state
    for name in params:
        if name not in _SETTABLE:
            raise UnknownParameterError(f"the kernel has no settable parameter {name}")
    checked = {name: _check(name, value) for name, value in params.items()}
    if s.n_nodes and checked:
        names = ", ".join(sorted(checked))
        raise KernelStateError(f"{names} cannot change after nodes were created; call ResetKernel first")
    threads = checked.get("local_num_threads", checked.get("total_num_virtual_procs", s.threads))
    resolution = checked.get("resolution", s.resolution)
    seed = checked.get("rng_seed", s.seed)
    models = {k: m for k, m in s.models.items() if m.name != m.base or m.defaults}
    _state.reset(threads=threads, resolution=resolution, seed=seed)
    _restore_models(models)


def _restore_models(models):
    """Keeps CopyModel / SetDefaults across a kernel rebuild (ResetKernel drops them)."""
    from .models import register_synapse_copy

    s = _state.state
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


def GetKernelStatus(keys=None):
    s = _state.state
    status = dict(s.kernel.status())
    status["local_num_threads"] = int(status["local_num_threads"])
    status["total_num_virtual_procs"] = status["local_num_threads"]
    status["rng_seed"] = s.seed
    status["network_size"] = int(status["network_size"])
    status["num_connections"] = int(status["num_connections"])
    status["local_spike_counter"] = int(status["local_spike_counter"])
    status["num_processes"] = 1
    status["rss_mib"] = status.pop("rss") / 2**20
    status["peak_rss_mib"] = status.pop("peak_rss") / 2**20
    if keys is None:
        return status
    if isinstance(keys, str):
        if keys not in status:
            raise UnknownParameterError(f"the kernel has no parameter {keys}")
        return status[keys]
    return [GetKernelStatus(k) for k in keys]
