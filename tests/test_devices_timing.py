"""When generators act, against NEST 3.10 (fixture by benchmarks/peers/nest_device_traces.py).

NEST 3.10 measured: a current generator with start s acts on its target from the step
(s + d, s + d + h] on (d the delay) and last in (stop + d - h, stop + d]; poisson_generator
sends spikes stamped in (start + h, stop + h]. dc_generator drives an iaf_psc_alpha whose V_m
both integrate with the same exact propagator (1e-9 mV); poisson_generator at a rate so high
that every active step has spikes gives the same emission times."""

import numpy as np
import pytest
from device_fixture import FIXTURE, SPEC, H, applied_current, spikes_to_parrots, trace


@pytest.mark.parametrize("name", sorted(n for n in SPEC["traces"] if n.startswith("dc_")))
def test_dc_trace_matches_nest(name):
    nest = FIXTURE[f"trace/{name}"]  # NEST's voltmeter holds the samples up to T - min_delay
    np.testing.assert_allclose(trace(name)[: len(nest)], nest, rtol=0, atol=1e-9)


def test_dc_generator_acts_from_start_plus_delay():
    # amplitude 100 pA from 2.0 to 5.0 ms with delay 1.0 ms
    current = applied_current(trace("dc_start_stop")[:, None])[:, 0]
    on = np.flatnonzero(np.abs(current) > 1e-6)
    assert on[0] == round((2.0 + 1.0) / H) and on[-1] == round((5.0 + 1.0) / H) - 1
    np.testing.assert_allclose(current[on], 100.0, rtol=1e-9)


def test_dc_traces_identical_for_any_threads():
    one = trace("dc_origin", threads=1)
    for threads in (2, 3):
        np.testing.assert_array_equal(trace("dc_origin", threads=threads), one)


def test_poisson_generator_window_matches_nest():
    model = "poisson_generator"
    times, senders = spikes_to_parrots(SPEC["exact_spikes"][model], 2, 20.0, model=model)
    nest_times, nest_senders = FIXTURE[f"exact/{model}/times"], FIXTURE[f"exact/{model}/senders"]
    for k in range(2):
        np.testing.assert_array_equal(
            np.unique(np.round(times[senders == k] / H)), np.unique(np.round(nest_times[nest_senders == k] / H))
        )
    assert np.round(times.min() / H) == 22 and np.round(times.max() / H) == 51  # 2.2 .. 5.1 ms


@pytest.mark.parametrize(
    "model", ["spike_generator", "poisson_generator", "dc_generator", "multimeter", "spike_recorder"]
)
def test_device_times_off_the_grid_are_refused_as_in_nest(model):
    """NEST 3.10, run at resolution 0.1 ms: origin, start and stop are rounded to tics, then
    refused (BadProperty) unless a multiple of the resolution; SetDefaults likewise."""
    import ranvier as rv

    rv.ResetKernel()
    device = rv.Create(model)
    for name, value in (("start", 0.15), ("stop", 0.25), ("origin", 0.35)):
        with pytest.raises(rv.BadParameterError, match=f"{name} must be a multiple of the simulation resolution"):
            device.set({name: value})
    device.set(start=0.10000000001, stop=0.2)
    assert (device.start, device.stop) == (0.1, 0.2)  # NEST shows the time in tics
    with pytest.raises(rv.BadParameterError, match="start"):
        rv.SetDefaults(model, {"start": 0.15})
