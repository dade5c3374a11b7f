"""Simulate, and its parts as PyNEST has them: Prepare, Run (any number of times), Cleanup,
and the RunManager context manager that calls Prepare and Cleanup around Runs.

``print_time = True`` shows progress: a tqdm bar where tqdm is installed and the output is
a terminal or a notebook, else one line every few seconds (never a flood: NEST issue #3325)."""

import contextlib
import math
import sys
import time
import warnings
from collections.abc import Iterator

import numpy as np

from . import _state, kernel_settings, network, recording
from .checkpoint import periodic
from .errors import KernelStateError
from .parameters import apply_pending
from .python_settings import Settings
from .run_phase import is_prepared, set_prepared
from .sonata import recorder_files

_LOG_INTERVAL = 5.0  # seconds between progress lines in a log


def Prepare() -> None:
    """Readies the network for Run: settles pending parameters and opens recorders' files."""
    if is_prepared():
        raise KernelStateError("Prepare was called twice without Cleanup")
    kernel_settings.check_same_on_every_rank()
    apply_pending()
    recording.prepare()
    recorder_files.prepare()
    set_prepared(True)


def Cleanup() -> None:
    """Ends a Prepare: closes the recorders' files."""
    if not is_prepared():
        raise KernelStateError("Cleanup was called without Prepare")
    recording.cleanup()
    recorder_files.cleanup()
    set_prepared(False)


def Run(t: float) -> None:
    """Advances a prepared network by t ms (a multiple of the resolution)."""
    if not is_prepared():
        raise KernelStateError("Run needs Prepare first (or use Simulate, or RunManager)")
    progress = Settings.current()["print_time"]
    unsettled = _state.state.kernel.status()["wfr_unsettled_cycles"]
    _state.state.kernel.begin_run()  # NEST's local_spike_counter counts the whole Run, however it is cut
    for piece, checkpoint_due in periodic.pieces(t):
        if progress or recorder_files.streaming() or recording.streaming():
            _run_in_pieces(piece, progress)
        else:
            network.Simulate(piece)
        recording.after_run()
        recorder_files.write_new()
        if checkpoint_due:
            periodic.save()
    _state.state.kernel.end_run()  # NEST brings calcium and synaptic elements up to the end of each Run
    _warn_unsettled(unsettled)


def _warn_unsettled(before):
    """NEST's warning where waveform relaxation ran out of passes before the rates settled."""
    cycles = _state.state.kernel.status()["wfr_unsettled_cycles"] - before
    if cycles:
        warnings.warn(
            f"waveform relaxation reached wfr_max_iterations = {_state.state.settings['wfr_max_iterations']} "
            f"before the coupled neurons settled to wfr_tol in {cycles} cycles of this run; raise either",
            stacklevel=3,
        )


def Simulate(t: float) -> None:
    """Advances the network by t ms; a later call continues where this one stopped."""
    network.steps_of(t)  # a bad t fails before Prepare
    Prepare()
    try:
        Run(t)
    finally:
        Cleanup()


@contextlib.contextmanager
def RunManager() -> Iterator[None]:
    """``with nest.RunManager(): nest.Run(10.0); ...``: Prepare before, Cleanup after."""
    Prepare()
    try:
        yield
    finally:
        Cleanup()


def _progress_bar(total):
    """A tqdm bar for a terminal or notebook, else None."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    interactive = sys.stderr.isatty() or "ipykernel" in sys.modules
    return tqdm(total=total, unit="ms", desc="Simulate", leave=False) if interactive else None


def _agreed(piece):
    """The smallest rank's piece: every rank runs the same pieces (each ends with a gather)."""
    kernel = _state.state.kernel
    if kernel.num_processes == 1:
        return piece
    return int(kernel.allgather_doubles(np.array([float(piece)])).min())


def _run_in_pieces(t, progress):
    """Runs in pieces of about a second of wall-clock time; after each, streamed files (sonata
    and ascii recorders') get the piece's events and, with progress, the progress is shown."""
    h = _state.state.resolution
    steps = network.steps_of(t)
    bar = _progress_bar(t) if progress else None
    start, last_line, done, piece = time.perf_counter(), -math.inf, 0, max(1, steps // 100)
    t0 = _state.state.kernel.step * h
    try:
        while done < steps:
            n = min(piece, steps - done)
            tic = time.perf_counter()
            network.Simulate(n * h)
            done += n
            if done < steps:
                recorder_files.write_new()
                recording.after_run()
            elapsed = time.perf_counter() - start
            piece = _agreed(max(1, int(n * 1.0 / max(time.perf_counter() - tic, 1e-3))))  # ~1 s per piece
            if not progress:
                continue
            rtf = elapsed / (done * h / 1000.0)
            if bar is not None:
                bar.update(n * h)
                bar.set_postfix_str(f"real-time factor {rtf:.3g}")
            elif time.perf_counter() - last_line >= _LOG_INTERVAL or done == steps:
                last_line = time.perf_counter()
                sys.stdout.write(
                    f"[ {100.0 * done / steps:5.1f}% ] Model time: {t0 + done * h:.1f} ms, "
                    f"Real-time factor: {rtf:.4f}\n"
                )
                sys.stdout.flush()
    finally:
        if bar is not None:
            bar.close()
