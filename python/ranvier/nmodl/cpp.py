"""C++ for a catalogue of NMODL mechanisms (mechanism.Mechanism) against the kernel's
interface (src/ranvier/cable/mechanism_kind.hpp). Every value is a Lanes (one double per cell of a
block), so a kernel is straight-line vector code: an IF becomes a mask, and each assignment
under it keeps the old value where the mask is off (both branches are computed, as NEURON
would compute either)."""

import math

from .frontend import NmodlError, line_of
from .mechanism import BUILTIN_NAMES, Mechanism, Node, children, kind, text

# NMODL's functions and the helpers (src/ranvier/cable/nmodl_math.hpp) that compute them per lane.
_FUNCTIONS = {
    "exp": "exp_lanes",
    "log": "log_lanes",
    "log10": "log10_lanes",
    "sqrt": "sqrt_lanes",
    "fabs": "fabs_lanes",
    "pow": "pow_lanes",
    "sin": "sin_lanes",
    "cos": "cos_lanes",
    "tan": "tan_lanes",
    "tanh": "tanh_lanes",
    "floor": "floor_lanes",
    "ceil": "ceil_lanes",
    "fmin": "fmin_lanes",
    "fmax": "fmax_lanes",
}
_COMPARISONS = {"<", ">", "<=", ">=", "==", "!="}
# The arrays of NMODL's Newton and linear solver blocks (EIGEN_NEWTON_SOLVE, EIGEN_LINEAR_SOLVE):
# the unknowns, the residual or right-hand side, the Jacobian or matrix (column-major).
_SOLVER_ARRAYS = {"nmodl_eigen_x": "solver_x", "nmodl_eigen_f": "solver_f", "nmodl_eigen_j": "solver_j"}


def literal(value: float) -> str:
    r = repr(float(value))
    return (
        r
        if r not in ("inf", "-inf", "nan")
        else f"std::numeric_limits<double>::{'infinity' if 'inf' in r else 'quiet_NaN'}()"
    )


