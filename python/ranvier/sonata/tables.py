"""SONATA's node and edge types tables: CSV files with a header row, fields separated by
spaces (several in a row count as one), strings in double quotes where they hold spaces, and
NULL or NONE for a missing value."""

import csv
from typing import Any

from ..errors import BadParameterError

_MISSING = {"NULL", "NONE", ""}


def _value(text: str) -> Any:
    if text in _MISSING:
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def read_types(path: str, key: str) -> dict[int, dict[str, Any]]:
    """The rows of a types table by their key column (node_type_id or edge_type_id), each a
    dict of the row's other columns (missing values left out)."""
    try:
        with open(path, newline="") as f:
            rows = [row for row in csv.reader(f, delimiter=" ", skipinitialspace=True) if row]
    except OSError as e:
        raise FileNotFoundError(f"cannot read the SONATA types table {path!r}: {e.strerror}") from None
    if not rows or key not in rows[0]:
        raise BadParameterError(f"the SONATA types table {path!r} has no {key} column")
    header = rows[0]
    types = {}
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise BadParameterError(
                f"line {line} of the SONATA types table {path!r} has {len(row)} fields, its header {len(header)}"
            )
        values = {name: _value(text) for name, text in zip(header, row)}
        type_id = values.pop(key)
        if not isinstance(type_id, int):
            raise BadParameterError(
                f"line {line} of {path!r}: {key} must be an integer, got {row[header.index(key)]!r}"
            )
        types[type_id] = {k: v for k, v in values.items() if v is not None}
    return types
