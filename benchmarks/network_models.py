"""Two reference networks on Ranvier and, with --peer-python, on NEST 3.10 in the same
invocation: firing rate, CV of the inter-spike intervals, construction and simulation times,
per seed and averaged over seeds, and whether rate and CV agree within --tolerance. Prints JSON.

- brunel: NEST's examples/pynest/brunel_delta_nest.py (Brunel 2000, iaf_psc_delta): NE = 4 order,
  NI = order, fixed in-degrees epsilon = 0.1, J = 0.1 mV, g = 5, eta = 2, delay 1.5 ms, all
  neurons starting at V_m = 0 and driven by one poisson_generator at eta times the threshold rate.
- coba: benchmark 1 of Brette et al. (2007) (after Vogels and Abbott 2005), as PyNN's
  VAbenchmarks.py builds it: 3200 + 800 iaf_cond_exp, pairwise connection probability 0.02,
  4 nS excitatory and 51 nS inhibitory conductances, delay 0.2 ms, V_m uniform in
  [V_reset, V_th], kicked off by 20 Poisson trains of 100 Hz for 50 ms (p = 0.01, 100 nS).

    nice -n 5 .venv/bin/python benchmarks/network_models.py --seeds 1 2 3 \
        --peer-python /work/peers-nest/bin/python

Rates and CVs are taken over [--t-start, --t-sim] (after the synchronous start of brunel and
the kick of coba), the CV over the neurons with at least three spikes there. Times are wall
clock and CPU time of the process (all threads): on a shared machine the CPU time is the steadier. Each simulator and
seed runs in a fresh process of its own interpreter (this file with --child)."""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np


def brunel(nest, order):
    """brunel_delta_nest.py's network; returns every neuron (excitatory first)."""
    theta, tau_m, J, g, eta, epsilon, delay = 20.0, 20.0, 0.1, 5.0, 2.0, 0.1, 1.5
    NE, NI = 4 * order, order
    CE, CI = int(epsilon * NE), int(epsilon * NI)
    p_rate = 1000.0 * eta * theta / (J * CE * tau_m) * CE
    params = {"C_m": 1.0, "tau_m": tau_m, "t_ref": 2.0, "E_L": 0.0, "V_reset": 0.0, "V_m": 0.0, "V_th": theta}
    ex = nest.Create("iaf_psc_delta", NE, params=params)
    inh = nest.Create("iaf_psc_delta", NI, params=params)
    noise = nest.Create("poisson_generator", params={"rate": p_rate})
    nest.CopyModel("static_synapse", "excitatory", {"weight": J, "delay": delay})
    nest.CopyModel("static_synapse", "inhibitory", {"weight": -g * J, "delay": delay})
    nest.Connect(noise, ex, syn_spec="excitatory")
    nest.Connect(noise, inh, syn_spec="excitatory")
    nest.Connect(ex, ex + inh, {"rule": "fixed_indegree", "indegree": CE}, "excitatory")
    nest.Connect(inh, ex + inh, {"rule": "fixed_indegree", "indegree": CI}, "inhibitory")
    return ex + inh


def coba(nest, order):
    """Brette et al. (2007) benchmark 1 (order is unused: the benchmark has 4000 neurons)."""
    del order
    n_exc, n_inh, p, delay = 3200, 800, 0.02, 0.2
    # 20000 um^2 of 1 uF/cm^2 and 5e-5 S/cm^2: C_m = 200 pF, g_L = 10 nS (tau_m = 20 ms)
    params = {
        "C_m": 200.0,
        "g_L": 10.0,
        "E_L": -60.0,
        "V_th": -50.0,
        "V_reset": -60.0,
        "t_ref": 5.0,
        "E_ex": 0.0,
        "E_in": -80.0,
        "tau_syn_ex": 5.0,
        "tau_syn_in": 10.0,
        "I_e": 0.0,
        "V_m": nest.random.uniform(-60.0, -50.0),
    }
    cells = nest.Create("iaf_cond_exp", n_exc + n_inh, params=params)
    exc, inh = cells[:n_exc], cells[n_exc:]
    # PyNN's SpikeSourcePoisson on NEST: a generator behind parrots, so each source's train is
    # shared by its targets
    kick = nest.Create("poisson_generator", params={"rate": 100.0, "start": 0.0, "stop": 50.0})
    sources = nest.Create("parrot_neuron", 20)
    nest.Connect(kick, sources)
    nest.Connect(sources, cells, {"rule": "pairwise_bernoulli", "p": 0.01}, {"weight": 100.0, "delay": delay})
    nest.Connect(exc, cells, {"rule": "pairwise_bernoulli", "p": p}, {"weight": 4.0, "delay": delay})
    nest.Connect(inh, cells, {"rule": "pairwise_bernoulli", "p": p}, {"weight": -51.0, "delay": delay})
    return cells


