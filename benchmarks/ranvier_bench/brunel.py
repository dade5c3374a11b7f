"""The balanced random network of Brunel (2000) as used by brunel-small and NEST's hpc_benchmark.

One builder, :func:`build`, serves both benchmarks; they differ only in sizes, in-degrees and
eta (see :data:`SPECS` and :func:`sizes`). Every constant below is from benchmarks/README.md.
"""

import math
import time

import ranvier as rv

# Neuron constants shared by both benchmarks (iaf_psc_alpha; mV, ms, pF).
NEURON = {
    "E_L": 0.0,
    "C_m": 250.0,
    "tau_m": 10.0,
    "t_ref": 0.5,
    "V_th": 20.0,
    "V_reset": 0.0,
    "tau_syn_ex": 0.32582722403722841,
    "tau_syn_in": 0.32582722403722841,
}
TAU_MINUS = 30.0  # ms, set on the neurons when E->E synapses are plastic
STDP = {"alpha": 0.0513, "lambda": 0.1, "mu": 0.4, "tau_plus": 15.0}
PSP_PEAK_MV = 0.14  # peak of the excitatory PSP the weight J_E must produce
G = 5.0  # J_I = -G * J_E
DELAY = 1.5  # ms, every connection
RESOLUTION = 0.1  # ms
V_M_INIT = (5.7, 7.2)  # mean and sd (mV) of the initial membrane potential
WARMUP_MS = 100.0

SPECS = {
    # N_E, N_I at scale 1; C_E, C_I at scale 1; whether the in-degree scales with the network; eta
    "brunel-small": {"N_E": 20000, "N_I": 5000, "C_E": 2000, "C_I": 500, "scale_indegree": True, "eta": 0.9},
    "hpc": {"N_E": 9000, "N_I": 2250, "C_E": 9000, "C_I": 2250, "scale_indegree": False, "eta": 1.685},
}


def sizes(name, scale):
    """(N_E, N_I, C_E, C_I, eta) of benchmark `name` at `scale`.

    hpc keeps its in-degree (C_E = 9000, C_I = 2250) at every scale, as NEST's hpc_benchmark
    does; below scale 1 the sources are then drawn with repetition (multapses are on).
    brunel-small is specified at scale 1 only (N = 25,000, K = 2,500). So that a tiny run is
    possible, this implementation scales its in-degree WITH the network below and above scale 1:
    C_E = round(2000 s), C_I = round(500 s) (at least 1 each), so the connection probability
    stays 0.1 and the number of synapses grows as s**2. The external drive does not depend on
    C_E (eta * nu_thresh * C_E is independent of it), so smaller scales receive less recurrent
    inhibition and fire faster than the full-size network.
    """
    if name not in SPECS:
        raise ValueError(f"unknown benchmark {name!r}; choose one of {sorted(SPECS)}")
    if not scale > 0:
        raise ValueError(f"scale must be > 0, got scale = {scale}")
    spec = SPECS[name]
    n_e = max(1, int(round(spec["N_E"] * scale)))
    n_i = max(1, int(round(spec["N_I"] * scale)))
    if spec["scale_indegree"]:
        c_e = max(1, int(round(spec["C_E"] * scale)))
        c_i = max(1, int(round(spec["C_I"] * scale)))
    else:
        c_e, c_i = spec["C_E"], spec["C_I"]
    return n_e, n_i, c_e, c_i, spec["eta"]


def psp_peak_per_pA(tau_m, tau_syn, c_m):
    """Peak (mV) of the PSP that an alpha PSC of amplitude 1 pA causes in a LIF neuron.

    With I(t) = J e/tau_syn t exp(-t/tau_syn) and b = 1/tau_syn - 1/tau_m, the membrane obeys
    V(t) = J e / (tau_syn C_m b^2) [exp(-t/tau_m) - exp(-t/tau_syn) (1 + b t)].
    The time of the peak is found by bisection on dV/dt (positive before the peak, negative after).
    """
    if math.isclose(tau_m, tau_syn):
        raise ValueError("tau_m == tau_syn is not supported by this formula")
    b = 1.0 / tau_syn - 1.0 / tau_m

    def v(t):
        return math.e / (tau_syn * c_m * b * b) * (math.exp(-t / tau_m) - math.exp(-t / tau_syn) * (1.0 + b * t))

    def dv(t):  # d/dt of the bracket above, up to the positive prefactor
        return -math.exp(-t / tau_m) / tau_m + math.exp(-t / tau_syn) * ((1.0 + b * t) / tau_syn - b)

    lo, hi = 1e-9 * tau_syn, 50.0 * max(tau_m, tau_syn)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if dv(mid) > 0:
            lo = mid
        else:
            hi = mid
    return v(0.5 * (lo + hi))


