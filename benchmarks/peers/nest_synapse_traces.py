"""Reference traces of synapse models from NEST 3.10, for tests/test_synapse_models.py.

Run with the peers' interpreter (NEST is never imported by the test suite):
    /work/peers-venv/bin/python benchmarks/peers/nest_synapse_traces.py
The scenarios are stored with the traces, so the test rebuilds exactly what was run here:
- static_synapse_hom_w: two parrots spike into an iaf_psc_alpha through a common weight,
  which SetDefaults changes halfway; the membrane potential is recorded every step.
- stdp_pl_synapse_hom_hpc: a pre and a post parrot driven by spike trains; the weight after
  each pre spike (read between simulation steps, as tests/test_stdp.py does).
Writes tests/fixtures/nest_synapse_traces.json.
"""
import json
import pathlib

import nest

HOM_W = {"pre_times": [[2.0, 11.0, 25.0, 41.0, 44.0], [6.0, 11.0, 30.0, 47.0]], "delays": [1.0, 2.5],
         "weights": [60.0, -25.0], "t_switch": 35.0, "t_end": 60.0}
STDP = {"common": {"tau_plus": 15.0, "lambda": 0.1, "alpha": 0.0513, "mu": 0.4}, "tau_minus": 30.0,
        "pre_times": [10.0, 24.0, 31.0, 52.0, 60.0, 83.0, 90.0],
        "post_times": [5.0, 12.0, 27.0, 29.0, 45.0, 55.0, 58.0, 70.0, 86.0], "weight": 40.0, "delay": 2.5}


def reset():
    nest.ResetKernel()
    nest.set(resolution=0.1, local_num_threads=1)


def hom_w():
    reset()
    s = HOM_W
    nest.CopyModel("static_synapse_hom_w", "hom", {"weight": s["weights"][0]})
    target = nest.Create("iaf_psc_alpha")
    for times, delay in zip(s["pre_times"], s["delays"]):
        drive = nest.Create("spike_generator", params={"spike_times": times})
        parrot = nest.Create("parrot_neuron")
        nest.Connect(drive, parrot, syn_spec={"delay": 1.0})
        nest.Connect(parrot, target, syn_spec={"synapse_model": "hom", "delay": delay})
    vm = nest.Create("voltmeter", params={"interval": 0.1})
    nest.Connect(vm, target)
    nest.Simulate(s["t_switch"])
    nest.SetDefaults("hom", {"weight": s["weights"][1]})
    nest.Simulate(s["t_end"] - s["t_switch"])
    ev = vm.events
    return {"times": list(ev["times"]), "V_m": list(ev["V_m"])}


def stdp_hpc():
    reset()
    s = STDP
    nest.CopyModel("stdp_pl_synapse_hom_hpc", "stdp", s["common"])
    drive_pre = nest.Create("spike_generator", params={"spike_times": s["pre_times"]})
    drive_post = nest.Create("spike_generator", params={"spike_times": s["post_times"]})
    pre, post = nest.Create("parrot_neuron"), nest.Create("parrot_neuron", params={"tau_minus": s["tau_minus"]})
    nest.Connect(drive_pre, pre, syn_spec={"delay": 1.0})
    nest.Connect(drive_post, post, syn_spec={"delay": 1.0})
    nest.Connect(pre, post, syn_spec={"synapse_model": "stdp", "weight": s["weight"], "delay": s["delay"]})
    weights = []
    for t in s["pre_times"]:
        nest.Simulate(t + 1.0 + 2 * s["delay"] + 1.0 - nest.biological_time)
        weights.append(nest.GetConnections(pre, post).weight)
    return {"weights": weights}


def main():
    out = {"nest_version": nest.__version__, "static_synapse_hom_w": {"scenario": HOM_W, **hom_w()},
           "stdp_pl_synapse_hom_hpc": {"scenario": STDP, **stdp_hpc()}}
    path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "nest_synapse_traces.json"
    path.write_text(json.dumps(out, indent=1))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
