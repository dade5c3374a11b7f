"""The network tests/test_clopath.py runs on Ranvier and benchmarks/peers/nest_scenario_fixtures.py
on NEST 3.10: aeif_psc_delta_clopath neurons (NEST's spike-pairing parameters; one with a
voltage-dependent depression, another delay of the filtered potentials and a refractory time,
one driven to fire on its own) receiving clopath synapses from parrots of pre spike trains at two
delays, one of them capped by Wmax, and from one another; hh_psc_alpha_clopath neurons (NEST's
parameters of its spike-pairing test) receiving them from the parrots; post spikes forced by
spike trains.
Every recordable every 0.5 ms, every weight the weight recorder sees, the spikes, and the final
weights and x_bar of every connection."""

from scenario_recording import record

T_SIM = 420.0
PARAMS = {
    "V_m": -70.6,
    "E_L": -70.6,
    "V_peak": 33.0,
    "C_m": 281.0,
    "theta_minus": -70.6,
    "theta_plus": -45.3,
    "A_LTD": 14.0e-5,
    "A_LTP": 8.0e-5,
    "tau_u_bar_minus": 10.0,
    "tau_u_bar_plus": 7.0,
    "delay_u_bars": 4.0,
    "a": 4.0,
    "b": 0.0805,
    "V_reset": -70.6 + 21.0,
    "V_clamp": 33.0,
    "t_clamp": 2.0,
    "t_ref": 0.0,
}
HH_PARAMS = {
    "V_m": -64.9,
    "C_m": 100.0,
    "tau_syn_ex": 0.2,
    "tau_syn_in": 2.0,
    "theta_minus": -64.9,
    "theta_plus": -35.0,
    "A_LTD": 14.0e-5,
    "A_LTP": 8.0e-5,
    "tau_u_bar_minus": 10.0,
    "tau_u_bar_plus": 114.0,
    "delay_u_bars": 5.0,
}
RECORDABLES = ["V_m", "w", "z", "V_th", "u_bar_plus", "u_bar_minus", "u_bar_bar"]
HH_RECORDABLES = ["V_m", "Act_m", "Inact_h", "I_syn_ex", "u_bar_plus", "u_bar_minus", "u_bar_bar"]
PRE = [[29.0, 62.3, 95.7, 129.0, 162.3, 262.0, 300.1], [49.0, 69.0, 89.0, 109.0, 129.0, 149.0, 350.0]]
POST = [[19.0, 52.3, 85.7, 119.0, 152.3, 270.0], [59.0, 79.0, 99.0, 119.0, 139.0, 159.0, 340.0]]


def run(sim, threads=1):
    sim.ResetKernel()
    sim.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads})
    cells = sim.Create("aeif_psc_delta_clopath", 3, params=PARAMS)
    cells[1].set({"A_LTD_const": False, "delay_u_bars": 3.0, "t_ref": 1.0})
    cells[2].set({"I_e": 700.0})
    parrots = sim.Create("parrot_neuron", 2)
    for k in range(2):
        sim.Connect(sim.Create("spike_generator", params={"spike_times": PRE[k]}), parrots[k], syn_spec={"delay": 0.1})
        post = sim.Create("spike_generator", params={"spike_times": POST[k]})
        sim.Connect(post, cells[k], syn_spec={"delay": 0.1, "weight": 80.0})
    wr = sim.Create("weight_recorder")
    sim.CopyModel("clopath_synapse", "clopath_rec", {"weight_recorder": wr})
    sim.Connect(parrots[0], cells, syn_spec={"synapse_model": "clopath_rec", "weight": 0.5, "delay": 0.1})
    sim.Connect(
        parrots[1], cells, syn_spec={"synapse_model": "clopath_rec", "weight": 0.5, "delay": 1.5, "Wmax": 0.505}
    )
    sim.Connect(
        cells[2], cells[:2], syn_spec={"synapse_model": "clopath_rec", "weight": 3.0, "delay": 2.0, "x_bar": 0.1}
    )
    hh = sim.Create("hh_psc_alpha_clopath", 2, params=HH_PARAMS)
    hh[1].set({"A_LTD_const": False, "I_e": 300.0})
    for k in range(2):
        post = sim.Create("spike_generator", params={"spike_times": POST[k]})
        sim.Connect(post, hh[k], syn_spec={"delay": 0.1, "weight": 2000.0})
    sim.Connect(parrots, hh, syn_spec={"synapse_model": "clopath_rec", "weight": 0.5, "delay": 0.2})
    hh_meter = sim.Create("multimeter", params={"record_from": HH_RECORDABLES, "interval": 0.5})
    sim.Connect(hh_meter, hh)
    sim.Connect(hh, sim.Create("spike_recorder"))
    out = record(sim, cells, RECORDABLES, T_SIM, interval=0.5)
    hh_events = hh_meter.get("events")
    for key in HH_RECORDABLES + ["senders"]:
        out[f"hh_{key}"] = [float(v) for v in hh_events[key]]
    events = wr.get("events")
    for key in ("senders", "targets", "times", "weights"):
        out[f"wr_{key}"] = [float(v) for v in events[key]]
    got = sim.GetConnections(synapse_model="clopath_rec").get(["source", "target", "weight", "x_bar"])
    out["connections"] = sorted(zip(*(list(map(float, got[k])) for k in ("source", "target", "weight", "x_bar"))))
    return out
