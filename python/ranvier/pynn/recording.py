"""PyNN's Recorder on Ranvier: a spike_recorder per population for spikes and a multimeter per
recorded variable, read from the kernel's events (all of them up to now, without PyNEST's
one-slice lag of multimeter samples); times relative to the last reset."""

from typing import Any

import numpy as np
from pyNN import recording

import ranvier as rv
from ranvier import recording as rv_recording

from . import simulator


class Recorder(recording.Recorder):
    _simulator = simulator

    def __init__(self, population: Any, file: Any = None) -> None:
        super().__init__(population, file)
        self._spike_recorder: Any = None
        self._samplers: dict[str, Any] = {}  # PyNN variable -> multimeter
        self._consumed: dict[int, int] = {}  # device node id -> events read and cleared

    def get(self, variables: Any, gather: Any = False, *args: Any, **kwargs: Any) -> Any:
        """PyNN's get; its MPI gather (by mpi4py) is not needed: every cell is local to every rank,
        and after each run Ranvier's rank 0 holds what every rank recorded."""
        return super().get(variables, False, *args, **kwargs)

    def count(self, variable: Any, gather: Any = True, filter_ids: Any = None) -> Any:
        return super().count(variable, False, filter_ids)

    def _record(self, variable: Any, new_ids: Any, sampling_interval: float | None = None) -> None:
        ids = sorted(int(i) for i in new_ids)
        if not ids:
            return
        cells = rv.NodeCollection(ids)
        if variable.name == "spikes":
            if self._spike_recorder is None:
                self._spike_recorder = rv.Create("spike_recorder")
            rv.Connect(cells, self._spike_recorder)
            return
        sampler = self._samplers.get(variable.name)
        if sampling_interval is not None:
            self.sampling_interval = sampling_interval
        if sampler is None:
            native, _ = self.population.celltype.state_variables[variable.name]
            interval = self.sampling_interval
            sampler = rv.Create("multimeter", params={"record_from": [native], "interval": interval})
            self._samplers[variable.name] = sampler
        rv.Connect(sampler, cells)

    def _events(self, device: Any, clear: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The device's events not cleared yet: senders, times (from the last reset), values."""
        gid = int(device.global_id)
        senders, times, values = rv_recording.kernel_events(gid)
        start = self._consumed.get(gid, 0)
        if clear:
            self._consumed[gid] = len(senders)
        _, ms = rv_recording.grid_times(times[start:])
        values = values[start:]
        if device is self._spike_recorder and values.ndim == 2 and values.shape[1] == 1:
            ms = ms - values[:, 0]  # precise spike times: offsets before the end of the step
        return senders[start:].astype(np.int64), ms - simulator.state.offset, values

    def _get_spiketimes(self, ids: Any, clear: bool = False) -> tuple[np.ndarray, np.ndarray]:
        if self._spike_recorder is None:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        senders, times, _ = self._events(self._spike_recorder, clear)
        mine = np.isin(senders, np.asarray([int(i) for i in ids], dtype=np.int64))
        return senders[mine], times[mine]

    def _get_all_signals(self, variable: Any, ids: Any, clear: bool = False) -> tuple[np.ndarray, np.ndarray]:
        ids = [int(i) for i in ids]
        sampler = self._samplers.get(variable.name)
        if sampler is None or not ids:
            return np.zeros((0, len(ids))), np.zeros(0)
        senders, times, values = self._events(sampler, clear)
        _, factor = self.population.celltype.state_variables[variable.name]
        sample_times = np.unique(times)
        out = np.full((len(sample_times), len(ids)), np.nan)
        column = {gid: k for k, gid in enumerate(ids)}
        rows = np.searchsorted(sample_times, times)
        for k, (gid, row) in enumerate(zip(senders.tolist(), rows.tolist())):
            if gid in column:
                out[row, column[gid]] = values[k, 0] / factor
        start = float(self._recording_start_time.magnitude)
        if not len(sample_times) or sample_times[0] > start + 1e-9:  # the value at the start, as PyNN shows it
            out = np.vstack([self._initial_row(variable.name, ids), out])
            sample_times = np.r_[start, sample_times]
        return out, sample_times

    def _initial_row(self, name: str, ids: list[int]) -> np.ndarray:
        population = self.population
        if name not in population.initial_values:
            return np.zeros((1, len(ids)))
        values = population.initial_values[name]
        values.shape = (population.size,)
        everyone = np.asarray(values.evaluate(simplify=False), dtype=float)
        return everyone[[population.id_to_index(i) for i in ids]][np.newaxis, :]

    def _local_count(self, variable: Any, filter_ids: Any = None) -> dict[int, int]:
        ids = self.filter_recorded(variable, filter_ids)
        counts = dict.fromkeys((int(i) for i in ids), 0)
        if self._spike_recorder is not None:
            senders, _, _ = self._events(self._spike_recorder, clear=False)
            for gid, n in zip(*np.unique(senders, return_counts=True)):
                if int(gid) in counts:
                    counts[int(gid)] = int(n)
        return counts

    def _clear_simulator(self) -> None:
        for device in [self._spike_recorder, *self._samplers.values()]:
            if device is not None:
                self._events(device, clear=True)

    def _reset(self) -> None:
        """Records nothing from now on (the devices stay, unread)."""
        self._clear_simulator()
        self._spike_recorder, self._samplers = None, {}
