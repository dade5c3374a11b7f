"""Networks the MPI tests run under several partitions; each returns what must not change."""

import importlib.util
import pathlib

import numpy as np

import ranvier as rv


def brunel(n_e=400, n_i=100, t_sim=40.0, model="iaf_psc_alpha", pieces=None, before_each=None):
    """pieces: the Simulate calls' durations (ms), two halves of t_sim unless given;
    before_each(k): called before the k-th of them (tests switch settings between calls)."""
    params = {
        "E_L": 0.0,
        "V_th": 20.0,
        "V_reset": 0.0,
        "t_ref": 2.0,
        "tau_m": 20.0,
        "tau_syn_ex": 0.5,
        "tau_syn_in": 0.5,
        "tau_minus": 30.0,
    }
    exc = rv.Create(model, n_e, params={**params, "V_m": rv.random.normal(5.7, 7.2)})
    inh = rv.Create(model, n_i, params={**params, "V_m": rv.random.uniform(0.0, 20.0)})
    rv.CopyModel("stdp_pl_synapse_hom", "stdp_ee", {"alpha": 0.0513, "lambda": 0.1, "mu": 0.4, "tau_plus": 15.0})
    noise = rv.Create("poisson_generator", params={"rate": 20000.0})
    rv.Connect(noise, exc + inh, syn_spec={"weight": 40.0, "delay": 1.5})
    rv.Connect(
        exc,
        exc,
        {"rule": "fixed_indegree", "indegree": 40, "allow_autapses": False},
        {"synapse_model": "stdp_ee", "weight": 40.0, "delay": rv.random.uniform(1.0, 2.0)},
    )
    rv.Connect(exc, inh, {"rule": "fixed_indegree", "indegree": 40}, {"weight": 40.0, "delay": 1.5})
    rv.Connect(
        inh,
        exc + inh,
        {"rule": "pairwise_bernoulli", "p": 0.1},
        {"weight": rv.random.normal(-200.0, 20.0), "delay": 1.2},
    )
    sr = rv.Create("spike_recorder")
    rv.Connect(exc + inh, sr)
    vm = rv.Create("voltmeter", params={"interval": 0.5})
    rv.Connect(vm, exc[:3] + inh[-2:])
    for k, t in enumerate(pieces or (t_sim / 2, t_sim / 2)):
        if before_each:
            before_each(k)
        rv.Simulate(t)
    return {
        "senders": sr.events["senders"],
        "times": sr.events["times"],
        "V_m": vm.events["V_m"],
        "weights": np.asarray(rv.GetConnections(synapse_model="stdp_ee", gather=True).weight),
        "V_end": np.asarray(exc.get("V_m")),
    }


def hines(n=512, c=50, t_sim=60.0):
    cells = rv.Create("artificial_spiking_cell", n)
    rv.Connect(cells, cells, {"rule": "fixed_indegree", "indegree": c}, {"weight": 0.01, "delay": 1.0})
    sr = rv.Create("spike_recorder")
    rv.Connect(cells, sr)
    rv.Simulate(t_sim)
    return {"senders": sr.events["senders"], "times": sr.events["times"]}


def spatial(t_sim=40.0):
    """Two layers (a periodic grid, free positions drawn from a parameter) connected by
    every spatial rule, with masks and distance-dependent p, weights and delays."""
    sd = rv.spatial_distributions
    exc = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([20, 20], extent=[1.0, 1.0], edge_wrap=True))
    inh = rv.Create("iaf_psc_alpha", 100, positions=rv.spatial.free(rv.random.uniform(-0.5, 0.5), num_dimensions=2))
    noise = rv.Create("poisson_generator", params={"rate": 20000.0})
    rv.Connect(noise, exc + inh, syn_spec={"weight": 40.0, "delay": 1.5})
    rv.Connect(
        exc,
        exc,
        {
            "rule": "pairwise_bernoulli",
            "p": sd.gaussian(rv.spatial.distance, std=0.1),
            "mask": {"circular": {"radius": 0.25}},
            "allow_autapses": False,
        },
        {"weight": rv.random.uniform(20.0, 30.0) + rv.spatial.distance, "delay": 1.0 + 4.0 * rv.spatial.distance},
    )
    rv.Connect(
        exc,
        inh,
        {"rule": "fixed_indegree", "indegree": 30, "mask": {"doughnut": {"inner_radius": 0.05, "outer_radius": 0.3}}},
        {"weight": 30.0, "delay": 1.5},
    )
    rv.Connect(
        inh,
        exc,
        {
            "rule": "fixed_outdegree",
            "outdegree": 20,
            "mask": {"rectangular": {"lower_left": [-0.2, -0.2], "upper_right": [0.2, 0.3]}},
            "p": sd.exponential(rv.spatial.distance, beta=0.2),
        },
        {"weight": rv.random.normal(-150.0, 20.0), "delay": 1.2},
    )
    sr = rv.Create("spike_recorder")
    rv.Connect(exc + inh, sr)
    rv.Simulate(t_sim)
    c = {k: np.asarray(v) for k, v in rv.GetConnections(exc + inh, exc + inh, gather=True).get().items()}
    order = np.lexsort((c["weight"], c["target"], c["source"]))
    return {
        "senders": sr.events["senders"],
        "times": sr.events["times"],
        "sources": c["source"][order],
        "targets": c["target"][order],
        "weights": c["weight"][order],
        "delays": c["delay"][order],
    }


