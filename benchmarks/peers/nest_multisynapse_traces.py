"""Reference traces of NEST 3.10's multisynapse neurons, for tests/test_multisynapse.py.

Run with the peers' interpreter (NEST is never imported by the test suite):
    /work/peers-nest/bin/python benchmarks/peers/nest_multisynapse_traces.py
Each neuron is its own Create call with its tau_syn list; a spike_generator per receptor port
sends it spikes of one weight (positive or negative: the sign is the current's) with a 1 ms
delay, a dc_generator adds a current at receptor_type 0, and I_e drives some to fire. A
multimeter records every recordable each 0.5 ms, a spike_recorder the spikes. The scenarios are
stored with the traces. Writes tests/fixtures/nest_multisynapse_traces.npz.
"""

import json
import pathlib

import nest
import numpy as np

T_SIM = 120.0
# Per receptor k (1-based): spike times; a neuron's "weights" give each receptor's weight.
TIMES = [[5.0, 30.0, 30.3, 61.0], [12.0, 40.0, 75.5], [20.0, 50.0, 50.1, 90.0], [8.0, 66.0, 100.0]]

SCENARIOS = {
    "iaf_psc_exp_multisynapse": [
        {
            "params": {"tau_syn": [0.5, 2.0, 5.0, 20.0], "I_e": 300.0},
            "weights": [900.0, -400.0, 300.0, -80.0],
            "dc": 40.0,
        },
        {
            "params": {
                "tau_syn": [1.0, 3.0],
                "tau_m": 5.0,
                "C_m": 100.0,
                "t_ref": 3.0,
                "E_L": -65.0,
                "V_reset": -68.0,
                "V_th": -60.0,
                "V_m": -66.0,
            },
            "weights": [400.0, -150.0],
            "dc": 50.0,
        },
        {"params": {"tau_syn": [4.0], "I_e": 390.0}, "weights": [200.0], "dc": 0.0},
    ],
    "iaf_psc_alpha_multisynapse": [
        {
            "params": {"tau_syn": [0.5, 2.0, 5.0, 20.0], "I_e": 300.0},
            "weights": [700.0, -300.0, 200.0, -60.0],
            "dc": 40.0,
        },
        # tau_syn equal to tau_m: the propagators' singular limit
        {
            "params": {
                "tau_syn": [5.0, 3.0],
                "tau_m": 5.0,
                "C_m": 100.0,
                "t_ref": 3.0,
                "E_L": -65.0,
                "V_reset": -68.0,
                "V_th": -60.0,
                "V_min": -67.0,
            },
            "weights": [250.0, -300.0],
            "dc": 50.0,
        },
        {"params": {"tau_syn": [4.0], "I_e": 390.0}, "weights": [150.0], "dc": 0.0},
    ],
    # conductances (weights >= 0, in nS): four receptors, excitatory and inhibitory by E_rev
    "aeif_cond_alpha_multisynapse": [
        {
            "params": {"E_rev": [0.0, -85.0, 0.0, -70.0], "tau_syn": [0.5, 2.0, 5.0, 20.0], "I_e": 500.0},
            "weights": [30.0, 20.0, 8.0, 5.0],
            "dc": 100.0,
        },
        {
            "params": {"E_rev": [20.0, -80.0], "tau_syn": [1.0, 3.0], "t_ref": 2.0, "Delta_T": 0.0, "I_e": 700.0},
            "weights": [40.0, 10.0],
            "dc": 50.0,
        },
        {"params": {"E_rev": [0.0], "tau_syn": [4.0]}, "weights": [25.0], "dc": 0.0},
    ],
    "aeif_cond_beta_multisynapse": [
        {
            "params": {
                "E_rev": [0.0, -85.0, 0.0, -70.0],
                "tau_rise": [0.2, 1.0, 5.0, 2.0],
                "tau_decay": [2.0, 6.0, 5.0, 20.0],  # the third: an alpha function
                "I_e": 500.0,
            },
            "weights": [30.0, 20.0, 8.0, 5.0],
            "dc": 100.0,
        },
        {
            "params": {
                "E_rev": [20.0, -80.0],
                "tau_rise": [0.5, 1.0],
                "tau_decay": [3.0, 8.0],
                "t_ref": 2.0,
                "a": 0.0,
                "b": 0.0,
                "I_e": 700.0,
            },
            "weights": [40.0, 10.0],
            "dc": 50.0,
        },
    ],
}


def run(model, neurons, times=TIMES, t_sim=T_SIM):
    """Each neuron its own Create call with its receptors' spikes and dc_generator ("dc": an
    amplitude or the generator's parameters); {key: array} of its traces and spikes."""
    nest.ResetKernel()
    nest.set(resolution=0.1, local_num_threads=1)
    nodes = [nest.Create(model, params=n["params"]) for n in neurons]
    recordables = [sorted(n.get("recordables")) for n in nodes]
    sr = nest.Create("spike_recorder")
    out = {}
    mms = []
    for n, spec, names in zip(nodes, neurons, recordables):
        mm = nest.Create("multimeter", params={"interval": 0.5, "record_from": names})
        nest.Connect(mm, n)
        mms.append(mm)
        nest.Connect(n, sr)
        for k, w in enumerate(spec["weights"]):
            sg = nest.Create("spike_generator", params={"spike_times": times[k]})
            nest.Connect(sg, n, syn_spec={"weight": w, "delay": 1.0, "receptor_type": k + 1})
        dc = nest.Create(
            "dc_generator", params=spec["dc"] if isinstance(spec["dc"], dict) else {"amplitude": spec["dc"]}
        )
        nest.Connect(dc, n, syn_spec={"receptor_type": 0})
    nest.Simulate(t_sim)
    spikes = sr.get("events")
    for k, (n, mm, names) in enumerate(zip(nodes, mms, recordables)):
        ev = mm.get("events")
        out[f"{model}/{k}/times"] = ev["times"]
        for r in names:
            out[f"{model}/{k}/{r}"] = ev[r]
        out[f"{model}/{k}/spikes"] = spikes["times"][spikes["senders"] == n.global_id]
    return recordables, out


def main():
    arrays, spec = {}, {"t_sim": T_SIM, "times": TIMES, "nest_version": nest.__version__, "models": {}}
    for model, neurons in SCENARIOS.items():
        recordables, out = run(model, neurons)
        arrays.update(out)
        spec["models"][model] = {"neurons": neurons, "recordables": recordables}
        print(model, [len(out[f"{model}/{k}/spikes"]) for k in range(len(neurons))], "spikes")
    path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "nest_multisynapse_traces.npz"
    np.savez_compressed(path, spec=np.array(json.dumps(spec)), **arrays)
    print("wrote", path, path.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
