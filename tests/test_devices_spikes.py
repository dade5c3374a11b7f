"""sinusoidal_poisson_generator against its rate and NEST 3.10 (fixture by
benchmarks/peers/nest_device_traces.py): spike phases through parrot neurons.

The spikes are random: the phase histogram of all spikes is compared with the expected counts
(the rate summed over the steps of each phase bin) by a chi-square test at p = 1e-4, for
Ranvier and for NEST's fixture alike, and the two histograms with each other."""

import math

import numpy as np
import pytest
from device_fixture import FIXTURE, SPEC, H, reset, spikes_to_parrots
from ranvier.errors import BadParameterError
from scipy import stats

import ranvier as rv

P = SPEC["sinusoidal"]
BINS = SPEC["phase_bins"]


def expected_histogram(targets, t_sim):
    t = np.arange(1, round(t_sim / H) + 1) * H  # spike stamps: the rate of the step's end
    rate = np.maximum(
        0.0, P["rate"] + P["amplitude"] * np.sin(2 * np.pi * P["frequency"] * 1e-3 * t + np.radians(P["phase"]))
    )
    cycle = (t * P["frequency"] * 1e-3) % 1.0
    return targets * np.histogram(cycle, bins=BINS, range=(0, 1), weights=rate * H * 1e-3)[0]


def histogram(times):
    return np.histogram((times * P["frequency"] * 1e-3) % 1.0, bins=BINS, range=(0, 1))[0]


def chi2_ok(observed, expected):
    return np.sum((observed - expected) ** 2 / expected) < stats.chi2.ppf(1 - 1e-4, BINS)


def test_rate_follows_the_sinusoid_as_in_nest():
    targets, t_sim = SPEC["sinusoidal_targets"], SPEC["t_sinusoidal"]
    times, _ = spikes_to_parrots(P, targets, t_sim)
    expected = expected_histogram(targets, t_sim)
    mine, nest = histogram(times), FIXTURE["sinusoidal/phase_histogram"]
    assert chi2_ok(mine, expected)
    assert chi2_ok(nest, expected)
    # two samples: each bin's difference has variance about twice the expectation
    assert np.sum((mine - nest) ** 2 / (mine + nest)) < stats.chi2.ppf(1 - 1e-4, BINS)
    mean_rate = len(times) / targets / (t_sim * 1e-3)
    assert abs(mean_rate - P["rate"]) < 4.5 * math.sqrt(P["rate"] / (targets * t_sim * 1e-3))


def test_individual_trains_are_independent_and_shared_trains_identical():
    times, senders = spikes_to_parrots(P, 3, 1000.0)
    trains = [times[senders == k] for k in range(3)]
    assert all(len(t) > 50 for t in trains) and not np.array_equal(trains[0], trains[1])
    reset()
    rv.CopyModel("sinusoidal_poisson_generator", "shared_sinusoidal", {"individual_spike_trains": False})
    assert rv.GetDefaults("shared_sinusoidal")["individual_spike_trains"] is False
    gen = rv.Create("shared_sinusoidal", params=P)
    parrots = rv.Create("parrot_neuron", 3)
    sr = rv.Create("spike_recorder")
    rv.Connect(gen, parrots)
    rv.Connect(parrots, sr)
    rv.Simulate(1000.0)
    ev = sr.get("events")
    shared = [ev["times"][ev["senders"] == parrots[k].global_id] for k in range(3)]
    assert len(shared[0]) > 50 and all(np.array_equal(shared[0], s) for s in shared[1:])


def test_spikes_identical_for_any_threads():
    one = spikes_to_parrots({**P, "start": 20.0, "stop": 300.0}, 11, 400.0, threads=1)
    assert one[0].min() > 20.0 and one[0].max() <= 300.0
    for threads in (2, 3):
        other = spikes_to_parrots({**P, "start": 20.0, "stop": 300.0}, 11, 400.0, threads=threads)
        order = np.lexsort((one[1], one[0])), np.lexsort((other[1], other[0]))
        np.testing.assert_array_equal(one[0][order[0]], other[0][order[1]])
        np.testing.assert_array_equal(one[1][order[0]], other[1][order[1]])


