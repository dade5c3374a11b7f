"""Which SONATA node population a node belongs to, and its node id there (0-based): the
populations of a SonataNetwork by their names; each other Create call is a population of its
own, named ``<model>_<k>`` for the k-th Create call of that model (from 0), with node ids
0-based within the call."""

import numpy as np

from .. import _state


def register(first_gid: int, population: str, first_node_id: int) -> None:
    """The Create call starting at first_gid holds a SONATA population's nodes from first_node_id on."""
    _state.state.populations[int(first_gid)] = (population, int(first_node_id))


def _call_names() -> list[tuple[str, int]]:
    """(population, node id of the first node) of each Create call."""
    s = _state.state
    seen: dict[str, int] = {}
    out = []
    for first, model in zip(s.range_starts, s.range_models):
        if first in s.populations:
            out.append(s.populations[first])
            continue
        k = seen.get(model.name, 0)
        seen[model.name] = k + 1
        out.append((f"{model.name}_{k}", 0))
    return out


def of(gids: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(population names, the population of each gid as an index into them, its node id)."""
    s = _state.state
    calls = _call_names()
    names = list(dict.fromkeys(n for n, _ in calls))
    call = s.range_index(gids)
    starts = np.asarray(s.range_starts, dtype=np.int64)
    first_ids = np.asarray([first for _, first in calls], dtype=np.int64)
    population = np.asarray([names.index(n) for n, _ in calls], dtype=np.int64)[call]
    return names, population, np.asarray(gids, dtype=np.int64) - starts[call] + first_ids[call]
