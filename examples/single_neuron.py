"""One iaf_psc_alpha neuron driven above threshold by a constant current."""

import ranvier as rv

rv.ResetKernel()
neuron = rv.Create("iaf_psc_alpha")  # E_L = -70 mV, V_th = -55 mV, C_m = 250 pF
current = rv.Create("dc_generator", params={"amplitude": 450.0, "start": 50.0})  # pA
voltmeter = rv.Create("voltmeter", params={"interval": 0.1})
spikes = rv.Create("spike_recorder")

rv.Connect(current, neuron)
rv.Connect(voltmeter, neuron)
rv.Connect(neuron, spikes)

rv.Simulate(300.0)

print("spike times (ms):", spikes.events["times"])
v = voltmeter.events["V_m"]
print(f"V_m recorded at {len(v)} times, between {v.min():.2f} and {v.max():.2f} mV")