def test_individual_spike_trains_is_a_model_default():
    reset()
    with pytest.raises(BadParameterError, match="individual_spike_trains"):
        rv.Create("sinusoidal_poisson_generator", params={"individual_spike_trains": False})
    g = rv.Create("sinusoidal_poisson_generator")
    with pytest.raises(BadParameterError, match="individual_spike_trains"):
        g.set(individual_spike_trains=False)
    with pytest.raises(BadParameterError, match="individual_spike_trains"):
        rv.SetDefaults("sinusoidal_poisson_generator", {"individual_spike_trains": 0.5})
    rv.SetDefaults("sinusoidal_poisson_generator", {"individual_spike_trains": False})
    assert rv.Create("sinusoidal_poisson_generator").get("individual_spike_trains") is False


# the other spike generators, and every generator's timing


@pytest.mark.parametrize("model", sorted(m for m in SPEC["exact_spikes"] if m != "poisson_generator"))
def test_spike_timing_matches_nest(model):
    # rates so high that every step of the active window has spikes, pulses of sdev 0: the
    # emission times are deterministic, NEST's activity window and change times included
    times, senders = spikes_to_parrots(SPEC["exact_spikes"][model], 2, 20.0, model=model)
    nest_times, nest_senders = FIXTURE[f"exact/{model}/times"], FIXTURE[f"exact/{model}/senders"]
    for k in range(2):
        mine, theirs = np.round(times[senders == k] / H), np.round(nest_times[nest_senders == k] / H)
        np.testing.assert_array_equal(np.unique(mine), np.unique(theirs))
        if model in ("pulsepacket_generator", "gamma_sup_generator"):  # counts too: spikes share steps
            np.testing.assert_array_equal(np.sort(mine), np.sort(theirs))


