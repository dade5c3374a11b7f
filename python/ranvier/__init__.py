"""Ranvier: a simulator for large networks of spiking neurons with a PyNEST-style API.

    import ranvier as rv
    rv.SetKernelStatus({"resolution": 0.1, "local_num_threads": 2})
    pop = rv.Create("iaf_psc_alpha", 100, params={"I_e": 376.0})
    sr = rv.Create("spike_recorder")
    rv.Connect(pop, sr)
    rv.Simulate(100.0)
    sr.events["times"]
"""
import atexit
import sys
import types

from . import _kernel, _state, analysis, math, random, spatial, spatial_distributions
from .connections import SynapseCollection
from .errors import (BadParameterError, KernelStateError, RanvierError, UnknownModelError,
                     UnknownNodeError, UnknownParameterError)
from .kernel_status import GetKernelStatus, ResetKernel, SetKernelStatus
from .models import CopyModel, GetDefaults, Models, SetDefaults
from .network import Connect, Create, GetConnections, Simulate
from .nodes import NodeCollection
from .spatial import (CreateMask, Displacement, Distance, DumpLayerConnections, DumpLayerNodes, FindCenterElement,
                      FindNearestElement, GetPosition, GetSourceNodes, GetSourcePositions, GetTargetNodes,
                      GetTargetPositions, PlotLayer, PlotProbabilityParameter, PlotSources, PlotTargets,
                      SelectNodesByMask)

__version__ = "0.1.0"


def GetStatus(nodes, keys=None):
    """PyNEST 2 style: one dict (or value) per node."""
    if keys is None:
        return [node.get() for node in nodes]
    if isinstance(keys, str):
        return [node.get(keys) for node in nodes]
    return [[node.get(k) for k in keys] for node in nodes]


def SetStatus(nodes, params, val=None):
    if isinstance(params, str):
        params = {params: val}
    nodes.set(params)


def NumProcesses():
    """Number of MPI processes (1 without MPI)."""
    return _state.state.kernel.num_processes


def Rank():
    """This process's MPI rank."""
    return _state.state.kernel.rank


def _finalize():
    _state.state = None  # frees MPI windows before MPI goes
    _kernel.finalize_mpi()


atexit.register(_finalize)


class _KernelAttributes(types.ModuleType):
    """``rv.resolution`` and ``rv.local_num_threads = 2``, as in PyNEST 3."""

    _kernel_keys = ("resolution", "local_num_threads", "total_num_virtual_procs", "rng_seed",
                    "biological_time", "min_delay", "max_delay", "network_size", "num_connections")

    def __getattr__(self, name):
        if name in self._kernel_keys:
            return GetKernelStatus(name)
        raise AttributeError(f"module 'ranvier' has no attribute {name!r}")

    def __setattr__(self, name, value):
        if name in self._kernel_keys:
            SetKernelStatus({name: value})
        else:
            super().__setattr__(name, value)


sys.modules[__name__].__class__ = _KernelAttributes
