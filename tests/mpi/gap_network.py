"""Neurons with gap junctions (NEST's hh_psc_alpha_gap, hh_cond_beta_gap_traub and gap_junction):
two neurons as in NEST's gap_junctions_two_neurons.py, a ring of twelve with gap junctions to
their neighbours and inhibitory spikes across, and a chain of six Traub neurons with gap
junctions and excitatory and inhibitory spikes, driven by different constant currents. Written
against PyNEST's API so that NEST 3.10 (benchmarks/peers/nest_network_fixtures.py) and
Ranvier (tests/test_gap_junctions.py) build the same. `mpiexec -n M python gap_network.py CASE
THREADS` prints Ranvier's as JSON on rank 0."""

import json
import sys

import numpy as np

# (use_wfr, wfr_interpolation_order) of each case
CASES = {"cubic": (True, 3), "linear": (True, 1), "constant": (True, 0), "no_wfr": (False, 3)}
N = 12
BOTH_WAYS = {"rule": "one_to_one", "make_symmetric": True}


def run(nest, case, threads=1):
    """V_m of the two neurons and two of the chain every step, and the ring's and the chain's
    spikes (senders, times)."""
    use_wfr, order = CASES[case]
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.05, "local_num_threads": threads, "use_wfr": use_wfr})
    if use_wfr:
        nest.SetKernelStatus(
            {"wfr_interpolation_order": order, "wfr_comm_interval": 1.0, "wfr_tol": 1e-6, "wfr_max_iterations": 40}
        )
    pair = nest.Create("hh_psc_alpha_gap", 2)
    pair.I_e = 100.0
    pair[0].V_m = -10.0
    nest.Connect(pair[0], pair[1], BOTH_WAYS, {"synapse_model": "gap_junction", "weight": 0.5})
    traub = nest.Create("hh_cond_beta_gap_traub", 6)
    traub.I_e = [300.0 + 60.0 * k for k in range(6)]
    nest.Connect(traub[:-1], traub[1:], BOTH_WAYS, {"synapse_model": "gap_junction", "weight": 5.0})
    nest.Connect(traub[:3], traub[3:], "one_to_one", {"weight": 4.0, "delay": 1.0})
    nest.Connect(traub[3:], traub[:3], "one_to_one", {"weight": -6.0, "delay": 2.0})
    vm = nest.Create("voltmeter", params={"interval": 0.05})
    nest.Connect(vm, pair + traub[0] + traub[5])

    ring = nest.Create("hh_psc_alpha_gap", N)
    ring.I_e = [150.0 + 15.0 * k for k in range(N)]
    ring.V_m = [-70.0 + 2.0 * k for k in range(N)]
    nest.Connect(ring[:-1], ring[1:], BOTH_WAYS, {"synapse_model": "gap_junction", "weight": 3.0})
    half = N // 2
    nest.Connect(ring[:half], ring[half:], "one_to_one", {"weight": -50.0, "delay": 1.5})
    nest.Connect(ring[half:], ring[:half], "one_to_one", {"weight": -50.0, "delay": 1.5})
    spikes = nest.Create("spike_recorder")
    nest.Connect(ring + traub, spikes)
    nest.Simulate(60.0)
    nest.Simulate(40.0)
    events, fired = vm.get("events"), spikes.get("events")
    order_ = np.lexsort((events["senders"], events["times"]))
    by_time = np.lexsort((fired["senders"], fired["times"]))
    return {
        "min_delay": nest.GetKernelStatus("min_delay"),
        "senders": np.asarray(events["senders"])[order_].tolist(),
        "V_m": np.asarray(events["V_m"], dtype=float)[order_].tolist(),
        "spike_senders": np.asarray(fired["senders"])[by_time].tolist(),
        "spike_times": np.asarray(fired["times"], dtype=float)[by_time].tolist(),
    }


def fixture(nest):
    return {case: run(nest, case) for case in CASES}


if __name__ == "__main__":
    import ranvier

    result = run(ranvier, sys.argv[1], int(sys.argv[2]))  # recorders' events come from every rank
    if ranvier.Rank() == 0:
        print(json.dumps(result))
