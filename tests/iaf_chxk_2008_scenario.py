"""The network tests/test_iaf_chxk_2008.py runs on Ranvier and
benchmarks/peers/nest_scenario_fixtures.py on NEST 3.10: four iaf_chxk_2008 neurons at
resolution 0.1 ms (I_e 1300 and 1150 pA; and two fast-firing ones, I_e 4000 pA with a weak AHP,
the second of them with ahp_bug) under the same spike train of excitatory and inhibitory
weights and a dc_generator step, 200 ms: every recordable at every step and the precise spike
times."""

from scenario_recording import record

T_SIM = 200.0
RECORDABLES = ["V_m", "g_ex", "g_in", "g_ahp", "I_syn_ex", "I_syn_in", "I_ahp"]
TIMES = [10.0, 10.5, 31.2, 55.0, 55.1, 80.0, 120.3, 150.0, 170.7]
WEIGHTS = [40.0, -30.0, 60.0, -80.0, 25.0, 90.0, -50.0, 70.0, 45.0]


def run(sim):
    sim.ResetKernel()
    sim.SetKernelStatus({"resolution": 0.1})
    cells = sim.Create("iaf_chxk_2008", 4)
    bursting = {"I_e": 4000.0, "g_ahp": 100.0}
    for cell, params in zip(cells, [{"I_e": 1300.0}, {"I_e": 1150.0}, bursting, {**bursting, "ahp_bug": True}]):
        cell.set(params)
    train = sim.Create("spike_generator", params={"spike_times": TIMES, "spike_weights": WEIGHTS})
    sim.Connect(train, cells, syn_spec={"weight": 1.0, "delay": 1.0})
    step = sim.Create("dc_generator", params={"amplitude": 150.0, "start": 90.0, "stop": 140.0})
    sim.Connect(step, cells)
    return record(sim, cells, RECORDABLES, T_SIM)
