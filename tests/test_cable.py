"""Cable cells against NEURON 9 and Arbor 0.12 (fixtures from benchmarks/peers/cable_reference.py),
their descriptions' errors, and bit-identical networks of cable cells and point neurons."""

import pathlib

import numpy as np
import pytest

import ranvier as rv

FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "cable"

HH_SOMA = {
    "morphology": {"branches": [{"name": "soma", "length": 18.8, "diameter": 18.8}]},
    "cv_policy": {"per_branch": {"soma": 1}},
    "dt": 0.025,
    "cm": 1.0,
    "Ra": 100.0,
    "V_init": -65.0,
    "celsius": 6.3,
    "mechanisms": {"soma": {"hh": {}}},
    "spike_detector": {"location": ["soma", 0.5], "threshold": -10.0},
    "current_clamps": [{"location": ["soma", 0.5], "delay": 10.0, "duration": 100.0, "amplitude": 0.1}],
}

BALL_AND_STICK = {
    "morphology": {
        "branches": [
            {"name": "soma", "length": 20.0, "diameter": 20.0},
            {"name": "dend", "parent": "soma", "length": 200.0, "diameter": 1.0},
        ]
    },
    "cv_policy": {"per_branch": {"soma": 1, "dend": 21}},
    "dt": 0.025,
    "cm": 1.0,
    "Ra": 100.0,
    "V_init": -65.0,
    "celsius": 6.3,
    "ions": {"na": {"e": 50.0}, "k": {"e": -77.0}},
    "mechanisms": {
        "soma": {"hh": {"gnabar": 0.12, "gkbar": 0.036, "gl": 0.0003, "el": -54.3}},
        "dend": {"pas": {"g": 0.001, "e": -65.0}},
    },
    "synapses": {"syn": {"model": "expsyn", "location": ["dend", 0.5], "tau": 2.0, "e": 0.0}},
    "spike_detector": {"location": ["soma", 0.5], "threshold": -10.0},
}

EVENTS = [5.0, 15.0, 15.5, 16.0, 40.0]  # ms, the fixtures' synaptic events


def table(name):
    """A fixture's columns by header name (its first lines are # comments)."""
    lines = [line for line in (FIXTURES / name).read_text().splitlines() if not line.startswith("#")]
    header, rows = lines[0].split(","), [line.split(",") for line in lines[1:]]
    return {h: [row[k] for row in rows] for k, h in enumerate(header)}


def trace(name):
    return {k: np.array(v, dtype=float) for k, v in table(name).items()}


def peer_spikes(peer, case):
    t = table("spikes.csv")
    return np.array(
        [float(x) for p, c, x in zip(t["peer"], t["case"], t["t_interpolated_ms"]) if (p, c) == (peer, case)]
    )


def simulate_cell(description, tstop, sites, resolution=0.025, weight=None, events=EVENTS):
    """Spike times and the voltage at each site every 0.1 ms (the fixtures' sampling)."""
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": resolution})
    cell = rv.Create("cable_cell", 1, params=description)
    recorder = rv.Create("spike_recorder")
    rv.Connect(cell, recorder)
    meters = []
    for site in sites:
        meter = rv.Create("multimeter", params={"record_from": ["V_m"], "location": site, "interval": 0.1})
        rv.Connect(meter, cell)
        meters.append(meter)
    if weight is not None:  # events arrive at `events`: sent 1 ms earlier with a delay of 1 ms
        generator = rv.Create(
            "spike_generator", params={"spike_times": [t - 1.0 for t in events], "precise_times": True}
        )
        rv.Connect(generator, cell, syn_spec={"weight": weight, "delay": 1.0, "receptor_type": "syn"})
    rv.Simulate(tstop)
    times = meters[0].get("events")["times"]
    return recorder.get("events")["times"], times, [m.get("events")["V_m"] for m in meters]


