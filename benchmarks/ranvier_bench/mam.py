"""mam: the MAM-benchmark of Lober, Diesmann and Kunkel (2026).

A areas (default 4) of n ignore_and_fire neurons (default 20,000; ``--scale`` multiplies n)
firing at 2.5 Hz with random phases; every neuron receives K inputs (default 1,000), K/2 from
uniformly random neurons of its own area with delays normal(1.25, 0.625) ms clipped below at
d_min = 0.1 ms, and K/2 from the other areas with delays normal(5.0, 2.5) ms clipped below at
D x d_min (``--D``, default 10). Simulates 1,000 ms.

``--placement round_robin`` is the conventional strategy: round-robin neurons, every cycle a
global exchange (max_D = 1). ``--placement area`` is the structure-aware one: each area on its
own rank(s), short-range spikes exchanged among the area's ranks every cycle and long-range
spikes globally every D cycles. Cycle times are recorded on every rank (deliver + update +
collocate per cycle) and reported as mean, sd, CV and max per rank beside the phase times.
"""

import time

import ranvier as rv

from . import common

D_MIN = 0.1  # ms, the resolution and the smallest intra-area delay


def build(areas=4, n=20000, k=1000, rate=2.5, d_ratio=10):
    """Creates and connects the network; returns the populations and (t_create, t_connect)."""
    t0 = time.perf_counter()
    phase = rv.math.max(rv.random.uniform(0.0, 1.0), 1e-6)  # ignore_and_fire needs phase > 0
    pops = [rv.Create("ignore_and_fire", n, params={"rate": rate, "phase": phase}, area=f"A{a}") for a in range(areas)]
    rv.GetKernelStatus()  # places the areas (area placement waits for all of them)
    t_create = time.perf_counter() - t0
    t0 = time.perf_counter()
    intra = rv.math.max(rv.random.normal(1.25, 0.625), D_MIN)
    inter = rv.math.max(rv.random.normal(5.0, 2.5), d_ratio * D_MIN)
    for a, target in enumerate(pops):
        rv.Connect(target, target, {"rule": "fixed_indegree", "indegree": k // 2}, {"delay": intra})
        others = [p for b, p in enumerate(pops) if b != a]
        if others:
            sources = others[0]
            for p in others[1:]:
                sources = sources + p
            rv.Connect(sources, target, {"rule": "fixed_indegree", "indegree": k - k // 2}, {"delay": inter})
    return pops, t_create, time.perf_counter() - t0


def run(
    scale=1.0, threads=1, seed=12345, model_time=1000.0, areas=4, n=20000, k=1000, rate=2.5, d_ratio=10, settings=None
):
    """Builds and simulates the benchmark on every rank; returns the result dict (rank 0 prints)."""
    settings = dict(settings or {})
    conventional = settings.get("placement", "round_robin") != "area"
    settings["record_cycle_times"] = True
    common.reset_kernel(threads, seed, D_MIN, settings)
    if conventional:
        rv.SetKernelStatus({"max_D": 1})
    n_area = max(1, int(round(n * scale)))
    common.log(
        f"mam: {areas} areas x {n_area} ignore_and_fire, K = {k}, D = {d_ratio}, "
        f"{'conventional' if conventional else 'structure-aware'}"
    )
    _, t_create, t_connect = build(areas, n_area, k, rate, d_ratio)
    m = common.Measurement()
    m.built(t_create, t_connect)
    rv.Simulate(10.0)  # prepares (sorting, target tables) outside the measured interval
    m.start()
    rv.Simulate(model_time)
    m.stop()
    s = rv.GetKernelStatus()
    extra = {
        "areas": areas,
        "neurons_per_area": n_area,
        "K": k,
        "rate_target_hz": rate,
        "D_requested": d_ratio,
        "D": s["D"],
        "cycle_ms": s["cycle"],
        "min_delay_inter_ms": s["min_delay_inter"],
        "global_exchanges": s["global_exchanges"],
        "area_imbalance": s["area_imbalance"],
        "strategy": "conventional" if conventional else "structure-aware",
        "scale": scale,
        "seed": seed,
    }
    result = m.result("mam", settings, areas * n_area, areas * n_area * k, model_time, extra)
    result["cycle_times_s"] = m.cycles  # per rank, for the distributions (dropped from the JSON line)
    return result
