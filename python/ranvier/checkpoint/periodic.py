"""Checkpoints every checkpoint_interval ms of model time while Run goes on, so that a job its
scheduler kills resumes from the newest complete one (``LoadCheckpoint(checkpoint_path)``).
Each is a directory in checkpoint_path named by its step; the newest checkpoint_keep stay (and
one more where a kill falls between a new one's completion and the oldest's removal).
They fall at whole multiples of the interval in model time, wherever Run calls start."""

import os
import shutil

from .. import _state, network
from ..python_settings import Settings
from . import files, saving


def pieces(t: float) -> list[tuple[float, bool]]:
    """Run's t ms as pieces (ms) and whether a checkpoint is due at the end of each."""
    interval = Settings.current()["checkpoint_interval"]
    if interval <= 0.0:
        return [(t, False)]
    h, now = _state.state.resolution, _state.state.kernel.step
    every, end = network.steps_of(interval), now + network.steps_of(t)
    out = []
    for due in range((now // every + 1) * every, end + 1, every):
        out.append(((due - now) * h, True))
        now = due
    if now < end:
        out.append(((end - now) * h, False))
    return out


def save() -> None:
    settings = Settings.current()
    where = settings["checkpoint_path"]
    saving.save(os.path.join(where, f"step-{_state.state.kernel.step:015d}"))
    if _state.state.kernel.rank == 0:
        remove_replaced(where)  # what a kill left
        # renamed first, so that a kill while it is removed leaves nothing that looks complete
        for old in files.complete_in(where)[: -settings["checkpoint_keep"]]:
            os.replace(os.path.join(where, old), os.path.join(where, old + ".old"))
        remove_replaced(where)


def remove_replaced(where: str) -> None:
    for old in os.listdir(where):
        if old.endswith(".old"):
            shutil.rmtree(os.path.join(where, old), ignore_errors=True)
