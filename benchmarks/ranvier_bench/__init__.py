"""Ranvier's benchmarks (defined in benchmarks/README.md): ``python benchmarks/bench.py NAME [options]``.

Implemented: ``brunel-small`` and ``hpc`` (both built by :mod:`ranvier_bench.brunel`) and
``hines`` (:mod:`ranvier_bench.hines`) and ``mam`` (:mod:`ranvier_bench.mam`). Each run prints exactly one JSON object, on the last
line of stdout (rank 0 only under MPI); progress goes to stderr.

    python benchmarks/bench.py brunel-small                 # full size: 25,000 neurons, 62.5 M synapses
    python benchmarks/bench.py brunel-small --scale 0.3     # demo size, about a minute on 2 cores
    python benchmarks/bench.py hpc --scale 0.5 --no-stdp --plot hpc.png
    mpiexec -n 2 python benchmarks/bench.py hines --threads 1 --exchange multisend2
    python benchmarks/bench.py hpc --dry-run 1024 --scale 50 --time 20 --warmup 10

The times are wall-clock seconds, the maximum over ranks: t_create_s and t_connect_s for building
the network, t_prepare_s for the kernel's one-off preparation (reported by the kernel; it happens
inside the first Simulate), t_simulate_s for the measured --time only (brunel-small and hpc:
after a 100 ms warm-up, which is not counted; hines: from time 0, without the preparation).
rtf = t_simulate_s / (model_time_ms / 1000). spikes and rate_hz cover the measured window only.
phases_s are the kernel's deliver/update/collocate/synchronize/communicate times of that window,
the maximum over ranks (phases_mean_s: the mean; phases_per_rank_s: every rank's). Memory
(rss_*) is summed over ranks, except in a dry run, where everything is rank 0's share.
See ranvier_bench.common for the exact definitions.
"""

import argparse
import json
import os
import sys
import time

import ranvier as rv

from . import brunel, common, hines, mam

BENCHMARKS = ("brunel-small", "hpc", "hines", "mam")
EXCHANGE_METHODS = common.EXCHANGES


def _default_threads():
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        n = os.cpu_count() or 1
    return max(1, n // max(1, rv.NumProcesses()))


def parser():
    p = argparse.ArgumentParser(prog="python benchmarks/bench.py", description=__doc__.split("\n\n")[0])
    p.add_argument("name", choices=BENCHMARKS, help="benchmark to run")
    p.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="network size relative to the benchmark's (default 1: the size benchmarks/README.md defines)",
    )
    p.add_argument(
        "--threads",
        type=int,
        default=_default_threads(),
        help="threads per process (default: the usable cores divided by the processes)",
    )
    p.add_argument("--seed", type=int, default=12345, help="rng_seed of the kernel (default 12345)")
    p.add_argument("--time", type=float, default=None, help="measured model time in ms (default 1000; hines: 200)")
    p.add_argument(
        "--warmup",
        type=float,
        default=None,
        help="warm-up in ms before the measured time, not measured (default 100; hines: 0)",
    )
    common.add_options(p)
    g = p.add_argument_group("brunel-small and hpc")
    g.add_argument("--no-stdp", action="store_true", help="static E->E synapses instead of stdp_pl_synapse_hom")
    g.add_argument("--plot", metavar="FILE.png", help="write a raster plot and rate histograms (needs matplotlib)")
    h = p.add_argument_group("hines")
    h.add_argument("--n", type=int, default=None, help=f"cells (default {hines.N_DEFAULT} x --scale)")
    h.add_argument("--indegree", type=int, default=hines.C_DEFAULT, help=f"C (default {hines.C_DEFAULT})")
    h.add_argument(
        "--indegree-spread",
        type=int,
        default=hines.DC_DEFAULT,
        help=f"in-degree uniform in [C - d, C + d] (default d = {hines.DC_DEFAULT})",
    )
    h.add_argument("--weight", type=float, default=0.0, help="connection weight (default 0: purely random firing)")
    h.add_argument("--topology", choices=("random", "adjacent"), default="random")
    h.add_argument("--burst", action="store_true", help="8 groups in turn fire 5x faster for 50 ms")
    h.add_argument("--resolution", type=float, default=hines.RESOLUTION, help="time step in ms (default 0.1)")
    a = p.add_argument_group("mam (ranvier_bench.mam; --placement round_robin or area)")
    a.add_argument("--areas", type=int, default=4, help="areas (default 4)")
    a.add_argument("--area-size", type=int, default=20000, help="neurons per area at scale 1 (default 20000)")
    a.add_argument("--K", type=int, default=1000, help="in-degree (default 1000)")
    a.add_argument("--D", type=int, default=10, help="d_min_inter / d_min (default 10)")
    return p


log = common.log


