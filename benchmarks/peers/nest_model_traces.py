"""Reference traces of single neurons from NEST 3.10, for tests/test_models_nest.py.

Run with the peers' interpreter (NEST is never imported by the test suite):
    /work/peers-venv/bin/python benchmarks/peers/nest_model_traces.py
For each model: neuron 0 driven by I_e alone (regular firing, refractoriness); the others by
a smaller I_e, a dc_generator and excitatory and inhibitory spikes from spike_generators
(delay 1 ms). A multimeter records every recordable each 1 ms, a spike_recorder the spikes.
The scenarios are stored with the traces, so the test rebuilds exactly what was run here.
Writes tests/fixtures/nest_model_traces.npz.
"""

import json
import pathlib

import nest
import numpy as np

T_SIM = 200.0
EXC_TIMES = [10.0, 12.5, 30.0, 31.0, 32.0, 55.3, 70.0, 70.1, 90.7, 121.0, 140.2, 141.0, 160.0, 175.5]
INH_TIMES = [20.0, 45.0, 46.0, 100.0, 130.0, 150.5, 181.0]
# The dc_generator runs throughout (its activity window is tested in test_devices_timing.py).
DC = {"amplitude": 0.0}

GIF = {
    "lambda_0": 1e9,
    "Delta_V": 1e-4,
    "V_T_star": -50.0,
    "t_ref": 2.0,
    "q_sfa": [4.0, 1.5],
    "tau_sfa": [15.0, 120.0],
    "q_stc": [40.0, 8.0],
    "tau_stc": [8.0, 150.0],
}
# model: (parameters of each neuron, excitatory weight, inhibitory weight, dc amplitude)
SCENARIOS = {
    "iaf_psc_delta": (
        [{"I_e": 400.0}, {"I_e": 300.0}, {"I_e": 370.0, "refractory_input": True, "t_ref": 5.0}],
        2.5,
        -3.0,
        60.0,
    ),
    "iaf_cond_exp": ([{"I_e": 400.0}, {"I_e": 200.0}], 30.0, -20.0, 80.0),
    # the third cell reaches the threshold within its total refractory period, and waits
    "iaf_psc_exp_htum": (
        [
            {"I_e": 400.0},
            {"I_e": 300.0, "t_ref_abs": 1.0, "t_ref_tot": 4.0},
            {"I_e": 3000.0, "t_ref_abs": 0.5, "t_ref_tot": 5.0},
        ],
        600.0,
        -300.0,
        50.0,
    ),
    "iaf_cond_alpha": ([{"I_e": 400.0}, {"I_e": 200.0}], 15.0, -10.0, 80.0),
    # rise and decay apart on the second, equal (the alpha limit) on the first
    "iaf_cond_beta": (
        [
            {"I_e": 400.0},
            {"I_e": 200.0, "tau_rise_ex": 0.5, "tau_decay_ex": 3.0, "tau_rise_in": 1.0, "tau_decay_in": 8.0},
        ],
        15.0,
        -10.0,
        80.0,
    ),
    "iaf_cond_exp_sfa_rr": ([{"I_e": 1000.0}, {"I_e": 500.0}, {"I_e": 800.0, "q_sfa": 40.0}], 30.0, -20.0, 100.0),
    "aeif_cond_exp": (
        [{"I_e": 800.0}, {"I_e": 400.0}, {"I_e": 700.0, "t_ref": 2.0, "Delta_T": 0.0}],
        60.0,
        -20.0,
        200.0,
    ),
    "aeif_cond_alpha": ([{"I_e": 800.0}, {"I_e": 400.0}, {"I_e": 700.0, "t_ref": 2.0, "a": 0.0}], 30.0, -10.0, 200.0),
    "aeif_psc_exp": (
        [{"I_e": 800.0}, {"I_e": 400.0}, {"I_e": 700.0, "t_ref": 2.0, "Delta_T": 0.0}],
        900.0,
        -400.0,
        200.0,
    ),
    # jumps of V_m in mV (not with refractory_input: NEST 3.10's V_m turns NaN after the first
    # refractory period then, run here; tests/test_models_nest.py checks it on its own)
    "aeif_psc_delta": (
        [{"I_e": 800.0}, {"I_e": 400.0}, {"I_e": 700.0, "t_ref": 2.0, "Delta_T": 0.0}],
        4.0,
        -3.0,
        200.0,
    ),
    "aeif_psc_alpha": ([{"I_e": 800.0}, {"I_e": 400.0}, {"I_e": 700.0, "t_ref": 2.0, "a": 0.0}], 500.0, -200.0, 200.0),
    "hh_psc_alpha": ([{"I_e": 1000.0}, {"I_e": 300.0}], 1500.0, -800.0, 400.0),
    "hh_cond_exp_traub": ([{"I_e": 500.0}, {"I_e": 100.0}], 20.0, -20.0, 300.0),
    "izhikevich": ([{"I_e": 10.0}, {"I_e": 3.0}, {"I_e": 10.0, "consistent_integration": False}], 6.0, -5.0, 4.0),
    "mat2_psc_exp": (
        [{"I_e": 500.0}, {"I_e": 330.0}, {"I_e": 450.0, "t_ref": 1.0, "tau_syn_ex": 2.0}],
        600.0,
        -300.0,
        50.0,
    ),
    "amat2_psc_exp": (
        [{"I_e": 150.0}, {"I_e": 100.0, "beta": 1.0}, {"I_e": 120.0, "beta": 2.5, "tau_v": 8.0, "alpha_2": 1.0}],
        300.0,
        -200.0,
        20.0,
    ),
    # pp_psc_delta fires at random; at rate 0 (c_1 = c_2 = 0) or at a rate so high (c_2 = 1e9 Hz)
    # that it fires whenever its dead time allows, its membrane, adaptation and spikes are NEST's
    "pp_psc_delta": (
        [
            {"c_1": 0.0, "c_2": 0.0, "I_e": 300.0},
            {"c_1": 0.0, "c_2": 0.0, "I_e": 100.0},
            {"c_1": 0.0, "c_2": 1e9, "c_3": 0.0, "dead_time": 7.3, "tau_sfa": [15.0, 80.0], "q_sfa": [3.0, 1.0]},
        ],
        2.0,
        -1.5,
        150.0,
    ),
    # gif_psc_exp fires at random; an escape rate this steep (Delta_V 1e-4 mV) makes the firing
    # probability 0 or 1 except within 0.004 mV of the threshold, so the spikes are NEST's own
    # whatever the random numbers; the third neuron (lambda_0 = 0) never fires.
    "gif_psc_exp": (
        [{**GIF, "I_e": 400.0}, {**GIF, "I_e": 200.0}, {**GIF, "I_e": 300.0, "lambda_0": 0.0}],
        150.0,
        -150.0,
        50.0,
    ),
    # the same with conductances (nS)
    "gif_cond_exp": (
        [{**GIF, "I_e": 400.0}, {**GIF, "I_e": 200.0}, {**GIF, "I_e": 300.0, "lambda_0": 0.0}],
        8.0,
        -6.0,
        50.0,
    ),
}


