"""How the columns of the ranks that saved a checkpoint join into one set for the ranks that
load it: rows concatenate; offsets into ragged columns (``*_at``) shift by the rows before;
the clock is every rank's alike; the spikes several ranks may have received (the last
cycle's, long-range ones waiting for delivery, a first epoch's) are each taken once."""

import numpy as np

RAGGED = {  # offsets column -> the column it points into
    "neuron.vars_at": "neuron.vars",
    "neuron.lists_at": "neuron.lists",
    "neuron.list_state_at": "neuron.list_state",
    "neuron.cell_state_at": "neuron.cell_state",
    "stimulus.state_at": "stimulus.state",
    "element.at": "element.bytes",
}
# Spikes several ranks received (the last cycle's, long-range ones waiting for delivery, a first
# epoch's).
KINDS_RECEIVED = ("received", "long.waiting", "epoch")
RECEIVED = tuple(f"{kind}.{field}" for kind in KINDS_RECEIVED for field in ("gid", "offset", "stamp"))


def _received(ranks: list[dict[str, np.ndarray]], kind: str) -> dict[str, np.ndarray]:
    """A rank receives all of a neuron's spikes of an exchange or none (the exchange routes by
    sender), so each neuron's spikes come from the first rank that holds any: multiplicities
    stay, copies go."""
    names = [f"{kind}.{field}" for field in ("gid", "offset", "stamp")]
    taken: set[int] = set()
    parts: dict[str, list[np.ndarray]] = {k: [] for k in names}
    for columns in ranks:
        gids = columns[f"{kind}.gid"]
        keep = ~np.isin(gids, np.fromiter(taken, dtype=np.int64, count=len(taken)))
        taken.update(np.unique(gids).tolist())
        for k in names:
            parts[k].append(columns[k][keep])
    return {k: np.concatenate(v) for k, v in parts.items()}


def join(ranks: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    names = [
        k for k in ranks[0] if k not in RECEIVED and k != "kernel.clock" and not k.startswith(("events.", "segments."))
    ]
    out = {"kernel.clock": ranks[0]["kernel.clock"]}
    for kind in KINDS_RECEIVED:
        out.update(_received(ranks, kind))
    for name in names:
        if name in RAGGED:
            shifted, rows = [np.zeros(1, dtype=np.int64)], 0
            for columns in ranks:
                shifted.append(columns[name][1:] + rows)
                rows += len(columns[RAGGED[name]])
            out[name] = np.concatenate(shifted)
        else:
            out[name] = np.concatenate([columns[name] for columns in ranks])
    return out
