"""Writes tests/fixtures/nest_weight_recorder.json: what NEST 3.10's weight_recorder records in
one small network (STDP, static and short-term plastic synapses, a multisynapse target, the
senders/targets filters, start/stop, the ASCII backend) and the errors it raises.

    /work/peers-nest/bin/python benchmarks/peers/nest_weight_recorder_fixture.py

tests/test_weight_recorder.py runs the same scenario (``scenario(ranvier, path)``) on Ranvier
and compares."""

import json
import os
import sys
import tempfile

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "nest_weight_recorder.json")


def error_name(call):
    try:
        call()
    except Exception as e:  # noqa: BLE001 - the class is what we record
        return type(e).__name__
    return None


def events(recorder):
    return {k: v.tolist() for k, v in recorder.events.items()}


def scenario(nest, path):
    out = {}
    nest.verbosity = nest.VerbosityLevel.ERROR
    nest.data_path = path
    nest.overwrite_files = True
    trains = [
        [1.0, 4.0, 9.5, 13.0, 21.0, 22.5, 30.0, 41.0],
        [2.5, 6.0, 14.0, 27.0, 28.0, 44.5],
        [3.0, 3.5, 17.0, 33.0, 38.5, 47.0],
    ]
    generators = [nest.Create("spike_generator", params={"spike_times": t}) for t in trains]
    pre = nest.Create("parrot_neuron", 3)
    for g, p in zip(generators, pre):
        nest.Connect(g, p)
    post = nest.Create("iaf_psc_alpha", 2, params={"I_e": 370.0})
    multi = nest.Create("iaf_psc_exp_multisynapse", 2, params={"tau_syn": [1.0, 3.0]})
    everything = nest.Create("weight_recorder")
    filtered = nest.Create(
        "weight_recorder",
        params={
            "senders": pre[1:3],
            "targets": post[0:1],
            "start": 5.0,
            "stop": 40.0,
            "record_to": "ascii",
            "label": "filtered",
        },
    )
    short_term = nest.Create("weight_recorder", params={"time_in_steps": True})
    nest.CopyModel("stdp_synapse", "stdp_rec", {"weight_recorder": everything, "lambda": 0.05, "Wmax": 60.0})
    nest.CopyModel("static_synapse", "static_rec", {"weight_recorder": filtered})
    nest.CopyModel("tsodyks2_synapse", "tsodyks2_rec", {"weight_recorder": short_term})
    nest.Connect(pre, post, "all_to_all", {"synapse_model": "stdp_rec", "weight": 20.0})
    nest.Connect(pre, post, "all_to_all", {"synapse_model": "static_rec", "weight": 5.0, "delay": 2.0})
    nest.Connect(
        pre[0:2],
        multi,
        "all_to_all",
        {
            "synapse_model": "tsodyks2_rec",
            "weight": 30.0,
            "receptor_type": 2,
            "U": 0.3,
            "u": 0.3,
            "tau_fac": 50.0,
            "tau_rec": 100.0,
        },
    )
    nest.Simulate(25.0)
    out["stdp_after_first_simulate"] = everything.n_events
    nest.Simulate(25.0)
    out["stdp"] = events(everything)
    out["short_term"] = events(short_term)
    out["filtered_file"] = open(filtered.filenames[0]).read().split("\n", 1)[1]
    out["filtered_filename"] = os.path.basename(filtered.filenames[0])
    out["filters"] = [filtered.get("senders").tolist(), filtered.get("targets").tolist()]
    out["default_attachment"] = len(nest.GetDefaults("static_synapse")["weight_recorder"])
    out["copy_attachment"] = nest.GetDefaults("stdp_rec")["weight_recorder"].tolist()
    out["error_not_a_weight_recorder"] = error_name(lambda: nest.SetDefaults("stdp_rec", {"weight_recorder": pre[0:1]}))
    out["error_not_a_node_collection"] = error_name(
        lambda: nest.CopyModel("static_synapse", "x", {"weight_recorder": 5})
    )
    out["error_unknown_key"] = error_name(lambda: everything.set(foo=1))
    out["error_filter_on_spike_recorder"] = error_name(lambda: nest.Create("spike_recorder", params={"senders": pre}))
    out["error_in_syn_spec"] = error_name(
        lambda: nest.Connect(
            pre, post, "all_to_all", {"synapse_model": "static_synapse", "weight_recorder": everything}
        )
    )
    return out


def main():
    import nest

    with tempfile.TemporaryDirectory() as path:
        result = scenario(nest, path)
    result["nest_version"] = nest.__version__
    with open(FIXTURE, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {FIXTURE}: {len(result['stdp']['times'])} stdp events", file=sys.stderr)


if __name__ == "__main__":
    main()
