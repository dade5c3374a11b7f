"""A PyNN network on pyNN.ranvier (Poisson sources, random connectors with seeded NumPy
generators and a NativeRNG one, conductance-based cells); prints on rank 0 the spike count,
a digest of the spikes and membrane potentials PyNN's get_data returns, and the count and a
digest of the connections the projections' get gathers.

    mpiexec -n 2 python pynn_network.py
"""

import hashlib

import numpy as np
import pyNN.ranvier as sim

sim.setup(timestep=0.1, spike_precision="on_grid")
sources = sim.Population(20, sim.SpikeSourcePoisson(rate=50.0))
cells = sim.Population(40, sim.IF_cond_exp())
connector = sim.FixedProbabilityConnector(0.3, rng=sim.NumpyRNG(seed=4))
projections = [
    sim.Projection(sources, cells, connector, sim.StaticSynapse(weight=0.02, delay=1.0)),
    sim.Projection(
        cells,
        cells,
        sim.FixedNumberPreConnector(5, rng=sim.NumpyRNG(seed=5)),
        sim.StaticSynapse(weight=0.01, delay=1.5),
    ),
    sim.Projection(
        cells,
        cells,
        sim.FixedProbabilityConnector(0.1, rng=sim.NativeRNG(seed=6)),
        sim.StaticSynapse(weight=0.0, delay=sim.RandomDistribution("uniform", (1.0, 3.0), rng=sim.NativeRNG())),
    ),
]
cells.record(["spikes", "v"])
sim.run(200.0)
segment = cells.get_data().segments[0]
connections = [c for p in projections for c in p.get(["weight", "delay"], format="list")]  # every rank gathers
delays = projections[2].get("delay", format="array")
if sim.rank() == 0:
    spikes = np.concatenate([np.asarray(train.magnitude) for train in segment.spiketrains])
    digest = hashlib.sha1(spikes.tobytes() + np.asarray(segment.analogsignals[0].magnitude).tobytes()).hexdigest()
    wiring = hashlib.sha1(np.asarray(connections).tobytes() + np.nan_to_num(delays).tobytes()).hexdigest()
    print(len(spikes), digest, sum(p.size() for p in projections), len(connections), wiring)
sim.end()