def compare(reference, times, voltages, columns):
    """Largest |V - reference| per site, at the fixture's sample times."""
    at = np.searchsorted(reference["t_ms"], times - 1e-9)
    assert np.allclose(reference["t_ms"][at], times)
    return np.array([np.max(np.abs(v - reference[c][at])) for v, c in zip(voltages, columns)])


CASES = {  # case: (description, tstop, sites with their fixture columns, synaptic weight)
    "hh_soma": (HH_SOMA, 120.0, {"v_soma_mV": ["soma", 0.5]}, None),
    **{
        f"ball_stick_w{w}": (
            BALL_AND_STICK,
            60.0,
            {"v_soma_mV": ["soma", 0.5], "v_dend_0.5_mV": ["dend", 0.5], "v_dend_0.95_mV": ["dend", 0.95]},
            w,
        )
        for w in (0.001, 0.01, 0.05)
    },
}


@pytest.mark.parametrize("case", CASES)
def test_cells_match_neuron_and_differ_from_arbor_as_neuron_does(case):
    """The same discretisation and dt as NEURON's fixed step (secondorder 0, hh without tables):
    spike times and voltages agree to the fixtures' 9 decimals. Arbor 0.12 differs from NEURON by up to
    0.01 ms and some tenths of a mV after spikes (tests/fixtures/cable/README.md); Ranvier differs from
    Arbor no more than NEURON does."""
    description, tstop, sites, weight = CASES[case]
    spikes, times, voltages = simulate_cell(description, tstop, list(sites.values()), weight=weight)
    neuron_spikes, arbor_spikes = peer_spikes("neuron", case), peer_spikes("arbor", case)
    assert len(spikes) == len(neuron_spikes) == len(arbor_spikes)
    assert case in ("ball_stick_w0.001",) or len(spikes) >= 3
    np.testing.assert_allclose(spikes, neuron_spikes, rtol=0, atol=1e-6)
    neuron, arbor = trace(f"neuron_{case}.csv"), trace(f"arbor_{case}.csv")
    assert np.all(compare(neuron, times, voltages, sites) < 1e-6)
    np.testing.assert_allclose(spikes, arbor_spikes, rtol=0, atol=0.01)
    neuron_vs_arbor = compare(
        arbor, times, [neuron[c][np.searchsorted(neuron["t_ms"], times - 1e-9)] for c in sites], sites
    )
    assert np.all(compare(arbor, times, voltages, sites) <= neuron_vs_arbor + 1e-6)


# Events off the dt grid (fixtures' cases): 0.2 .. 0.96 dt past a boundary; both peers' runs,
# and where they act from: NEURON the nearest dt step, Arbor the step that holds the event.
OFF_GRID = {
    "ball_stick_offgrid_w0.01": [5.01, 15.02, 15.51, 16.013, 40.024],
    "ball_stick_offgrid02_w0.01": [5.005, 15.02, 15.505, 16.02, 40.005],
}


@pytest.mark.parametrize("case", OFF_GRID)
@pytest.mark.parametrize("resolution", [0.025, 0.1])
def test_off_grid_events_act_from_the_dt_step_that_holds_them_as_arbor(case, resolution):
    """Arbor 0.12 acts on an event from the start of its dt step: its off-grid file is value for
    value its on-grid one. Ranvier's cell is bit for bit the cell given the events at those
    starts, at any network resolution, and as close to Arbor as on the grid (NEURON's nearest-step
    rule moves three of the events a dt later and differs by mV)."""
    sites = CASES["ball_stick_w0.01"][2]
    spikes, times, voltages = simulate_cell(
        BALL_AND_STICK, 60.0, list(sites.values()), resolution=resolution, weight=0.01, events=OFF_GRID[case]
    )
    _, _, on_grid = simulate_cell(BALL_AND_STICK, 60.0, list(sites.values()), weight=0.01, events=EVENTS)
    for v, w in zip(voltages, on_grid):
        np.testing.assert_array_equal(v, w)
    arbor, neuron = trace(f"arbor_{case}.csv"), trace(f"neuron_{case}.csv")
    assert len(spikes) == len(peer_spikes("arbor", case)) == 3
    np.testing.assert_allclose(spikes, peer_spikes("arbor", case), rtol=0, atol=0.01)
    neuron_on_grid = trace("neuron_ball_stick_w0.01.csv")
    neuron_vs_arbor = compare(
        arbor, times, [neuron_on_grid[c][np.searchsorted(neuron_on_grid["t_ms"], times - 1e-9)] for c in sites], sites
    )
    assert np.all(compare(arbor, times, voltages, sites) <= neuron_vs_arbor + 1e-6)
    assert np.max(compare(neuron, times, voltages, sites)) > 0.5  # NEURON's rule differs


