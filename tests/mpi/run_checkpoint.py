"""A network with every kind of state a checkpoint must carry (plastic synapses and spike
histories, short-term plasticity, models with lists, ports, precise spike times, intrinsic noise and
ODE solvers; binary neurons, whose input events carry their senders; dopamine-modulated STDP through a volume transmitter; generators with state of their own, also recorded as they leave; spike recorders, multimeters and a weight
recorder), run whole, or saved after t1 ms and continued from the checkpoint.

    run_checkpoint.py full <t1> <t2> <threads> <out.npz>
    run_checkpoint.py save <t1> <threads> <checkpoint>
    run_checkpoint.py load <checkpoint> <t2> <threads> <out.npz> [spike_exchange]
    run_checkpoint.py damaged <checkpoint> <threads> <out>
    run_checkpoint.py periodic <interval> <t_end> <threads> <directory>
    run_checkpoint.py resume <directory> <t_end> <threads> <out.npz>
"""

import json
import sys

import numpy as np
from networks import CM_RECEPTORS, CM_TREE
from ranvier.checkpoint import files

import ranvier as rv


def build(threads):
    rv.ResetKernel()
    rv.set(local_num_threads=threads, rng_seed=11)
    exc = rv.Create("iaf_psc_alpha", 60, params={"I_e": 150.0, "V_m": rv.random.uniform(-70.0, -55.0)})
    inh = rv.Create("iaf_psc_exp", 15, params={"V_m": rv.random.uniform(-70.0, -55.0)})
    adaptive = rv.Create("aeif_cond_alpha", 5, params={"I_e": 300.0})
    gif = rv.Create("gif_psc_exp", 5, params={"I_e": 120.0})
    multi = rv.Create("iaf_psc_alpha_multisynapse", 4, params={"tau_syn": [2.0, 5.0, 8.0], "I_e": 200.0})
    precise = rv.Create("iaf_psc_exp_ps", 5, params={"I_e": 300.0})
    hazard = rv.Create("pp_psc_delta", 5, params={"c_2": 10.0})
    parrots = rv.Create("parrot_neuron", 5)
    mc = rv.Create("iaf_cond_alpha_mc", 3, params={"soma": {"I_e": 330.0}})
    trees = rv.Create("cm_default", 3, params={"compartments": CM_TREE, "receptors": CM_RECEPTORS})
    clopath = rv.Create("aeif_psc_delta_clopath", 3, params={"I_e": 600.0})
    urbanczik = rv.Create("pp_cond_exp_mc_urbanczik", 3, params={"soma": {"I_e": 300.0}})
    tum = rv.Create("iaf_tum_2000", 4, params={"I_e": 450.0, "tau_fac": 200.0})  # spikes carry their release
    bw = rv.Create("iaf_bw_2001", 4, params={"V_th": -50.0, "V_reset": -55.0})  # spikes carry NMDA jumps
    pop = rv.Create("gif_pop_psc_exp", params={"N": 100, "I_e": 400.0, "V_T_star": 10.0, "tau_sfa": [30.0]})
    cells = exc + inh + adaptive + gif + multi + precise + hazard + mc + trees + clopath + urbanczik + tum + bw + pop
    noise = rv.Create("poisson_generator", params={"rate": 6000.0})
    rv.Connect(noise, exc + inh, syn_spec={"weight": 12.0, "delay": 1.0})
    gamma = rv.Create("gamma_sup_generator", params={"rate": 500.0, "gamma_shape": 3, "n_proc": 4})
    rv.Connect(gamma, adaptive + gif + hazard, syn_spec={"weight": 20.0})
    ps = rv.Create("poisson_generator_ps", params={"rate": 3000.0})
    rv.Connect(ps, precise + parrots, syn_spec={"weight": 15.0, "delay": 1.0})
    rv.Connect(parrots, precise, "all_to_all", {"weight": 5.0, "delay": 1.3})
    currents = rv.Create("noise_generator", params={"mean": 50.0, "std": 100.0, "dt": 0.5})
    rv.Connect(currents, inh)
    for port in (1, 2, 3):
        rv.Connect(exc[:10], multi, syn_spec={"weight": 30.0, "receptor_type": port})
    rv.Connect(exc[10:20], multi, syn_spec={"weight": 20.0, "receptor_type": rv.random.uniform_int(3) + 1})
    rv.Connect(tum, tum, syn_spec={"weight": 150.0, "delay": 1.7, "receptor_type": 1})
    rv.Connect(tum, exc[:5], syn_spec={"weight": 40.0})
    rv.Connect(noise, bw, syn_spec={"weight": 2.0, "receptor_type": 1})
    rv.Connect(bw, bw, "all_to_all", {"weight": 1.5, "receptor_type": 3, "delay": 1.6})
    rv.Connect(pop, exc[:10], syn_spec={"weight": 3.0})  # its spikes in bunches
    for port, weight in ((3, 4.0), (2, -2.0)):  # proximal_exc, soma_inh
        rv.Connect(exc[10:20], mc, syn_spec={"weight": weight, "receptor_type": port})
    rv.Connect(currents, mc, syn_spec={"receptor_type": 8})  # proximal_curr
    rv.Connect(exc[20:30], trees, syn_spec={"weight": 0.02, "receptor_type": 0})
    rv.Connect(currents, trees, syn_spec={"weight": 0.03, "receptor_type": 1})
    wr = rv.Create("weight_recorder")
    rv.CopyModel("stdp_synapse", "stdp_rec", {"weight_recorder": wr, "alpha": 0.8})
    rv.Connect(
        exc,
        exc + inh,
        {"rule": "fixed_indegree", "indegree": 8},
        {"synapse_model": "stdp_rec", "weight": 25.0, "delay": rv.random.uniform(1.0, 2.5)},
    )
    rv.CopyModel("stdp_pl_synapse_hom", "stdp_pl", {"alpha": 0.05, "lambda": 0.1, "mu": 0.4})
    rv.Connect(
        exc, adaptive + gif, {"rule": "fixed_indegree", "indegree": 6}, {"synapse_model": "stdp_pl", "weight": 3.0}
    )
    rv.Connect(
        inh, exc, {"rule": "pairwise_bernoulli", "p": 0.3}, {"synapse_model": "tsodyks2_synapse", "weight": -60.0}
    )
    rv.Connect(exc[:20], hazard, "all_to_all", {"synapse_model": "quantal_stp_synapse", "weight": 4.0, "n": 3})
    rv.Connect(precise, inh[:5], "all_to_all", {"synapse_model": "cont_delay_synapse", "weight": 30.0, "delay": 1.23})
    vt = rv.Create("volume_transmitter", params={"deliver_interval": 2})
    rv.CopyModel(
        "stdp_dopamine_synapse",
        "dopa",
        {"volume_transmitter": vt, "A_plus": 1.0, "A_minus": 1.5, "b": 0.0, "tau_c": 100.0},
    )
    rv.Connect(exc[40:50], vt)
    rv.Connect(exc[:10], exc[20:25], "all_to_all", {"synapse_model": "dopa", "weight": 30.0})
    rv.Connect(exc[30:40], clopath, "all_to_all", {"synapse_model": "clopath_synapse", "weight": 2.0, "delay": 1.2})
    rv.Connect(exc[40:50], urbanczik, "all_to_all",
               {"synapse_model": "urbanczik_synapse", "weight": 40.0, "receptor_type": 3, "eta": 2.0})  # fmt: skip
    # binary neurons: update times and the senders of events waiting in their buffers
    binary = rv.Create("ginzburg_neuron", 12, params={"tau_m": 2.0, "c_1": 0.05})
    rv.Connect(
        binary,
        binary,
        {"rule": "fixed_indegree", "indegree": 4},
        {"weight": -0.5, "delay": rv.random.uniform(1.0, 3.0)},
    )
    spins = rv.Create("spin_detector")
    rv.Connect(binary, spins)
    pairs = rv.Create("correlation_detector", params={"delta_tau": 1.0, "tau_max": 10.0})  # channels and weights
    rv.Connect(exc[:5], pairs)
    rv.Connect(exc[5:10], pairs, syn_spec={"receptor_type": 1, "weight": 2.0})
    sr = rv.Create("spike_recorder")
    rv.Connect(cells + parrots, sr)
    rv.Connect(ps + gamma, sr, syn_spec={"delay": 2.0})  # generators' trains, recorded as they leave
    mm = rv.Create("multimeter", params={"record_from": ["V_m"], "interval": 0.3})
    rv.Connect(mm, exc[:3] + adaptive[:2] + gif[:2] + precise[:2])


