"""The network tests/test_iaf_cond_alpha_mc.py runs on Ranvier and
benchmarks/peers/nest_scenario_fixtures.py on NEST 3.10: two iaf_cond_alpha_mc neurons with
parameters set as NEST takes them (per-compartment dicts through SetDefaults, Create and the
``soma`` attribute), spike trains of both signs into each of the six spike receptors, a
dc_generator step into each compartment's current receptor, 300 ms at resolution 0.1 ms: every
recordable at every step and the spikes."""

from scenario_recording import record

T_SIM = 300.0
RECORDABLES = ["V_m.s", "g_ex.s", "g_in.s", "V_m.p", "g_ex.p", "g_in.p", "V_m.d", "g_ex.d", "g_in.d", "t_ref_remaining"]
SPIKE_RECEPTORS = ["soma_exc", "soma_inh", "proximal_exc", "proximal_inh", "distal_exc", "distal_inh"]
CURRENT_RECEPTORS = ["soma_curr", "proximal_curr", "distal_curr"]


def run(sim):
    sim.ResetKernel()
    sim.SetKernelStatus({"resolution": 0.1})
    sim.SetDefaults("iaf_cond_alpha_mc", {"V_th": -58.0, "t_ref": 3.0, "g_sp": 5.0, "soma": {"g_L": 12.0}})
    cells = sim.Create("iaf_cond_alpha_mc", 2, params={"proximal": {"tau_syn_ex": 1.0, "C_m": 60.0}})
    cells[1].set({"distal": {"E_in": -80.0, "V_m": -68.0}, "g_pd": 2.0})
    cells[0].soma = {"I_e": 140.0}
    receptors = sim.GetDefaults("iaf_cond_alpha_mc")["receptor_types"]
    for k, name in enumerate(SPIKE_RECEPTORS):
        times = [20.0 + 40.0 * k + 3.3 * j for j in range(4)]
        weights = [(-1.0) ** (j + k // 2) * (30.0 + 10.0 * j) for j in range(4)]
        train = sim.Create("spike_generator", params={"spike_times": times, "spike_weights": weights})
        sim.Connect(train, cells, syn_spec={"receptor_type": receptors[name], "delay": 1.0})
    for k, name in enumerate(CURRENT_RECEPTORS):
        step = sim.Create(
            "dc_generator", params={"amplitude": 80.0 * (k + 1), "start": 50.0 + 70.0 * k, "stop": 110.0 + 70.0 * k}
        )
        sim.Connect(step, cells, syn_spec={"receptor_type": receptors[name]})
    out = record(sim, cells, RECORDABLES, T_SIM)
    out["soma"] = [dict(d) for d in cells.get("soma")]
    out["distal"] = [dict(d) for d in cells.get("distal")]
    return out
