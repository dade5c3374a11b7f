"""The network tests/test_iaf_relative.py runs on Ranvier and benchmarks/peers/nest_scenario_fixtures.py
on NEST 3.10: one neuron of each integrate-and-fire model that keeps V_m - E_L between steps, driven
by I_e and a spike train, with V_m set in the middle of the run and I_e changed (which must leave
the kept potential as it is); V_m at every step."""

MODELS = ["iaf_psc_alpha", "iaf_psc_exp", "iaf_psc_delta", "mat2_psc_exp", "iaf_psc_alpha_multisynapse",
          "iaf_psc_exp_multisynapse"]  # fmt: skip
T_HALF = 15.0


def run(sim):
    sim.ResetKernel()
    sim.SetKernelStatus({"resolution": 0.1})
    created = [sim.Create(m, params={"I_e": 300.0 + 17.0 * k, "E_L": -65.0}) for k, m in enumerate(MODELS)]
    cells = created[0]
    for more in created[1:]:
        cells += more
    train = sim.Create("spike_generator", params={"spike_times": [2.3, 4.1, 9.7, 21.5]})
    for k, cell in enumerate(created):
        receptor = 1 if "multisynapse" in MODELS[k] else 0
        sim.Connect(
            train, cell, syn_spec={"weight": 2.5 if MODELS[k] == "iaf_psc_delta" else 120.0, "receptor_type": receptor}
        )
    meter = sim.Create("multimeter", params={"record_from": ["V_m"], "interval": sim.resolution})
    sim.Connect(meter, cells)
    sim.Simulate(T_HALF)
    created[0].set({"V_m": -61.3})
    created[1].set({"I_e": 210.0})
    sim.Simulate(T_HALF)
    events = meter.get("events")
    return {k: [float(v) for v in events[k]] for k in ("senders", "times", "V_m")}
