"""Exceptions raised by Ranvier. Each message names the offending parameter and value."""

import contextlib
from collections.abc import Iterator

from . import _state


class RanvierError(Exception):
    """Base class of every error Ranvier raises on purpose."""


class UnknownModelError(RanvierError, ValueError):
    """A neuron, device or synapse model name that does not exist."""


class UnknownParameterError(RanvierError, KeyError, ValueError):
    """A parameter name the model does not have (a KeyError too, as PyNEST's get raises one)."""

    __str__ = BaseException.__str__  # the message as given, not quoted as a KeyError's


class BadParameterError(RanvierError, ValueError):
    """A parameter value of the wrong type, shape or range."""


class WrongCountError(BadParameterError, IndexError):
    """Values for nodes in a number other than the nodes' (PyNEST's IndexError)."""


class IllegalConnectionError(BadParameterError):
    """A connection its source, target or synapse model cannot take (NEST's IllegalConnection):
    plastic synapses from devices, spikes from or into nodes that send or take none."""


class UnknownNodeError(RanvierError, IndexError):
    """A node id that does not exist."""


class BadIndexError(RanvierError, IndexError):
    """An index, slice or mask outside of the collection it selects from (PyNEST's IndexError)."""


class UnsupportedRequestError(RanvierError, NotImplementedError):
    """A combination of options that NEST does not implement either (NEST's NotImplemented)."""


class KernelStateError(RanvierError, RuntimeError):
    """An operation the kernel cannot do in its current state."""


class NumericalInstabilityError(RanvierError, ArithmeticError):
    """A neuron's state left the range its model can integrate (NEST's NumericalInstability)."""


class OutOfMemoryError(RanvierError, MemoryError):
    """What a call asked to build does not fit in memory; the message names it and its size."""


class RecordingFileError(RanvierError, OSError):
    """A recorder's file that exists (and overwrite_files is off) or cannot be written."""


class CheckpointFileError(RanvierError, OSError):
    """A checkpoint's file that cannot be written or read (the disk, permissions, a path)."""


@contextlib.contextmanager
def kernel_errors(collective: bool = True) -> Iterator[None]:
    """Makes a kernel call fail on every rank or on none. The kernel raises its errors as
    these classes already; under MPI, every rank learns whether any rank failed and raises
    the first failing rank's error, so an error on one rank's nodes never leaves the other
    ranks waiting. collective=False: a call a rank makes alone (reading its own connections)
    raises where it fails."""
    error = None
    try:
        yield
    except RanvierError as e:
        error = e
    kernel = _state.state.kernel
    if collective and kernel.num_processes > 1:
        failed, kind, message = kernel.agree_error(error is not None, type(error).__name__, str(error or ""))
        if failed and (error is None or str(error) != message or type(error).__name__ != kind):
            error = globals().get(kind, RanvierError)(message)
    if error is not None:
        raise error from None
