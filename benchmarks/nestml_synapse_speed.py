#!/usr/bin/env python3
"""Cost of a NESTML synapse beside the built-in rule it restates, in one run: nanoseconds per
plastic event (a spike reaching one connection), NESTML's stdp_synapse generated with
iaf_psc_exp_neuron against Ranvier's stdp_synapse.

    python benchmarks/nestml_synapse_speed.py            # 1000 sources x 1000 targets, 2 s
    python benchmarks/nestml_synapse_speed.py --sources 500 --time 1000

The same network for both, alternating: Poisson-driven parrots, all to all onto the generated
neurons (which both synapses may target), driven to fire at tens of Hz; one thread, resolution 0.1 ms.
A static_synapse run of the same network is subtracted, so the figures are the synapses' cost
beyond a static delivery. Prints one JSON object."""

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from ranvier.nestml import generate_ranvier_target

import ranvier as nest

NEURON = "iaf_psc_exp_neuron_nestml__with_stdp_synapse_nestml"
GENERATED = "stdp_synapse_nestml__with_iaf_psc_exp_neuron_nestml"


def build_module(where):
    library = Path(nest.__file__).parents[3] / "models"  # NESTML's library, as its wheel installs it
    if not library.is_dir():
        library = Path(os.sys.prefix) / "models"
    generate_ranvier_target(
        [str(library / "neurons" / "iaf_psc_exp_neuron.nestml"), str(library / "synapses" / "stdp_synapse.nestml")],
        target_path=str(where / "generated"),
        install_path=str(where / "lib"),
        module_name="speedmodule",
        suffix="_nestml",
        codegen_opts={
            "weight_variable": {"stdp_synapse": "w"},
            "neuron_synapse_pairs": [
                {"neuron": "iaf_psc_exp_neuron", "synapses": {"stdp_synapse": {"post_ports": ["post_spikes"]}}}
            ],
        },
    )
    os.environ["RANVIER_MODULE_PATH"] = str(where / "lib")
    nest.Install("speedmodule")


def run(synapse, sources, targets, t):
    """Seconds of Simulate(t) after 100 ms of warm-up, and the plastic events delivered."""
    nest.ResetKernel()
    nest.SetKernelStatus({"local_num_threads": 1, "rng_seed": 3})
    parrots = nest.Create("parrot_neuron", sources)
    nest.Connect(nest.Create("poisson_generator", params={"rate": 10.0}), parrots)
    cells = nest.Create(NEURON, targets, params={"I_e": nest.random.uniform(340.0, 420.0)})
    nest.Connect(parrots, cells, syn_spec={"synapse_model": synapse, "weight": 1.0, "delay": 1.0})
    pre, post = nest.Create("spike_recorder"), nest.Create("spike_recorder")
    nest.Connect(parrots, pre)
    nest.Connect(cells, post)
    nest.Simulate(100.0)
    before, post_before = pre.n_events, post.n_events
    start = time.perf_counter()
    nest.Simulate(t)
    seconds = time.perf_counter() - start
    rate = (post.n_events - post_before) / targets / (t / 1000.0)
    return seconds, (pre.n_events - before) * targets, rate


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sources", type=int, default=1000)
    parser.add_argument("--targets", type=int, default=1000)
    parser.add_argument("--time", type=float, default=2000.0, help="ms simulated per run")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as where:
        build_module(Path(where))
        best = {}
        for _ in range(args.repeats):  # alternating, the fastest of each
            for synapse in ("static_synapse", "stdp_synapse", GENERATED):
                seconds, events, rate = run(synapse, args.sources, args.targets, args.time)
                if synapse not in best or seconds < best[synapse][0]:
                    best[synapse] = (seconds, events, rate)
    static = best["static_synapse"][0]
    ns = {s: 1e9 * (best[s][0] - static) / best[s][1] for s in ("stdp_synapse", GENERATED)}
    print(
        json.dumps(
            {
                "sources": args.sources,
                "targets": args.targets,
                "time_ms": args.time,
                "plastic_events": best[GENERATED][1],
                "target_rate_hz": {s: round(v[2], 1) for s, v in best.items()},
                "seconds": {s: round(v[0], 3) for s, v in best.items()},
                "ns_per_event_beyond_static": {s: round(v, 2) for s, v in ns.items()},
                "generated_over_builtin": round(ns[GENERATED] / ns["stdp_synapse"], 2),
            }
        )
    )


if __name__ == "__main__":
    main()
