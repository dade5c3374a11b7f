"""pyNN.ranvier, Ranvier's PyNN back end: the same deterministic PyNN script as on pyNN.nest
(PyNN 0.13 on NEST 3.10; benchmarks/peers/pynn_nest_fixture.py) gives the same spikes, membrane
potentials, conductances and weights, before and after a reset, with PyNN's spike times on
the grid and off it. PyNN's own system tests run through benchmarks/peers/run_pynn_scenarios.py."""

import json
import os
import sys

import numpy as np
import pytest

sim = pytest.importorskip("pyNN.ranvier")

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "benchmarks", "peers"))
import pynn_nest_fixture  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "fixtures", "pynn_nest.json")) as f:
    NEST = json.load(f)["results"]


@pytest.fixture(scope="module", params=pynn_nest_fixture.PRECISIONS)
def run(request):
    return request.param, pynn_nest_fixture.scenario(sim, request.param)


def test_same_results_as_pynn_nest(run):
    precision, results = run
    for key, expected in NEST[precision].items():
        assert results[key] == expected, key


def test_reset_needs_t_flush_as_on_pynn_nest():
    sim.setup()
    sim.Population(1, sim.IF_curr_exp())
    sim.run(10.0)
    with pytest.raises(ValueError, match="t_flush"):
        sim.reset()


def test_bad_values_raise_pynn_errors():
    from pyNN import errors

    sim.setup()
    with pytest.raises(errors.InvalidParameterValueError, match="ascending"):
        sim.Population(1, sim.SpikeSourceArray(spike_times=[3.0, 1.0]))
    with pytest.raises(errors.InvalidParameterValueError, match="increasing"):
        sim.StepCurrentSource(times=[0.4, 0.2], amplitudes=[0.5, 0.1])
    with pytest.raises(TypeError, match="spike source"):
        sim.DCSource(amplitude=1.0).inject_into(sim.Population(1, sim.SpikeSourcePoisson(rate=1.0)))


def test_native_cell_type_and_projection_set():
    sim.setup(spike_precision="on_grid")
    cell_type = sim.native_cell_type("iaf_psc_alpha")
    cells = sim.Population(2, cell_type(I_e=400.0, tau_m=12.0))
    cells.record(["spikes", "V_m"])
    source = sim.Population(2, sim.SpikeSourceArray(spike_times=[[5.0], [6.0]]))
    projection = sim.Projection(source, cells, sim.AllToAllConnector(), sim.StaticSynapse(weight=0.1, delay=1.0))
    projection.set(weight=np.array([[0.1, 0.2], [0.3, 0.4]]))
    assert projection.get("weight", format="array").tolist() == [[0.1, 0.2], [0.3, 0.4]]
    sim.run(50.0)
    assert cells.get("tau_m") == 12.0
    assert len(cells.get_data().segments[0].spiketrains[0]) > 0
    assert cells.get_data().segments[0].filter(name="V_m")[0].shape == (501, 2)
    sim.end()


def test_inhibitory_weights_as_pynn_gives_them():
    """Current-based cells take an inhibitory weight with its sign (PyNN's negative nA);
    conductance-based ones a positive conductance, stored negative as NEST's models want it."""
    import ranvier

    sim.setup()
    source = sim.Population(1, sim.SpikeSourceArray(spike_times=[5.0]))
    for celltype, weight, stored in ((sim.IF_curr_exp(), -0.5, -500.0), (sim.IF_cond_exp(), 0.05, -50.0)):
        cells = sim.Population(1, celltype)
        projection = sim.Projection(source, cells, sim.AllToAllConnector(), sim.StaticSynapse(weight=weight),
                                    receptor_type="inhibitory")  # fmt: skip
        assert projection.get("weight", format="list", with_address=False) == [pytest.approx(weight)]
        assert ranvier.GetConnections(synapse_model=projection._model).weight == pytest.approx(stored)


@pytest.mark.skipif(not __import__("mpi_launch").HAVE_MPI, reason="needs MPI")
def test_processes_give_the_same_data_on_rank_0():
    """Every cell is local to every rank and rank 0 holds every rank's events after a run, so
    PyNN's get_data needs no gather (mpi4py) and returns the same data for any processes; a
    projection's get and size gather by Ranvier's GetConnections(gather=True): every
    connection's weight and delay, in one order, whatever the processes."""
    from mpi_launch import mpirun

    one, two = mpirun(1, "pynn_network.py"), mpirun(2, "pynn_network.py")
    assert one == two and int(one.split()[0]) > 100
    size, listed = (int(n) for n in one.split()[2:4])
    assert size == listed > 500


