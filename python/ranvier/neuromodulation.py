"""NEST's neuromodulated plasticity: stdp_dopamine_synapse names its volume_transmitter in the
common parameter volume_transmitter (SetDefaults or CopyModel). The kernel keeps the node id
(0: none); users give and see a NodeCollection of one volume_transmitter, as in NEST."""

from typing import Any

from . import _state
from .errors import BadParameterError
from .nodes import NodeCollection

TRANSMITTER = "volume_transmitter"


def checked_transmitter(value: Any) -> int:
    """The node id of a NodeCollection of one volume_transmitter."""
    if not isinstance(value, NodeCollection) or len(value) != 1:
        raise BadParameterError(
            f"{TRANSMITTER} must be a NodeCollection of one volume_transmitter, got {TRANSMITTER} = {value!r}"
        )
    if _state.state.model_of(value._gids[0]).base != TRANSMITTER:
        raise BadParameterError(
            f"{TRANSMITTER} must be a node of type volume_transmitter, got {TRANSMITTER} = {value!r}"
        )
    return int(value._gids[0])


def transmitter_nodes(gid: float) -> NodeCollection:
    return NodeCollection([int(gid)]) if gid else NodeCollection()
