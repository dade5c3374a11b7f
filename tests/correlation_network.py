"""Correlation detectors fed by spike generators and parrots (and a correlospinmatrix_detector
fed by generators' binary pulses), written against PyNEST's API so
that NEST 3.10 (benchmarks/peers/nest_network_fixtures.py correlation) and Ranvier
(tests/test_correlation_detectors.py) build the same: a correlation_detector and a
correlomatrix_detector of three channels, with weights, a window (Tstart, Tstop), a start of
activity, spikes at equal times on both channels, spikes through parrots (a delay: they arrive
after later spikes of the generators), and a Simulate split in two; their results."""

import numpy as np

TRAINS = [
    [1.0, 2.0, 2.0, 3.5, 7.1, 7.2, 12.0, 12.6, 18.0, 25.3, 30.0, 31.1, 38.4, 40.0],
    [0.5, 2.0, 4.0, 7.1, 9.9, 12.0, 15.5, 18.2, 25.0, 29.9, 30.0, 37.0, 41.5],
    [3.0, 7.1, 11.0, 12.0, 20.0, 26.6, 33.3, 38.4],
]
WEIGHTS = [1.0, 2.5, -0.5]
# binary pulses (two spikes: a change to 1; one: a change to 0) for the correlospinmatrix_detector
PULSES = [
    [2.0, 2.0, 9.0, 15.0, 15.0, 18.5, 30.0, 30.0, 33.0],
    [5.0, 5.0, 12.0, 16.0, 16.0, 31.0],
    [8.0, 8.0, 14.0, 40.0],
]


def run(nest, threads=1):
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads})
    pair = nest.Create("correlation_detector", params={"delta_tau": 0.5, "tau_max": 4.0, "Tstart": 2.0, "Tstop": 36.0})
    matrix = nest.Create(
        "correlomatrix_detector", params={"delta_tau": 0.3, "tau_max": 3.0, "N_channels": 3, "start": 1.0}
    )
    for channel, (times, weight) in enumerate(zip(TRAINS, WEIGHTS)):
        sg = nest.Create("spike_generator", params={"spike_times": times})
        syn = {"weight": weight, "receptor_type": channel}
        nest.Connect(sg, matrix, syn_spec=syn)
        if channel < 2:
            nest.Connect(sg, pair, syn_spec={**syn, "weight": abs(weight)})
    parrot = nest.Create("parrot_neuron")
    nest.Connect(
        nest.Create("spike_generator", params={"spike_times": [6.0, 21.0, 30.0]}), parrot, syn_spec={"delay": 2.0}
    )
    nest.Connect(parrot, pair, syn_spec={"receptor_type": 1, "weight": 3.0})
    spins = nest.Create("correlospinmatrix_detector", params={"N_channels": 3, "tau_max": 5.0, "delta_tau": 0.5})
    for channel, times in enumerate(PULSES):
        nest.Connect(
            nest.Create("spike_generator", params={"spike_times": times}), spins, syn_spec={"receptor_type": channel}
        )
    nest.Simulate(20.0)
    nest.Simulate(30.0)
    out = {}
    for key in ("histogram", "histogram_correction", "count_histogram", "n_events"):
        out[f"pair.{key}"] = np.asarray(pair.get(key), dtype=float).tolist()
    for key in ("covariance", "count_covariance", "n_events"):
        out[f"matrix.{key}"] = np.asarray(matrix.get(key), dtype=float).tolist()
    out["spins.count_covariance"] = np.asarray(spins.get("count_covariance"), dtype=float).tolist()
    return out


def fixture(nest):
    return run(nest)
