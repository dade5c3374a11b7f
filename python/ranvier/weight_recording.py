"""NEST's weight_recorder: a recorder attached to synapse models (``CopyModel("stdp_synapse",
"stdp_rec", {"weight_recorder": wr})`` or SetDefaults), not connected to nodes. For every
spike that a synapse of such a model transmits it records the sender, the target, the time
of the spike, the weight it carried (after a plastic synapse's update, scaled by short-term
plasticity, n_release times for quantal release; not recorded where bernoulli_synapse or
quantal_stp_synapse let nothing through), the target's receptor_type and the port (the
connection's index among its model's connections on the target's thread, as NEST's; it
depends on the number of threads and processes, the other columns do not). Its ``senders``
and ``targets`` (node collections) restrict it to those nodes. Events are in (time, sender,
target) order. Input from generators is not recorded, even through a synapse model with a
weight recorder: NEST 3.10 records none of it either."""

from collections.abc import Iterable
from typing import Any

from . import _state
from ._state import Model
from .errors import BadParameterError
from .nodes import NodeCollection


def is_weight_recorder(model: Model) -> bool:
    return _state.RECORDS.get(model.base) == "transmissions"


def checked_filter(name: str, value: Any) -> tuple[int, ...]:
    """A device parameter of node ids (a weight recorder's senders or targets): a
    NodeCollection (or the tuple of node ids a model's default keeps), kept as a tuple of node ids."""
    if isinstance(value, tuple):
        value = NodeCollection(list(value))
    if not isinstance(value, NodeCollection):
        raise BadParameterError(f"{name} must be a NodeCollection, got {name} = {value!r}")
    return tuple(value._gids.tolist())


def as_nodes(gids: Iterable[int]) -> NodeCollection:
    return NodeCollection(list(gids))


def checked_attachment(value: Any) -> tuple[int, ...]:
    """A synapse model's weight_recorder: one weight_recorder node (or an empty collection,
    which detaches it), kept as a tuple of its node id."""
    if not isinstance(value, NodeCollection) or len(value) > 1:
        raise BadParameterError(
            f"weight_recorder must be a NodeCollection of one weight_recorder, got weight_recorder = {value!r}"
        )
    if len(value) and not is_weight_recorder(_state.state.model_of(value._gids[0])):
        raise BadParameterError(
            f"weight_recorder must be a node of type weight_recorder, got weight_recorder = {value!r}"
        )
    return tuple(value._gids.tolist())


def attach(model: Model) -> None:
    """Tells the kernel which weight_recorder a synapse model's synapses report to."""
    gids = model.defaults.get("weight_recorder", ())
    _state.state.kernel.set_weight_recorder(model.synapse_id, int(gids[0]) if gids else 0)
