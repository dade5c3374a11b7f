"""The network tests/test_cm_default.py runs on Ranvier and benchmarks/peers/nest_scenario_fixtures.py
on NEST 3.10: cm_default cells with NEST's Na and K channels on a tree whose root has three
children, every receptor type, set at Create, by attribute and by ``+=``; spike trains into
every receptor, a dc_generator step into three compartments, one cell driving two others through
a receptor; 200 ms at resolution 0.1 ms: every recordable at every step and the spikes."""

from scenario_recording import record

T_SIM = 200.0
ACTIVE = {"C_m": 1.0, "g_C": 0.0, "g_L": 0.1, "e_L": -70.0, "gbar_Na": 4.5, "e_Na": 50.0, "gbar_K": 1.8, "e_K": -85.0}
DENDRITE = [
    (0, {"C_m": 0.1, "g_C": 0.1, "g_L": 0.01, "e_L": -70.0}),
    (0, {"C_m": 0.08, "g_C": 0.11, "g_L": 0.007, "e_L": -65.0, "v_comp": -66.0}),
    (0, {"C_m": 0.09, "g_C": 0.07, "g_L": 0.011, "e_L": -72.0, "gbar_K": 0.2, "e_Na": 50.0, "e_K": -90.0}),
    (1, {"C_m": 0.15, "g_C": 0.12, "g_L": 0.014, "e_L": -70.0, "gbar_Na": 0.5}),
    (4, {"C_m": 0.2, "g_C": 0.32, "g_L": 0.022, "e_L": -70.0}),
    (3, {"C_m": 0.12, "g_C": 0.12, "g_L": 0.01, "e_L": -70.0}),
]
COMPARTMENTS = [{"parent_idx": -1, "params": ACTIVE}] + [{"parent_idx": p, "params": d} for p, d in DENDRITE]
RECEPTORS = [
    {"comp_idx": 5, "receptor_type": "AMPA"},
    {"comp_idx": 0, "receptor_type": "GABA", "params": {"tau_d_GABA": 8.0}},
    {"comp_idx": 2, "receptor_type": "NMDA"},
    {"comp_idx": 4, "receptor_type": "AMPA_NMDA", "params": {"NMDA_ratio": 1.5, "tau_d_NMDA": 40.0}},
    {"comp_idx": 0, "receptor_type": "AMPA", "params": {"e_AMPA": 5.0, "tau_r_AMPA": 0.3}},
]


def recordables(n_comp, receptors):
    names = [f"{v}{c}" for c in range(n_comp) for v in ("v_comp", "m_Na_", "h_Na_", "n_K_")]
    for r, rec in enumerate(receptors):
        t = rec["receptor_type"]
        kinds = ("AN_AMPA", "AN_NMDA") if t == "AMPA_NMDA" else (t,)
        names += [f"g_{x}_{k}_{r}" for k in kinds for x in ("r", "d")]
    return names


def run(sim, threads=1):
    sim.ResetKernel()
    sim.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads})
    driver = sim.Create("cm_default", params={"compartments": COMPARTMENTS, "receptors": RECEPTORS, "V_th": -30.0})
    driven = sim.Create("cm_default", 2)
    driven.compartments = COMPARTMENTS[:4]
    driven.compartments += COMPARTMENTS[4:]
    driven.receptors = RECEPTORS[:2]
    driven.receptors += RECEPTORS[2:]
    cells = driver + driven
    for r in range(len(RECEPTORS)):
        times = [10.0 + 30.0 * r + 2.7 * j for j in range(5)]
        train = sim.Create("spike_generator", params={"spike_times": times, "spike_weights": [0.02 * (r + 1)] * 5})
        sim.Connect(train, cells, syn_spec={"receptor_type": r, "delay": 1.0})
    for k, c in enumerate((0, 5, 6)):
        step = sim.Create("dc_generator", params={"amplitude": 2.5 / (k + 1), "start": 20.0 + 40.0 * k, "stop": 150.0})
        sim.Connect(step, cells, syn_spec={"receptor_type": c})
    sim.Connect(driver, driven, syn_spec={"receptor_type": 3, "weight": 0.05, "delay": 2.0})
    out = record(sim, cells, recordables(len(COMPARTMENTS), RECEPTORS), T_SIM, interval=0.5)
    out["compartments"] = [dict(c) for c in cells[1].compartments]
    out["receptors"] = [dict(r) for r in cells[1].receptors]
    out["recordables"] = sorted(cells[1].get("recordables"))
    return out
