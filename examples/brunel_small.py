"""A balanced network of 2,000 excitatory and 500 inhibitory neurons (Brunel 2000): the
brunel-small benchmark at scale 0.1, with static synapses only. Writes brunel_raster.png.
Runs in a few seconds."""

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import ranvier as rv

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from ranvier_bench.brunel import weights  # noqa: E402

N_E, N_I = 2000, 500  # neurons
C_E, C_I = 200, 50  # inputs per neuron from E and from I
J_E, J_I, _, p_rate = weights("brunel-small", scale=0.1)  # 45.6 pA, -228 pA, ~11.1 kHz

rv.ResetKernel()
rv.SetKernelStatus({"resolution": 0.1, "local_num_threads": 2, "rng_seed": 1})

neuron = {
    "E_L": 0.0,
    "C_m": 250.0,
    "tau_m": 10.0,
    "t_ref": 0.5,
    "V_th": 20.0,
    "V_reset": 0.0,
    "tau_syn_ex": 0.326,
    "tau_syn_in": 0.326,
    "V_m": rv.random.normal(5.7, 7.2),
}
exc = rv.Create("iaf_psc_alpha", N_E, neuron)
inh = rv.Create("iaf_psc_alpha", N_I, neuron)
noise = rv.Create("poisson_generator", params={"rate": p_rate})
spikes = rv.Create("spike_recorder")

rule = {"rule": "fixed_indegree", "allow_autapses": False, "allow_multapses": True}
rv.Connect(exc, exc + inh, dict(rule, indegree=C_E), {"weight": J_E, "delay": 1.5})
rv.Connect(inh, exc + inh, dict(rule, indegree=C_I), {"weight": J_I, "delay": 1.5})
rv.Connect(noise, exc + inh, "all_to_all", {"weight": J_E, "delay": 1.5})
recorded = exc[:200] + inh[:50]
rv.Connect(recorded, spikes)

rv.Simulate(500.0)

senders, times = spikes.events["senders"], spikes.events["times"]
print(f"{len(times)} spikes from 250 neurons: {len(times) / 250 / 0.5:.1f} Hz")

fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(8, 6), gridspec_kw={"height_ratios": [3, 1]})
top.plot(times, np.searchsorted(recorded.tolist(), senders), ".", ms=2)  # row 0-199: E, 200-249: I
top.set_ylabel("neuron")
bottom.hist(times, bins=100)
bottom.set_xlabel("time (ms)")
bottom.set_ylabel("spikes per 5 ms")
fig.savefig("brunel_raster.png", dpi=100)
print("wrote brunel_raster.png")
