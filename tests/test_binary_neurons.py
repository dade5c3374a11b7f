"""NEST's binary neurons (ginzburg_neuron, mcculloch_pitts_neuron, erfc_neuron) and
spin_detector: their encoding of state changes by spikes, decoded by targets and the detector as
NEST does; the gain functions' statistics at update times of mean tau_m; NEST's parameters and
errors; the same network for any threads and processes (tests/mpi/binary_network.py)."""

import json
import math
import pathlib
import sys

import pytest
from mpi_launch import HAVE_MPI, mpirun
from ranvier.errors import BadParameterError, IllegalConnectionError

import ranvier as rv

sys.path.insert(0, str(pathlib.Path(__file__).parent / "mpi"))
import binary_network  # noqa: E402

MODELS = ("ginzburg_neuron", "mcculloch_pitts_neuron", "erfc_neuron")


@pytest.fixture(autouse=True)
def fresh_kernel():
    rv.ResetKernel()
    yield
    rv.ResetKernel()


@pytest.mark.parametrize("model", MODELS)
def test_two_spikes_of_one_sender_are_a_change_to_one_and_one_spike_a_change_to_zero(model):
    """h follows the states of the senders: a generator's pair at 10 ms (up, +w), its single
    spike at 15 ms (down, -w); two generators' single spikes at 30 ms are two downs, not an up."""
    n = rv.Create(model, params={"tau_m": 1e9})  # no update: h only
    pair = rv.Create("spike_generator", params={"spike_times": [10.0, 10.0, 15.0]})
    rv.Connect(pair, n, syn_spec={"weight": 2.0})
    for _ in range(2):
        rv.Connect(rv.Create("spike_generator", params={"spike_times": [30.0]}), n, syn_spec={"weight": 0.5})
    mm = rv.Create("multimeter", params={"record_from": ["h"], "interval": 1.0})
    rv.Connect(mm, n)
    rv.Simulate(40.0)
    h = dict(zip(mm.events["times"], mm.events["h"]))
    assert (h[10.0], h[11.0], h[15.0], h[16.0], h[30.0], h[31.0]) == (0.0, 2.0, 2.0, 0.0, 0.0, -1.0)


def test_two_connections_from_one_sender_are_decoded_as_nest_does():
    """The decoding pairs one sender's events in arrival order, whichever connection brought
    them: an up of a sender connected with weights 1 and 10 raises h by -1 + 2 x 10 + 2 x 1 + 2 x 10
    = 41, as NEST 3.10 gives when run."""
    source = rv.Create("mcculloch_pitts_neuron", params={"theta": -1.0, "tau_m": 1.0})
    target = rv.Create("mcculloch_pitts_neuron", params={"tau_m": 1e9})
    for w in (1.0, 10.0):
        rv.Connect(source, target, syn_spec={"weight": w})
    mm = rv.Create("multimeter", params={"record_from": ["h"], "interval": 1.0})
    rv.Connect(mm, target)
    rv.Simulate(20.0)
    assert set(mm.events["h"].tolist()) == {0.0, 41.0}


def test_a_neuron_tells_its_changes_by_pairs_and_single_spikes():
    n = rv.Create("mcculloch_pitts_neuron", params={"theta": -1.0, "tau_m": 1.0})  # goes up at its first update
    sr, spins = rv.Create("spike_recorder"), rv.Create("spin_detector")
    rv.Connect(n, sr)
    rv.Connect(n, spins)
    rv.Simulate(50.0)
    assert len(sr.events["times"]) == 2 and len(set(sr.events["times"])) == 1
    assert spins.events["state"].tolist() == [1]
    n.theta = 10.0  # down at its next update
    rv.Simulate(50.0)
    assert len(sr.events["times"]) == 3
    assert spins.events["state"].tolist() == [1, 0] and spins.events["times"][0] == sr.events["times"][0]


def test_spin_detector_decodes_a_generator_s_pairs():
    sg = rv.Create("spike_generator", params={"spike_times": [10.0, 10.0, 15.0]})
    spins = rv.Create("spin_detector")
    rv.Connect(sg, spins)
    rv.Simulate(20.0)
    assert spins.events["state"].tolist() == [1, 0] and spins.events["times"].tolist() == [10.0, 15.0]
    assert spins.n_events == 2


