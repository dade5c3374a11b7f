"""The network tests/test_iaf_bw_2001.py runs on Ranvier and benchmarks/peers/nest_scenario_fixtures.py
on NEST 3.10: two iaf_bw_2001 cells driven by spike trains at AMPA and by a current send to two
others at AMPA, GABA and NMDA (whose spikes carry the jump of the sender's own NMDA gating), one
of which also takes a current and fires. Every recordable at every step (the currents as NEST
computes them, at the end of the step before its input), the spikes (NEST's recorder subtracts the
number a spike carries from its time) and the cells' state at the end."""

from scenario_recording import record

T_SIM = 300.0
PARAMS = {"g_L": 25.0, "V_reset": -55.0, "V_th": -50.0, "C_m": 500.0, "t_ref": 1.0}
RECORDABLES = ["V_m", "s_AMPA", "s_GABA", "s_NMDA", "I_AMPA", "I_GABA", "I_NMDA"]


def run(sim, threads=1):
    sim.ResetKernel()
    sim.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads})
    pre = sim.Create("iaf_bw_2001", 2, params={**PARAMS, "V_m": -50.5})
    pre[1].set({"tau_decay_NMDA": 60.0, "alpha": 0.3, "t_ref": 2.0})
    post = sim.Create("iaf_bw_2001", 2, params=PARAMS)
    post[1].set({"conc_Mg2": 1.5, "E_in": -80.0})
    train = sim.Create("spike_generator", params={"spike_times": [5.0, 12.0, 12.3, 40.0, 41.0, 90.0, 150.2, 151.0]})
    sim.Connect(train, pre, syn_spec={"weight": 60.0, "receptor_type": 1})
    sim.Connect(sim.Create("dc_generator", params={"amplitude": 400.0, "start": 100.0, "stop": 200.0}), pre[1])
    for port, weight in ((1, 20.0), (2, 15.0), (3, 30.0)):
        sim.Connect(pre, post, "all_to_all", {"weight": weight, "receptor_type": port, "delay": 1.3})
    sim.Connect(sim.Create("dc_generator", params={"amplitude": 560.0}), post[1])
    out = record(sim, pre + post, RECORDABLES, T_SIM)
    for key in ("V_m", "s_AMPA", "s_NMDA", "I_NMDA"):
        out[f"final_{key}"] = [float(v) for v in (pre + post).get(key)]
    return out