def test_an_assembly_takes_its_cells_signs():
    """Onto an Assembly (no cell type of its own) of conductance-based cells, an inhibitory
    weight is negated as onto a Population (the COBA network's inh -> exc + inh projection ran
    away before: its inhibition was excitatory)."""
    import ranvier

    sim.setup()
    source = sim.Population(1, sim.SpikeSourceArray(spike_times=[5.0]))
    both = sim.Population(1, sim.IF_cond_exp()) + sim.Population(1, sim.IF_cond_alpha())
    projection = sim.Projection(source, both, sim.AllToAllConnector(), sim.StaticSynapse(weight=0.05),
                                receptor_type="inhibitory")  # fmt: skip
    assert ranvier.GetConnections(synapse_model=projection._model).weight == [pytest.approx(-50.0)] * 2
    assert projection.get("weight", format="list", with_address=False) == [pytest.approx(0.05)] * 2


def test_native_rng_connects_by_ranvier_rules():
    """Connectors and distributions given a NativeRNG are drawn in the kernel by Ranvier's
    rules: FixedProbability as pairwise_bernoulli (7,000 expected of 10,000 pairs, sd 46),
    FixedNumberPre as fixed_indegree (exactly n per target), a normal weight per connection."""
    from pyNN.random import RandomDistribution

    sim.setup()
    a, b = sim.Population(100, sim.IF_cond_exp()), sim.Population(100, sim.IF_cond_exp())
    rng = sim.NativeRNG(seed=12345)
    weight = RandomDistribution("normal", mu=0.5, sigma=0.01, rng=rng)
    bernoulli = sim.Projection(
        a, b, sim.FixedProbabilityConnector(0.7, rng=rng), sim.StaticSynapse(weight=weight), receptor_type="excitatory"
    )
    assert abs(len(bernoulli) - 7000) < 5 * 46
    weights = np.asarray(bernoulli.get("weight", format="list", with_address=False))
    assert abs(weights.mean() - 0.5) < 5 * 0.01 / np.sqrt(len(weights)) and abs(weights.std() - 0.01) < 0.001
    indegree = sim.Projection(a, b, sim.FixedNumberPreConnector(7, rng=rng), sim.StaticSynapse(weight=0.1))
    counts = np.bincount([int(t) for _, t, _ in indegree.get("weight", format="list")], minlength=100)
    assert (counts == 7).all()


def test_weight_dependences_and_cells_pynn_nest_cannot_make():
    """GutigWeightDependence keeps its mu_plus and mu_minus (pyNN.nest sets 0.5 whatever is
    given), and IF_cond_exp_gsfa_grr (iaf_cond_exp_sfa_rr) records its adaptation and
    refractory conductances g_s and g_r in nS (pyNN.nest cannot make it: its variable_map lacks
    g_r)."""
    import ranvier

    sim.setup(timestep=0.1)
    cells = sim.Population(2, sim.IF_cond_exp_gsfa_grr(i_offset=2.0, q_sfa=20.0))
    cells.record(["spikes", "g_s", "g_r"])
    source = sim.Population(1, sim.SpikeSourceArray(spike_times=[5.0]))
    rule = sim.SpikePairRule(tau_plus=15.0, tau_minus=25.0, A_plus=0.05, A_minus=0.04)
    gutig = sim.GutigWeightDependence(w_min=0.0, w_max=0.2, mu_plus=0.3, mu_minus=0.6)
    projection = sim.Projection(source, cells, sim.AllToAllConnector(), sim.STDPMechanism(rule, gutig, weight=0.1))
    stored = ranvier.GetConnections(synapse_model=projection._model)
    assert list(stored.mu_plus) == [0.3, 0.3] and list(stored.mu_minus) == [0.6, 0.6]
    sim.run(100.0)
    segment = cells.get_data().segments[0]
    spikes = segment.spiketrains[0]
    g_s = np.asarray(segment.filter(name="g_s")[0].magnitude)[:, 0]
    assert len(spikes) >= 2 and 20.0 <= g_s.max() <= 20.0 * len(spikes)  # q_sfa per spike, decaying
    assert np.asarray(segment.filter(name="g_r")[0].magnitude).max() > 1000.0  # q_rr = 3000 nS at each spike