def stimulators(t_sim=40.0):
    """Every random stimulating device: spike generators into parrots, current generators into
    neurons that integrate them (no spikes), over two Simulate calls; the parrots drive
    gif_psc_exp neurons, which fire at random."""
    parrots = rv.Create("parrot_neuron", 24)
    trains = rv.Create("spike_recorder")  # records the generators' own trains to it
    for model, params in [
        ("sinusoidal_poisson_generator", {"rate": 800.0, "amplitude": 500.0, "frequency": 40.0}),
        ("inhomogeneous_poisson_generator", {"rate_times": [5.0, 20.0], "rate_values": [900.0, 300.0]}),
        ("mip_generator", {"rate": 1500.0, "p_copy": 0.4, "start": 3.0}),
        ("pulsepacket_generator", {"pulse_times": [10.0, 25.0], "activity": 20, "sdev": 3.0}),
        ("poisson_generator", {"rate": 600.0, "stop": 30.0}),
        ("gamma_sup_generator", {"rate": 300.0, "gamma_shape": 3, "n_proc": 4}),
    ]:
        generator = rv.Create(model, params=params)
        rv.Connect(generator, parrots, syn_spec={"delay": 1.0})
        rv.Connect(generator, trains, syn_spec={"delay": 1.5})
    neurons = rv.Create("iaf_psc_alpha", 12, params={"V_th": 1e6})
    noise = rv.Create(
        "noise_generator",
        params={"mean": 10.0, "std": 100.0, "dt": 0.3, "std_mod": 50.0, "frequency": 30.0, "start": 2.0},
    )
    rv.Connect(noise, neurons, syn_spec={"delay": 0.5})
    rv.Connect(rv.Create("ac_generator", params={"amplitude": 40.0, "frequency": 25.0}), neurons)
    gifs = rv.Create(
        "gif_psc_exp",
        8,
        params={"I_e": 100.0, "lambda_0": 20.0, "q_sfa": [2.0], "tau_sfa": [30.0], "q_stc": [20.0], "tau_stc": [10.0]},
    )
    rv.Connect(parrots[:8], gifs, "one_to_one", {"weight": 80.0, "delay": 1.0})
    sr = rv.Create("spike_recorder")
    rv.Connect(parrots + gifs, sr)
    vm = rv.Create("voltmeter", params={"interval": 0.5})
    rv.Connect(vm, neurons)
    rv.Simulate(t_sim / 2)
    rv.Simulate(t_sim / 2)
    return {
        "senders": sr.events["senders"],
        "times": sr.events["times"],
        "V_m": vm.events["V_m"],
        "train_senders": trains.events["senders"],
        "train_times": trains.events["times"],
    }


SMALL_BALL_AND_STICK = {
    "morphology": {
        "branches": [
            {"name": "soma", "length": 20.0, "diameter": 20.0},
            {"name": "dend", "parent": "soma", "length": 100.0, "diameter": 1.0},
        ]
    },
    "cv_policy": {"per_branch": {"dend": 5}},
    "Ra": 100.0,
    "mechanisms": {"soma": {"hh": {}}, "dend": {"pas": {"g": 0.001, "e": -65.0}}},
    "synapses": {"syn": {"model": "expsyn", "location": ["dend", 0.5], "tau": 2.0}},
}


