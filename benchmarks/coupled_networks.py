#!/usr/bin/env python3
"""Simulation time of networks coupled by NEST's secondary events, Ranvier beside NEST 3.10 in
one run (alternating, the same script through the PyNEST API; NEST's part runs in the peers'
interpreter):

- rates: NEST's lin_rate_ipn_network.py scaled up: N lin_rate_ipn neurons (4:1), excitatory
  delayed (5 ms) and inhibitory instantaneous rate connections, fixed outdegree 10% (waveform
  relaxation iterates the instantaneous ones);
- gap: NEST's gap_junctions_inhibitory_network.py: 500 hh_psc_alpha_gap, 60 gap junctions each
  (0.3 nS), 50 inhibitory synapses each, Poisson drive, cubic interpolation, wfr_tol 1e-4;
- eprop: NEST's eprop_supervised_regression_sine-waves.py with 400 recurrent eprop_iaf: 100
  Poisson inputs, all-to-all eprop_synapses (Adam) in and between the recurrent neurons and to
  one eprop_readout, which learns a sine within a learning window and sends learning signals.

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


def eprop(nest, threads, n_rec=400, t_sim=2000.0):
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 1.0, "local_num_threads": threads})
    rng = np.random.default_rng(1)
    inputs = nest.Create("parrot_neuron", 100)
    nest.Connect(nest.Create("poisson_generator", params={"rate": 50.0}), inputs)
    rec_params = {
        "C_m": 1.0,
        "E_L": 0.0,
        "V_m": 0.0,
        "V_th": 0.03,
        "tau_m": 30.0,
        "t_ref": 0.0,
        "c_reg": 3.0,
        "f_target": 10.0,
        "surrogate_gradient_height": 10.0,
        "surrogate_gradient_width": 0.03,
        "flush_event_send_interval": 100.0,
        "eprop_isi_trace_cutoff": 100.0,
    }
    rec = nest.Create("eprop_iaf", n_rec, rec_params)
    out = nest.Create("eprop_readout", 1, {"C_m": 1.0, "E_L": 0.0, "tau_m": 30.0, "eprop_isi_trace_cutoff": 100.0})
    target, window = nest.Create("step_rate_generator"), nest.Create("step_rate_generator")
    times = np.arange(2.0, t_sim + 20.0)
    target.set({"amplitude_times": times, "amplitude_values": np.sin(times / 50.0)})
    window.set({"amplitude_times": [2.0], "amplitude_values": [1.0]})
    nest.SetDefaults("eprop_synapse", {"optimizer": {"type": "adam", "eta": 1e-4}})
    syn = {"synapse_model": "eprop_synapse", "delay": 1.0}
    all_to_all = {"rule": "all_to_all", "allow_autapses": False}
    for source, to, scale in ((inputs, rec, 0.003), (rec, rec, 0.0015), (rec, out, 0.0015)):
        weight = rng.normal(0.0, scale, (len(to), len(source)))
        nest.Connect(source, to, all_to_all, {**syn, "weight": weight})
    feedback = rng.normal(0.0, 0.1, (n_rec, 1))
    nest.Connect(out, rec, all_to_all, {"synapse_model": "eprop_learning_signal_connection", "weight": feedback})
    rate = {"synapse_model": "rate_connection_delayed", "delay": 1.0}
    nest.Connect(target, out, syn_spec={**rate, "receptor_type": 2})
    nest.Connect(window, out, syn_spec={**rate, "receptor_type": 1})
    return t_sim


NETWORKS = {"rates": rates, "gap": gap, "eprop": eprop}


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
