"""NEST's correlation_detector and correlomatrix_detector: their histograms of a network of
generators and parrots (weights, a window, equal times on both channels, spikes that arrive
late) equal NEST 3.10's to the bit (tests/correlation_network.py, fixture by
benchmarks/peers/nest_network_fixtures.py correlation), for any threads; a known lag lands in
its bin; NEST's checks and resets."""

import json
import pathlib

import correlation_network
import numpy as np
import pytest
from ranvier.errors import BadParameterError

import ranvier as rv

NEST = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_correlation.json").read_text())


@pytest.fixture(autouse=True)
def fresh_kernel():
    rv.ResetKernel()
    yield
    rv.ResetKernel()


def test_histograms_are_nest_s():
    assert correlation_network.run(rv) == NEST


def test_threads_give_identical_histograms():
    assert correlation_network.run(rv, 3) == correlation_network.run(rv)


def test_a_lag_lands_in_its_bin():
    """Channel 1 fires 1.0 ms after channel 0, 20 times: the histogram counts 20 pairs at lag
    +1.0 ms (bin 10 + 2 of 21, delta_tau 0.5 ms) and those pairs' weights' products."""
    times = np.arange(1, 21) * 50.0
    cd = rv.Create("correlation_detector", params={"delta_tau": 0.5, "tau_max": 5.0})
    for channel, (t, w) in enumerate(((times, 2.0), (times + 1.0, 3.0))):
        rv.Connect(
            rv.Create("spike_generator", params={"spike_times": t}),
            cd,
            syn_spec={"receptor_type": channel, "weight": w},
        )
    rv.Simulate(1100.0)
    expected = np.zeros(21)
    expected[12] = 20
    np.testing.assert_array_equal(cd.count_histogram, expected)
    np.testing.assert_array_equal(cd.histogram, 6.0 * expected)
    assert cd.n_events.tolist() == [20, 20]
    cd.set(n_events=[0, 0])  # starts anew
    assert cd.n_events.tolist() == [0, 0] and not cd.count_histogram.any()
    rv.Simulate(100.0)
    assert cd.n_events.tolist() == [0, 0]


def test_checks_are_nest_s():
    assert len(rv.GetDefaults("correlation_detector")["histogram"]) == 0  # sized at the first Simulate
    assert rv.GetDefaults("correlomatrix_detector")["delta_tau"] == 0.5  # 5 steps
    for model, params, message in (
        ("correlation_detector", {"delta_tau": 0.25}, "delta_tau must be a positive multiple of the resolution"),
        ("correlation_detector", {"delta_tau": 1.0, "tau_max": 2.5}, "tau_max must be a multiple of delta_tau"),
        ("correlomatrix_detector", {"delta_tau": 1.0, "tau_max": 10.0}, "delta_tau must be an odd multiple"),
        ("correlomatrix_detector", {"N_channels": 0}, "N_channels must be >= 1"),
    ):
        with pytest.raises(BadParameterError, match=message):
            rv.Create(model, params=params)
    cd = rv.Create("correlation_detector")
    with pytest.raises(BadParameterError, match="n_events can only be set to zeros"):
        cd.set(n_events=[1, 1])
    n = rv.Create("iaf_psc_alpha")
    with pytest.raises(BadParameterError, match="receptor_type must be below 2"):
        rv.Connect(n, cd, syn_spec={"receptor_type": 2})
    with pytest.raises(BadParameterError, match="receptor_type must be 0 for spike_recorder"):
        rv.Connect(n, rv.Create("spike_recorder"), syn_spec={"receptor_type": 1})
    rv.Connect(n, cd, syn_spec={"receptor_type": 1, "weight": 2.0})
    assert rv.GetConnections(n, cd).get(["receptor", "weight"]) == {"receptor": 1, "weight": 2.0}
