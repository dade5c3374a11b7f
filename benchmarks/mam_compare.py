"""The MAM-benchmark of Lober et al. (2026) under one mpiexec: the conventional strategy (round-robin,
global exchange every cycle) against the structure-aware one (area placement) at D = 1, 5, 10.
Prints one JSON object and writes, for M processes,
  PREFIX_phases_M{M}.png       real-time factor stacked by phase (Lober et al. (2026), Fig. 7a)
  PREFIX_cycle_times_M{M}.png  cycle-time distributions, lumped for D > 1 (Fig. 7b)
and compares the synchronization model of ranvier.analysis with the measurement.

  OMP_WAIT_POLICY=passive mpiexec -n 4 python benchmarks/mam_compare.py --scale 0.25 --prefix docs/mam
"""

import argparse
import json

import numpy as np
from ranvier_bench import common, mam

import ranvier as rv
from ranvier import analysis

PHASES = ("deliver", "update", "collocate", "communicate", "synchronize")
COLORS = {
    "deliver": "tab:blue",
    "update": "tab:red",
    "collocate": "gold",
    "communicate": "tab:green",
    "synchronize": "0.6",
}


def configurations(ds):
    yield "conventional", {"placement": "round_robin"}, max(ds)
    for d in ds:
        yield f"structure-aware D={d}", {"placement": "area"}, d


def plot_phases(runs, filename, m):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    labels = list(runs)
    bottom = np.zeros(len(labels))
    for phase in PHASES:
        values = np.array([runs[k]["phases_mean_s"][phase] / (runs[k]["model_time_ms"] / 1000) for k in labels])
        ax.bar(labels, values, bottom=bottom, color=COLORS[phase], label=phase)
        bottom += values
    ax.set_ylabel("real-time factor (mean over ranks)")
    ax.set_title(f"MAM-benchmark, {m} processes")
    ax.legend(fontsize=8)
    plt.setp(ax.get_xticklabels(), rotation=15, fontsize=8)
    fig.tight_layout()
    fig.savefig(filename, dpi=100)
    plt.close(fig)


def plot_cycles(cycles, filename, m):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for label, (t, d) in cycles.items():
        lumped = analysis.lumped_cycle_times(t, d).ravel() * 1e3 / d  # per cycle, for one axis
        ax.hist(lumped, bins=80, histtype="step", density=True, label=f"{label} (lumped / D)")
    ax.set_xlabel("cycle time per cycle (ms)")
    ax.set_ylabel("density")
    ax.set_title(f"cycle times, {m} processes (all ranks)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(filename, dpi=100)
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scale", type=float, default=0.25)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--time", type=float, default=1000.0)
    p.add_argument("--k", type=int, default=1000)
    p.add_argument("--D", type=int, nargs="+", default=[1, 5, 10])
    p.add_argument("--prefix", default="mam")
    args = p.parse_args()
    m = rv.NumProcesses()
    runs, cycles = {}, {}
    for label, settings, d in configurations(args.D):
        r = mam.run(
            scale=args.scale,
            threads=args.threads,
            model_time=args.time,
            k=args.k,
            d_ratio=d,
            settings={**settings, "spike_exchange": "auto"},
        )
        t = np.array([c for c in r.pop("cycle_times_s")])
        cycles[label] = (t, r["D"])
        r.pop("phases_per_rank_s", None)
        runs[label] = r
        common.log(
            f"  {label}: rtf {r['rtf']:.3f}, synchronize {r['phases_mean_s']['synchronize']:.3f} s, "
            f"D = {r['D']}, global exchanges {r['global_exchanges']}"
        )
    conv_t, _ = cycles["conventional"]
    model = {}
    for d in args.D:
        pred = analysis.predict_synchronization(conv_t, d)
        key = f"structure-aware D={d}"
        measured = runs[key]["phases_mean_s"]["synchronize"]
        model[f"D={d}"] = {
            **pred,
            "measured_conventional_s": runs["conventional"]["phases_mean_s"]["synchronize"],
            "measured_structure_aware_s": measured,
            "ratio_predicted_independent": analysis.synchronization_ratio(d),
            "ratio_samples": pred["structure_aware_samples_s"] / max(pred["conventional_samples_s"], 1e-12),
        }
    if rv.Rank() == 0:
        plot_phases(runs, f"{args.prefix}_phases_M{m}.png", m)
        plot_cycles(cycles, f"{args.prefix}_cycle_times_M{m}.png", m)
        print(json.dumps({"benchmark": "mam-compare", "processes": m, "runs": runs, "synchronization_model": model}))


if __name__ == "__main__":
    main()
