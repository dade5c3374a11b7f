"""The state of a PyNN simulation on Ranvier: its clock (Ranvier's time less the offset that
``reset`` leaves, as pyNN.nest keeps one), delays, processes and what was made."""

from typing import Any

import numpy as np
from pyNN import common

import ranvier as rv

name = "Ranvier"


class ID(int, common.IDMixin):
    """A PyNN cell id: a Ranvier node id."""

    def __init__(self, n):
        int.__init__(n)
        common.IDMixin.__init__(self)


def plain(value: Any) -> Any:
    """A PyNN parameter value as Ranvier takes it: arrays and numbers as they are, a Sequence
    (spike times) as an array."""
    if hasattr(value, "value") and not isinstance(value, np.ndarray):
        value = value.value
    return value


class State(common.control.BaseState):
    def __init__(self) -> None:
        common.control.BaseState.__init__(self)
        self.mpi_rank, self.num_processes = 0, 1
        self.min_delay_setting: float | str = "auto"
        self.spike_precision = "off_grid"  # pyNN.nest's default
        self.t_flush = -1.0  # none: reset after a run raises
        self.populations: list = []
        self.current_sources: list = []
        self.recorders: set = set()
        self.clear()

    @property
    def t(self) -> float:
        return rv.GetKernelStatus("biological_time") - self.offset

    @property
    def dt(self) -> float:
        return rv.GetKernelStatus("resolution")

    @property
    def min_delay(self) -> float:
        """The smallest delay: as set up, or with "auto" the network's (NEST's min_delay)."""
        return rv.GetKernelStatus("min_delay") if self.min_delay_setting == "auto" else float(self.min_delay_setting)

    @min_delay.setter
    def min_delay(self, value: float | str) -> None:
        self.min_delay_setting = value

    def default_delay(self) -> float:
        """A synapse's delay where none is given: min_delay, or the resolution with "auto"."""
        return self.dt if self.min_delay_setting == "auto" else float(self.min_delay_setting)

    def run(self, simtime: float) -> None:
        self.running = True
        if simtime > 0:
            rv.Simulate(simtime)

    def run_until(self, tstop: float) -> None:
        if tstop > self.t:
            self.run(tstop - self.t)

    def clear(self) -> None:
        self.populations, self.current_sources, self.recorders = [], [], set()
        self.offset, self.segment_counter = 0.0, -1
        self.running = False
        self.segment_counter += 1

    def reset(self) -> None:
        """PyNN's reset: time starts again at 0 (Ranvier's clock goes on; times are read and
        set relative to where it stood), cells take their initial values again, sources shift
        their times. As on pyNN.nest, spikes in flight and synaptic currents are not reset:
        setup's `t_flush` (ms) runs that long first so that they die away."""
        if self.t > 0:
            if self.t_flush < 0:
                raise ValueError(
                    "reset after a run needs setup(t_flush=...): Ranvier's clock cannot go back, so the "
                    "network runs t_flush ms (>> its time constants) before it starts again at 0, as on pyNN.nest"
                )
            self.run(self.t_flush)
        for recorder in self.recorders:  # PyNN kept what they recorded (store_to_cache)
            recorder._clear_simulator()
        sources = [population._source_parameters() for population in self.populations]
        self.offset = rv.GetKernelStatus("biological_time")
        self.running = False
        self.segment_counter += 1
        for population, parameters in zip(self.populations, sources):
            population._restart(parameters)
        for source in self.current_sources:
            source._apply()


state = State()