def test_a_ring_hops_as_in_arbor_with_spike_times_off_the_grid():
    """Eight cells in a ring, kicked off the grid: each spike travels with its interpolated time
    and acts from the dt step that holds time + delay, so every hop takes what it takes in Arbor
    0.12 (6.300 ms; NEURON, whose spikes are on the grid, takes one dt more per hop)."""
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": 0.1})
    cells = rv.Create("cable_cell", 8, params=BALL_AND_STICK)
    ring = {"weight": 0.05, "delay": 5.0, "receptor_type": "syn"}
    rv.Connect(cells[:-1], cells[1:], "one_to_one", ring)
    rv.Connect(cells[-1:], cells[:1], "one_to_one", ring)
    kick = rv.Create("spike_generator", params={"spike_times": [5.005], "precise_times": True})
    rv.Connect(kick, cells[:1], syn_spec=ring)
    recorder = rv.Create("spike_recorder")
    rv.Connect(cells, recorder)
    rv.Simulate(100.0)
    events = recorder.get("events")
    assert len(events["times"]) == 15
    for i in range(8):
        mine = events["times"][events["senders"] == cells[i].global_id]
        np.testing.assert_allclose(mine, peer_spikes("arbor", f"ring8_cell{i}"), rtol=0, atol=0.001)
        assert np.all(np.abs(mine[1:] - peer_spikes("neuron", f"ring8_cell{i}")[1:]) > 0.02)


def test_a_finer_network_resolution_gives_the_same_cell():
    """dt is the cell's own: the network resolution (a multiple of dt) only groups its steps."""
    fine = simulate_cell(HH_SOMA, 60.0, [["soma", 0.5]], resolution=0.025)
    coarse = simulate_cell(HH_SOMA, 60.0, [["soma", 0.5]], resolution=0.1)
    np.testing.assert_allclose(fine[0], coarse[0], rtol=0, atol=1e-12)  # offsets from other step ends
    np.testing.assert_array_equal(fine[2][0], coarse[2][0])


def cable_network(threads, exchange=None):
    """A random network of ball-and-stick cells and iaf_psc_exp neurons driving each other."""
    rv.ResetKernel()
    rv.SetKernelStatus(
        {
            "resolution": 0.1,
            "local_num_threads": threads,
            "rng_seed": 7,
            **({"spike_exchange": exchange} if exchange else {}),
        }
    )
    cells = rv.Create("cable_cell", 12, params=BALL_AND_STICK)
    points = rv.Create("iaf_psc_exp", 30, params={"I_e": 400.0})
    rv.Connect(
        points,
        cells,
        {"rule": "fixed_indegree", "indegree": 5},
        {"weight": rv.random.uniform(0.005, 0.02), "delay": 2.0, "receptor_type": "syn"},
    )
    rv.Connect(
        cells, cells, {"rule": "fixed_indegree", "indegree": 3}, {"weight": 0.01, "delay": 5.0, "receptor_type": "syn"}
    )
    rv.Connect(cells, points, {"rule": "fixed_indegree", "indegree": 4}, {"weight": 50.0, "delay": 1.5})
    recorder = rv.Create("spike_recorder")
    rv.Connect(cells + points, recorder)
    rv.Simulate(100.0)
    events = recorder.get("events")
    return events["senders"], events["times"]


