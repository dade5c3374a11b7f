"""Where recorders' events go: ``record_to`` "memory" (the ``events`` dict), "ascii" (files
as NEST 3.10's ASCII backend names and writes them) or "screen" (printed).

Files: ``<data_path>/<data_prefix><label or model>-<node id>-<vp>.<file_extension>``, the node
id and vp zero-padded to the digits of the network size and of the number of virtual
processes when ``record_to`` became "ascii", as NEST does. NEST writes one file per thread;
Ranvier writes one file per recorder, named for vp 0 (rank 0 holds every rank's events after
a Simulate, so it writes them all; another rank holds its own). As in NEST 3.10, each Prepare (each
Simulate) opens the files anew: an existing file is an error unless ``overwrite_files``, and
a file holds the events of the Runs since the last Prepare. A Run with ascii recorders goes in
pieces of about a second of wall-clock time (simulation.py); after each, the files get the
new events and are flushed, so a killed run leaves them complete up to its last piece, and
the kernel frees what was written (spikes, weights: a long run's memory stays bounded;
multimeters keep theirs).

Times are the double nearest to the decimal grid time (steps x tics per step / tics per ms,
one correctly rounded division, as NEST's tics give them): 634 steps of 0.1 ms are 63.4 ms.
"""

import math
import os
import sys
from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from . import _state, kernel_ref, kernel_settings
from ._version import __version__
from .errors import BadParameterError, RecordingFileError, kernel_errors
from .python_settings import Settings

ASCII_VERSION = 2  # the header version NEST 3.10's ASCII backend writes


class _Session:
    """What the recorders of the current kernel have written and cleared."""

    owner: kernel_ref.Ref | None = None
    current: "_Session"  # of the current kernel (_session)

    def __init__(self):
        self.cleared = {}  # gid -> number of events dropped by n_events = 0
        self.written = {}  # gid -> number of events written to file or screen
        self.files = {}  # gid -> open file
        self.suffix = {}  # gid -> "-<node id>-<vp>" fixed when record_to became "ascii"
        self.forgotten = {}  # gid -> number of events the kernel freed (a streaming backend wrote them)
        self.simulated = False


def _session():
    if not kernel_ref.is_current(_Session.owner):
        close_all()
        _Session.owner, _Session.current = kernel_ref.current(), _Session()
    return _Session.current


def close_all() -> None:
    """Closes the files of the kernel that is about to go (ResetKernel)."""
    session = getattr(_Session, "current", None)
    if session is not None:
        for f in session.files.values():
            f.close()
        session.files.clear()
    _Session.owner = None


