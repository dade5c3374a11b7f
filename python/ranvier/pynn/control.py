"""setup, end, run and the queries of time and delays, as PyNN's common builders make them."""

from typing import Any

from pyNN import common
from pyNN.common.control import DEFAULT_MAX_DELAY, DEFAULT_MIN_DELAY, DEFAULT_TIMESTEP
from pyNN.recording import get_io

import ranvier as rv

from . import simulator


def setup(timestep: float = DEFAULT_TIMESTEP, min_delay: float | str = DEFAULT_MIN_DELAY, **extra_params: Any) -> int:
    """A fresh Ranvier kernel: resolution `timestep`; `threads` (or PyNN's `threads` name),
    `rng_seed` and any kernel setting by its name."""
    max_delay = extra_params.pop("max_delay", DEFAULT_MAX_DELAY)
    common.setup(timestep, min_delay, **extra_params)
    rv.ResetKernel()
    settings = {"resolution": timestep}
    if "threads" in extra_params:
        settings["local_num_threads"] = extra_params.pop("threads")
    for name in ("rng_seed", "local_num_threads"):
        if name in extra_params:
            settings[name] = extra_params.pop(name)
    rv.SetKernelStatus(settings)
    simulator.state.clear()
    simulator.state.min_delay = min_delay
    precision = extra_params.pop("spike_precision", "off_grid")
    if precision not in ("on_grid", "off_grid"):
        raise ValueError(f"spike_precision must be 'on_grid' or 'off_grid', got spike_precision = {precision!r}")
    simulator.state.spike_precision = precision
    simulator.state.t_flush = float(extra_params.pop("t_flush", -1.0))
    simulator.state.max_delay = max_delay
    simulator.state.mpi_rank, simulator.state.num_processes = rv.Rank(), rv.NumProcesses()
    return rank()


def end(compatible_output: bool = True) -> None:
    """Writes what populations were asked to write at the end."""
    for population, variables, filename in simulator.state.write_on_end:
        population.write_data(get_io(filename), variables)
    simulator.state.write_on_end = []


run, run_until = common.build_run(simulator)
run_for = run
reset = common.build_reset(simulator)
initialize = common.initialize
get_current_time, get_time_step, get_min_delay, get_max_delay, num_processes, rank = common.build_state_queries(
    simulator
)
