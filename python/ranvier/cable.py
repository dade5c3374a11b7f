"""Cable cells: Create("cable_cell", n, params=description) with a description dictionary in
NEURON's units (docs/cable.md), and their synapses as receptor_type names in Connect. The kernel
reads and checks the description; Python keeps each Create call's cell kind for the names, and
draws random parameters in it into one value per cell."""

from typing import Any

import numpy as np

from . import _kernel, _state
from ._state import Model
from .errors import BadParameterError, kernel_errors
from .nodes import NodeCollection
from .parameter_arithmetic import Expression
from .random import Parameter

# Keys whose values set the tree and its CVs, the same for all cells of a Create call.
_STRUCTURE = ("morphology", "cv_policy", "dt")


def _per_cell(value, gids, where=""):
    """The description with every random Parameter (or expression) drawn into a list with one
    value per cell, keyed by node id as for point neurons (the same for any processes and
    threads), and numpy arrays as lists: the kernel reads a list in a scalar's place as one
    value per cell. `where` is the top-level key the value is under."""
    if isinstance(value, Parameter):
        if where in _STRUCTURE:
            raise BadParameterError(
                f"{where} cannot differ between cells (it sets the tree or its CVs): give numbers "
                f"(one Create call per value), got the random parameter {value!r}"
            )
        if isinstance(value, Expression):
            return value.node_values(gids).tolist()
        with kernel_errors():
            return _state.state.kernel.draw_node_values(value.spec(), gids).tolist()
    if isinstance(value, dict):
        return {key: _per_cell(v, gids, where or key) for key, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_per_cell(v, gids, where) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def create(model: Model, n: int, params: Any, area_id: int) -> NodeCollection:
    """n cable cells of the description `params` (Create checked n and the area); without
    one, NEURON's default section (the kernel's)."""
    params = {} if params is None else params
    if not isinstance(params, dict):
        raise BadParameterError(
            f"cable_cell takes a cell description (morphology, mechanisms, synapses, ...), got params = {params!r}"
        )
    s = _state.state
    gids = np.arange(s.n_nodes + 1, s.n_nodes + 1 + n, dtype=np.uint32)  # the ids Create gives them
    params = _per_cell(params, gids)
    with kernel_errors():
        kind = _kernel.cable_kind(params, n)
        first = _kernel.create_cable_cells(s.kernel, kind, n, area_id)
    assert first == gids[0], "cable cells got other ids than their parameters were drawn for"
    s.add_range(first, n, model)
    s.cell_kinds[first], s.cell_descriptions[first] = kind, params
    return NodeCollection._ascending(range(first, first + n))


def mechanisms() -> dict[str, dict[str, dict[str, float]]]:
    """The mechanisms a description may name, each with its parameters and NEURON's defaults:
    {"density": {"hh": {...}, "pas": {...}}, "synapse": {"expsyn": {...}, "exp2syn": {...}}}."""
    density, synapse = _kernel.cable_mechanisms()
    return {"density": density, "synapse": synapse}


def branches(description: dict[str, Any]) -> list[dict[str, Any]]:
    """The branches of a cable cell description as Ranvier reads and discretises it (an SWC file's
    tree, the CVs of the cv_policy): a list of dicts with name, parent (index, -1 for the root),
    parent_x, length and diameter (µm; (proximal, distal) of a tapered branch) and n_cv. Only
    what sets them is read, so per-cell values elsewhere do not matter."""
    if not isinstance(description, dict):
        raise BadParameterError(f"branches needs a cell description (a dict), got {description!r}")
    structure = {key: value for key, value in description.items() if key in _STRUCTURE}
    if "d_lambda" in description.get("cv_policy", {}):  # the CVs depend on Ra and cm too
        structure.update({key: description[key] for key in ("Ra", "cm") if key in description})
    with kernel_errors():
        return _kernel.cable_kind(_per_cell(structure, np.zeros(0, dtype=np.uint32)), 1).branches


def port_of(post: NodeCollection, name: str) -> int:
    """The input port of synapse `name` on every cell of post (one port for all of them)."""
    s = _state.state
    ports = set()
    for i in np.unique(s.range_index(post._gids)):
        first = s.range_starts[i]
        kind = s.cell_kinds.get(first)
        if kind is None:
            raise BadParameterError(
                f"receptor_type {name!r} names a synapse of cable cells, but node {first} is a {s.range_models[i].name}"
            )
        if name not in kind.synapse_names:
            raise BadParameterError(
                f"receptor_type: the cable cells from node {first} have no synapse named {name!r} "
                f"(they have {', '.join(kind.synapse_names) or 'none'})"
            )
        ports.add(kind.synapse_names.index(name))
    if len(ports) > 1:
        raise BadParameterError(
            f"receptor_type {name!r} is a different port on different cells of post; "
            "connect each kind of cell on its own"
        )
    return ports.pop()
