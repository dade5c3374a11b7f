"""What PyNN costs over Ranvier's PyNEST API: the COBA network of PyNN's VAbenchmarks (Brette
et al. 2007: 3,200 excitatory and 800 inhibitory IF_cond_exp cells, connection probability
0.02, 1 s at 0.1 ms, an initial 50 ms Poisson kick) built and simulated through pyNN.ranvier
(its connectors drawing with NumPy, PyNN's default, or with NativeRNG: Ranvier's rules) and
through Ranvier's own API (iaf_cond_exp, pairwise_bernoulli), each in a fresh process.

    python benchmarks/pynn_overhead.py [--repeats 2]

Prints one JSON object: per way, the build and simulation times (wall s), the spike count, and
the ratios PyNN / PyNEST. PyNN's connectors draw the pairs in Python with NumPy (its default);
Ranvier's rule draws them in the kernel, so the networks are alike in statistics, not equal."""

import argparse
import json
import subprocess
import sys

COMMON = dict(n_exc=3200, n_inh=800, p=0.02, w_exc=0.004, w_inh=0.051, delay=0.2, t_sim=1000.0, dt=0.1)

PYNN = r"""
import json, sys, time
import pyNN.ranvier as sim
c = json.loads(sys.argv[1])
t0 = time.perf_counter()
sim.setup(timestep=c["dt"], min_delay=c["delay"], spike_precision="on_grid")
cell = sim.IF_cond_exp(cm=0.2, tau_m=20.0, tau_refrac=5.0, v_rest=-60.0, v_reset=-60.0, v_thresh=-50.0,
                       tau_syn_E=5.0, tau_syn_I=10.0, e_rev_E=0.0, e_rev_I=-80.0)
exc, inh = sim.Population(c["n_exc"], cell), sim.Population(c["n_inh"], cell)
kick = sim.Population(20, sim.SpikeSourcePoisson(rate=50.0, duration=50.0))
everyone = exc + inh
rng = sim.NativeRNG(seed=1) if sys.argv[2] == "native" else sim.NumpyRNG(seed=1)
connector = sim.FixedProbabilityConnector(c["p"], rng=rng)
for pre, kind in ((exc, "exc"), (inh, "inh")):
    synapse = sim.StaticSynapse(weight=c["w_" + kind], delay=c["delay"])
    receptor = "excitatory" if kind == "exc" else "inhibitory"
    if rng.__class__.__name__ == "NativeRNG":  # an Assembly's cells as one population each: one rule per target population
        for post in (exc, inh):
            sim.Projection(pre, post, connector, synapse, receptor_type=receptor)
    else:
        sim.Projection(pre, everyone, connector, synapse, receptor_type=receptor)
sim.Projection(kick, exc[:800], sim.FixedProbabilityConnector(0.01, rng=sim.NumpyRNG(seed=2)),
               sim.StaticSynapse(weight=0.1, delay=c["delay"]), receptor_type="excitatory")
everyone.record("spikes")
sim.run(0.0)
t1 = time.perf_counter()
sim.run(c["t_sim"])
t2 = time.perf_counter()
spikes = sum(len(s) for s in everyone.get_data().segments[0].spiketrains)
print(json.dumps({"build_s": t1 - t0, "simulate_s": t2 - t1, "spikes": spikes}))
"""

NATIVE = r"""
import json, sys, time
import ranvier as rv
c = json.loads(sys.argv[1])
t0 = time.perf_counter()
rv.SetKernelStatus({"resolution": c["dt"]})
params = {"C_m": 200.0, "g_L": 10.0, "t_ref": 5.0, "E_L": -60.0, "V_reset": -60.0, "V_th": -50.0,
          "tau_syn_ex": 5.0, "tau_syn_in": 10.0, "E_ex": 0.0, "E_in": -80.0, "V_m": -60.0}
exc, inh = rv.Create("iaf_cond_exp", c["n_exc"], params), rv.Create("iaf_cond_exp", c["n_inh"], params)
kick = rv.Create("poisson_generator", 20, {"rate": 50.0, "stop": 50.0})
parrots = rv.Create("parrot_neuron", 20)
rv.Connect(kick, parrots, "one_to_one")
everyone = exc + inh
rule = {"rule": "pairwise_bernoulli", "p": c["p"]}
rv.Connect(exc, everyone, rule, {"weight": c["w_exc"] * 1000.0, "delay": c["delay"]})
rv.Connect(inh, everyone, rule, {"weight": -c["w_inh"] * 1000.0, "delay": c["delay"]})
rv.Connect(parrots, exc[:800], {"rule": "pairwise_bernoulli", "p": 0.01}, {"weight": 100.0, "delay": c["delay"]})
recorder = rv.Create("spike_recorder")
rv.Connect(everyone, recorder)
rv.Simulate(c["dt"])
t1 = time.perf_counter()
rv.Simulate(c["t_sim"])
t2 = time.perf_counter()
print(json.dumps({"build_s": t1 - t0, "simulate_s": t2 - t1, "spikes": int(recorder.n_events)}))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    ways = (("pynn", PYNN, "numpy"), ("pynn_native_rng", PYNN, "native"), ("pynest", NATIVE, ""))
    runs: dict[str, list] = {way: [] for way, _, _ in ways}
    for _ in range(args.repeats):  # alternated: the machine is shared
        for way, code, rng in ways:
            command = [sys.executable, "-c", code, json.dumps(COMMON), rng]
            out = subprocess.run(command, capture_output=True, text=True, check=True)
            runs[way].append(json.loads(out.stdout.strip().splitlines()[-1]))
    best = {
        way: {k: min(r[k] for r in rs) for k in ("build_s", "simulate_s")} | {"spikes": rs[0]["spikes"]}
        for way, rs in runs.items()
    }
    over = {
        way: {k: best[way][k] / best["pynest"][k] for k in ("build_s", "simulate_s")}
        for way in ("pynn", "pynn_native_rng")
    }
    print(json.dumps({"network": COMMON, "fastest": best, "over_pynest": over, "runs": runs}))


if __name__ == "__main__":
    main()
