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


@contextlib.contextmanager
def kernel_errors():
    """Turns the kernel's C++ exceptions into Ranvier's exception classes."""
    try:
        yield
    except RanvierError:
        raise
    except IndexError as e:
        raise UnknownNodeError(str(e)) from None
    except ValueError as e:
        message = str(e)
        if message.startswith("unknown model"):
            raise UnknownModelError(message) from None
        if " has no parameter " in message or " has no variable " in message:
            raise UnknownParameterError(message) from None
        raise BadParameterError(message) from None
    except RuntimeError as e:
        raise KernelStateError(str(e)) from None
