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