class Kernel:
    """The body of one kernel (INITIAL, BREAKPOINT or the SOLVE's block) for one instance k."""

    def __init__(self, m: Mechanism, statements: list[Node], phase: str):
        self.m, self.statements, self.phase = m, statements, phase
        self.source = m.path.read_text()
        self.lines: list[str] = []
        self.locals: list[set[str]] = []
        self.assigned: set[str] = set()

    def refuse(self, what: str, pattern: str) -> NmodlError:
        return NmodlError(f"{self.m.path}:{line_of(self.source, pattern)}: {what} is not supported")

    # Names
    def used_names(self) -> set[str]:
        found, stack = set(), list(self.statements)
        while stack:
            node = stack.pop()
            if kind(node) == "IndexedName":
                name = text(node)
                if name not in _SOLVER_ARRAYS:
                    raise self.refuse(f"the indexed name {name}[...]", rf"\b{name}\s*\[")
                continue
            if kind(node) in ("VarName", "Name"):
                found.add(text(node))
            stack += children(node)
        return found

    def name(self, name: str) -> str:
        if any(name in scope for scope in self.locals):
            return f"nm_{name}"
        if name == "v":
            return "v"
        if name == "celsius":
            return "b.celsius"
        if name in ("dt", "t"):
            return f"b.{name}"
        if name in self.m.constants:
            return literal(self.m.constants[name])
        if name in self.m.fields or name in self.m.currents or self.m.ion_of(name):
            return f"nm_{name}"
        line = line_of(self.source, rf"\b{name}\b")
        raise NmodlError(f"{self.m.path}:{line}: the name {name} is not declared")

    def indexed(self, node: Node) -> str:
        """An element of a solver block's array (its index a number)."""
        array, index = children(node)
        return f"{_SOLVER_ARRAYS[text(array)]}[{int(float(text(index)))}]"

    # Expressions
    def expression(self, node: Node) -> str:
        k, parts = kind(node), children(node)
        if k == "WrappedExpression":
            return self.expression(parts[0])
        if k == "ParenExpression":
            return f"({self.expression(parts[0])})"
        if k in ("Double", "Integer", "Float"):
            return literal(float(text(node)))
        if k == "VarName" and kind(parts[0]) == "IndexedName":
            return self.indexed(parts[0])
        if k in ("VarName", "Name"):  # a Name: an inlined FUNCTION's result
            return self.name(text(node))
        if k == "UnaryExpression":
            op, operand = text(parts[0]), self.expression(parts[1])
            return f"(-{operand})" if op == "-" else f"(mask_of({operand}) == 0)"
        if k == "BinaryExpression":
            lhs, op, rhs = self.expression(parts[0]), text(parts[1]), self.expression(parts[2])
            base = parts[0]
            while kind(base) in ("WrappedExpression", "ParenExpression"):
                base = children(base)[0]
            if op == "^" and kind(base) in ("Double", "Integer") and float(text(base)) > 0:
                # a number's power (a Q10's): exp of the exponent times the base's log, in lanes
                return f"exp_lanes(lanes({rhs}) * {literal(math.log(float(text(base))))})"
            if op == "^":
                return f"pow_lanes(lanes({lhs}), lanes({rhs}))"
            if op in _COMPARISONS:
                return f"(lanes({lhs}) {op} {rhs})"
            if op in ("&&", "||"):
                return f"(mask_of({lhs}) {'&' if op == '&&' else '|'} mask_of({rhs}))"
            return f"({lhs} {op} {rhs})"
        if k == "FunctionCall":
            function = text(parts[0])
            if function not in _FUNCTIONS:
                raise self.refuse(
                    f"the call of {function} (a FUNCTION not inlined, or one NMODL does not define)",
                    rf"\b{function}\s*\(",
                )
            args = ", ".join(f"lanes({self.expression(a)})" for a in parts[1:])
            return f"{_FUNCTIONS[function]}({args})"
        raise self.refuse(f"the expression {k}", r"^\s*BREAKPOINT")

    # Statements
    def emit(self, line: str, depth: int) -> None:
        self.lines.append("  " * depth + line)

    def statements_of(self, nodes: list[Node], mask: str, depth: int) -> None:
        self.locals.append(set())
        for node in nodes:
            self.statement(node, mask, depth)
        self.locals.pop()

    def statement(self, node: Node, mask: str, depth: int) -> None:
        k, parts = kind(node), children(node)
        if k in ("UnitState", "TableStatement", "LineComment", "BlockComment"):
            return
        if k == "ExpressionStatement":
            inner = parts[0]
            if kind(inner) == "StatementBlock":
                self.emit("{", depth)
                self.statements_of(children(inner), mask, depth + 1)
                self.emit("}", depth)
                return
            if kind(inner) == "DiffEqExpression":
                inner = children(inner)[0]
            if kind(inner) == "BinaryExpression" and text(children(inner)[1]) == "=":
                self.assignment(inner, mask, depth)
                return
            if kind(inner) in ("EigenNewtonSolverBlock", "EigenLinearSolverBlock"):
                self.solver_block(inner, mask, depth)
                return
            if kind(inner) == "WrappedExpression" and kind(children(inner)[0]) == "FunctionCall":
                call = text(children(children(inner)[0])[0])
                raise self.refuse(f"the call of {call} (a PROCEDURE NMODL could not inline)", rf"^\s*{call}\s*\(")
            raise self.refuse(f"the statement {to_words(kind(inner))}", r"^\s*BREAKPOINT")
        if k == "LocalListStatement":
            for var in parts:
                name = text(var)
                self.locals[-1].add(name)
                self.emit(f"Lanes nm_{name}{{}};", depth)
            return
        if k == "IfStatement":
            self.if_statement(parts, mask, depth)
            return
        raise self.refuse(f"the statement {to_words(k)}", r"^\s*BREAKPOINT")

    def solver_block(self, node: Node, mask: str, depth: int) -> None:
        """NMODL's solve of implicit ODEs (sparse, derivimplicit: Newton's method on the backward
        Euler step, iterated as NEURON's until no unknown moves by 1e-8) or of a LINEAR block, per
        lane (nmodl_math.hpp)."""
        parts = children(node)
        n = int(float(text(parts[0])))
        blocks = [children(b) for b in parts[1:]]
        newton = kind(node) == "EigenNewtonSolverBlock"
        if newton:
            variables, initialize, setup, functor, update, finalize = blocks
        else:  # the linear system is set up with the unknowns
            variables, initialize, setup, update, finalize = blocks
            functor = []
        self.emit("{", depth)
        self.locals.append(set())
        self.emit(f"Lanes solver_x[{n}]{{}}, solver_f[{n}]{{}}, solver_j[{n * n}]{{}};", depth + 1)
        for statement in variables + initialize + setup:
            self.statement(statement, mask, depth + 1)
        if newton:
            self.emit(f"LaneBits iterating = {mask or 'kEveryLane'};", depth + 1)
            self.emit(
                "for (int iteration = 0; iteration < kNewtonIterations && any_lane(iterating); ++iteration) {",
                depth + 1,
            )
            for statement in functor:
                self.statement(statement, mask, depth + 2)
            self.emit(f"newton_step<{n}>(solver_x, solver_f, solver_j, iterating);", depth + 2)
            self.emit("}", depth + 1)
        else:
            self.emit(f"linear_solve<{n}>(solver_x, solver_f, solver_j);", depth + 1)
        for statement in update + finalize:
            self.statement(statement, mask, depth + 1)
        self.locals.pop()
        self.emit("}", depth)

    def assignment(self, node: Node, mask: str, depth: int) -> None:
        target_node, _, value_node = children(node)
        if kind(children(target_node)[0]) == "IndexedName":  # a solver array's element
            self.store(self.indexed(children(target_node)[0]), value_node, mask, depth)
            return
        target = text(target_node)
        # v is the kernel's copy (NEURON's too): a PROCEDURE may shift it, the membrane keeps its own
        if target in BUILTIN_NAMES - {"v"} or target in self.m.constants:
            raise self.refuse(f"an assignment to {target}", rf"^\s*{target}\s*=")
        if not any(target in scope for scope in self.locals):
            self.assigned.add(target)
        self.store(self.name(target), value_node, mask, depth)

    def store(self, lhs: str, value_node: Node, mask: str, depth: int) -> None:
        """lhs = the value, in the lanes of mask alone where one is given."""
        value = f"lanes({self.expression(value_node)})"
        self.emit(f"{lhs} = {value};" if mask == "" else f"{lhs} = {mask} ? {value} : {lhs};", depth)

    def if_statement(self, parts: list[Node], mask: str, depth: int) -> None:
        # the masks of IF, each ELSE IF and ELSE: where each holds and none before it did
        self.emit("{", depth)
        depth += 1
        rest = mask or "kEveryLane"
        condition, block, *others = parts
        branches: list[tuple[Node | None, Node]] = [(condition, block)]
        for other in others:
            inner = children(other)
            branches.append((inner[0], inner[1]) if kind(other) == "ElseIfStatement" else (None, inner[0]))
        for i, (cond, body) in enumerate(branches):
            here = f"taken_{depth}_{i}"
            if cond is None:
                self.emit(f"const LaneBits {here} = {rest};", depth)
            else:
                self.emit(f"const LaneBits {here} = {rest} & mask_of({self.expression(cond)});", depth)
                self.emit(f"const LaneBits left_{depth}_{i} = {rest} & ~{here};", depth)
            self.emit("{", depth)
            self.statements_of(children(body), here, depth + 1)
            self.emit("}", depth)
            rest = f"left_{depth}_{i}"
        self.emit("}", depth - 1)

    # Loads and stores around the statements
    def body(self, depth: int, mask: str = "", arguments: dict[str, str] | None = None) -> list[str]:
        """Loads, the statements, stores: the code for instance k at v, changing the lanes of
        mask alone where one is given; arguments are locals given as C++ expressions."""
        self.lines = []
        self.locals = [set(arguments or {})]
        for name, value in (arguments or {}).items():
            self.emit(f"const Lanes nm_{name} = {value};", depth)
        names = self.used_names()
        m = self.m
        for i, name in enumerate(m.fields):
            if name in names:
                self.emit(f"Lanes nm_{name} = b.values[{i} * b.n + k];", depth)
        for name in sorted(names | (set(m.currents) if self.phase == "current" else set())):
            if name in m.fields:
                continue
            place = m.ion_of(name)
            if name in m.currents and self.phase == "current":
                self.emit(f"Lanes nm_{name}{{}};", depth)
            elif place:
                index, which = place
                self.emit(f"Lanes nm_{name} = b.ions[{index}].{which}[node];", depth)
            elif name in m.nonspecific:
                self.emit(f"Lanes nm_{name}{{}};", depth)
        self.statements_of(self.statements, mask, depth)
        for i, name in enumerate(m.fields):
            if name in self.assigned:
                self.emit(f"b.values[{i} * b.n + k] = nm_{name};", depth)
        for ion_index, ion in enumerate(m.ions):
            for name in sorted(self.assigned & ion.writes):
                which = ion.variables()[name]
                if which in ("inside", "outside"):
                    self.emit(f"b.ions[{ion_index}].{which}[node] = nm_{name};", depth)
        return self.lines


