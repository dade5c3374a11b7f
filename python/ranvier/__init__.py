"""Ranvier: a simulator for large networks of spiking neurons with a PyNEST-style API.

import ranvier as nest
nest.set(resolution=0.1, local_num_threads=2)
pop = nest.Create("iaf_psc_alpha", 100, params={"I_e": 376.0})
sr = nest.Create("spike_recorder")
nest.Connect(pop, sr)
nest.Simulate(100.0)
sr.events["times"]
"""

import atexit
import importlib
import sys
import types
from collections.abc import Iterable
from typing import Any

from . import (
    _kernel,
    _state,
    allen,
    analysis,
    import_alias,
    logic,
    math,
    random,
    recording,
    spatial,
    spatial_distributions,
)
from ._version import __version__
from .checkpoint import LoadCheckpoint, SaveCheckpoint
from .cm import Compartments, Receptors
from .collocated_synapses import CollocatedSynapses
from .connections import GetConnections, SynapseCollection
from .errors import (
    BadIndexError,
    BadParameterError,
    CheckpointFileError,
    IllegalConnectionError,
    KernelStateError,
    NumericalInstabilityError,
    RanvierError,
    RecordingFileError,
    UnknownModelError,
    UnknownNodeError,
    UnknownParameterError,
    UnsupportedRequestError,
    WrongCountError,
)
from .kernel_attributes import GetKernelStatus, KernelAttributeModule, ResetKernel, SetKernelStatus, get, set
from .messages import VerbosityLevel, get_verbosity, message, set_verbosity
from .models import CopyModel, GetDefaults, Models, SetDefaults, units
from .modules import Install
from .nest_errors import NESTError, NESTErrors
from .network import Connect, Create, Disconnect
from .nmodl import load_mechanisms
from .node_queries import GetLocalNodeCollection, GetNodes, PrintNodes
from .nodes import NodeCollection, to_json
from .random import CreateParameter
from .simulation import Cleanup, Prepare, Run, RunManager, Simulate
from .sonata.network import SonataNetwork
from .spatial import CreateMask
from .spatial.plotting import PlotLayer, PlotProbabilityParameter, PlotSources, PlotTargets
from .spatial.queries import (
    Displacement,
    Distance,
    DumpLayerConnections,
    DumpLayerNodes,
    FindCenterElement,
    FindNearestElement,
    GetPosition,
    GetSourceNodes,
    GetSourcePositions,
    GetTargetNodes,
    GetTargetPositions,
    SelectNodesByMask,
)
from .structural_plasticity import DisableStructuralPlasticity, EnableStructuralPlasticity
from .tripartite import TripartiteConnect


def GetStatus(
    nodes_or_conns: NodeCollection | SynapseCollection, keys: str | Iterable[str] | None = None, output: str = ""
) -> Any:
    """PyNEST's GetStatus (NEST 3.9's layout): for each node or connection a dict of every
    parameter, its value of one key, or a tuple of its values of a list of keys; output="json"
    gives that as JSON text."""
    if output not in ("", "json"):
        raise BadParameterError(f"output must be '' or 'json', got output = {output!r}")
    n = len(nodes_or_conns)
    if n == 0:
        result: Any = ()
    elif keys:
        result = nodes_or_conns.get(keys)
        if isinstance(keys, str):
            result = (result,) if n == 1 else result
        else:
            result = (tuple(result.values()),) if n == 1 else tuple(zip(*result.values()))
    else:
        result = nodes_or_conns.get()
        result = (result,) if n == 1 else tuple({k: v[j] for k, v in result.items()} for j in range(n))
    return to_json(result) if output == "json" else result


def SetStatus(
    nodes: NodeCollection | SynapseCollection, params: str | dict[str, Any] | list[dict[str, Any]], val: Any = None
) -> None:
    if isinstance(params, str):
        params = {params: val}
    nodes.set(params)


def NumProcesses() -> int:
    """Number of MPI processes (1 without MPI)."""
    return _state.state.kernel.num_processes


def Rank() -> int:
    """This process's MPI rank."""
    return _state.state.kernel.rank


def __getattr__(name: str) -> types.ModuleType:
    """raster_plot and voltage_trace load matplotlib: only when first used."""
    if name in ("raster_plot", "voltage_trace"):
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'ranvier' has no attribute {name!r}")


def _finalize():
    recording.close_all()
    _state.state = None  # type: ignore[assignment]  # frees MPI windows before MPI goes; nothing runs after
    _kernel.finalize_mpi()


atexit.register(_finalize)

sys.modules[__name__].__class__ = KernelAttributeModule
sys.meta_path.insert(0, import_alias.SubmoduleOfAlias())
