"""Neurons with receptor ports against NEST 3.10's traces of the same scenario, as
benchmarks/peers/nest_multisynapse_traces.py runs it (nest_glif_traces.py reuses it): each
neuron its own Create call, a spike_generator per receptor port, a dc_generator at
receptor_type 0 and a multimeter each 0.5 ms."""

import json
import pathlib

import numpy as np

import ranvier as rv


def load(name):
    """(arrays, spec) of a fixture file in tests/fixtures."""
    fixture = np.load(pathlib.Path(__file__).parent / "fixtures" / name)
    return fixture, json.loads(str(fixture["spec"]))


def run(spec, model):
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": 0.1})
    neurons = spec["models"][model]["neurons"]
    nodes = [rv.Create(model, params=n["params"]) for n in neurons]
    sr = rv.Create("spike_recorder")
    mms = []
    for n, s, names in zip(nodes, neurons, spec["models"][model]["recordables"]):
        mm = rv.Create("multimeter", params={"interval": 0.5, "record_from": names})
        rv.Connect(mm, n)
        mms.append(mm)
        rv.Connect(n, sr)
        for k, w in enumerate(s["weights"]):
            sg = rv.Create("spike_generator", params={"spike_times": spec["times"][k]})
            rv.Connect(sg, n, syn_spec={"weight": w, "delay": 1.0, "receptor_type": k + 1})
        dc = rv.Create("dc_generator", params=s["dc"] if isinstance(s["dc"], dict) else {"amplitude": s["dc"]})
        rv.Connect(dc, n, syn_spec={"receptor_type": 0})
    rv.Simulate(spec["t_sim"])
    return nodes, mms, sr.events


def assert_matches(fixture, spec, model, neurons, atol):
    """The given neurons of the scenario fire in NEST's steps, and each recordable r stays within
    atol(r, NEST's trace) of NEST's."""
    nodes, mms, spikes = run(spec, model)
    for k in neurons:
        n, ev = nodes[k], mms[k].events
        n_samples = len(fixture[f"{model}/{k}/times"])  # NEST leaves out the sample at the end
        np.testing.assert_allclose(ev["times"][:n_samples], fixture[f"{model}/{k}/times"], rtol=0, atol=1e-9)
        np.testing.assert_allclose(
            spikes["times"][spikes["senders"] == n.global_id],
            fixture[f"{model}/{k}/spikes"],
            rtol=0,
            atol=1e-9,
            err_msg=f"{model} {k}: spike steps",
        )
        assert len(fixture[f"{model}/{k}/spikes"]) > 0
        for r in spec["models"][model]["recordables"][k]:
            expected = fixture[f"{model}/{k}/{r}"]
            np.testing.assert_allclose(
                ev[r][:n_samples], expected, rtol=0, atol=atol(r, expected), err_msg=f"{model} {k}: {r}"
            )
