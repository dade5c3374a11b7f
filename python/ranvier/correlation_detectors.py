"""NEST's correlation_detector, correlomatrix_detector and correlospinmatrix_detector. The
kernel records the spikes of their sources with each connection's receptor_type (the channel)
and weight (devices/correlation_detectors.cpp); their histograms are computed here from those
events, in the order of their times, with NEST's arithmetic as NEST computes them while spikes
arrive:

- correlation_detector: the cross-correlation of channels 0 and 1, ``histogram`` (weighted,
  summed with Kahan's compensation, which ``histogram_correction`` holds), ``count_histogram``
  and ``n_events`` per channel; bin k holds lags (of channel 1 after channel 0) around
  (k - tau_max / delta_tau) delta_tau.
- correlomatrix_detector: ``covariance`` and ``count_covariance`` of every pair of its
  ``N_channels`` channels, lags 0 .. tau_max (a spike paired with itself too), and ``n_events``.
- correlospinmatrix_detector: the ``count_covariance`` of binary neurons' states (channels of
  their pairs and single spikes), lags -tau_max .. tau_max, in steps of overlap.

Setting ``n_events`` to zeros, or any of delta_tau, tau_max, Tstart, Tstop (N_channels),
starts them anew, as in NEST."""

import bisect
import math
from typing import Any

import numpy as np

from . import _state, recording
from .errors import BadParameterError

RESETTING = ("delta_tau", "tau_max", "Tstart", "Tstop", "N_channels")


def _steps(ms: float) -> int:
    return int(round(ms / _state.state.resolution))


def _spikes(gid: int, params: dict[str, Any]):
    """The recorded spikes, by time then channel: steps, channels, weights, and whether each
    lies in [Tstart, Tstop]."""
    events = recording.events(gid)
    times = np.asarray(events["times"])
    steps = (times if params.get("time_in_steps") else np.rint(times / _state.state.resolution)).astype(np.int64)
    channels, weights = events["receptors"], events["weights"]
    order = np.lexsort((events["senders"], channels, steps))
    steps, channels, weights = steps[order], channels[order], weights[order]
    t_start, t_stop = _steps(params["Tstart"]), params["Tstop"] / _state.state.resolution
    return steps.tolist(), channels.tolist(), weights.tolist(), ((steps >= t_start) & (steps <= t_stop)).tolist()


def _correlation(gid: int, params: dict[str, Any]) -> dict[str, Any]:
    dt, tau_max = _steps(params["delta_tau"]), _steps(params["tau_max"])
    bins = 1 + 2 * tau_max // dt
    histogram, correction, count = [0.0] * bins, [0.0] * bins, [0.0] * bins
    n_events = [0, 0]
    incoming: list[list[tuple[int, float]]] = [[], []]
    tau_edge = tau_max + 0.5 * dt
    for t_i, s, w_i, counted in zip(*_spikes(gid, params)):
        other = 1 - s
        others = incoming[other]
        while others and (t_i - others[0][0]) - 0.5 * other >= tau_edge:  # left of the window
            others.pop(0)
        if counted:
            n_events[s] += 1
            sign = 2 * s - 1
            for t_j, w_j in others:
                b = math.floor((tau_edge + sign * (t_i - t_j)) / dt)
                y = w_i * w_j - correction[b]
                t = histogram[b] + y
                correction[b] = (t - histogram[b]) - y
                histogram[b] = t
                count[b] += 1
        bisect.insort_right(incoming[s], (t_i, w_i))
    return {
        "histogram": np.array(histogram),
        "histogram_correction": np.array(correction),
        "count_histogram": np.array(count),
        "n_events": np.array(n_events),
    }


def _correlomatrix(gid: int, params: dict[str, Any]) -> dict[str, Any]:
    dt, tau_max, n = _steps(params["delta_tau"]), _steps(params["tau_max"]), int(params["N_channels"])
    bins = 1 + tau_max // dt
    covariance, count = np.zeros((n, n, bins)), np.zeros((n, n, bins))
    n_events = [0] * n
    incoming: list[tuple[int, float, int]] = []
    tau_edge = tau_max + 0.5 * dt
    min_delay = recording.min_delay_steps()
    for t_i, s, w_i, counted in zip(*_spikes(gid, params)):
        bisect.insort_right(incoming, (t_i, w_i, s))
        while incoming and (t_i - incoming[0][0]) >= tau_edge + min_delay:
            incoming.pop(0)
        if not counted:
            continue
        n_events[s] += 1
        for t_j, w_j, other in incoming:
            a, b = (other, s) if t_i < t_j else (s, other)
            lag = abs(t_i - t_j)
            k = int(-math.floor((0.5 * dt - lag) / dt)) if a <= b else math.floor((0.5 * dt + lag) / dt)
            if k >= bins:
                continue
            covariance[a, b, k] += w_i * w_j
            count[a, b, k] += 1
            if k == 0 and (lag != 0 or other != s):
                covariance[b, a, 0] += w_i * w_j
                count[b, a, 0] += 1
    return {"covariance": covariance, "count_covariance": count, "n_events": np.array(n_events)}


