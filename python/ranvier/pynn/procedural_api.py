"""PyNN's procedural API (create, connect, record) over this back end's classes."""

from pyNN import common
from pyNN.connectors import FixedProbabilityConnector

from . import simulator
from .populations import Population
from .projections import Projection
from .standardmodels import StaticSynapse

create = common.build_create(Population)
connect = common.build_connect(Projection, FixedProbabilityConnector, StaticSynapse)
record = common.build_record(simulator)
