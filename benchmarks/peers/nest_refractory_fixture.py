"""Writes tests/fixtures/nest_refractory.json: how NEST 3.10 rounds a refractory period that is
not a whole number of steps. Each model's neuron, driven far above threshold at a resolution of
1 ms, fires as soon as its refractoriness ends, so its inter-spike interval shows the whole
steps NEST made of t_ref (0.1, 0.6, 1.4 and 2.5 ms: rounding to the nearest step and rounding
up differ on each but the last).

    /work/peers-nest/bin/python benchmarks/peers/nest_refractory_fixture.py

tests/test_refractory_rounding.py runs the same scenario (``intervals(simulator)``) on Ranvier."""

import json
import os

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "nest_refractory.json")
T_REFS = (0.1, 0.6, 1.4, 2.5)
# model -> parameters beyond t_ref that make it fire at once (a threshold just above reset)
MODELS = {
    "iaf_psc_alpha": {"V_reset": -70.0, "V_th": -69.9},
    "iaf_psc_exp": {"V_reset": -70.0, "V_th": -69.9},
    "iaf_psc_delta": {"V_reset": -70.0, "V_th": -69.9},
    "iaf_cond_exp": {"V_reset": -70.0, "V_th": -69.9},
    "iaf_cond_alpha": {"V_reset": -70.0, "V_th": -69.9},
    "iaf_psc_exp_multisynapse": {"V_reset": -70.0, "V_th": -69.9},
    "aeif_cond_alpha": {"V_reset": -70.0, "V_th": -69.9},
    "mat2_psc_exp": {},
    "gif_psc_exp": {},
    "iaf_psc_alpha_ps": {"V_reset": -70.0, "V_th": -69.9},
    "iaf_psc_exp_ps": {"V_reset": -70.0, "V_th": -69.9},
    "iaf_psc_delta_ps": {"V_reset": -70.0, "V_th": -69.9},
}


def intervals(nest):
    """Per model, the third inter-spike interval (ms) for each t_ref of T_REFS."""
    out = {}
    for model, params in MODELS.items():
        out[model] = []
        for t_ref in T_REFS:
            nest.ResetKernel()
            nest.resolution = 1.0
            neuron = nest.Create(model, params={**params, "t_ref": t_ref, "I_e": 1e6})
            recorder = nest.Create("spike_recorder")
            nest.Connect(neuron, recorder)
            nest.Simulate(30.0)
            times = recorder.events["times"]
            out[model].append(round(float(times[3] - times[2]), 6))
    return out


if __name__ == "__main__":
    import nest

    nest.verbosity = nest.VerbosityLevel.ERROR
    with open(FIXTURE, "w") as f:
        json.dump({"nest_version": nest.__version__, "t_ref": T_REFS, "intervals": intervals(nest)}, f, indent=1)
        f.write("\n")
