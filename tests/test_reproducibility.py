"""The same network gives bit-identical results for 1, 2 and 3 threads."""

import sys
from pathlib import Path

import numpy as np
import pytest

import ranvier as rv

sys.path.insert(0, str(Path(__file__).parent / "mpi"))
import networks  # noqa: E402


def brunel(threads, model="iaf_psc_alpha", seed=123):
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": seed, "resolution": 0.1})
    r = networks.brunel(n_e=800, n_i=200, t_sim=200.0, model=model)
    return {"senders": r["senders"], "times": r["times"]}, {"V_m": r["V_m"]}, r["weights"]


@pytest.mark.parametrize("model", ["iaf_psc_alpha", "iaf_psc_exp"])
def test_brunel_spikes_identical_across_threads(model):
    spikes1, vm1, w1 = brunel(1, model)
    rate = len(spikes1["times"]) / 1000 / 0.2
    assert 1.0 < rate < 200.0, f"network should be active, rate {rate} Hz"
    for threads in (2, 3):
        spikes, vm, w = brunel(threads, model)
        np.testing.assert_array_equal(spikes["senders"], spikes1["senders"])
        np.testing.assert_array_equal(spikes["times"], spikes1["times"])
        np.testing.assert_array_equal(vm["V_m"], vm1["V_m"])
        np.testing.assert_array_equal(w, w1)
    assert not np.all(w1 == 40.0)  # plasticity acted


def test_different_seed_gives_different_spikes():
    a, _, _ = brunel(1, seed=1)
    b, _, _ = brunel(1, seed=2)
    assert not np.array_equal(a["times"], b["times"])


def test_poisson_generator_rate():
    rv.SetKernelStatus({"local_num_threads": 2})
    pg = rv.Create("poisson_generator", params={"rate": 500.0})
    parrots = rv.Create("parrot_neuron", 200)
    rv.Connect(pg, parrots)
    sr = rv.Create("spike_recorder")
    rv.Connect(parrots, sr)
    rv.Simulate(1000.0)
    counts = np.bincount(sr.events["senders"] - parrots[0].global_id, minlength=200)
    # each parrot repeats an independent Poisson train: counts ~ Poisson(500)
    assert abs(counts.mean() - 500.0) < 5 * np.sqrt(500.0 / 200)
    assert abs(counts.var() / counts.mean() - 1.0) < 0.3
    assert len(np.unique(counts)) > 20  # independent trains, not one shared train


def test_simd_and_portable_paths_give_identical_spikes(tmp_path):
    """The run-time-selected AVX2 path of the Poisson input and the portable path (what a
    CPU without AVX2 runs, forced by RANVIER_SIMD=off) draw the same numbers."""
    import os
    import subprocess

    script = tmp_path / "run.py"
    script.write_text(
        "import sys, numpy as np, ranvier as rv\n"
        f"sys.path.insert(0, {str(Path(__file__).parent / 'mpi')!r})\n"
        "import networks\n"
        "rv.SetKernelStatus({'local_num_threads': 2, 'rng_seed': 7})\n"
        "r = networks.brunel(n_e=400, n_i=100, t_sim=100.0)\n"
        "np.savez(sys.argv[1], senders=r['senders'], times=r['times'], V_m=r['V_m'], weights=r['weights'])\n"
    )
    runs = {}
    for simd in ("on", "off"):
        out = tmp_path / f"{simd}.npz"
        subprocess.run([sys.executable, str(script), str(out)], check=True, env={**os.environ, "RANVIER_SIMD": simd})
        runs[simd] = np.load(out)
    assert len(runs["on"]["times"]) > 100
    for key in ("senders", "times", "V_m", "weights"):
        np.testing.assert_array_equal(runs["on"][key], runs["off"][key], err_msg=key)
