"""NEST's glif_psc and glif_psc_double_alpha (Teeter et al. 2018): their five GLIF variants
against NEST 3.10's traces (fixture from benchmarks/peers/nest_glif_traces.py), their
parameters, switches, receptor ports and NEST's errors.

Tolerance. Ranvier computes each step with NEST's formulas in NEST's order (membrane, mean
after-spike currents, threshold components, alpha PSCs all in closed form); only the rounding of
the propagators differs (expm1 forms, a few ulp). So voltages and thresholds must agree to
1e-9 mV and currents to 1e-9 of their scale, and every spike must fall in NEST's step
(measured: V_m within 4e-13 mV, thresholds 2e-14 mV, ASCurrents_sum 5e-12 pA, I and I_syn
identical; a formula or an order of updates other than NEST's shows far above these bounds).
"""

import numpy as np
import port_fixture
import pytest
from ranvier.errors import BadParameterError, UnknownParameterError

import ranvier as rv

FIXTURE, SPEC = port_fixture.load("nest_glif_traces.npz")
SWITCHES = ("spike_dependent_threshold", "after_spike_currents", "adapting_threshold")
VARIANTS = {int(v): dict(zip(SWITCHES, s)) for v, s in SPEC["variants"].items()}
CURRENTS = {"I", "I_syn", "ASCurrents_sum"}


def tolerance(name, expected):
    return 1e-9 * max(1.0, np.abs(expected).max()) if name in CURRENTS else 1e-9


