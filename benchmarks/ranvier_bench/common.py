"""What every benchmark shares: kernel settings from the command line, MPI-aware measurement
and the JSON result that benchmarks/README.md defines.

Under ``mpiexec -n M`` every rank runs the same script. The helpers here gather each rank's
figures with the kernel's communicator (``allgather_doubles``) so that rank 0 can print one
JSON object for the whole run:

- wall-clock times (t_create_s, t_connect_s, t_prepare_s, t_simulate_s): the maximum over ranks
  (the slowest rank sets the pace of a run);
- phases_s: the maximum over ranks of each phase (deliver, stimulate, update, collocate, synchronize,
  communicate); phases_mean_s has the mean over ranks and phases_per_rank_s one list per phase;
- rss_after_build_mib, rss_peak_mib: summed over ranks (rss_per_rank_mib and
  rss_peak_per_rank_mib give each rank's own);
- spikes: summed over ranks (each spike counted once, by the rank that owns its neuron);
- work: synaptic events delivered (static, plastic), neuron updates and Poisson draws in the
  measured window, summed over ranks; core_ns_per_unit: the phase that does each, in core
  nanoseconds per unit (phase time x threads x processes / count).

In a dry run (``--dry-run M``: one process builds and simulates the share of rank 0 of an
M-process run) every time and memory figure is rank 0's share only; the JSON says so with
"dry_run": M, "processes": M and "per_rank": true.
"""

import math
import sys
import time

import numpy as np

import ranvier as rv
from ranvier import _state

PHASES = ("deliver", "stimulate", "update", "collocate", "synchronize", "communicate")
WORK = ("synaptic_events_static", "synaptic_events_plastic", "neuron_updates", "poisson_draws")
PLACEMENTS = ("round_robin", "consecutive", "random", "area")  # area: mam only
# Exchange methods as the command line names them; "multisend2" is multisend with two phases.
EXCHANGES = ("auto", "local", "allgather", "alltoall", "multisend", "multisend2", "rma")


def rank():
    return rv.Rank()


def is_root():
    return rv.Rank() == 0


def log(message):
    """Progress on stderr, from rank 0 only."""
    if is_root():
        print(message, file=sys.stderr, flush=True)


def gather(values):
    """Every rank's numbers (a list of floats of the same length on every rank), one row per
    rank. Collective: call on every rank. In a dry run there is one row (rank 0's)."""
    values = np.ascontiguousarray(values, dtype=float)
    return _state.state.kernel.allgather_doubles(values).reshape(-1, len(values))


def barrier():
    gather([0.0])


def add_options(p):
    """Options every benchmark takes besides --scale, --threads, --seed and --time."""
    p.add_argument(
        "--exchange",
        default="auto",
        choices=EXCHANGES,
        help="spike exchange method (default auto: local on one process, alltoall under MPI, "
        "dry_run in a dry run); multisend2 = multisend with two phases",
    )
    p.add_argument(
        "--multisend-phases",
        type=int,
        choices=(1, 2),
        default=None,
        help="phases of the multisend method (default 1; --exchange multisend2 sets 2)",
    )
    p.add_argument(
        "--placement",
        default="round_robin",
        choices=PLACEMENTS,
        help="how neurons are distributed over ranks and threads (default round_robin)",
    )
    p.add_argument(
        "--no-sync-barrier",
        action="store_true",
        help="no timed barrier before each exchange (then synchronize is 0 and waiting shows up in communicate)",
    )
    p.add_argument(
        "--overlap-exchange",
        action="store_true",
        help="overlap each cycle's first-epoch exchange with the update of its second epoch",
    )
    p.add_argument(
        "--multisend-subintervals",
        type=int,
        choices=(1, 2),
        default=1,
        help="2: multisend overlaps with --overlap-exchange (two sub-intervals per min delay)",
    )
    p.add_argument(
        "--persistent-exchange",
        action="store_true",
        help="allgather's and alltoall's fixed-block rounds as persistent collectives (MPI-4)",
    )
    p.add_argument(
        "--record-cycle-times",
        action="store_true",
        help="record each rank's time per cycle and report mean/sd/max per rank",
    )
    p.add_argument(
        "--dry-run",
        type=int,
        default=0,
        metavar="M",
        help="build and simulate the share of rank 0 of an M-process run on this one process",
    )


