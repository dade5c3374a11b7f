"""The synchronization model of Lober et al. (2026) on synthetic cycle times."""

import math

import numpy as np
import pytest

from ranvier import analysis


def test_blom_factor_matches_simulated_maxima():
    rng = np.random.default_rng(1)
    for m in (8, 64, 256):
        maxima = rng.standard_normal((20000, m)).max(axis=1)
        assert analysis.blom_factor(m) == pytest.approx(maxima.mean(), rel=0.02)
    assert analysis.blom_factor(2) == pytest.approx(1 / math.sqrt(math.pi), rel=0.05)  # small M: rougher


@pytest.mark.parametrize("d", [2, 5, 10])
def test_independent_cycles_reproduce_eq_11(d):
    rng = np.random.default_rng(d)
    t = rng.normal(1.0e-3, 1.0e-4, size=(64, 20000))
    conv = analysis.synchronization_time(t, 1).mean()
    struc = analysis.synchronization_time(t, d).mean()
    assert struc / conv == pytest.approx(1 / math.sqrt(d), rel=0.03)
    assert analysis.synchronization_ratio(d) == pytest.approx(1 / math.sqrt(d))
    p = analysis.predict_synchronization(t, d)
    assert p["cv_structure_aware"] / p["cv_conventional"] == pytest.approx(1 / math.sqrt(d), rel=0.03)
    # the normal model's expected runtimes differ by S xi sigma (1 - 1/sqrt(D)), eq. 10
    e_conv = analysis.expected_runtime(1e-3, 1e-4, 20000, 64)
    e_struc = analysis.expected_runtime(1e-3, 1e-4, 20000, 64, d)
    assert e_conv - e_struc == pytest.approx(20000 * analysis.blom_factor(64) * 1e-4 * (1 - 1 / math.sqrt(d)))


def test_fully_correlated_cycles_give_ratio_one():
    rng = np.random.default_rng(3)
    d = 10
    per_lump = rng.normal(1.0e-3, 1.0e-4, size=(32, 2000))
    t = np.repeat(per_lump, d, axis=1)  # a rank keeps its time for D cycles
    conv = analysis.synchronization_time(t, 1).mean()
    struc = analysis.synchronization_time(t, d).mean()
    assert struc / conv == pytest.approx(1.0, rel=1e-9)
    assert analysis.synchronization_ratio(d, np.ones(d - 1)) == pytest.approx(1.0)  # rho = 1


def test_serial_correlation_corrects_the_ratio():
    rng = np.random.default_rng(4)
    # AR(1) cycle times: partly correlated, between the two limits
    phi, n = 0.6, 40000
    t = np.empty((16, n))
    t[:, 0] = rng.standard_normal(16)
    for s in range(1, n):
        t[:, s] = phi * t[:, s - 1] + math.sqrt(1 - phi**2) * rng.standard_normal(16)
    d = 10
    measured = analysis.synchronization_time(t, d).mean() / analysis.synchronization_time(t, 1).mean()
    predicted = analysis.synchronization_ratio(d, analysis.serial_correlation(t, d - 1))
    assert 1 / math.sqrt(d) < measured < 1.0
    assert measured == pytest.approx(predicted, rel=0.1)


def test_eq_12_tail_of_the_maxima():
    # Lober et al. (2026): with M = 128 the upper 3.5 % of cycle times hold about 99 % of the maxima
    assert analysis.maximum_tail_probability(0.035, 128) == pytest.approx(0.99, abs=0.002)
    assert analysis.tail_mass_for(0.99, 128) == pytest.approx(0.035, abs=0.001)
    rng = np.random.default_rng(5)
    t = rng.normal(size=(128, 4000))
    q, top = analysis.maxima_interval(t, 128)
    assert np.mean(t.max(axis=0) >= q) == pytest.approx(0.99, abs=0.01)


def test_irregular_access_fractions():
    # Lober et al. (2026), fig. 6b: structure-aware placement reduces irregular access at many ranks
    n_rank, k = 130000, 6000
    for m, threads in ((32, 48), (128, 128)):
        conv = analysis.irregular_access_conventional(n_rank * m, m, threads, k)
        struc = analysis.irregular_access_structure_aware(n_rank * m, m, threads, k // 2, k // 2)
        assert 0 < struc < conv <= 1
    assert analysis.target_probability(10, 1, 0) == 0.0