def test_mixed_network_is_bit_identical_for_any_threads():
    senders, times = cable_network(1)
    assert len(set(senders[senders <= 12])) > 3  # the cable cells take part
    for threads in (2, 3):
        s, t = cable_network(threads)
        np.testing.assert_array_equal(s, senders)
        np.testing.assert_array_equal(t, times)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"mechanisms": {"axon": {"pas": {}}}}, "no region named axon"),
        ({"mechanisms": {"soma": {"kdr": {}}}}, "kdr"),
        ({"mechanisms": {"soma": {"hh": {"gnabar_hh": 0.1}}}}, "gnabar_hh"),
        ({"synapses": {"syn": {"model": "expsyn", "location": ["dend", 1.5]}}}, "1.5"),
        ({"cv_policy": {"per_branch": {"dend": 0}}}, "dend"),
        ({"dt": -0.025}, "dt"),
        (
            {"morphology": {"branches": [{"name": "dend", "parent": "soma", "length": 10.0, "diameter": 1.0}]}},
            "parent soma",
        ),
        ({"spike_detector": {"location": ["soma", 0.5], "threshold": "high"}}, "threshold"),
        ({"colour": "blue"}, "colour"),
        ({"cm": {"axon": 2.0}}, r"cm: the cell has no region named axon"),
        ({"Ra": {"dend": -1.0}}, r"Ra\['dend'\] = -1"),
        ({"ions": {"na": {"e": {"apic": 50.0}}}}, r"ions\[na\]\[e\]: the cell has no region named apic"),
        ({"cv_policy": {"odd_per_length": 0.0}}, "odd_per_length = 0"),
        (
            {"morphology": {"swc": str(FIXTURES / "fork.swc"), "replace_axon": [{"length": 30.0}]}},
            "length and diameter",
        ),
    ],
)
def test_bad_descriptions_raise_naming_the_item(change, message):
    rv.ResetKernel()
    with pytest.raises(rv.RanvierError, match=message):
        rv.Create("cable_cell", 2, params={**BALL_AND_STICK, **change})
    assert rv.GetKernelStatus("network_size") == 0  # nothing was created; the kernel stays usable
    rv.Create("cable_cell", 2, params=BALL_AND_STICK)


def test_dt_must_divide_the_resolution():
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": 0.1})
    rv.Create("cable_cell", 1, params={**BALL_AND_STICK, "dt": 0.03})
    with pytest.raises(rv.BadParameterError, match="dt"):
        rv.Simulate(1.0)


def test_connect_names_a_synapse_the_cells_lack():
    rv.ResetKernel()
    cells = rv.Create("cable_cell", 2, params=BALL_AND_STICK)
    with pytest.raises(rv.BadParameterError, match="ampa"):
        rv.Connect(cells, cells, syn_spec={"receptor_type": "ampa"})
    points = rv.Create("iaf_psc_alpha", 2)
    with pytest.raises(rv.BadParameterError, match="receptor_type"):
        rv.Connect(cells, points, syn_spec={"receptor_type": "syn"})
    with pytest.raises(rv.BadParameterError, match="receptor_type"):
        rv.Connect(points, points, syn_spec={"receptor_type": 1})


def test_multimeter_location_outside_the_cell_raises():
    rv.ResetKernel()
    cells = rv.Create("cable_cell", 1, params=BALL_AND_STICK)
    meter = rv.Create("multimeter", params={"record_from": ["V_m"], "location": ["apic", 0.5]})
    with pytest.raises(rv.BadParameterError, match="apic"):
        rv.Connect(meter, cells)


