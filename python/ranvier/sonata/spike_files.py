"""SONATA spike files (HDF5): ``/spikes/<population>/timestamps`` (ms) and ``node_ids``
(0-based within the node population), the group's ``sorting`` attribute an enum of none,
by_id and by_time. Older files that Ranvier also reads: ``/spikes/gids`` with
``/spikes/timestamps`` (one population), and ``sorting`` as a string.

A writer streams: each append extends the datasets and flushes, and the file is written in
HDF5's single-writer/multiple-reader mode, so a reader (or a kill -9 of the writer) sees every
spike up to the last flush.
"""

from typing import Any

import numpy as np

from ..errors import BadParameterError, RecordingFileError

SORTINGS = ("none", "by_id", "by_time")
_CHUNK = 1 << 16  # spikes per HDF5 chunk of the growing datasets


def h5py_module() -> Any:
    try:
        import h5py
    except ImportError:
        raise ModuleNotFoundError("SONATA files need h5py: pip install h5py") from None
    return h5py


def _sorting_type(h5py):
    return h5py.enum_dtype({name: k for k, name in enumerate(SORTINGS)}, basetype="u1")


def _sorting(group) -> str:
    value = group.attrs.get("sorting")
    if value is None:
        return "none"
    if isinstance(value, bytes):
        value = value.decode()
    if isinstance(value, str):
        return value
    return SORTINGS[int(value)]


def _milliseconds(dataset) -> np.ndarray:
    units = dataset.attrs.get("units", "ms")
    units = units.decode() if isinstance(units, bytes) else units
    scale = {"ms": 1.0, "s": 1000.0}.get(units)
    if scale is None:
        raise BadParameterError(f"timestamps in {dataset.file.filename!r} have units {units!r}: SONATA uses ms (or s)")
    return dataset[:].astype(np.float64) * scale


def read_spikes(path: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each population's (node_ids, timestamps in ms) of a SONATA spike file; a file of the
    older layout without populations gives one entry named "" for its /spikes group."""
    h5py = h5py_module()
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        try:  # a writer that was killed left its SWMR file marked open: it reads as SWMR
            f = h5py.File(path, "r", swmr=True)
        except OSError:
            raise FileNotFoundError(f"cannot read the SONATA spike file {path!r}: {e}") from None
    with f:
        if "spikes" not in f:
            raise BadParameterError(f"{path!r} is not a SONATA spike file: it has no /spikes group")
        spikes = f["spikes"]
        groups = {name: g for name, g in spikes.items() if isinstance(g, h5py.Group)}
        if groups and len(groups) != len(spikes):
            raise BadParameterError(f"/spikes in {path!r} holds both populations (groups) and datasets")
        out = {}
        for name, group in groups.items() if groups else [("", spikes)]:
            ids = next((group[k] for k in ("node_ids", "gids") if k in group), None)
            if ids is None or "timestamps" not in group:
                raise BadParameterError(
                    f"/spikes/{name} in {path!r} needs datasets timestamps and node_ids (or gids)".replace("//", "/")
                )
            out[name] = (ids[:].astype(np.int64), _milliseconds(group["timestamps"]))
    return out


class SpikeWriter:
    """One SONATA spike file, written as spikes come: append, then close (which sorts by node
    id where asked)."""

    def __init__(self, path: str, populations: list[str], sorting: str = "by_time") -> None:
        if sorting not in SORTINGS:
            raise BadParameterError(f"sorting must be one of {', '.join(SORTINGS)}, got sorting = {sorting!r}")
        h5py = h5py_module()
        self.path, self.sorting = path, sorting
        try:
            # SWMR needs the 1.10 format; no later one, so that readers built on HDF5 1.10-1.14 (libsonata) read it
            self.file = h5py.File(path, "w", libver=("v110", "v110"))
        except OSError as e:
            raise RecordingFileError(f"cannot open the SONATA spike file {path!r}: {e}") from None
        for name in populations:
            group = self.file.require_group(f"spikes/{name}")
            # spikes come in time order; by_id is made at close
            group.attrs.create(
                "sorting", SORTINGS.index("by_time" if sorting != "none" else "none"), dtype=_sorting_type(h5py)
            )
            times = group.create_dataset("timestamps", (0,), maxshape=(None,), chunks=(_CHUNK,), dtype="f8")
            times.attrs["units"] = "ms"
            group.create_dataset("node_ids", (0,), maxshape=(None,), chunks=(_CHUNK,), dtype="u8")
        self.file.swmr_mode = True

    def append(self, population: str, node_ids: np.ndarray, times: np.ndarray) -> None:
        group = self.file["spikes"][population]
        n, k = group["timestamps"].shape[0], len(times)
        if k == 0:
            return
        for name, values in (("timestamps", times), ("node_ids", node_ids)):
            group[name].resize((n + k,))
            group[name][n:] = values

    def flush(self) -> None:
        self.file.flush()

    def close(self) -> None:
        self.file.close()
        if self.sorting == "by_id":  # written in time order; sorted in a second pass
            with h5py_module().File(self.path, "r+") as f:
                for group in f["spikes"].values():
                    ids, times = group["node_ids"][:], group["timestamps"][:]
                    order = np.lexsort((times, ids))
                    group["node_ids"][:], group["timestamps"][:] = ids[order], times[order]
                    group.attrs.modify("sorting", SORTINGS.index("by_id"))
