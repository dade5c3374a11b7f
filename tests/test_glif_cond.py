"""NEST's glif_cond (Teeter et al. 2018): its five GLIF variants against NEST 3.10's traces
(fixture from benchmarks/peers/nest_glif_traces.py: three conductance receptors, two of them
inhibitory by E_rev), its parameters, receptors and NEST's errors.

Tolerance. Ranvier integrates the same right-hand side in NEST's order of operations with the
step control NEST gets from GSL (rkf45 at 1e-3 absolute), and computes the GLIF mechanisms with
NEST's formulas; only roundings differ. So V_m and thresholds must agree to 1e-9 mV, the
conductances to 1e-9 nS and ASCurrents_sum to 1e-9 of its scale, and every spike must fall in
NEST's step (measured: V_m within 3e-13 mV, ASCurrents_sum 4e-12 pA, the conductances
identical; a step size control or an order of updates other than NEST's shows far above these
bounds)."""

import numpy as np
import port_fixture
import pytest
from ranvier.errors import BadParameterError

import ranvier as rv

FIXTURE, SPEC = port_fixture.load("nest_glif_traces.npz")
VARIANTS = sorted(int(v) for v in SPEC["variants"])


def tolerance(name, expected):
    return 1e-9 * max(1.0, np.abs(expected).max()) if name == "ASCurrents_sum" else 1e-9


@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_matches_nest(variant):
    # neuron 2v-2: defaults under a DC step; 2v-1: three receptors, its state set away from rest
    port_fixture.assert_matches(FIXTURE, SPEC, "glif_cond", [2 * variant - 2, 2 * variant - 1], tolerance)


def test_defaults_and_recordables_are_nests():
    d = rv.GetDefaults("glif_cond")
    assert d["E_rev"] == [0.0, -85.0] and d["tau_syn"] == [0.2, 2.0]
    assert d["g"] == [0.0, 0.0] and d["dg"] == [0.0, 0.0]
    assert (d["g_m"], d["C_m"], d["E_L"], d["V_th"], d["V_reset"]) == (9.43, 58.72, -78.85, -51.68, -78.85)
    assert set(d["recordables"]) == {
        "V_m",
        "ASCurrents_sum",
        "I",
        "threshold",
        "threshold_spike",
        "threshold_voltage",
        "g_1",
        "g_2",
    }
    n = rv.Create("glif_cond", params={"E_rev": [0.0, -80.0, -70.0], "tau_syn": [1.0, 2.0, 3.0]})
    assert "g_3" in n.get("recordables") and list(n.get("g")) == [0.0, 0.0, 0.0]


def test_refractory_membrane_holds_while_conductances_go_on():
    n = rv.Create("glif_cond", params={"t_ref": 5.0})
    rv.Connect(rv.Create("dc_generator", params={"amplitude": 600.0}), n)
    rv.Connect(
        rv.Create("spike_generator", params={"spike_times": [1.0]}),
        n,
        syn_spec={"weight": 10.0, "receptor_type": 1, "delay": 1.0},
    )
    sr, mm = (
        rv.Create("spike_recorder"),
        rv.Create("multimeter", params={"interval": 0.1, "record_from": ["V_m", "g_1"]}),
    )
    rv.Connect(n, sr)
    rv.Connect(mm, n)
    rv.Simulate(30.0)
    first = sr.events["times"][0]
    t = mm.events["times"]
    held = (t > first + 1e-9) & (t < first + 5.0 + 1e-9)
    assert held.sum() == 50
    np.testing.assert_array_equal(mm.events["V_m"][held], -78.85)
    assert np.all(mm.events["g_1"][t > 2.05] > 0)


@pytest.mark.parametrize(
    "params,shown",
    [
        ({"tau_syn": [1.0]}, r"tau_syn = \[1\].*|.*as long as E_rev \(2\)"),
        ({"tau_syn": [1.0, 0.0]}, r"tau_syn = \[1, 0\]"),
        ({"g_m": 0.0}, "g_m = 0"),
        ({"V_reset": -40.0}, "V_reset = -40"),
        ({"after_spike_currents": True, "asc_r": [2.0, 1.0]}, r"asc_r = \[2, 1\]"),
        ({"threshold_spike": 1.0}, "threshold_spike = 1"),
        ({"adapting_threshold": True}, "adapting_threshold = True"),
    ],
)
def test_bad_parameters_raise_with_name_and_value(params, shown):
    with pytest.raises(BadParameterError, match=shown):
        rv.Create("glif_cond", params=params)
    n = rv.Create("glif_cond")
    with pytest.raises(BadParameterError, match=shown):
        n.set(params)
    assert n.get("g_m") == 9.43 and list(n.get("tau_syn")) == [0.2, 2.0]
    rv.Simulate(1.0)  # the kernel stays usable


def test_receptor_types_are_nests():
    n = rv.Create("glif_cond")
    sg = rv.Create("spike_generator", params={"spike_times": [1.0]})
    with pytest.raises(BadParameterError, match="receptor_type = 0"):
        rv.Connect(sg, n)  # NEST: receptor type 0 takes currents only
    with pytest.raises(BadParameterError, match="receptor_type = 3"):
        rv.Connect(sg, n, syn_spec={"receptor_type": 3})
    rv.Connect(sg, n, syn_spec={"receptor_type": 2, "weight": 5.0})
    rv.Simulate(5.0)
    assert n.get("V_m") < -78.85  # E_rev -85 mV pulls it down
