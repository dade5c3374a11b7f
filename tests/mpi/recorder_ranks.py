"""Which rank holds which recorder events: `mpiexec -n M python recorder_ranks.py OUT_PREFIX`
saves each rank's events and its local neurons to OUT_PREFIX<rank>.npz; `network()` runs it
in-process. Only rank 0 reads between the two Simulates (reading must not communicate)."""

import sys

import numpy as np

import ranvier as rv


def network():
    neurons = rv.Create("iaf_psc_exp", 40, params={"I_e": 300.0})
    noise = rv.Create("poisson_generator", params={"rate": 9000.0})
    rv.Connect(noise, neurons, syn_spec={"weight": 40.0})
    wr = rv.Create("weight_recorder")
    rv.CopyModel("stdp_synapse", "stdp_rec", {"weight_recorder": wr})
    rv.Connect(
        neurons, neurons, {"rule": "fixed_indegree", "indegree": 5}, {"synapse_model": "stdp_rec", "weight": 20.0}
    )
    sr = rv.Create("spike_recorder")
    rv.Connect(neurons, sr)
    rv.Simulate(50.0)
    if rv.Rank() == 0:  # the other ranks go on to the next Simulate
        first = len(sr.events["times"])
    rv.Simulate(50.0)
    local = rv.GetLocalNodeCollection(neurons).tolist()
    out = {"local": np.asarray(local, dtype=np.int64)}
    out.update({f"sr_{k}": v for k, v in sr.events.items()})
    out.update({f"wr_{k}": v for k, v in wr.events.items() if k != "ports"})
    if rv.Rank() == 0:
        out["first"] = first
    return out


if __name__ == "__main__":
    rv.SetKernelStatus({"local_num_threads": 2})
    np.savez(f"{sys.argv[1]}{rv.Rank()}.npz", **network())
