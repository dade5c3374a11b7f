"""Writes tests/fixtures/nest_recording.json: what NEST 3.10 does with recorders and kernel
attributes in one small scenario (file names and contents of the ASCII backend, memory events
in steps, errors, which settings survive ResetKernel, grid spike times as doubles).

    /work/peers-venv/bin/python benchmarks/peers/nest_recording_fixture.py

tests/test_recording.py runs the same scenario (``scenario(ranvier, path)``) on Ranvier and
compares."""

import json
import os
import sys
import tempfile

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "nest_recording.json")


def file_texts(path):
    """The files in path, their first line (the simulator's version) left out."""
    return {name: open(os.path.join(path, name)).read().split("\n", 1)[1] for name in sorted(os.listdir(path))}


def error_name(call):
    try:
        call()
    except Exception as e:  # noqa: BLE001 - the class is what we record
        return type(e).__name__
    return None


def scenario(nest, path):
    out = {}
    nest.verbosity = nest.VerbosityLevel.ERROR
    nest.data_path = path
    nest.data_prefix = "pre_"
    nest.overwrite_files = True
    neurons = nest.Create("iaf_psc_exp", 2, params={"I_e": 400.0})
    plain = nest.Create("spike_recorder", params={"record_to": "ascii"})
    steps = nest.Create("spike_recorder", params={"record_to": "ascii", "label": "steps", "time_in_steps": True})
    mm = nest.Create(
        "multimeter", params={"record_to": "ascii", "record_from": ["V_m"], "interval": 10.0, "precision": 5}
    )
    memory = nest.Create("spike_recorder", params={"time_in_steps": True})
    times = nest.Create("spike_recorder")
    nest.Connect(neurons, plain)
    nest.Connect(neurons, steps)
    nest.Connect(mm, neurons)
    nest.Connect(neurons, memory)
    nest.Connect(neurons, times)
    out["filenames"] = [os.path.basename(f) for d in (plain, steps, mm) for f in d.filenames]
    nest.Simulate(70.0)
    out["memory_events_in_steps"] = {k: v.tolist() for k, v in memory.events.items()}
    nest.Simulate(30.0)  # a new Prepare: the files hold only this call's events
    out["files_after_two_simulates"] = file_texts(path)
    with nest.RunManager():
        nest.Run(10.0)
        nest.Run(20.0)
    out["files_after_run_manager"] = file_texts(path)
    out["spike_times_repr"] = [repr(t) for t in times.events["times"].tolist()]
    out["n_events_before_clear"] = memory.n_events
    memory.n_events = 0
    out["n_events_after_clear"] = memory.n_events
    out["n_events_ascii"] = plain.n_events  # every backend counts its events
    out["kernel_status_type"] = type(nest.kernel_status).__name__
    out["error_n_events_3"] = error_name(lambda: memory.set(n_events=3))
    out["error_time_in_steps_after_simulate"] = error_name(lambda: memory.set(time_in_steps=False))
    nest.overwrite_files = False
    out["error_existing_file"] = error_name(lambda: nest.Simulate(10.0))
    out["get_two_keys_type"] = type(nest.get("data_prefix", "overwrite_files")).__name__
    nest.print_time = False
    nest.ResetKernel()
    out["after_reset"] = {
        "data_path_kept": nest.data_path == path,
        "data_prefix": nest.data_prefix,
        "overwrite_files": nest.overwrite_files,
    }
    return out


def main():
    import nest

    with tempfile.TemporaryDirectory() as path:
        result = scenario(nest, path)
    result["nest_version"] = nest.__version__
    with open(FIXTURE, "w") as f:
        json.dump(result, f, indent=1)
    json.dump(result, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