def net_receive_function(m: Mechanism) -> list[str]:
    """NET_RECEIVE for one event on instance k, in the lanes of `lane` (once per event: not
    cloned)."""
    out = ["  void net_receive(const MechanismBlock& b, size_t k, LaneBits lane, double weight) const override {"]
    out.append("    const uint32_t node = b.node[k];")
    out.append("    Lanes v = b.v[node];")
    out += Kernel(m, m.net_receive, "net_receive").body(2, "lane", {m.weight: "lanes(weight)"})
    out.append("  }")
    return out


def kernel_function(m: Mechanism, phase: str) -> list[str]:
    """One of the three kernels as a static member, cloned per instruction set."""
    out = [f"  RANVIER_SIMD_CLONES static void {phase}_lanes(const MechanismBlock& b) {{"]
    out.append("    for (size_t k = 0; k < b.n; ++k) {")
    out.append("      const uint32_t node = b.node[k];")
    if phase == "current":
        currents = " + ".join(f"nm_{c}" for c in m.currents) or "Lanes{}"
        # di/dv: the currents' conductances where NMODL found each (its CONDUCTANCE hints), else
        # from the currents at v + 0.001 mV as NEURON takes it (a second BREAKPOINT)
        analytic = bool(m.currents) and all(c in m.conductances for c in m.currents)
        if not analytic:
            out.append("      Lanes i_shifted;")
            out.append("      {")
            out.append("        Lanes v = b.v[node] + 0.001;")
            out += Kernel(m, m.breakpoint, phase).body(4)
            out.append(f"        i_shifted = {currents};")
            out.append("      }")
        out.append("      Lanes v = b.v[node];")
        out += Kernel(m, m.breakpoint, phase).body(3)
        out.append(f"      const Lanes i = {currents};")
        for index, ion in enumerate(m.ions):
            if f"i{ion.name}" in ion.writes:
                out.append(f"      b.ions[{index}].current[node] += nm_i{ion.name};")
        out.append("      b.rhs[node * b.stride] -= i * b.to_nA[k];")
        if analytic:
            conductance = " + ".join(f"nm_{m.conductances[c]}" for c in m.currents)
            out.append(f"      b.d[node * b.stride] += ({conductance}) * b.to_nA[k];")
        else:
            out.append("      b.d[node * b.stride] += (i_shifted - i) / 0.001 * b.to_nA[k];")
    else:
        out.append("      Lanes v = b.v[node];")
        out += Kernel(m, m.initial if phase == "initialize" else m.solve, phase).body(3)
    out += ["    }", "  }"]
    return out


