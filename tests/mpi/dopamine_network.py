"""Networks with dopamine-modulated STDP (volume_transmitter, stdp_dopamine_synapse), written
against PyNEST's API so that NEST 3.10 (benchmarks/peers/nest_network_fixtures.py) and Ranvier
(tests/test_dopamine.py) build the same network: run(nest, case, ...) returns what each
compares. `mpiexec -n M python dopamine_network.py CASE THREADS` prints Ranvier's as JSON on
rank 0."""

import json
import sys

import numpy as np


def _issue_410(nest):
    """NEST's regression test for issue 410: a dopamine population firing through a volume
    transmitter onto one plastic synapse between two driven neurons."""
    stim1 = nest.Create("dc_generator", params={"amplitude": 1500.0})
    stim2 = nest.Create("dc_generator", params={"amplitude": 1000.0})
    nrn1 = nest.Create("iaf_psc_alpha", params={"C_m": 100.0, "tau_m": 10.0})
    nrn2 = nest.Create("iaf_psc_alpha", params={"C_m": 100.0, "tau_m": 10.0, "tau_minus": 10.0})
    dopa = nest.Create("iaf_psc_alpha", 100, {"V_reset": -70.0, "C_m": 80.0, "V_th": -60.0})
    vt = nest.Create("volume_transmitter")
    wr = nest.Create("weight_recorder")
    nest.CopyModel(
        "stdp_dopamine_synapse",
        "syn1",
        {
            "Wmax": 1000.0,
            "Wmin": 0.0,
            "tau_plus": 10.0,
            "A_minus": 0.05,
            "A_plus": 0.05,
            "b": 45.45,
            "tau_c": 1.0,
            "tau_n": 100.0,
            "volume_transmitter": vt,
            "weight_recorder": wr,
        },
    )
    nest.Connect(stim1, nrn1, syn_spec={"weight": 10.0, "delay": 1.0})
    nest.Connect(stim2, dopa, syn_spec={"weight": 10.0, "delay": 1.0})
    nest.Connect(nrn1, nrn2, syn_spec={"synapse_model": "syn1", "weight": 500.0, "delay": 1.0})
    nest.Connect(dopa, vt)
    nest.Simulate(2000.0)
    return wr


def _trains(seed, n, rate, t_stop):
    """n spike trains of about `rate` spikes/s on the 0.1 ms grid, the same in every venv."""
    rng = np.random.RandomState(seed)
    trains = []
    for _ in range(n):
        times = np.cumsum(rng.exponential(1000.0 / rate, size=int(3 * rate * t_stop / 1000.0) + 5))
        times = np.unique(np.round(times[times < t_stop - 1.0], 1))
        trains.append([float(t) for t in times if t >= 0.1])
    return trains


def _network(nest, deliver_interval):
    """Parrots (pre), integrate-and-fire neurons (post) and dopamine parrots fed with fixed
    trains; dopamine synapses with several delays (min_delay 1 ms) and per-connection c, n,
    Kplus; two dopamine parrots fire together at times, so spikes reach the transmitter two at
    once. Simulated in pieces that end inside cycles."""
    pre_trains, dopa_trains, post_trains = (
        _trains(1, 6, 30.0, 400.0),
        _trains(2, 3, 25.0, 400.0),
        _trains(3, 3, 20.0, 400.0),
    )
    dopa_trains[1] = sorted(set(dopa_trains[1]) | set(dopa_trains[0][::2]))
    pre = nest.Create("parrot_neuron", 6)
    post = nest.Create("iaf_psc_exp", 3, {"tau_minus": 15.0})
    dopa = nest.Create("parrot_neuron", 3)
    for nodes, trains in ((pre, pre_trains), (dopa, dopa_trains)):
        gens = nest.Create("spike_generator", len(trains))
        for g, t in zip(gens, trains):
            g.spike_times = t
        nest.Connect(gens, nodes, "one_to_one")
    drive = nest.Create("spike_generator", 3)
    for g, t in zip(drive, post_trains):
        g.spike_times = t
    nest.Connect(drive, post, "one_to_one", {"weight": 4000.0})
    vt = nest.Create("volume_transmitter", params={"deliver_interval": deliver_interval})
    wr = nest.Create("weight_recorder")
    nest.CopyModel(
        "stdp_dopamine_synapse",
        "dopa_syn",
        {
            "Wmax": 100.0,
            "Wmin": 0.0,
            "tau_plus": 20.0,
            "A_plus": 1.0,
            "A_minus": 0.6,
            "b": 0.02,
            "tau_c": 50.0,
            "tau_n": 30.0,
            "volume_transmitter": vt,
            "weight_recorder": wr,
        },
    )
    for k, delay in enumerate((1.0, 1.5, 2.3)):
        nest.Connect(
            pre[2 * k : 2 * k + 2],
            post,
            syn_spec={
                "synapse_model": "dopa_syn",
                "weight": 40.0 + 5 * k,
                "delay": delay,
                "c": 0.01 * k,
                "n": 0.02 * k,
                "Kplus": 0.5 * k,
            },
        )
    nest.Connect(dopa, vt, syn_spec={"weight": 3.0, "delay": 1.0})
    nest.Connect(dopa[0], vt, syn_spec={"delay": 2.0})
    for t in (137.3, 150.0, 112.7):
        nest.Simulate(t)
    return wr


CASES = {"issue_410": _issue_410, "interval_1": lambda n: _network(n, 1), "interval_3": lambda n: _network(n, 3)}


def run(nest, case, threads=1, gather=lambda column: column):
    """The case's connections (source, target, weight, c, n, Kplus, sorted; `gather` joins a
    column of every process's) and the weight recorder's events (times, senders, targets,
    weights, in time order)."""
    nest.ResetKernel()
    nest.local_num_threads = threads
    wr = CASES[case](nest)
    conns = nest.GetConnections(synapse_model="dopa_syn" if case != "issue_410" else "syn1")
    keys = ["source", "target", "delay", "weight", "c", "n", "Kplus"]
    got = {k: gather(np.atleast_1d(np.asarray(v, dtype=float))) for k, v in conns.get(keys).items()}
    order = np.lexsort([got["delay"], got["target"], got["source"]])
    events = wr.get("events")
    e_order = np.lexsort([np.asarray(events["targets"]), np.asarray(events["senders"]), np.asarray(events["times"])])
    return {
        "connections": {k: v[order].tolist() for k, v in got.items()},
        "events": {
            k: np.asarray(events[k], dtype=float)[e_order].tolist() for k in ("times", "senders", "targets", "weights")
        },
    }


def fixture(nest):
    return {case: run(nest, case) for case in CASES}


if __name__ == "__main__":
    import ranvier
    from ranvier import _state

    result = run(ranvier, sys.argv[1], int(sys.argv[2]), _state.state.kernel.allgather_doubles)
    if ranvier.Rank() == 0:
        print(json.dumps(result))
