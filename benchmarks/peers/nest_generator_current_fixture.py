"""Writes tests/fixtures/nest_generator_current.json: what a multimeter recording "I" from NEST
3.10's current generators (dc, ac, step_current, noise) holds after a short run, the "rate" of a
sinusoidal_poisson_generator, which models have the recordable (GetDefaults(model,
"recordables")), and the errors for the others.

    /work/peers-nest/bin/python benchmarks/peers/nest_generator_current_fixture.py

tests/test_generator_current.py runs the same scenario (``scenario(ranvier)``) on Ranvier and
compares (noise_generator's draws differ: only its times and mean are compared)."""

import json
import os
import sys

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "nest_generator_current.json")
MODELS = (
    "dc_generator",
    "ac_generator",
    "step_current_generator",
    "noise_generator",
    "poisson_generator",
    "spike_generator",
    "sinusoidal_poisson_generator",
)


def error_name(call):
    try:
        call()
    except Exception as e:  # noqa: BLE001 - the class is what we record
        return type(e).__name__
    return None


def scenario(nest):
    out = {"recordables": {}}
    for model in MODELS:
        defaults = nest.GetDefaults(model)
        out["recordables"][model] = list(defaults["recordables"]) if "recordables" in defaults else None
    nest.ResetKernel()
    nest.resolution = 0.1
    generators = {
        "dc": nest.Create("dc_generator", params={"amplitude": 100.0, "start": 1.0, "stop": 3.0}),
        "ac": nest.Create(
            "ac_generator",
            params={"amplitude": 50.0, "frequency": 100.0, "offset": 5.0, "phase": 30.0, "start": 0.5, "stop": 4.0},
        ),
        "step": nest.Create(
            "step_current_generator",
            params={"amplitude_times": [1.0, 2.5, 3.2], "amplitude_values": [10.0, -5.0, 7.0], "stop": 4.5},
        ),
        "noise": nest.Create("noise_generator", params={"mean": 10.0, "std": 2.0, "dt": 0.5, "start": 1.0}),
    }
    targets = nest.Create("iaf_psc_alpha", 2)
    for g in generators.values():
        nest.Connect(g, targets)
    mm = nest.Create("multimeter", params={"record_from": ["I"], "interval": 0.3, "start": 0.2})
    for g in generators.values():
        nest.Connect(mm, g)
    nest.Simulate(3.0)
    nest.Simulate(3.0)
    ev = mm.events
    for name, g in generators.items():
        mine = ev["senders"] == g.global_id
        order = ev["times"][mine].argsort(kind="stable")
        out[name] = {"times": ev["times"][mine][order].tolist(), "I": ev["I"][mine][order].tolist()}
    out["sinusoidal_rate"] = sinusoidal_rate(nest)
    out["V_m_of_dc"] = error_name(
        lambda: nest.Connect(nest.Create("multimeter", params={"record_from": ["V_m"]}), generators["dc"])
    )
    out["I_of_poisson"] = error_name(
        lambda: nest.Connect(nest.Create("multimeter", params={"record_from": ["I"]}), nest.Create("poisson_generator"))
    )
    out["voltmeter_on_dc"] = error_name(lambda: nest.Connect(nest.Create("voltmeter"), generators["dc"]))
    return out


def sinusoidal_rate(nest):
    """sinusoidal_poisson_generator's recordable "rate": recorded in every step, inside and outside
    its start/stop window."""
    g = nest.Create(
        "sinusoidal_poisson_generator",
        params={"rate": 10.0, "amplitude": 50.0, "frequency": 100.0, "phase": 30.0, "start": 1.0, "stop": 3.0},
    )
    nest.Connect(g, nest.Create("parrot_neuron"))
    mm = nest.Create("multimeter", params={"record_from": ["rate"], "interval": 0.1})
    nest.Connect(mm, g)
    nest.Simulate(5.0)
    return {"times": mm.events["times"].tolist(), "rate": mm.events["rate"].tolist()}


def main():
    import nest

    nest.verbosity = nest.VerbosityLevel.FATAL
    result = scenario(nest)
    result["nest_version"] = nest.__version__
    with open(FIXTURE, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {FIXTURE}", file=sys.stderr)


if __name__ == "__main__":
    main()
