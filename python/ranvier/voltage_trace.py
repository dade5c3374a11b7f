"""Membrane potential traces with PyNEST's signatures: ``from_device(voltmeter or multimeter)``
and ``from_file(names)``; one line per recorded neuron, returned as PyNEST 3.10 returns them
(a list with the lines of each neuron's plot call)."""

from collections.abc import Iterable
from typing import Any

import numpy as np

from .errors import BadParameterError, RanvierError
from .nodes import NodeCollection
from .recording_files import read_events

__all__ = ["from_device", "from_file"]

_TIME_FACTOR = {"ms": 1.0, "s": 1000.0}


def from_file(fname: str | Iterable[str], title: str | None = None, grayscale: bool = False) -> Any:
    """Traces of the V_m column of one NEST ASCII file, or several concatenated (or of a table of
    sender, time and V_m without a header, as PyNEST reads)."""
    names = [fname] if isinstance(fname, str) else list(fname)
    events = read_events(names, plain=("sender", "time_ms", "V_m"))
    if "V_m" not in events:
        raise BadParameterError(f"the files {names} have no V_m column")
    times = events["time_step"].astype(float) if "time_step" in events else events["time_ms"]
    return _plot(events["sender"], times, events["V_m"], None, title, grayscale, "Time (ms)")


def from_device(
    detec: NodeCollection,
    neurons: NodeCollection | Iterable[int] | None = None,
    title: str | None = None,
    grayscale: bool = False,
    timeunit: str = "ms",
) -> Any:
    """Traces of V_m as a voltmeter or multimeter recorded it in memory."""
    if len(detec) != 1 or detec.get("model") not in ("voltmeter", "multimeter"):
        raise RanvierError("Please provide a single voltmeter or multimeter.")
    if timeunit not in _TIME_FACTOR:
        raise BadParameterError(f"timeunit must be 'ms' or 's', got timeunit = {timeunit!r}")
    if detec.get("record_to") != "memory":
        return from_file(detec.get("filenames"), title, grayscale)
    if "V_m" not in detec.get("record_from"):
        raise RanvierError("The recorder does not record V_m.")
    events = detec.get("events")
    if not len(events["times"]):
        raise RanvierError("No events recorded!")
    times = np.asarray(events["times"], dtype=float) / _TIME_FACTOR[timeunit]
    return _plot(events["senders"], times, events["V_m"], neurons, title, grayscale, f"Time ({timeunit})")


def _plot(senders, times, values, neurons, title, grayscale, xlabel):
    import matplotlib.pyplot as plt

    wanted = np.unique(senders) if neurons is None else np.asarray(neurons, dtype=np.int64).ravel()
    lines = []
    ax = plt.gca()
    for node in wanted:
        mine = senders == node
        style: dict[str, Any] = {"color": "k"} if grayscale else {}
        lines.append(ax.plot(times[mine], values[mine], label=f"Neuron {node}", **style))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("Membrane potential (mV)")
    ax.set_title(title or "Membrane potential")
    if len(wanted) > 1:
        ax.legend(loc="best")
    return lines
