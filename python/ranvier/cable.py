"""Cable cells: Create("cable_cell", n, params=description) with a description dictionary in
NEURON's units (docs/cable.md), and their synapses as receptor_type names in Connect. The kernel
reads and checks the description; Python keeps each Create call's cell kind for the names."""
import numpy as np

from . import _kernel, _state
from .errors import BadParameterError, kernel_errors


def create(model, n, params, area_id):
    """n cable cells of the description `params` (Create checked n and the area)."""
    from .nodes import NodeCollection

    if not isinstance(params, dict):
        raise BadParameterError("cable_cell needs params: a cell description (morphology, mechanisms, synapses, ...), "
                                f"got params = {params!r}")
    s = _state.state
    with kernel_errors():
        kind = _kernel.cable_kind(params, n)
        first = _kernel.create_cable_cells(s.kernel, kind, n, area_id)
    s.add_range(first, n, model)
    s.cell_kinds[first] = kind
    return NodeCollection._ascending(np.arange(first, first + n, dtype=np.uint32))


def mechanisms():
    """The mechanisms a description may name, each with its parameters and NEURON's defaults:
    {"density": {"hh": {...}, "pas": {...}}, "synapse": {"expsyn": {...}, "exp2syn": {...}}}."""
    density, synapse = _kernel.cable_mechanisms()
    return {"density": density, "synapse": synapse}


def branches(description):
    """The branches of a cable cell description as Ranvier reads and discretises it (an SWC file's
    tree, the CVs of the cv_policy): a list of dicts with name, parent (index, -1 for the root),
    parent_x, length and diameter (µm) and n_cv."""
    with kernel_errors():
        return _kernel.cable_kind(description, 1).branches


def port_of(post, name):
    """The input port of synapse `name` on every cell of post (one port for all of them)."""
    s = _state.state
    ports = set()
    for i in np.unique(s.range_index(post._gids)):
        first = s.range_starts[i]
        kind = s.cell_kinds.get(first)
        if kind is None:
            raise BadParameterError(f"receptor_type {name!r} names a synapse of cable cells, but node {first} is a "
                                    f"{s.range_models[i].name}")
        if name not in kind.synapse_names:
            raise BadParameterError(f"receptor_type: the cable cells from node {first} have no synapse named {name!r} "
                                    f"(they have {', '.join(kind.synapse_names) or 'none'})")
        ports.add(kind.synapse_names.index(name))
    if len(ports) > 1:
        raise BadParameterError(f"receptor_type {name!r} is a different port on different cells of post; "
                                "connect each kind of cell on its own")
    return ports.pop()
