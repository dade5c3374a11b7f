"""Raster plots of spikes with PyNEST's signatures: ``from_device(spike_recorder)``,
``from_file(names)`` (NEST's ASCII files) and ``from_data(array of (sender, time) rows)``;
with ``hist=True`` (the default) a population rate histogram below the raster. Each returns
the raster's matplotlib lines, as PyNEST 3.10 does."""

from collections.abc import Collection, Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .errors import BadParameterError, RanvierError
from .nodes import NodeCollection
from .recording_files import read_events

__all__ = ["extract_events", "from_data", "from_device", "from_file"]


def extract_events(
    data: Sequence[Any] | np.ndarray, time: Sequence[float] | None = None, sel: Collection[int] | None = None
) -> np.ndarray:
    """The rows of `data` (sender, time) with t_min <= time < t_max (``time=[t_max]`` or
    ``[t_min, t_max]``) and sender in `sel`."""
    data = np.asarray(data, dtype=float).reshape(-1, 2) if len(data) else np.empty((0, 2))
    keep = np.ones(len(data), dtype=bool)
    if time:
        t_min, t_max = (time[0], time[-1]) if len(time) > 1 else (0.0, time[-1])
        keep &= (data[:, 1] >= t_min) & (data[:, 1] < t_max)
    if sel is not None and len(sel):
        keep &= np.isin(data[:, 0], np.asarray(list(sel), dtype=float))
    return data[keep]


def from_data(data: ArrayLike, sel: Collection[int] | None = None, **kwargs: Any) -> Any:
    """A raster of `data`, rows of (sender, time); `sel` picks senders."""
    data = np.asarray(data, dtype=float)
    if data.ndim != 2 or data.shape[1] < 2:
        raise BadParameterError(f"data must have rows of (sender, time), got shape {data.shape}")
    chosen = extract_events(data[:, :2], sel=sel)
    return _make_plot(data[:, 1], chosen[:, 1], chosen[:, 0], data[:, 0], **kwargs)


def from_file(fname: str | Iterable[str], **kwargs: Any) -> Any:
    """A raster of one NEST ASCII file or the concatenation of several (or of a table of sender
    and time without a header, as PyNEST reads)."""
    names = [fname] if isinstance(fname, str) else list(fname)
    if not names:
        raise BadParameterError("fname must name at least one file")
    events = read_events(names, plain=("sender", "time_ms"))
    if "time_step" in events:
        kwargs.setdefault("xlabel", "Steps")
        times = events["time_step"].astype(float)
    else:
        times = events["time_ms"]
    return from_data(np.column_stack([events["sender"], times]), **kwargs)


# PyNEST reads the files with numpy or with pandas; both give the same raster.
from_file_numpy = from_file_pandas = from_file


def from_device(detec: NodeCollection, **kwargs: Any) -> Any:
    """A raster of what a spike_recorder recorded (in memory or in its ASCII files)."""
    if len(detec) != 1 or detec.get("model") != "spike_recorder":
        raise RanvierError("Please provide a single spike_recorder.")
    record_to = detec.get("record_to")
    if record_to == "memory":
        events = detec.get("events")
        if not len(events["times"]):
            raise RanvierError("No events recorded!")
        kwargs.setdefault("title", f"Raster plot from device '{detec.global_id}'")
        kwargs.setdefault("xlabel", "Steps" if detec.get("time_in_steps") else "Time (ms)")
        times, senders = np.asarray(events["times"], dtype=float), events["senders"]
        return _make_plot(times, times, senders, senders, **kwargs)
    if record_to == "ascii":
        return from_file(detec.get("filenames"), **kwargs)
    raise RanvierError("No data to plot. Make sure that record_to is set to either 'ascii' or 'memory'.")


def _make_plot(ts, ts1, node_ids, neurons, hist=True, hist_binwidth=5.0, grayscale=False, title=None, xlabel=None):
    """Draws on a new figure as NEST 3.10 does and returns the raster's lines. The histogram
    has bins from the first spike on, each drawn centred on its start, the last one open."""
    import matplotlib.pyplot as plt

    marker, bar_color = (".k", "gray") if grayscale else (".", "blue")
    xlabel = xlabel or "Time (ms)"
    fig = plt.figure()
    if not hist:
        raster = fig.add_subplot()
        lines = raster.plot(ts1, node_ids, marker)
        raster.set_xlabel(xlabel)
        raster.set_ylabel("Neuron ID")
        raster.set_title(title or "Raster plot")
        return lines
    raster = fig.add_axes((0.1, 0.3, 0.85, 0.6))
    lines = raster.plot(ts1, node_ids, marker)
    raster.set_ylabel("Neuron ID")
    raster.set_xticks([])
    raster.set_title(title or "Raster plot")
    rates = fig.add_axes((0.1, 0.1, 0.85, 0.17), sharex=raster)
    ts = np.asarray(ts, dtype=float)
    starts = np.arange(np.min(ts), np.max(ts), float(hist_binwidth)) if len(ts) else np.zeros(0)
    if not len(starts) and len(ts):
        starts = np.array([np.min(ts)])
    counts = np.diff(np.append(np.searchsorted(np.sort(ts), starts), len(ts)))
    heights = 1000.0 * counts / (hist_binwidth * max(1, len(np.unique(neurons))))
    rates.bar(starts, heights, width=hist_binwidth, color=bar_color, edgecolor="black")
    rates.set_ylabel("Rate (spks/s)")
    rates.set_xlabel(xlabel)
    plt.sca(raster)
    return lines
