"""A network with cont_delay_synapse connections, written against PyNEST's API so that NEST 3.10
(benchmarks/peers/nest_network_fixtures.py) and Ranvier (tests/test_cont_delay.py) build the
same: precise spike times through a parrot_neuron_ps and straight from the generator into
iaf_psc_delta_ps cells (which fire at each input's time) and iaf_psc_delta cells (on the grid),
over delays set by SetDefaults and by SynapseCollection.set. (A delay given to Connect NEST
rounds to whole steps, and run here it also kept the last SetDefaults' fraction: 2.05 ms after
SetDefaults(delay=1.33) gave 2.03 ms. Ranvier keeps the delay given.)"""

SPIKES = [1.03, 3.57, 6.0, 8.999, 11.55, 14.25]  # ms, apart by more than the cells' t_ref (2 ms)
DELAYS = [
    1.0,
    1.34,
    2.015,
    1.972,
]  # ms: whole steps, and fractions whose offsets sum with the spikes' below and above a step, never to one
T_END = 20.0


def run(nest):
    """Each target's spike times (precise cells, then grid cells), and the delays GetConnections
    shows, in connection order."""
    nest.ResetKernel()
    gen, direct = nest.Create("spike_generator", 2, params={"spike_times": SPIKES, "precise_times": True})
    parrot = nest.Create("parrot_neuron_ps")
    nest.Connect(gen, parrot, syn_spec={"delay": 1.0})
    cells = {
        "precise": nest.Create("iaf_psc_delta_ps", 2 * len(DELAYS) + 1),
        "grid": nest.Create("iaf_psc_delta", len(DELAYS)),
    }
    params = {"synapse_model": "cont_delay_synapse", "weight": 20.0}
    for k, d in enumerate(DELAYS):  # the model's delay: NEST rounds a delay given to Connect
        nest.SetDefaults("cont_delay_synapse", {"delay": d})
        nest.Connect(parrot, cells["precise"][k], syn_spec=params)
        nest.Connect(parrot, cells["grid"][k], syn_spec=params)
        nest.Connect(direct, cells["precise"][len(DELAYS) + k], syn_spec=params)
    nest.SetDefaults("cont_delay_synapse", {"delay": 1.0})
    nest.Connect(parrot, cells["precise"][-1], syn_spec=params)
    nest.GetConnections(parrot, cells["precise"][-1]).set({"delay": 2.62})
    recorder = nest.Create("spike_recorder")
    nest.Connect(cells["precise"] + cells["grid"], recorder)
    nest.Simulate(T_END)
    ev = recorder.events
    times = {}
    for sender, t in zip(ev["senders"].tolist(), ev["times"].tolist()):
        times.setdefault(int(sender), []).append(float(t))
    conns = nest.GetConnections(synapse_model="cont_delay_synapse")
    order = sorted(range(len(conns)), key=lambda i: (conns.source[i], conns.target[i]))
    return {
        "spikes": [sorted(times.get(int(g), [])) for g in (cells["precise"] + cells["grid"]).tolist()],
        "delays": [float(conns.delay[i]) for i in order],
    }


fixture = run
