"""NEST's CollocatedSynapses: several synapse specs for one Connect, each making a connection for
every pair the rule chooses once (``Connect(pre, post, conn_spec,
CollocatedSynapses({"weight": -2.0}, {"synapse_model": "stdp_synapse", "weight": 3.0}))``). The
kernel draws the pairs for the first spec and repeats them for the others; each spec draws its
own random weights and delays."""

from typing import Any

from . import _state
from .errors import BadParameterError


class CollocatedSynapses:
    def __init__(self, *syn_specs: dict[str, Any]) -> None:
        if not syn_specs or not all(isinstance(s, dict) for s in syn_specs):
            raise BadParameterError(f"CollocatedSynapses takes one or more syn_spec dicts, got {syn_specs!r}")
        self.syn_specs = list(syn_specs)

    def __len__(self) -> int:
        return len(self.syn_specs)

    def __repr__(self) -> str:
        return f"CollocatedSynapses({', '.join(map(repr, self.syn_specs))})"


def connect_collocated(connect, collocated: CollocatedSynapses) -> None:
    """Runs connect(syn_spec) for each spec of the group, the kernel repeating the first's pairs."""
    kernel = _state.state.kernel
    try:
        for k, syn_spec in enumerate(collocated.syn_specs):
            kernel.collocate(k)
            connect(syn_spec)
    finally:
        kernel.collocate(-1)
