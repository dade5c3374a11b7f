"""ResetKernel, SetKernelStatus and GetKernelStatus."""

import hashlib
from collections.abc import Iterable
from typing import Any

import numpy as np

from . import _kernel, _state
from .errors import BadParameterError, KernelStateError, UnknownParameterError, kernel_errors
from .synapse_copies import register_synapse_copy


def ResetKernel() -> None:
    """Forgets every node, connection and setting."""
    _state.reset()


THREAD_LAYOUT = ("local_num_threads", "total_num_virtual_procs")


def SetKernelStatus(params: dict[str, Any]) -> None:
    """Checks every value against the kernel's declaration of its setting (kernel/settings.hpp),
    then rebuilds the empty kernel with the new settings or hands the live ones to it."""
    s = _state.state
    with kernel_errors():
        checked = _kernel.check_settings(dict(params))
    if s.n_nodes:  # the thread layout it has already is no change, as NEST takes it then
        checked = {k: v for k, v in checked.items() if k not in THREAD_LAYOUT or v != GetKernelStatus(k)}
    structural = {k: v for k, v in checked.items() if k not in _state.LIVE_SETTINGS}
    if s.n_nodes and structural:
        names = ", ".join(sorted(structural))
        raise KernelStateError(f"{names} cannot change after nodes were created; call ResetKernel first")
    if ("tics_per_ms" in checked or "resolution" in checked) and s.kernel.step > 0:
        raise KernelStateError(
            "the network has been simulated: resolution and tics_per_ms cannot change; call ResetKernel first"
        )
    if structural:
        models = {k: m for k, m in s.models.items()}
        _state.reset(**{**s.settings, **checked})
        _restore_models(models, s.device_models)
        return
    with kernel_errors():
        s.kernel.set(checked)
    s.settings.update(checked)
    s.seed = s.settings["rng_seed"]


def _fit_resolution(model, defaults, old_builtin):
    """As NEST, a default that depends on the resolution (noise_generator's dt) keeps its value
    where that still fits the new resolution, and else takes the new default."""
    s = _state.state
    new_builtin = s.device_models[model.base]
    for name, value in new_builtin.items():
        if value != old_builtin[model.base][name]:
            try:
                _kernel.check_device(
                    model.base, {**new_builtin, name: defaults[name]}, s.resolution, s.settings["tics_per_ms"]
                )
            except Exception:
                defaults[name] = value
    return defaults


def _restore_models(models, old_device_models):
    """Keeps CopyModel / SetDefaults across a kernel rebuild (ResetKernel drops them)."""
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


def check_same_on_every_rank() -> None:
    """Under MPI every rank must run with the same kernel settings: a spike exchange or overlap
    set on some ranks only would leave the others waiting in another exchange. Every rank
    raises, naming the settings that differ."""
    s = _state.state
    if s.kernel.num_processes == 1:
        return
    names = sorted(s.settings)
    # a value's digest as a whole number a double holds exactly
    digests = [float(int.from_bytes(hashlib.sha256(repr(s.settings[k]).encode()).digest()[:6], "big")) for k in names]
    rows = _all_ranks(digests)
    differ = [k for j, k in enumerate(names) if np.any(rows[:, j] != rows[0, j])]
    if differ:
        raise BadParameterError(
            f"kernel settings must be the same on every rank, but {', '.join(differ)} differ between ranks "
            "(set them alike on all ranks before Simulate)"
        )


def _all_ranks(values):
    """One row per rank of the given per-rank numbers."""
    values = np.ascontiguousarray(values, dtype=float)
    return _state.state.kernel.allgather_doubles(values).reshape(-1, len(values))


def _collective_status(key, status):
    kernel = _state.state.kernel
    if key == "phase_times_all_ranks":
        phases = kernel.cycle_phase_times()  # the kernel's phases in the cycle's order
        rows = _all_ranks(list(phases.values()))
        return {p: rows[:, k] for k, p in enumerate(phases)}
    if key == "exchange_counts_all_ranks":
        rows = _all_ranks([status["spikes_sent"], status["spikes_received"]])
        return {"sent": rows[:, 0].astype(np.int64), "received": rows[:, 1].astype(np.int64)}
    if key == "cycle_times_all_ranks":
        mine = kernel.cycle_times()
        lengths = _all_ranks([len(mine)])[:, 0].astype(int)
        flat = kernel.allgather_doubles(np.ascontiguousarray(mine))
        return np.split(flat, np.cumsum(lengths)[:-1])
    raise KeyError(key)


def GetKernelStatus(keys: str | Iterable[str] | None = None) -> Any:
    """The kernel's settings and measurements of this rank. ``"phase_times_all_ranks"``,
    ``"cycle_times_all_ranks"`` and ``"exchange_counts_all_ranks"`` gather from every rank
    (ask for them on all ranks)."""
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


def t_max(resolution: float, tics_per_ms: float) -> float:
    """NEST's bound on times: the whole steps within 2**60 tics, in ms as NEST computes it
    (tics times ms_per_tic)."""
    tics_per_step = round(resolution * tics_per_ms)
    return float(2**60 // tics_per_step * tics_per_step) * (1.0 / tics_per_ms)


CHANGES = {"empty_kernel": "no", "before_connections": "before Connect", "any_time": "yes"}


def settings_table() -> str:
    """The docs' table of kernel settings (docs/user_guide.md), written from the kernel's
    declarations: ``python -c "import ranvier.kernel_settings as k; print(k.settings_table())"``."""
    rows = ["| setting | type | unit | default | values | after Create | meaning |", "|---|---|---|---|---|---|---|"]
    for name, d in _state.SETTING_DECLARATIONS.items():
        if "choices" in d:
            values = ", ".join(f"`{c}`" for c in d["choices"])
        elif d["type"] == "integer":
            values = f"{int(d['range'][0])} .. {int(d['range'][1])}"
        elif d["type"] == "real":
            values = "> 0" if d["range"][0] > 0 else ">= 0"
        else:
            values = "`True`, `False`"
        shown = f"`{name}`" + (f" (or `{d['alias']}`)" if d["alias"] else "")
        rows.append(
            f"| {shown} | {d['type']} | {d['unit']} | `{d['default']!r}` | {values} | "
            f"{CHANGES[d['phase']]} | {d['doc']} |"
        )
    return "\n".join(rows)
