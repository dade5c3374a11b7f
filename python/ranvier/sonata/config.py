"""A SONATA circuit or simulation config (JSON) as a dict with its variables expanded and its
paths made absolute.

The manifest defines variables (``"$NETWORK_DIR": "$BASE_DIR/network"``); ``${configdir}`` is
the folder of the config file. Every string of the config has its variables replaced (``$NAME``
and ``${NAME}``, a variable defined before or after the one that uses it), and a value that
names a file or folder (a key ending in ``_file`` or ``_dir``, or ``network``) that is still
relative is taken relative to the config's folder, as the SONATA specification says.
"""

import json
import re
from pathlib import Path, PurePath
from typing import Any

from ..errors import BadParameterError

_VARIABLE = re.compile(r"\$\{(\w+)\}|\$(\w+)")


def _expand(text: str, variables: dict[str, str], where: Path) -> str:
    def value(match: re.Match) -> str:
        name = match.group(1) or match.group(2)
        if name not in variables:
            raise BadParameterError(
                f"the SONATA config {str(where)!r} uses ${name}, which its manifest does not define"
            )
        return variables[name]

    for _ in range(len(variables) + 1):  # a variable may use another: expand until none is left
        expanded = _VARIABLE.sub(value, text)
        if expanded == text:
            return text
        text = expanded
    raise BadParameterError(f"the manifest of the SONATA config {str(where)!r} defines its variables in a cycle")


_IN_OUTPUT_DIR = ("spikes_file", "log_file")  # relative to the output's output_dir


def _is_path(key: str) -> bool:
    return (key.endswith("_file") or key.endswith("_dir") or key == "network") and key not in _IN_OUTPUT_DIR


def _substitute(value: Any, key: str, variables: dict[str, str], base: Path, where: Path) -> Any:
    if isinstance(value, dict):
        return {k: _substitute(v, k, variables, base, where) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, key, variables, base, where) for v in value]
    if isinstance(value, str):
        value = _expand(value, variables, where)
        if _is_path(key) and value and not PurePath(value).is_absolute():
            value = str((base / value).resolve())
    return value


def read_json(folder: str | None, name: str, what: str) -> dict[str, Any]:
    """The JSON file `name` (in `folder`): a config, a dynamics_params or node sets file."""
    path = Path(folder or ".") / name
    try:
        return json.loads(path.read_text())
    except OSError as e:
        raise FileNotFoundError(f"cannot read the {what} {str(path)!r}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise BadParameterError(f"the {what} {str(path)!r} is not JSON: {e}") from None


def read_config(path: str | PurePath) -> dict[str, Any]:
    """The config at path, expanded; a simulation config's ``network`` circuit config is merged
    in (its own keys win)."""
    if not isinstance(path, (str, PurePath)):
        raise TypeError(f"a SONATA config is a path (str or pathlib.Path), got {path!r}")
    where = Path(path).resolve()
    raw = read_json(None, str(where), "SONATA config")
    base = where.parent
    variables = {"configdir": str(base)}
    manifest = raw.get("manifest", {})
    for name, value in manifest.items():
        variables[name.lstrip("$").strip("{}")] = str(value)
    for name, value in list(variables.items()):
        expanded = _expand(value, variables, where)
        variables[name] = str((base / expanded).resolve()) if not PurePath(expanded).is_absolute() else expanded
    config = {k: _substitute(v, k, variables, base, where) for k, v in raw.items() if k != "manifest"}
    if "networks" not in config and "network" in config:
        config = {**read_config(config["network"]), **config}
    return config
