"""Ranvier's benchmarks (see BENCHMARKS.md): ``python -m ranvier.bench NAME [options]``.

Implemented: ``brunel-small`` and ``hpc`` (both built by :mod:`ranvier.bench.brunel`).
Each run prints exactly one JSON object, on the last line of stdout; progress goes to stderr.

    python -m ranvier.bench brunel-small                 # full size: 25,000 neurons, 62.5 M synapses
    python -m ranvier.bench brunel-small --scale 0.3     # demo size, about a minute on 2 cores
    python -m ranvier.bench hpc --scale 0.5 --no-stdp --plot hpc.png

The times are wall-clock seconds: t_create_s and t_connect_s for building the network,
t_prepare_s for the kernel's one-off preparation (reported by the kernel; it happens inside the
first Simulate, the warm-up), t_simulate_s for the measured --time only (after a 100 ms warm-up,
which is not counted). rtf = t_simulate_s / (model_time_ms / 1000). spikes and rate_hz cover
the measured window only; phases_s are the kernel's deliver/update/collocate times of that window.
"""
import argparse
import json
import os
import sys
import time

import ranvier as rv

from . import brunel

BENCHMARKS = ("brunel-small", "hpc")
EXCHANGE_METHODS = ("local",)  # a single process exchanges nothing; other methods need MPI


def _default_threads():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def parser():
    p = argparse.ArgumentParser(prog="python -m ranvier.bench", description=__doc__.split("\n\n")[0])
    p.add_argument("name", choices=BENCHMARKS, help="benchmark to run")
    p.add_argument("--scale", type=float, default=1.0,
                   help="network size relative to the benchmark's (default 1: the size BENCHMARKS.md specifies)")
    p.add_argument("--threads", type=int, default=_default_threads(), help="threads (default: the usable cores)")
    p.add_argument("--seed", type=int, default=12345, help="rng_seed of the kernel (default 12345)")
    p.add_argument("--exchange", default="local",
                   help="spike exchange method; one process always uses 'local' (default)")
    p.add_argument("--time", type=float, default=1000.0, help="measured model time in ms after the warm-up (default 1000)")
    p.add_argument("--warmup", type=float, default=brunel.WARMUP_MS, help="warm-up in ms, not measured (default 100)")
    p.add_argument("--no-stdp", action="store_true", help="static E->E synapses instead of stdp_pl_synapse_hom")
    p.add_argument("--plot", metavar="FILE.png", help="write a raster plot and rate histograms (needs matplotlib)")
    return p


def _log(message):
    print(message, file=sys.stderr, flush=True)


def run(name, scale=1.0, threads=1, seed=12345, exchange="local", model_time=1000.0,
        warmup=brunel.WARMUP_MS, stdp=True, plot=None):
    """Builds and simulates benchmark `name`; returns the result dict that main() prints."""
    if exchange not in EXCHANGE_METHODS:
        _log(f"note: exchange {exchange!r} needs several processes; this single-process run uses 'local'")
    if model_time <= 0:
        raise ValueError(f"--time must be > 0, got {model_time}")
    _log(f"{name}: building at scale {scale} with {threads} thread(s) ...")
    net = brunel.build(name, scale, threads=threads, seed=seed, stdp=stdp, record=plot is not None,
                       record_start=warmup)
    built = rv.GetKernelStatus()
    n_neurons = net["N_E"] + net["N_I"]
    n_synapses = n_neurons * (net["C_E"] + net["C_I"])  # fixed in-degree: exact
    _log(f"  {n_neurons} neurons, {n_synapses} synapses, "
         f"create {net['t_create_wall_s']:.2f} s, connect {net['t_connect_wall_s']:.2f} s; "
         f"J_E = {net['J_E']:.3f} pA, Poisson input {net['poisson_rate_hz']:.1f} Hz per neuron")

    t0 = time.perf_counter()
    if warmup > 0:
        rv.Simulate(warmup)
    t_warmup = time.perf_counter() - t0
    before = rv.GetKernelStatus()
    _log(f"  warm-up {warmup:g} ms: {t_warmup:.2f} s (prepare {before['time_prepare']:.2f} s)")

    t0 = time.perf_counter()
    rv.Simulate(model_time)
    t_sim = time.perf_counter() - t0
    after = rv.GetKernelStatus()
    if warmup <= 0:  # then the preparation happened in the measured Simulate; take it out
        t_sim -= after["time_prepare"]

    spikes = int(after["local_spike_counter"] - before["local_spike_counter"])
    rate = spikes / n_neurons / (model_time / 1000.0)
    _log(f"  simulate {model_time:g} ms: {t_sim:.2f} s, rtf {t_sim / (model_time / 1000.0):.2f}, "
         f"{spikes} spikes, {rate:.2f} Hz")

    result = {
        "benchmark": name,
        "ranvier_version": rv.__version__,
        "processes": 1,
        "threads": int(after["local_num_threads"]),
        "exchange": "local",
        "placement": "round_robin",
        "neurons": n_neurons,
        "synapses": n_synapses,                          # between neurons
        "num_connections": int(after["num_connections"]),  # the kernel's count, Poisson inputs included
        "t_create_s": net["t_create_wall_s"],
        "t_connect_s": net["t_connect_wall_s"],
        "t_prepare_s": after["time_prepare"],
        "t_simulate_s": t_sim,
        "model_time_ms": model_time,
        "rtf": t_sim / (model_time / 1000.0),
        "rss_after_build_mib": built["rss_mib"],
        "rss_peak_mib": after["peak_rss_mib"],
        "bytes_per_synapse": after["bytes_per_synapse"],
        "bytes_per_static_synapse": after["bytes_per_static_synapse"],
        "bytes_per_plastic_synapse": after["bytes_per_plastic_synapse"],
        "spikes": spikes,
        "rate_hz": rate,
        "phases_s": {
            "deliver": after["time_deliver"] - before["time_deliver"],
            "update": after["time_update"] - before["time_update"],
            "collocate": after["time_collocate"] - before["time_collocate"],
            "synchronize": 0.0,
            "communicate": 0.0,
        },
        "scale": scale,
        "seed": seed,
        "stdp": stdp,
        "warmup_ms": warmup,
        "t_warmup_s": t_warmup - before["time_prepare"],
        "N_E": net["N_E"], "N_I": net["N_I"], "C_E": net["C_E"], "C_I": net["C_I"], "eta": net["eta"],
        "J_E_pA": net["J_E"],
        "poisson_rate_hz": net["poisson_rate_hz"],
    }
    if plot is not None:
        events = net["recorder"].events
        plot_raster(events["senders"], events["times"], net, warmup, warmup + model_time, plot)
        _log(f"  wrote {plot}")
    return result


