"""A checkpoint on disk: a directory with one file of columns per rank that saved it
(``rank-<r>.npz``), the network's description (``network.pkl``, written by rank 0) and a
manifest (``manifest.json``) naming Ranvier's version, the format's and each file's size and
SHA-256. Every rank writes its own file at once; the directory is written under a temporary
name and renamed when complete, so a run killed while saving leaves the previous checkpoint
as it was."""

import contextlib
import hashlib
import json
import os
import pickle
import shutil
from typing import Any

import numpy as np

from .. import _state
from .._version import __version__
from ..errors import BadParameterError, CheckpointFileError, kernel_errors

FORMAT = 1  # the layout of the files and their columns; a newer one is refused
MANIFEST = "manifest.json"
NETWORK = "network.pkl"


def rank_file(rank: int) -> str:
    return f"rank-{rank}.npz"


def _digest(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def _temporary(path: str) -> str:
    return f"{path}.saving"


@contextlib.contextmanager
def _every_rank_or_none():
    """File work some ranks do: a failure on one is an error on every rank (none waits alone)."""
    with kernel_errors():
        try:
            yield
        except OSError as e:
            raise CheckpointFileError(f"the checkpoint could not be written: {e}") from None


def write(path: str, columns: dict[str, np.ndarray], network: dict[str, Any] | None) -> None:
    """Collective: this rank's columns, and on rank 0 the description and the manifest; then
    the completed directory replaces any checkpoint at path."""
    kernel = _state.state.kernel
    rank, ranks = kernel.rank, kernel.num_processes
    work = _temporary(path)
    with _every_rank_or_none():
        if rank == 0:
            shutil.rmtree(work, ignore_errors=True)  # a save killed before it completed
            os.makedirs(work)
    with _every_rank_or_none():
        with open(os.path.join(work, rank_file(rank)), "wb") as f:
            np.savez(f, **columns)  # type: ignore[arg-type]  # numpy's stub reads the keywords as allow_pickle
            f.flush()
            os.fsync(f.fileno())
        if rank == 0:
            with open(os.path.join(work, NETWORK), "wb") as f:
                pickle.dump(network, f, protocol=pickle.HIGHEST_PROTOCOL)
    with _every_rank_or_none():
        if rank == 0:
            _complete(path, work, ranks)


def _complete(path: str, work: str, ranks: int) -> None:
    """The manifest last; then the directory takes the checkpoint's name."""
    names = [NETWORK] + [rank_file(r) for r in range(ranks)]
    files = {
        n: {"bytes": os.path.getsize(os.path.join(work, n)), "sha256": _digest(os.path.join(work, n))} for n in names
    }
    with open(os.path.join(work, MANIFEST), "w") as f:
        json.dump({"ranvier": __version__, "format": FORMAT, "ranks": ranks, "files": files}, f, indent=1)
        f.flush()
        os.fsync(f.fileno())
    old = f"{path}.old"
    if os.path.exists(path):
        shutil.rmtree(old, ignore_errors=True)
        os.rename(path, old)
    os.rename(work, path)
    shutil.rmtree(old, ignore_errors=True)


def complete_in(directory: str) -> list[str]:
    """The complete checkpoints in a directory (names, ascending): not one being written
    (whose manifest may exist before its rename) nor one being replaced."""
    return sorted(
        d
        for d in os.listdir(directory)
        if not d.endswith((_temporary(""), ".old")) and os.path.isfile(os.path.join(directory, d, MANIFEST))
    )


def latest(path: str) -> str:
    """path, or where path is a directory of periodic checkpoints, its newest complete one."""
    if os.path.isfile(os.path.join(path, MANIFEST)) or not os.path.isdir(path):
        return path
    complete = complete_in(path)
    return os.path.join(path, complete[-1]) if complete else path


def manifest(path: str) -> dict[str, Any]:
    """The manifest, checked: the format, and every file's presence, size and digest."""
    where = os.path.join(path, MANIFEST)
    if not os.path.isfile(where):
        raise BadParameterError(f"{path!r} is not a complete checkpoint (no {MANIFEST})")
    try:
        with open(where) as f:
            m = json.load(f)
        fmt, files = int(m["format"]), m["files"]
    except (ValueError, KeyError, TypeError) as e:
        raise BadParameterError(f"the checkpoint {path!r} has an unreadable manifest: {e}") from None
    if fmt > FORMAT:
        raise BadParameterError(
            f"the checkpoint {path!r} has format {fmt}, newer than this Ranvier's ({FORMAT}); "
            f"it was written by Ranvier {m.get('ranvier')}"
        )
    for name, expected in files.items():
        file = os.path.join(path, name)
        if not os.path.isfile(file):
            raise BadParameterError(f"the checkpoint {path!r} lacks its file {name}")
        if os.path.getsize(file) != expected["bytes"] or _digest(file) != expected["sha256"]:
            raise BadParameterError(f"the checkpoint {path!r} is damaged: {name} is not the file it saved")
    return m


def read_network(path: str) -> dict[str, Any]:
    with open(os.path.join(path, NETWORK), "rb") as f:
        return pickle.load(f)


def read_ranks(path: str, ranks: int) -> list[dict[str, np.ndarray]]:
    """Every saving rank's columns (each restoring rank keeps what lives on it)."""
    out = []
    for r in range(ranks):
        with np.load(os.path.join(path, rank_file(r))) as f:
            out.append({k: f[k] for k in f.files})
    return out