@pytest.mark.parametrize("model", ["glif_psc", "glif_psc_double_alpha"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_variant_matches_nest(model, variant):
    # neuron 2v-2: defaults under a DC step; 2v-1: three ports, its state set away from rest
    port_fixture.assert_matches(FIXTURE, SPEC, model, [2 * variant - 2, 2 * variant - 1], tolerance)


def test_defaults_and_recordables_are_nests():
    d = rv.GetDefaults("glif_psc")
    assert d["tau_syn"] == [2.0] and "n_synapses" not in d
    assert d["asc_amps"] == [-9.18, -198.94] and d["ASCurrents"] == [0.0, 0.0]
    assert (d["g"], d["C_m"], d["E_L"], d["V_th"], d["t_ref"]) == (9.43, 58.72, -78.85, -51.68, 3.75)
    assert all(d[s] is False for s in SWITCHES)
    assert {"V_m", "ASCurrents_sum", "I", "I_syn", "threshold", "threshold_spike", "threshold_voltage"} <= set(
        d["recordables"]
    )
    assert not any(r.startswith("I_syn_") for r in d["recordables"])


def test_after_spike_current_and_refractoriness_by_hand():
    # GLIF 3, one after-spike current: the first spike sets it to asc_amps; V_m stays at V_reset
    # for t_ref; the current is frozen meanwhile, then enters each step with its mean over the
    # step, A (1 - exp(-k h)) / (k h) exp(-k h j) in the j-th step after t_ref.
    k, amp, h = 0.05, -40.0, 0.1
    n = rv.Create(
        "glif_psc",
        params={
            **VARIANTS[3],
            "asc_decay": [k],
            "asc_amps": [amp],
            "asc_r": [0.5],
            "asc_init": [0.0],
            "ASCurrents": [0.0],
            "t_ref": 2.0,
        },
    )
    rv.Connect(rv.Create("dc_generator", params={"amplitude": 400.0}), n)
    sr = rv.Create("spike_recorder")
    rv.Connect(n, sr)
    mm = rv.Create("multimeter", params={"interval": h, "record_from": ["V_m", "ASCurrents_sum"]})
    rv.Connect(mm, n)
    rv.Simulate(40.0)
    spikes, t = sr.events["times"], mm.events["times"]
    assert len(spikes) >= 2
    held = (t > spikes[0] + 1e-9) & (t < spikes[0] + 2.0 + 1e-9)
    assert held.sum() == 20
    np.testing.assert_array_equal(mm.events["V_m"][held], -78.85)
    np.testing.assert_array_equal(mm.events["ASCurrents_sum"][held], 0.0)
    free = (t > spikes[0] + 2.0 + 1e-9) & (t < spikes[1] + 1e-9)
    j = np.arange(free.sum())
    expected = amp * -np.expm1(-k * h) / (k * h) * np.exp(-k * h * j)
    np.testing.assert_allclose(mm.events["ASCurrents_sum"][free], expected, rtol=1e-12)


@pytest.mark.parametrize("switches", [(False, False, True), (True, False, True), (False, True, True)])
def test_switches_outside_the_five_models_are_refused(switches):
    params = dict(zip(SWITCHES, switches))
    with pytest.raises(BadParameterError, match="adapting_threshold = True"):
        rv.Create("glif_psc", params=params)
    n = rv.Create("glif_psc")
    with pytest.raises(BadParameterError, match="one of the five GLIF models"):
        n.set(params)
    assert n.get("adapting_threshold") is False


@pytest.mark.parametrize(
    "params,shown",
    [
        ({"g": 0.0}, "g = 0"),
        ({"C_m": -1.0}, "C_m = -1"),
        ({"t_ref": 0.0}, "t_ref = 0"),
        ({"V_reset": -40.0}, "V_reset = -40"),
        ({"tau_syn": [1.0, -1.0]}, "tau_syn = -1"),
        ({**VARIANTS[3], "asc_r": [2.0, 1.0]}, r"asc_r = \[2, 1\]"),
        ({**VARIANTS[3], "asc_decay": [0.1, 0.0]}, r"asc_decay = \[0.1, 0\]"),
        ({**VARIANTS[3], "asc_amps": [1.0]}, r"asc_amps = \[1\]"),
        ({**VARIANTS[2], "th_spike_decay": 0.0}, "th_spike_decay = 0"),
        ({**VARIANTS[2], "voltage_reset_fraction": 1.5}, "voltage_reset_fraction = 1.5"),
        ({**VARIANTS[5], "th_voltage_decay": -0.1}, "th_voltage_decay = -0.1"),
        ({"ASCurrents": [1.0, 2.0]}, r"ASCurrents = \[1, 2\]"),  # NEST: not settable without its mechanism
        ({**VARIANTS[3], "ASCurrents": [1.0]}, r"ASCurrents = \[1\]"),
        ({"threshold_spike": 1.0}, "threshold_spike = 1"),
        ({**VARIANTS[4], "threshold_voltage": 1.0}, "threshold_voltage = 1"),
    ],
)
def test_bad_parameters_raise_with_name_and_value(params, shown):
    with pytest.raises(BadParameterError, match=shown):
        rv.Create("glif_psc", params=params)
    n = rv.Create("glif_psc")
    with pytest.raises(BadParameterError, match=shown):
        n.set(params)
    assert n.get("g") == 9.43 and list(n.get("ASCurrents")) == [0.0, 0.0]
    rv.Simulate(1.0)  # the kernel stays usable


def test_mechanism_state_is_settable_with_its_mechanism():
    n = rv.Create(
        "glif_psc", params={**VARIANTS[5], "ASCurrents": [3.0, -4.0], "threshold_spike": 2.0, "threshold_voltage": 0.5}
    )
    assert list(n.get("ASCurrents")) == [3.0, -4.0] and n.get("threshold_spike") == 2.0


def test_receptor_ports_are_nests():
    n = rv.Create("glif_psc", params={"tau_syn": [1.0, 3.0]})
    sg = rv.Create("spike_generator", params={"spike_times": [1.0]})
    with pytest.raises(BadParameterError, match="receptor_type = 0"):
        rv.Connect(sg, n)  # NEST: receptor type 0 does not accept spikes
    with pytest.raises(BadParameterError, match="receptor_type = 3"):
        rv.Connect(sg, n, syn_spec={"receptor_type": 3})
    with pytest.raises(UnknownParameterError):
        rv.Create("glif_psc", params={"n_synapses": 2})
    rv.Connect(sg, n, syn_spec={"receptor_type": 2, "weight": 50.0})
    rv.Simulate(5.0)
    assert n.get("V_m") > -78.85


def test_double_alpha_currents_by_hand():
    # a spike of weight w at a port gives w (t / tf) e^(1 - t / tf) + amp w (t / ts) e^(1 - t / ts):
    # the fast current peaks at w after tf, the slow one at amp w after ts
    tf, ts, amp, w = 2.0, 6.0, 0.4, 50.0
    n = rv.Create(
        "glif_psc_double_alpha",
        params={"tau_syn_fast": [1.0, tf], "tau_syn_slow": [3.0, ts], "amp_slow": [0.9, amp], "V_th": 0.0},
    )
    rv.Connect(
        rv.Create("spike_generator", params={"spike_times": [2.0]}),
        n,
        syn_spec={"weight": w, "delay": 1.0, "receptor_type": 2},
    )
    mm = rv.Create("multimeter", params={"interval": 0.1, "record_from": ["I_syn"]})
    rv.Connect(mm, n)
    rv.Simulate(40.0)
    # the spike enters at the end of its arrival step (3.0 ms); I_syn, as NEST records it, is the
    # current that drove the step that ends at the sample, so it shows the spike one step later
    t = mm.events["times"] - 3.1
    late = t > 1e-9

    def alpha(tau):
        return t[late] / tau * np.exp(1.0 - t[late] / tau)

    np.testing.assert_allclose(mm.events["I_syn"][late], w * alpha(tf) + amp * w * alpha(ts), rtol=1e-12)
    np.testing.assert_array_equal(mm.events["I_syn"][~late], 0.0)


@pytest.mark.parametrize(
    "params,shown",
    [
        ({"tau_syn_slow": [6.0, 8.0]}, r"as long as tau_syn_fast \(1\), got tau_syn_slow = \[6, 8\]"),
        ({"tau_syn_fast": [2.0, 2.0], "tau_syn_slow": [6.0, 6.0]}, r"amp_slow = \[0.3\]"),
        ({"amp_slow": [0.0]}, "amp_slow = 0"),
        ({"tau_syn_slow": [-1.0]}, "tau_syn_slow = -1"),
        ({"tau_syn": [2.0]}, "tau_syn"),
    ],
)
def test_double_alpha_bad_lists_raise_with_name_and_value(params, shown):
    with pytest.raises((BadParameterError, UnknownParameterError), match=shown):
        rv.Create("glif_psc_double_alpha", params=params)
    n = rv.Create(
        "glif_psc_double_alpha", params={"tau_syn_fast": [1.0, 2.0], "tau_syn_slow": [3.0, 4.0], "amp_slow": [1, 2]}
    )
    sg = rv.Create("spike_generator", params={"spike_times": [1.0]})
    with pytest.raises(
        BadParameterError, match=r"tau_syn_fast has 2 entries.*receptor_type = 3|receptor_type = 3.*tau_syn_fast has 2"
    ):
        rv.Connect(sg, n, syn_spec={"receptor_type": 3})
    rv.Simulate(1.0)  # the kernel stays usable
