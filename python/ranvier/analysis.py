"""The statistical model of synchronization cost and of irregular memory access in spike
delivery of Lober, Diesmann and Kunkel (2026, eqs. 2-17), for measured or synthetic
cycle times.

Cycle times are arrays of shape (ranks, cycles): the time each rank spent in deliver +
update + collocate per cycle (``rv.GetKernelStatus("cycle_times_all_ranks")`` with
``record_cycle_times``). The conventional strategy synchronizes all ranks after every
cycle; the structure-aware one after every D cycles (a lumped cycle, eq. 5).
"""

import math
from statistics import NormalDist

import numpy as np
from numpy.typing import ArrayLike


def blom_factor(m: float, alpha: float = 0.375) -> float:
    """xi_M: expected maximum of M standard normal samples (Blom 1958)."""
    if m < 1:
        raise ValueError(f"m must be >= 1, got m = {m}")
    return NormalDist().inv_cdf((m - alpha) / (m - 2 * alpha + 1))


def lumped_cycle_times(cycle_times: ArrayLike, d: int) -> np.ndarray:
    """Sums of D consecutive cycle times per rank (eq. 5); a trailing partial lump is dropped."""
    t = np.atleast_2d(np.asarray(cycle_times, dtype=float))
    lumps = t.shape[1] // d
    return t[:, : lumps * d].reshape(t.shape[0], lumps, d).sum(axis=2)


def expected_runtime(mu: float, sigma: float, cycles: int, ranks: int, d: int = 1, correlated: bool = False) -> float:
    """E[T_wall] of eqs. 8 (d = 1) and 9: S mu + S xi_M sigma / sqrt(D), or S xi_M sigma when
    the D cycles of a rank are fully correlated."""
    spread = sigma if correlated else sigma / math.sqrt(d)
    return cycles * mu + cycles * blom_factor(ranks) * spread


def synchronization_ratio(d: int, autocorrelation: ArrayLike | None = None) -> float:
    """E[T_synch^struc] / E[T_synch^conv]. Independent cycles: 1 / sqrt(D) (eq. 11). With the
    serial autocorrelation rho_k of a rank's cycle times (lags 1 .. D-1), the lumped variance is
    D sigma^2 (1 + 2 sum_k (1 - k/D) rho_k), so the ratio becomes sqrt(that factor / D); fully
    correlated cycles (rho = 1) give 1."""
    if d < 1:
        raise ValueError(f"d must be >= 1, got d = {d}")
    factor = 1.0
    if autocorrelation is not None:
        rho = np.asarray(autocorrelation, dtype=float)[: d - 1]
        k = np.arange(1, len(rho) + 1)
        factor = 1.0 + 2.0 * float(np.sum((1.0 - k / d) * rho))
    return math.sqrt(max(factor, 0.0) / d)


def serial_correlation(cycle_times: ArrayLike, max_lag: int) -> np.ndarray:
    """Autocorrelation of each rank's cycle times at lags 1 .. max_lag, averaged over ranks."""
    t = np.atleast_2d(np.asarray(cycle_times, dtype=float))
    t = t - t.mean(axis=1, keepdims=True)
    var = (t * t).mean(axis=1)
    out = []
    for lag in range(1, max_lag + 1):
        cov = (t[:, :-lag] * t[:, lag:]).mean(axis=1)
        out.append(float(np.mean(np.where(var > 0, cov / np.where(var > 0, var, 1), 1.0))))
    return np.asarray(out)


def synchronization_time(cycle_times: ArrayLike, d: int = 1) -> np.ndarray:
    """Waiting time per rank if all ranks synchronize after every D cycles: the sum over
    (lumped) cycles of the slowest rank's time minus the own (what a barrier measures)."""
    lumped = lumped_cycle_times(cycle_times, d)
    return (lumped.max(axis=0, keepdims=True) - lumped).sum(axis=1)


def predict_synchronization(cycle_times: ArrayLike, d: int) -> dict[str, float]:
    """Predictions for the conventional (every cycle) and structure-aware (every D cycles)
    strategies from measured cycle times: the normal model (eqs. 8-11) with the measured mean
    and standard deviation, the same corrected for serial correlation, and the direct
    evaluation on the samples (eq. 3 and 4)."""
    t = np.atleast_2d(np.asarray(cycle_times, dtype=float))
    ranks, cycles = t.shape
    sigma = float(t.std())
    xi = blom_factor(ranks)
    conventional = cycles * xi * sigma
    rho = serial_correlation(t, max(d - 1, 1)) if cycles > d else None
    return {
        "conventional_model_s": conventional,
        "structure_aware_independent_s": conventional * synchronization_ratio(d),
        "structure_aware_correlated_s": conventional * synchronization_ratio(d, rho),
        "conventional_samples_s": float(synchronization_time(t, 1).mean()),
        "structure_aware_samples_s": float(synchronization_time(t, d).mean()),
        "cv_conventional": float(t.std() / t.mean()),
        "cv_structure_aware": float(lumped_cycle_times(t, d).std() / lumped_cycle_times(t, d).mean()),
    }


def maximum_tail_probability(p: float, ranks: int) -> float:
    """Eq. 12: probability that a cycle's maximum over M ranks comes from a tail of mass p."""
    return 1.0 - (1.0 - p) ** ranks


def tail_mass_for(p_max: float, ranks: int) -> float:
    """The tail mass p whose maxima make up p_max of all per-cycle maxima (eq. 12 inverted)."""
    return 1.0 - (1.0 - p_max) ** (1.0 / ranks)


def maxima_interval(samples: ArrayLike, ranks: int, p_max: float = 0.99) -> tuple[float, float]:
    """Where the upper p_max of the per-cycle maxima are expected: [q, largest sample], q the
    (1 - tail mass) quantile of the cycle times (as Lober et al. (2026) uses eq. 12)."""
    samples = np.asarray(samples, dtype=float).ravel()
    q = float(np.quantile(samples, 1.0 - tail_mass_for(p_max, ranks)))
    return q, float(samples.max())


def target_probability(n_sources: float, n_thread: float, in_degree: float) -> float:
    """Eqs. 13, 15, 16: probability that a neuron has a target among the n_thread neurons of a
    thread with in_degree inputs each drawn from n_sources neurons."""
    return 1.0 - (1.0 - 1.0 / n_sources) ** (n_thread * in_degree)


def irregular_access_conventional(n: float, ranks: int, threads: int, in_degree: float) -> float:
    """Eq. 14: fraction of first-synapse (cache-missing) accesses with round-robin placement."""
    total_threads = ranks * threads
    return target_probability(n, n / total_threads, in_degree) * total_threads / in_degree


def irregular_access_structure_aware(
    n: float, ranks: int, threads: int, in_degree_intra: float, in_degree_inter: float
) -> float:
    """Eq. 17: the same with one area of N/M neurons per rank (eqs. 15, 16)."""
    n_rank, n_thread = n / ranks, n / (ranks * threads)
    p_intra = target_probability(n_rank, n_thread, in_degree_intra)
    p_inter = target_probability(n - n_rank, n_thread, in_degree_inter)
    return (p_intra * threads + p_inter * threads * (ranks - 1)) / (in_degree_intra + in_degree_inter)
