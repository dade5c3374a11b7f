"""brunel-small in NEST and in Ranvier, in one invocation, each peer in its own process (so
that each process's resident memory is its own), and the ratios NEST / Ranvier.

    python benchmarks/compare_nest.py --threads 1 2 --scale 1 --time 200
    python benchmarks/compare_nest.py --rates --scale 0.5 --seeds 1 2 3   # firing-rate check
    python benchmarks/compare_nest.py --dopamine --scale 0.2 --threads 1 2  # neuromodulated E->E
    python benchmarks/compare_nest.py --multiplicative --scale 0.2 --threads 1  # stdp_synapse on E->E

Both peers build the same model (ranvier_bench.brunel's constants: iaf_psc_alpha, fixed
in-degree, autapses off, multapses on, stdp_pl_synapse_hom on E->E unless --no-stdp, Poisson
drive per neuron; --multiplicative: stdp_synapse with MULTIPLICATIVE's parameters on E->E
instead; --dopamine: stdp_dopamine_synapse on E->E instead, with DOPAMINE's
parrots firing Poisson trains into a volume_transmitter that updates every E->E synapse each
min_delay, as in Potjans et al. 2010). Times: create + connect (construction), the first 10 ms of simulation
(prepare: NEST's calibration and Ranvier's sorting happen there), then --time ms after a
100 ms warm-up. Memory: VmRSS after construction and after the first 10 ms (preparation),
and VmHWM, per process; Ranvier adds its work counts and core nanoseconds per unit. The last stdout line
is one JSON object with both results and the ratios; NEST is skipped when not importable.
"""

import argparse
import json
import subprocess
import sys
import time


def rss_mib(field="VmRSS"):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return float(line.split()[1]) / 1024
    return 0.0


# The dopamine-modulated variant: a population of parrots repeating Poisson trains drives the
# volume transmitter; eligibility and weights of E->E synapses stay within [0, 2 J_E].
DOPAMINE = {
    "neurons": 50,
    "rate": 5.0,
    "synapse": {"A_plus": 0.01, "A_minus": 0.015, "tau_plus": 15.0, "tau_c": 1000.0, "tau_n": 200.0, "b": 0.0},
}


# Multiplicative STDP (Guetig et al. 2003 with mu = 1): depression and facilitation balance
# (alpha tau_minus = tau_plus), weights stay within [0, 2 J_E].
MULTIPLICATIVE = {"tau_plus": 15.0, "lambda": 0.01, "alpha": 0.5, "mu_plus": 1.0, "mu_minus": 1.0}


def ee_model(sim, rule, j_e):
    """The E->E synapse model, "ee", by its rule: "pl", "multiplicative", "dopamine" or "static"."""
    from ranvier_bench import brunel

    if rule == "dopamine":
        vt = sim.Create("volume_transmitter")
        dopa = sim.Create("parrot_neuron", DOPAMINE["neurons"])
        sim.Connect(sim.Create("poisson_generator", params={"rate": DOPAMINE["rate"]}), dopa)
        sim.Connect(dopa, vt, syn_spec={"delay": brunel.DELAY})
        params = {**DOPAMINE["synapse"], "Wmin": 0.0, "Wmax": 2.0 * j_e, "volume_transmitter": vt}
        sim.CopyModel("stdp_dopamine_synapse", "ee", params)
    elif rule == "multiplicative":
        sim.CopyModel("stdp_synapse", "ee", {**MULTIPLICATIVE, "Wmax": 2.0 * j_e})
    else:
        sim.CopyModel(
            "stdp_pl_synapse_hom" if rule == "pl" else "static_synapse", "ee", brunel.STDP if rule == "pl" else {}
        )


