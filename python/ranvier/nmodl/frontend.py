"""NEURON 9's NMODL front end (its parser, symbol table, inlining and sympy solver passes), loaded
from the `neuron` wheel without starting NEURON itself: a .mod file parsed and its ODEs solved,
as the AST in NMODL's JSON form."""

import glob
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from ..errors import BadParameterError
from ..modules import _user_dir


class NmodlError(BadParameterError):
    """A .mod file that cannot be read or uses what Ranvier does not support: names the file,
    the line and the construct."""


@cache
def _library() -> ModuleType:
    spec = importlib.util.find_spec("neuron")
    if spec is None or spec.origin is None:
        raise NmodlError("load_mechanisms needs NEURON's NMODL front end: pip install neuron (or ranvier[nmodl])")
    root = Path(spec.origin).parent
    # the sympy passes load NMODL's embedded-Python wrapper from NMODLHOME/lib and libpython
    os.environ.setdefault("NMODLHOME", str(root / ".data"))
    if "NMODL_PYLIB" not in os.environ:
        from find_libpython import find_libpython

        os.environ["NMODL_PYLIB"] = find_libpython() or ""
    found = glob.glob(str(root / "nmodl" / "_nmodl*.so"))
    if not found:
        raise NmodlError(f"the installed neuron ({root}) has no NMODL front end")
    extension = importlib.util.spec_from_file_location("_nmodl", found[0])
    assert extension is not None and extension.loader is not None
    module = importlib.util.module_from_spec(extension)
    extension.loader.exec_module(module)
    return module


def line_of(source: str, pattern: str) -> int:
    """The first line (from 1) of source matching the regular expression, 0 where none does."""
    match = re.search(pattern, source, re.MULTILINE)
    return source.count("\n", 0, match.start()) + 1 if match else 0


def _without_tables(nmodl: ModuleType, program: Any) -> None:
    """Drops TABLE statements: what they tabulate is computed directly (NEURON's usetable = 0),
    and NMODL does not inline a PROCEDURE that has one."""
    for block in nmodl.visitor.AstLookupVisitor().lookup(program, nmodl.ast.AstNodeType.STATEMENT_BLOCK):
        kept = [s for s in block.statements if not s.is_table_statement()]
        if len(kept) != len(block.statements):
            block.statements = kept


@contextmanager
def _notes_dropped() -> Iterator[None]:
    """NMODL's passes print notes (a conductance it cannot take, a CONSERVE it rewrites) to the
    process's stdout: they are kept from the user's output; errors come as exceptions."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "wb") as devnull:
        os.dup2(devnull.fileno(), 1)
        try:
            yield
        finally:
            os.dup2(saved, 1)
            os.close(saved)


def parse(path: Path) -> dict[str, Any]:
    """The file's AST with FUNCTIONs and PROCEDUREs inlined, KINETIC schemes turned into ODEs and
    the ODEs solved by sympy (cnexp: explicitly; sparse, derivimplicit and LINEAR: as Newton or
    linear solves, NMODL's EIGEN_NEWTON_SOLVE and EIGEN_LINEAR_SOLVE blocks), as NMODL's JSON:
    {"Program": [blocks]}, each node {type: [children]} and each leaf {"name": text}. Kept in the
    cache by the file's text, NEURON's version and this file's own, so a second load (another
    process's too) skips NMODL's passes, which take seconds for a set of channels."""
    source = path.read_text()
    cached = _parsed_dir() / f"{_digest(source)}.json"
    if cached.is_file():
        return json.loads(cached.read_text())
    nmodl = _library()
    try:
        with _notes_dropped():
            text = nmodl.to_json(_passes(nmodl, source))
    except RuntimeError as error:
        raise NmodlError(f"{path}: {error}") from None
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(f".{os.getpid()}.partial")  # processes may parse the same file at once
    partial.write_text(text)
    os.replace(partial, cached)
    return json.loads(text)


def _parsed_dir() -> Path:
    return _user_dir("XDG_CACHE_HOME", ".cache", "nmodl") / "parsed"


def _digest(source: str) -> str:
    key = hashlib.sha256(Path(__file__).read_bytes())
    key.update(importlib.metadata.version("neuron").encode())
    key.update(source.encode())
    return key.hexdigest()[:32]


def _passes(nmodl: ModuleType, source: str) -> Any:
    """NMODL's passes on the source: its program, solved."""
    program = nmodl.NmodlDriver().parse_string(source)
    _without_tables(nmodl, program)
    nmodl.symtab.SymtabVisitor().visit_program(program)
    if nmodl.visitor.AstLookupVisitor().lookup(program, nmodl.ast.AstNodeType.KINETIC_BLOCK):
        # KINETIC schemes as the DERIVATIVE blocks of their ODEs (CONSERVE kept), read again for a
        # fresh symbol table
        nmodl.visitor.KineticBlockVisitor().visit_program(program)
        program = nmodl.NmodlDriver().parse_string(nmodl.to_nmodl(program))
        nmodl.symtab.SymtabVisitor().visit_program(program)
    nmodl.visitor.InlineVisitor().visit_program(program)
    nmodl.symtab.SymtabVisitor(update=True).visit_program(program)
    # CONDUCTANCE hints where a current is linear in v: its di/dv without a second BREAKPOINT
    nmodl.visitor.SympyConductanceVisitor().visit_program(program)
    nmodl.symtab.SymtabVisitor(update=True).visit_program(program)
    nmodl.visitor.SympySolverVisitor().visit_program(program)
    return program
