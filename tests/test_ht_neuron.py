"""ht_neuron (Hill & Tononi 2005, as NEST 3.10 has it): every recordable of cells driven by a
current, by spikes at each receptor, with NMDA's instant unblocking and under voltage clamp
equals NEST's to the bit (tests/ht_network.py, fixture by benchmarks/peers/nest_network_fixtures.py
ht), with the same spikes; its receptors, defaults and checks are
NEST's; the same for any threads."""

import json
import pathlib

import ht_network
import numpy as np
import pytest
from ranvier.errors import BadParameterError

import ranvier as rv

NEST = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_ht.json").read_text())


@pytest.fixture(autouse=True)
def fresh_kernel():
    rv.ResetKernel()
    yield
    rv.ResetKernel()


def test_cells_follow_nest_s():
    got = ht_network.run(rv)
    assert got["times"] == NEST["times"] and got["senders"] == NEST["senders"]
    np.testing.assert_allclose(got["spikes.times"], NEST["spikes.times"], rtol=0, atol=1e-12)
    assert len(got["spikes.times"]) > 10
    for key in ht_network.RECORDABLES:  # to the bit: NEST's arithmetic, and its solver's steps
        assert got[key] == NEST[key], key
    clamped = np.asarray(got["V_m"])[np.asarray(got["senders"]) == 4]
    assert np.all(clamped == -60.0)


def test_threads_give_identical_cells():
    assert ht_network.run(rv, 3) == ht_network.run(rv)


def test_receptors_and_defaults_are_nest_s():
    d = rv.GetDefaults("ht_neuron")
    assert d["receptor_types"] == {"AMPA": 1, "NMDA": 2, "GABA_A": 3, "GABA_B": 4}
    assert d["V_m"] == -70.0 and d["theta"] == -51.0 and d["tau_D_KNa"] == 1250.0
    n = rv.Create("ht_neuron", 2)
    with pytest.raises(BadParameterError, match=r"receptor_type must be 1\.\.4 for spikes into ht_neuron"):
        rv.Connect(n[0], n[1])  # receptor 0: NEST refuses spikes there
    rv.Connect(n[0], n[1], syn_spec={"synapse_model": "ht_synapse", "receptor_type": 2})
    assert rv.GetConnections(n[0]).receptor == 1  # NEST's rport: the receptor_type less one


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"tau_rise_AMPA": 3.0}, "tau_rise_AMPA must be < tau_decay_AMPA"),
        ({"tau_Mg_fast_NMDA": 30.0}, "tau_Mg_fast_NMDA must be < tau_Mg_slow_NMDA"),
        ({"g_peak_NMDA": -1.0}, "g_peak_NMDA must be >= 0"),
        ({"tau_theta": 0.0}, "tau_theta must be > 0"),
    ],
)
def test_bad_parameters_are_refused(params, message):
    n = rv.Create("ht_neuron")
    with pytest.raises(BadParameterError, match=message):
        n.set(params)
    assert n.tau_rise_AMPA == 0.5


def test_equilibrate_sets_the_gates_for_the_new_potential():
    n = rv.Create("ht_neuron", 2)
    n[0].set({"V_m": -60.0, "equilibrate": True})
    n[1].set({"V_m": -60.0})
    assert n[0].m_Ih != n[1].m_Ih and n[1].m_Ih == rv.GetDefaults("ht_neuron", "m_Ih")
    assert n[0].equilibrate is False
