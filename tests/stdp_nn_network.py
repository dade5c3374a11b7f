"""Pre and post parrots with fixed trains into the nearest-neighbour STDP synapses (and
stdp_synapse, all-to-all pairing, beside them), written against PyNEST's API so that NEST 3.10
(benchmarks/peers/nest_network_fixtures.py) and Ranvier (tests/test_stdp_nn.py) build the same.
The trains pair every way: post spikes before the first pre spike, several between two pre
spikes, coincident spikes, pre spikes without post spikes between them; two targets take
different trains, and the multiplicative rule (mu 1) runs beside the additive one (mu 0)."""

import numpy as np

MODELS = ["stdp_nn_symm_synapse", "stdp_nn_pre_centered_synapse", "stdp_nn_restr_synapse", "stdp_synapse"]
PRE = [20.0, 26.0, 27.0, 40.0, 41.5, 60.0, 61.0, 75.2, 90.0]
POST = [[5.0, 22.0, 23.0, 30.0, 41.0, 50.0, 52.0, 53.0, 61.0, 88.0], [12.0, 27.0, 44.4, 70.0, 71.0, 72.0, 95.0]]
TIMES = [21.0, 28.0, 42.0, 45.0, 62.0, 80.0, 100.0]  # the weights are read after each


def run(nest, threads=1):
    """Per model and rule (mu 0, mu 1), each target's weight at each of TIMES."""
    out = {}
    for model in MODELS:
        for mu in (0.0, 1.0):
            nest.ResetKernel()
            nest.local_num_threads = threads
            pre = nest.Create("parrot_neuron", params={"tau_minus": 33.7})
            post = nest.Create("parrot_neuron", 2, params={"tau_minus": 33.7})
            nest.Connect(nest.Create("spike_generator", params={"spike_times": PRE}), pre)
            for p, train in zip(post, POST):
                nest.Connect(nest.Create("spike_generator", params={"spike_times": train}), p)
            syn = {
                "synapse_model": model,
                "receptor_type": 1,
                "delay": 0.5,
                "lambda": 0.01,
                "alpha": 0.85,
                "mu_plus": mu,
                "mu_minus": mu,
                "tau_plus": 16.8,
                "Wmax": 1.0,
                "weight": 0.5,
            }
            nest.Connect(pre, post, syn_spec=syn)
            conns = nest.GetConnections(synapse_model=model)
            order = np.argsort(conns.target)
            weights = []
            for t in TIMES:
                nest.Simulate(t - nest.biological_time)
                weights.append(np.asarray(conns.weight, dtype=float)[order].tolist())
            out[f"{model}/{mu}"] = weights
    return out


fixture = run