def test_swc_branches_split_at_forks_and_tags():
    """Regions by SWC tag; a one-sample soma is a cylinder 2r long and wide with its children at
    its middle; a branch runs from its parent sample through its samples, tapered through them
    where their diameters differ (NEURON's Import3d)."""
    swc = str(FIXTURES / "fork.swc")
    got = rv.cable.branches({"morphology": swc, "cv_policy": {"max_length": 25.0}})
    assert [(b["name"], b["parent"]) for b in got] == [("soma", -1), ("dend", 0), ("dend", 1), ("dend", 1), ("axon", 0)]
    soma, trunk, up, along, axon = got
    assert soma["length"] == soma["diameter"] == 20.0
    assert trunk["parent_x"] == axon["parent_x"] == 0.5 and up["parent_x"] == along["parent_x"] == 1.0
    assert trunk["length"] == pytest.approx(60.0) and trunk["taper"] == [(0.0, 2.0), (0.5, 2.0), (1.0, 1.2)]
    assert up["length"] == pytest.approx(40.0) and up["diameter"] == pytest.approx(1.2) and "taper" not in up
    assert along["length"] == pytest.approx(60.0) and along["taper"] == [(0.0, 1.2), (0.5, 0.8), (1.0, 0.8)]
    assert along["diameter"] == (1.2, 0.8)
    assert axon["length"] == pytest.approx(100.0) and axon["diameter"] == pytest.approx(1.0)
    assert [b["n_cv"] for b in got] == [1, 3, 2, 3, 4]  # ceil(length / 25)
    with pytest.raises(rv.BadParameterError, match="region dend has 3 branches"):
        rv.Create(
            "cable_cell",
            1,
            params={"morphology": swc, "synapses": {"s": {"model": "expsyn", "location": ["dend", 0.5]}}},
        )
    cell = rv.Create(
        "cable_cell",
        1,
        params={"morphology": swc, "synapses": {"s": {"model": "expsyn", "location": ["branch", 3, 0.5]}}},
    )
    rv.Connect(rv.Create("spike_generator", params={"spike_times": [1.0]}), cell, syn_spec={"receptor_type": "s"})


def test_an_swc_axon_is_replaced_by_a_stub_on_the_somas_middle():
    """{"swc": path, "replace_axon": [...]}: the file's axon gone, the stub's cylinders in a chain
    from soma(0.5) (AllenSDK's and BMTK's perisomatic models); nseg = 1 + 2 int(L / 40) by
    odd_per_length."""
    stub = [{"length": 30.0, "diameter": 1.0}, {"length": 50.0, "diameter": 0.5}]
    morphology = {"swc": str(FIXTURES / "fork.swc"), "replace_axon": stub}
    got = rv.cable.branches({"morphology": morphology, "cv_policy": {"odd_per_length": 40.0}})
    assert [(b["name"], b["parent"], b["parent_x"]) for b in got] == [
        ("soma", -1, 1.0),
        ("dend", 0, 0.5),
        ("dend", 1, 1.0),
        ("dend", 1, 1.0),
        ("axon", 0, 0.5),
        ("axon", 4, 1.0),
    ]
    assert [(b["length"], b["diameter"]) for b in got[4:]] == [(30.0, 1.0), (50.0, 0.5)]
    assert [b["n_cv"] for b in got] == [1 + 2 * int(b["length"] / 40.0) for b in got] == [1, 3, 3, 3, 1, 3]


