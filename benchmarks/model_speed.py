#!/usr/bin/env python3
"""Update cost of each neuron model, Ranvier beside NEST 3.10, in one run: nanoseconds per
neuron per time step.

    python benchmarks/model_speed.py                  # every model, N = 1000, 200 ms
    python benchmarks/model_speed.py --models iaf_cond_exp,hh_psc_alpha --n 4000
    python benchmarks/model_speed.py --nest-python /work/peers-venv/bin/python

The same script builds the network in both simulators through the PyNEST API (Ranvier is
imported as nest; NEST's part runs as a subprocess of the peers' interpreter, one model at a
time, alternating with Ranvier's): N unconnected neurons of the model, each with its own I_e
(GLIF models: V_th) drawn from a range that makes most of them fire, and each receiving its own
Poisson input (weight and rate as below), so that the adaptive solvers meet spikes and synaptic input as in
a network. One thread, resolution 0.1 ms. After 20 ms of warm-up, the wall-clock time of a
Simulate(T) call is divided by N T / h. The figure includes the delivery of the Poisson input
(the same in both), which is small beside the ODE models' update. Prints one JSON object per
model and, last, a JSON object with all of them.
"""

import argparse
import json
import os
import subprocess
import sys
import time

# model: (parameters, a (lo, hi) pair drawn uniformly per neuron, Poisson weight[, its
# receptor_type]); the Poisson rate is RATE for all
MODELS = {
    "iaf_psc_alpha": ({"I_e": (300.0, 450.0)}, 20.0),
    "iaf_psc_delta": ({"I_e": (300.0, 420.0)}, 0.5),
    "izhikevich": ({"I_e": (3.0, 12.0)}, 1.0),
    "mat2_psc_exp": ({"I_e": (300.0, 600.0)}, 40.0),
    "gif_psc_exp": ({"I_e": (80.0, 160.0)}, 20.0),
    # GLIF 5, every mechanism on; it has no I_e: V_th varies instead
    "glif_psc": (
        {
            "V_th": (-56.0, -50.0),
            "spike_dependent_threshold": True,
            "after_spike_currents": True,
            "adapting_threshold": True,
        },
        25.0,
        1,
    ),
    "glif_psc_double_alpha": (
        {"V_th": (-56.0, -50.0), "spike_dependent_threshold": True, "after_spike_currents": True},
        20.0,
        1,
    ),
    "glif_cond": ({"V_th": (-62.0, -56.0), "after_spike_currents": True}, 3.0, 1),
    "gif_psc_exp_multisynapse": ({"I_e": (80.0, 160.0), "tau_syn": [2.0, 5.0]}, 20.0, 1),
    "iaf_psc_alpha_multisynapse": ({"I_e": (300.0, 450.0), "tau_syn": [2.0, 5.0]}, 20.0, 1),
    "aeif_cond_alpha_multisynapse": ({"I_e": (500.0, 900.0), "E_rev": [0.0, -85.0], "tau_syn": [0.5, 2.0]}, 1.0, 1),
    "iaf_cond_exp": ({"I_e": (250.0, 450.0)}, 2.0),
    "iaf_cond_alpha": ({"I_e": (250.0, 450.0)}, 1.0),
    "aeif_cond_exp": ({"I_e": (500.0, 900.0)}, 2.0),
    "aeif_cond_alpha": ({"I_e": (500.0, 900.0)}, 1.0),
    "hh_psc_alpha": ({"I_e": (400.0, 1200.0)}, 50.0),
    "hh_psc_alpha_gap": ({"I_e": (400.0, 1200.0)}, 50.0),
    "hh_cond_exp_traub": ({"I_e": (100.0, 600.0)}, 2.0),
    "aeif_psc_delta_clopath": ({"I_e": (500.0, 900.0)}, 1.0),
    "hh_psc_alpha_clopath": ({"I_e": (400.0, 1200.0)}, 50.0),
    "pp_cond_exp_mc_urbanczik": ({"soma": {"I_e": 300.0}}, 5.0, 1),  # stochastic soma: no I_e range
    "iaf_tum_2000": ({"I_e": (300.0, 450.0)}, 20.0),
    "iaf_bw_2001": ({"V_th": (-56.0, -50.0)}, 1.8, 1),  # no I_e; Poisson input at AMPA
    "gif_pop_psc_exp": ({"I_e": (300.0, 600.0)}, 20.0),  # a population of N = 100 per node
    # NEST's compartmental model: an active soma with AMPA input and a four-compartment dendrite
    "cm_default": (
        {
            "compartments": [{"parent_idx": -1, "params": {"gbar_Na": 4.5, "gbar_K": 1.8, "e_Na": 50.0, "e_K": -85.0}}]
            + [{"parent_idx": k, "params": {"C_m": 0.1, "g_C": 0.1, "g_L": 0.01}} for k in range(4)],
            "receptors": [{"comp_idx": 0, "receptor_type": "AMPA"}],
            "V_th": -35.0,  # NEST's cm_default takes no random parameter
        },
        0.03,
    ),
}
RATE = 2000.0  # Hz of Poisson input per neuron
H = 0.1


