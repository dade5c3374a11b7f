"""Writes this rank's answers about where nodes live (NEST's vp, thread, local) to OUT/rank<r>.json:
mpiexec -n M python node_places.py OUT THREADS."""

import json
import sys
from pathlib import Path

import numpy as np

import ranvier as rv

rv.SetKernelStatus({"local_num_threads": int(sys.argv[2])})
neurons = rv.Create("iaf_psc_alpha", 9, params={"V_m": [-60.0 - k for k in range(9)]})
generator = rv.Create("poisson_generator")
local = rv.GetLocalNodeCollection(neurons)
rv.Connect(neurons, neurons, "all_to_all")
held, everywhere = rv.GetConnections(), rv.GetConnections(gather=True)
rv.Connect(neurons[:2], neurons[:2], "one_to_one", {"synapse_model": "stdp_synapse"})
# a rank reads its connections alone (nothing collective), the weights as they are now
alone = len(rv.GetConnections()) if rv.Rank() == 0 else None
weights = held.weight if rv.Rank() == 1 else None
Path(sys.argv[1], f"rank{rv.Rank()}.json").write_text(
    json.dumps(
        {
            "rank": rv.Rank(),
            "vp": list(neurons.get("vp")),
            "thread": list(neurons.get("thread")),
            "local": list(neurons.get("local")),
            "device": [generator.get("vp"), generator.get("thread"), generator.get("local")],
            "local_collection": local.tolist(),
            # each rank asks about its own nodes: their values, not sums over ranks
            "local_V_m": np.atleast_1d(local.get("V_m")).tolist(),
            "held_targets": sorted(set(np.atleast_1d(held.target).tolist())),
            "held": len(held),
            "alone": alone,
            "weights": weights,
            "everywhere": len(everywhere),
        }
    )
)
