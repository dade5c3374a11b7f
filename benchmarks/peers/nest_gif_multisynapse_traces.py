"""Reference traces of NEST 3.10's gif_psc_exp_multisynapse and gif_cond_exp_multisynapse, for
tests/test_gif_multisynapse.py.

Run with the peers' interpreter (NEST is never imported by the test suite):
    /work/peers-nest/bin/python benchmarks/peers/nest_gif_multisynapse_traces.py
The neuron's spikes are random, so the scenarios are those where NEST's draws cannot matter:
lambda_0 = 0 (it never fires: the membrane under four receptors and a DC step, with adaptation
elements set away from rest) and an escape rate so high that it fires in every step it may
(firing probability 1 - exp(-lambda h) rounds to 1), so that its spike times, E_sfa and I_stc
follow from t_ref, q_sfa and q_stc alone. The scenario runs as nest_multisynapse_traces.py runs
its own and is stored with the traces. Writes tests/fixtures/nest_gif_multisynapse_traces.npz.
"""

import json
import pathlib

import nest
import numpy as np
from nest_multisynapse_traces import TIMES, run

T_SIM = 120.0
ADAPTATION = {"tau_sfa": [10.0, 50.0], "q_sfa": [4.0, 1.5], "tau_stc": [5.0, 30.0], "q_stc": [20.0, -8.0]}
NEURONS = [
    {
        "params": {"tau_syn": [0.5, 2.0, 5.0, 20.0], "lambda_0": 0.0, "I_e": 60.0, **ADAPTATION},
        "weights": [900.0, -400.0, 300.0, -80.0],
        "dc": {"amplitude": 40.0, "start": 30.0, "stop": 80.0},
    },
    {
        "params": {"tau_syn": [1.0, 3.0], "lambda_0": 1e12, "V_T_star": -150.0, "t_ref": 6.0, **ADAPTATION},
        "weights": [200.0, -150.0],
        "dc": 20.0,
    },
]


# The same two neurons with conductances (nS, each receptor with its reversal potential).
COND_NEURONS = [
    {
        "params": {
            "E_rev": [0.0, -80.0, 20.0, -70.0],
            "tau_syn": [0.5, 2.0, 5.0, 20.0],
            "lambda_0": 0.0,
            "I_e": 60.0,
            **ADAPTATION,
        },
        "weights": [30.0, 12.0, 8.0, 3.0],
        "dc": {"amplitude": 40.0, "start": 30.0, "stop": 80.0},
    },
    {
        "params": {
            "E_rev": [0.0, -85.0],
            "tau_syn": [1.0, 3.0],
            "lambda_0": 1e12,
            "V_T_star": -150.0,
            "t_ref": 6.0,
            **ADAPTATION,
        },
        "weights": [10.0, 6.0],
        "dc": 20.0,
    },
]
SCENARIOS = {"gif_psc_exp_multisynapse": NEURONS, "gif_cond_exp_multisynapse": COND_NEURONS}


def main():
    spec = {"t_sim": T_SIM, "times": TIMES, "nest_version": nest.__version__, "models": {}}
    arrays = {}
    for model, neurons in SCENARIOS.items():
        recordables, out = run(model, neurons, times=TIMES, t_sim=T_SIM)
        arrays.update(out)
        spec["models"][model] = {"neurons": neurons, "recordables": recordables}
        print(model, "spikes per neuron:", [len(out[f"{model}/{k}/spikes"]) for k in range(len(neurons))])
    path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "nest_gif_multisynapse_traces.npz"
    np.savez_compressed(path, spec=np.array(json.dumps(spec)), **arrays)
    print("wrote", path, path.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