def weights(name, scale=1.0, neuron=NEURON, psp_mv=PSP_PEAK_MV):
    """J_E, J_I (pA), nu_thresh (1/ms per input) and the Poisson rate (Hz per neuron)."""
    _, _, c_e, _, eta = sizes(name, scale)
    tau_m, tau_syn, c_m = neuron["tau_m"], neuron["tau_syn_ex"], neuron["C_m"]
    j_e = psp_mv / psp_peak_per_pA(tau_m, tau_syn, c_m)
    j_i = -G * j_e
    theta = neuron["V_th"] - neuron["E_L"]  # threshold relative to rest
    nu_thresh = theta / (c_e * j_e * tau_m / c_m * math.e * tau_syn)  # 1/ms
    p_rate = eta * nu_thresh * c_e * 1000.0  # 1/ms -> Hz
    return j_e, j_i, nu_thresh, p_rate


def build(
    name="brunel-small",
    scale=1.0,
    threads=1,
    seed=12345,
    stdp=True,
    record=False,
    record_start=WARMUP_MS,
    settings=None,
):
    """Builds benchmark `name` at `scale` in a freshly reset kernel.

    `settings`: further kernel settings for the empty kernel (placement, spike_exchange,
    dry_run, ...; see :func:`ranvier_bench.common.kernel_settings`).

    Returns a dict with the populations (E, I, all), the spike recorder (or None), the
    parameters used and the wall-clock times of the create and connect phases.
    The recorder, if any, records every neuron from `record_start` ms on.
    """
    n_e, n_i, c_e, c_i, eta = sizes(name, scale)
    j_e, j_i, nu_thresh, p_rate = weights(name, scale)

    rv.ResetKernel()
    rv.SetKernelStatus(
        {"resolution": RESOLUTION, "local_num_threads": int(threads), "rng_seed": int(seed), **(settings or {})}
    )

    t0 = time.perf_counter()
    params = dict(NEURON, V_m=rv.random.normal(*V_M_INIT))
    if stdp:
        params["tau_minus"] = TAU_MINUS
        rv.CopyModel("stdp_pl_synapse_hom", "stdp_ee", STDP)
    e_pop = rv.Create("iaf_psc_alpha", n_e, params=params)
    i_pop = rv.Create("iaf_psc_alpha", n_i, params=params)
    everyone = e_pop + i_pop  # consecutive: one range, no array of 10^8 ids
    noise = rv.Create("poisson_generator", params={"rate": p_rate})
    recorder = None
    if record:
        recorder = rv.Create("spike_recorder", params={"start": float(record_start)})
    t_create = time.perf_counter() - t0

    t0 = time.perf_counter()
    ee_model = "stdp_ee" if stdp else "static_synapse"
    indegree = {"rule": "fixed_indegree", "allow_autapses": False, "allow_multapses": True}
    rv.Connect(e_pop, e_pop, dict(indegree, indegree=c_e), {"synapse_model": ee_model, "weight": j_e, "delay": DELAY})
    rv.Connect(
        e_pop, i_pop, dict(indegree, indegree=c_e), {"synapse_model": "static_synapse", "weight": j_e, "delay": DELAY}
    )
    rv.Connect(
        i_pop,
        everyone,
        dict(indegree, indegree=c_i),
        {"synapse_model": "static_synapse", "weight": j_i, "delay": DELAY},
    )
    rv.Connect(noise, everyone, "all_to_all", {"synapse_model": "static_synapse", "weight": j_e, "delay": DELAY})
    if recorder is not None:
        rv.Connect(everyone, recorder)
    t_connect = time.perf_counter() - t0

    return {
        "E": e_pop,
        "I": i_pop,
        "all": everyone,
        "noise": noise,
        "recorder": recorder,
        "N_E": n_e,
        "N_I": n_i,
        "C_E": c_e,
        "C_I": c_i,
        "eta": eta,
        "J_E": j_e,
        "J_I": j_i,
        "nu_thresh": nu_thresh,
        "poisson_rate_hz": p_rate,
        "stdp": stdp,
        "t_create_wall_s": t_create,
        "t_connect_wall_s": t_connect,
    }
