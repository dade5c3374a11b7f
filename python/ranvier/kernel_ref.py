"""Which kernel a piece of the Python layer's state belongs to, held without keeping that
kernel alive: an old kernel must go at ResetKernel, and before MPI finalizes."""

import weakref

from . import _state

Ref = weakref.ref[_state.State]  # a kernel, held weakly


def current() -> Ref:
    return weakref.ref(_state.state)


def is_current(ref: Ref | None) -> bool:
    return ref is not None and _state.state is not None and ref() is _state.state
