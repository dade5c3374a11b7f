"""PyNEST's exception names for Ranvier's errors, so that ``except nest.NESTError`` and
``except nest.NESTErrors.BadProperty`` catch what Ranvier raises."""
import types

from .errors import (BadParameterError, KernelStateError, NumericalInstabilityError, RanvierError,
                     RecordingFileError, UnknownModelError, UnknownNodeError, UnknownParameterError)

NESTError = RanvierError

NESTErrors = types.SimpleNamespace(
    NESTError=RanvierError,
    KernelException=RanvierError,
    BadProperty=BadParameterError,
    BadParameter=BadParameterError,
    BadParameterValue=BadParameterError,
    TypeMismatch=BadParameterError,
    IllegalConnection=BadParameterError,
    UnknownModelName=UnknownModelError,
    UnknownSynapseType=UnknownModelError,
    UnknownNode=UnknownNodeError,
    UnaccessedDictionaryEntry=UnknownParameterError,
    KernelStateError=KernelStateError,
    IOError=RecordingFileError,
    NumericalInstability=NumericalInstabilityError,
    DynamicModuleManagementError=KernelStateError,
)


def Install(module_name):
    """NEST loads extension modules (NESTML models) here; Ranvier has none to load."""
    raise KernelStateError(
        f"Install({module_name!r}): Ranvier cannot load NEST extension modules; its models are built in "
        "(see ranvier.node_models)")
