"""NESTML's model library through the Ranvier target: every neuron model the nestml wheel ships,
generated and built into one module (timed), installed, and run alone for 200 ms under a
current step of 300 pA from 50 ms (where it has a continuous input port) and Poisson spikes
(at its first receptor).
Prints one JSON object: per model whether it generated, its spike count, whether its state
stayed finite, and the time to generate and build all of them.

    python benchmarks/nestml_library.py [--models NAME ...]
"""

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from ranvier.nestml import generate_ranvier_target

import ranvier as rv
from ranvier import modules

LIBRARY = Path(sys.prefix) / "models" / "neurons"


def run(model):
    rv.ResetKernel()
    cell = rv.Create(model)
    noise = rv.Create("poisson_generator", params={"rate": 2000.0})
    try:
        rv.Connect(noise, cell, syn_spec={"weight": 1.0})
    except rv.errors.BadParameterError:  # models with several receptors take spikes at 1..n
        rv.Connect(noise, cell, syn_spec={"weight": 1.0, "receptor_type": 1})
    if rv.GetDefaults(model).get("I_stim") is not None:
        rv.Connect(rv.Create("dc_generator", params={"amplitude": 300.0, "start": 50.0}), cell)
    spikes = rv.Create("spike_recorder")
    rv.Connect(cell, spikes)
    rv.Simulate(200.0)
    defaults = rv.GetDefaults(model)
    # the recordable state variables (recordable inline expressions reach multimeters only)
    state = np.array(list(cell.get([r for r in defaults["recordables"] if r in defaults]).values()), dtype=float)
    return {"spikes": int(spikes.get("n_events")), "finite": bool(np.all(np.isfinite(state)))}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", nargs="*", help="NESTML library models (default: all neurons)")
    args = parser.parse_args()
    files = sorted(LIBRARY.glob("*.nestml")) if not args.models else [LIBRARY / f"{m}.nestml" for m in args.models]
    with tempfile.TemporaryDirectory() as scratch:
        start = time.perf_counter()
        generate_ranvier_target(
            [str(f) for f in files],
            target_path=f"{scratch}/gen",
            install_path=scratch,
            module_name="librarymodule",
            suffix="_nestml",
        )
        built = time.perf_counter() - start
        print(f"generated and built {len(files)} models in {built:.0f} s", file=sys.stderr)
        os.environ[modules.MODULE_PATH_VARIABLE] = scratch
        rv.Install("librarymodule")
    results = {f.stem: run(f.stem + "_nestml") for f in files}
    print(json.dumps({"models": len(files), "generate_and_build_s": round(built, 1), "results": results}))


if __name__ == "__main__":
    main()
