"""Structural plasticity as NEST 3.10 has it, in three small networks written against PyNEST's
API, so that NEST 3.10 (benchmarks/peers/nest_network_fixtures.py) and Ranvier
(tests/test_structural_plasticity.py) build the same:

- growth: neurons driven by currents of their own (their spikes are the same on both) with
  elements on every growth curve, continuous and not; structural plasticity is off, so the
  calcium and the elements are what each run brings up to its end.
- rewiring: the same drive, structural plasticity on, synapses of weight 0 (the spikes stay the
  same). The axonal elements grow on a Gaussian curve that turns negative as the calcium passes
  its target, so synapses are removed as well as made; the dendritic ones grow so fast that the
  axons are always the scarcer side. What NEST's random pairing cannot change is then the same
  on both: each neuron's axonal elements and connected count, and the number of synapses.
- recurrent: Poisson input and synapses that carry weight, two entries of
  structural_plasticity_synapses (one without autapses): every spike depends on which synapses
  were made. Not compared with NEST (its pairing draws from another generator), only across
  partitions.

`mpiexec -n M python structural_network.py CASE THREADS` prints Ranvier's as JSON on rank 0."""

import json
import sys

import numpy as np

N = 12
CASES = ("growth", "rewiring", "recurrent")
NEST_CASES = ("growth", "rewiring")
CALCIUM = {"tau_Ca": 1000.0, "beta_Ca": 0.02}
GROWTH = {
    "L": {"growth_curve": "linear", "eps": 0.8, "growth_rate": 0.002, "continuous": False},
    "G": {"growth_curve": "gaussian", "eta": 0.05, "eps": 0.7, "growth_rate": 0.003},
    "S": {"growth_curve": "sigmoid", "eps": 0.6, "psi": 0.1, "growth_rate": 0.002},
}
REWIRING = {
    "Axon": {"growth_curve": "gaussian", "eta": 0.0, "eps": 0.5, "growth_rate": 0.02, "continuous": False},
    "Den": {"growth_curve": "linear", "eps": 5.0, "growth_rate": 0.2},
}


def _elements(nodes):
    """Each element's values per neuron, by element and key."""
    out = {}
    for d in nodes.get("synaptic_elements") if len(nodes) > 1 else [nodes.get("synaptic_elements")]:
        for name, values in d.items():
            for key in ("z", "z_connected"):
                out.setdefault(f"{name}.{key}", []).append(float(values[key]))
    return out


def _synapses(nest, neurons):
    """The synapses among the neurons, of every rank (NEST's tests run one process)."""
    return nest.GetConnections(neurons, neurons, **({"gather": True} if nest.__name__ == "ranvier" else {}))


def build(nest, case, threads=1):
    """The case's network: its neurons and their spike recorder."""
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads, "rng_seed": 5})
    nest.structural_plasticity_update_interval = 50.0
    recurrent = case == "recurrent"
    drive = {} if recurrent else {"I_e": list(np.linspace(380.0, 720.0, N))}
    neurons = nest.Create("iaf_psc_alpha", N, {**CALCIUM, **drive})
    neurons.set({"synaptic_elements": GROWTH if case == "growth" else REWIRING})
    nest.CopyModel("static_synapse", "sp_synapse", {"weight": 40.0 if recurrent else 0.0, "delay": 1.0})
    if case != "growth":
        entries = {
            "rewire": {"synapse_model": "sp_synapse", "pre_synaptic_element": "Axon", "post_synaptic_element": "Den"}
        }
        if recurrent:
            neurons.set({"synaptic_elements_param": {"Axon": {"growth_rate": 0.01, "eps": 1.0}}})
            entries["inhibit"] = {
                "synapse_model": "sp_synapse",
                "pre_synaptic_element": "Den",
                "post_synaptic_element": "Axon",
                "allow_autapses": False,
                "weight": -60.0,
            }
            noise = nest.Create("poisson_generator", params={"rate": 9000.0})
            nest.Connect(noise, neurons, syn_spec={"weight": 10.0})
        nest.structural_plasticity_synapses = entries
        nest.EnableStructuralPlasticity()
    sr = nest.Create("spike_recorder")
    nest.Connect(neurons, sr)
    return neurons, sr


def advance(nest, neurons, runs, out):
    """Runs of 100 ms, after each the calcium, the elements and the number of synapses into out."""
    for _ in range(runs):
        nest.Simulate(100.0)
        out.setdefault("Ca", []).append([float(v) for v in neurons.get("Ca")])
        for key, values in _elements(neurons).items():
            out.setdefault(key, []).append(values)
        if "Axon" in neurons[0].get("synaptic_elements"):
            out.setdefault("synapses", []).append(len(_synapses(nest, neurons)))
    return out


def ending(nest, neurons, sr, out):
    """out with the spikes and, where structural plasticity runs, the synapses at the end."""
    events = sr.get("events")
    order = np.lexsort([events["senders"], events["times"]])
    out["spikes.times"] = np.asarray(events["times"], dtype=float)[order].tolist()
    out["spikes.senders"] = np.asarray(events["senders"], dtype=float)[order].tolist()
    if "synapses" in out:
        c = _synapses(nest, neurons).get(["source", "target", "weight"])
        order = np.lexsort([c["weight"], c["target"], c["source"]])
        out["connections"] = [[float(np.asarray(c[k])[i]) for k in ("source", "target", "weight")] for i in order]
    return out


def run(nest, case, threads=1):
    """The calcium and elements after each of ten runs of 100 ms, the spikes, and where
    structural plasticity runs the synapses."""
    neurons, sr = build(nest, case, threads)
    return ending(nest, neurons, sr, advance(nest, neurons, 10, {}))


def fixture(nest):
    return {case: run(nest, case) for case in NEST_CASES}


if __name__ == "__main__":
    import ranvier

    result = run(ranvier, sys.argv[1], int(sys.argv[2]))
    if ranvier.Rank() == 0:
        print(json.dumps(result))
