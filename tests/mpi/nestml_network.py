"""A network of neurons from an installed NESTML module (tests/test_nestml.py builds it):
`mpiexec -n M python nestml_network.py MODULE MODEL THREADS OUT` installs MODULE on every rank
and saves rank 0's V_m samples and spike times to OUT; `run(model, threads)` builds it
in-process."""

import sys

import numpy as np

import ranvier as rv


def run(model, threads=1, weights=(30.0, -40.0), I_e=200.0):
    """Four neurons under excitatory and inhibitory Poisson input (weights) and a current step:
    V_m every step (ordered by time and sender) and the spike times."""
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": 5})
    cells = rv.Create(model, 4, params={"I_e": I_e})
    rv.Connect(rv.Create("poisson_generator", params={"rate": 20000.0}), cells, syn_spec={"weight": weights[0]})
    rv.Connect(rv.Create("poisson_generator", params={"rate": 5000.0}), cells, syn_spec={"weight": weights[1]})
    rv.Connect(rv.Create("dc_generator", params={"amplitude": 100.0, "start": 50.0}), cells)
    meter = rv.Create("multimeter", params={"record_from": ["V_m"], "interval": 0.1})
    spikes = rv.Create("spike_recorder")
    rv.Connect(meter, cells)
    rv.Connect(cells, spikes)
    rv.Simulate(300.0)
    v, s = meter.get("events"), spikes.get("events")
    by_time = np.lexsort((v["senders"], v["times"]))
    return v["V_m"][by_time], np.sort(s["times"])


if __name__ == "__main__":
    module, model, threads, out = sys.argv[1:]
    rv.Install(module)
    v, spikes = run(model, int(threads))
    if rv.Rank() == 0:
        np.savez(out, v=v, spikes=spikes)
