"""The same network gives bit-identical results for 1, 2 and 3 threads."""
import numpy as np
import pytest

import ranvier as rv


def brunel(threads, model="iaf_psc_alpha", n_e=800, n_i=200, seed=123):
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": seed, "resolution": 0.1})
    params = {"E_L": 0.0, "V_th": 20.0, "V_reset": 0.0, "t_ref": 2.0, "C_m": 250.0,
              "tau_m": 20.0, "tau_syn_ex": 0.5, "tau_syn_in": 0.5, "tau_minus": 30.0}
    exc = rv.Create(model, n_e, params={**params, "V_m": rv.random.normal(5.7, 7.2)})
    inh = rv.Create(model, n_i, params={**params, "V_m": rv.random.uniform(0.0, 20.0)})
    rv.CopyModel("stdp_pl_synapse_hom", "stdp_ee", {"alpha": 0.0513, "lambda": 0.1, "mu": 0.4, "tau_plus": 15.0})
    noise = rv.Create("poisson_generator", params={"rate": 20000.0})
    rv.Connect(noise, exc + inh, syn_spec={"weight": 40.0, "delay": 1.5})
    rv.Connect(exc, exc, {"rule": "fixed_indegree", "indegree": 80, "allow_autapses": False},
               {"synapse_model": "stdp_ee", "weight": 40.0, "delay": rv.random.uniform(1.0, 2.0)})
    rv.Connect(exc, inh, {"rule": "fixed_indegree", "indegree": 80}, {"weight": 40.0, "delay": 1.5})
    rv.Connect(inh, exc + inh, {"rule": "pairwise_bernoulli", "p": 0.1},
               {"weight": rv.random.normal(-200.0, 20.0), "delay": 1.2})
    sr = rv.Create("spike_recorder")
    rv.Connect(exc + inh, sr)
    vm = rv.Create("voltmeter", params={"interval": 0.5})
    rv.Connect(vm, exc[:5] + inh[-3:])
    rv.Simulate(150.0)
    rv.Simulate(50.0)
    return sr.events, vm.events, rv.GetConnections(synapse_model="stdp_ee").weight


@pytest.mark.parametrize("model", ["iaf_psc_alpha", "iaf_psc_exp"])
def test_brunel_spikes_identical_across_threads(model):
    spikes1, vm1, w1 = brunel(1, model)
    rate = len(spikes1["times"]) / 1000 / 0.2
    assert 1.0 < rate < 200.0, f"network should be active, rate {rate} Hz"
    for threads in (2, 3):
        spikes, vm, w = brunel(threads, model)
        np.testing.assert_array_equal(spikes["senders"], spikes1["senders"])
        np.testing.assert_array_equal(spikes["times"], spikes1["times"])
        np.testing.assert_array_equal(vm["V_m"], vm1["V_m"])
        np.testing.assert_array_equal(w, w1)
    assert not np.all(w1 == 40.0)  # plasticity acted


def test_different_seed_gives_different_spikes():
    a, _, _ = brunel(1, seed=1)
    b, _, _ = brunel(1, seed=2)
    assert not np.array_equal(a["times"], b["times"])


def test_poisson_generator_rate():
    rv.SetKernelStatus({"local_num_threads": 2})
    pg = rv.Create("poisson_generator", params={"rate": 500.0})
    parrots = rv.Create("parrot_neuron", 200)
    rv.Connect(pg, parrots)
    sr = rv.Create("spike_recorder")
    rv.Connect(parrots, sr)
    rv.Simulate(1000.0)
    counts = np.bincount(sr.events["senders"] - parrots[0].global_id, minlength=200)
    # each parrot repeats an independent Poisson train: counts ~ Poisson(500)
    assert abs(counts.mean() - 500.0) < 5 * np.sqrt(500.0 / 200)
    assert abs(counts.var() / counts.mean() - 1.0) < 0.3
    assert len(np.unique(counts)) > 20  # independent trains, not one shared train
