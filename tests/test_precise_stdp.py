"""STDP onto a precise (`_ps`) neuron reads its spikes at their exact times, as NEST 3.10 does
(benchmarks/peers/nest_precise_stdp_fixture.py): post spikes off the grid, pre spikes on it,
some arriving in the very step of a post spike (which then counts as earlier, by NEST's
stdp_eps). Every pair and nearest-neighbour rule gives NEST's weights and post spikes, for
any number of threads."""

import json
import os

import numpy as np
import pytest

import ranvier

with open(os.path.join(os.path.dirname(__file__), "fixtures", "nest_precise_stdp.json")) as f:
    NEST = json.load(f)


def run(synapse, threads):
    ranvier.ResetKernel()
    ranvier.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads})
    post = ranvier.Create("iaf_psc_exp_ps", params=NEST["post"])
    drive = ranvier.Create("spike_generator", params={"spike_times": NEST["drive_times"], "precise_times": True})
    ranvier.Connect(drive, post, syn_spec={"weight": 800.0, "delay": NEST["delay"]})
    parrots = ranvier.Create("parrot_neuron", len(NEST["pre_times"]))
    for parrot, times in zip(parrots, NEST["pre_times"]):
        ranvier.Connect(ranvier.Create("spike_generator", params={"spike_times": times}), parrot)
    syn_spec = {"synapse_model": synapse, "delay": NEST["delay"], **NEST["synapses"][synapse]}
    ranvier.Connect(parrots, post, syn_spec=syn_spec)
    recorder = ranvier.Create("spike_recorder")
    ranvier.Connect(post, recorder)
    ranvier.Simulate(NEST["t_sim"])
    return ranvier.GetConnections(parrots, post).weight, recorder.events["times"]


@pytest.mark.parametrize("synapse", sorted(NEST["runs"]))
@pytest.mark.parametrize("threads", [1, 2])
def test_weights_and_spikes_as_nest(synapse, threads):
    weights, times = run(synapse, threads)
    expected = NEST["runs"][synapse]
    assert np.allclose(weights, expected["weights"], rtol=1e-10, atol=0)
    assert np.allclose(times, expected["post_times"], rtol=0, atol=1e-9)