def build_and_run(sim, peer, scale, threads, seed, rule, model_time):
    """The same script for both simulators (their APIs agree on everything used here)."""
    from ranvier_bench import brunel

    n_e, n_i, c_e, c_i, _ = brunel.sizes("brunel-small", scale)
    j_e, j_i, _, p_rate = brunel.weights("brunel-small", scale)
    sim.ResetKernel()
    sim.SetKernelStatus({"resolution": brunel.RESOLUTION, "local_num_threads": threads, "rng_seed": seed})
    t0 = time.perf_counter()
    params = {**brunel.NEURON, "tau_minus": brunel.TAU_MINUS}
    exc = sim.Create("iaf_psc_alpha", n_e, params=params)
    inh = sim.Create("iaf_psc_alpha", n_i, params=params)
    (exc + inh).set(V_m=sim.random.normal(*brunel.V_M_INIT))
    noise = sim.Create("poisson_generator", params={"rate": p_rate})
    t_create = time.perf_counter() - t0
    t0 = time.perf_counter()
    ee_model(sim, rule, j_e)
    rule = {"allow_autapses": False, "allow_multapses": True, "rule": "fixed_indegree"}
    sim.Connect(noise, exc + inh, "all_to_all", {"weight": j_e, "delay": brunel.DELAY})
    sim.Connect(exc, exc, {**rule, "indegree": c_e}, {"synapse_model": "ee", "weight": j_e, "delay": brunel.DELAY})
    sim.Connect(exc, inh, {**rule, "indegree": c_e}, {"weight": j_e, "delay": brunel.DELAY})
    sim.Connect(inh, exc + inh, {**rule, "indegree": c_i}, {"weight": j_i, "delay": brunel.DELAY})
    t_connect = time.perf_counter() - t0
    rss_built = rss_mib()
    t0 = time.perf_counter()
    sim.Simulate(10.0)
    t_prepare = time.perf_counter() - t0
    rss_prepared = rss_mib()
    sim.Simulate(brunel.WARMUP_MS - 10.0)
    before = sim.GetKernelStatus()
    t0 = time.perf_counter()
    sim.Simulate(model_time)
    t_sim = time.perf_counter() - t0
    after = sim.GetKernelStatus()
    spikes = after["local_spike_counter"]  # of the last Simulate call, in both
    per_unit = ranvier_per_unit(before, after, threads) if peer == "ranvier" else {}
    n = n_e + n_i
    return {
        **per_unit,
        "peer": peer,
        "version": sim.__version__,
        "threads": threads,
        "scale": scale,
        "seed": seed,
        "ee_rule": rule,
        "neurons": n,
        "synapses": n * (c_e + c_i),
        "t_create_s": t_create,
        "t_connect_s": t_connect,
        "t_construction_s": t_create + t_connect,
        "t_prepare_s": t_prepare,
        "t_simulate_s": t_sim,
        "model_time_ms": model_time,
        "rtf": t_sim / (model_time / 1000),
        "rss_after_build_mib": rss_built,
        "rss_after_preparation_mib": rss_prepared,
        "rss_peak_mib": rss_mib("VmHWM"),
        "rate_hz": spikes / n / (model_time / 1000),
    }


def ranvier_per_unit(before, after, threads):
    """Work done in the measured window and core nanoseconds per unit of it."""
    diff = lambda key: after[key] - before[key]  # noqa: E731
    events = diff("synaptic_events_static") + diff("synaptic_events_plastic")
    return {
        "work": {
            k: diff(k) for k in ("synaptic_events_static", "synaptic_events_plastic", "neuron_updates", "poisson_draws")
        },
        "phases_s": {p: diff(f"time_{p}") for p in ("deliver", "stimulate", "update", "collocate")},
        "core_ns_per_unit": {
            "deliver_per_synaptic_event": diff("time_deliver") * threads / events * 1e9 if events else None,
            "stimulate_per_poisson_draw": diff("time_stimulate") * threads / diff("poisson_draws") * 1e9,
            "update_per_neuron_update": diff("time_update") * threads / diff("neuron_updates") * 1e9,
        },
    }


def run_peer(args):
    if args.run == "nest":
        import nest

        nest.verbosity = nest.VerbosityLevel.ERROR
        sim = nest
    else:
        import ranvier as sim
    result = build_and_run(sim, args.run, args.scale[0], args.threads[0], args.seeds[0], ee_rule(args), args.time)
    if args.run == "ranvier":
        s = sim.GetKernelStatus()
        result.update(
            {
                "bytes_per_static_synapse": s["bytes_per_static_synapse"],
                "bytes_per_plastic_synapse": s["bytes_per_plastic_synapse"],
            }
        )
    print(json.dumps(result), flush=True)


