"""Structural plasticity (Diaz-Pier et al. 2016, as NEST 3.10 has it): each archiving neuron's
calcium and synaptic elements match NEST's to the bit on every growth curve; the synapses made and
removed match NEST's wherever its random pairing cannot change them (tests/mpi/structural_network.py,
fixture by benchmarks/peers/nest_network_fixtures.py structural); structural updates fall where
NEST's do; the rewired network is the same for any threads and processes and continues from a
checkpoint; Connect and Disconnect count the elements they join; bad input raises."""

import json
import pathlib
import sys

import numpy as np
import pytest
from mpi_launch import HAVE_MPI, mpirun
from ranvier.errors import (
    BadParameterError,
    IllegalConnectionError,
    UnknownModelError,
    UnknownParameterError,
    UnsupportedRequestError,
)

import ranvier as rv

sys.path.insert(0, str(pathlib.Path(__file__).parent / "mpi"))
import structural_network  # noqa: E402

NEST = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_structural.json").read_text())


@pytest.fixture(autouse=True)
def fresh_kernel():
    rv.ResetKernel()
    yield
    rv.ResetKernel()


def test_calcium_and_growth_curves_are_nest_s():
    got, ref = structural_network.run(rv, "growth"), NEST["growth"]
    for key in ("Ca", "L.z", "G.z", "S.z", "spikes.senders"):
        assert got[key] == ref[key], key
    np.testing.assert_allclose(got["spikes.times"], ref["spikes.times"], rtol=0, atol=1e-12)
    assert max(max(z) for z in got["G.z"]) > 1 and min(got["Ca"][-1]) > 0.2  # elements grew and shrank


def test_rewiring_is_nest_s_where_the_pairing_cannot_matter():
    got, ref = structural_network.run(rv, "rewiring"), NEST["rewiring"]
    for key in ("Ca", "Axon.z", "Axon.z_connected", "synapses", "spikes.senders"):
        assert got[key] == ref[key], key
    synapses = got["synapses"]
    assert max(synapses) > synapses[-1] > 0  # synapses were made, then removed
    assert [sum(n) for n in got["Den.z_connected"]] == synapses  # each synapse holds one dendritic element
    assert all(s != t for s, t, _ in got["connections"]) or len(got["connections"]) == synapses[-1]


def test_linear_growth_follows_its_closed_form():
    """Without spikes the calcium decays from its initial value, and a linear curve's elements
    grow by nu (t + tau_Ca (Ca(t) - Ca(0)) / eps)."""
    nu, eps, tau, ca0 = 0.01, 0.4, 300.0, 0.5
    n = rv.Create("iaf_psc_alpha", params={"Ca": ca0, "tau_Ca": tau})
    n.synaptic_elements = {"E": {"growth_curve": "linear", "growth_rate": nu, "eps": eps}}
    rv.Simulate(250.0)
    ca = ca0 * np.exp(-250.0 / tau)
    assert n.Ca == pytest.approx(ca, rel=1e-14)
    assert n.synaptic_elements["E"]["z"] == pytest.approx(nu * (250.0 + tau * (ca - ca0) / eps), rel=1e-13)


def test_updates_fall_at_cycle_starts_on_multiples_of_the_interval():
    """As NEST 3.10 does, run here: at t = 0, then first at 50 ms (a change of the elements at
    10 ms waits for it); a run ending at 50 ms leaves the update to the next run's first cycle."""
    rv.structural_plasticity_update_interval = 50.0
    rv.structural_plasticity_synapses = {
        "s": {"synapse_model": "static_synapse", "pre_synaptic_element": "A", "post_synaptic_element": "D"}
    }
    n = rv.Create(
        "iaf_psc_alpha",
        2,
        {"synaptic_elements": {"A": {"z": 1.0, "growth_rate": 0.0}, "D": {"z": 1.0, "growth_rate": 0.0}}},
    )
    rv.EnableStructuralPlasticity()
    counts = []
    for t in (10.0, 30.0, 9.9, 0.1, 0.1):
        if t == 9.9:
            n.synaptic_elements_param = {"A": {"z": 2.0}, "D": {"z": 2.0}}
        rv.Simulate(t)
        counts.append(len(rv.GetConnections(n, n)))
    assert counts == [2, 2, 2, 2, 4]
    rv.DisableStructuralPlasticity()
    n.synaptic_elements_param = {"A": {"z": 3.0}, "D": {"z": 3.0}}
    rv.Simulate(100.0)
    assert len(rv.GetConnections(n, n)) == 4


