"""A recurrent network of NESTML neurons joined by the NESTML STDP synapse generated with them,
and a second population driving them through the neuromodulated STDP synapse, whose volume
transmitter a third population feeds (tests/test_nestml_synapses.py builds the module), under
Poisson input:

    nestml_plastic_network.py run MODULE THREADS T OUT [EXCHANGE]  run T ms, save spikes and weights
    nestml_plastic_network.py save MODULE THREADS T CHECKPOINT  run T ms, save a checkpoint
    nestml_plastic_network.py load MODULE THREADS T CHECKPOINT OUT  continue it T ms, save as run

`run(threads, t)` builds and runs it in-process; results() are rank 0's gathered spikes and
weights."""

import sys

import numpy as np

import ranvier as rv

NEURON = "iaf_psc_exp_neuron_plastic__with_stdp_synapse_plastic"
SYNAPSE = "stdp_synapse_plastic__with_iaf_psc_exp_neuron_plastic"
MODULATED_NEURON = "iaf_psc_exp_neuron_plastic__with_neuromodulated_stdp_synapse_plastic"
MODULATED = "neuromodulated_stdp_synapse_plastic__with_iaf_psc_exp_neuron_plastic"


def build(threads, exchange="auto"):
    rv.ResetKernel()
    rv.set(local_num_threads=threads, rng_seed=7, spike_exchange=exchange)
    cells = rv.Create(NEURON, 40, params={"I_e": 250.0, "V_m": rv.random.uniform(-70.0, -55.0)})
    rv.Connect(rv.Create("poisson_generator", params={"rate": 8000.0}), cells, syn_spec={"weight": 40.0})
    rv.Connect(
        cells,
        cells,
        {"rule": "fixed_indegree", "indegree": 10},
        {
            "synapse_model": SYNAPSE,
            "weight": rv.random.uniform(10.0, 60.0),
            "delay": rv.random.uniform(1.0, 3.0),
            "lambda": 0.05,
            "tau_tr_pre": 15.0,
        },
    )
    modulated = rv.Create(MODULATED_NEURON, 20, params={"I_e": 420.0})
    transmitter, dopamine = rv.Create("volume_transmitter"), rv.Create("parrot_neuron", 10)
    rv.Connect(rv.Create("poisson_generator", params={"rate": 30.0}), dopamine)
    rv.Connect(dopamine, transmitter)
    rv.CopyModel(MODULATED, "modulated", {"volume_transmitter": transmitter})
    rv.Connect(
        cells, modulated, {"rule": "fixed_indegree", "indegree": 10}, {"synapse_model": "modulated", "weight": 20.0}
    )
    rv.Connect(cells + modulated, rv.Create("spike_recorder"))


def results():
    """Spikes ordered by time and sender; each synapse model's weights (and the STDP synapses'
    pre traces) by (source, target)."""
    spikes = rv.GetNodes({"model": "spike_recorder"}).get("events")
    by_time = np.lexsort((spikes["senders"], spikes["times"]))
    found = {"times": np.asarray(spikes["times"])[by_time], "senders": np.asarray(spikes["senders"])[by_time]}
    for model, keys in ((SYNAPSE, ["weight", "pre_trace"]), ("modulated", ["weight", "c", "n"])):
        connections = rv.GetConnections(synapse_model=model, gather=True).get(["source", "target", *keys])
        order = np.lexsort((connections["target"], connections["source"]))
        found.update({f"{model}.{k}": np.asarray(connections[k])[order] for k in keys})
    return found


def run(threads, t):
    build(threads)
    rv.Simulate(t)
    return results()


if __name__ == "__main__":
    mode, module, threads, t, *rest = sys.argv[1:]
    threads, t = int(threads), float(t)
    rv.Install(module)
    if mode == "save":
        build(threads)
        rv.Simulate(t)
        rv.SaveCheckpoint(rest[0])
        sys.exit()
    if mode == "load":
        checkpoint, out = rest
        rv.ResetKernel()
        rv.set(local_num_threads=threads)
        rv.LoadCheckpoint(checkpoint)
    else:
        out, *exchange = rest
        build(threads, *exchange)
    rv.Simulate(t)
    found = results()
    if rv.Rank() == 0:
        np.savez(out, **found)
