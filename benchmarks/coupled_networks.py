#!/usr/bin/env python3
"""Simulation time of networks coupled by NEST's secondary events, Ranvier beside NEST 3.10 in
one run (alternating, the same script through the PyNEST API; NEST's part runs in the peers'
interpreter):

- rates: NEST's lin_rate_ipn_network.py scaled up: N lin_rate_ipn neurons (4:1), excitatory
  delayed (5 ms) and inhibitory instantaneous rate connections, fixed outdegree 10% (waveform
  relaxation iterates the instantaneous ones);
- gap: NEST's gap_junctions_inhibitory_network.py: 500 hh_psc_alpha_gap, 60 gap junctions each
  (0.3 nS), 50 inhibitory synapses each, Poisson drive, cubic interpolation, wfr_tol 1e-4.

    python benchmarks/coupled_networks.py [--threads 2] [--nest-python /work/peers-nest/bin/python]

Prints one JSON object per network: wall-clock seconds of Simulate on each and their ratio."""

import argparse
import json
import subprocess
import sys
import time

import numpy as np


def rates(nest, threads, order=1000, t_sim=200.0):
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads})
    ne, ni = 4 * order, order
    w = 0.1 / np.sqrt(ne + ni)
    params = {"tau": 1.0, "mu": 0.0, "sigma": 10.0, "lambda": 1.0}
    n_e, n_i = nest.Create("lin_rate_ipn", ne, params), nest.Create("lin_rate_ipn", ni, params)
    syn_e = {"weight": w, "delay": 5.0, "synapse_model": "rate_connection_delayed"}
    syn_i = {"weight": -5.0 * w, "synapse_model": "rate_connection_instantaneous"}
    conn_e = {"rule": "fixed_outdegree", "outdegree": int(0.1 * ne)}
    conn_i = {"rule": "fixed_outdegree", "outdegree": int(0.1 * ni)}
    nest.Connect(n_e, n_e, conn_e, syn_e)
    nest.Connect(n_i, n_i, conn_i, syn_i)
    nest.Connect(n_e, n_i, conn_i, syn_e)
    nest.Connect(n_i, n_e, conn_e, syn_i)
    return t_sim


def gap(nest, threads, t_sim=200.0):
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.05, "local_num_threads": threads, "wfr_comm_interval": 1.0})
    neurons = nest.Create("hh_psc_alpha_gap", 500)
    conn = {"rule": "fixed_indegree", "indegree": 50, "allow_autapses": False, "allow_multapses": True}
    nest.Connect(neurons, neurons, conn, {"weight": -50.0, "delay": 1.0})
    pg = nest.Create("poisson_generator", params={"rate": 500.0})
    nest.Connect(pg, neurons, "all_to_all", {"weight": 300.0, "delay": 1.0})
    neurons.V_m = list(np.random.default_rng(1).uniform(-80.0, -40.0, 500))
    for a, b in np.random.default_rng(1).choice(neurons.tolist(), [500 * 60 // 2, 2]).tolist():
        nest.Connect(
            nest.NodeCollection([a]),
            nest.NodeCollection([b]),
            {"rule": "one_to_one", "make_symmetric": True},
            {"synapse_model": "gap_junction", "weight": 0.3},
        )
    return t_sim


NETWORKS = {"rates": rates, "gap": gap}


def measure(nest, name, threads):
    t_sim = NETWORKS[name](nest, threads)
    nest.Simulate(10.0)  # warm-up: buffers and relaxation settle
    start = time.perf_counter()
    nest.Simulate(t_sim)
    return {"seconds": time.perf_counter() - start, "t_sim_ms": t_sim}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--nest-python", default="/work/peers-nest/bin/python")
    p.add_argument("--peer", action="store_true", help="internal: run NEST's part in this interpreter")
    p.add_argument("--networks", default=",".join(NETWORKS))
    a = p.parse_args()
    names = a.networks.split(",")
    if a.peer:
        import nest

        nest.set_verbosity("M_ERROR")
        for name in names:
            print(json.dumps(measure(nest, name, a.threads)), flush=True)
        return
    import ranvier

    for name in names:
        ours = measure(ranvier, name, a.threads)
        done = subprocess.run(
            [a.nest_python, __file__, "--peer", "--threads", str(a.threads), "--networks", name],
            capture_output=True,
            text=True,
            check=True,
        )
        theirs = json.loads(done.stdout.strip().splitlines()[-1])
        print(
            json.dumps(
                {
                    "network": name,
                    "threads": a.threads,
                    "t_sim_ms": ours["t_sim_ms"],
                    "ranvier_s": round(ours["seconds"], 2),
                    "nest_s": round(theirs["seconds"], 2),
                    "nest_over_ranvier": round(theirs["seconds"] / ours["seconds"], 2),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    sys.exit(main())
