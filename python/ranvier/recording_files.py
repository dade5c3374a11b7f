"""Reading NEST's ASCII recorder files (three header lines, then tab-separated columns),
for the plotting helpers and for users' own analysis."""

from collections.abc import Iterable, Sequence

import numpy as np

from .errors import BadParameterError, RecordingFileError


def _numbers(line: str) -> list[float] | None:
    try:
        return [float(v) for v in line.split()]
    except ValueError:
        return None


def read_events(filenames: Iterable[str], plain: Sequence[str] = ()) -> dict[str, np.ndarray]:
    """The columns of one or more files of one recorder, by header name, rows concatenated. With
    `plain` column names, a file of numbers without a header (as numpy.savetxt writes one, which
    PyNEST's plotting helpers read) has those columns."""
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
        header, rows = body[0].split("\t"), [line.split("\t") for line in body[1:] if line]
        first = _numbers(body[0]) if plain else None
        if first is not None:
            if len(first) != len(plain):
                raise BadParameterError(
                    f"the file {name!r} has {len(first)} columns of numbers and no header; expected {list(plain)}"
                )
            header, rows = list(plain), [line.split() for line in body if line]
        if columns is not None and header != columns:
            raise BadParameterError(f"the file {name!r} has columns {header}, the first file had {columns}")
        columns = header
        parts.append(np.asarray(rows, dtype=float).reshape(-1, len(header)))
    data = np.concatenate(parts)
    assert columns is not None  # the files were read
    out = {name: data[:, k] for k, name in enumerate(columns)}
    out["sender"] = out["sender"].astype(np.int64)
    if "time_step" in out:
        out["time_step"] = out["time_step"].astype(np.int64)
    return out
