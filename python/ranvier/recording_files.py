"""Reading NEST's ASCII recorder files (three header lines, then tab-separated columns),
for the plotting helpers and for users' own analysis."""

from collections.abc import Iterable

import numpy as np

from .errors import BadParameterError, RecordingFileError


def read_events(filenames: Iterable[str]) -> dict[str, np.ndarray]:
    """The columns of one or more files of one recorder, by header name, rows concatenated."""
    columns, parts = None, []
    for name in filenames:
        try:
            with open(name) as f:
                lines = f.read().splitlines()
        except OSError as e:
            raise RecordingFileError(f"cannot read the file {name!r}: {e.strerror}") from None
        body = [line for line in lines if not line.startswith("#")]
        if not body:
            raise BadParameterError(f"the file {name!r} has no column header: not a NEST ASCII recorder file")
        header = body[0].split("\t")
        if columns is not None and header != columns:
            raise BadParameterError(f"the file {name!r} has columns {header}, the first file had {columns}")
        columns = header
        rows = [line.split("\t") for line in body[1:] if line]
        parts.append(np.asarray(rows, dtype=float).reshape(-1, len(header)))
    data = np.concatenate(parts)
    assert columns is not None  # the files were read
    out = {name: data[:, k] for k, name in enumerate(columns)}
    out["sender"] = out["sender"].astype(np.int64)
    if "time_step" in out:
        out["time_step"] = out["time_step"].astype(np.int64)
    return out