def mechanism_class(m: Mechanism) -> str:
    parameters = ", ".join(f'{{"{n}", {literal(d)}, "{u}"}}' for n, d, u in m.parameters)
    ions = ", ".join(
        f'{{"{ion.name}", {literal(ion.valence)}, {str(f"{ion.name}i" in ion.writes).lower()}, '
        f"{str(f'{ion.name}o' in ion.writes).lower()}}}"
        for ion in m.ions
    )
    lines = [
        f"// {m.name}, from {m.path.name}",
        f"struct Mechanism_{m.name} final : MechanismKind {{",
        "  const MechanismDeclaration& declaration() const override {",
        f'    static const MechanismDeclaration declared{{"{m.name}", {str(m.point).lower()}, {{{parameters}}}, '
        f"{len(m.fields)}, {{{ions}}}}};",
        "    return declared;",
        "  }",
    ]
    for phase in ("initialize", "current", "advance"):
        lines.append(f"  void {phase}(const MechanismBlock& b) const override {{ {phase}_lanes(b); }}")
    if m.point:
        lines += net_receive_function(m)
    for phase in ("initialize", "current", "advance"):
        lines += kernel_function(m, phase)
    lines += ["};", f"const Mechanism_{m.name} mechanism_{m.name};", ""]
    return "\n".join(lines)


def catalogue_source(mechanisms: list[Mechanism]) -> str:
    names = ", ".join(f"&mechanism_{m.name}" for m in mechanisms)
    classes = "\n".join(mechanism_class(m) for m in mechanisms)
    return f"""// Generated by ranvier.nmodl from {", ".join(m.path.name for m in mechanisms)}: do not edit.
#include <cstddef>
#include <cstdint>
#include <limits>

#include "cable/nmodl_math.hpp"
#include "plugin/module.hpp"

namespace {{
using namespace ranvier::cable;

{classes}
}}  // namespace

RANVIER_CATALOGUE({names})
"""


def to_words(node_kind: str) -> str:
    return "".join(f" {c.lower()}" if c.isupper() else c for c in node_kind).strip()