def grid_times(times: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Kernel times (steps x resolution) as steps and as the nearest doubles to grid times."""
    h, tics_per_ms = _state.state.resolution, _state.state.settings["tics_per_ms"]
    steps = np.rint(np.asarray(times) / h).astype(np.int64)
    return steps, steps * round(h * tics_per_ms) / tics_per_ms


_INTEGER_COLUMNS = ("targets", "receptors", "ports", "state")


def _params(gid):
    return _state.state.kernel.device_parameters(int(gid))


def _records(gid):
    """What the recorder records: "spikes", "samples" or "transmissions" (the kernel's registry)."""
    return _state.RECORDS[_state.state.model_of(gid).base]


def _sampled(gid):
    """The names of a sampler's value columns (its record_from); none for other recorders."""
    return list(_params(gid).get("record_from", [])) if _records(gid) == "samples" else []


def kernel_events(gid):
    """The events the kernel holds of a recorder; the first is event number forgotten(gid)."""
    # local: no agreement among ranks, so that reading on some ranks only cannot hang
    return _state.state.kernel.events(int(gid))


def forgotten(gid: int) -> int:
    return _session().forgotten.get(int(gid), 0)


def events_between(gid: int, start: int, stop: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(senders, times, values) of a recorder's events number start..stop-1 (counted from the
    first it recorded; those forgotten are gone)."""
    senders, times, values = kernel_events(gid)
    first = forgotten(gid)
    a, b = max(start - first, 0), max(stop - first, 0)
    return senders[a:b], times[a:b], values[a:b]


def forget(gid: int) -> None:
    """Frees the kernel's copy of a recorder's events so far (a streaming backend wrote them):
    the memory of a long run stays bounded; n_events still counts them."""
    session = _session()
    session.forgotten[int(gid)] = forgotten(gid) + _state.state.kernel.forget_events(int(gid))


def events(gid: int) -> dict[str, np.ndarray]:
    """The ``events`` dict of a recorder: what reached the memory backend since the last
    ``n_events = 0``; empty for the other backends, as in NEST. The samples of the last Run's
    last min_delay slice show after the next Run, as in NEST (see recorded_so_far)."""
    params = _params(gid)
    stop = recorded_so_far(gid)
    start = _session().cleared.get(int(gid), 0) if params.get("record_to", "memory") == "memory" else stop
    senders, times, values = events_between(gid, start, stop)
    steps, ms = grid_times(times)
    out: dict[str, np.ndarray] = {"senders": senders.astype(np.int64)}
    model = _state.state.model_of(gid)
    # precise spike times (cable cells): offsets before the end of the step, as NEST's
    precise = _records(gid) == "spikes" and model.base not in _state.EVENT_COLUMNS and values.shape[1] == 1
    offsets = values[:, 0].copy() if precise else np.zeros(len(steps))
    if params.get("time_in_steps", False):
        out["times"], out["offsets"] = steps, offsets
    else:
        out["times"] = ms - offsets if precise else ms
    out.update(_event_columns(model, values))
    for k, name in enumerate(_sampled(gid)):
        out[name] = values[:, k].copy()
    return out


def _event_columns(model, values):
    """The events' columns beyond senders and times that the recorder's model fixes (a weight
    recorder's, a spin detector's state), from the kernel's values; node ids, receptors, ports
    and states as integers."""
    return {
        name: values[:, k].astype(np.int64) if name in _INTEGER_COLUMNS else values[:, k].copy()
        for k, name in enumerate(_state.EVENT_COLUMNS.get(model.base, ()))
    }


def n_events(gid: int) -> int:
    """NEST's n_events: the events recorded since the last ``n_events = 0``, whatever the
    backend (a script may count the spikes it wrote to files this way)."""
    return recorded_so_far(gid) - _session().cleared.get(int(gid), 0)


def set_n_events(gids: Iterable[int], value: Any) -> None:
    if isinstance(value, bool) or value != 0:
        raise BadParameterError(f"n_events can only be set to 0 (which clears the events), got n_events = {value!r}")
    clear(gids)


def clear(gids: Iterable[int]) -> None:
    """The recorders' events so far are no longer theirs (events and n_events start anew)."""
    session = _session()
    for gid in gids:
        session.cleared[int(gid)] = recorded_so_far(gid)


def simulated() -> bool:
    return _session().simulated


def check_time_in_steps(gids: Iterable[int], value: bool) -> None:
    """As NEST: the time unit of existing recorders cannot change after Simulate."""
    if _session().simulated and any(_params(g).get("time_in_steps", value) != value for g in gids):
        raise BadParameterError("time_in_steps cannot be set after Simulate has been called")


def configured(gids: Iterable[int], params: dict[str, Any]) -> None:
    """Called after recorder parameters were set: fixes the file name of new ascii recorders."""
    if params.get("record_to") == "ascii":
        session = _session()
        for gid in gids:
            session.suffix.setdefault(int(gid), _suffix(gid))


def _suffix(gid):
    vps = _state.state.kernel.num_processes * _state.state.threads
    digits = lambda n: int(math.floor(math.log10(max(n, 1)))) + 1  # noqa: E731
    return f"-{int(gid):0{digits(_state.state.n_nodes)}d}-{0:0{digits(vps)}d}"


def filename(gid: int) -> str:
    params, settings = _params(gid), Settings.current()
    label = params.get("label") or _state.state.model_of(gid).name
    suffix = _session().suffix.get(int(gid)) or _suffix(gid)
    name = f"{settings['data_prefix']}{label}{suffix}.{params.get('file_extension', 'dat')}"
    return os.path.join(settings["data_path"], name)


def filenames(gid: int) -> list[str]:
    return [filename(gid)] if _params(gid).get("record_to") == "ascii" else []


def recorders(backend):
    s = _state.state
    return [
        gid
        for gid in s.device_gids()
        if s.model_of(gid).base in _state.RECORDERS and _params(gid)["record_to"] == backend
    ]


def prepare() -> None:
    """Opens the files of ascii recorders anew (rank 0 only; a failure there is raised on
    every rank); events recorded before are not written."""
    cleanup()
    with kernel_errors():
        if _state.state.kernel.rank == 0:
            _open_files()


def _open_files():
    session = _session()
    overwrite = Settings.current()["overwrite_files"]
    todo = recorders("ascii")
    for gid in todo:  # every name is checked before any file is made
        name = filename(gid)
        if os.path.exists(name) and not overwrite:
            raise RecordingFileError(
                f"the file {name!r} already exists and overwrite_files is False: set overwrite_files "
                "to True, or change data_path, data_prefix or the recorder's label"
            )
    for gid in todo:
        name = filename(gid)
        try:
            f = open(name, "w")
        except OSError as e:
            raise RecordingFileError(f"cannot open the file {name!r} of recorder {gid}: {e.strerror}") from None
        f.write(_header(gid))
        session.files[gid] = f
        session.written[gid] = recorded_so_far(gid)


def cleanup() -> None:
    """Closes the files (NEST's Cleanup)."""
    session = _session()
    for f in session.files.values():
        f.close()
    session.files.clear()


def _columns(gid):
    params = _params(gid)
    names = ["sender"] + (["time_step", "time_offset"] if params.get("time_in_steps") else ["time_ms"])
    return names + list(_state.EVENT_COLUMNS.get(_state.state.model_of(gid).base, ())) + _sampled(gid)


def _header(gid):
    return (
        f"# NEST version: ranvier {__version__}\n# RecordingBackendASCII version: {ASCII_VERSION}\n"
        + "\t".join(_columns(gid))
        + "\n"
    )


def _rows(gid, start, stop):
    """The events start..stop-1 as NEST's ASCII backend writes them."""
    params = _params(gid)
    senders, times, values = events_between(gid, start, stop)
    if not len(senders):
        return ""
    p = params.get("precision", 3)
    steps, ms = grid_times(times)
    # integer columns as integers, the others in fixed notation with `precision` decimals
    columns: list[np.ndarray] = [senders.astype(np.int64)]
    if params.get("time_in_steps"):
        columns += [steps.astype(np.int64), np.zeros(len(steps))]
    else:
        columns += [ms]
    model = _state.state.model_of(gid)
    if model.base in _state.EVENT_COLUMNS:
        columns += list(_event_columns(model, values).values())
    elif _records(gid) == "samples" and values.size:
        columns += [values[:, k] for k in range(values.shape[1])]
    row = "\t".join("%d" if c.dtype.kind in "iu" else f"%.{p}f" for c in columns) + "\n"
    return "".join([row % values for values in zip(*(c.tolist() for c in columns))])


def min_delay_steps():
    """NEST's min_delay in steps: a multimeter's samples reach it one such slice after they
    were taken. It counts every connection, devices' and the multimeter's own included."""
    return max(1, round(kernel_settings.GetKernelStatus("min_delay") / _state.state.resolution))


def recorded_so_far(gid: int) -> int:
    """How many of a recorder's events belong to the Runs so far. NEST's multimeters receive
    the samples of a slice (min_delay steps from time 0 on) in the next one, so those of the
    Run's last slice, up to its end, belong to the next Run."""
    senders, times, _ = kernel_events(gid)
    if _records(gid) != "samples":
        return forgotten(gid) + len(senders)
    steps, _ = grid_times(times)
    end, slice_steps = _state.state.kernel.step, min_delay_steps()
    last_slice = (end - 1) // slice_steps * slice_steps if end > 0 else 0
    return forgotten(gid) + int(np.searchsorted(steps, last_slice, side="right"))


def streaming() -> bool:
    """Whether a Run should stop now and then to write: an ascii recorder exists (every rank
    answers alike; rank 0 writes)."""
    return bool(recorders("ascii"))


def after_run() -> None:
    """After a Run or a piece of one: writes each file or screen recorder's new events and
    flushes the files (rank 0; a failure there is raised on every rank); then every rank frees
    the kernel's copy of the ascii recorders' events, all written, but a multimeter's (the
    samples of the last slice belong to the next Run or piece: it keeps them)."""
    session = _session()
    session.simulated = True
    with kernel_errors():
        if _state.state.kernel.rank == 0:
            _write_new_events(session)
    for gid in recorders("ascii"):
        if _records(gid) != "samples":
            forget(gid)


def _write_new_events(session):
    for gid, f in session.files.items():
        n = recorded_so_far(gid)
        try:
            f.write(_rows(gid, session.written[gid], n))
            f.flush()
        except OSError as e:
            raise RecordingFileError(f"cannot write the file {f.name!r} of recorder {gid}: {e.strerror}") from None
        session.written[gid] = n
    for gid in recorders("screen"):
        n = recorded_so_far(gid)
        sys.stdout.write(_rows(gid, session.written.get(gid, 0), n))
        session.written[gid] = n
    sys.stdout.flush()