def build_areas(threads):
    """Two areas (area placement, overlapped exchange): long-range spikes wait D cycles in
    their own buffers and rows."""
    rv.ResetKernel()
    rv.set(local_num_threads=threads, rng_seed=5, placement="area", overlap_exchange=True)
    params = {
        "E_L": 0.0,
        "V_th": 20.0,
        "V_reset": 0.0,
        "t_ref": 2.0,
        "tau_m": 20.0,
        "tau_syn_ex": 0.5,
        "tau_syn_in": 0.5,
    }
    areas = [
        tuple(rv.Create("iaf_psc_exp", n, params={**params, "V_m": rv.random.uniform(0.0, 20.0)}, area=name) for n in (120, 30))
        for name in ("V1", "V2")
    ]  # fmt: skip
    noise = rv.Create("poisson_generator", params={"rate": 25000.0})
    rv.CopyModel("stdp_synapse", "stdp_long", {"alpha": 0.9})
    for exc, inh in areas:
        rv.Connect(noise, exc + inh, syn_spec={"weight": 40.0, "delay": 0.5})
        rv.Connect(exc, exc + inh, {"rule": "fixed_indegree", "indegree": 15}, {"weight": 40.0, "delay": 0.5})
        rv.Connect(inh, exc + inh, {"rule": "fixed_indegree", "indegree": 6}, {"weight": -160.0, "delay": 0.4})
    (e1, _), (e2, i2) = areas
    rv.Connect(e1, e2 + i2, {"rule": "fixed_indegree", "indegree": 10},
               {"synapse_model": "stdp_long", "weight": 30.0, "delay": rv.random.uniform(1.5, 4.0)})  # fmt: skip
    rv.Connect(e2, e1, {"rule": "fixed_indegree", "indegree": 10}, {"weight": 30.0, "delay": 2.2})
    sr = rv.Create("spike_recorder")
    rv.Connect(e1 + e2 + i2, sr)
    mm = rv.Create("multimeter", params={"record_from": ["V_m"], "interval": 0.3})
    rv.Connect(mm, e2[:4])
    rv.Create("weight_recorder")  # results() reads one


