"""What a .mod file declares, read from its AST (frontend.parse): the mechanism's name and kind,
parameters with defaults and units, states, assigned values, ions and currents, unit constants,
and the statements of INITIAL, BREAKPOINT and the block its SOLVE names. Constructs Ranvier
does not support are refused here, each with the file, line and construct."""

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .frontend import NmodlError, line_of

Node = dict[str, Any]

# Values NEURON's units library gives the factors .mod files define (NEURON 9: CODATA 2018).
_FACTORS = {
    ("faraday", "coulomb"): 96485.33212331001,
    ("faraday", "coulombs"): 96485.33212331001,
    ("faraday", "kilocoulombs"): 96.48533212331001,
    ("k-mole", "joule/degc"): 8.31446261815324,
    ("k-mole", "joule/degk"): 8.31446261815324,
    ("pi", "1"): math.pi,
}
# Valences NEURON knows without a VALENCE statement.
_VALENCES = {"na": 1.0, "k": 1.0, "ca": 2.0}
# Names every kernel knows.
BUILTIN_NAMES = {"v", "celsius", "dt", "t"}


def kind(node: Node) -> str:
    return next(iter(node))


def children(node: Node) -> list[Node]:
    value = node[kind(node)]
    return value if isinstance(value, list) else []


def text(node: Node) -> str:
    """The text of a leaf or of the first leaf below a node (a Name's String)."""
    while "name" not in node:
        node = children(node)[0]
    return str(node["name"])


def number(node: Node) -> float:
    """A Double, Integer or negated one (a parameter's default)."""
    if kind(node) == "UnaryExpression":
        return -number(children(node)[1])
    return float(text(node))


@dataclass
class Ion:
    name: str
    valence: float
    reads: set[str] = field(default_factory=set)
    writes: set[str] = field(default_factory=set)

    def variables(self) -> dict[str, str]:
        """The ion's variable names in a .mod file, and which of its values each is."""
        n = self.name
        return {f"e{n}": "e", f"i{n}": "current", f"{n}i": "inside", f"{n}o": "outside"}


@dataclass
class Mechanism:
    path: Path
    name: str = ""
    parameters: list[tuple[str, float, str]] = field(default_factory=list)  # name, default, unit
    states: list[str] = field(default_factory=list)
    assigned: list[str] = field(default_factory=list)
    ions: list[Ion] = field(default_factory=list)
    nonspecific: list[str] = field(default_factory=list)
    constants: dict[str, float] = field(default_factory=dict)
    point: bool = False  # a POINT_PROCESS (a synapse), else a density mechanism (SUFFIX)
    # NMODL's CONDUCTANCE hints: per current linear in v, the variable that is its di/dv
    conductances: dict[str, str] = field(default_factory=dict)
    weight: str = ""  # NET_RECEIVE's argument
    net_receive: list[Node] = field(default_factory=list)
    initial: list[Node] = field(default_factory=list)
    breakpoint: list[Node] = field(default_factory=list)  # BREAKPOINT without its SOLVE
    solve: list[Node] = field(default_factory=list)  # the solved block SOLVE names

    def ion_of(self, variable: str) -> tuple[int, str] | None:
        """(index of the ion, which value) for an ion variable the mechanism uses, else None."""
        for i, ion in enumerate(self.ions):
            which = ion.variables().get(variable)
            if which and variable in ion.reads | ion.writes:
                return i, which
        return None

    @property
    def currents(self) -> list[str]:
        """The currents the mechanism contributes: ion currents it writes, then nonspecific ones."""
        return [f"i{ion.name}" for ion in self.ions if f"i{ion.name}" in ion.writes] + self.nonspecific

    @property
    def fields(self) -> list[str]:
        """Per-instance values, parameters first (the kernel's declaration orders them so)."""
        return [p[0] for p in self.parameters] + self.states + self.assigned