def spawn(peer, scale, threads, seed, args):
    cmd = (
        [
            sys.executable,
            __file__,
            "--run",
            peer,
            "--scale",
            str(scale),
            "--threads",
            str(threads),
            "--seeds",
            str(seed),
            "--time",
            str(args.time),
        ]
        + (["--no-stdp"] if args.no_stdp else [])
        + (["--dopamine"] if args.dopamine else [])
        + (["--multiplicative"] if args.multiplicative else [])
    )
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"{peer} failed:\n{done.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def ee_rule(args):
    if args.no_stdp:
        return "static"
    return "dopamine" if args.dopamine else "multiplicative" if args.multiplicative else "pl"


def nest_available():
    return subprocess.run([sys.executable, "-c", "import nest"], capture_output=True).returncode == 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--run", choices=("nest", "ranvier"), help=argparse.SUPPRESS)
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--scale", type=float, nargs="+", default=[1.0])
    p.add_argument("--seeds", type=int, nargs="+", default=[12345])
    p.add_argument("--time", type=float, default=200.0, help="measured model time in ms (default 200)")
    p.add_argument("--no-stdp", action="store_true")
    p.add_argument("--dopamine", action="store_true", help="stdp_dopamine_synapse on E->E (see DOPAMINE)")
    p.add_argument("--multiplicative", action="store_true", help="stdp_synapse on E->E (see MULTIPLICATIVE)")
    p.add_argument("--rates", action="store_true", help="check that the firing rates agree within 5 %%")
    args = p.parse_args()
    if args.run:
        return run_peer(args)
    peers = ["ranvier"] + (["nest"] if nest_available() else [])
    results = []
    for scale in args.scale:
        for threads in args.threads:
            for seed in args.seeds:
                for peer in peers:
                    r = spawn(peer, scale, threads, seed, args)
                    if r:
                        results.append(r)
                        print(
                            f"{peer:8s} T={threads} seed={seed}: construction {r['t_construction_s']:.2f} s, "
                            f"prepare {r['t_prepare_s']:.2f} s, rtf {r['rtf']:.2f}, rss {r['rss_after_build_mib']:.0f} MiB "
                            f"built / {r['rss_after_preparation_mib']:.0f} MiB prepared, "
                            f"rate {r['rate_hz']:.2f} Hz",
                            file=sys.stderr,
                            flush=True,
                        )
    ratios = []
    for r in results:
        if r["peer"] != "ranvier":
            continue
        match = [n for n in results if n["peer"] == "nest" and all(n[k] == r[k] for k in ("threads", "scale", "seed"))]
        if match:
            n = match[0]
            ratios.append(
                {
                    "threads": r["threads"],
                    "scale": r["scale"],
                    "seed": r["seed"],
                    "construction": n["t_construction_s"] / r["t_construction_s"],
                    "construction_with_prepare": (n["t_construction_s"] + n["t_prepare_s"])
                    / (r["t_construction_s"] + r["t_prepare_s"]),
                    "simulation": n["t_simulate_s"] / r["t_simulate_s"],
                    "rss_after_build": n["rss_after_build_mib"] / r["rss_after_build_mib"],
                    "rss_after_preparation": n["rss_after_preparation_mib"] / r["rss_after_preparation_mib"],
                    "rate_ranvier_over_nest": r["rate_hz"] / n["rate_hz"] if n["rate_hz"] else None,
                }
            )
    summary = {"benchmark": "compare-nest", "results": results, "ratios_nest_over_ranvier": ratios}
    if args.rates and ratios:
        mean = lambda peer: (
            sum(x["rate_hz"] for x in results if x["peer"] == peer)
            / len(  # noqa: E731
                [x for x in results if x["peer"] == peer]
            )
        )
        summary["rate_check"] = {
            "ranvier_hz": mean("ranvier"),
            "nest_hz": mean("nest"),
            "relative_difference": abs(mean("ranvier") / mean("nest") - 1),
            "within_5_percent": abs(mean("ranvier") / mean("nest") - 1) <= 0.05,
        }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