def cable(t_sim=60.0):
    """A ring of cable cells started by one event, and a random network of cable cells and
    iaf_psc_exp neurons driving each other."""
    ring = rv.Create("cable_cell", 8, params=SMALL_BALL_AND_STICK)
    rv.Connect(ring[:-1], ring[1:], "one_to_one", {"weight": 0.05, "delay": 4.0, "receptor_type": "syn"})
    rv.Connect(ring[-1:], ring[:1], "one_to_one", {"weight": 0.05, "delay": 4.0, "receptor_type": "syn"})
    start = rv.Create("spike_generator", params={"spike_times": [1.0]})
    rv.Connect(start, ring[:1], syn_spec={"weight": 0.05, "delay": 1.0, "receptor_type": "syn"})
    cells = rv.Create("cable_cell", 10, params=SMALL_BALL_AND_STICK)
    points = rv.Create("iaf_psc_exp", 20, params={"I_e": 400.0})
    rv.Connect(
        points,
        cells,
        {"rule": "fixed_indegree", "indegree": 5},
        {"weight": rv.random.uniform(0.005, 0.02), "delay": 2.0, "receptor_type": "syn"},
    )
    rv.Connect(cells, points, {"rule": "fixed_indegree", "indegree": 3}, {"weight": 50.0, "delay": 1.5})
    sr = rv.Create("spike_recorder")
    rv.Connect(ring + cells + points, sr)
    vm = rv.Create("multimeter", params={"record_from": ["V_m"], "location": ["dend", 0.9], "interval": 0.5})
    rv.Connect(vm, cells[:4])
    rv.Simulate(t_sim / 2)
    rv.Simulate(t_sim / 2)
    return {"senders": sr.events["senders"], "times": sr.events["times"], "V_m": vm.events["V_m"]}


def cable_per_cell(t_sim=40.0):
    """Cable cells whose conductances, synaptic time constant, initial voltage and clamp are drawn
    per cell (random Parameters), driving each other and iaf_psc_exp neurons."""
    cells = rv.Create(
        "cable_cell",
        16,
        params={
            **SMALL_BALL_AND_STICK,
            "V_init": rv.random.uniform(-70.0, -60.0),
            "mechanisms": {
                "soma": {"hh": {"gnabar": rv.random.normal(0.12, 0.01)}},
                "dend": {"pas": {"g": 0.001, "e": -65.0}},
            },
            "synapses": {"syn": {"model": "expsyn", "location": ["dend", 0.5], "tau": rv.random.uniform(1.0, 3.0)}},
            "current_clamps": [
                {
                    "location": ["soma", 0.5],
                    "delay": rv.random.uniform(0.0, 10.0),
                    "duration": 1e9,
                    "amplitude": rv.random.uniform(0.0, 0.15),
                }
            ],
        },
    )
    points = rv.Create("iaf_psc_exp", 10, params={"I_e": 380.0})
    rv.Connect(
        cells, cells, {"rule": "fixed_indegree", "indegree": 3}, {"weight": 0.01, "delay": 2.0, "receptor_type": "syn"}
    )
    rv.Connect(
        points, cells, {"rule": "fixed_indegree", "indegree": 2}, {"weight": 0.01, "delay": 1.5, "receptor_type": "syn"}
    )
    rv.Connect(cells, points, {"rule": "fixed_indegree", "indegree": 3}, {"weight": 50.0, "delay": 1.5})
    sr = rv.Create("spike_recorder")
    rv.Connect(cells + points, sr)
    vm = rv.Create("voltmeter", params={"interval": 0.5})
    rv.Connect(vm, cells)
    rv.Simulate(t_sim)
    return {
        "senders": sr.events["senders"],
        "times": sr.events["times"],
        "V_m": vm.events["V_m"],
        "vm_senders": vm.events["senders"],
    }


