"""cm_default (NEST's compartmental model) against NEST 3.10 (tests/fixtures/nest_cm_default.json,
written by benchmarks/peers/nest_scenario_fixtures.py on tests/cm_default_scenario.py): every
recordable and the spikes to the last bit; one step of a passive tree against the linear system
it solves; the same on any number of threads; NEST's errors."""

import json
import pathlib

import numpy as np
import pytest
from cm_default_scenario import COMPARTMENTS, RECEPTORS, recordables, run
from scenario_recording import by_sender

import ranvier as rv

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_cm_default.json").read_text())
RECORDED = recordables(len(COMPARTMENTS), RECEPTORS)


def check_against_nest(got):
    senders, times, *values = by_sender(got, "senders", "times", *RECORDED)
    nest_senders, nest_times, *nest_values = by_sender(FIXTURE, "senders", "times", *RECORDED)
    np.testing.assert_array_equal(senders, nest_senders)
    np.testing.assert_allclose(times, nest_times, rtol=0, atol=1e-9)
    for name, mine, nests in zip(RECORDED, values, nest_values):
        np.testing.assert_array_equal(mine, nests, err_msg=name)  # to the last bit: NEST's steps and arithmetic
    spike_senders, spike_times = by_sender(got, "spike_senders", "spike_times")
    assert len(spike_times) >= 5 and set(spike_senders) == {1, 2, 3}
    np.testing.assert_array_equal(spike_senders, by_sender(FIXTURE, "spike_senders", "spike_times")[0])
    np.testing.assert_allclose(spike_times, by_sender(FIXTURE, "spike_senders", "spike_times")[1], rtol=0, atol=1e-9)


def test_every_recordable_and_the_spikes_are_nests():
    got = run(rv)
    check_against_nest(got)
    assert got["compartments"] == FIXTURE["compartments"] and got["receptors"] == FIXTURE["receptors"]
    assert got["recordables"] == FIXTURE["recordables"]


def test_the_same_on_two_threads():
    check_against_nest(run(rv, threads=2))


def test_one_step_solves_the_crank_nicolson_system():
    """From rest at leaks that differ, one step gives the solution of NEST's system
    (C/dt + G/2) v' = (C/dt - G/2) v + g_L e_L, G the tree's conductance matrix with the leaks."""
    dt = 0.1
    rv.ResetKernel()
    tree = [
        (-1, 1.0, 0.0, 0.1, -70.0),
        (0, 0.1, 0.1, 0.01, -60.0),
        (0, 0.08, 0.11, 0.007, -80.0),
        (1, 0.2, 0.3, 0.02, -50.0),
    ]
    cell = rv.Create("cm_default", params={"V_th": 100.0})
    cell.compartments = [
        {"parent_idx": p, "params": {"C_m": c, "g_C": gc, "g_L": gl, "e_L": el, "v_comp": el}}
        for p, c, gc, gl, el in tree
    ]
    meter = rv.Create("multimeter", params={"record_from": [f"v_comp{k}" for k in range(4)], "interval": dt})
    rv.Connect(meter, cell)
    rv.Simulate(1.0)  # the first sample (t = dt) is after one step; without connections
    rv.Simulate(1.0)  # NEST's multimeter gets it only in the next Simulate call (NEST 3.10, run)
    n = len(tree)
    g = np.zeros((n, n))
    for k, (p, _, gc, gl, _) in enumerate(tree):
        g[k, k] += gl
        if p >= 0:
            g[[k, p], [k, p]] += gc
            g[[k, p], [p, k]] -= gc
    c = np.diag([t[1] for t in tree]) / dt
    v0 = np.array([t[4] for t in tree])
    expected = np.linalg.solve(c + g / 2, (c - g / 2) @ v0 + np.array([t[3] * t[4] for t in tree]))
    got = np.array([meter.events[f"v_comp{k}"][0] for k in range(n)])
    np.testing.assert_allclose(got, expected, rtol=1e-13, atol=0)
    assert not np.allclose(got, v0)  # the step did move them


def test_structure_is_one_per_create_call_and_grows_only_while_unconnected():
    rv.ResetKernel()
    cells = rv.Create("cm_default", 2)
    with pytest.raises(rv.BadParameterError, match="one for all nodes of a Create call"):
        cells[0].compartments = COMPARTMENTS[:1]
    cells.compartments = COMPARTMENTS[:1]
    assert cells[1].compartments[0] == {"comp_idx": 0, "parent_idx": -1}
    cells.receptors = {"comp_idx": 0, "receptor_type": "AMPA"}
    rv.Connect(rv.Create("spike_generator"), cells, syn_spec={"receptor_type": 0})
    with pytest.raises(rv.BadParameterError, match="number of ports cannot change"):
        cells.receptors += {"comp_idx": 0, "receptor_type": "GABA"}
    assert len(cells[0].receptors) == 1  # as it was


