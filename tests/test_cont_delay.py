"""cont_delay_synapse: delays that need not be whole steps, against NEST 3.10's spike times and
delays (tests/fixtures/nest_cont_delay.json, written by benchmarks/peers/nest_network_fixtures.py
from tests/cont_delay_network.py) and against the exact arrival times."""

import json
import pathlib

import numpy as np
import pytest
from cont_delay_network import DELAYS, SPIKES, run
from ranvier.errors import BadParameterError

import ranvier as rv

NEST = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_cont_delay.json").read_text())


def test_spikes_and_delays_are_nest_s():
    got = run(rv)
    np.testing.assert_allclose(got["delays"], NEST["delays"], rtol=0, atol=1e-12)
    n = len(DELAYS)
    for k, (a, b) in enumerate(zip(got["spikes"], NEST["spikes"])):
        # spikes relayed by the parrot cross the exchange, whose offsets are whole fractions of
        # a step (about 5e-10 ms here); the generator's reach their targets as given
        relayed = k < n or k == 2 * n
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-9 if relayed else 1e-12, err_msg=f"cell {k}")
    # precise cells fire at each input's time: the spike's time plus the delays
    for k, d in enumerate(DELAYS):
        np.testing.assert_allclose(got["spikes"][n + k], [t + d for t in SPIKES if t + d < 20.0], atol=1e-12)


def test_a_delay_given_to_connect_keeps_its_fraction():
    gen = rv.Create("spike_generator", params={"spike_times": [1.03, 4.5], "precise_times": True})
    cells = rv.Create("iaf_psc_delta_ps", 2)
    rv.Connect(gen, cells[0], syn_spec={"synapse_model": "cont_delay_synapse", "weight": 20.0, "delay": 1.37})
    rv.Connect(gen, cells[1], syn_spec={"synapse_model": "cont_delay_synapse", "weight": 20.0, "delay": 2.0})
    recorder = rv.Create("spike_recorder")
    rv.Connect(cells, recorder)
    rv.Simulate(10.0)
    assert rv.GetConnections(synapse_model="cont_delay_synapse").delay == pytest.approx((1.37, 2.0), abs=1e-12)
    ev = recorder.events
    for cell, d in zip(cells.tolist(), (1.37, 2.0)):
        np.testing.assert_allclose(ev["times"][ev["senders"] == cell], [1.03 + d, 4.5 + d], atol=1e-12)


def test_an_arrival_on_the_grid_is_on_it():
    """A spike 0.03 ms before the end of its step through a delay with offset 0.07 ms arrives on
    a grid point (NEST's sum of doubles falls on either side of it, depending on the digits);
    a cell on the grid sees it in the step that ends there."""
    gen = rv.Create("spike_generator", params={"spike_times": [4.57], "precise_times": True})
    parrot, cell = rv.Create("parrot_neuron_ps"), rv.Create("iaf_psc_delta")
    rv.Connect(gen, parrot, syn_spec={"delay": 1.0})
    rv.Connect(parrot, cell, syn_spec={"synapse_model": "cont_delay_synapse", "weight": 20.0, "delay": 1.33})
    recorder = rv.Create("spike_recorder")
    rv.Connect(cell, recorder)
    rv.Simulate(10.0)
    assert recorder.events["times"].tolist() == pytest.approx([6.9])


def test_threads_give_identical_spikes():
    reference = run(rv)
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": 2})
    assert run(rv) == reference


def test_a_delay_below_the_resolution_is_refused():
    rv.SetKernelStatus({"resolution": 1.0})
    n = rv.Create("iaf_psc_delta_ps", 2)
    with pytest.raises(BadParameterError, match="delay"):
        rv.SetDefaults("cont_delay_synapse", {"delay": 0.7})
    rv.Connect(n[0], n[1], syn_spec={"synapse_model": "cont_delay_synapse", "delay": 1.5})
    with pytest.raises(BadParameterError, match="delay"):
        rv.GetConnections(n[0], n[1]).set(delay=0.7)
    assert rv.GetConnections(n[0], n[1]).delay == 1.5
