"""What the Ranvier target does not generate yet, refused by name before any code is written."""

import re
from typing import Any

from pynestml.meta_model.ast_model import ASTModel


class NESTMLError(ValueError):
    """NESTML's checks found errors in a model (the message has NESTML's)."""


class UnsupportedNESTML(Exception):
    """A NESTML feature the Ranvier target does not generate yet (docs/nestml.md lists them)."""


def check_supported(model: ASTModel, synapse: bool) -> None:
    name = model.get_name()
    if synapse and "__with_" not in name and len(model.get_spike_input_ports()) > 1:
        raise UnsupportedNESTML(
            f"{name}: a synapse with postsynaptic ports is generated with its neuron (codegen_opts "
            "neuron_synapse_pairs), as NEST's target generates it"
        )
    if model.has_state_vectors() or model.get_vector_symbols():
        raise UnsupportedNESTML(f"{name}: vector variables are not supported by the Ranvier target yet")
    if any(port.has_vector_parameter() for port in model.get_input_ports()):
        raise UnsupportedNESTML(f"{name}: vector input ports are not supported by the Ranvier target yet")
    if len(model.get_continuous_input_ports()) > 1:
        raise UnsupportedNESTML(f"{name}: Ranvier neurons take one continuous input port (their current), not several")
    declarations = [
        d
        for b in model.get_parameters_blocks() + model.get_state_blocks() + model.get_internals_blocks()
        for d in b.get_declarations()
    ]
    if any("random_" in str(d) for d in declarations):
        raise UnsupportedNESTML(
            f"{name}: random numbers in parameters, initial values or internals are not supported by the Ranvier "
            "target yet (they are in update, onReceive and onCondition blocks)"
        )
    if any(symbol.has_delay_parameter() for symbol in model.get_state_symbols()):
        raise UnsupportedNESTML(
            f"{name}: state variables read with a delay (delay differential equations) are not supported by the "
            "Ranvier target yet"
        )


def check_moved(name: str, namespace: dict[str, Any]) -> None:
    """A neuron generated with synapses: what of the variables moved into it the target generates."""
    if namespace.get("numeric_state_variables_moved") or namespace.get("purely_numeric_state_variables_moved"):
        raise UnsupportedNESTML(
            f"{name}: variables moved from a synapse that need a numeric solver are not supported by the Ranvier "
            "target yet"
        )
    if namespace.get("neuron_state_vars_that_need_continuous_buffering"):
        raise UnsupportedNESTML(
            f"{name}: continuous post ports (a synapse reading the neuron's state between spikes) are not supported "
            "by the Ranvier target yet"
        )


def check_synapse(synapse: ASTModel, namespace: dict[str, Any]) -> None:
    """What of a synapse the target generates: onReceive blocks of one presynaptic port (random
    numbers in it too), spiking postsynaptic ports and volume transmitter ports, an update block,
    equations that ODE-toolbox solves analytically, functions on the connection's parameters and
    state."""
    name = synapse.get_name()
    refused = {
        "continuous post ports": namespace.get("continuous_post_ports"),
        "handler priorities": namespace.get("pre_before_post_update"),
        "equations that need a numeric solver": namespace.get("uses_numeric_solver"),
        # a connection's functions see its parameters and state, not its internals (derived for
        # each interval), and run where its statements run, not in declarations
        "functions that read internals": any(
            re.search(rf"\b{re.escape(s.get_symbol_name())}\b", str(f))
            for f in synapse.get_functions()
            for s in synapse.get_internal_symbols()
        ),
        "functions in parameters, initial values or internals": any(
            re.search(rf"\b{re.escape(f.get_name())}\s*\(", str(d))
            for f in synapse.get_functions()
            for b in synapse.get_parameters_blocks() + synapse.get_state_blocks() + synapse.get_internals_blocks()
            for d in b.get_declarations()
        ),
        "random numbers outside the presynaptic handler": any(
            "random_" in str(b)
            for b in synapse.get_update_blocks() + synapse.get_on_receive_blocks()
            if all(b is not synapse.get_on_receive_block(p) for p in namespace.get("pre_ports", []))
        ),
    }
    for feature, present in refused.items():
        if present:
            raise UnsupportedNESTML(f"{name}: {feature} in synapses are not supported by the Ranvier target yet")
    if not namespace.get("synapse_weight_variable"):
        raise UnsupportedNESTML(
            f"{name}: the synapse needs a weight variable (codegen_opts weight_variable, as NEST's target does)"
        )
