"""Power-law STDP (stdp_pl_synapse_hom with brunel-small's parameters) over 10^6 weight
updates: 100 pre parrots all-to-all onto 10 post parrots, each pre parrot firing 1,000
Poisson spikes at 50 Hz and each post parrot 20 Hz, so each of the 1,000 synapses is
facilitated and depressed at 1,000 pre spikes. The STDP connections go to the parrots'
receptor 1, which drives plasticity without being repeated. Written against PyNEST's API so
that NEST 3.10 (benchmarks/peers/nest_network_fixtures.py) and Ranvier (tests/test_stdp.py)
build the same; the trains come from numpy's PCG64, the same on both."""

import numpy as np

N_PRE, N_POST = 100, 10
PRE_RATE, POST_RATE = 50.0, 20.0  # Hz
T = 20000.0  # ms
STDP = {"tau_plus": 15.0, "lambda": 0.1, "alpha": 0.0513, "mu": 0.4}
TAU_MINUS, WEIGHT, DELAY = 30.0, 45.61, 1.0


def trains(n, rate, seed):
    """n Poisson trains on the 0.1 ms grid within (1, T) ms."""
    rng = np.random.default_rng(seed)
    return [np.unique(np.round(rng.uniform(1.0, T, rng.poisson(rate * T / 1000.0)), 1)).tolist() for _ in range(n)]


def run(nest, threads=1):
    """The synapses' weights after T ms, ordered by (source, target), and the number of pre
    spikes that reached them."""
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads})
    nest.CopyModel("stdp_pl_synapse_hom", "stdp", STDP)
    pre = nest.Create("parrot_neuron", N_PRE)
    post = nest.Create("parrot_neuron", N_POST, params={"tau_minus": TAU_MINUS})
    for group, rate, seed in ((pre, PRE_RATE, 1), (post, POST_RATE, 2)):
        drive = nest.Create("spike_generator", len(group))
        drive.set([{"spike_times": t} for t in trains(len(group), rate, seed)])
        nest.Connect(drive, group, "one_to_one")
    nest.Connect(pre, post, syn_spec={"synapse_model": "stdp", "weight": WEIGHT, "delay": DELAY, "receptor_type": 1})
    nest.Simulate(T + 10.0)
    conns = nest.GetConnections(synapse_model="stdp")
    source, target = np.asarray(conns.source), np.asarray(conns.target)
    order = np.lexsort((target, source))
    weights = np.asarray(conns.weight, dtype=float)[order]
    return {"weights": weights.tolist(), "pre_spikes": sum(len(t) for t in trains(N_PRE, PRE_RATE, 1)) * N_POST}


fixture = run