def kernel_settings(args):
    """SetKernelStatus dict for an empty kernel from the parsed options."""
    exchange = args.exchange
    phases = args.multisend_phases
    if exchange == "multisend2":
        exchange, phases = "multisend", 2
    settings = {
        "placement": args.placement,
        "multisend_phases": phases or 1,
        "sync_barrier": not args.no_sync_barrier,
        "record_cycle_times": bool(args.record_cycle_times),
        "overlap_exchange": bool(args.overlap_exchange),
        "multisend_subintervals": int(args.multisend_subintervals),
        "persistent_exchange": bool(args.persistent_exchange),
    }
    if args.dry_run:
        if rv.NumProcesses() > 1:
            raise SystemExit("--dry-run runs on one process; do not start it under mpiexec")
        if exchange not in ("auto", "dry_run"):
            log(f"note: a dry run exchanges synthetic spikes; --exchange {args.exchange} is ignored")
        settings["dry_run"] = int(args.dry_run)
        exchange = "auto"
    elif exchange == "local" and rv.NumProcesses() > 1:
        raise SystemExit("--exchange local needs a single process")
    elif exchange not in ("auto", "local") and rv.NumProcesses() == 1:
        log(f"note: one process exchanges nothing; --exchange {args.exchange} becomes local")
        exchange = "auto"
    settings["spike_exchange"] = exchange
    return settings


def exchange_name(settings):
    """The method the kernel runs for these settings (what 'auto' resolves to)."""
    method = settings.get("spike_exchange", "auto")
    if settings.get("dry_run"):
        return "dry_run"
    if method == "auto":
        return "alltoall" if rv.NumProcesses() > 1 else "local"
    if method == "multisend" and settings.get("multisend_phases", 1) == 2:
        return "multisend2"
    return method


def reset_kernel(threads, seed, resolution, settings):
    rv.ResetKernel()
    rv.SetKernelStatus(
        {"resolution": float(resolution), "local_num_threads": int(threads), "rng_seed": int(seed), **settings}
    )


def local_share_round_robin(first_gids_and_counts, ranks):
    """Neurons rank 0 owns under round-robin placement (gid % ranks == 0), for the dry run's
    rate; exact for round_robin and about N / M for the other placements."""
    n = 0
    for first, count in first_gids_and_counts:
        last = first + count - 1
        n += last // ranks - (first - 1) // ranks
    return n


def _fraction(hidden, exposed):
    total = hidden + exposed
    return float(hidden / total) if total > 0 else 0.0


def _cycle_stats(cycles):
    out = []
    for c in cycles:
        c = np.asarray(c, dtype=float)
        if not c.size:
            out.append(None)
            continue
        mean = float(c.mean())
        sd = float(c.std())
        out.append(
            {
                "n": int(c.size),
                "mean_s": mean,
                "sd_s": sd,
                "cv": sd / mean if mean > 0 else 0.0,
                "max_s": float(c.max()),
            }
        )
    return out


