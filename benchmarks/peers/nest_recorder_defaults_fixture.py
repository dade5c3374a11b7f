"""Writes tests/fixtures/nest_recorder_defaults.json: the keys of NEST 3.10's GetDefaults for
the weight_recorder and other devices, the values of the prototype node's keys, which
settings appear once set (precision) and which belong to nodes only (a weight_recorder's
senders and targets).

    /work/peers-nest/bin/python benchmarks/peers/nest_recorder_defaults_fixture.py

tests/test_recorder_defaults.py compares Ranvier's GetDefaults with it."""

import json
import os
import sys

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "nest_recorder_defaults.json")
MODELS = ("weight_recorder", "spike_recorder", "multimeter", "voltmeter", "dc_generator", "poisson_generator")
# what NEST reports of a model's prototype node (model_id: NEST's own numbering, not compared)
NODE_KEYS = (
    "element_type",
    "frozen",
    "global_id",
    "local",
    "model",
    "node_uses_wfr",
    "thread",
    "thread_local_id",
    "type_id",
    "vp",
    "n_events",
)


def error_name(call):
    try:
        call()
    except Exception as e:  # noqa: BLE001 - the class is what we record
        return type(e).__name__
    return None


def main():
    import nest

    nest.verbosity = nest.VerbosityLevel.FATAL
    out = {"keys": {}, "node_values": {}, "events": {}}
    for model in MODELS:
        d = nest.GetDefaults(model)
        out["keys"][model] = sorted(d)
        out["node_values"][model] = {k: d[k] for k in NODE_KEYS if k in d}
        if "events" in d:
            out["events"][model] = sorted(d["events"])
    nest.CopyModel("weight_recorder", "wr_precise", {"precision": 5})
    out["keys"]["wr_precise"] = sorted(nest.GetDefaults("wr_precise"))
    out["node_values"]["wr_precise"] = {k: nest.GetDefaults("wr_precise")[k] for k in ("model", "type_id", "precision")}
    wr = nest.Create("weight_recorder")
    out["node_keys_weight_recorder"] = sorted(wr.get())
    out["errors"] = {
        "set_defaults_senders": error_name(lambda: nest.SetDefaults("weight_recorder", {"senders": wr})),
        "get_defaults_targets": error_name(lambda: nest.GetDefaults("weight_recorder", "targets")),
    }
    out["nest_version"] = nest.__version__
    with open(FIXTURE, "w") as f:
        json.dump(out, f, indent=1)
    print(f"wrote {FIXTURE}", file=sys.stderr)


if __name__ == "__main__":
    main()