def test_values_by_region_equal_the_same_value_for_the_whole_cell():
    """cm, Ra and ion reversal potentials may be given per region ({region: value}); one value
    for every region is the same cell as the scalar, and a region's own value changes the cell.
    Per-cell random values work per region too."""
    every = {"soma": 1.0, "dend": 1.0}
    sites = [["soma", 0.5], ["dend", 0.5]]
    scalar = simulate_cell(BALL_AND_STICK, 30.0, sites, weight=0.05)
    by_region = {
        **BALL_AND_STICK,
        "cm": every,
        "Ra": {"soma": 100.0, "dend": 100.0},
        "ions": {"na": {"e": {"soma": 50.0}}, "k": {"e": {"soma": -77.0, "dend": -77.0}}},
    }
    same = simulate_cell(by_region, 30.0, sites, weight=0.05)
    for mine, theirs in zip(same[2], scalar[2]):
        np.testing.assert_array_equal(mine, theirs)
    for change in ({"cm": {**every, "dend": 2.0}}, {"ions": {"na": {"e": {"soma": 40.0}}}}):
        other = simulate_cell({**BALL_AND_STICK, **change}, 30.0, sites, weight=0.05)
        assert np.max(np.abs(other[2][0] - scalar[2][0])) > 1.0
    rv.ResetKernel()
    varied = {**BALL_AND_STICK, "cm": {"soma": 1.0, "dend": rv.random.uniform(1.0, 3.0)}}
    cells = rv.Create("cable_cell", 3, params=varied)
    rv.Connect(
        rv.Create("spike_generator", params={"spike_times": [1.0]}),
        cells,
        syn_spec={"receptor_type": "syn", "weight": 0.05},
    )
    meter = rv.Create("multimeter", params={"record_from": ["V_m"], "location": ["dend", 0.5]})
    rv.Connect(meter, cells)
    rv.Simulate(10.0)
    events = meter.get("events")
    assert len({round(v, 9) for v in events["V_m"][events["times"] == 5.0]}) == 3


def test_d_lambda_gives_neurons_odd_segment_counts():
    """NEURON's d_lambda rule: nseg = int((L / (d_lambda lambda_100) + 0.9) / 2) * 2 + 1, with
    lambda_f = 1e5 sqrt(d / (4 pi f Ra cm)) µm at f = 100 Hz."""
    description = {**BALL_AND_STICK, "cv_policy": {"d_lambda": 0.1}, "Ra": 150.0, "cm": 1.5}
    for branch in rv.cable.branches(description):
        lam = 1e5 * np.sqrt(branch["diameter"] / (4 * np.pi * 100.0 * 150.0 * 1.5))
        assert branch["n_cv"] == int((branch["length"] / (0.1 * lam) + 0.9) / 2) * 2 + 1


def test_a_fork_joins_its_branches_through_a_node_without_membrane_as_neuron_and_arbor():
    """The Y cable of cable_fork_reference.py: both peers join a fork's branches at a node of no
    area (NEURON's zero-area node at x = 1, Arbor's zero-length CV); they agree to 2e-13 mV."""
    y = {
        "morphology": {
            "branches": [
                {"name": "b0", "length": 100.0, "diameter": 1.0},
                {"name": "b1", "parent": "b0", "length": 100.0, "diameter": 1.0},
                {"name": "b2", "parent": "b0", "length": 100.0, "diameter": 1.0},
            ]
        },
        "cv_policy": {"max_length": 20.0},
        "Ra": 100.0,
        "V_init": -65.0,
        "mechanisms": {b: {"pas": {"g": 0.001, "e": -65.0}} for b in ("b0", "b1", "b2")},
        "spike_detector": {"location": ["b0", 0.5], "threshold": 1e3},
        "current_clamps": [{"location": ["b1", 1.0], "delay": 1.0, "duration": 100.0, "amplitude": 0.01}],
    }
    columns = [f"v_b{b}_{x}_mV" for b in range(3) for x in (0.1, 0.3, 0.5, 0.7, 0.9)] + ["v_fork_mV"]
    sites = [[f"b{b}", x] for b in range(3) for x in (0.1, 0.3, 0.5, 0.7, 0.9)] + [["b0", 1.0]]
    _, times, voltages = simulate_cell(y, 20.0, sites)
    for peer in ("neuron", "arbor"):
        assert np.all(compare(trace(f"{peer}_y_cable.csv"), times, voltages, columns) < 1e-6)


