"""Checkpoints: ``SaveCheckpoint(path)`` between Simulate calls writes the whole simulation
(nodes, connections, their state, spikes and input in flight, the random streams' positions,
recorders and their events); ``LoadCheckpoint(path)`` in a fresh kernel with any processes
and threads rebuilds it, and Simulate continues as the uninterrupted run would, bit for bit.

Each value is addressed by node id and connection, not by where it lived, so a checkpoint saved
on 2 processes x 2 threads loads on 1 x 1 or 3 x 2. Both calls are collective under MPI."""

from os import PathLike

from .. import _state, kernel_attributes, run_phase
from ..errors import KernelStateError, kernel_errors
from . import columns, description, files
from .saving import save


def _between_runs(what: str) -> None:
    if run_phase.is_prepared():
        raise KernelStateError(f"{what} works between Simulate calls, not between Prepare and Cleanup")


def SaveCheckpoint(path: str | PathLike[str]) -> None:
    """Writes the simulation as it stands to the directory `path` (replacing a checkpoint
    there only once the new one is complete)."""
    _between_runs("SaveCheckpoint")
    save(path)


def LoadCheckpoint(path: str | PathLike[str]) -> None:
    """Replaces the kernel's network by the checkpoint's, keeping this kernel's processes,
    threads and exchange settings. A checkpoint that is damaged, of a newer format or that
    needs a model not known here raises, and leaves an empty kernel. A directory of periodic
    checkpoints (checkpoint_path) gives its newest complete one."""
    _between_runs("LoadCheckpoint")
    path = files.latest(str(path))
    manifest = files.manifest(path)
    described = files.read_network(path, manifest)
    ranks = files.read_ranks(path, manifest)
    joined = columns.join(ranks)
    try:
        description.rebuild(described, {k: v for k, v in joined.items() if k.startswith("connection.")})
        kernel = _state.state.kernel  # the rebuilt network's
        with kernel_errors():  # each rank alone: the saved threads' connections to its nodes
            for name, targets in files.segments(ranks):
                if kernel.hosts_any(targets):
                    segment = files.read_segment(path, manifest, name)
                    segment["table.model"] = description.synapse_ids(described, segment["table.model"])
                    kernel.stage_connections(segment)
        with kernel_errors():
            kernel.resume({k: v for k, v in joined.items() if not k.startswith("connection.")})
        if _state.state.kernel.rank == 0:
            description.restore_events(ranks[0])
    except Exception:
        kernel_attributes.ResetKernel()  # nothing half-loaded
        raise


__all__ = ["LoadCheckpoint", "SaveCheckpoint"]