def run(
    name,
    scale=1.0,
    threads=1,
    seed=12345,
    exchange="auto",
    model_time=1000.0,
    warmup=brunel.WARMUP_MS,
    stdp=True,
    plot=None,
    settings=None,
):
    """Builds and simulates brunel-small or hpc; returns the result dict that main() prints.
    `settings`: kernel settings from common.kernel_settings (placement, dry_run, ...);
    without it, `exchange` alone is used."""
    if settings is None:
        settings = {"spike_exchange": exchange if rv.NumProcesses() > 1 or exchange == "local" else "auto"}
    if model_time <= 0:
        raise ValueError(f"--time must be > 0, got {model_time}")
    dry = int(settings.get("dry_run", 0))
    log(
        f"{name}: building at scale {scale} with {rv.NumProcesses()} process(es) x {threads} thread(s), "
        f"exchange {common.exchange_name(settings)}, placement {settings.get('placement', 'round_robin')}"
        + (f", dry run of rank 0 of {dry}" if dry else "")
        + " ..."
    )
    m = common.Measurement()
    net = brunel.build(
        name,
        scale,
        threads=threads,
        seed=seed,
        stdp=stdp,
        record=plot is not None,
        record_start=warmup,
        settings=settings,
    )
    m.built(net["t_create_wall_s"], net["t_connect_wall_s"])
    n_neurons = net["N_E"] + net["N_I"]
    n_synapses = n_neurons * (net["C_E"] + net["C_I"])  # fixed in-degree: exact
    log(
        f"  {n_neurons} neurons, {n_synapses} synapses, "
        f"create {net['t_create_wall_s']:.2f} s, connect {net['t_connect_wall_s']:.2f} s"
        + f", rss {rv.GetKernelStatus('rss_mib'):.0f} MiB on rank 0; "
        f"J_E = {net['J_E']:.3f} pA, Poisson input {net['poisson_rate_hz']:.1f} Hz per neuron"
    )

    t0 = time.perf_counter()
    if warmup > 0:
        rv.Simulate(warmup)
    t_warmup = time.perf_counter() - t0
    before = rv.GetKernelStatus()
    log(f"  warm-up {warmup:g} ms: {t_warmup:.2f} s (prepare {before['time_prepare']:.2f} s)")

    m.start()
    rv.Simulate(model_time)
    m.stop()

    extra = {
        "scale": scale,
        "seed": seed,
        "stdp": stdp,
        "warmup_ms": warmup,
        "t_warmup_s": t_warmup - before["time_prepare"],
        "N_E": net["N_E"],
        "N_I": net["N_I"],
        "C_E": net["C_E"],
        "C_I": net["C_I"],
        "eta": net["eta"],
        "J_E_pA": net["J_E"],
        "poisson_rate_hz": net["poisson_rate_hz"],
    }
    if dry and settings.get("placement", "round_robin") == "round_robin":
        extra["_rank0_neurons"] = common.local_share_round_robin(
            [(int(net["E"][0].global_id), net["N_E"]), (int(net["I"][0].global_id), net["N_I"])], dry
        )
    result = m.result(name, settings, n_neurons, n_synapses, model_time, extra)
    log(
        f"  simulate {model_time:g} ms: {result['t_simulate_s']:.2f} s, rtf {result['rtf']:.2f}, "
        f"{result['spikes']} spikes, {result['rate_hz']:.2f} Hz"
    )
    if plot is not None:
        events = net["recorder"].events  # rank 0 holds every rank's events after Simulate
        if common.is_root():
            plot_raster(events["senders"], events["times"], net, warmup, warmup + model_time, plot)
            log(f"  wrote {plot}")
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

    fig, (ax_raster, ax_rate, ax_hist) = plt.subplots(3, 1, figsize=(8, 8), gridspec_kw={"height_ratios": [3, 1, 1.2]})
    ax_raster.plot(t[is_e], s[is_e] - first_e, ".", ms=2, color="tab:blue", label="E")
    ax_raster.plot(t[is_i], s[is_i] - first_i + show_e, ".", ms=2, color="tab:red", label="I")
    ax_raster.set_xlim(t0, t_end)
    ax_raster.set_ylim(-1, show_e + show_i)
    ax_raster.set_ylabel("neuron")
    ax_raster.legend(loc="upper right", markerscale=4)
    ax_raster.set_title(f"{n_e + n_i} neurons, {len(senders)} spikes recorded; {show_e} E and {show_i} I neurons shown")

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
    if args.name == "hines":
        result = hines.run(args)
    elif args.name == "mam":
        result = mam.run(
            scale=args.scale,
            threads=args.threads,
            seed=args.seed,
            model_time=1000.0 if args.time is None else args.time,
            areas=args.areas,
            n=args.area_size,
            k=args.K,
            d_ratio=args.D,
            settings=common.kernel_settings(args),
        )
        result.pop("cycle_times_s", None)  # per-cycle arrays; cycle_time_stats summarises them
    else:
        settings = common.kernel_settings(args)
        result = run(
            args.name,
            scale=args.scale,
            threads=args.threads,
            seed=args.seed,
            model_time=1000.0 if args.time is None else args.time,
            warmup=brunel.WARMUP_MS if args.warmup is None else args.warmup,
            stdp=not args.no_stdp,
            plot=args.plot,
            settings=settings,
        )
    if common.is_root():
        print(json.dumps(result), flush=True)
    return 0