def multisynapse(t_sim=40.0):
    """Multisynapse neurons with three receptor ports each (tau_syn grown after another
    population was connected, so their input columns move), glif_psc neurons with two,
    three-compartment neurons with nine (spikes at six, currents at three), cm_default cells,
    Clopath and Urbanczik neurons learning through their synapses, iaf_tum_2000 and iaf_bw_2001
    cells whose spikes carry a number, gif_pop_psc_exp populations, driven by noise, a current and each other; connections whose
    receptor_type is drawn."""
    other = rv.Create("iaf_psc_exp", 20, params={"I_e": 380.0, "delta": 0.5, "rho": 5.0})  # a soft threshold
    cells = rv.Create("iaf_psc_alpha_multisynapse", 60, params={"I_e": rv.random.uniform(300.0, 420.0)})
    exp_cells = rv.Create("iaf_psc_exp_multisynapse", 40)
    noise = rv.Create("poisson_generator", params={"rate": 3000.0})
    rv.Connect(noise, other, syn_spec={"weight": 20.0})
    cells.set(tau_syn=[0.5, 2.0, 6.0])
    exp_cells.set(tau_syn=[1.0, 4.0, 8.0], I_e=360.0)
    rv.Connect(noise, cells + exp_cells, syn_spec={"weight": 40.0, "receptor_type": 1})
    rv.Connect(
        cells,
        cells + exp_cells,
        {"rule": "fixed_indegree", "indegree": 8},
        {"weight": 30.0, "delay": rv.random.uniform(1.0, 2.0), "receptor_type": 2},
    )
    rv.Connect(
        exp_cells + other,
        cells + exp_cells,
        {"rule": "fixed_indegree", "indegree": 5},
        {"weight": -90.0, "delay": 1.5, "receptor_type": 3},
    )
    rv.Connect(rv.Create("noise_generator", params={"mean": 20.0, "std": 80.0}), exp_cells)
    # GLIF 4 cells (alpha currents at two ports, after-spike currents, spike-dependent threshold)
    glifs = rv.Create(
        "glif_psc",
        20,
        params={
            "spike_dependent_threshold": True,
            "after_spike_currents": True,
            "tau_syn": [1.0, 3.0],
            "V_th": rv.random.uniform(-56.0, -50.0),
        },
    )
    rv.Connect(noise, glifs, syn_spec={"weight": 30.0, "receptor_type": 1})
    rv.Connect(
        cells, glifs, {"rule": "fixed_indegree", "indegree": 4}, {"weight": 25.0, "delay": 1.2, "receptor_type": 1}
    )
    rv.Connect(
        glifs, cells, {"rule": "fixed_indegree", "indegree": 2}, {"weight": -40.0, "delay": 1.1, "receptor_type": 3}
    )
    mc = rv.Create("iaf_cond_alpha_mc", 20, params={"soma": {"I_e": rv.random.uniform(200.0, 400.0)}})
    receptors = rv.GetDefaults("iaf_cond_alpha_mc")["receptor_types"]
    rv.Connect(noise, mc, syn_spec={"weight": 2.0, "receptor_type": receptors["proximal_exc"]})
    rv.Connect(
        cells,
        mc,
        {"rule": "fixed_indegree", "indegree": 4},
        {"weight": -3.0, "delay": 1.3, "receptor_type": receptors["soma_inh"]},
    )
    rv.Connect(mc, cells, {"rule": "fixed_indegree", "indegree": 2}, {"weight": 60.0, "receptor_type": 1})
    rv.Connect(rv.Create("noise_generator", params={"mean": 50.0, "std": 100.0}), mc, syn_spec={"receptor_type": 9})
    # NEST's compartmental cells: active soma, a dendrite with two receptors, a current into each
    trees = rv.Create("cm_default", 12, params={"compartments": CM_TREE, "receptors": CM_RECEPTORS})
    rv.Connect(noise, trees, syn_spec={"weight": 0.003, "receptor_type": 0})
    rv.Connect(
        cells, trees, {"rule": "fixed_indegree", "indegree": 3}, {"weight": 0.01, "delay": 1.4, "receptor_type": 1}
    )
    rv.Connect(trees, cells, {"rule": "fixed_indegree", "indegree": 2}, {"weight": 50.0, "receptor_type": 2})
    rv.Connect(rv.Create("dc_generator", params={"amplitude": 1.2}), trees, syn_spec={"receptor_type": 1})
    trees_mm = rv.Create("multimeter", params={"record_from": ["v_comp1", "g_d_AN_NMDA_0"], "interval": 0.5})
    rv.Connect(trees_mm, trees[:3])
    # Clopath plasticity: neurons learning from the multisynapse cells, weights recorded
    clopath = rv.Create("aeif_psc_delta_clopath", 8, params={"I_e": rv.random.uniform(400.0, 700.0)})
    wr = rv.Create("weight_recorder")
    rv.CopyModel("clopath_synapse", "clopath_wr", {"weight_recorder": wr})
    rv.Connect(
        cells,
        clopath,
        {"rule": "fixed_indegree", "indegree": 5},
        {"synapse_model": "clopath_wr", "weight": 1.0, "delay": rv.random.uniform(0.5, 2.0)},
    )
    rv.Connect(noise, clopath, syn_spec={"weight": 4.0})
    # Urbanczik plasticity: stochastic somata learning at their dendrites, weights recorded alike
    urbanczik = rv.Create("pp_cond_exp_mc_urbanczik", 6, params={"soma": {"I_e": rv.random.uniform(200.0, 400.0)}})
    rv.CopyModel("urbanczik_synapse", "urbanczik_wr", {"weight_recorder": wr})
    rv.Connect(
        cells,
        urbanczik,
        {"rule": "fixed_indegree", "indegree": 4},
        {"synapse_model": "urbanczik_wr", "weight": 50.0, "receptor_type": 3, "eta": 2.0, "delay": 1.1},
    )
    # iaf_tum_2000: spikes that carry their released resource to the targets at receptor_type 1
    tum = rv.Create("iaf_tum_2000", 10, params={"I_e": rv.random.uniform(400.0, 500.0), "tau_fac": 100.0})
    rv.Connect(tum, tum, {"rule": "fixed_indegree", "indegree": 3}, {"weight": 300.0, "receptor_type": 1})
    rv.Connect(tum, cells, {"rule": "fixed_indegree", "indegree": 1}, {"weight": 60.0, "receptor_type": 1})
    rv.Connect(noise, tum, syn_spec={"weight": 10.0})
    tum_mm = rv.Create("multimeter", params={"record_from": ["V_m", "I_syn_ex"], "interval": 0.5})
    rv.Connect(tum_mm, tum[:4])
    # iaf_bw_2001: spikes that carry the jump of the sender's NMDA gating
    bw = rv.Create("iaf_bw_2001", 12, params={"V_th": -50.0, "V_reset": -55.0})
    rv.Connect(noise, bw, syn_spec={"weight": 3.0, "receptor_type": 1})
    for port, weight in ((1, 0.5), (2, 1.0), (3, 0.8)):
        rv.Connect(bw, bw, {"rule": "fixed_indegree", "indegree": 4}, {"weight": weight, "receptor_type": port})
    bw_mm = rv.Create("multimeter", params={"record_from": ["V_m", "s_NMDA", "I_NMDA"], "interval": 0.5})
    rv.Connect(bw_mm, bw[:4])
    # gif_pop_psc_exp: populations that send each step's spikes at once
    pops = rv.Create("gif_pop_psc_exp", 3, params={"N": 200, "I_e": 400.0, "V_T_star": 10.0, "tau_sfa": [50.0]})
    rv.Connect(pops, pops, "all_to_all", {"weight": -3.0, "delay": 1.0})
    rv.Connect(pops, cells, {"rule": "fixed_indegree", "indegree": 1}, {"weight": 5.0, "receptor_type": 1})
    pop_mm = rv.Create("multimeter", params={"record_from": ["n_events", "mean"], "interval": 0.1})
    rv.Connect(pop_mm, pops)
    # a receptor_type drawn per connection
    rv.Connect(other, exp_cells, {"rule": "fixed_indegree", "indegree": 3}, {"weight": 25.0,
               "receptor_type": rv.random.uniform_int(3) + 1})  # fmt: skip
    sr = rv.Create("spike_recorder")
    rv.Connect(other + cells + exp_cells + glifs + mc + trees + clopath + urbanczik + tum + bw + pops, sr)
    mc_mm = rv.Create("multimeter", params={"record_from": ["V_m.s", "V_m.d", "g_ex.p"], "interval": 0.5})
    rv.Connect(mc_mm, mc[:4])
    mm = rv.Create("multimeter", params={"record_from": ["V_m", "I_syn_2"], "interval": 0.5})
    rv.Connect(mm, cells[:3] + exp_cells[-2:])
    glif_mm = rv.Create("multimeter", params={"record_from": ["V_m", "threshold", "ASCurrents_sum"], "interval": 0.5})
    rv.Connect(glif_mm, glifs[:4])
    rv.Simulate(t_sim / 2)
    rv.Simulate(t_sim / 2)
    learnt = wr.events
    order = np.lexsort((learnt["targets"], learnt["senders"], learnt["times"]))
    return {
        "learnt_weights": learnt["weights"][order],
        "senders": sr.events["senders"],
        "times": sr.events["times"],
        "V_m": mm.events["V_m"],
        "I_syn_2": mm.events["I_syn_2"],
        "glif_V_m": glif_mm.events["V_m"],
        "glif_threshold": glif_mm.events["threshold"],
        **{f"mc_{k}": mc_mm.events[k] for k in ("V_m.s", "V_m.d", "g_ex.p")},
        **{f"cm_{k}": trees_mm.events[k] for k in ("v_comp1", "g_d_AN_NMDA_0")},
        **{f"tum_{k}": tum_mm.events[k] for k in ("V_m", "I_syn_ex")},
        **{f"bw_{k}": bw_mm.events[k] for k in ("V_m", "s_NMDA", "I_NMDA")},
        **{f"pop_{k}": pop_mm.events[k] for k in ("n_events", "mean")},
    }


