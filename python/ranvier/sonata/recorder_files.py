"""The recording backend ``record_to: "sonata"``: a spike recorder's spikes in a SONATA spike
file, ``<data_path>/<data_prefix><label>.h5`` (``<model>-<node id>`` without a label), one file
per recorder whatever the processes and threads (rank 0 holds every rank's events after each
piece of a Run and writes them). Each node's spikes go to its SONATA population with its node
id there (populations.py). The file is opened at Prepare, as NEST's ASCII backend opens its
files (an existing one is an error unless ``overwrite_files``), grows by one append and flush
per piece of a Run (about a second of wall-clock time), and is closed at Cleanup.
"""

import os

import numpy as np

from .. import _state, kernel_ref, recording
from ..errors import RecordingFileError, kernel_errors
from ..python_settings import Settings
from . import populations
from .spike_files import SpikeWriter


class _Files:
    owner: kernel_ref.Ref | None = None
    current: "_Files"

    def __init__(self) -> None:
        self.chosen: dict[int, tuple[str, str]] = {}  # gid -> (path, sorting) of a SonataNetwork's output
        self.writers: dict[int, SpikeWriter] = {}
        self.written: dict[int, int] = {}  # gid -> events written


def _files() -> _Files:
    if not kernel_ref.is_current(_Files.owner):
        _Files.owner, _Files.current = kernel_ref.current(), _Files()
    return _Files.current


def set_file(gid: int, path: str, sorting: str) -> None:
    """Writes recorder gid's spikes to path: a SonataNetwork's configured output, which each
    run replaces."""
    _files().chosen[int(gid)] = (path, sorting)


def streaming() -> bool:
    """Whether a Run should stop now and then to write: a sonata recorder exists (every rank
    answers alike; rank 0 writes)."""
    return bool(recording.recorders("sonata"))


def filename(gid: int) -> str:
    chosen = _files().chosen.get(int(gid))
    if chosen:
        return chosen[0]
    params, settings = _state.state.kernel.device_parameters(int(gid)), Settings.current()
    label = params.get("label") or f"{_state.state.model_of(gid).name}-{int(gid)}"
    return os.path.join(settings["data_path"], f"{settings['data_prefix']}{label}.h5")


def prepare() -> None:
    """Opens the files of sonata recorders (rank 0; a failure there is raised on every rank)."""
    cleanup()
    with kernel_errors():
        if _state.state.kernel.rank == 0:
            _open()


def _open():
    files, overwrite = _files(), Settings.current()["overwrite_files"]
    todo = recording.recorders("sonata")
    for gid in todo:
        if os.path.exists(filename(gid)) and not overwrite and gid not in files.chosen:
            raise RecordingFileError(
                f"the file {filename(gid)!r} already exists and overwrite_files is False: set overwrite_files "
                "to True, or change data_path, data_prefix or the recorder's label"
            )
    s = _state.state
    for gid in todo:
        calls = sorted(s.recorded_calls.get(gid, ()))
        everyone, population, _ = populations.of(np.asarray([s.range_starts[c] for c in calls], dtype=np.int64))
        names = [everyone[k] for k in np.unique(population).tolist()]
        sorting = files.chosen.get(gid, ("", "by_time"))[1]
        files.writers[gid] = SpikeWriter(filename(gid), names, sorting)
        files.written[gid] = recording.recorded_so_far(gid)


def write_new() -> None:
    """Appends each file's new spikes and flushes (rank 0); then every rank frees them."""
    with kernel_errors():
        if _state.state.kernel.rank == 0:
            _write()
    for gid in recording.recorders("sonata"):
        recording.forget(gid)


def _write():
    files = _files()
    for gid, writer in files.writers.items():
        start, stop = files.written[gid], recording.recorded_so_far(gid)
        senders, times, values = recording.events_between(gid, start, stop)
        _, ms = recording.grid_times(times)
        if values.ndim == 2 and values.shape[1] == 1:  # precise spike times: offsets before the step's end
            ms = ms - values[:, 0]
        names, population, node_ids = populations.of(senders.astype(np.int64))
        try:
            for k, name in enumerate(names):
                mine = population == k
                if mine.any():
                    writer.append(name, node_ids[mine], ms[mine])
            writer.flush()
        except (OSError, KeyError) as e:
            raise RecordingFileError(f"cannot write the SONATA spike file {writer.path!r}: {e}") from None
        files.written[gid] = stop


def cleanup() -> None:
    """Closes the files (NEST's Cleanup)."""
    files = _files()
    for writer in files.writers.values():
        writer.close()
    files.writers.clear()