def _correlospinmatrix(gid: int, params: dict[str, Any]) -> dict[str, Any]:
    """NEST's decoding of binary neurons' pulses on each channel (two spikes of a channel at one
    time: a change to 1; one: a change to 0, known only at the next spike) and the overlap in
    steps of every pair of pulses at each lag (-tau_max .. tau_max), counted when a pulse ends."""
    dt, tau_max, n = _steps(params["delta_tau"]), _steps(params["tau_max"]), int(params["N_channels"])
    t0 = tau_max // dt
    count = np.zeros((n, n, 1 + 2 * tau_max // dt))
    on, last_change = [False] * n, [0] * n
    last_i, t_last, tentative_down = 0, -1, False  # no spike yet (NEST: -inf)
    pulses: list[tuple[int, int, int]] = []  # (t_off, t_on, channel), by t_off
    tau_edge, min_delay = tau_max + dt, recording.min_delay_steps()
    for t, c, _, _ in zip(*_spikes(gid, params)):
        down = False
        if c == last_i and t == t_last:  # the second of a pair
            on[c], last_change[c], tentative_down = True, t, False
        else:
            down, tentative_down = tentative_down, True
        if down:
            i, t_i_on, t_i_off = last_i, last_change[last_i], t_last
            t_min_on = min([t_i_on] + [last_change[k] for k in range(n) if on[k]])
            while pulses and t_min_on - pulses[0][0] >= tau_edge + min_delay:
                pulses.pop(0)
            bisect.insort_right(pulses, (t_i_off, t_i_on, i), key=lambda p: p[0])
            for t_j_off, t_j_on, j in pulses:
                lo, hi = max(t_j_on - t_i_off, -tau_max), min(t_j_off - t_i_on, tau_max)
                overlap = min(t_i_off, t_j_off) - max(t_i_on, t_j_on)
                if overlap > 0:
                    count[i, j, t0] += overlap
                    if i != j:
                        count[j, i, t0] += overlap
                shifts = list(range(math.trunc(lo / dt), 0)) + (
                    list(range(1, math.trunc(hi / dt) + 1)) if i != j else []
                )
                for d in shifts:
                    overlap = min(t_i_off, t_j_off - d * dt) - max(t_i_on, t_j_on - d * dt)
                    if overlap > 0:
                        count[i, j, t0 - d] += overlap
                        count[j, i, t0 + d] += overlap
            last_change[i] = t_i_off
        last_i, t_last = c, t
    return {"count_covariance": count}


ANALYSES = {
    "correlation_detector": _correlation,
    "correlomatrix_detector": _correlomatrix,
    "correlospinmatrix_detector": _correlospinmatrix,
}
KEYS = {
    "correlation_detector": ("histogram", "histogram_correction", "count_histogram", "n_events"),
    "correlomatrix_detector": ("covariance", "count_covariance", "n_events"),
    "correlospinmatrix_detector": ("count_covariance",),
}


def analyses(model) -> bool:
    return model.base in ANALYSES


def value(model, gid: int, name: str) -> Any:
    """One of the detector's results now (empty arrays before the first Simulate, as NEST's)."""
    params = _state.state.kernel.device_parameters(int(gid))
    if not recording.simulated():
        return empty(model, params)[name]
    return ANALYSES[model.base](gid, params)[name]


def empty(model, params: dict[str, Any]) -> dict[str, Any]:
    if model.base == "correlation_detector":
        return {k: np.zeros(0) for k in KEYS[model.base][:3]} | {"n_events": np.zeros(2, dtype=np.int64)}
    n = int(params["N_channels"])
    if model.base == "correlospinmatrix_detector":
        return {"count_covariance": np.zeros((n, n, 0))}
    return {
        "covariance": np.zeros((n, n, 0)),
        "count_covariance": np.zeros((n, n, 0)),
        "n_events": np.zeros(n, dtype=np.int64),
    }


def resets(model, params: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """params without n_events (only zeros start a detector anew, as in NEST), and whether they
    start it anew."""
    params = dict(params)
    if "n_events" in params and "n_events" in KEYS[model.base]:
        given = np.asarray(params.pop("n_events"))
        if given.ndim != 1 or given.size == 0 or np.any(given != 0):
            raise BadParameterError(f"n_events can only be set to zeros, got n_events = {given.tolist()!r}")
        return params, True
    return params, any(k in params for k in RESETTING)


def status_keys(model) -> tuple[str, ...]:
    """What a recorder's status shows beyond its parameters: a detector's results, or events."""
    return KEYS.get(model.base, ("events", "n_events"))