def test_clamp_values_may_differ_per_cell():
    """A clamp value given as a list has one entry per cell; each cell fires as it would alone."""
    amplitudes, delays = [0.0, 0.1, 0.2, 0.1], [5.0, 10.0, 5.0, 30.0]
    clamp = {"location": ["soma", 0.5], "duration": 1e9}
    rv.ResetKernel()
    rv.SetKernelStatus({"resolution": 0.025})
    cells = rv.Create(
        "cable_cell", 4, params={**HH_SOMA, "current_clamps": [{**clamp, "amplitude": amplitudes, "delay": delays}]}
    )
    recorder = rv.Create("spike_recorder")
    rv.Connect(cells, recorder)
    rv.Simulate(60.0)
    events, ids = recorder.get("events"), cells.tolist()
    assert len(events["times"][events["senders"] == ids[0]]) == 0
    for i, (amplitude, delay) in enumerate(zip(amplitudes, delays)):
        alone, _, _ = simulate_cell(
            {**HH_SOMA, "current_clamps": [{**clamp, "amplitude": amplitude, "delay": delay}]}, 60.0, [["soma", 0.5]]
        )
        np.testing.assert_array_equal(events["times"][events["senders"] == ids[i]], alone)
    with pytest.raises(rv.BadParameterError, match=r"one value per cell \(4\), got 3"):
        rv.Create("cable_cell", 4, params={**HH_SOMA, "current_clamps": [{**clamp, "amplitude": [0.1] * 3}]})
    with pytest.raises(rv.BadParameterError, match=r"delay .*\(cell 1 of the Create call\)"):
        rv.Create("cable_cell", 2, params={**HH_SOMA, "current_clamps": [{**clamp, "delay": [1.0, -1.0]}]})


def test_mechanisms_and_their_defaults_come_from_the_kernel():
    m = rv.cable.mechanisms()
    assert m["density"]["hh"] == {"gnabar": 0.12, "gkbar": 0.036, "gl": 0.0003, "el": -54.3}
    assert m["density"]["pas"] == {"g": 0.001, "e": -70.0}
    assert m["synapse"]["exp2syn"] == {"tau1": 0.1, "tau2": 10.0, "e": 0.0}  # NEURON's, not Arbor's


def test_ports_are_the_synapses_and_currents_go_through_clamps():
    rv.ResetKernel()
    cells = rv.Create("cable_cell", 2, params=BALL_AND_STICK)
    with pytest.raises(rv.BadParameterError, match="receptor_type"):
        rv.Connect(cells, cells, syn_spec={"receptor_type": 1})  # one synapse: port 0 only
    with pytest.raises(rv.BadParameterError, match="current_clamps"):
        rv.Connect(rv.Create("dc_generator"), cells)


def test_a_cable_cell_without_description_is_neurons_default_section():
    """Create("cable_cell") without params: NEURON 9's h.Section() (L 100 um, diam 500 um, one CV,
    cm 1 uF/cm2, v_init -65 mV, run here), no mechanisms: V_m stays at -65 mV, and a clamp of
    0.1 nA charges the membrane (pi 500 um x 100 um of 1 uF/cm2) by I t / C exactly. SetDefaults
    and CopyModel of cable_cell act on its cells, as on any model's."""
    assert rv.cable.branches({}) == [
        {"name": "soma", "parent": -1, "parent_x": 1.0, "length": 100.0, "n_cv": 1, "diameter": 500.0}
    ]
    rv.ResetKernel()
    resting = rv.Create("cable_cell", 2)
    clamp = {"location": ["soma", 0.5], "delay": 0.0, "duration": 100.0, "amplitude": 0.1}
    charged = rv.Create("cable_cell", 1, params={"current_clamps": [clamp]})
    rv.Simulate(10.0)
    capacitance_nF = 1.0 * np.pi * 500e-4 * 100e-4 * 1e3
    assert resting.V_m == (-65.0, -65.0)
    assert charged.V_m == pytest.approx(-65.0 + 0.1 / capacitance_nF * 10.0, abs=1e-9)
    rv.SetDefaults("cable_cell", {"V_m": -60.0})
    rv.CopyModel("cable_cell", "my_cable", {"V_m": -70.0})
    assert (rv.Create("cable_cell").V_m, rv.Create("my_cable").V_m) == (-60.0, -70.0)