class Reader:
    def __init__(self, path: Path, program: Node):
        self.source = path.read_text()
        self.mechanism = Mechanism(path)
        self.blocks = children(program)

    def refuse(self, construct: str, pattern: str, why: str = "is not supported") -> NmodlError:
        line = line_of(self.source, pattern)
        return NmodlError(f"{self.mechanism.path}:{line}: {construct} {why}")

    def read(self) -> Mechanism:
        unsupported = {
            "Verbatim": ("VERBATIM", r"^\s*VERBATIM"),
            "NonLinearBlock": ("NONLINEAR", r"^\s*NONLINEAR"),
            "FunctionTableBlock": ("FUNCTION_TABLE", r"FUNCTION_TABLE"),
            "Include": ("INCLUDE", r"^\s*INCLUDE"),
            "DiscreteBlock": ("DISCRETE", r"^\s*DISCRETE"),
            "PartialBlock": ("PARTIAL", r"^\s*PARTIAL"),
            "BeforeBlock": ("BEFORE", r"^\s*BEFORE"),
            "AfterBlock": ("AFTER", r"^\s*AFTER"),
            "ConstructorBlock": ("CONSTRUCTOR", r"^\s*CONSTRUCTOR"),
            "DestructorBlock": ("DESTRUCTOR", r"^\s*DESTRUCTOR"),
        }
        by_kind: dict[str, list[Node]] = {}
        for block in self.blocks:
            k = kind(block)
            if k in unsupported:
                raise self.refuse(*unsupported[k])
            by_kind.setdefault(k, []).append(block)
        for block in by_kind.get("NeuronBlock", []):
            self.neuron_block(block)
        if not self.mechanism.name:
            raise self.refuse(
                "a mechanism without SUFFIX or POINT_PROCESS", r"^\s*NEURON", "cannot be used (it names nothing)"
            )
        for block in by_kind.get("NetReceiveBlock", []):
            self.net_receive_block(block)
        for block in by_kind.get("UnitBlock", []):
            self.unit_block(block)
        for block in by_kind.get("ConstantBlock", []):
            for c in children(block):
                self.mechanism.constants[text(c)] = number(children(c)[1])
        for block in by_kind.get("ParamBlock", []):
            self.parameters(block)
        for block in by_kind.get("StateBlock", []):  # a concentration state (cai) is the ion's
            self.mechanism.states += [text(c) for c in children(block) if not self.is_ion_variable(text(c))]
        for block in by_kind.get("AssignedBlock", []):
            self.assigned(block)
        self.code_blocks(by_kind)
        return self.mechanism

    def neuron_block(self, block: Node) -> None:
        m = self.mechanism
        for statement in children(children(block)[0]):
            k = kind(statement)
            if k == "Suffix":
                keyword, name = (text(c) for c in children(statement))
                if keyword not in ("SUFFIX", "POINT_PROCESS"):
                    raise self.refuse(keyword, rf"\b{keyword}\b", "(a cell of its own) is not supported")
                m.name, m.point = name, keyword == "POINT_PROCESS"
            elif k == "Useion":
                self.useion(statement)
            elif k == "Nonspecific":
                m.nonspecific += [text(c) for c in children(statement)]
            elif k in ("ElectrodeCurrent", "Pointer", "BbcorePointer", "RandomVarList", "External"):
                keyword = {"ElectrodeCurrent": "ELECTRODE_CURRENT", "BbcorePointer": "BBCOREPOINTER"}.get(k, k.upper())
                keyword = {"RandomVarList": "RANDOM"}.get(k, keyword)
                raise self.refuse(keyword, rf"\b{keyword}\b")

    def net_receive_block(self, block: Node) -> None:
        m = self.mechanism
        if not m.point:
            raise self.refuse("NET_RECEIVE in a density mechanism", r"^\s*NET_RECEIVE", "takes no events")
        *arguments, body = children(block)
        if len(arguments) != 1:
            raise self.refuse(
                f"NET_RECEIVE with {len(arguments)} arguments",
                r"^\s*NET_RECEIVE",
                "is not supported (the weight alone is: no per-connection state)",
            )
        m.weight, m.net_receive = text(arguments[0]), children(body)

    def useion(self, statement: Node) -> None:
        parts = children(statement)
        name = text(parts[0])
        valence = _VALENCES.get(name)
        ion = Ion(name, 0.0)
        for part in parts[1:]:
            if kind(part) == "ReadIonVar":
                ion.reads.add(text(part))
            elif kind(part) == "WriteIonVar":
                ion.writes.add(text(part))
            elif kind(part) == "Valence":
                valence = number(children(part)[1])
        if valence is None:
            raise self.refuse(
                f"USEION {name} without VALENCE", rf"USEION\s+{name}\b", "needs one (NEURON knows na, k, ca)"
            )
        ion.valence = valence
        for variable in ion.writes:
            if ion.variables().get(variable) == "e":
                raise self.refuse(
                    f"WRITE {variable}",
                    rf"WRITE[^\n]*\b{variable}\b",
                    "(a written reversal potential) is not supported",
                )
        self.mechanism.ions.append(ion)

    def unit_block(self, block: Node) -> None:
        for definition in children(block):
            if kind(definition) != "FactorDef":
                continue
            parts = children(definition)
            name, units = text(parts[0]), [text(p).lower() for p in parts[1:] if kind(p) == "Unit"]
            numbers = [p for p in parts[1:] if kind(p) in ("Double", "Integer")]
            if numbers:
                self.mechanism.constants[name] = number(numbers[0])
            elif tuple(units) in _FACTORS:
                self.mechanism.constants[name] = _FACTORS[tuple(units)]  # type: ignore[index]
            else:
                raise self.refuse(
                    f"the unit factor {name} = ({') ('.join(units)})", rf"\b{name}\s*=", "is not one Ranvier knows"
                )

    def is_ion_variable(self, name: str) -> bool:
        return any(name in ion.variables() for ion in self.mechanism.ions)

    def parameters(self, block: Node) -> None:
        for assign in children(block):
            parts = children(assign)
            name = text(parts[0])
            if name in BUILTIN_NAMES or self.is_ion_variable(name):
                continue
            values = [p for p in parts[1:] if kind(p) in ("Double", "Integer", "UnaryExpression")]
            units = [text(p) for p in parts[1:] if kind(p) == "Unit"]
            self.mechanism.parameters.append((name, number(values[0]) if values else 0.0, units[0] if units else ""))

    def assigned(self, block: Node) -> None:
        m = self.mechanism
        for definition in children(block):
            name = text(definition)
            if name in BUILTIN_NAMES or self.is_ion_variable(name) or name in m.nonspecific:
                continue
            if any(kind(c) == "Integer" for c in children(definition)[1:]):  # x[n]
                raise self.refuse(f"the array {name}", rf"\b{name}\s*\[")
            m.assigned.append(name)

    def code_blocks(self, by_kind: dict[str, list[Node]]) -> None:
        m = self.mechanism
        solved: dict[str, list[Node]] = {}
        for block in by_kind.get("DerivativeBlock", []) + by_kind.get("ProcedureBlock", []):
            parts = children(block)
            solved[text(parts[0])] = children(parts[-1])
        linear = {text(children(b)[0]): children(children(b)[-1]) for b in by_kind.get("LinearBlock", [])}
        for block in by_kind.get("InitialBlock", []):
            for statement in children(children(block)[0]):
                target, _ = self.solve_of(statement)
                if target is None:
                    m.initial.append(statement)
                elif target in linear:  # INITIAL's equilibrium from a LINEAR block
                    m.initial += linear[target]
                else:
                    raise self.refuse(
                        f"SOLVE {target} in INITIAL",
                        rf"SOLVE\s+{target}",
                        "is not supported (only of a LINEAR block: STEADYSTATE is not)",
                    )
        for block in by_kind.get("BreakpointBlock", []):
            for statement in children(children(block)[0]):
                target, method = self.solve_of(statement)
                if target is not None:
                    if target not in solved:
                        raise self.refuse(
                            f"SOLVE {target}", rf"SOLVE\s+{target}", "names no DERIVATIVE, KINETIC or PROCEDURE block"
                        )
                    if method not in ("", "cnexp", "sparse", "derivimplicit"):
                        raise self.refuse(
                            f"METHOD {method}",
                            rf"METHOD\s+{method}",
                            "is not supported (cnexp, sparse and derivimplicit are)",
                        )
                    m.solve += solved[target]
                elif kind(statement) == "ConductanceHint":
                    self.conductance(statement)
                elif kind(statement) != "UnitState":
                    m.breakpoint.append(statement)
        for call in ("net_send", "net_event", "net_move"):
            if call in self.called(self.blocks):
                raise self.refuse(
                    call, rf"\b{call}\s*\(", "(self-events and events from a point process) is not supported"
                )
        for statements, where in ((m.initial, "INITIAL"), (m.solve, "the SOLVE's block")):
            if self.contains(statements, "PrimeName"):
                raise self.refuse(
                    f"an ODE in {where} that sympy could not solve explicitly", r"'\s*=", "is not supported (use cnexp)"
                )
            if self.contains(statements, "SolveBlock"):
                raise self.refuse(f"SOLVE in {where}", r"^\s*INITIAL")

    def conductance(self, hint: Node) -> None:
        """A CONDUCTANCE hint: of an ion's current, or without an ion of the one nonspecific
        current (with several, which one is not said: none is taken)."""
        m = self.mechanism
        variable, *ion = (text(part) for part in children(hint))
        if ion:
            m.conductances[f"i{ion[0]}"] = variable
        elif len(m.nonspecific) == 1:
            m.conductances[m.nonspecific[0]] = variable

    def solve_of(self, statement: Node) -> tuple[str | None, str]:
        """(the block a SOLVE statement names, its METHOD or ""), or (None, "") for another statement."""
        inner = children(statement)
        if kind(statement) != "ExpressionStatement" or not inner or kind(inner[0]) != "SolveBlock":
            return None, ""
        parts = children(inner[0])
        return text(parts[0]), text(parts[1]) if len(parts) > 1 and kind(parts[1]) == "Name" else ""

    def called(self, nodes: list[Node]) -> set[str]:
        """The names of the functions called anywhere below nodes."""
        found, stack = set(), list(nodes)
        while stack:
            node = stack.pop()
            if kind(node) == "FunctionCall":
                found.add(text(node))
            stack += children(node)
        return found

    def contains(self, nodes: list[Node], wanted: str) -> bool:
        stack = list(nodes)
        while stack:
            node = stack.pop()
            if kind(node) == wanted:
                return True
            stack += children(node)
        return False


def read_mechanism(path: Path, program: Node) -> Mechanism:
    return Reader(path, program).read()