def plot_raster(senders, times, net, t_start, t_end, filename, n_show=300, window=200.0):
    """Raster of `n_show` neurons (the first E and I neurons, in proportion) over the last
    `window` ms, the population rate over that window, and the distribution of per-neuron rates
    over the whole recorded interval (t_start, t_end]."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    first_e, first_i = int(net["E"][0].global_id), int(net["I"][0].global_id)
    n_e, n_i = net["N_E"], net["N_I"]
    show_i = min(n_i, max(1, round(n_show * n_i / (n_e + n_i))))
    show_e = min(n_e, n_show - show_i)
    t0 = max(t_start, t_end - window)
    in_window = times > t0
    s, t = senders[in_window], times[in_window]
    is_e = (s >= first_e) & (s < first_e + show_e)
    is_i = (s >= first_i) & (s < first_i + show_i)

    fig, (ax_raster, ax_rate, ax_hist) = plt.subplots(
        3, 1, figsize=(8, 8), gridspec_kw={"height_ratios": [3, 1, 1.2]})
    ax_raster.plot(t[is_e], s[is_e] - first_e, ".", ms=2, color="tab:blue", label="E")
    ax_raster.plot(t[is_i], s[is_i] - first_i + show_e, ".", ms=2, color="tab:red", label="I")
    ax_raster.set_xlim(t0, t_end)
    ax_raster.set_ylim(-1, show_e + show_i)
    ax_raster.set_ylabel("neuron")
    ax_raster.legend(loc="upper right", markerscale=4)
    ax_raster.set_title(f"{n_e + n_i} neurons, {len(senders)} spikes recorded; "
                        f"{show_e} E and {show_i} I neurons shown")

    bin_ms = 2.0
    edges = np.arange(t0, t_end + bin_ms / 2, bin_ms)
    counts, _ = np.histogram(t, edges)
    ax_rate.bar(edges[:-1], counts / (n_e + n_i) / (bin_ms / 1000.0), width=bin_ms, align="edge", color="0.3")
    ax_rate.set_xlim(t0, t_end)
    ax_rate.set_xlabel("time (ms)")
    ax_rate.set_ylabel("rate (Hz)")

    # E and I were created one after the other, so sender - first_e indexes every neuron
    per_neuron = np.bincount(senders - first_e, minlength=n_e + n_i)[: n_e + n_i] / ((t_end - t_start) / 1000.0)
    seconds = (t_end - t_start) / 1000.0
    top = int(per_neuron.max() * seconds) if len(per_neuron) else 0
    step = max(1, (top + 1) // 50)  # whole spike counts per bin, so short windows show no gaps
    ax_hist.hist(per_neuron, bins=(np.arange(0, top + step + 1, step) - 0.5) / seconds, color="0.5")
    ax_hist.set_xlabel("firing rate over the recorded window (Hz)")
    ax_hist.set_ylabel("neurons")
    fig.tight_layout()
    fig.savefig(filename, dpi=100)
    plt.close(fig)


def main(argv=None):
    args = parser().parse_args(argv)
    result = run(args.name, scale=args.scale, threads=args.threads, seed=args.seed, exchange=args.exchange,
                 model_time=args.time, warmup=args.warmup, stdp=not args.no_stdp, plot=args.plot)
    print(json.dumps(result), flush=True)
    return 0