@pytest.mark.parametrize("case", ["rewiring", "recurrent"])
def test_threads_rewire_alike(case):
    reference = structural_network.run(rv, case)
    assert len(reference["connections"]) > 20
    assert structural_network.run(rv, case, 3) == reference


@pytest.mark.skipif(not HAVE_MPI, reason="Ranvier built without MPI")
@pytest.mark.parametrize(("processes", "threads"), [(2, 1), (3, 2)])
def test_processes_rewire_alike(processes, threads):
    reference = structural_network.run(rv, "recurrent")
    assert json.loads(mpirun(processes, "structural_network.py", "recurrent", threads)) == reference


def test_a_checkpoint_continues_the_rewiring(tmp_path):
    neurons, sr = structural_network.build(rv, "recurrent", 2)
    whole = structural_network.ending(rv, neurons, sr, structural_network.advance(rv, neurons, 6, {}))
    neurons, sr = structural_network.build(rv, "recurrent", 2)
    first = structural_network.advance(rv, neurons, 3, {})
    rv.SaveCheckpoint(tmp_path / "ckpt")
    rv.ResetKernel()
    rv.local_num_threads = 3
    rv.LoadCheckpoint(tmp_path / "ckpt")
    neurons, sr = rv.NodeCollection(neurons.tolist()), rv.NodeCollection([sr.global_id])
    resumed = structural_network.ending(rv, neurons, sr, structural_network.advance(rv, neurons, 3, first))
    assert resumed == whole


def test_connect_and_disconnect_count_the_elements():
    spec = {"synapse_model": "static_synapse", "pre_synaptic_element": "A", "post_synaptic_element": "D"}
    n = rv.Create("iaf_psc_alpha", 3, {"synaptic_elements": {"A": {}, "D": {}}})
    rv.Connect(n, n, {"rule": "all_to_all", "allow_autapses": False}, spec)
    assert [(e["A"]["z_connected"], e["D"]["z_connected"]) for e in n.synaptic_elements] == [(2, 2)] * 3
    rv.Connect(n[:2], n[1:], "one_to_one", spec)
    assert [e["A"]["z_connected"] for e in n.synaptic_elements] == [3, 3, 2]
    assert [e["D"]["z"] for e in n.synaptic_elements] == [2.0, 3.0, 3.0]  # z follows what is connected
    rv.Disconnect(n[:2], n[1:], "one_to_one", spec)
    assert [(e["A"]["z_connected"], e["D"]["z_connected"]) for e in n.synaptic_elements] == [(2, 2)] * 3
    with pytest.raises(UnsupportedRequestError, match="one_to_one or all_to_all"):
        rv.Connect(n, n, {"rule": "fixed_indegree", "indegree": 1}, spec)
    with pytest.raises(BadParameterError, match="both a pre- and postsynaptic element"):
        rv.Connect(n, n, "one_to_one", {"pre_synaptic_element": "A"})


def test_defaults_copies_and_status():
    assert rv.GetDefaults("iaf_psc_alpha", ["Ca", "tau_Ca", "beta_Ca", "synaptic_elements"]) == [
        0.0,
        10000.0,
        0.001,
        {},
    ]
    assert "Ca" not in rv.GetDefaults("iaf_psc_alpha", "recordables")
    rv.CopyModel("iaf_psc_alpha", "grower", {"synaptic_elements": {"E": {"growth_curve": "gaussian", "eta": 0.2}}})
    shown = rv.GetDefaults("grower", "synaptic_elements")["E"]
    assert shown == {
        "continuous": True,
        "eps": 0.7,
        "eta": 0.2,
        "growth_curve": "gaussian",
        "growth_rate": 1.0,
        "tau_vacant": 0.1,
        "z": 0.0,
        "z_connected": 0,
    }
    assert rv.Create("grower").synaptic_elements == {"E": shown}
    assert rv.Create("iaf_psc_alpha").synaptic_elements == {}
    n = rv.Create("iaf_psc_alpha", params={"synaptic_elements": {"E": {"growth_curve": "sigmoid", "eps": 0.2}}})
    n.synaptic_elements_param = {"E": {"growth_curve": "linear", "z": 2.5}, "absent": {"z": 1.0}}
    assert n.synaptic_elements == {
        "E": {
            "continuous": True,
            "eps": 0.7,
            "growth_curve": "linear",
            "growth_rate": 1.0,
            "tau_vacant": 0.1,
            "z": 2.5,
            "z_connected": 0,
        }
    }
    assert rv.growth_curves == ["gaussian", "linear", "sigmoid"]
    rv.structural_plasticity_synapses = {
        "x": {"pre_synaptic_element": "A", "post_synaptic_element": "B", "allow_multapses": False}
    }
    assert rv.structural_plasticity_synapses == {
        "x": {
            "allow_autapses": True,
            "allow_multapses": False,
            "post_synaptic_element": "B",
            "pre_synaptic_element": "A",
            "synapse_model": "static_synapse",
        }
    }