@pytest.mark.parametrize(
    "structure, error, message",
    [
        ({"compartments": [COMPARTMENTS[0], COMPARTMENTS[0]]}, rv.BadParameterError, "Compartment 0 , the root"),
        (
            {"compartments": [COMPARTMENTS[0], {"parent_idx": 15}]},
            rv.BadParameterError,
            "Compartment 15 does not exist",
        ),
        (
            {"compartments": COMPARTMENTS[0], "receptors": {"comp_idx": 12, "receptor_type": "GABA"}},
            rv.BadParameterError,
            "Compartment 12 does not exist in tree",
        ),
        (
            {"compartments": COMPARTMENTS[0], "receptors": {"comp_idx": 0, "receptor_type": "GABBA"}},
            rv.BadParameterError,
            "receptor_type = GABBA",
        ),
        ({"compartments": {"parent_idx": -1, "params": {"bla": 5.0}}}, rv.UnknownParameterError, "no parameter bla"),
        ({"compartments": {"parent_idx": -1, "params_name": {}}}, rv.UnknownParameterError, "no entry params_name"),
        (
            {
                "compartments": COMPARTMENTS[0],
                "receptors": {"comp_idx": 0, "receptor_type": "AMPA", "params": {"e_GABA": 1.0}},
            },
            rv.UnknownParameterError,
            "no parameter e_GABA",
        ),
        ({"compartments": {"parent_idx": -1, "params": {"C_m": 0.0}}}, rv.BadParameterError, "C_m = 0"),
        (
            {
                "compartments": COMPARTMENTS[0],
                "receptors": {"comp_idx": 0, "receptor_type": "NMDA", "params": {"tau_r_NMDA": 5.0, "tau_d_NMDA": 2.0}},
            },
            rv.BadParameterError,
            "tau_d = 2",
        ),
        ({"compartments": "soma"}, rv.BadParameterError, "dict or a list of dicts"),
    ],
)
def test_bad_structures_raise_and_leave_the_cell_as_it_was(structure, error, message):
    rv.ResetKernel()
    cell = rv.Create("cm_default")
    with pytest.raises(error, match=message):
        cell.set(structure)
    assert len(cell.compartments) == 0 and len(cell.receptors) == 0
    cell.set({"compartments": COMPARTMENTS[:2], "receptors": {"comp_idx": 1, "receptor_type": "AMPA"}})  # usable
    assert len(cell.compartments) == 2


def test_nests_errors_at_connect_and_simulate():
    rv.ResetKernel()
    empty = rv.Create("cm_default")
    with pytest.raises(rv.KernelStateError, match="no compartments have been added"):
        rv.Simulate(1.0)
    rv.ResetKernel()
    cell = rv.Create("cm_default", params={"compartments": COMPARTMENTS[:2], "receptors": RECEPTORS[1:2]})
    with pytest.raises(rv.BadParameterError, match=r"Valid current receptor ports for cm_default are in \[0, 2\["):
        rv.Connect(rv.Create("dc_generator"), cell, syn_spec={"receptor_type": 2})
    with pytest.raises(rv.BadParameterError, match=r"Valid spike receptor ports for cm_default are in \[0, 1\["):
        rv.Connect(rv.Create("spike_generator"), cell, syn_spec={"receptor_type": 1})
    with pytest.raises(rv.IllegalConnectionError, match="Cannot connect with unknown recordable v_comp2"):
        rv.Connect(rv.Create("multimeter", params={"record_from": ["v_comp2"]}), cell)
    with pytest.raises(rv.BadParameterError, match="'compartments' is already defined"):
        cell.compartments = COMPARTMENTS[:1]
    with pytest.raises(rv.BadParameterError, match="'receptors' is already defined"):
        cell.receptors = RECEPTORS[:1]
    rv.Simulate(1.0)
    del empty


def test_wrappers_add_as_nests():
    rv.ResetKernel()
    cell = rv.Create("cm_default")
    cell.compartments = COMPARTMENTS[:1]
    first = cell.compartments.get_tuple()[0]
    for rhs in (COMPARTMENTS[1], [COMPARTMENTS[1]], rv.Compartments(cell, (COMPARTMENTS[1],))):
        assert (cell.compartments + rhs).get_tuple() == (first, COMPARTMENTS[1])
    with pytest.raises(TypeError):
        rv.Compartments(cell, first)
    with pytest.raises(TypeError):
        cell.compartments + [COMPARTMENTS[1], ""]
    assert rv.GetDefaults("cm_default")["compartments"] == [] and rv.GetDefaults("cm_default")["recordables"] == []
