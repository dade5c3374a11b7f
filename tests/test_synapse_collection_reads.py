"""A SynapseCollection reads the values that change (weights, a model's per-connection state)
anew at every get, as NEST's does: taken before Simulate, it shows the weights plasticity left
(NEST 3.10's, tests/fixtures/nest_stdp_parrot.json, written by
benchmarks/peers/nest_stdp_parrot_fixture.py)."""

import json
import os

import numpy as np
import pytest

import ranvier as nest

with open(os.path.join(os.path.dirname(__file__), "fixtures", "nest_stdp_parrot.json")) as f:
    NEST = json.load(f)


@pytest.mark.parametrize("receptor", [0, 1])
def test_weights_after_a_stdp_protocol_as_nest(receptor):
    nest.ResetKernel()
    pre_spikes = nest.Create("spike_generator", params={"spike_times": NEST["pre"]})
    post_spikes = nest.Create("spike_generator", params={"spike_times": NEST["post"]})
    pre, post = nest.Create("parrot_neuron"), nest.Create("parrot_neuron")
    nest.Connect(pre_spikes, pre, syn_spec={"delay": 1.0})
    nest.Connect(post_spikes, post, syn_spec={"delay": 1.0})
    nest.Connect(pre, post, "one_to_one", {"synapse_model": "stdp_synapse", "receptor_type": receptor})
    synapse = nest.GetConnections(source=pre, synapse_model="stdp_synapse")
    assert synapse.weight == 1.0
    nest.Simulate(204.0)
    assert synapse.weight == pytest.approx(NEST["weights"][str(receptor)], rel=1e-13)
    assert synapse.delay == 1.0


def test_slices_and_set_values_are_read_anew():
    nest.ResetKernel()
    neurons = nest.Create("iaf_psc_alpha", 3, params={"I_e": 450.0})
    nest.Connect(neurons, neurons, "all_to_all", {"synapse_model": "stdp_synapse", "weight": 1.0})
    every = nest.GetConnections()
    first = every[:2]
    nest.Simulate(100.0)
    now = np.asarray(nest.GetConnections().weight)
    np.testing.assert_array_equal(every.weight, now)
    np.testing.assert_array_equal(first.weight, now[:2])
    assert not np.all(now == 1.0)
    every.set(weight=2.0)
    assert first.weight == [2.0, 2.0]


def test_receptor_and_target_thread_as_nest():
    """NEST 3.10 answers these for this network (two threads, round-robin placement)."""
    nest.ResetKernel()
    nest.local_num_threads = 2
    n = nest.Create("iaf_psc_alpha", 3)
    m = nest.Create("iaf_psc_alpha_multisynapse", 2, params={"tau_syn": [1.0, 2.0]})
    nest.Connect(n, n)
    nest.Connect(n[:2], m, syn_spec={"receptor_type": 2})
    c = nest.GetConnections(source=n[:1])
    assert c.target == [1, 2, 3, 4, 5]
    assert c.receptor == [0, 0, 0, 2, 2]
    assert c.target_thread == [1, 0, 1, 0, 1]
    with pytest.raises(nest.UnknownParameterError, match="receptor"):
        c.set(receptor=1)


def test_set_delay_as_nest_rounds_checks_and_delivers_it():
    """NEST 3.10, run: SynapseCollection.set rounds a delay to the grid (0.81 -> 0.8 ms), moves
    min_delay and max_delay with it, and the spike arrives with the new delay (a parrot's spike
    at 2 ms reaches the next at 5.5 ms with 3.5 ms); a delay below the resolution is refused,
    leaving the others unchanged."""
    nest.ResetKernel()
    first = nest.Create("iaf_psc_alpha")
    loop = nest.Connect(first, first, "one_to_one", return_synapsecollection=True)
    loop.delay = 0.81
    assert (loop.delay, nest.min_delay, nest.max_delay) == (0.8, 0.8, 1.0)
    generator, p, q = nest.Create("spike_generator", params={"spike_times": [1.0]}), *nest.Create("parrot_neuron", 2)
    recorder = nest.Create("spike_recorder")
    nest.Connect(generator, p)
    nest.Connect(p, q, syn_spec={"delay": 1.0})
    nest.Connect(q, recorder)
    hop = nest.GetConnections(p, q)
    hop.set(delay=3.5)
    with pytest.raises(nest.BadParameterError, match="delay = 0.01"):
        nest.GetConnections(first).set(delay=[0.01])
    assert nest.GetConnections(first).delay == 0.8
    nest.Simulate(10.0)
    assert list(recorder.events["times"]) == [5.5]


def test_port_is_the_position_among_the_threads_connections_of_the_model():
    """NEST's port: by source (then target) on each thread, so a later Connect from an earlier
    source moves the later sources' ports on; the weight recorder reports the same ports."""
    nest.SetKernelStatus({"local_num_threads": 2})
    n = nest.Create("parrot_neuron", 6)
    nest.Connect(n[1], n[2:])
    conns = nest.GetConnections(n[1])
    assert conns.get("port") == [0, 0, 1, 1] and conns.get("target_thread") == [1, 0, 1, 0]  # gid 3 on vp 1
    nest.Connect(n[0], n[2])  # before n[1]'s on n[2]'s thread
    thread = nest.GetConnections(n[0]).get("target_thread")
    mine = nest.GetConnections(n[1])
    assert [p for p, t in zip(mine.get("port"), mine.get("target_thread")) if t == thread] == [1, 2]
    wr = nest.Create("weight_recorder")
    nest.CopyModel("static_synapse", "recorded", {"weight_recorder": wr})
    drive = nest.Create("spike_generator", params={"spike_times": [1.0]})
    nest.Connect(drive, n[1])
    nest.Connect(n[1], n[4:], syn_spec={"synapse_model": "recorded"})
    nest.Simulate(5.0)
    recorded = nest.GetConnections(n[1], synapse_model="recorded")
    events = wr.events
    assert sorted(zip(events["targets"], events["ports"])) == sorted(zip(recorded.target, recorded.get("port")))