@pytest.mark.parametrize(
    ("model", "params", "gain"),
    [
        (
            "ginzburg_neuron",
            {"theta": 0.2, "c_1": 0.1, "c_2": 0.6, "c_3": 3.0},
            lambda x: 0.1 * x + 0.6 * 0.5 * (1 + math.tanh(3.0 * (x - 0.2))),
        ),  # fmt: skip
        ("erfc_neuron", {"theta": 0.4, "sigma": 0.3}, lambda x: 0.5 * math.erfc(-(x - 0.4) / (math.sqrt(2) * 0.3))),
    ],
)
def test_the_state_is_one_with_the_gain_s_probability_and_updates_come_every_tau_m(model, params, gain):
    """Under a constant input x each update sets S to 1 with probability g = gain(x), whatever S
    was: the time-averaged S of many neurons is g (binomial error), and a neuron that starts at
    0 changes state g + (t / tau_m - 1) 2 g (1 - g) times in t ms on average."""
    n, tau_m, x, t = 400, 2.0, 0.5, 400.0
    neurons = rv.Create(model, n, params={"tau_m": tau_m, **params})
    rv.Connect(rv.Create("dc_generator", params={"amplitude": x}), neurons)
    mm = rv.Create("multimeter", params={"record_from": ["S"], "interval": 5.0})
    spins = rv.Create("spin_detector")
    rv.Connect(mm, neurons)
    rv.Connect(neurons, spins)
    rv.Simulate(t)
    g = gain(x)
    samples = mm.events["S"][mm.events["times"] > 20.0]  # independent enough: 5 ms apart is 2.5 tau_m
    assert abs(samples.mean() - g) < 5 * math.sqrt(g * (1 - g) / len(samples))
    expected = n * (g + (t / tau_m - 1) * 2 * g * (1 - g))
    assert abs(len(spins.events["state"]) - expected) < 5 * math.sqrt(expected)


def test_mcculloch_pitts_takes_the_state_of_its_threshold_at_its_first_update():
    neurons = rv.Create("mcculloch_pitts_neuron", 100, params={"tau_m": 2.0, "theta": 0.45})
    rv.Connect(rv.Create("dc_generator", params={"amplitude": 0.5}), neurons[:50])
    spins = rv.Create("spin_detector")
    rv.Connect(neurons, spins)
    rv.Simulate(100.0)  # each has updated (P(none in 100 ms) = e^-50)
    assert sorted(spins.events["senders"].tolist()) == neurons[:50].tolist()
    assert set(spins.events["state"].tolist()) == {1} and list(neurons.S) == [True] * 50 + [False] * 50


def test_binary_and_spiking_neurons_do_not_connect():
    binary, spiking = rv.Create("mcculloch_pitts_neuron"), rv.Create("iaf_psc_alpha")
    for source, target in ((binary, spiking), (spiking, binary)):
        with pytest.raises(IllegalConnectionError, match="not compatible"):
            rv.Connect(source, target)
    rv.Connect(rv.Create("spike_generator"), binary)
    rv.Connect(binary, rv.Create("spike_recorder"))
    rv.Connect(binary, rv.Create("ginzburg_neuron"))


def test_defaults_and_checks_are_nest_s():
    d = rv.GetDefaults("ginzburg_neuron")
    assert (d["tau_m"], d["theta"], d["c_1"], d["c_2"], d["c_3"], d["S"], d["h"]) == (
        10.0,
        0.0,
        0.0,
        1.0,
        1.0,
        False,
        0.0,
    )
    assert d["recordables"] == ["S", "h"] and rv.GetDefaults("erfc_neuron")["sigma"] == 1.0
    with pytest.raises(BadParameterError, match="tau_m must be > 0"):
        rv.Create("erfc_neuron", params={"tau_m": 0.0})


def test_threads_give_identical_networks():
    assert binary_network.run(rv, 3) == binary_network.run(rv)


@pytest.mark.skipif(not HAVE_MPI, reason="needs MPI")
def test_processes_give_identical_networks():
    reference = binary_network.run(rv)
    assert len(reference["spins.state"]) > 100
    for n, threads in ((2, 1), (3, 2)):
        assert json.loads(mpirun(n, "binary_network.py", threads)) == reference