BALL_AND_STICK = {
    "morphology": {
        "branches": [
            {"name": "soma", "length": 20.0, "diameter": 20.0},
            {"name": "dend", "parent": "soma", "length": 200.0, "diameter": 1.0},
        ]
    },
    "cv_policy": {"per_branch": {"soma": 1, "dend": 11}},
    "dt": 0.025,
    "mechanisms": {"soma": {"hh": {}}, "dend": {"pas": {"g": 0.001, "e": -65.0}}},
    "synapses": {
        "fast": {"model": "expsyn", "location": ["dend", 0.5], "tau": 2.0, "e": 0.0},
        "slow": {"model": "exp2syn", "location": ["dend", 0.9], "tau1": 0.5, "tau2": 5.0, "e": 0.0},
    },
    "spike_detector": {"location": ["soma", 0.5], "threshold": -10.0},
}


def build_cable(threads):
    """Ball-and-stick cells (hh, pas, expsyn, exp2syn) and point neurons driving each other:
    spikes off the grid, events waiting for a cell's sub-step."""
    rv.ResetKernel()
    rv.set(local_num_threads=threads, rng_seed=3)
    cells = rv.Create("cable_cell", 10, params={**BALL_AND_STICK, "V_init": rv.random.uniform(-70.0, -60.0)})
    points = rv.Create("iaf_psc_exp", 30, params={"I_e": 400.0})
    rv.Connect(points, cells, {"rule": "fixed_indegree", "indegree": 5},
               {"weight": rv.random.uniform(0.005, 0.02), "delay": 2.0, "receptor_type": "fast"})  # fmt: skip
    rv.Connect(cells, cells, {"rule": "fixed_indegree", "indegree": 3},
               {"weight": 0.02, "delay": 1.3, "receptor_type": "slow"})  # fmt: skip
    rv.Connect(cells, points, {"rule": "fixed_indegree", "indegree": 4}, {"weight": 50.0, "delay": 1.5})
    sr = rv.Create("spike_recorder")
    rv.Connect(cells + points, sr)
    mm = rv.Create("multimeter", params={"record_from": ["V_m"], "interval": 0.5})
    rv.Connect(mm, cells[:3])
    rv.Create("weight_recorder")  # results() reads one


NETWORKS = {"mixed": build, "areas": build_areas, "cable": build_cable}


