"""A multimeter on NEST 3.10's current generators (tests/fixtures/nest_generator_current.json,
written by benchmarks/peers/nest_generator_current_fixture.py): the recordable "I" of dc, ac,
step_current and noise generators, its times and values after two Runs, sinusoidal_poisson_generator's
"rate", and the errors for what is not recordable."""

import json
import os
import sys

import numpy as np
import pytest

import ranvier as nest

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "benchmarks", "peers"))
from nest_generator_current_fixture import scenario  # noqa: E402


@pytest.fixture(scope="module")
def runs():
    with open(os.path.join(HERE, "fixtures", "nest_generator_current.json")) as f:
        reference = json.load(f)
    try:
        yield reference, scenario(nest)
    finally:
        nest.ResetKernel()


def shown_by_both(mine, reference):
    """The same samples: those of the Run's last min_delay slice (1 ms here) show after the
    next Run on both (the last at 4.8 ms of 6)."""
    assert len(mine["times"]) == len(reference["times"]) and mine["times"][-1] == 4.8
    return mine


def test_recordables_as_nest(runs):
    reference, mine = runs
    assert mine["recordables"] == reference["recordables"]


@pytest.mark.parametrize("generator", ["dc", "ac", "step"])
def test_current_as_nest(runs, generator):
    reference, mine = runs
    both = shown_by_both(mine[generator], reference[generator])
    # NEST's times are tics x ms_per_tic (3.3000000000000003), Ranvier's the nearest doubles
    np.testing.assert_allclose(both["times"], reference[generator]["times"], rtol=1e-15, atol=0)
    np.testing.assert_allclose(both["I"], reference[generator]["I"], rtol=1e-12, atol=1e-12)


def test_sinusoidal_rate_as_nest(runs):
    """Recorded in every step, also outside the generator's start/stop window (1 to 3 ms)."""
    reference, mine = runs
    np.testing.assert_allclose(mine["sinusoidal_rate"]["times"], reference["sinusoidal_rate"]["times"], rtol=1e-15)
    np.testing.assert_allclose(mine["sinusoidal_rate"]["rate"], reference["sinusoidal_rate"]["rate"], rtol=1e-12)
    assert len(mine["sinusoidal_rate"]["times"]) == 40


def test_noise_current_where_nest_has_it(runs):
    """The draws differ; the zeros before start, the times and the changes every dt are NEST's,
    and the mean over the generator's two targets stays near the mean (10 pA, sd 2/sqrt(2))."""
    reference, mine = runs
    both, ref = shown_by_both(mine["noise"], reference["noise"]), reference["noise"]
    np.testing.assert_allclose(both["times"], ref["times"], rtol=1e-15, atol=0)
    zero, ref_zero = np.asarray(both["I"]) == 0.0, np.asarray(ref["I"]) == 0.0
    assert (zero == ref_zero).all()
    changes = np.diff(both["I"]) != 0.0
    assert (changes[~ref_zero[:-1]] == (np.diff(ref["I"]) != 0.0)[~ref_zero[:-1]]).all()
    assert all(abs(i - 10.0) < 5 * 2 / np.sqrt(2) for i in np.asarray(both["I"])[~zero])


def test_noise_current_is_the_mean_of_its_targets():
    """Each target gets its own noise; I shows their mean, as NEST's: its spread falls as
    1 / sqrt(targets) (std 50 pA: about 50 for one target, 25 for four)."""
    spread = {}
    for n_targets in (1, 4):
        nest.ResetKernel()
        noise = nest.Create("noise_generator", params={"mean": 0.0, "std": 50.0, "dt": 0.1})
        nest.Connect(noise, nest.Create("iaf_psc_alpha", n_targets))
        mm = nest.Create("multimeter", params={"record_from": ["I"], "interval": 0.1})
        nest.Connect(mm, noise)
        nest.Simulate(100.0)
        spread[n_targets] = np.std(mm.events["I"][mm.events["times"] > 0.2])
    assert 45.0 < spread[1] < 55.0 and 22.5 < spread[4] < 27.5


@pytest.mark.parametrize("error", ["V_m_of_dc", "I_of_poisson", "voltmeter_on_dc"])
def test_refused_as_nest(runs, error):
    reference, mine = runs
    assert mine[error] is not None
    assert issubclass(getattr(nest.errors, mine[error]), getattr(nest.NESTErrors, reference[error]))


def test_errors_name_the_node_and_variable():
    nest.ResetKernel()
    dc = nest.Create("dc_generator")
    with pytest.raises(nest.NESTErrors.IllegalConnection, match="dc_generator.*records only I, not V_m"):
        nest.Connect(nest.Create("voltmeter"), dc)
    with pytest.raises(nest.NESTErrors.IllegalConnection, match="poisson_generator.*has no recordables"):
        nest.Connect(nest.Create("multimeter", params={"record_from": ["I"]}), nest.Create("poisson_generator"))
    nest.Simulate(1.0)  # the kernel stays usable