def measure(sim, name, model, n, t_sim, spec=None):
    """`spec`: MODELS' entry for the model (default: MODELS[model])."""
    params, weight, receptor = (*(spec or MODELS[model]), 0)[:3]
    sim.ResetKernel()
    sim.SetKernelStatus({"local_num_threads": 1, "resolution": H, "rng_seed": 11})
    fixed = {k: v for k, v in params.items() if not isinstance(v, tuple)}
    neurons = sim.Create(model, n, params=fixed)
    neurons.set({k: sim.random.uniform(*v) for k, v in params.items() if isinstance(v, tuple)})
    noise = sim.Create("poisson_generator", params={"rate": RATE})
    sim.Connect(noise, neurons, syn_spec={"weight": weight, "delay": 1.0, "receptor_type": receptor})
    sr = sim.Create("spike_recorder")
    sim.Connect(neurons, sr)
    sim.Simulate(20.0)
    start = time.perf_counter()
    sim.Simulate(t_sim)
    seconds = time.perf_counter() - start
    spikes = sim.GetStatus(sr, "n_events")
    spikes = spikes[0] if isinstance(spikes, (list, tuple)) else spikes
    return {
        "simulator": name,
        "model": model,
        "n": n,
        "t_sim_ms": t_sim,
        "seconds": seconds,
        "ns_per_neuron_step": seconds / (n * t_sim / H) * 1e9,
        "rate_hz": float(spikes) / n / ((20.0 + t_sim) / 1000.0),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--n", type=int, default=1000)
    p.add_argument("--t-sim", type=float, default=200.0)
    p.add_argument("--nest-python", default="/work/peers-venv/bin/python")
    p.add_argument("--peer", action="store_true", help="internal: run NEST's part in this interpreter")
    a = p.parse_args()
    models = a.models.split(",")
    if a.peer:
        import nest

        nest.set_verbosity("M_ERROR")
        for model in models:
            print(json.dumps(measure(nest, "nest", model, a.n, a.t_sim)), flush=True)
        return
    import ranvier

    runs = []
    for model in models:
        mine = measure(ranvier, "ranvier", model, a.n, a.t_sim)
        cmd = [
            a.nest_python,
            os.path.abspath(__file__),
            "--peer",
            "--models",
            model,
            "--n",
            str(a.n),
            "--t-sim",
            str(a.t_sim),
        ]
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        theirs = json.loads([line for line in done.stdout.splitlines() if line.startswith("{")][-1])
        row = {
            "model": model,
            "n": a.n,
            "t_sim_ms": a.t_sim,
            "ranvier_ns": round(mine["ns_per_neuron_step"], 1),
            "nest_ns": round(theirs["ns_per_neuron_step"], 1),
            "speedup": round(theirs["ns_per_neuron_step"] / mine["ns_per_neuron_step"], 2),
            "ranvier_rate_hz": round(mine["rate_hz"], 1),
            "nest_rate_hz": round(theirs["rate_hz"], 1),
        }
        runs.append(row)
        print(json.dumps(row), flush=True)
    print(json.dumps({"benchmark": "model_speed", "unit": "ns per neuron-step", "runs": runs}))


if __name__ == "__main__":
    sys.exit(main())
