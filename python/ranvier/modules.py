"""Modules: models built outside the kernel (ranvier.nestml generates them from NESTML), compiled
against the kernel's installed headers into a shared library that Install loads into the running
kernel (the boundary: src/ranvier/plugin/module.hpp; docs/dev/architecture.md, "Modules")."""

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from . import _kernel, _state
from .errors import KernelStateError, kernel_errors

# Folders Install searches for <module_name>.so before the default one, separated as PATH is.
MODULE_PATH_VARIABLE = "RANVIER_MODULE_PATH"
INCLUDE_DIR = Path(__file__).parent / "include"


def _user_dir(variable: str, fallback: str, leaf: str) -> Path:
    return Path(os.environ.get(variable) or Path.home() / fallback) / "ranvier" / leaf


def default_module_dir() -> Path:
    """Where a module is installed when its build names no folder (as NEST's own lib folder)."""
    return _user_dir("XDG_DATA_HOME", ".local/share", "modules")


def module_dirs() -> list[Path]:
    """The folders Install searches, in order."""
    listed = os.environ.get(MODULE_PATH_VARIABLE, "")
    return [Path(d) for d in listed.split(os.pathsep) if d] + [default_module_dir()]


def Install(module_name: str) -> None:
    """Loads module `module_name` (<module_name>.so in one of module_dirs()) into the kernel, as
    NEST's Install does: its models join node_models and stay until the process ends, also
    across ResetKernel. Raises KernelStateError (NEST's DynamicModuleManagementError) where it
    is not found, installed already, built for another kernel or names an existing model; under
    MPI every rank installs, and raises where any rank cannot."""
    with kernel_errors():  # every rank installs; where one cannot, every rank raises
        _install(module_name)


def _install(module_name: str) -> None:
    if not isinstance(module_name, str) or not module_name:
        raise KernelStateError(f"Install: module_name must be a module's name, got module_name = {module_name!r}")
    for folder in module_dirs():
        path = folder / f"{module_name}.so"
        if path.is_file():
            neurons, _, synapses = _kernel.install_module(module_name, str(path))
            _state.learn_module_models(neurons, synapses)
            return
    searched = ", ".join(str(d) for d in module_dirs())
    raise KernelStateError(f"Install({module_name!r}): no {module_name}.so in {searched} (set {MODULE_PATH_VARIABLE})")


def build_module(sources: list[Path], module_name: str, install_dir: Path, headers: Sequence[Path] = ()) -> Path:
    """Compiles C++ sources (each ending in RANVIER_MODULE or included by one that does), which
    include `headers`, into install_dir/<module_name>.so with the kernel's flags. Builds are cached
    by the digest of the sources, the headers, the flags and the kernel's ABI, so building the
    same module again does not compile."""
    config = json.loads((INCLUDE_DIR / "module_build.json").read_text())
    command = [config["cxx"], *config["flags"], f"-I{INCLUDE_DIR}"]
    digest = hashlib.sha256("\0".join([config["abi"], *command]).encode())
    for source in [*sources, *sorted(headers)]:
        digest.update(Path(source).read_bytes())
    cached = _user_dir("XDG_CACHE_HOME", ".cache", "modules") / f"{module_name}-{digest.hexdigest()[:20]}.so"
    if not cached.is_file():
        cached.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=cached.parent) as scratch:
            built = Path(scratch) / cached.name
            result = subprocess.run(
                [*command, *map(str, sources), "-o", str(built)], capture_output=True, text=True, check=False
            )
            if result.returncode != 0:
                raise KernelStateError(f"building module {module_name} failed:\n{result.stderr[-4000:]}")
            built.replace(cached)  # whole or not at all: concurrent builds of one module agree
    install_dir.mkdir(parents=True, exist_ok=True)
    target = install_dir / f"{module_name}.so"
    # a new file in its place, never the loaded one rewritten (a process that installed it maps it)
    staged = install_dir / f".{module_name}.so.{os.getpid()}"
    shutil.copyfile(cached, staged)
    staged.replace(target)
    return target
