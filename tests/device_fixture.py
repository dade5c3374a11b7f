"""NEST 3.10's device behaviour (fixture by benchmarks/peers/nest_device_traces.py) and the
same scenarios rebuilt in Ranvier."""

import json
import math
import pathlib

import numpy as np

import ranvier as rv

FIXTURE = np.load(pathlib.Path(__file__).parent / "fixtures" / "nest_device_traces.npz")
SPEC = json.loads(str(FIXTURE["spec"]))
H = SPEC["h"]


def reset(threads=1, seed=1):
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": H, "local_num_threads": threads, "rng_seed": seed})


def trace(name, threads=1):
    """V_m of the iaf_psc_alpha driven by the scenario's device, every step."""
    model, params, delay = SPEC["traces"][name]
    reset(threads)
    n = rv.Create("iaf_psc_alpha", params=SPEC["neuron"])
    dev = rv.Create(model, params=params)
    vm = rv.Create("voltmeter", params={"interval": H})
    rv.Connect(dev, n, syn_spec={"delay": delay})
    rv.Connect(vm, n)
    rv.Simulate(SPEC["t_trace"])
    return vm.get("events")["V_m"]


def applied_current(vm):
    """The current of each step from consecutive V_m samples of iaf_psc_alpha (its exact
    update with no synaptic input: V' - E_L = P (V - E_L) + R (1 - P) I); row k is step k."""
    d = rv.GetDefaults("iaf_psc_alpha")
    p = math.exp(-H / d["tau_m"])
    v = np.vstack([np.full((1, vm.shape[1]), d["E_L"]), vm]) - d["E_L"]
    return (v[1:] - p * v[:-1]) / (d["tau_m"] / d["C_m"] * (1 - p))


def noise_currents(params, targets, t_sim, threads=1, seed=1):
    """The current each of `targets` neurons receives from one noise_generator, per step."""
    reset(threads, seed)
    ns = rv.Create("iaf_psc_alpha", targets, params=SPEC["neuron"])
    gen = rv.Create("noise_generator", params=params)
    vm = rv.Create("voltmeter", params={"interval": H})
    rv.Connect(gen, ns, syn_spec={"delay": 1.0})
    rv.Connect(vm, ns)
    rv.Simulate(t_sim)
    ev = vm.get("events")
    first = ns[0].global_id
    v = np.stack([ev["V_m"][ev["senders"] == first + k] for k in range(targets)], axis=1)
    return applied_current(v)


def spikes_to_parrots(params, targets, t_sim, threads=1, model="sinusoidal_poisson_generator"):
    """Emission times and target index of the spikes a generator sends to parrot neurons."""
    reset(threads)
    gen = rv.Create(model, params=params)
    parrots = rv.Create("parrot_neuron", targets)
    sr = rv.Create("spike_recorder")
    rv.Connect(gen, parrots, syn_spec={"delay": 1.0})
    rv.Connect(parrots, sr)
    rv.Simulate(t_sim)
    ev = sr.get("events")
    return ev["times"] - 1.0, ev["senders"] - parrots[0].global_id