def results():
    """What must not change: every spike, V_m sample and transmitted weight, the weights now."""
    sr, mm, wr, spins = (
        rv.GetNodes({"model": m}) for m in ("spike_recorder", "multimeter", "weight_recorder", "spin_detector")
    )
    # Spikes in (time, sender) order: a generator's train, recorded as it leaves, reaches the
    # recorder later, so events lists its spikes in an order that depends on where Simulate
    # calls end (each call's events are sorted, then appended).
    order = np.lexsort((sr.events["senders"], sr.events["times"]))
    out = {f"spikes_{k}": np.asarray(sr.events[k])[order] for k in ("senders", "times")}
    out.update({f"vm_{k}": np.asarray(mm.events[k]) for k in ("senders", "times", "V_m")})
    for pairs in rv.GetNodes({"model": "correlation_detector"}):
        out.update({f"pairs_{k}": np.asarray(pairs.get(k)) for k in ("histogram", "count_histogram", "n_events")})
    if len(spins):
        order = np.lexsort((spins.events["senders"], spins.events["times"]))
        out.update({f"spins_{k}": np.asarray(spins.events[k])[order] for k in ("senders", "times", "state")})
    out.update({f"wr_{k}": np.asarray(wr.events[k]) for k in ("senders", "targets", "times", "weights")})
    for model in ("stdp_rec", "stdp_pl", "tsodyks2_synapse", "quantal_stp_synapse", "cont_delay_synapse", "dopa",
                  "stdp_long", "clopath_synapse", "urbanczik_synapse"):  # fmt: skip
        if model not in rv.synapse_models:
            continue
        c = rv.GetConnections(synapse_model=model, gather=True)
        order = np.lexsort((c.get("target"), c.get("source")))
        for key in ("source", "target", "weight"):
            out[f"{model}_{key}"] = np.asarray(c.get(key))[order]
    return out


def main(mode, *args):
    network = "mixed"
    if args and str(args[-1]).startswith("network="):
        network, args = str(args[-1]).split("=", 1)[1], args[:-1]
    build = NETWORKS[network]
    if mode == "full":
        t1, t2, threads, out = float(args[0]), float(args[1]), int(args[2]), args[3]
        build(threads)
        rv.Simulate(t1)
        rv.Simulate(t2)
    elif mode == "periodic":  # checkpoints every interval ms until t_end (or until killed)
        interval, t_end, threads, where = float(args[0]), float(args[1]), int(args[2]), args[3]
        build(threads)
        rv.set(checkpoint_interval=interval, checkpoint_path=where, checkpoint_keep=2)
        rv.Simulate(t_end)
        return
    elif mode == "resume":  # from the newest complete checkpoint to t_end
        where, t_end, threads, out = args[0], float(args[1]), int(args[2]), args[3]
        rv.ResetKernel()
        rv.set(local_num_threads=threads)
        rv.LoadCheckpoint(where)
        rv.Simulate(t_end - rv.GetKernelStatus("biological_time"))
    elif mode == "damaged":  # a load that fails: each rank's error, and an empty kernel after it
        where, threads, out = args[0], int(args[1]), args[2]
        rv.ResetKernel()
        rv.set(local_num_threads=threads)
        try:
            rv.LoadCheckpoint(where)
            error = None
        except rv.BadParameterError as e:
            error = str(e)
        with open(f"{out}.error-{rv.Rank()}.json", "w") as f:
            json.dump([error, rv.GetKernelStatus("network_size")], f)
        return
    elif mode == "save":
        t1, threads, where = float(args[0]), int(args[1]), args[2]
        build(threads)
        rv.Simulate(t1)
        rv.SaveCheckpoint(where)
        return
    else:
        where, t2, threads, out = args[0], float(args[1]), int(args[2]), args[3]
        rv.ResetKernel()
        rv.set(local_num_threads=threads, spike_exchange=args[4] if len(args) > 4 else "auto")
        if network == "areas":  # the same exchange schedule (D); any placement
            rv.set(overlap_exchange=True)
        read = []  # the connection files this rank reads
        reader = files.read_segment
        files.read_segment = lambda path, manifest, name: read.append(name) or reader(path, manifest, name)
        rv.LoadCheckpoint(where)
        files.read_segment = reader
        with open(f"{out}.read-{rv.Rank()}.json", "w") as f:
            json.dump(read, f)
        rv.Simulate(t2)
    found = results()
    if rv.Rank() == 0:
        np.savez(out, **found)


if __name__ == "__main__":
    main(*sys.argv[1:])
