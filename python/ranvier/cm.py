"""NEST's compartmental model cm_default: its compartments and receptors, set and read as NEST's
dicts (the kernel keeps them per Create call: models/cm_tree.hpp), NEST's Compartments and
Receptors wrappers (``cm.compartments += {...}``), and the recordables they give."""

from typing import Any

import numpy as np

from . import _kernel, _state
from .errors import kernel_errors

MODELS = set(_kernel.cm_models())
SET = ("compartments", "add_compartments", "receptors", "add_receptors")  # NEST's order of taking them
GET = ("compartments", "receptors")


class _Elements:
    """A node's compartments or receptors as NEST's CmBase: a tuple of dicts that adds dicts,
    lists of dicts or its own kind; ``+=`` adds them to the node (add_compartments)."""

    def __init__(self, node_collection: Any, elements: tuple) -> None:
        if not isinstance(elements, tuple):
            raise TypeError(f"elements must be a tuple of dicts, got {type(elements)}")
        self._elements = elements
        self._node_collection = node_collection

    def _added(self, other: Any) -> list:
        if isinstance(other, dict):
            return [other]
        if isinstance(other, (tuple, list)):
            if not all(isinstance(d, dict) for d in other):
                raise TypeError(f"{type(self).__name__} can only be added with dicts, lists of dicts, or its own kind")
            return list(other)
        if isinstance(other, type(self)):
            return list(other._elements)
        raise NotImplementedError(
            f"{type(self).__name__} can only be added with dicts, lists of dicts, or its own kind"
        )

    def __add__(self, other: Any) -> "_Elements":
        return type(self)(self._node_collection, self._elements + tuple(self._added(other)))

    def __iadd__(self, other: Any) -> None:
        # NEST's: the node gets the new ones, and the attribute assignment that follows sets None (ignored)
        self._node_collection.set({f"add_{type(self).__name__.lower()}": self._added(other)})

    def __getitem__(self, key: Any) -> Any:
        return self._elements[key]

    def __len__(self) -> int:
        return len(self._elements)

    def __str__(self) -> str:
        return str(self._elements)

    def get_tuple(self) -> tuple:
        return self._elements


class Compartments(_Elements):
    pass


class Receptors(_Elements):
    pass


_WRAPPERS = {"compartments": Compartments, "receptors": Receptors}


def split(model: Any, params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the compartments and receptors of params, the others)."""
    if model.base not in MODELS or not any(k in params for k in SET):
        return {}, params
    structure = {}
    for name in SET:
        value = params.get(name)
        if isinstance(value, _Elements):
            value = list(value.get_tuple())
        if value is not None:  # None: += has added them
            structure[name] = value
    return structure, {k: v for k, v in params.items() if k not in SET}


def set_structure(gids: Any, structure: dict[str, Any]) -> None:
    with kernel_errors():
        _kernel.cm_set(_state.state.kernel, np.asarray(gids, dtype=np.uint32), structure)


def _per_call(gids: np.ndarray) -> dict[int, dict[str, Any]]:
    """{gid: its Create call's compartments, receptors and recordables}."""
    s = _state.state
    out: dict[int, dict[str, Any]] = {}
    for call in np.unique(s.range_index(gids)):
        with kernel_errors():
            got = _kernel.cm_get(s.kernel, int(s.range_starts[call]))
        out.update((gid, got) for gid in gids[s.range_index(gids) == call].tolist())
    return out


def get(gids: np.ndarray, name: str) -> dict[int, list[dict[str, Any]]]:
    """{gid: its compartments or receptors}."""
    return {gid: list(got[name]) for gid, got in _per_call(np.asarray(gids)).items()}


def wrapped(nodes: Any, name: str, value: Any) -> Any:
    """What get(name) gives, as NEST's: compartments and receptors in their wrapper (one node's
    list, or the tuple of several nodes' lists), which ``+=`` adds to."""
    if name not in _WRAPPERS or any(m.base not in MODELS for m in _state.state.models_in(nodes._ids)):
        return value
    return _WRAPPERS[name](nodes, tuple(value))


def definition(first: int) -> dict[str, list[dict[str, Any]]]:
    """The compartments and receptors of the Create call from node first, every parameter given
    (what a checkpoint sets again)."""
    with kernel_errors():
        return _kernel.cm_get(_state.state.kernel, first)["definition"]


def node_recordables(gids: np.ndarray) -> dict[int, list[str]]:
    return {gid: list(got["recordables"]) for gid, got in _per_call(np.asarray(gids)).items()}
