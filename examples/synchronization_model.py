"""The synchronization model of Lober et al. (2026) against a measurement, notebook style.

Run under MPI (oversubscribing is fine):
    OMP_WAIT_POLICY=passive mpiexec -n 4 python examples/synchronization_model.py

1. Simulate the MAM-benchmark conventionally (round-robin, a global exchange every cycle)
   and record every rank's cycle times (deliver + update + collocate).
2. From those cycle times alone, predict how much waiting the structure-aware strategy
   (a global exchange every D cycles) saves: the normal model (eq. 11: 1/sqrt(D)), the same
   corrected for the measured serial correlation, and the lumped samples themselves (eq. 4).
3. Simulate structure-aware and compare with the measured synchronization time.
"""

import sys
from pathlib import Path

import numpy as np

import ranvier as rv

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from ranvier_bench import mam  # noqa: E402

from ranvier import analysis

D = 10
runs = {}
for placement in ("round_robin", "area"):
    r = mam.run(scale=0.1, model_time=500.0, k=400, d_ratio=D, settings={"placement": placement})
    runs[placement] = r

if rv.Rank() == 0:
    t = np.array(runs["round_robin"]["cycle_times_s"])  # (ranks, cycles)
    conv = runs["round_robin"]["phases_mean_s"]["synchronize"]
    struc = runs["area"]["phases_mean_s"]["synchronize"]
    p = analysis.predict_synchronization(t, D)
    print(f"{rv.NumProcesses()} ranks, {len(t[0])} cycles per rank")
    print(
        f"cycle time: mean {t.mean() * 1e3:.3f} ms, CV {p['cv_conventional']:.3f}; "
        f"lumped over D = {D}: CV {p['cv_structure_aware']:.3f}"
    )
    print(
        f"synchronization ratio struc/conv predicted: independent {analysis.synchronization_ratio(D):.3f}, "
        f"with serial correlation {p['structure_aware_correlated_s'] / p['conventional_model_s']:.3f}, "
        f"from the lumped samples {p['structure_aware_samples_s'] / max(p['conventional_samples_s'], 1e-12):.3f}"
    )
    print(
        f"measured synchronization: conventional {conv:.4f} s, structure-aware {struc:.4f} s, "
        f"ratio {struc / max(conv, 1e-12):.3f}"
    )
    q, top = analysis.maxima_interval(t, rv.NumProcesses())
    print(f"eq. 12: 99 % of the per-cycle maxima expected in [{q * 1e3:.3f}, {top * 1e3:.3f}] ms")
