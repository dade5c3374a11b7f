"""A network with every synapse model but the static ones, for the partition tests of
tests/test_synapse_models.py: `mpiexec -n M python synapse_network.py OUT.npz THREADS` saves
rank 0's results; `network()` returns them in-process. Weight recorders take what most models
transmit (one of them filtered and in a window); their ports (connections' indices on their
thread) are left out, as they depend on the partition."""

import sys

import numpy as np

import ranvier as rv


def network(t_sim=80.0):
    params = {
        "E_L": 0.0,
        "V_th": 20.0,
        "V_reset": 0.0,
        "t_ref": 2.0,
        "tau_m": 20.0,
        "tau_syn_ex": 3.0,
        "tau_syn_in": 3.0,
        "V_m": 10.0,
    }
    exc = rv.Create("iaf_psc_exp", 160, params=params)
    inh = rv.Create("iaf_psc_exp", 40, params=params)
    wr = rv.Create("weight_recorder")
    window = rv.Create(
        "weight_recorder", params={"senders": exc[:60] + inh[:10], "targets": exc[40:120], "start": 20.0, "stop": 60.0}
    )
    for model, recorder in [
        ("tsodyks2_synapse", wr),
        ("bernoulli_synapse", wr),
        ("stdp_synapse", wr),
        ("stdp_synapse_hom", wr),
        ("quantal_stp_synapse", wr),
        ("tsodyks_synapse", window),
        ("vogels_sprekeler_synapse", window),
    ]:
        rv.SetDefaults(model, {"weight_recorder": recorder})
    noise = rv.Create("poisson_generator", params={"rate": 12000.0})
    rv.Connect(noise, exc + inh, syn_spec={"weight": 45.0, "delay": 1.0})
    rv.Connect(
        exc,
        exc,
        {"rule": "fixed_indegree", "indegree": 20},
        {
            "synapse_model": "tsodyks2_synapse",
            "weight": 60.0,
            "delay": rv.random.uniform(1.0, 2.0),
            "U": 0.2,
            "u": 0.2,
            "tau_fac": 300.0,
            "tau_rec": 200.0,
        },
    )
    rv.Connect(
        exc,
        inh,
        {"rule": "fixed_indegree", "indegree": 20},
        {"synapse_model": "bernoulli_synapse", "weight": 80.0, "delay": 1.5, "p_transmit": 0.4},
    )
    rv.Connect(
        inh,
        exc + inh,
        {"rule": "pairwise_bernoulli", "p": 0.2},
        {"synapse_model": "tsodyks_synapse", "weight": -300.0, "delay": 1.2, "U": 0.4, "tau_psc": 3.0},
    )
    rv.Connect(
        exc,
        exc,
        {"rule": "fixed_indegree", "indegree": 5},
        {
            "synapse_model": "stdp_synapse",
            "weight": 30.0,
            "Wmax": 60.0,
            "lambda": 0.05,
            "mu_plus": 0.0,
            "mu_minus": 0.0,
            "delay": rv.random.uniform(1.0, 3.0),
        },
    )
    rv.CopyModel("stdp_synapse_hom", "stdp_ii", {"Wmax": -400.0, "lambda": 0.05})
    rv.Connect(inh, inh, {"rule": "fixed_indegree", "indegree": 5}, {"synapse_model": "stdp_ii", "weight": -200.0})
    rv.Connect(
        exc,
        exc,
        {"rule": "fixed_indegree", "indegree": 4},
        {
            "synapse_model": "quantal_stp_synapse",
            "weight": 25.0,
            "n": 3,
            "a": 3,
            "U": 0.3,
            "u": 0.3,
            "tau_fac": 100.0,
            "delay": 1.5,
        },
    )
    rv.Connect(
        inh,
        exc,
        {"rule": "fixed_indegree", "indegree": 4},
        {
            "synapse_model": "vogels_sprekeler_synapse",
            "weight": -50.0,
            "Wmax": -300.0,
            "eta": 2.0,
            "alpha": 0.2,
            "delay": 1.0,
        },
    )
    exc[:40].set(tau_minus_triplet=70.0)
    rv.Connect(
        exc,
        exc,
        {"rule": "fixed_indegree", "indegree": 4},
        {
            "synapse_model": "stdp_triplet_synapse",
            "weight": 30.0,
            "Aplus": 0.5,
            "Aplus_triplet": 0.2,
            "Aminus": 0.4,
            "Aminus_triplet": 0.1,
            "delay": rv.random.uniform(1.0, 2.0),
        },
    )
    rv.SetDefaults("jonke_synapse", {"lambda": 0.2, "beta": 0.01, "mu_plus": 0.02, "mu_minus": 0.01, "Wmax": 60.0})
    rv.Connect(exc, inh, {"rule": "fixed_indegree", "indegree": 4}, {"synapse_model": "jonke_synapse", "weight": 30.0})
    # injectors, neurons that play given trains, onto every process's neurons
    trains = rv.Create("spike_train_injector", 6)
    trains.set(spike_times=[[2.0 + 7.3 * k + 1.1 * j for k in range(10)] for j in range(6)])
    rv.Connect(
        trains,
        exc,
        {"rule": "fixed_outdegree", "outdegree": 30},
        {"synapse_model": "stdp_synapse", "weight": 40.0, "Wmax": 80.0, "lambda": 0.05, "delay": 1.0},
    )
    sr = rv.Create("spike_recorder")
    rv.Connect(exc + inh + trains, sr)
    rv.Simulate(t_sim / 2)
    # connections made mid-run start afresh: their records part from their sources' others
    rv.Connect(
        inh[:10],
        exc[:20],
        "all_to_all",
        {"synapse_model": "tsodyks_synapse", "weight": -100.0, "U": 0.4, "tau_psc": 3.0},
    )
    rv.Simulate(t_sim / 2)
    c = rv.GetConnections(gather=True)
    recorded = {
        f"{name}_{k}": v for name, r in [("wr", wr), ("window", window)] for k, v in r.events.items() if k != "ports"
    }
    return {
        "senders": sr.events["senders"],
        "times": sr.events["times"],
        "source": np.asarray(c.source),
        "target": np.asarray(c.target),
        "weight": np.asarray(c.weight),
        # None (NEST's) where a connection's model lacks the parameter: NaN here
        "u": np.asarray(c.u, dtype=float),
        "x": np.asarray(c.x, dtype=float),
        "Kplus": np.asarray(c.Kplus, dtype=float),
        "a": np.asarray(c.a, dtype=float),
        **recorded,
    }


if __name__ == "__main__":
    out, threads = sys.argv[1], int(sys.argv[2])
    rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": 7})
    results = network()
    if rv.Rank() == 0:
        np.savez(out, **results)