class Measurement:
    """Snapshots of every rank's kernel counters around the measured interval.

    Usage (on every rank): ``m = Measurement(); m.built(t_create, t_connect)``, warm-up,
    ``m.start()``, simulate, ``m.stop()``, then ``m.result(...)`` (rank 0 prints it).
    """

    def built(self, t_create, t_connect):
        s = rv.GetKernelStatus()
        self.build_rows = gather([t_create, t_connect, s["rss_mib"], s["peak_rss_mib"]])
        self.t_create, self.t_connect = t_create, t_connect

    def start(self):
        self.before = rv.GetKernelStatus()
        self.phases_before = rv.GetKernelStatus("phase_times_all_ranks")
        self.counts_before = rv.GetKernelStatus("exchange_counts_all_ranks")
        self.cycles_before = len(self.before["cycle_times"])  # the same number on every rank
        self.rss_start = gather([self.before["rss_mib"]])[:, 0]
        barrier()
        self.t0 = time.perf_counter()

    def stop(self):
        t_sim = time.perf_counter() - self.t0
        self.after = rv.GetKernelStatus()
        # a preparation inside the measured interval (first Simulate, or after a set) is not simulation
        t_prep_inside = self.after["time_prepare"] - self.before["time_prepare"]
        spikes = self.after["spikes_emitted"] - self.before["spikes_emitted"]
        self.phases_after = rv.GetKernelStatus("phase_times_all_ranks")
        self.hidden = gather([self.after["time_communicate_hidden"] - self.before["time_communicate_hidden"]])[:, 0]
        self.synthesis = gather([self.after["time_dry_run_synthesis"] - self.before["time_dry_run_synthesis"]])[:, 0]
        self.counts_after = rv.GetKernelStatus("exchange_counts_all_ranks")
        self.rows = gather(
            [
                t_sim - t_prep_inside,
                self.after["time_prepare"],
                self.after["rss_mib"],
                self.after["peak_rss_mib"],
                spikes,
                t_prep_inside,
            ]
        )
        self.work = dict(zip(WORK, gather([self.after[w] - self.before[w] for w in WORK]).sum(axis=0)))
        self.cycles = None
        if self.after["record_cycle_times"]:  # the measured window's cycles only
            self.cycles = [c[self.cycles_before :] for c in rv.GetKernelStatus("cycle_times_all_ranks")]

    def result(self, name, settings, neurons, synapses, model_time, extra=None):
        """The JSON dict that benchmarks/README.md defines; meaningful on every rank, printed by rank 0."""
        dry = int(settings.get("dry_run", 0))
        processes = dry if dry else rv.NumProcesses()
        b, r = self.build_rows, self.rows
        phases = {p: self.phases_after[p] - self.phases_before[p] for p in PHASES}
        # simulation time the five phases do not cover (e.g. sorting the received spikes)
        unaccounted = r[:, 0] - sum(phases[p] for p in PHASES)
        t_sim = float(r[:, 0].max())
        spikes = int(round(r[:, 4].sum()))
        sent = self.counts_after["sent"] - self.counts_before["sent"]
        received = self.counts_after["received"] - self.counts_before["received"]
        after = self.after
        res = {
            "benchmark": name,
            "ranvier_version": rv.__version__,
            "processes": processes,
            "threads": int(after["local_num_threads"]),
            "exchange": exchange_name(settings),
            "multisend_phases": int(settings.get("multisend_phases", 1)),
            "placement": settings.get("placement", "round_robin"),
            "sync_barrier": bool(settings.get("sync_barrier", True)),
            "dry_run": dry,
            "per_rank": bool(dry),
            "neurons": int(neurons),
            "synapses": int(synapses),
            "num_connections": int(round(gather([after["num_connections"]])[:, 0].sum())),
            "t_create_s": float(b[:, 0].max()),
            "t_connect_s": float(b[:, 1].max()),
            "t_prepare_s": float(r[:, 1].max()),
            "t_simulate_s": t_sim,
            "model_time_ms": float(model_time),
            "rtf": t_sim / (model_time / 1000.0),
            "rss_after_build_mib": float(b[:, 2].sum()),
            "rss_peak_mib": float(r[:, 3].sum()),
            "rss_before_measured_mib": float(self.rss_start.sum()),  # after build, warm-up and preparation
            "rss_per_rank_mib": [float(x) for x in b[:, 2]],
            "rss_peak_per_rank_mib": [float(x) for x in r[:, 3]],
            "bytes_per_synapse": after["bytes_per_synapse"],
            "bytes_per_static_synapse": after["bytes_per_static_synapse"],
            "bytes_per_plastic_synapse": after["bytes_per_plastic_synapse"],
            "spikes": spikes,
            "rate_hz": None,  # filled below
            "phases_s": {p: float(v.max()) for p, v in phases.items()},
            "phases_mean_s": {p: float(v.mean()) for p, v in phases.items()},
            "phases_per_rank_s": {p: [float(x) for x in v] for p, v in phases.items()},
            "phases_reduction": "max over ranks (phases_mean_s: mean over ranks)",
            "outside_phases_per_rank_s": [float(x) for x in unaccounted],
            "overlap_exchange": bool(settings.get("overlap_exchange", False)),
            # exchange time in flight while cells updated, beside the exposed communicate time
            "communicate_hidden_s": float(self.hidden.max()),
            "communicate_hidden_per_rank_s": [float(x) for x in self.hidden],
            "hidden_fraction": _fraction(self.hidden.sum(), phases["communicate"].sum()),
            # a dry run's making of the other ranks' spikes, within communicate (no real rank's cost)
            "dry_run_synthesis_s": float(self.synthesis.max()),
            "spikes_sent": int(sent.sum()),
            "spikes_received": int(received.sum()),
            "spikes_sent_per_rank": [int(x) for x in sent],
            "spikes_received_per_rank": [int(x) for x in received],
            "exchange_repeats": int(after["exchange_repeats"]),
            "exchange_log": list(after["exchange_log"]),
            "t_simulate_per_rank_s": [float(x) for x in r[:, 0]],
            "t_prepare_in_measured_s": float(r[:, 5].max()),
        }
        res["work"] = {w: int(v) for w, v in self.work.items()}
        cores = res["threads"] * len(r)
        per_unit = {
            "deliver_per_synaptic_event": (
                "deliver",
                self.work["synaptic_events_static"] + self.work["synaptic_events_plastic"],
            ),
            "stimulate_per_poisson_draw": ("stimulate", self.work["poisson_draws"]),
            "update_per_neuron_update": ("update", self.work["neuron_updates"]),
        }
        res["core_ns_per_unit"] = {
            k: float(phases[p].mean() * cores / n * 1e9) if n else None for k, (p, n) in per_unit.items()
        }
        if self.cycles is not None:
            res["cycle_time_stats"] = _cycle_stats(self.cycles)
        seconds = model_time / 1000.0
        if dry:
            share = extra.pop("_rank0_neurons", None) if extra else None
            share = share or max(1, round(neurons / dry))
            res["rank0_neurons"] = int(share)
            res["rate_hz"] = spikes / share / seconds if seconds > 0 else 0.0
            res["memory_scope"] = f"rank 0 of {dry} (dry run): rss and times are per rank, not summed"
        else:
            res["rate_hz"] = spikes / neurons / seconds if seconds > 0 else 0.0
            res["memory_scope"] = "summed over ranks" if processes > 1 else "one process"
        if extra:
            res.update({k: v for k, v in extra.items() if not k.startswith("_")})
        for k, v in list(res.items()):
            if isinstance(v, float) and not math.isfinite(v):
                res[k] = None
        return res
