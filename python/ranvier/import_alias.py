"""Ranvier under another name: with ``sys.modules["nest"] = ranvier`` (how NEST's scripts run
unchanged), ``import nest.raster_plot`` would load raster_plot.py a second time as a new module,
and with it second copies of the modules it imports, whose classes (Parameter, NodeCollection,
the errors) are not Ranvier's. This finder answers a submodule of an alias with Ranvier's own
module instead."""

import importlib
import importlib.abc
import importlib.util
import sys
from types import ModuleType


class _Existing(importlib.abc.Loader):
    """Loads a module by handing back one already imported."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module

    def create_module(self, spec):
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        pass  # it ran when it was first imported


class SubmoduleOfAlias(importlib.abc.MetaPathFinder):
    """Finds ``alias.name`` where sys.modules[alias] is a Ranvier module under another name."""

    def find_spec(self, fullname, path, target=None):
        parent, _, child = fullname.rpartition(".")
        module = sys.modules.get(parent)
        real = getattr(module, "__name__", "")
        if not parent or real == parent or not (real == "ranvier" or real.startswith("ranvier.")):
            return None
        own = importlib.import_module(f"{real}.{child}")
        return importlib.util.spec_from_loader(fullname, _Existing(own))
