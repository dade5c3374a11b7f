"""Exceptions raised by Ranvier. Each message names the offending parameter and value."""
import contextlib


class RanvierError(Exception):
    """Base class of every error Ranvier raises on purpose."""


class UnknownModelError(RanvierError, ValueError):
    """A neuron, device or synapse model name that does not exist."""


class UnknownParameterError(RanvierError, ValueError):
    """A parameter name the model does not have."""


class BadParameterError(RanvierError, ValueError):
    """A parameter value of the wrong type, shape or range."""


class UnknownNodeError(RanvierError, IndexError):
    """A node id that does not exist."""


class KernelStateError(RanvierError, RuntimeError):
    """An operation the kernel cannot do in its current state."""


class RecordingFileError(RanvierError, OSError):
    """A recorder's file that exists (and overwrite_files is off) or cannot be written."""


_BY_NAME = {}


def _translate(error):
    """A Ranvier exception for a C++ exception of the kernel."""
    if isinstance(error, RanvierError):
        return error
    message = str(error)
    if isinstance(error, IndexError):
        return UnknownNodeError(message)
    if isinstance(error, ValueError):
        if message.startswith("unknown model"):
            return UnknownModelError(message)
        if " has no parameter " in message or " has no variable " in message:
            return UnknownParameterError(message)
        return BadParameterError(message)
    if isinstance(error, RuntimeError):
        return KernelStateError(message)
    return None


@contextlib.contextmanager
def kernel_errors():
    """Turns the kernel's C++ exceptions into Ranvier's exception classes. Under MPI, every
    rank learns whether any rank failed and raises the first failing rank's error, so an
    error on one rank's nodes never leaves the other ranks waiting."""
    from . import _state

    error = None
    try:
        yield
    except Exception as e:  # noqa: BLE001 - every error must reach the other ranks
        error = _translate(e)
        if error is None:
            raise
    kernel = _state.state.kernel
    if kernel.num_processes > 1:
        failed, kind, message = kernel.agree_error(error is not None, type(error).__name__, str(error or ""))
        if failed and (error is None or str(error) != message or type(error).__name__ != kind):
            error = _BY_NAME.get(kind, RanvierError)(message)
    if error is not None:
        raise error from None


for _cls in (RanvierError, UnknownModelError, UnknownParameterError, BadParameterError, UnknownNodeError,
             KernelStateError, RecordingFileError):
    _BY_NAME[_cls.__name__] = _cls
