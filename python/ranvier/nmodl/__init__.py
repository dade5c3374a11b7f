"""NMODL mechanisms for cable cells: load_mechanisms compiles a folder's .mod files (NEURON's
convention) into a catalogue that the kernel loads as a module (ranvier.modules), after which a
cell description names each mechanism by its SUFFIX with its parameters under their .mod names.
NEURON 9's NMODL front end parses and solves them (frontend.py); mechanism.py reads what a file
declares and cpp.py writes the C++ (docs/cable.md, "NMODL mechanisms")."""

import hashlib
from pathlib import Path

from .. import _kernel, _state
from ..errors import kernel_errors
from ..modules import _user_dir, build_module
from .cpp import catalogue_source
from .frontend import NmodlError, parse
from .mechanism import read_mechanism

# Catalogues loaded into this process, by module name: the mechanisms each added.
_loaded: dict[str, list[str]] = {}


def load_mechanisms(path: str | Path | list[str | Path]) -> list[str]:
    """Compiles every .mod file in the folder `path` (or the one file `path`, or a list of
    files) into a catalogue and loads it; returns the names of the density mechanisms (SUFFIXes) it added. Catalogues are
    cached by the digest of their C++, so a second run does not compile; loading the same files
    again in one process returns their names and loads nothing. Raises NmodlError (a
    BadParameterError) naming the file, line and construct for a .mod file Ranvier cannot use,
    and KernelStateError where a mechanism's name is taken."""
    where = path if isinstance(path, list) else Path(path)
    if isinstance(where, list):
        files = sorted(Path(f) for f in where)
    else:
        files = sorted(where.glob("*.mod")) if where.is_dir() else [where]
    if not files or not all(f.is_file() for f in files):
        raise NmodlError(f"load_mechanisms: no .mod files at path = {str(path)!r}")
    mechanisms = [read_mechanism(f, parse(f)) for f in files]
    names = [m.name for m in mechanisms]
    for m in mechanisms:
        if names.count(m.name) > 1:
            raise NmodlError(f"load_mechanisms: SUFFIX {m.name} is declared by more than one file in {where}")
    source = catalogue_source(mechanisms)
    module_name = "nmodl_" + hashlib.sha256(source.encode()).hexdigest()[:20]
    if module_name in _loaded:
        return list(_loaded[module_name])
    folder = _user_dir("XDG_CACHE_HOME", ".cache", "nmodl")
    folder.mkdir(parents=True, exist_ok=True)
    cpp = folder / f"{module_name}.cpp"
    if not cpp.is_file() or cpp.read_text() != source:
        cpp.write_text(source)
    library = build_module([cpp], module_name, folder)
    with kernel_errors():
        added = _kernel.install_module(module_name, str(library))[1]
    _state.UNITS.update(_kernel.units())  # ranvier.units knows the mechanisms' parameters
    _loaded[module_name] = list(added)
    return list(added)


def loaded_mechanisms() -> list[str]:
    """The mechanisms load_mechanisms has added to this process's kernel (their units are their
    .mod files' text)."""
    return sorted(name for names in _loaded.values() for name in names)