CM_TREE = [
    {"parent_idx": -1, "params": {"gbar_Na": 4.5, "gbar_K": 1.8, "e_Na": 50.0, "e_K": -85.0}},
    {"parent_idx": 0, "params": {"C_m": 0.1, "g_C": 0.1, "g_L": 0.01}},
]
CM_RECEPTORS = [{"comp_idx": 1, "receptor_type": "AMPA_NMDA"}, {"comp_idx": 0, "receptor_type": "GABA"}]


def precise(n=200, t_sim=30.0):
    """Precise spike times: off-grid spikes cross every exchange method to iaf_psc_alpha_ps and
    iaf_psc_delta_ps cells and parrot_neuron_ps echoes."""
    alpha = rv.Create("iaf_psc_alpha_ps", n, params={"V_m": rv.random.uniform(-70.0, -55.0)})
    delta = rv.Create("iaf_psc_delta_ps", n // 4, params={"V_m": rv.random.uniform(-70.0, -55.0)})
    echoes = rv.Create("parrot_neuron_ps", n // 4)
    drive = rv.Create("poisson_generator_ps", params={"rate": 8000.0, "dead_time": 0.01})
    rv.Connect(drive, alpha + delta, syn_spec={"weight": 40.0, "delay": 1.0})
    rv.Connect(alpha, alpha + delta, {"rule": "fixed_indegree", "indegree": 20}, {"weight": -30.0, "delay": 1.3})
    rv.Connect(delta, alpha, {"rule": "fixed_indegree", "indegree": 5}, {"weight": 60.0, "delay": 1.1})
    rv.Connect(alpha[: n // 4], echoes, "one_to_one", {"delay": 1.0})
    sr = rv.Create("spike_recorder")
    rv.Connect(alpha + delta + echoes, sr)
    rv.Simulate(t_sim)
    return {"senders": sr.events["senders"], "times": sr.events["times"], "V_end": alpha.get("V_m")}


NETWORKS = {
    "brunel": brunel,
    "precise": precise,
    "hines": hines,
    "spatial": spatial,
    "stimulators": stimulators,
    "cable": cable,
    "multisynapse": multisynapse,
}


def small_hpc(threads=1, dry_run=0, n_e=900, n_i=225):
    """The hpc benchmark's structure at a small size (construction only)."""
    settings = {"local_num_threads": threads, "rng_seed": 5}
    if dry_run:
        settings["dry_run"] = dry_run
    rv.SetKernelStatus(settings)
    exc = rv.Create("iaf_psc_alpha", n_e, params={"V_m": rv.random.normal(-60.0, 5.0)})
    inh = rv.Create("iaf_psc_alpha", n_i)
    rv.Connect(
        exc,
        exc + inh,
        {"rule": "fixed_indegree", "indegree": 90},
        {"weight": rv.random.normal(40.0, 4.0), "delay": 1.5},
    )
    rv.Connect(inh, exc + inh, {"rule": "fixed_indegree", "indegree": 22}, {"weight": -200.0, "delay": 1.5})


def two_area_brunel(t_sim=60.0, n_e=300, n_i=75, before_each=None):
    """Two Brunel areas of iaf_psc_exp neurons; inter-area delays >= 1.5 ms, intra 0.3-1 ms;
    before_each(k): called before the k-th of its two Simulate calls."""
    params = {
        "E_L": 0.0,
        "V_th": 20.0,
        "V_reset": 0.0,
        "t_ref": 2.0,
        "tau_m": 20.0,
        "tau_syn_ex": 0.5,
        "tau_syn_in": 0.5,
        "tau_minus": 30.0,
    }
    areas = []
    for name in ("V1", "V2"):
        exc = rv.Create("iaf_psc_exp", n_e, params={**params, "V_m": rv.random.normal(5.7, 7.2)}, area=name)
        inh = rv.Create("iaf_psc_exp", n_i, params={**params, "V_m": rv.random.uniform(0.0, 20.0)}, area=name)
        areas.append((exc, inh))
    rv.CopyModel("stdp_pl_synapse_hom", "stdp_ee", {"alpha": 0.0513, "lambda": 0.1, "mu": 0.4, "tau_plus": 15.0})
    noise = rv.Create("poisson_generator", params={"rate": 16000.0})
    for exc, inh in areas:
        rv.Connect(noise, exc + inh, syn_spec={"weight": 40.0, "delay": 0.5})
        rv.Connect(
            exc,
            exc,
            {"rule": "fixed_indegree", "indegree": 30},
            {"synapse_model": "stdp_ee", "weight": 40.0, "delay": rv.random.uniform(0.3, 1.0)},
        )
        rv.Connect(exc, inh, {"rule": "fixed_indegree", "indegree": 30}, {"weight": 40.0, "delay": 0.3})
        rv.Connect(inh, exc + inh, {"rule": "fixed_indegree", "indegree": 8}, {"weight": -180.0, "delay": 0.4})
    (e1, i1), (e2, i2) = areas
    rv.Connect(
        e1, e2 + i2, {"rule": "fixed_indegree", "indegree": 20}, {"weight": 30.0, "delay": rv.random.uniform(1.5, 4.0)}
    )
    rv.Connect(
        e2,
        e1,
        {"rule": "fixed_indegree", "indegree": 20},
        {"synapse_model": "stdp_ee", "weight": 30.0, "delay": rv.random.uniform(1.5, 4.0)},
    )
    # iaf_tum_2000 cells whose spikes carry their released resource between the areas too: the
    # numbers must wait with the long-range spikes
    tums = [rv.Create("iaf_tum_2000", 3, params={"I_e": 420.0, "tau_fac": 50.0}, area=name) for name in ("V1", "V2")]
    for k, (source, target) in enumerate(((tums[0], tums[1]), (tums[1], tums[0]), (tums[0], tums[0]))):
        rv.Connect(source, target, "all_to_all", {"weight": 400.0, "receptor_type": 1, "delay": 0.4 + 1.7 * (k < 2)})
    sr = rv.Create("spike_recorder")
    rv.Connect(e1 + i1 + e2 + i2 + tums[0] + tums[1], sr)
    tum_mm = rv.Create("multimeter", params={"record_from": ["I_syn_ex"], "interval": 0.5})
    rv.Connect(tum_mm, tums[0] + tums[1])
    for k, t in enumerate((t_sim / 3, 2 * t_sim / 3)):
        if before_each:
            before_each(k)
        rv.Simulate(t)
    # weights change when a spike is delivered, which for long-range synapses may be up to D
    # cycles after it happened: compare the intra-area ones
    return {
        "senders": sr.events["senders"],
        "times": sr.events["times"],
        "weights": np.asarray(rv.GetConnections(source=e1, target=e1, gather=True).weight),
        "V_end": np.asarray(e2.get("V_m")),
        "tum_I_syn_ex": tum_mm.events["I_syn_ex"][np.lexsort((tum_mm.events["senders"], tum_mm.events["times"]))],
    }


def mam(t_sim=60.0, areas=4, n=300, k=40, d_ratio=10):
    """Lober et al.'s (2026) MAM benchmark in small: ignore_and_fire areas, half the inputs from the own
    area (delays normal(1.25, 0.625) ms, >= 0.1), half from other areas (normal(5, 2.5) ms,
    >= D x 0.1 ms)."""
    pops = [
        rv.Create("ignore_and_fire", n, params={"rate": 25.0, "phase": rv.random.uniform(0.01, 1.0)}, area=f"A{a}")
        for a in range(areas)
    ]
    for a, target in enumerate(pops):
        others = None
        for b, source in enumerate(pops):
            if b != a:
                others = source if others is None else others + source
        rv.Connect(
            target, target, {"rule": "fixed_indegree", "indegree": k // 2}, {"delay": _clipped_normal(1.25, 0.625, 0.1)}
        )
        rv.Connect(
            others,
            target,
            {"rule": "fixed_indegree", "indegree": k // 2},
            {"delay": _clipped_normal(5.0, 2.5, d_ratio * 0.1)},
        )
    parrots = rv.Create("parrot_neuron", 20, area="A0")
    rv.Connect(pops[1][:20] + pops[2][:20], parrots, {"rule": "fixed_indegree", "indegree": 2}, {"delay": 1.0})
    sr = rv.Create("spike_recorder")
    rv.Connect(parrots, sr)
    rv.Simulate(t_sim)
    return {"senders": sr.events["senders"], "times": sr.events["times"]}


def _clipped_normal(mean, std, low):
    return rv.math.max(rv.random.normal(mean, std), low)


# (the area networks are run by run_areas.py, not by run_partition.py)


def burst(n_echo=60, spike_times=(5.0,), t_sim=20.0):
    """1500 parrots fire at once, far beyond the exchange buffers' initial capacity, and n_echo
    parrots repeat every one of those spikes; returns the echoes' spike recorder."""
    drive = rv.Create("spike_generator", params={"spike_times": list(spike_times)})
    burst = rv.Create("parrot_neuron", 1500)
    echo = rv.Create("parrot_neuron", n_echo)
    rv.Connect(drive, burst)
    rv.Connect(burst, echo, "all_to_all", {"delay": 1.0})
    sr = rv.Create("spike_recorder")
    rv.Connect(echo, sr)
    rv.Simulate(t_sim)
    return sr


def nmodl_somata(t_sim=150.0):
    """Ten spiking somata with the Allen Institute's channels (BMTK's .mod files, compiled by
    load_mechanisms), each with its own NaTs and Ca_HVA conductance, driven by Poisson input
    through a built-in expsyn and NEURON's Exp2Syn (its exp2syn.mod)."""
    import bmtk

    folder = pathlib.Path(bmtk.__file__).parent / "utils" / "scripts" / "bionet" / "mechanisms" / "modfiles"
    rv.load_mechanisms([f for f in folder.glob("*.mod") if f.stem not in ("vecevent", "NaV")])
    neuron = pathlib.Path(importlib.util.find_spec("neuron").origin).parent
    rv.load_mechanisms([neuron / ".data" / "share" / "modfile" / "exp2syn.mod"])
    channels = {
        "NaTs": {"gbar": rv.random.uniform(0.8, 1.2)},
        "Nap": {"gbar": 5e-4},
        "K_T": {"gbar": 1e-3},
        "Kv3_1": {"gbar": 0.1},
        "SK": {"gbar": 1e-3},
        "Ca_HVA": {"gbar": rv.random.uniform(1e-4, 1e-3)},
        "CaDynamics": {"gamma": 5e-3, "decay": 200.0},
    }
    cells = rv.Create(
        "cable_cell",
        10,
        params={
            "morphology": {"branches": [{"name": "soma", "length": 20.0, "diameter": 20.0}]},
            "V_init": -70.0,
            "celsius": 34.0,
            "ions": {"na": {"e": 53.0}, "k": {"e": -107.0}},
            "mechanisms": {"soma": {"pas": {"g": 1e-4, "e": -70.0}, **channels}},
            "synapses": {
                "syn": {"model": "expsyn", "location": ["soma", 0.5], "tau": 2.0, "e": 0.0},
                "nmodl": {"model": "Exp2Syn", "location": ["soma", 0.5], "tau1": 0.5, "tau2": 3.0},
            },
        },
    )
    source = rv.Create("poisson_generator", params={"rate": 800.0})
    rv.Connect(source, cells, syn_spec={"weight": 0.001, "delay": 1.0, "receptor_type": "syn"})
    rv.Connect(source, cells, syn_spec={"weight": 0.0006, "delay": 1.5, "receptor_type": "nmodl"})
    recorder = rv.Create("spike_recorder")
    rv.Connect(cells, recorder)
    rv.Simulate(t_sim)
    return {"senders": recorder.events["senders"], "times": recorder.events["times"]}
