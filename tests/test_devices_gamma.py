"""gamma_sup_generator against the statistics of its discrete-time gamma processes and against
NEST 3.10 (fixture by benchmarks/peers/nest_device_traces.py), through parrot neurons.

A component process passes gamma_shape states, leaving each with probability p = rate
gamma_shape h per step: its ISI (in steps) is a sum of gamma_shape geometric waits, of mean
gamma_shape / p and variance gamma_shape (1 - p) / p^2, so CV^2 = (1 - p) / gamma_shape.
Tolerances are 4.5 standard errors of the estimates."""

import math

import numpy as np
import pytest
from device_fixture import FIXTURE, SPEC, H, reset, spikes_to_parrots
from ranvier.errors import BadParameterError

import ranvier as rv

TARGETS, T_SIM, WINDOW = SPEC["spike_targets"], SPEC["t_spikes"], SPEC["fano_window"]


def train_statistics(times, senders):
    """As the fixture script: CV of all targets' ISIs, mean Fano factor of the counts per window."""
    isis = np.concatenate([np.diff(np.sort(times[senders == k])) for k in range(TARGETS)])
    windows = int(T_SIM / WINDOW)
    counts = np.stack(
        [np.bincount((times[senders == k] // WINDOW).astype(int), minlength=windows)[:windows] for k in range(TARGETS)]
    )
    return isis.std() / isis.mean(), np.mean(counts.var(axis=1, ddof=1) / counts.mean(axis=1))


def gamma_spikes(params, threads=1):
    return spikes_to_parrots(params, TARGETS, T_SIM, threads=threads, model="gamma_sup_generator")


@pytest.mark.parametrize("key", ["one", "pooled"])
def test_rate_and_regularity(key):
    p = SPEC["gamma"][key]
    times, senders = gamma_spikes(p)
    cv, fano = train_statistics(times, senders)
    nest_count, nest_cv, nest_fano = FIXTURE[f"gamma/{key}/stats"]
    step_p = p["rate"] * p["gamma_shape"] * H * 1e-3
    cv2 = (1 - step_p) / p["gamma_shape"]  # of one component's ISIs
    # rate: the trains start near equilibrium, so the count is n_proc rate T per target, with
    # the variance of a renewal count (CV^2 times its mean) for each component process
    expected = TARGETS * p["n_proc"] * p["rate"] * T_SIM * 1e-3
    sd = math.sqrt(cv2 * expected)
    assert abs(len(times) - expected) < 4.5 * sd
    assert abs(nest_count - expected) < 4.5 * sd
    if p["n_proc"] == 1:  # a gamma process: its ISIs' CV is known
        se = math.sqrt(cv2) * math.sqrt((1 + 2 * cv2) / (2 * len(times)))
        assert abs(cv - math.sqrt(cv2)) < 4.5 * se
        assert abs(nest_cv - math.sqrt(cv2)) < 4.5 * se
    else:  # a superposition is not renewal: as NEST's, within the error of both estimates
        assert abs(cv - nest_cv) < 4.5 * math.sqrt(2) * cv / math.sqrt(len(times))
    # Fano factor of the counts, as NEST's: each target's variance of 20 windows has a relative
    # error near sqrt(2 / 19), averaged over the targets; both sides count
    assert abs(fano - nest_fano) < 4.5 * math.sqrt(2) * fano * math.sqrt(2 / 19 / TARGETS)
    assert fano < 1.0  # more regular than Poisson


def test_targets_independent():
    times, senders = gamma_spikes({"rate": 100.0, "gamma_shape": 2, "n_proc": 1})
    steps = np.rint(times / H).astype(int)
    trains = [set(steps[senders == k]) for k in range(TARGETS)]
    shared = np.mean([len(trains[a] & trains[b]) for a in range(TARGETS) for b in range(a + 1, TARGETS)])
    per_step = 100.0 * H * 1e-3
    chance = T_SIM / H * per_step**2  # coincidences of independent trains
    assert shared < chance + 4.5 * math.sqrt(chance)


def test_multapses_get_their_own_trains():
    reset()
    gen = rv.Create("gamma_sup_generator", params={"rate": 100.0, "gamma_shape": 2, "n_proc": 1})
    parrots = rv.Create("parrot_neuron", 2)
    sr = rv.Create("spike_recorder")
    for target in (parrots[0], parrots[0], parrots[1]):
        rv.Connect(gen, target, syn_spec={"delay": 1.0})
    rv.Connect(parrots, sr)
    rv.Simulate(1000.0)
    ev = sr.events
    steps = [np.rint(ev["times"][ev["senders"] == p.global_id] / H) for p in parrots]
    # the doubly connected parrot gets two trains: twice the spikes, few of them coinciding
    assert abs(len(steps[0]) - 2 * len(steps[1])) < 4.5 * math.sqrt(3 * len(steps[1]))
    assert len(steps[0]) - len(np.unique(steps[0])) < 0.1 * len(steps[1])


def test_state_carries_over_simulations():
    p = SPEC["gamma"]["pooled"]
    once = gamma_spikes(p)
    reset()
    gen = rv.Create("gamma_sup_generator", params=p)
    parrots = rv.Create("parrot_neuron", TARGETS)
    sr = rv.Create("spike_recorder")
    rv.Connect(gen, parrots, syn_spec={"delay": 1.0})
    rv.Connect(parrots, sr)
    for _ in range(4):
        rv.Simulate(T_SIM / 4)
    ev = sr.get("events")
    np.testing.assert_array_equal(np.sort(ev["times"] - 1.0), np.sort(once[0]))


def test_a_connection_made_mid_run_leaves_the_others_trains_alone():
    p = SPEC["gamma"]["pooled"]

    def run(join):
        reset()
        gen = rv.Create("gamma_sup_generator", params=p)
        parrots = rv.Create("parrot_neuron", 2)
        sr = rv.Create("spike_recorder")
        rv.Connect(gen, parrots[0], syn_spec={"delay": 1.0})
        rv.Connect(parrots, sr)
        rv.Simulate(200.0)
        if join:
            rv.Connect(gen, parrots[1], syn_spec={"delay": 1.0})
        rv.Simulate(200.0)
        ev = sr.events
        return ev["times"][ev["senders"] == parrots[0].global_id], np.sum(ev["senders"] == parrots[1].global_id)

    alone, _ = run(False)
    kept, joined = run(True)
    np.testing.assert_array_equal(alone, kept)
    assert joined > 0


def test_identical_for_any_threads():
    p = {"rate": 80.0, "gamma_shape": 3, "n_proc": 7}
    one = spikes_to_parrots(p, 7, 500.0, threads=1, model="gamma_sup_generator")
    order = np.lexsort((one[1], one[0]))
    two = spikes_to_parrots(p, 7, 500.0, threads=2, model="gamma_sup_generator")
    o = np.lexsort((two[1], two[0]))
    assert len(one[0]) > 100
    np.testing.assert_array_equal(one[0][order], two[0][o])
    np.testing.assert_array_equal(one[1][order], two[1][o])


def test_defaults():
    d = rv.GetDefaults("gamma_sup_generator")
    assert (d["rate"], d["gamma_shape"], d["n_proc"]) == (0.0, 1, 1)


@pytest.mark.parametrize(
    "params,named", [({"rate": -1.0}, "rate"), ({"gamma_shape": 0}, "gamma_shape"), ({"n_proc": 0}, "n_proc")]
)
def test_bad_parameters_raise(params, named):
    reset()
    with pytest.raises(BadParameterError, match=named):
        rv.Create("gamma_sup_generator", params=params)
    g = rv.Create("gamma_sup_generator")
    with pytest.raises(BadParameterError, match=named):
        g.set(params)
    assert g.get("n_proc") == 1
