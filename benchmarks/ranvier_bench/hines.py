"""hines: the artificial-cell network of Hines, Kumar and Schuermann (2011), built to
measure spike exchange rather than neuron dynamics.

N artificial_spiking_cell neurons (default 65,536) each fire at a U(20, 40) ms random interval
drawn afresh after every spike (from the cell's own random stream, so the firing does not
depend on the number of processes or the placement). Each cell receives C +- dC inputs
(default 1,000 +- 50, uniform) with delay 1 ms and weight 0 (``--weight``), so the firing stays
purely random and every spike still has to reach every rank that holds one of its targets.

Topologies
- random (default): sources drawn uniformly from all other cells (fixed_indegree with one
  in-degree per target, autapses off, multapses on).
- adjacent: cell i receives from its k_i nearest neighbours by gid, ceil(k_i/2) below and
  floor(k_i/2) above, wrapping around (i - 1, i + 1, i - 2, ...). Built with one_to_one
  Connect calls, two per offset and side (the wrap is the second), never a Python loop over
  connections. Under consecutive placement most inputs are then local to a rank.

Burst (``--burst``): the cells are cut into 8 groups of N/8 consecutive gids; group k fires 5x
faster (interval_min, interval_max divided by 5) during a 50 ms window starting at
k * (T - 50) / 7 ms (rounded to 1 ms), then returns to the defaults. At T = 200 ms the windows
start at 0, 21, 43, 64, 86, 107, 129 and 150 ms, so neighbouring windows overlap and the load
moves across the network in turn. The simulation runs in chunks between window edges;
an interval being waited out when the window opens or closes finishes at its old length.
"""

import time

import numpy as np

import ranvier as rv

from . import common

N_DEFAULT = 65536
C_DEFAULT = 1000
DC_DEFAULT = 50  # in-degree uniform in [C - dC, C + dC]
DELAY = 1.0  # ms
RESOLUTION = 0.1  # ms
T_DEFAULT = 200.0  # ms
BURST_GROUPS = 8
BURST_FACTOR = 5.0
BURST_MS = 50.0
CELL = {"tau": 10.0, "interval_min": 20.0, "interval_max": 40.0}  # the model's defaults (Hines et al. (2011))


def indegrees(n, c, dc, seed):
    """One in-degree per cell, uniform in [c - dc, c + dc]; the same on every rank."""
    rng = np.random.default_rng([seed, 3])
    low = max(0, c - dc)
    return rng.integers(low, c + dc + 1, size=n, dtype=np.int64)


def burst_windows(model_time, groups=BURST_GROUPS, length=BURST_MS):
    """(start, stop) in ms of each group's fast window, on the 1 ms grid."""
    span = max(0.0, model_time - length)
    starts = [round(k * span / (groups - 1)) if groups > 1 else 0.0 for k in range(groups)]
    return [(float(s), float(min(model_time, s + length))) for s in starts]


def _connect_adjacent(pop, degrees, weight):
    """Cell i <- i - 1 .. i - ceil(k_i/2) and i + 1 .. i + floor(k_i/2) (modulo N)."""
    n = len(pop)
    left = (degrees + 1) // 2
    right = degrees // 2
    syn = {"synapse_model": "static_synapse", "weight": weight, "delay": DELAY}
    spec = {"rule": "one_to_one", "allow_autapses": False}
    calls = 0
    if int(left.max(initial=0) + right.max(initial=0)) >= n:
        raise ValueError(f"adjacent topology needs in-degree < N, got in-degree {degrees.max()} and N = {n}")
    idx = np.arange(n)
    for side, counts in ((-1, left), (+1, right)):
        for d in range(1, int(counts.max(initial=0)) + 1):
            wanted = counts >= d  # targets that take an input at this offset
            if wanted.all():  # slices: (post, pre) without wrap, then the wrapped part
                if side < 0:
                    pairs = [(pop[d:], pop[: n - d]), (pop[:d], pop[n - d :])]
                else:
                    pairs = [(pop[: n - d], pop[d:]), (pop[n - d :], pop[:d])]
            else:  # some targets only; within each piece the source index grows with the target's
                src = idx + side * d
                wraps = (src < 0) | (src >= n)
                pairs = []
                for sel in (wanted & ~wraps, wanted & wraps):
                    if sel.any():
                        pairs.append((pop[idx[sel]], pop[np.sort(src[sel] % n)]))
            for post, pre in pairs:
                rv.Connect(pre, post, spec, syn)
                calls += 1
    return calls


