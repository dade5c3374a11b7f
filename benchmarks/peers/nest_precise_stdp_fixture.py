"""Writes tests/fixtures/nest_precise_stdp.json: NEST 3.10's weights after STDP onto a precise
post-synaptic neuron (iaf_psc_exp_ps, driven off the grid), whose spikes NEST's STDP reads at
their exact times. Pre spikes come on the grid through parrots, densely enough that some
arrive in the very step of a post spike (which then counts as earlier: NEST's stdp_eps).
tests/test_precise_stdp.py compares Ranvier with it.

    /work/peers-nest/bin/python benchmarks/peers/nest_precise_stdp_fixture.py
"""

import json
import os

import nest

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "nest_precise_stdp.json")
SYNAPSES = {
    "stdp_synapse": {"weight": 2.0, "Wmax": 100.0, "mu_plus": 1.0, "mu_minus": 1.0, "alpha": 1.1, "lambda": 0.05},
    "stdp_synapse_hom": {"weight": 2.0},
    "stdp_pl_synapse_hom": {"weight": 2.0},
    "vogels_sprekeler_synapse": {"weight": 2.0, "Wmax": 50.0, "eta": 0.05},
    "stdp_nn_symm_synapse": {"weight": 2.0, "Wmax": 100.0},
    "stdp_nn_pre_centered_synapse": {"weight": 2.0, "Wmax": 100.0},
    "stdp_nn_restr_synapse": {"weight": 2.0, "Wmax": 100.0},
}
# pre trains on the grid: a dense one (every 0.3 ms) meets post spikes in their own step
PRE_TIMES = [
    [round(0.3 * k, 1) for k in range(1, 600)],
    [3.1, 9.9, 17.2, 25.0, 31.4, 40.7, 52.3, 60.0, 71.1, 88.8, 120.5, 150.0, 160.2],
]
POST = {"I_e": 420.0, "tau_minus": 15.0, "t_ref": 2.0}
DRIVE_TIMES = [5.4321, 21.23456, 44.4444, 97.77777, 133.33333]
DELAY = 1.0
T_SIM = 200.0


def run(synapse):
    nest.ResetKernel()
    nest.resolution = 0.1
    post = nest.Create("iaf_psc_exp_ps", params=POST)
    drive = nest.Create("spike_generator", params={"spike_times": DRIVE_TIMES, "precise_times": True})
    nest.Connect(drive, post, syn_spec={"weight": 800.0, "delay": DELAY})
    parrots = nest.Create("parrot_neuron", len(PRE_TIMES))
    for parrot, times in zip(parrots, PRE_TIMES):
        nest.Connect(nest.Create("spike_generator", params={"spike_times": times}), parrot)
    nest.Connect(parrots, post, syn_spec={"synapse_model": synapse, "delay": DELAY, **SYNAPSES[synapse]})
    recorder = nest.Create("spike_recorder")
    nest.Connect(post, recorder)
    nest.Simulate(T_SIM)
    connections = nest.GetConnections(parrots, post)
    return {
        "weights": [float(w) for w in connections.weight],
        "post_times": [float(t) for t in recorder.events["times"]],
    }


def main():
    out = {
        "synapses": SYNAPSES,
        "pre_times": PRE_TIMES,
        "post": POST,
        "drive_times": DRIVE_TIMES,
        "delay": DELAY,
        "t_sim": T_SIM,
        "runs": {name: run(name) for name in SYNAPSES},
    }
    with open(FIXTURE, "w") as f:
        json.dump(out, f, indent=1)
    print("wrote", FIXTURE)


if __name__ == "__main__":
    main()
