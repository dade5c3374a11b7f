"""PyNEST's exception names for Ranvier's errors, so that ``except nest.NESTError`` and
``except nest.NESTErrors.BadProperty`` catch what Ranvier raises."""

import types

from .errors import (
    BadParameterError,
    KernelStateError,
    NumericalInstabilityError,
    RanvierError,
    RecordingFileError,
    UnknownModelError,
    UnknownNodeError,
    UnknownParameterError,
    UnsupportedRequestError,
)

NESTError = RanvierError


class _NESTErrors(types.SimpleNamespace):
    """NEST's namespace of error classes. As NEST's, any other name gives a class (the same one
    each time) under NESTError, which Ranvier raises under no name of its own."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        error = type(
            name,
            (RanvierError,),
            {"__module__": __name__, "__doc__": f"NEST's {name}; Ranvier raises no error by this name"},
        )
        setattr(self, name, error)
        return error


NESTErrors = _NESTErrors(
    NESTError=RanvierError,
    KernelException=RanvierError,
    SLIException=RanvierError,
    PyNESTError=RanvierError,
    BadDelay=BadParameterError,
    InexistentConnection=BadParameterError,
    UnknownReceptorType=BadParameterError,
    StepMultipleRequired=BadParameterError,
    TimeMultipleRequired=BadParameterError,
    BadProperty=BadParameterError,
    BadParameter=BadParameterError,
    BadParameterValue=BadParameterError,
    TypeMismatch=BadParameterError,
    # Ranvier raises IllegalConnectionError (a BadParameterError) where the kernel refuses a
    # connection, and BadParameterError where Python checks Connect's arguments, for some of
    # which NEST raises IllegalConnection: catching it catches both.
    IllegalConnection=BadParameterError,
    NewModelNameExists=BadParameterError,
    UnknownModelName=UnknownModelError,
    UnknownSynapseType=UnknownModelError,
    UnknownNode=UnknownNodeError,
    UnaccessedDictionaryEntry=UnknownParameterError,
    KernelStateError=KernelStateError,
    IOError=RecordingFileError,
    NumericalInstability=NumericalInstabilityError,
    DynamicModuleManagementError=KernelStateError,
    NotImplemented=UnsupportedRequestError,
)
