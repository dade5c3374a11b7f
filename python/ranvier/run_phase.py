"""Whether the current kernel is between Prepare and Cleanup (PyNEST's run phase), known
apart from simulation.py so that what must not happen inside it (kernel status, checkpoints)
can ask without importing the simulation."""

from . import kernel_ref


class _Phase:
    prepared_for: kernel_ref.Ref | None = None  # the kernel that Prepare was called on


def is_prepared() -> bool:
    return kernel_ref.is_current(_Phase.prepared_for)


def set_prepared(prepared: bool) -> None:
    _Phase.prepared_for = kernel_ref.current() if prepared else None
