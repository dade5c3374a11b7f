"""tics_per_ms as NEST 3.10 has it (tests/fixtures/nest_tics.json, written by
benchmarks/peers/nest_tics_fixture.py): the time representation by default and after
nest.set(tics_per_ms=..., resolution=...), what is refused, and the times a neuron's
spikes and samples reach the user with 2**5 and 100 tics per ms."""

import json
import os
import sys

import pytest

import ranvier as nest

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "benchmarks", "peers"))
from nest_tics_fixture import scenario  # noqa: E402


@pytest.fixture(scope="module")
def runs():
    with open(os.path.join(HERE, "fixtures", "nest_tics.json")) as f:
        reference = json.load(f)
    try:
        yield reference, scenario(nest)
    finally:
        nest.ResetKernel()


@pytest.mark.parametrize("case", ["default", "tics_32", "tics_32_resolution_0.125", "after_reset"])
def test_time_representation_as_nest(runs, case):
    reference, mine = runs
    assert mine[case] == reference[case]


def test_refused_as_nest(runs):
    """Every setting NEST refuses is refused, with an exception NEST's class names catch, and
    leaves the time representation as it was."""
    reference, mine = runs
    for name, error in {**reference["refused"], **reference["refused_then"]}.items():
        if name.endswith("_unchanged"):
            assert mine["refused"][name] is error, name
        else:
            got = {**mine["refused"], **mine["refused_then"]}[name]
            assert got is not None and issubclass(getattr(nest.errors, got), getattr(nest.NESTErrors, error)), name


def test_spike_times_with_32_tics_per_ms(runs):
    reference, mine = runs
    assert mine["neuron_32"]["spikes"] == reference["neuron_32"]["spikes"] == [20.375]
    assert mine["neuron_32"]["status"] == reference["neuron_32"]["status"]
    assert mine["neuron_32"]["biological_time"] == reference["neuron_32"]["biological_time"]


def test_voltmeter_times_with_32_tics_per_ms(runs):
    """Samples every 0.75 ms; those of the Run's last min_delay slice (1 ms: the recorders'
    connections) show after the next Run, as in NEST: the last is at 39.0 ms."""
    reference, mine = runs
    assert mine["neuron_32"]["voltmeter"] == reference["neuron_32"]["voltmeter"]
    assert mine["neuron_32"]["voltmeter"][-1] == 39.0


def test_times_are_the_nearest_doubles_with_100_tics_per_ms(runs):
    """NEST multiplies tics by ms_per_tic (2040 x 0.01 = 20.400000000000002); Ranvier divides
    once, so that a time is the double nearest to its decimal value, within an ulp of NEST's."""
    reference, mine = runs
    for key in ("spikes", "voltmeter"):
        assert mine["neuron_100"][key] == pytest.approx(reference["neuron_100"][key], rel=1e-15, abs=0)
        assert all(t == round(t, 1) for t in mine["neuron_100"][key])
    assert mine["neuron_100"]["spikes"] == [20.4]
    assert mine["neuron_100"]["status"] == reference["neuron_100"]["status"]


def test_errors_name_the_values():
    nest.ResetKernel()
    with pytest.raises(nest.NESTErrors.BadProperty, match=r"32 tics per ms.*resolution = 0.1"):
        nest.set(tics_per_ms=32, resolution=0.1)
    with pytest.raises(nest.NESTErrors.BadProperty, match="tics_per_ms = 32 must be set together with resolution"):
        nest.tics_per_ms = 32
    with pytest.raises(nest.NESTErrors.BadProperty, match="tics_per_ms = 0"):
        nest.set(tics_per_ms=0, resolution=1.0)
    nest.set(tics_per_ms=8, resolution=0.5)
    nest.Create("iaf_psc_alpha")
    with pytest.raises(nest.NESTErrors.KernelStateError, match="tics_per_ms"):
        nest.set(tics_per_ms=16, resolution=0.5)
    assert (nest.tics_per_ms, nest.ms_per_tic, nest.tics_per_step) == (8.0, 0.125, 4)
    nest.ResetKernel()
    assert nest.tics_per_ms == 1000.0


def test_tics_per_ms_takes_a_float_that_is_a_whole_number():
    nest.ResetKernel()
    nest.set(tics_per_ms=nest.tics_per_ms, resolution=0.1)  # 1000.0, a float, as NEST gives it
    assert (nest.tics_per_ms, nest.tics_per_step) == (1000.0, 100)
    nest.set(tics_per_ms=32.0, resolution=0.25)
    assert (nest.tics_per_ms, nest.ms_per_tic, nest.tics_per_step) == (32.0, 1 / 32, 8)
    for bad in (32.5, float("inf"), float("nan")):
        with pytest.raises(nest.NESTErrors.BadProperty, match=f"tics_per_ms = {bad}"):
            nest.set(tics_per_ms=bad, resolution=1.0)
    assert nest.tics_per_ms == 32.0
    nest.ResetKernel()


def test_spike_train_injector_on_the_tics():
    """A spike time within half a tic of a step is that step: with 0.125 ms tics 1.1 ms lies off the grid."""
    nest.ResetKernel()
    nest.set(tics_per_ms=8, resolution=0.25)
    inj = nest.Create("spike_train_injector", params={"spike_times": [1.0, 2.25]})
    with pytest.raises(nest.NESTErrors.BadProperty, match="spike_times"):
        inj.spike_times = [1.1]
    sr = nest.Create("spike_recorder")
    nest.Connect(inj, sr)
    nest.Simulate(5.0)
    assert sr.events["times"].tolist() == [1.0, 2.25]
    nest.ResetKernel()
