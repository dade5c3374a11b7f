"""The NEST 3.10 spatial fixture (benchmarks/peers/spatial_fixtures.py) and its layers rebuilt in Ranvier."""

import json
import pathlib

import numpy as np

import ranvier as rv

NEST = json.loads((pathlib.Path(__file__).parent / "fixtures" / "spatial_nest.json").read_text())


def make(name, model="iaf_psc_alpha"):
    ((kind, args),) = NEST["layers_spec"][name].items()
    positions = rv.spatial.grid(**args) if kind == "grid" else rv.spatial.free(**args)
    return rv.Create(model, positions=positions)


def matrix(pre, post):
    """Ranvier's connection matrix [source, target] of 0/1 between two layers."""
    c = rv.GetConnections(pre, post)
    m = np.zeros((len(pre), len(post)), dtype=np.uint8)
    m[np.asarray(c.get("source")) - pre[0].global_id, np.asarray(c.get("target")) - post[0].global_id] = 1
    return m


def nest_matrix(hex_bits, n):
    return np.unpackbits(np.frombuffer(bytes.fromhex(hex_bits), dtype=np.uint8))[: n * n].reshape(n, n)
