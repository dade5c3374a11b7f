"""The network tests/test_iaf_tum_2000.py runs on Ranvier and benchmarks/peers/nest_scenario_fixtures.py
on NEST 3.10: a depressing and a facilitating iaf_tum_2000 driven by currents send their released
resource to two others at receptor_type 1 (one excitatory, one inhibitory connection each), and
plainly to an iaf_psc_exp; the targets also take spikes at receptor_type 0, a spike train at 1
(whose spikes carry nothing, so they add nothing) and a current at 1, which the excitatory
filter smooths. V_m and the synaptic currents at every step, the spikes (NEST's recorder
subtracts the number a spike carries from its time) and the resources at the end."""

from scenario_recording import record

T_SIM = 400.0


def run(sim, threads=1):
    sim.ResetKernel()
    sim.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads})
    pre = sim.Create("iaf_tum_2000", 2, params={"I_e": 420.0})
    pre[0].set({"tau_fac": 0.0, "U": 0.5, "tau_rec": 300.0})  # depressing
    pre[1].set({"tau_fac": 800.0, "U": 0.1, "tau_rec": 100.0, "I_e": 450.0})  # facilitating
    post = sim.Create("iaf_tum_2000", 2, params={"tau_syn_in": 5.0, "t_ref": 3.0})
    plain = sim.Create("iaf_psc_exp")
    sim.Connect(pre, post, syn_spec={"weight": 600.0, "delay": 1.0, "receptor_type": 1})
    sim.Connect(pre[1], post[1], syn_spec={"weight": -300.0, "delay": 2.3, "receptor_type": 1})
    sim.Connect(pre, plain, syn_spec={"weight": 200.0, "delay": 1.5})
    train = sim.Create("spike_generator", params={"spike_times": [12.0, 50.0, 50.3, 121.1, 240.0]})
    sim.Connect(train, post, syn_spec={"weight": 300.0, "receptor_type": 0})
    sim.Connect(train, post[0], syn_spec={"weight": 900.0, "receptor_type": 1})
    step = sim.Create(
        "step_current_generator", params={"amplitude_times": [100.0, 200.0], "amplitude_values": [300.0, 0.0]}
    )
    sim.Connect(step, post[1], syn_spec={"receptor_type": 1})
    out = record(sim, pre + post, ["V_m", "I_syn_ex", "I_syn_in"], T_SIM)
    out["plain_V_m"] = float(plain.get("V_m"))
    for key in ("x", "y", "u"):
        out[key] = [float(v) for v in pre.get(key)]
    return out
