"""Ranvier as a PyNN back end: ``import pyNN.ranvier as sim`` (PyNN 0.13, ``pip install pynn``).

PyNN's common API runs on Ranvier's PyNEST API: the standard cells, synapses and current
sources (standardmodels.py), PyNN's composed PointNeuron cells (composed.py), Population,
PopulationView and Assembly, Projection with every
connector PyNN ships (their connections made by one Connect), recording to neo. Any Ranvier
model is a cell type through ``native_cell_type("<model>")``."""

from pyNN import errors, random, space  # noqa: F401
from pyNN.connectors import *  # noqa: F403
from pyNN.network import Network  # noqa: F401
from pyNN.random import GSLRNG, NumpyRNG, RandomDistribution  # noqa: F401
from pyNN.recording import *  # noqa: F403
from pyNN.space import Space  # noqa: F401
from pyNN.standardmodels import StandardCellType

from .cells import native_cell_type  # noqa: F401
from .composed import *  # noqa: F403
from .control import (  # noqa: F401
    end,
    get_current_time,
    get_max_delay,
    get_min_delay,
    get_time_step,
    initialize,
    num_processes,
    rank,
    reset,
    run,
    run_for,
    run_until,
    setup,
)
from .native import NativeRNG  # noqa: F401
from .populations import Assembly, Population, PopulationView  # noqa: F401
from .procedural_api import connect, create, record  # noqa: F401
from .projections import Projection  # noqa: F401
from .standardmodels import *  # noqa: F403


def list_standard_models() -> list[str]:
    """The standard cell types this back end has."""
    return [
        name
        for name, obj in globals().items()
        if isinstance(obj, type) and issubclass(obj, StandardCellType) and obj is not StandardCellType
    ]
