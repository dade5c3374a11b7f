"""Siegert neurons (NEST's siegert_neuron) joined by diffusion connections: a driving neuron
at a constant rate of 1/s gives each target a mean and a variance of its input that puts its
threshold and reset in each of Siegert's three cases, near NEST's noise-free limits and with a
synaptic time constant, and two neurons drive each other (which waveform relaxation iterates).
Written against PyNEST's API so that NEST 3.10 (benchmarks/peers/nest_network_fixtures.py)
and Ranvier (tests/test_siegert_neuron.py) build the same. `mpiexec -n M python
siegert_network.py USE_WFR THREADS` prints Ranvier's as JSON on rank 0."""

import json
import sys

import numpy as np

# (mu, sigma^2) of each target's input (mV, mV^2) and its tau_syn (ms)
INPUTS = [
    (15.0, 1.5, 0.0),
    (22.5, 2.25e-4, 0.0),
    (13.5, 2.25e-4, 0.0),
    (5.0, 4.0, 0.0),
    (-2.0, 9.0, 0.0),
    (30.0, 4.0, 0.0),
    (12.0, 6.0, 0.5),
]


def run(nest, use_wfr, threads=1):
    """Every neuron's rate at every step, by neuron, in creation order."""
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads, "use_wfr": use_wfr})
    drive = nest.Create("siegert_neuron", params={"mean": 1.0, "rate": 1.0})
    params = {"tau_m": 10.0, "t_ref": 2.0, "theta": 15.0, "V_reset": 0.0, "tau": 0.5}
    targets = nest.Create("siegert_neuron", len(INPUTS), params=params)
    for node, (mu, sigma2, tau_syn) in zip(targets, INPUTS):
        node.tau_syn = tau_syn
        syn = {"synapse_model": "diffusion_connection", "drift_factor": mu, "diffusion_factor": sigma2}
        nest.Connect(drive, node, syn_spec=syn)
    pair = nest.Create("siegert_neuron", 2, params={**params, "mean": 5.0})
    for a, b, drift in ((0, 1, 0.3), (1, 0, 0.2)):
        nest.Connect(
            pair[a],
            pair[b],
            syn_spec={"synapse_model": "diffusion_connection", "drift_factor": drift, "diffusion_factor": 0.05},
        )
    nest.Connect(
        drive, pair, syn_spec={"synapse_model": "diffusion_connection", "drift_factor": 12.0, "diffusion_factor": 3.0}
    )
    meter = nest.Create("multimeter", params={"record_from": ["rate"], "interval": 0.1})
    nest.Connect(meter, targets + pair)
    nest.Simulate(10.0)
    events = meter.get("events")
    senders, rates = np.asarray(events["senders"]), np.asarray(events["rate"], dtype=float)
    return {
        "min_delay": nest.GetKernelStatus("min_delay"),
        "rates": [rates[senders == node.global_id].tolist() for node in targets + pair],
    }


def fixture(nest):
    return {"wfr": run(nest, True), "no_wfr": run(nest, False)}


if __name__ == "__main__":
    import ranvier

    result = run(ranvier, sys.argv[1] == "True", int(sys.argv[2]))  # a multimeter's events come from every rank
    if ranvier.Rank() == 0:
        print(json.dumps(result))