def run(model, neurons, w_ex, w_in, amplitude):
    nest.ResetKernel()
    nest.set(resolution=0.1, local_num_threads=1)
    recordables = sorted(nest.GetDefaults(model)["recordables"])
    nodes = [nest.Create(model, params=p) for p in neurons]
    mm = nest.Create("multimeter", params={"interval": 1.0, "record_from": recordables})
    sr = nest.Create("spike_recorder")
    exc = nest.Create("spike_generator", params={"spike_times": EXC_TIMES})
    inh = nest.Create("spike_generator", params={"spike_times": INH_TIMES})
    dc = nest.Create("dc_generator", params={**DC, "amplitude": amplitude})
    for k, n in enumerate(nodes):
        nest.Connect(mm, n)
        nest.Connect(n, sr)
        if k > 0:
            nest.Connect(exc, n, syn_spec={"weight": w_ex, "delay": 1.0})
            nest.Connect(inh, n, syn_spec={"weight": w_in, "delay": 1.0})
            nest.Connect(dc, n)
    nest.Simulate(T_SIM)
    ev, spikes = mm.get("events"), sr.get("events")
    first = nodes[0].global_id
    out = {}
    for k in range(len(nodes)):
        mine = ev["senders"] == first + k
        out[f"{model}/{k}/times"] = ev["times"][mine]
        for r in recordables:
            out[f"{model}/{k}/{r}"] = ev[r][mine]
        out[f"{model}/{k}/spikes"] = spikes["times"][spikes["senders"] == first + k]
    return recordables, out


def main():
    arrays, spec = (
        {},
        {
            "t_sim": T_SIM,
            "exc_times": EXC_TIMES,
            "inh_times": INH_TIMES,
            "dc": DC,
            "nest_version": nest.__version__,
            "models": {},
        },
    )
    for model, (neurons, w_ex, w_in, amplitude) in SCENARIOS.items():
        recordables, out = run(model, neurons, w_ex, w_in, amplitude)
        arrays.update(out)
        spec["models"][model] = {
            "neurons": neurons,
            "w_ex": w_ex,
            "w_in": w_in,
            "dc_amplitude": amplitude,
            "recordables": recordables,
        }
        print(model, [len(out[f"{model}/{k}/spikes"]) for k in range(len(neurons))], "spikes")
    path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "nest_model_traces.npz"
    np.savez_compressed(path, spec=np.array(json.dumps(spec)), **arrays)
    print("wrote", path, path.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
