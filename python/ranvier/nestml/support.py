"""What the Ranvier target does not generate yet, refused by name before any code is written."""

from pynestml.codegeneration.code_generator_utils import CodeGeneratorUtils
from pynestml.meta_model.ast_model import ASTModel


class NESTMLError(ValueError):
    """NESTML's checks found errors in a model (the message has NESTML's)."""


class UnsupportedNESTML(Exception):
    """A NESTML feature the Ranvier target does not generate yet (docs/nestml.md lists them)."""


def check_supported(model: ASTModel, synapse_models: list[str]) -> None:
    name = model.get_name()
    _, synapses = CodeGeneratorUtils.get_model_types_from_names([model], synapse_models=synapse_models)
    if synapses:
        raise UnsupportedNESTML(f"{name}: NESTML synapse models are not supported by the Ranvier target yet")
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
        raise UnsupportedNESTML(f"{name}: delay variables are not supported by the Ranvier target yet")