def spike_statistics(model, params, threads=1):
    targets, t_sim = SPEC["spike_targets"], SPEC["t_spikes"]
    times, senders = spikes_to_parrots(params, targets, t_sim, threads=threads, model=model)
    steps = np.rint(times / H).astype(int)
    counts = np.bincount(steps // 100, minlength=int(t_sim / H) // 100)
    pairs = np.array(
        [
            len(np.intersect1d(steps[senders == a], steps[senders == b]))
            for a in range(targets)
            for b in range(a + 1, targets)
        ]
    )
    return counts, pairs, (times, senders)


def test_inhomogeneous_poisson_rates():
    p = SPEC["inhomogeneous"]
    counts, pairs, _ = spike_statistics("inhomogeneous_poisson_generator", p)
    edges = np.array(p["rate_times"]) / 10.0  # in 10 ms bins
    rate = np.zeros(len(counts))
    for t, r in zip(edges.astype(int), p["rate_values"]):
        rate[t:] = r
    expected = SPEC["spike_targets"] * rate * 10e-3
    both = expected > 0
    assert np.all(counts[~both] == 0)
    assert np.sum((counts[both] - expected[both]) ** 2 / expected[both]) < stats.chi2.ppf(1 - 1e-4, both.sum())
    nest = FIXTURE["spikes/inhomogeneous_poisson_generator/counts"]
    assert np.all(nest[~both] == 0)
    assert np.sum((counts[both] - nest[both]) ** 2 / (counts[both] + nest[both] + 1e-9)) < stats.chi2.ppf(
        1 - 1e-4, both.sum()
    )
    # independent trains: coincidences in one step as for independent Poisson trains
    p_step = np.array([(np.asarray(p["rate_values"]) * H * 1e-3)]).ravel()
    durations = np.diff(np.append(p["rate_times"], SPEC["t_spikes"])) / H
    chance = np.sum(durations * p_step**2)
    assert abs(pairs.mean() - chance) < 4.5 * math.sqrt(chance / len(pairs)) + 0.05 * chance


def test_mip_generator_rates_and_correlations():
    p, targets, t_sim = SPEC["mip"], SPEC["spike_targets"], SPEC["t_spikes"]
    counts, pairs, _ = spike_statistics("mip_generator", p)
    mother = p["rate"] * t_sim * 1e-3  # expected mother spikes
    # total = sum of the targets' Binomial(M, p_copy) copies of one Poisson(mother) train M
    sd = math.sqrt((targets * p["p_copy"]) ** 2 * mother + targets * mother * p["p_copy"] * (1 - p["p_copy"]))
    expected = targets * mother * p["p_copy"]
    assert abs(counts.sum() - expected) < 4.5 * sd
    assert abs(FIXTURE["spikes/mip_generator/counts"].sum() - expected) < 4.5 * sd
    # a pair shares a copied mother spike with probability p_copy^2, a target has it with
    # p_copy: the ratio, free of the mother train's own fluctuation, is p_copy
    for coincidences, total in [
        (pairs, counts.sum()),
        (FIXTURE["spikes/mip_generator/coincidences"], FIXTURE["spikes/mip_generator/counts"].sum()),
    ]:
        assert abs(coincidences.mean() / (total / targets) - p["p_copy"]) < 0.1 * p["p_copy"]


def test_pulsepacket_generator_packets():
    p, targets = SPEC["pulsepacket"], SPEC["spike_targets"]
    _, pairs, (times, senders) = spike_statistics("pulsepacket_generator", p)
    trains = [np.sort(times[senders == k]) for k in range(targets)]
    assert all(np.array_equal(trains[0], t) for t in trains[1:])  # one train for all targets
    train = trains[0]
    assert len(train) == len(p["pulse_times"]) * p["activity"]
    for pulse in p["pulse_times"]:
        packet = train[np.abs(train - pulse) < 10 * p["sdev"]]
        assert len(packet) == p["activity"]
        # sent at the end of the step after the drawn time: h / 2 + h later on average
        se = p["sdev"] / math.sqrt(p["activity"])
        assert abs(packet.mean() - (pulse + 1.5 * H)) < 4.5 * se
        assert abs(packet.std() - p["sdev"]) < 4.5 * p["sdev"] / math.sqrt(2 * p["activity"])
    # NEST's spikes of all targets in 10 ms bins: per packet the same number, and the same
    # centre of mass (binned alike: each has the variance (sdev^2 + 10^2 / 12) / activity)
    nest = FIXTURE["spikes/pulsepacket_generator/counts"]
    mine = np.bincount(np.rint(train / H).astype(int) // 100, minlength=len(nest)) * targets
    centres = np.arange(len(nest)) * 10.0 + 5.0
    for pulse in p["pulse_times"]:
        near = np.abs(centres - pulse) < 40.0
        assert nest[near].sum() == mine[near].sum() == targets * p["activity"]
        com = [np.sum(centres[near] * c[near]) / c[near].sum() for c in (nest, mine)]
        assert abs(com[0] - com[1]) < 4.5 * math.sqrt(2 * (p["sdev"] ** 2 + 100 / 12) / p["activity"])


@pytest.mark.parametrize(
    "model,key",
    [
        ("inhomogeneous_poisson_generator", "inhomogeneous"),
        ("mip_generator", "mip"),
        ("pulsepacket_generator", "pulsepacket"),
    ],
)
def test_spike_generators_identical_for_any_threads(model, key):
    one = spikes_to_parrots(SPEC[key], 7, 700.0, threads=1, model=model)
    order = np.lexsort((one[1], one[0]))
    for threads in (2, 3):
        other = spikes_to_parrots(SPEC[key], 7, 700.0, threads=threads, model=model)
        o = np.lexsort((other[1], other[0]))
        np.testing.assert_array_equal(one[0][order], other[0][o])
        np.testing.assert_array_equal(one[1][order], other[1][o])


@pytest.mark.parametrize(
    "model,params,named",
    [
        ("sinusoidal_poisson_generator", {"rate": "fast"}, "rate"),
        ("inhomogeneous_poisson_generator", {"rate_times": [1.0, 1.0], "rate_values": [1.0, 2.0]}, "rate_times"),
        ("inhomogeneous_poisson_generator", {"rate_times": [1.0]}, "rate_times"),
        ("inhomogeneous_poisson_generator", {"rate_times": [1.03], "rate_values": [1.0]}, "rate_times"),
        ("mip_generator", {"rate": -1.0}, "rate"),
        ("mip_generator", {"p_copy": 1.5}, "p_copy"),
        ("pulsepacket_generator", {"activity": -2}, "activity"),
        ("pulsepacket_generator", {"activity": 2.5}, "activity"),
        ("pulsepacket_generator", {"sdev": -1.0}, "sdev"),
        ("poisson_generator", {"rate": -1.0}, "rate"),
    ],
)
def test_bad_parameters_raise(model, params, named):
    reset()
    with pytest.raises(BadParameterError, match=named):
        rv.Create(model, params=params)
    g = rv.Create(model)
    with pytest.raises(BadParameterError, match=named):
        g.set(params)


def test_spike_generator_keeps_times_as_nest_does():
    """As NEST 3.10 keeps them when set (run there with these times): a time within half a tic
    (0.5 us) of a step is that step's time; with allow_offgrid_times the others move to the end
    of their step; precise times stay as given; other times off the grid are refused, in NEST's
    words. The spikes leave at the times kept."""
    reset()
    g = rv.Create("spike_generator", params={"spike_times": [2.9999, 4.3001, 10.50001, 10.5004999]})
    np.testing.assert_array_equal(g.get("spike_times"), [3.0, 4.3, 10.5, 10.5])
    offgrid = {"allow_offgrid_times": True, "spike_times": [1.0, 1.0004, 1.0006, 1.05, 3.0001]}
    np.testing.assert_array_equal(rv.Create("spike_generator", params=offgrid).get("spike_times"), [1, 1, 1.1, 1.1, 3])
    precise = {"precise_times": True, "spike_times": [5.300001, 10.50001, 10.55]}
    np.testing.assert_array_equal(
        rv.Create("spike_generator", params=precise).get("spike_times"), [5.300001, 10.50001, 10.55]
    )
    with pytest.raises(BadParameterError, match="spike_times.*Time point 1.0006 is not representable"):
        rv.Create("spike_generator", params={"spike_times": [1.0006]})
    sr = rv.Create("spike_recorder")
    rv.Connect(g, sr)
    rv.Simulate(12.0)
    np.testing.assert_array_equal(sr.events["times"], [3.0, 4.3, 10.5, 10.5])


def test_spike_generator_shifts_a_time_at_the_current_step_on():
    """shift_now_spikes (NEST's): a time at the current step, which could no longer be sent,
    moves one step on; 0 at the start becomes the first step. Not with precise_times."""
    reset()
    g = rv.Create("spike_generator", params={"shift_now_spikes": True, "spike_times": [0.0, 2.0]})
    np.testing.assert_array_equal(g.get("spike_times"), [0.1, 2.0])
    sr = rv.Create("spike_recorder")
    rv.Connect(g, sr)
    rv.Simulate(10.0)
    g.set(spike_times=[10.0001, 11.0001])
    rv.Simulate(10.0)
    np.testing.assert_allclose(sr.events["times"], [0.1, 2.0, 10.1, 11.0], rtol=0, atol=1e-12)
    with pytest.raises(BadParameterError, match="precise_times"):
        rv.Create("spike_generator", params={"shift_now_spikes": True, "precise_times": True})


@pytest.mark.parametrize(
    "model, times, values",
    [
        ("inhomogeneous_poisson_generator", "rate_times", "rate_values"),
        ("step_current_generator", "amplitude_times", "amplitude_values"),
    ],
)
def test_change_times_are_kept_as_nest_does(model, times, values):
    """As NEST 3.10 keeps them (run there with these times): within half a tic of a step on it,
    with allow_offgrid_times at the end of their step, otherwise refused in NEST's words; rate
    times must lie after the current step."""
    reset()
    g = rv.Create(model, params={times: [1.2004, 2.0], values: [1.0, 2.0]})
    np.testing.assert_array_equal(g.get(times), [1.2, 2.0])
    g = rv.Create(model, params={times: [1.0, 1.04, 1.23], values: [1.0, 2.0, 3.0], "allow_offgrid_times": True})
    np.testing.assert_array_equal(g.get(times), [1.0, 1.1, 1.3])
    with pytest.raises(BadParameterError, match=f"{times}.*Time point 1.23 is not representable"):
        rv.Create(model, params={times: [1.23], values: [1.0]})
    with pytest.raises(BadParameterError, match="have to be the same size"):
        rv.Create(model, params={times: [1.0, 2.0], values: [1.0]})
    rv.Simulate(5.0)
    late = {times: [5.0, 6.0], values: [1.0, 2.0]}
    if times == "rate_times":
        with pytest.raises(BadParameterError, match="Time points must lie strictly in the future"):
            g.set(late)
    else:
        g.set(late)  # NEST 3.10 takes a step current's changes at or before the current step (run there)
