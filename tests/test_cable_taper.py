"""Tapered branches (truncated cones): a passive tapered cable against NEURON 9 and Arbor 0.12
(fixtures from benchmarks/peers/cable_taper_reference.py) and against the continuous tapered
cable equation solved by scipy; how descriptions give and show them."""

import numpy as np
import pytest
from scipy.integrate import solve_bvp
from test_cable import compare, simulate_cell, trace

import ranvier as rv

PASSIVE = {"cm": 1.0, "Ra": 100.0, "V_init": -65.0, "dt": 0.025}

TAPERED = {
    **PASSIVE,
    "morphology": {
        "branches": [
            {"name": "b0", "length": 100.0, "diameter": [3.0, 2.0]},
            {"name": "b1", "parent": "b0", "length": 100.0, "diameter": [2.0, 0.5]},
        ]
    },
    "cv_policy": {"per_branch": {"b0": 5, "b1": 5}},
    "mechanisms": {"b0": {"pas": {"g": 0.001, "e": -65.0}}, "b1": {"pas": {"g": 0.001, "e": -65.0}}},
    "current_clamps": [{"location": ["b1", 1.0], "delay": 1.0, "duration": 100.0, "amplitude": 0.02}],
}


def test_tapered_cable_matches_neuron_and_arbor():
    centres = [(k + 0.5) / 5 for k in range(5)]
    sites = [[f"b{b}", x] for b in range(2) for x in centres]
    columns = [f"v_b{b}_{x:g}_mV" for b in range(2) for x in centres]
    _, times, voltages = simulate_cell(TAPERED, 20.0, sites)
    for peer in ("neuron", "arbor"):
        reference = trace(f"{peer}_tapered_cable.csv")
        assert np.abs(reference[columns[-1]][-1] + 65.0) > 1.0  # the clamp moved it
        assert np.all(compare(reference, times, voltages, columns) < 1e-6)


# A sealed cone, 500 µm from 4 to 1 µm, passive (g = 1e-4 S/cm², λ ~ 500-1000 µm), 0.01 nA into x = 0.
LENGTH, D0, D1, RA, G, AMP = 500.0, 4.0, 1.0, 100.0, 1e-4, 0.01


def input_resistance(n_cv):
    """MΩ: the steady deflection at x = 0 per nA (backward Euler's fixed point, a long dt)."""
    cone = {
        "morphology": {"branches": [{"name": "cone", "length": LENGTH, "diameter": [D0, D1]}]},
        "cv_policy": {"per_branch": {"cone": n_cv}},
        "cm": 1.0,
        "Ra": RA,
        "V_init": -65.0,
        "dt": 1.0,
        "mechanisms": {"cone": {"pas": {"g": G, "e": -65.0}}},
        "current_clamps": [{"location": ["cone", 0.0], "delay": 0.0, "duration": 1e9, "amplitude": AMP}],
    }
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": 1.0})
    cell = rv.Create("cable_cell", 1, params=cone)
    meter = rv.Create("multimeter", params={"record_from": ["V_m"], "location": ["cone", 0.0], "interval": 10.0})
    rv.Connect(meter, cell)
    rv.Simulate(2000.0)
    return (meter.get("events")["V_m"][-1] + 65.0) / AMP


def continuous_input_resistance():
    """The tapered cable equation d/dx(π r² / Ra dV/dx) = g 2π r sqrt(1 + r'²) V, sealed at x = L,
    I into x = 0, solved as a boundary value problem (cm, Ω·cm, S/cm², A): V(0) / I in MΩ."""
    L, r0, r1 = LENGTH * 1e-4, D0 / 2 * 1e-4, D1 / 2 * 1e-4
    slope = (r1 - r0) / L
    current = AMP * 1e-9

    def rhs(x, y):  # y = (V, axial current)
        r = r0 + slope * x
        return np.vstack([-RA * y[1] / (np.pi * r * r), -G * 2 * np.pi * r * np.sqrt(1 + slope * slope) * y[0]])

    def boundary(ya, yb):
        return np.array([ya[1] - current, yb[1]])

    x = np.linspace(0, L, 200)
    solution = solve_bvp(
        rhs, boundary, x, np.vstack([np.full_like(x, 1e-3), current * (1 - x / L)]), tol=1e-10, max_nodes=100000
    )
    assert solution.success
    return solution.sol(0.0)[0] / current * 1e-6


def test_input_resistance_of_a_cone_converges_to_the_cable_equation_at_second_order():
    exact = continuous_input_resistance()
    errors = [abs(input_resistance(n) / exact - 1) for n in (10, 20, 40)]
    print(
        f"cone input resistance {exact:.4f} MΩ; relative errors at 10, 20, 40 CVs: "
        + ", ".join(f"{e:.2e}" for e in errors)
    )
    assert errors[2] < 1e-4
    assert errors[0] / errors[1] == pytest.approx(4.0, rel=0.1)
    assert errors[1] / errors[2] == pytest.approx(4.0, rel=0.1)


def test_branches_show_the_taper_and_bad_diameters_raise():
    shown = rv.cable.branches(TAPERED)
    assert [b["diameter"] for b in shown] == [(3.0, 2.0), (2.0, 0.5)]
    per_cell = {**TAPERED, "V_init": rv.random.uniform(-70.0, -60.0), "cm": [1.0, 2.0]}
    assert rv.cable.branches(per_cell) == shown  # per-cell values do not matter to the branches
    rv.ResetKernel()
    for diameter, message in (
        ([1.0, 2.0, 3.0], r"diameter must be a number or \[proximal, distal\]"),
        ([1.0, -2.0], r"taper\[1\].diameter = -2"),
    ):
        bad = {
            **TAPERED,
            "morphology": {"branches": [{"name": "b0", "length": 100.0, "diameter": diameter}]},
            "cv_policy": {"per_branch": {"b0": 5}},
            "mechanisms": {},
            "current_clamps": [],
        }
        with pytest.raises(rv.BadParameterError, match=message):
            rv.Create("cable_cell", 2, params=bad)


def test_swc_cell_matches_neuron_import3d():
    """fork.swc through NEURON's Import3d (fixture by benchmarks/peers/cable_swc_reference.py):
    its sections run through the samples as 3D points, tapered where the radii differ; ours too."""
    from test_cable import FIXTURES

    reference = trace("neuron_swc_fork.csv")
    columns = [c for c in reference if c != "t_ms"]
    sites = [["branch", int(c.split("_")[1][len("branch") :]), float(c.split("_")[2])] for c in columns]
    cell = {
        "morphology": str(FIXTURES / "fork.swc"),
        "cv_policy": {"max_length": 10.0},
        "cm": 1.0,
        "Ra": 100.0,
        "V_init": -65.0,
        "mechanisms": {r: {"pas": {"g": 0.0005, "e": -65.0}} for r in ("soma", "dend", "axon")},
        "current_clamps": [{"location": ["branch", 3, 1.0], "delay": 1.0, "duration": 100.0, "amplitude": 0.05}],
    }
    _, times, voltages = simulate_cell(cell, 20.0, sites)
    errors = compare(reference, times, voltages, columns)
    print(f"SWC fork vs NEURON: largest |dV| {errors.max():.2e} mV")
    assert np.abs(reference[columns[-1]][-1] + 65.0) > 0.1 and errors.max() < 1e-6
