"""Reference behaviour of NEST 3.10's stimulation devices, for tests/test_devices_*.py.

Run with the peers' interpreter (NEST is never imported by the test suite):
    /work/peers-venv/bin/python benchmarks/peers/nest_device_traces.py
Deterministic current generators (dc, step_current, ac) each drive one iaf_psc_alpha whose
V_m is recorded every step: the traces pin down the currents' values and timing (window,
delay, phases). Random generators are summarised by statistics: the applied current of
noise_generator (recovered from V_m, see below), and the spikes of the spike generators
seen through parrot neurons (phases, counts per 10 ms, coincidences between targets); where
the spike timing is deterministic (rates so high that every step has spikes, pulses of sdev
0) the spike times themselves.
The scenarios are stored with the results, so the tests rebuild exactly what was run here.
Writes tests/fixtures/nest_device_traces.npz.
"""

import json
import math
import pathlib

import nest
import numpy as np

H = 0.1
# No spikes: the membrane integrates the current alone, so the current can be read back.
NEURON = {"V_th": 1e6}
T_TRACE = 20.0
# name: (device model, device parameters, connection delay)
TRACES = {
    "dc_start_stop": ("dc_generator", {"amplitude": 100.0, "start": 2.0, "stop": 5.0}, 1.0),
    "dc_origin": ("dc_generator", {"amplitude": -80.0, "origin": 1.0, "start": 1.5, "stop": 6.3}, 1.5),
    "dc_short": ("dc_generator", {"amplitude": 50.0, "stop": 0.3}, 0.1),
    "step": (
        "step_current_generator",
        {"amplitude_times": [1.0, 2.5, 4.0, 6.3], "amplitude_values": [100.0, -50.0, 200.0, 0.0]},
        1.0,
    ),
    "step_window": (
        "step_current_generator",
        {
            "amplitude_times": [1.0, 2.5, 4.0, 6.3],
            "amplitude_values": [100.0, -50.0, 200.0, 0.0],
            "start": 2.0,
            "stop": 5.0,
        },
        0.5,
    ),
    "step_offgrid": (
        "step_current_generator",
        {
            "allow_offgrid_times": True,
            "amplitude_times": [0.35, 1.05, 3.3333],
            "amplitude_values": [120.0, 40.0, -60.0],
        },
        1.0,
    ),
    "ac": ("ac_generator", {"amplitude": 80.0, "offset": 20.0, "frequency": 50.0, "phase": 30.0}, 1.0),
    "ac_window": (
        "ac_generator",
        {"amplitude": 60.0, "offset": -10.0, "frequency": 120.0, "phase": 200.0, "start": 3.0, "stop": 15.0},
        2.0,
    ),
}
NOISE = {"mean": 50.0, "std": 200.0, "dt": 0.5, "start": 1.0}
NOISE_MOD = {"mean": 0.0, "std": 100.0, "std_mod": 80.0, "frequency": 10.0, "phase": 45.0, "dt": 0.1}
NOISE_TARGETS, T_NOISE = 4, 2000.0
SINUSOIDAL = {"rate": 100.0, "amplitude": 80.0, "frequency": 5.0, "phase": 90.0}
SINUSOIDAL_TARGETS, T_SINUSOIDAL, PHASE_BINS = 200, 2000.0, 20
# Spike generators whose timing is deterministic in these settings (a rate so high that every
# step has spikes; pulses of sdev 0): the emission times, exactly.
EXACT_SPIKES = {
    "poisson_generator": {"rate": 1e6, "start": 2.0, "stop": 5.0},
    "sinusoidal_poisson_generator": {"rate": 1e6, "amplitude": 5e5, "frequency": 100.0, "start": 2.0, "stop": 5.0},
    "inhomogeneous_poisson_generator": {
        "rate_times": [2.0, 3.0, 4.55],
        "rate_values": [1e6, 0.0, 1e6],
        "allow_offgrid_times": True,
        "stop": 5.0,
    },
    "pulsepacket_generator": {"pulse_times": [10.0, 0.0, 10.04, 12.5], "activity": 3, "sdev": 0.0},
    # every component leaves its one state in every step (rate gamma_shape h = 1)
    "gamma_sup_generator": {"rate": 1e4, "gamma_shape": 1, "n_proc": 3, "start": 2.0, "stop": 5.0},
}
INHOMOGENEOUS = {"rate_times": [100.0, 600.0, 1200.0], "rate_values": [150.0, 20.0, 80.0]}
MIP = {"rate": 200.0, "p_copy": 0.3}
PULSEPACKET = {"pulse_times": [200.0, 500.0], "activity": 400, "sdev": 5.0}
SPIKE_TARGETS, T_SPIKES = 40, 2000.0
# gamma_sup_generator: one gamma process per target (its ISIs), and a superposition (its counts)
GAMMA = {"one": {"rate": 50.0, "gamma_shape": 4, "n_proc": 1}, "pooled": {"rate": 20.0, "gamma_shape": 3, "n_proc": 5}}
FANO_WINDOW = 100.0  # ms


