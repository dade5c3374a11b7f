"""NMODL mechanisms for cable cells: load_mechanisms compiles a folder's .mod files (NEURON's
convention) into a catalogue that the kernel loads as a module (ranvier.modules), after which a
cell description names each mechanism by its SUFFIX with its parameters under their .mod names.
NEURON 9's NMODL front end parses and solves them (frontend.py); mechanism.py reads what a file
declares and cpp.py writes the C++ (docs/cable.md, "NMODL mechanisms")."""

import hashlib
from pathlib import Path

from .. import _kernel, _state
from ..errors import KernelStateError, kernel_errors
from ..modules import _user_dir, build_module
from .cpp import catalogue_source, mechanism_class
from .frontend import NmodlError, parse
from .mechanism import read_mechanism

# The mechanisms loaded into this process, by name: the C++ of each.
_loaded: dict[str, str] = {}


def load_mechanisms(path: str | Path | list[str | Path]) -> list[str]:
    """Compiles every .mod file in the folder `path` (or the one file `path`, or a list of
    files) into a catalogue and loads it; returns the names of the files' mechanisms (SUFFIXes
    and POINT_PROCESS names). Catalogues are cached by the digest of their C++, so a second run
    does not compile; a mechanism loaded already from the same code is not loaded again.
    Raises NmodlError (a BadParameterError) naming the file, line and construct for a .mod file
    Ranvier cannot use, and KernelStateError where a mechanism's name is taken by another."""
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
    code = {m.name: mechanism_class(m) for m in mechanisms}
    new = [m for m in mechanisms if _loaded.get(m.name) != code[m.name]]
    taken = {name for table in _kernel.cable_mechanisms() for name in table}
    for m in new:
        if m.name in taken:  # before compiling: a name taken stays taken
            raise KernelStateError(
                f"load_mechanisms: mechanism {m.name} of {m.path} exists already (a built-in or a loaded one)"
            )
    if new:
        _install(catalogue_source(new))
        _loaded.update((m.name, code[m.name]) for m in new)
    return names


def _install(source: str) -> None:
    """Builds (or finds in the cache) the catalogue of source and loads it into the kernel."""
    module_name = "nmodl_" + hashlib.sha256(source.encode()).hexdigest()[:20]
    folder = _user_dir("XDG_CACHE_HOME", ".cache", "nmodl")
    folder.mkdir(parents=True, exist_ok=True)
    cpp = folder / f"{module_name}.cpp"
    if not cpp.is_file() or cpp.read_text() != source:
        cpp.write_text(source)
    library = build_module([cpp], module_name, folder)
    with kernel_errors():
        _kernel.install_module(module_name, str(library))
    _state.UNITS.update(_kernel.units())  # ranvier.units knows the mechanisms' parameters


def loaded_mechanisms() -> list[str]:
    """The mechanisms load_mechanisms has added to this process's kernel (their units are their
    .mod files' text)."""
    return sorted(_loaded)
