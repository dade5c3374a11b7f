#!/usr/bin/env python3
"""The neuron models on the adaptive solver (core/rkf45.hpp), Ranvier beside NEST 3.10 in one
run (the same script through the PyNEST API; NEST's part runs in the peers' interpreter): per
model 1,000 neurons driven by one 20 kHz Poisson generator, one thread, the best of three
Simulate(200 ms) after 10 ms.

    python benchmarks/solver_models.py [--models hh_psc_alpha,...] [--nest-python PY]

Prints one JSON object per model: seconds on each, their ratio, and both spike counts."""

import argparse
import json
import subprocess
import sys
import time

MODELS = ("hh_psc_alpha", "hh_psc_alpha_gap", "hh_cond_exp_traub", "aeif_cond_alpha")


def measure(nest, model):
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.1, "local_num_threads": 1})
    neurons = nest.Create(model, 1000)
    drive = nest.Create("poisson_generator", params={"rate": 20000.0})
    nest.Connect(drive, neurons, syn_spec={"weight": 30.0 if model.startswith("hh") else 2.0})
    nest.Simulate(10.0)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        nest.Simulate(200.0)
        best = min(best, time.perf_counter() - start)
    return {"seconds": best, "spikes": nest.GetKernelStatus("local_spike_counter")}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--nest-python", default="/work/peers-nest/bin/python")
    p.add_argument("--peer", action="store_true", help="internal: run NEST's part in this interpreter")
    a = p.parse_args()
    models = a.models.split(",")
    if a.peer:
        import nest

        nest.set_verbosity("M_ERROR")
        for model in models:
            print(json.dumps(measure(nest, model)), flush=True)
        return
    import ranvier

    for model in models:
        ours = measure(ranvier, model)
        done = subprocess.run(
            [a.nest_python, __file__, "--peer", "--models", model], capture_output=True, text=True, check=True
        )
        theirs = json.loads(done.stdout.strip().splitlines()[-1])
        print(
            json.dumps(
                {
                    "model": model,
                    "ranvier_s": round(ours["seconds"], 3),
                    "nest_s": round(theirs["seconds"], 3),
                    "nest_over_ranvier": round(theirs["seconds"] / ours["seconds"], 2),
                    "spikes_ranvier": ours["spikes"],
                    "spikes_nest": theirs["spikes"],
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    sys.exit(main())
