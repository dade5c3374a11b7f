"""Writes tests/fixtures/nest_weight_recorder_generators.json: what NEST 3.10's weight_recorder
records of generator input, sent through a synapse model it is attached to (poisson_generator
and spike_generator onto neurons, the same model from a neuron for comparison).

    /work/peers-nest/bin/python benchmarks/peers/nest_weight_recorder_generators_fixture.py

tests/test_weight_recorder_generators.py runs the same scenario (``scenario(ranvier)``) on
Ranvier and compares."""

import json
import os
import sys

FIXTURE = os.path.join(
    os.path.dirname(__file__), "..", "..", "tests", "fixtures", "nest_weight_recorder_generators.json"
)


def scenario(nest):
    nest.ResetKernel()
    wr = nest.Create("weight_recorder")
    nest.CopyModel("static_synapse", "rec", {"weight_recorder": wr})
    pg = nest.Create("poisson_generator", params={"rate": 2000.0})
    sg = nest.Create("spike_generator", params={"spike_times": [1.0, 2.5]})
    relay = nest.Create("parrot_neuron")
    n = nest.Create("iaf_psc_alpha", 2)
    nest.Connect(pg, n, syn_spec={"synapse_model": "rec", "weight": 3.0, "delay": 1.5})
    nest.Connect(sg, n[0], syn_spec={"synapse_model": "rec", "weight": -2.0})
    nest.Connect(sg, relay, syn_spec={"synapse_model": "rec"})  # NEST: one synapse model per device
    nest.Connect(relay, n[1], syn_spec={"synapse_model": "rec", "weight": 4.0})
    nest.Simulate(5.0)
    return {
        k: [float(x) if k in ("times", "weights") else int(x) for x in v] for k, v in wr.events.items() if k != "ports"
    }


def main():
    import nest

    nest.verbosity = nest.VerbosityLevel.FATAL
    result = {"events": scenario(nest), "nest_version": nest.__version__}
    with open(FIXTURE, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {FIXTURE}: {result['events']}", file=sys.stderr)


if __name__ == "__main__":
    main()
