"""Reference traces of NEST 3.10's glif_psc, glif_psc_double_alpha and glif_cond in their five
GLIF variants, for tests/test_glif_psc.py and tests/test_glif_cond.py.

Run with the peers' interpreter (NEST is never imported by the test suite):
    /work/peers-nest/bin/python benchmarks/peers/nest_glif_traces.py
Per variant (its three switches): a neuron with NEST's defaults under a DC step (regular firing,
refractoriness of the default t_ref 3.75 ms), and one with three receptor ports, each sent
spikes of its own sign and size, a weaker DC, another E_L and t_ref and the variant's state set
away from rest. The scenario runs as nest_multisynapse_traces.py runs its own (each neuron its
own Create call, a multimeter each 0.5 ms) and is stored with the traces. glif_psc_double_alpha
runs the same scenario with its ports' fast time constants those of glif_psc's tau_syn, and
slow ones of their own sizes; glif_cond with three conductance receptors, two excitatory and one
inhibitory by E_rev, their weights in nS.
Writes tests/fixtures/nest_glif_traces.npz.
"""

import json
import pathlib

import nest
import numpy as np
from nest_multisynapse_traces import run

T_SIM = 150.0
TIMES = [[15.0, 40.0, 40.3, 90.0, 130.0], [25.0, 60.0, 100.5], [35.0, 75.0, 75.1, 140.0]]
# spike_dependent_threshold, after_spike_currents, adapting_threshold (Teeter et al. 2018)
VARIANTS = {
    1: (False, False, False),
    2: (True, False, False),
    3: (False, True, False),
    4: (True, True, False),
    5: (True, True, True),
}


# per model the three ports' lists (glif_psc_double_alpha: tau_syn_fast as glif_psc's tau_syn)
# and their weights
PORTS = {
    "glif_psc": ({"tau_syn": [2.0, 0.5, 8.0]}, [400.0, -250.0, 120.0]),
    "glif_psc_double_alpha": (
        {"tau_syn_fast": [2.0, 0.5, 8.0], "tau_syn_slow": [6.0, 3.0, 20.0], "amp_slow": [0.3, 0.8, 1.5]},
        [400.0, -250.0, 120.0],
    ),
    "glif_cond": ({"E_rev": [0.0, -85.0, -20.0], "tau_syn": [0.5, 2.0, 8.0]}, [40.0, 25.0, 6.0]),
}


def neurons(ports, weights, spike, asc, voltage):
    switches = {"spike_dependent_threshold": spike, "after_spike_currents": asc, "adapting_threshold": voltage}
    state = {
        **({"threshold_spike": 1.5} if spike else {}),
        **({"ASCurrents": [20.0, -30.0]} if asc else {}),
        **({"threshold_voltage": 0.8} if voltage else {}),
    }
    return [
        {"params": switches, "weights": [], "dc": {"amplitude": 330.0, "start": 20.0, "stop": 120.0}},
        {
            "params": {
                **switches,
                **state,
                **ports,
                "E_L": -70.0,
                "V_m": -72.0,
                "V_th": -45.0,
                "V_reset": -71.0,
                "t_ref": 2.0,
            },
            "weights": weights,
            "dc": 200.0,
        },
    ]


def main():
    spec = {"t_sim": T_SIM, "times": TIMES, "nest_version": nest.__version__, "variants": VARIANTS, "models": {}}
    arrays = {}
    for model, (ports, weights) in PORTS.items():
        scenario = [n for switches in VARIANTS.values() for n in neurons(ports, weights, *switches)]
        recordables, out = run(model, scenario, times=TIMES, t_sim=T_SIM)
        arrays.update(out)
        spec["models"][model] = {"neurons": scenario, "recordables": recordables}
        print(model, "spikes per neuron:", [len(out[f"{model}/{k}/spikes"]) for k in range(len(scenario))])
    path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "nest_glif_traces.npz"
    np.savez_compressed(path, spec=np.array(json.dumps(spec)), **arrays)
    print("wrote", path, path.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