def build(
    n=N_DEFAULT,
    c=C_DEFAULT,
    dc=DC_DEFAULT,
    weight=0.0,
    topology="random",
    threads=1,
    seed=12345,
    settings=None,
    resolution=RESOLUTION,
):
    common.reset_kernel(threads, seed, resolution, settings or {})
    t0 = time.perf_counter()
    pop = rv.Create("artificial_spiking_cell", int(n))  # the model's defaults are Hines et al.'s (2011) cell
    t_create = time.perf_counter() - t0

    degrees = indegrees(n, c, dc, seed)
    t0 = time.perf_counter()
    connect_calls = 1
    if topology == "random":
        rv.Connect(
            pop,
            pop,
            {"rule": "fixed_indegree", "indegree": degrees, "allow_autapses": False, "allow_multapses": True},
            {"synapse_model": "static_synapse", "weight": float(weight), "delay": DELAY},
        )
    elif topology == "adjacent":
        connect_calls = _connect_adjacent(pop, degrees, float(weight))
    else:
        raise ValueError(f"topology must be random or adjacent, got {topology!r}")
    t_connect = time.perf_counter() - t0
    return {
        "pop": pop,
        "degrees": degrees,
        "synapses": int(degrees.sum()),
        "t_create_wall_s": t_create,
        "t_connect_wall_s": t_connect,
        "connect_calls": connect_calls,
    }


def simulate(net, model_time, burst=False):
    """Simulates model_time ms; with burst, in chunks between the groups' window edges."""
    if not burst:
        rv.Simulate(model_time)
        return []
    pop = net["pop"]
    n = len(pop)
    size = n // BURST_GROUPS
    groups = [pop[k * size : (k + 1) * size if k < BURST_GROUPS - 1 else n] for k in range(BURST_GROUPS)]
    windows = burst_windows(model_time)
    t0 = float(rv.GetKernelStatus("biological_time"))
    edges = sorted({0.0, model_time, *[e for w in windows for e in w]})
    fast = {"interval_min": CELL["interval_min"] / BURST_FACTOR, "interval_max": CELL["interval_max"] / BURST_FACTOR}
    slow = {"interval_min": CELL["interval_min"], "interval_max": CELL["interval_max"]}
    for a, b in zip(edges[:-1], edges[1:]):
        for g, (start, stop) in zip(groups, windows):
            if start == a:
                g.set(fast)
            if stop == a:
                g.set(slow)
        rv.Simulate(b - a)
    for g, (_, stop) in zip(groups, windows):
        if stop == model_time:
            g.set(slow)
    assert abs(float(rv.GetKernelStatus("biological_time")) - t0 - model_time) < 1e-6
    return windows


def run(args):
    """Builds and simulates hines from parsed options; returns the result dict."""
    settings = common.kernel_settings(args)
    n = max(2, int(round(N_DEFAULT * args.scale))) if args.n is None else int(args.n)
    model_time = T_DEFAULT if args.time is None else float(args.time)
    warmup = 0.0 if args.warmup is None else float(args.warmup)
    if args.plot:
        common.log("note: --plot is not supported by hines; ignored")
    common.log(
        f"hines: {n} cells, C = {args.indegree} +- {args.indegree_spread}, {args.topology} topology, "
        f"weight {args.weight}, {rv.NumProcesses()} process(es) x {args.threads} thread(s), "
        f"exchange {common.exchange_name(settings)}, placement {settings['placement']}"
        + (f", dry run of {args.dry_run} ranks" if args.dry_run else "")
        + (", burst" if args.burst else "")
    )
    m = common.Measurement()
    net = build(
        n,
        args.indegree,
        args.indegree_spread,
        args.weight,
        args.topology,
        args.threads,
        args.seed,
        settings,
        args.resolution,
    )
    m.built(net["t_create_wall_s"], net["t_connect_wall_s"])
    common.log(
        f"  {net['synapses']} synapses, create {net['t_create_wall_s']:.2f} s, "
        f"connect {net['t_connect_wall_s']:.2f} s ({net['connect_calls']} Connect calls)"
    )
    if warmup > 0:
        rv.Simulate(warmup)
    m.start()
    windows = simulate(net, model_time, burst=args.burst)
    m.stop()
    extra = {
        "scale": args.scale,
        "seed": args.seed,
        "C": args.indegree,
        "indegree_spread": args.indegree_spread,
        "topology": args.topology,
        "weight": args.weight,
        "delay_ms": DELAY,
        "resolution_ms": args.resolution,
        "burst": bool(args.burst),
        "burst_windows_ms": windows,
        "warmup_ms": warmup,
        "connect_calls": net["connect_calls"],
    }
    if args.dry_run and settings["placement"] == "round_robin":
        extra["_rank0_neurons"] = common.local_share_round_robin([(int(net["pop"][0].global_id), n)], args.dry_run)
    res = m.result("hines", settings, n, net["synapses"], model_time, extra)
    common.log(
        f"  simulate {model_time:g} ms: {res['t_simulate_s']:.2f} s, {res['spikes']} spikes, "
        f"{res['rate_hz']:.1f} Hz, communicate {res['phases_s']['communicate']:.3f} s"
    )
    return res
