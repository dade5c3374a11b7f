"""Spike-timing-dependent plasticity between two parrot neurons.

Two spike generators drive a pre- and a postsynaptic parrot neuron (a parrot repeats every
spike it receives). The pre parrot connects to the post parrot through stdp_pl_synapse_hom.

A parrot also repeats the spikes that arrive through the plastic synapse, so the post parrot
fires once more when each pre spike arrives; those echoes alone already potentiate the synapse.
Compared with that echo-only run, a post spike 10 ms after each pre spike adds potentiation and
a post spike 10 ms before it adds depression.
"""

import numpy as np

import ranvier as rv


def run(lag):
    """20 pre spikes, each paired with a post spike `lag` ms later (None: no post spikes);
    returns the weight of the plastic synapse before and after."""
    rv.ResetKernel()
    rv.CopyModel("stdp_pl_synapse_hom", "stdp", {"alpha": 0.0513, "lambda": 0.1, "mu": 0.4, "tau_plus": 15.0})
    pre_times = 50.0 + 100.0 * np.arange(20)
    pre, post = rv.Create("parrot_neuron", 2, params={"tau_minus": 30.0})
    rv.Connect(rv.Create("spike_generator", params={"spike_times": pre_times}), pre)
    if lag is not None:
        rv.Connect(rv.Create("spike_generator", params={"spike_times": pre_times + lag}), post)
    rv.Connect(pre, post, syn_spec={"synapse_model": "stdp", "weight": 50.0, "delay": 1.0})
    before = rv.GetConnections(pre, post).weight
    rv.Simulate(2100.0)
    after = rv.GetConnections(pre, post).weight
    return before, after


for lag, label in (
    (None, "pre spikes only (echoes)"),
    (10.0, "pre 10 ms before post"),
    (-10.0, "post 10 ms before pre"),
):
    before, after = run(lag)
    print(f"{label:26s} weight {before:.3f} -> {after:.3f}")