def train_statistics(times, senders, n_targets):
    """Coefficient of variation of the pooled ISIs of all targets' trains, and the Fano factor
    of each target's counts in FANO_WINDOW windows (averaged over targets)."""
    isis = np.concatenate([np.diff(np.sort(times[senders == k])) for k in range(n_targets)])
    windows = int(T_SPIKES / FANO_WINDOW)
    counts = np.stack(
        [
            np.bincount((times[senders == k] // FANO_WINDOW).astype(int), minlength=windows)[:windows]
            for k in range(n_targets)
        ]
    )
    return isis.std() / isis.mean(), np.mean(counts.var(axis=1, ddof=1) / counts.mean(axis=1))


# spike_train_injector: its own spikes (off-grid times, multiplicities, window and origin), a
# train set mid-run with shift_now_spikes, and the V_m of an iaf_psc_alpha it drives.
INJECTOR = {
    "window": {
        "spike_times": [1.0, 1.05, 2.0, 2.0, 3.0001, 5.5, 7.0, 9.2],
        "spike_multiplicities": [1, 2, 1, 1, 3, 1, 2, 1],
        "allow_offgrid_times": True,
        "origin": 1.0,
        "start": 1.0,
        "stop": 7.0,
    },
    "t_first": 10.0,
    "later": {"spike_times": [10.0, 10.0001, 11.0, 12.35], "shift_now_spikes": True, "allow_offgrid_times": True},
    "t_end": 20.0,
    "weight": 150.0,
    "delay": 1.5,
}


def injector():
    """Spike times of the two injectors and the V_m (every step) of the neuron they drive."""
    reset()
    s = INJECTOR
    first = nest.Create("spike_train_injector", params=s["window"])
    second = nest.Create("spike_train_injector")
    target = nest.Create("iaf_psc_alpha", params=NEURON)
    sr = nest.Create("spike_recorder")
    vm = nest.Create("voltmeter", params={"interval": H})
    nest.Connect(first + second, sr)
    nest.Connect(first + second, target, syn_spec={"weight": s["weight"], "delay": s["delay"]})
    nest.Connect(vm, target)
    nest.Simulate(s["t_first"])
    second.set(s["later"])
    set_times = list(second.spike_times)
    nest.Simulate(s["t_end"] - s["t_first"])
    ev = sr.events
    return {
        "times": ev["times"],
        "senders": ev["senders"] - first.global_id,
        "V_m": vm.events["V_m"],
        "first_times": np.array(first.spike_times),
        "second_times": np.array(set_times),
    }


def reset():
    nest.ResetKernel()
    nest.set(resolution=H, local_num_threads=1, rng_seed=1)


def trace(model, params, delay):
    reset()
    n = nest.Create("iaf_psc_alpha", params=NEURON)
    dev = nest.Create(model, params=params)
    vm = nest.Create("voltmeter", params={"interval": H})
    nest.Connect(dev, n, syn_spec={"delay": delay})
    nest.Connect(vm, n)
    nest.Simulate(T_TRACE)
    return vm.get("events")["V_m"]


def applied_current(vm):
    """The current of each step from consecutive V_m samples (iaf_psc_alpha's exact update with
    no synaptic input: V' - E_L = P (V - E_L) + R (1 - P) I); row k acts in step k + 1."""
    d = nest.GetDefaults("iaf_psc_alpha")
    p = math.exp(-H / d["tau_m"])
    v = np.vstack([np.full((1, vm.shape[1]), d["E_L"]), vm]) - d["E_L"]
    return (v[1:] - p * v[:-1]) / (d["tau_m"] / d["C_m"] * (1 - p))


def noise(params):
    reset()
    ns = nest.Create("iaf_psc_alpha", NOISE_TARGETS, params=NEURON)
    gen = nest.Create("noise_generator", params=params)
    vm = nest.Create("voltmeter", params={"interval": H})
    nest.Connect(gen, ns, syn_spec={"delay": 1.0})
    nest.Connect(vm, ns)
    nest.Simulate(T_NOISE)
    ev = vm.get("events")
    first = ns[0].global_id
    v = np.stack([ev["V_m"][ev["senders"] == first + k] for k in range(NOISE_TARGETS)], axis=1)
    return applied_current(v)


def spikes_to_parrots(params, n_targets, model="sinusoidal_poisson_generator"):
    """Emission times and target index of a generator's spikes, seen through parrot neurons."""
    reset()
    gen = nest.Create(model, params=params)
    parrots = nest.Create("parrot_neuron", n_targets)
    sr = nest.Create("spike_recorder")
    nest.Connect(gen, parrots, syn_spec={"delay": 1.0})
    nest.Connect(parrots, sr)
    nest.Simulate(T_SINUSOIDAL)
    ev = sr.get("events")
    return ev["times"] - 1.0, ev["senders"] - parrots[0].global_id  # emission times, target index


def main():
    arrays = {}
    for name, (model, params, delay) in TRACES.items():
        arrays[f"trace/{name}"] = trace(model, params, delay)
    current = noise(NOISE)
    steady = current[int(round((1.0 + NOISE["start"]) / H)) + 1 :]  # after the delay and the start
    arrays["noise/first_steps"] = current[:80]
    arrays["noise/mean"] = steady.mean(axis=0)
    arrays["noise/std"] = steady.std(axis=0)
    arrays["noise/corr"] = np.corrcoef(steady.T)
    modulated = noise(NOISE_MOD)[12:]  # current of steps 12...: sent in steps 1..., modulation sin(w (s + 1) h + phi)
    phase = 2 * math.pi * NOISE_MOD["frequency"] * 1e-3 * (np.arange(len(modulated)) + 2) * H + math.radians(
        NOISE_MOD["phase"]
    )
    arrays["noise_mod/variance_by_sin"] = np.polyfit(np.sin(phase), modulated.var(axis=1, ddof=1), 1)
    times, _ = spikes_to_parrots(SINUSOIDAL, SINUSOIDAL_TARGETS)

    cycle = (times * SINUSOIDAL["frequency"] * 1e-3) % 1.0
    arrays["sinusoidal/phase_histogram"] = np.histogram(cycle, bins=PHASE_BINS, range=(0, 1))[0]
    arrays["sinusoidal/count"] = np.array(len(times))
    for model, params in EXACT_SPIKES.items():
        times, senders = spikes_to_parrots(params, 2, model)
        arrays[f"exact/{model}/times"], arrays[f"exact/{model}/senders"] = times, senders
    for model, params in [
        ("inhomogeneous_poisson_generator", INHOMOGENEOUS),
        ("mip_generator", MIP),
        ("pulsepacket_generator", PULSEPACKET),
    ]:
        times, senders = spikes_to_parrots(params, SPIKE_TARGETS, model)
        steps = np.rint(times / H).astype(int)
        arrays[f"spikes/{model}/counts"] = np.bincount(steps // 100, minlength=int(T_SPIKES / H) // 100)  # per 10 ms
        pairs = [
            len(np.intersect1d(steps[senders == a], steps[senders == b]))
            for a in range(SPIKE_TARGETS)
            for b in range(a + 1, SPIKE_TARGETS)
        ]
        arrays[f"spikes/{model}/coincidences"] = np.array(pairs)
        print(model, len(times), "spikes, mean coincidences", np.mean(pairs))
    for key, value in injector().items():
        arrays[f"injector/{key}"] = value
    print("spike_train_injector spikes", arrays["injector/times"], arrays["injector/senders"])
    for key, params in GAMMA.items():
        times, senders = spikes_to_parrots(params, SPIKE_TARGETS, "gamma_sup_generator")
        cv, fano = train_statistics(times, senders, SPIKE_TARGETS)
        arrays[f"gamma/{key}/stats"] = np.array([len(times), cv, fano])
        print("gamma_sup_generator", key, "spikes, CV, Fano:", arrays[f"gamma/{key}/stats"])
    spec = {
        "nest_version": nest.__version__,
        "h": H,
        "neuron": NEURON,
        "t_trace": T_TRACE,
        "traces": TRACES,
        "noise": NOISE,
        "noise_mod": NOISE_MOD,
        "noise_targets": NOISE_TARGETS,
        "t_noise": T_NOISE,
        "sinusoidal": SINUSOIDAL,
        "sinusoidal_targets": SINUSOIDAL_TARGETS,
        "t_sinusoidal": T_SINUSOIDAL,
        "phase_bins": PHASE_BINS,
        "exact_spikes": EXACT_SPIKES,
        "inhomogeneous": INHOMOGENEOUS,
        "mip": MIP,
        "pulsepacket": PULSEPACKET,
        "spike_targets": SPIKE_TARGETS,
        "t_spikes": T_SPIKES,
        "gamma": GAMMA,
        "fano_window": FANO_WINDOW,
        "injector": INJECTOR,
    }
    path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "nest_device_traces.npz"
    np.savez_compressed(path, spec=np.array(json.dumps(spec)), **arrays)
    print("wrote", path, path.stat().st_size, "bytes")
    print("noise mean", arrays["noise/mean"], "std", arrays["noise/std"])
    print("noise_mod variance = a sin + b:", arrays["noise_mod/variance_by_sin"])
    print("sinusoidal count", len(cycle), "histogram", arrays["sinusoidal/phase_histogram"])


if __name__ == "__main__":
    main()