NETWORKS = {"brunel": brunel, "coba": coba}


def statistics(senders, times, gids, t_start, t_stop):
    """Mean rate (Hz) over [t_start, t_stop] and mean CV of the ISIs of neurons with >= 3 spikes."""
    keep = (times >= t_start) & (times <= t_stop)
    senders, times = senders[keep], times[keep]
    rate = len(times) / len(gids) / ((t_stop - t_start) / 1000.0)
    order = np.lexsort((times, senders))
    senders, times = senders[order], times[order]
    cvs = []
    for train in np.split(times, np.flatnonzero(np.diff(senders)) + 1):
        if len(train) >= 3:
            isi = np.diff(train)
            cvs.append(isi.std() / isi.mean())
    return {"rate_hz": float(rate), "cv_isi": float(np.mean(cvs)) if cvs else float("nan"), "neurons_with_cv": len(cvs)}


def child(args):
    if args.simulator == "ranvier":
        import ranvier as nest
    else:
        import nest

        nest.set_verbosity("M_ERROR")
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.1, "local_num_threads": args.threads, "rng_seed": args.seed})
    tic, cpu = time.perf_counter(), time.process_time()
    cells = NETWORKS[args.network](nest, args.order)
    recorder = nest.Create("spike_recorder")
    nest.Connect(cells, recorder)
    build, build_cpu = time.perf_counter() - tic, time.process_time() - cpu
    tic, cpu = time.perf_counter(), time.process_time()
    nest.Simulate(args.t_sim)
    simulate, simulate_cpu = time.perf_counter() - tic, time.process_time() - cpu
    events = recorder.get("events")
    result = statistics(
        np.asarray(events["senders"]), np.asarray(events["times"]), cells.tolist(), args.t_start, args.t_sim
    )
    result.update(
        {
            "neurons": len(cells),
            "connections": int(nest.GetKernelStatus("num_connections")),
            "build_s": build,
            "simulate_s": simulate,
            "build_cpu_s": build_cpu,
            "simulate_cpu_s": simulate_cpu,
        }
    )
    print(json.dumps(result))


def spawn(python, simulator, network, args, seed):
    command = [
        "nice",
        "-n",
        "5",
        python,
        os.path.abspath(__file__),
        "--child",
        "--simulator",
        simulator,
        "--network",
        network,
        "--seed",
        str(seed),
        "--order",
        str(args.order),
        "--threads",
        str(args.threads),
        "--t-sim",
        str(args.t_sim),
        "--t-start",
        str(args.t_start),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{simulator} {network} seed {seed} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def mean(runs):
    keys = ("rate_hz", "cv_isi", "build_s", "simulate_s", "build_cpu_s", "simulate_cpu_s", "neurons", "connections")
    return {k: float(np.mean([r[k] for r in runs])) for k in keys}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--networks", nargs="+", choices=sorted(NETWORKS), default=sorted(NETWORKS))
    parser.add_argument("--order", type=int, default=500, help="brunel's order (2500 in NEST's example)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--t-sim", type=float, default=1000.0)
    parser.add_argument("--t-start", type=float, default=200.0, help="start of the analysed window (ms)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--tolerance", type=float, default=0.1, help="relative rate and CV agreement")
    parser.add_argument("--peer-python", help="a Python with NEST 3.10")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--simulator", default="ranvier", help=argparse.SUPPRESS)
    parser.add_argument("--network", default="brunel", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    result = {
        "order": args.order,
        "threads": args.threads,
        "t_sim_ms": args.t_sim,
        "window_ms": [args.t_start, args.t_sim],
        "seeds": args.seeds,
        "tolerance": args.tolerance,
    }
    for network in args.networks:
        out = {"ranvier_runs": [spawn(sys.executable, "ranvier", network, args, s) for s in args.seeds]}
        out["ranvier"] = mean(out["ranvier_runs"])
        if args.peer_python:
            out["nest_runs"] = [spawn(args.peer_python, "nest", network, args, s) for s in args.seeds]
            out["nest"] = mean(out["nest_runs"])
            ours, nest = out["ranvier"], out["nest"]
            out["ratio_ranvier_over_nest"] = {
                k: ours[k] / nest[k]
                for k in ("rate_hz", "cv_isi", "build_s", "simulate_s", "build_cpu_s", "simulate_cpu_s")
            }
            out["agree"] = {k: abs(ours[k] / nest[k] - 1.0) <= args.tolerance for k in ("rate_hz", "cv_isi")}
        result[network] = out
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
