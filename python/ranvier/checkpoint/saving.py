"""Writing a checkpoint: the description, this rank's snapshot, connections and (rank 0)
the recorders' events, into files (files.py). Collective."""

from os import PathLike

from .. import _state
from ..errors import kernel_errors
from ..parameters import apply_pending
from . import description, files


def save(path: str | PathLike[str]) -> None:
    """SaveCheckpoint, also between the pieces of a Run (periodic checkpoints)."""
    apply_pending()
    s = _state.state
    with kernel_errors():
        described = description.describe()
        saved = dict(s.kernel.snapshot())
    saved.update(description.connection_columns())
    if s.kernel.rank == 0:
        saved.update(description.event_columns())
    threads = s.kernel.threads
    segments = (s.kernel.snapshot_connections(t) for t in range(threads))
    files.write(str(path), saved, segments, described if s.kernel.rank == 0 else None)
