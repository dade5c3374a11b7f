"""Ranvier's NESTML code generator: NESTML's NEST generator (its model analysis, ODE-toolbox
results and C++ printers) rendering Ranvier's templates (templates/), with NESTML's own statement
templates (resources_nest/point_neuron/directives_cpp) for what Ranvier does not redefine."""

import re
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, Template
from pynestml.codegeneration import nest_code_generator
from pynestml.codegeneration.code_generator_utils import CodeGeneratorUtils
from pynestml.codegeneration.nest_code_generator import NESTCodeGenerator
from pynestml.codegeneration.printers.constant_printer import ConstantPrinter
from pynestml.codegeneration.printers.cpp_expression_printer import CppExpressionPrinter
from pynestml.codegeneration.printers.cpp_printer import CppPrinter
from pynestml.codegeneration.printers.cpp_simple_expression_printer import CppSimpleExpressionPrinter
from pynestml.codegeneration.printers.nest_cpp_function_call_printer import NESTCppFunctionCallPrinter
from pynestml.codegeneration.printers.nest_variable_printer import NESTVariablePrinter
from pynestml.meta_model.ast_function_call import ASTFunctionCall
from pynestml.meta_model.ast_model import ASTModel
from pynestml.symbols.predefined_functions import PredefinedFunctions
from pynestml.symbols.unit_type_symbol import UnitTypeSymbol

from .support import UnsupportedNESTML, check_moved, check_supported, check_synapse

TEMPLATES = Path(__file__).parent / "templates"
NESTML_STATEMENT_TEMPLATES = Path(nest_code_generator.__file__).parent / "resources_nest" / "point_neuron"


def unit_text(type_symbol: Any) -> str:
    """A variable's unit as NEST's documentation writes it ("1/s", "pA/ms", "mV*ms"); "" for a
    number without one."""
    if not isinstance(type_symbol, UnitTypeSymbol):
        return ""
    # NESTML prints an input port's type as "<unit> buffer"
    return type_symbol.print_symbol().removesuffix(" buffer").replace(" / ", "/").replace(" ", "*")


def _name_of(item: Any) -> str:
    for getter in ("get_symbol_name", "get_name"):
        if hasattr(item, getter):
            return getattr(item, getter)()
    if hasattr(item, "get_variables"):  # a declaration
        return item.get_variables()[0].get_name()
    return str(item)


def added_last(items: Any) -> list:
    """The model's own declarations in their order, then what NESTML's analysis adds
    (convolutions' state, propagators) by name. The analysis lists those in an order that
    varies from run to run (it iterates sets of sympy objects), which would change the generated
    source and miss the build cache; their values do not depend on each other's order."""

    def added(item: Any) -> bool:
        name = _name_of(item)
        return "__X__" in name or name.startswith("__P__")

    items = list(items)
    return [i for i in items if not added(i)] + sorted((i for i in items if added(i)), key=_name_of)


class ExponentKeepingConstantPrinter(ConstantPrinter):
    """NESTML's constants with its nine digits, the exponent whole: NESTML 9.0's printer strips
    trailing zeros from the exponent too (7.5e-10 becomes 7.5e-1, 1e10 becomes 1e1)."""

    def print_constant(self, node: str | float | int) -> str:
        if not isinstance(node, float):
            return super().print_constant(node)
        mantissa, e, exponent = f"{node:#.{self.n_float_digits}g}".partition("e")
        return mantissa.rstrip("0") + e + exponent


class RanvierFunctionCallPrinter(NESTCppFunctionCallPrinter):
    """NESTML's predefined functions as a Ranvier model computes them: the resolution and a
    duration in steps from the kernel's clock, random numbers from the neuron's stream (locals
    the templates define), powers through the templates' numerics."""

    def _print_function_call_format_string(self, function_call: ASTFunctionCall) -> str:
        name = function_call.get_name()
        if name == PredefinedFunctions.TIME_RESOLUTION:
            return "__resolution"
        if name == PredefinedFunctions.TIME_STEPS:
            return "__steps({!s})"
        # draws from the neuron's counter-based stream (the templates' __draws and __draw)
        if name == PredefinedFunctions.RANDOM_NORMAL:
            return "(({!s}) + ({!s}) * __draws.normal(__draw++))"
        if name == PredefinedFunctions.RANDOM_UNIFORM:
            return "__uniform({!s}, {!s})"
        if name == PredefinedFunctions.RANDOM_POISSON:
            return "double(__draws.poisson(__draw++, {!s}))"
        if name == PredefinedFunctions.POW:  # the templates' numerics
            return "numerics::pow({!s}, {!s})"
        return super()._print_function_call_format_string(function_call)


def internals_used(model: ASTModel, expressions: list[Any]) -> set[str]:
    """The names of the model's internals that the expressions use, directly or through other
    internals (the propagators of the variables moved from synapses: only these are derived
    for each interval between spikes)."""
    declared = {
        v.get_name(): str(d.get_expression())
        for b in model.get_internals_blocks()
        for d in b.get_declarations()
        for v in d.get_variables()
    }
    used: set[str] = set()
    texts = [str(e) for e in expressions]
    while texts:
        text = texts.pop()
        for name in declared.keys() - used:
            if re.search(rf"\b{re.escape(name)}\b", text):
                used.add(name)
                texts.append(declared[name])
    return used


