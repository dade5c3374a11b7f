"""The network tests/test_gif_pop_psc_exp.py runs on Ranvier and benchmarks/peers/nest_scenario_fixtures.py
on NEST 3.10: gif_pop_psc_exp populations whose escape rate lambda_0 is 0, so that nothing is
drawn and every recordable follows from the input alone: excitatory and inhibitory spike trains,
a step current, the adaptation of the initial history (all N neurons fired len_kernel steps ago)
reaching the threshold E_sfa, one kernel length chosen automatically and one given. Every
recordable at every step, and len_kernel after the run."""

from scenario_recording import record

T_SIM = 160.0
RECORDABLES = ["V_m", "I_syn_ex", "I_syn_in", "E_sfa", "mean", "n_events"]


def run(sim, threads=1):
    sim.ResetKernel()
    sim.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads})
    pops = sim.Create("gif_pop_psc_exp", 2, params={"lambda_0": 0.0, "tau_sfa": [20.0, 8.0], "q_sfa": [1.5, 0.7]})
    pops[1].set({"N": 250, "len_kernel": 600, "tau_syn_ex": 1.5, "C_m": 180.0, "E_L": -2.0, "V_m": 3.0})
    train = sim.Create(
        "spike_generator", params={"spike_times": [3.0, 20.5, 21.0, 70.0], "spike_weights": [40.0, -25.0, 60.0, -90.0]}
    )
    sim.Connect(train, pops)
    step = sim.Create(
        "step_current_generator", params={"amplitude_times": [30.0, 90.0], "amplitude_values": [120.0, -40.0]}
    )
    sim.Connect(step, pops)
    out = record(sim, pops, RECORDABLES, T_SIM)
    out["len_kernel"] = [float(k) for k in pops.get("len_kernel")]
    return out
