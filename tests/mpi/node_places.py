"""Writes this rank's answers about where nodes live (NEST's vp, thread, local) to OUT/rank<r>.json:
mpiexec -n M python node_places.py OUT THREADS."""

import json
import sys
from pathlib import Path

import ranvier as rv

rv.SetKernelStatus({"local_num_threads": int(sys.argv[2])})
neurons = rv.Create("iaf_psc_alpha", 9)
generator = rv.Create("poisson_generator")
Path(sys.argv[1], f"rank{rv.Rank()}.json").write_text(
    json.dumps(
        {
            "rank": rv.Rank(),
            "vp": list(neurons.get("vp")),
            "thread": list(neurons.get("thread")),
            "local": list(neurons.get("local")),
            "device": [generator.get("vp"), generator.get("thread"), generator.get("local")],
            "local_collection": rv.GetLocalNodeCollection(neurons).tolist(),
        }
    )
)