@pytest.mark.parametrize(
    ("params", "error", "message"),
    [
        ({"Ca": -1.0}, BadParameterError, "Ca must be >= 0"),
        ({"tau_Ca": 0.0}, BadParameterError, "tau_Ca must be > 0"),
        ({"beta_Ca": 0.0}, BadParameterError, "beta_Ca must be > 0"),
        ({"synaptic_elements": {"E": {"tau_vacant": 0.0}}}, BadParameterError, "E: tau_vacant must be > 0"),
        ({"synaptic_elements": {"E": {"growth_curve": "sigmoid", "psi": -1.0}}}, BadParameterError, "psi must be >= 0"),
        ({"synaptic_elements": {"E": {"growth_curve": "cubic"}}}, BadParameterError, "growth_curve must be 'gaussian'"),
        ({"synaptic_elements": {"E": {"growth_rte": 1.0}}}, UnknownParameterError, "no parameter growth_rte"),
        ({"synaptic_elements": {"E": {"z": "many"}}}, BadParameterError, "E: z must be a number"),
        ({"synaptic_elements": ["E"]}, BadParameterError, "synaptic_elements must be a dict"),
    ],
)
def test_bad_values_are_refused_and_change_nothing(params, error, message):
    n = rv.Create("iaf_psc_alpha", 2, {"synaptic_elements": {"E": {"z": 1.0}}})
    with pytest.raises(error, match=message):
        n.set(params)
    assert n[0].synaptic_elements["E"]["z"] == 1.0 and n[0].Ca == 0.0
    rv.Simulate(1.0)


def test_bad_structural_synapses_are_refused():
    with pytest.raises(BadParameterError, match="both a pre- and postsynaptic element"):
        rv.structural_plasticity_synapses = {"x": {"pre_synaptic_element": "A"}}
    with pytest.raises(UnknownModelError, match="nosuch"):
        rv.structural_plasticity_synapses = {
            "x": {"synapse_model": "nosuch", "pre_synaptic_element": "A", "post_synaptic_element": "B"}
        }
    with pytest.raises(UnknownParameterError, match="no key wieght"):
        rv.structural_plasticity_synapses = {
            "x": {"wieght": 1.0, "pre_synaptic_element": "A", "post_synaptic_element": "B"}
        }
    with pytest.raises(BadParameterError, match="structural_plasticity_update_interval must be"):
        rv.structural_plasticity_update_interval = -1.0
    with pytest.raises(UnknownParameterError, match="no parameter synaptic_elements"):
        rv.Create("dc_generator").set({"synaptic_elements": {}})
    assert rv.structural_plasticity_synapses == {}


def test_a_synapse_model_that_cannot_join_the_neurons_fails_the_update_on_every_rank_alike():
    """NEST takes any synapse model here; Connect's error comes when an update makes synapses,
    and the kernel goes on."""
    rv.structural_plasticity_synapses = {
        "s": {"synapse_model": "gap_junction", "pre_synaptic_element": "A", "post_synaptic_element": "D"}
    }
    n = rv.Create("iaf_psc_alpha", 2, {"synaptic_elements": {"A": {"z": 1.0}, "D": {"z": 1.0}}})
    rv.EnableStructuralPlasticity()
    with pytest.raises(IllegalConnectionError, match="gap junction"):
        rv.Simulate(10.0)
    rv.DisableStructuralPlasticity()
    rv.Simulate(10.0)
    assert rv.biological_time == 10.0 and len(rv.GetConnections(n, n)) == 0
