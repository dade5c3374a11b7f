"""A checkpoint on disk: a directory with one file of columns per rank that saved it
(``rank-<r>.npz``), one file per saving thread with its connections between neurons
(``connections-<r>-<t>.npz``), the network's description (``network.pkl``, written by rank 0)
and a manifest (``manifest.json``) naming Ranvier's version, the format's and each file's size
and SHA-256. Every rank writes and digests its own files at once; the directory is written under
a temporary name and renamed when complete, so a run killed while saving leaves the previous
checkpoint as it was. A loading rank reads the rank files and only the connection files that
hold targets of its own, checking the digest of each file it reads."""

import contextlib
import hashlib
import json
import os
import pickle
import shutil
import zipfile
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from .. import _state
from .._version import __version__
from ..errors import BadParameterError, CheckpointFileError, kernel_errors

FORMAT = 6  # the layout of the files and their columns; another one is refused
MANIFEST = "manifest.json"
NETWORK = "network.pkl"


def rank_file(rank: int) -> str:
    return f"rank-{rank}.npz"


def segment_file(rank: int, thread: int) -> str:
    return f"connections-{rank}-{thread}.npz"


def _digests_file(rank: int) -> str:
    """A rank's files' sizes and digests, which rank 0 folds into the manifest."""
    return f"rank-{rank}.files.json"


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


def _written(work: str, name: str, columns: dict[str, np.ndarray]) -> dict[str, Any]:
    """Writes columns to work/name, on disk before this returns; its size and digest."""
    file = os.path.join(work, name)
    with open(file, "wb") as f:
        np.savez(f, **columns)  # type: ignore[arg-type]  # numpy's stub reads the keywords as allow_pickle
        f.flush()
        os.fsync(f.fileno())
    return _described(file)


def _described(file: str) -> dict[str, Any]:
    return {"bytes": os.path.getsize(file), "sha256": _digest(file)}


def write(
    path: str, columns: dict[str, np.ndarray], segments: Iterable[dict[str, np.ndarray]], network: dict[str, Any] | None
) -> None:
    """Collective: this rank's columns and its threads' connection segments (each written as it
    comes, with its targets kept in the rank's columns), on rank 0 the description and the
    manifest; then the completed directory replaces any checkpoint at path."""
    kernel = _state.state.kernel
    rank, ranks = kernel.rank, kernel.num_processes
    work = _temporary(path)
    with _every_rank_or_none():
        if rank == 0:
            shutil.rmtree(work, ignore_errors=True)  # a save killed before it completed
            os.makedirs(work)
    with _every_rank_or_none():
        files, targets = {}, []
        for thread, segment in enumerate(segments):
            targets.append(segment.pop("segment.targets"))
            files[segment_file(rank, thread)] = _written(work, segment_file(rank, thread), segment)
            del segment  # before the next thread's is made
        columns = {
            **columns,
            "segments.targets": np.concatenate(targets),
            "segments.targets_at": np.cumsum([0] + [len(t) for t in targets], dtype=np.int64),
        }
        files[rank_file(rank)] = _written(work, rank_file(rank), columns)
        if rank == 0:
            with open(os.path.join(work, NETWORK), "wb") as f:
                pickle.dump(network, f, protocol=pickle.HIGHEST_PROTOCOL)
            files[NETWORK] = _described(os.path.join(work, NETWORK))
        with open(os.path.join(work, _digests_file(rank)), "w") as f:
            json.dump(files, f)
    with _every_rank_or_none():
        if rank == 0:
            _complete(path, work, ranks)


def _complete(path: str, work: str, ranks: int) -> None:
    """The manifest last, with every rank's files; then the directory takes the checkpoint's name."""
    files: dict[str, Any] = {}
    for r in range(ranks):
        with open(os.path.join(work, _digests_file(r))) as f:
            files.update(json.load(f))
        os.remove(os.path.join(work, _digests_file(r)))
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
    """The manifest, checked: its format, and every file's presence and size (the digest of each
    file is checked where it is read)."""
    where = os.path.join(path, MANIFEST)
    if not os.path.isfile(where):
        raise BadParameterError(f"{path!r} is not a complete checkpoint (no {MANIFEST})")
    try:
        with open(where) as f:
            m = json.load(f)
        fmt, files = int(m["format"]), m["files"]
    except (ValueError, KeyError, TypeError) as e:
        raise BadParameterError(f"the checkpoint {path!r} has an unreadable manifest: {e}") from None
    if fmt != FORMAT:
        raise BadParameterError(
            f"the checkpoint {path!r} has format {fmt}, {'newer' if fmt > FORMAT else 'older'} than this Ranvier's "
            f"({FORMAT}); it was written by Ranvier {m.get('ranvier')}"
        )
    for name, expected in files.items():
        file = os.path.join(path, name)
        if not os.path.isfile(file):
            raise BadParameterError(f"the checkpoint {path!r} lacks its file {name}")
        if os.path.getsize(file) != expected["bytes"]:
            raise BadParameterError(f"the checkpoint {path!r} is damaged: {name} is not the file it saved")
    return m


def _checked(path: str, m: dict[str, Any], name: str) -> str:
    """A file of the checkpoint whose digest is the one the manifest names."""
    file = os.path.join(path, name)
    if name not in m["files"] or not os.path.isfile(file) or _digest(file) != m["files"][name]["sha256"]:
        raise BadParameterError(f"the checkpoint {path!r} is damaged: {name} is not the file it saved")
    return file


def read_network(path: str, m: dict[str, Any]) -> dict[str, Any]:
    with open(_checked(path, m, NETWORK), "rb") as f:
        return pickle.load(f)


def _columns(file: str) -> dict[str, np.ndarray]:
    """The arrays of an .npz file that np.savez wrote (stored, not compressed), each mapped from
    the file where it lies rather than copied out of the archive (the file's digest was checked)."""
    out = {}
    with open(file, "rb") as f, zipfile.ZipFile(f) as archive:
        for member in archive.infolist():
            if member.compress_type != zipfile.ZIP_STORED:
                raise BadParameterError(f"the checkpoint file {file!r} holds a compressed column {member.filename}")
            f.seek(member.header_offset)
            local = f.read(30)  # the member's local header: its name's and extra field's lengths at 26 and 28
            f.seek(
                member.header_offset
                + 30
                + int.from_bytes(local[26:28], "little")
                + int.from_bytes(local[28:30], "little")
            )
            headers = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}
            shape, fortran, dtype = headers[np.lib.format.read_magic(f)](f)
            name = member.filename.removesuffix(".npy")
            out[name] = (
                np.memmap(f, dtype=dtype, mode="r", offset=f.tell(), shape=shape, order="F" if fortran else "C")
                if np.prod(shape)
                else np.zeros(shape, dtype=dtype)
            )
    return out


def read_ranks(path: str, m: dict[str, Any]) -> list[dict[str, np.ndarray]]:
    """Every saving rank's columns (each restoring rank keeps what lives on it)."""
    return [_columns(_checked(path, m, rank_file(r))) for r in range(int(m["ranks"]))]


def segments(ranks: list[dict[str, np.ndarray]]) -> Iterator[tuple[str, np.ndarray]]:
    """Each saved thread's connection file, with the node ids of its connections' targets."""
    for rank, columns in enumerate(ranks):
        at = columns["segments.targets_at"]
        for thread in range(len(at) - 1):
            yield segment_file(rank, thread), columns["segments.targets"][at[thread] : at[thread + 1]]


def read_segment(path: str, m: dict[str, Any], name: str) -> dict[str, np.ndarray]:
    return _columns(_checked(path, m, name))
