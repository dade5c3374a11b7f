"""Writes tests/fixtures/nest_precise.json: NEST 3.10's spike times and final membrane
potentials of its precise-timing models (iaf_psc_delta_ps, iaf_psc_exp_ps,
iaf_psc_exp_ps_lossless, iaf_psc_alpha_ps) driven by a constant current and by excitatory
and inhibitory spikes at off-grid times from spike generators with precise_times, at two
resolutions; and the times a parrot_neuron_ps repeats. tests/test_precise_models.py compares
Ranvier with them.

    /work/peers-nest/bin/python benchmarks/peers/nest_precise_fixture.py
"""

import json
import os

import nest

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "nest_precise.json")
MODELS = ("iaf_psc_delta_ps", "iaf_psc_exp_ps", "iaf_psc_exp_ps_lossless", "iaf_psc_alpha_ps")
RESOLUTIONS = (0.1, 0.0625)
# input times off the grid of both resolutions; some coincide, some fall on the grid
EXCITATORY = [1.2345, 3.0, 3.0, 7.77777, 12.5, 12.50001, 20.1234567, 33.3333, 33.3333, 41.9, 55.55]
INHIBITORY = [5.4321, 12.5, 25.2525, 41.9, 47.01]
CASES = {
    "dc": ({"I_e": 400.0}, 0.0, 0.0),
    "spikes": ({"I_e": 350.0}, 400.0, -300.0),
}
DELTA_WEIGHTS = (6.0, -4.0)  # iaf_psc_delta_ps: jumps in mV
T_SIM = 60.0


def set_resolution(h):
    nest.ResetKernel()
    nest.set(tics_per_ms=2**14 if h == 0.0625 else 1000, resolution=h)


def run(model, params, w_ex, w_in, h):
    set_resolution(h)
    neuron = nest.Create(model, params={"t_ref": 1.0, **params})
    recorder = nest.Create("spike_recorder")
    nest.Connect(neuron, recorder)
    if w_ex:
        if model == "iaf_psc_delta_ps":
            w_ex, w_in = DELTA_WEIGHTS
        for times, w in ((EXCITATORY, w_ex), (INHIBITORY, w_in)):
            generator = nest.Create("spike_generator", params={"spike_times": times, "precise_times": True})
            nest.Connect(generator, neuron, syn_spec={"weight": w, "delay": 1.0})
    nest.Simulate(T_SIM)
    return {"times": [float(t) for t in recorder.events["times"]], "V_m": float(neuron.V_m)}


def parrot(h):
    set_resolution(h)
    generator = nest.Create("spike_generator", params={"spike_times": EXCITATORY, "precise_times": True})
    parrot = nest.Create("parrot_neuron_ps")
    recorder = nest.Create("spike_recorder")
    nest.Connect(generator, parrot, syn_spec={"delay": 1.0})
    nest.Connect(parrot, recorder)
    nest.Simulate(T_SIM)
    return [float(t) for t in recorder.events["times"]]


def main():
    out = {"excitatory": EXCITATORY, "inhibitory": INHIBITORY, "delta_weights": DELTA_WEIGHTS, "t_sim": T_SIM}
    out["cases"] = {name: {"params": p, "weights": [we, wi]} for name, (p, we, wi) in CASES.items()}
    out["runs"] = [
        {"model": m, "case": name, "resolution": h, **run(m, p, we, wi, h)}
        for m in MODELS
        for name, (p, we, wi) in CASES.items()
        for h in RESOLUTIONS
    ]
    out["parrot"] = {str(h): parrot(h) for h in RESOLUTIONS}
    with open(FIXTURE, "w") as f:
        json.dump(out, f, indent=1)
    print("wrote", FIXTURE)


if __name__ == "__main__":
    main()
