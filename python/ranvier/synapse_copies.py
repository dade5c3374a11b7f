"""Synapse models in the kernel: a CopyModel's copy registered, or a model's changed
defaults handed over (SetDefaults, and a rebuilt kernel keeping them)."""

from . import _state
from ._state import Model
from .errors import kernel_errors
from .weight_recording import attach


def register_synapse_copy(m: Model, update_only: bool = False) -> None:
    # the common parameters and the defaults of the per-connection ones in each connection's record
    common = {
        k: v
        for k, v in m.defaults.items()
        if k not in _state.SYNAPSE_PYTHON_DEFAULTS
        and (k not in ("weight", "delay") or k not in _state.PER_CONNECTION[m.base])
    }
    lists = {k: [float(x) for x in v] for k, v in common.items() if isinstance(v, list)}
    values = {k: float(v) for k, v in common.items() if k not in lists}
    with kernel_errors():
        if update_only:
            _state.state.kernel.set_synapse_parameters(m.synapse_id, values, lists)
        else:
            m.synapse_id = _state.state.kernel.add_synapse_model(m.name, m.base, values, lists)
        attach(m)