class RanvierCodeGenerator(NESTCodeGenerator):
    """Generates one header per neuron (a ranvier::NeuronModel), one per synapse (a
    ranvier::SynapseBase) and the module's source that registers them."""

    _default_options = {
        **NESTCodeGenerator._default_options,
        "templates": {
            "path": str(TEMPLATES),
            "model_templates": {"neuron": ["@NEURON_NAME@.hpp.jinja2"], "synapse": ["@SYNAPSE_NAME@.hpp.jinja2"]},
            "module_templates": ["@MODULE_NAME@.cpp.jinja2"],
        },
        "nest_version": "v3.10.0",  # the NEST whose semantics Ranvier's models follow
    }

    def _setup_template_env(self, template_files: list[str], templates_root_dir: str) -> list[Template]:
        env = Environment(loader=FileSystemLoader([str(TEMPLATES), str(NESTML_STATEMENT_TEMPLATES)]))
        env.globals["zip"] = zip
        env.globals["raise"] = self.raise_helper
        env.globals["unit_text"] = unit_text
        env.filters["added_last"] = added_last
        paths = self._get_abs_template_paths(template_files, templates_root_dir)
        return [env.get_template(Path(p).name) for p in paths]

    def setup_printers(self) -> None:
        super().setup_printers()
        # every printer NESTML made holds this one constant printer
        self._constant_printer.__class__ = ExponentKeepingConstantPrinter
        # NEST's printers with Ranvier's function calls: with origin (S_.V_m, P_.C_m: the views
        # the templates declare) and without.
        self._nest_function_call_printer = RanvierFunctionCallPrinter(None)
        self._printer = self._expression_printer(self._nest_variable_printer, self._nest_function_call_printer)
        self._nest_printer = CppPrinter(expression_printer=self._printer)
        self._nest_function_call_printer_no_origin = RanvierFunctionCallPrinter(None)
        self._printer_no_origin = self._expression_printer(
            self._nest_variable_printer_no_origin, self._nest_function_call_printer_no_origin
        )

    def _expression_printer(
        self, variables: NESTVariablePrinter, calls: RanvierFunctionCallPrinter
    ) -> CppExpressionPrinter:
        printer = CppExpressionPrinter(
            simple_expression_printer=CppSimpleExpressionPrinter(
                variable_printer=variables, constant_printer=self._constant_printer, function_call_printer=calls
            )
        )
        variables._expression_printer = printer
        calls._expression_printer = printer
        return printer

    def _get_neuron_model_namespace(self, neuron: ASTModel, metadata: dict[str, dict[str, Any]]) -> dict[str, Any]:
        """NESTML's namespace, with what its analysis adds in an order of its own (added_last).
        A neuron generated with synapses keeps the variables moved from them (moved_variables)
        as values after its last spike, updated at its spikes only, as NEST's generated neuron
        does; NESTML's integrate_odes() then leaves them alone (paired_synapses unset). The
        neurons of a group are updated side by side (side_by_side: a loop that vectorizes) where
        one neuron's step touches nothing of another's and calls nothing of the kernel's but
        emit_spike: no solver, no random stream, no moved variables, no internals that change
        with the state, no functions (which see the state in the group's arrays)."""
        namespace = super()._get_neuron_model_namespace(neuron, metadata)
        name = neuron.get_name()
        if namespace.pop("paired_synapses", None):
            check_moved(name, namespace)
            self._moved[name] = sorted(namespace["analytic_state_variables_moved"])
            namespace["moved_internals"] = internals_used(
                neuron, [namespace["update_expressions"][v] for v in self._moved[name]]
            )
        namespace["moved_variables"] = self._moved.get(name, [])
        namespace["side_by_side"] = not (
            namespace["moved_variables"]
            or namespace.get("uses_numeric_solver")
            or namespace.get("propagators_are_state_dependent")
            or "random_" in str(neuron)
            or neuron.get_functions()
        )
        for block in neuron.get_state_blocks() + neuron.get_internals_blocks():
            block.declarations = added_last(block.get_declarations())
        for key in ("analytic_state_variables", "numeric_state_variables", "recordable_state_variables"):
            if key in namespace:
                namespace[key] = added_last(namespace[key])
        updates = namespace.get("spike_updates", {})
        namespace["spike_updates"] = {
            port: sorted(updates[port], key=lambda a: a.get_variable().get_name()) for port in sorted(updates)
        }
        return namespace

    def _get_synapse_model_namespace(self, synapse: ASTModel, metadata: dict[str, dict[str, Any]]) -> dict[str, Any]:
        """NESTML's namespace, with the variables its paired neuron keeps for it (as that
        neuron's namespace lists them) and its @homogeneous parameters (NEST's common properties)."""
        namespace = super()._get_synapse_model_namespace(synapse, metadata)
        check_synapse(synapse, namespace)
        namespace["moved_variables"] = self._moved.get(namespace.get("paired_neuron_name", ""), [])
        namespace["homogeneous_parameters"] = [
            s.get_symbol_name() for s in synapse.get_parameter_symbols() if s.is_homogeneous()
        ]
        return namespace

    def generate_code(self, models: list[ASTModel], metadata: dict[str, dict[str, Any]]) -> None:
        if self.get_option("gap_junctions").get("enable"):
            raise UnsupportedNESTML("gap junctions are not supported by the Ranvier target yet")
        _, synapses = CodeGeneratorUtils.get_model_types_from_names(
            models, synapse_models=self.get_option("synapse_models")
        )
        for model in models:
            check_supported(model, model in synapses)
        self._moved: dict[str, list[str]] = {}  # per neuron generated with synapses: the variables moved from them
        super().generate_code(models, metadata)
