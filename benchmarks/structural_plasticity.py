#!/usr/bin/env python3
"""Structural plasticity, Ranvier beside NEST 3.10 in one run (the same script through the PyNEST
API; NEST's part runs in the peers' interpreter): the network of NEST's example
structural_plasticity.py (Diaz-Pier et al. 2016's homeostatic rewiring: 800 excitatory and 200
inhibitory iaf_psc_alpha, Poisson drive, Gaussian growth curves, no synapses at the start),
simulated in runs of 1 s after each of which the calcium and the synaptic elements of every
neuron are read, as the example does; structural updates every 10 s.

    python benchmarks/structural_plasticity.py [--t-sim 50000] [--threads 1,2] [--nest-python PY]

NEST refuses structural plasticity on more than one thread: it runs on one. Prints one JSON
object per Ranvier thread count: wall-clock seconds of the runs on each, their ratio, and the
mean calcium and synapse counts at the end (the pairing is random, so they agree as statistics)."""

import argparse
import json
import subprocess
import sys
import time

import numpy as np

N_E, N_I = 800, 200  # with iaf_psc_alpha's defaults (the example's model_params are never set)


def _curve(rate, eps):
    return {"growth_curve": "gaussian", "growth_rate": rate, "continuous": False, "eta": 0.0, "eps": eps}


def build(nest, threads):
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads})
    nest.structural_plasticity_update_interval = 10000.0
    for name, weight in (("synapse_ex", 585.0), ("synapse_in", -585.0)):
        nest.CopyModel("static_synapse", name)
        nest.SetDefaults(name, {"weight": weight, "delay": 1.0})
    nest.structural_plasticity_synapses = {
        "synapse_ex": {
            "synapse_model": "synapse_ex",
            "post_synaptic_element": "Den_ex",
            "pre_synaptic_element": "Axon_ex",
        },
        "synapse_in": {
            "synapse_model": "synapse_in",
            "post_synaptic_element": "Den_in",
            "pre_synaptic_element": "Axon_in",
        },
    }
    excitatory = {"Den_ex": _curve(1e-4, 0.05), "Den_in": _curve(1e-4, 0.05), "Axon_ex": _curve(1e-4, 0.05)}
    inhibitory = {"Den_ex": _curve(4e-4, 0.2), "Den_in": _curve(1e-4, 0.2), "Axon_in": _curve(1e-4, 0.2)}
    nodes_e = nest.Create("iaf_psc_alpha", N_E, {"synaptic_elements": excitatory})
    nodes_i = nest.Create("iaf_psc_alpha", N_I, {"synaptic_elements": inhibitory})
    noise = nest.Create("poisson_generator", params={"rate": 10000.0})
    nest.Connect(noise, nodes_e + nodes_i, "all_to_all", {"weight": 6.2, "delay": 1.0})
    nest.EnableStructuralPlasticity()
    return nodes_e, nodes_i


def measure(nest, threads, t_sim):
    nodes_e, nodes_i = build(nest, threads)
    start = time.perf_counter()
    for _ in range(int(t_sim // 1000.0)):
        nest.Simulate(1000.0)
        ca = [float(np.mean(nodes.Ca)) for nodes in (nodes_e, nodes_i)]
        elements = [nodes.synaptic_elements for nodes in (nodes_e, nodes_i)]
    seconds = time.perf_counter() - start
    connected = [sum(e[axon]["z_connected"] for e in es) for es, axon in zip(elements, ("Axon_ex", "Axon_in"))]
    return {"seconds": seconds, "mean_Ca": ca, "synapses": connected}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--t-sim", type=float, default=50000.0)
    p.add_argument("--threads", default="1,2")
    p.add_argument("--nest-python", default="/work/peers-nest/bin/python")
    p.add_argument("--peer", action="store_true", help="internal: run NEST's part in this interpreter")
    a = p.parse_args()
    if a.peer:
        import nest

        nest.set_verbosity("M_ERROR")
        print(json.dumps(measure(nest, 1, a.t_sim)), flush=True)
        return
    import ranvier

    for threads in map(int, a.threads.split(",")):
        ours = measure(ranvier, threads, a.t_sim)
        done = subprocess.run(
            [a.nest_python, __file__, "--peer", "--t-sim", str(a.t_sim)], capture_output=True, text=True, check=True
        )
        theirs = json.loads(done.stdout.strip().splitlines()[-1])
        print(
            json.dumps(
                {
                    "network": "structural_plasticity",
                    "t_sim_ms": a.t_sim,
                    "ranvier_threads": threads,
                    "nest_threads": 1,
                    "ranvier_s": round(ours["seconds"], 2),
                    "nest_s": round(theirs["seconds"], 2),
                    "nest_over_ranvier": round(theirs["seconds"] / ours["seconds"], 2),
                    "mean_Ca_ranvier": [round(c, 4) for c in ours["mean_Ca"]],
                    "mean_Ca_nest": [round(c, 4) for c in theirs["mean_Ca"]],
                    "synapses_ranvier": ours["synapses"],
                    "synapses_nest": theirs["synapses"],
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    sys.exit(main())
