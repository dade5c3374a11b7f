"""Structure-aware simulation: areas placed on ranks, long-range spikes exchanged every D
cycles, the same spikes as the conventional run."""

import numpy as np
import pytest
from mpi_launch import HAVE_MPI, mpirun
from networks import SMALL_BALL_AND_STICK, mam, two_area_brunel

import ranvier as rv


@pytest.fixture(scope="module")
def conventional():
    results = {}
    for net in (two_area_brunel, mam):
        rv.ResetKernel()
        rv.SetKernelStatus({"rng_seed": 11, "max_D": 1})
        for k, v in net().items():
            results[f"{net.__name__}/{k}"] = v
    assert len(results["two_area_brunel/times"]) > 300 and len(results["mam/times"]) > 30
    return results


def test_single_process_area_placement_and_D(conventional):
    for threads, max_d in ((1, 2**20), (2, 4), (3, 1)):
        rv.ResetKernel()
        rv.SetKernelStatus({"rng_seed": 11, "placement": "area", "local_num_threads": threads, "max_D": max_d})
        got = two_area_brunel()
        for k, v in got.items():
            np.testing.assert_array_equal(v, conventional[f"two_area_brunel/{k}"], err_msg=f"{threads} {max_d} {k}")


@pytest.mark.skipif(not HAVE_MPI, reason="needs MPI")
@pytest.mark.parametrize("processes", [1, 2, 3, 4])
def test_area_placement_identical_to_round_robin(conventional, processes, tmp_path):
    out = tmp_path / "areas.npz"
    mpirun(processes, "run_areas.py", out, 2)
    got = np.load(out)
    for key in got.files:
        if key.startswith("info/"):
            d, global_exchanges, cycles, sent, received = got[key]
            assert sent == received
            assert global_exchanges == (cycles if "round_robin" in key else cycles // d)
            continue
        network, _, field = key.split("/")
        np.testing.assert_array_equal(got[key], conventional[f"{network}/{field}"], err_msg=key)


def test_long_range_spike_in_last_step_of_a_lumped_interval():
    rv.SetKernelStatus({"placement": "area"})
    drive = rv.Create("spike_generator", params={"spike_times": [1.0, 1.1, 1.5, 2.9]})
    a = rv.Create("parrot_neuron", 2, area="A")
    b = rv.Create("parrot_neuron", 1, area="B")
    rv.Connect(drive, a[0], syn_spec={"delay": 1.0})
    rv.Connect(a[0], a[1], syn_spec={"delay": 0.1})  # min_delay 0.1 ms within areas
    rv.Connect(a[0], b, syn_spec={"delay": 1.0})  # D = 10: lumped intervals of 1 ms
    sr = rv.Create("spike_recorder")
    rv.Connect(b, sr)
    rv.Simulate(5.0)
    s = rv.GetKernelStatus()
    assert (s["D"], s["cycle"], s["min_delay_inter"]) == (10, pytest.approx(0.1), pytest.approx(1.0))
    # a[0] fires at 2.0 (the last step of the interval (1, 2] ms), 2.1 (the first of the
    # next), 2.5 and 3.9; each reaches b exactly 1 ms later
    np.testing.assert_allclose(sr.events["times"], [3.0, 3.1, 3.5, 4.9])


def test_long_range_classification_and_D():
    rv.SetKernelStatus({"placement": "area"})
    v1 = rv.Create("iaf_psc_exp", 20, area="V1")
    v2 = rv.Create("iaf_psc_exp", 30, area="V2")
    rv.Connect(v1, v1, {"rule": "fixed_indegree", "indegree": 3}, {"delay": 0.3})
    rv.Connect(v1, v2, {"rule": "fixed_indegree", "indegree": 4}, {"delay": rv.random.uniform(2.05, 3.0)})
    rv.Connect(v2, v1 + v2, {"rule": "fixed_indegree", "indegree": 2}, {"delay": 0.4})
    c = rv.GetConnections(gather=True)  # gathering prepares the network: delays and D are known from here on
    s = rv.GetKernelStatus()
    # long-range: V1 -> V2 (30 x 4) and V2 -> V1 (20 x 2); V2 -> V2 stays within the area
    assert s["num_long_range_connections"] == 30 * 4 + 20 * 2
    inter_min = min(d for a, b, d in zip(c.source, c.target, c.delay) if (a <= 20) != (b <= 20))
    assert s["cycle"] == pytest.approx(0.3)
    assert s["min_delay_inter"] == pytest.approx(min(0.4, inter_min))
    assert s["D"] == int(round(s["min_delay_inter"] / 0.1)) // 3
    rv.SetKernelStatus({"max_D": 1})
    rv.Simulate(1.2)
    assert rv.GetKernelStatus("D") == 1
    assert rv.GetKernelStatus("areas") == ["V1", "V2"]


@pytest.mark.parametrize(
    "ranks,imbalance,rank0_share",
    [
        (2, 1.0, (50, 0, 0, 0)),  # 50 | 30 + 10 + 10: largest areas first, onto the least loaded rank
        (3, 1.5, (50, 0, 0, 0)),  # 50 | 30 | 10 + 10
        (8, 1.22, (13, 0, 0, 0)),  # ranks in proportion to size: 4, 1, 1, 2 ranks (15 / 12.25)
    ],
)
def test_unequal_areas_are_balanced(ranks, imbalance, rank0_share):
    # a dry run places for `ranks` ranks on one process and keeps rank 0's share
    rv.SetKernelStatus({"placement": "area", "dry_run": ranks})
    areas = [rv.Create("iaf_psc_exp", n, area=f"A{k}") for k, n in enumerate((50, 10, 10, 30))]
    kernel = rv._state.state.kernel
    assert tuple(len(kernel.local_positions(a._gids)) for a in areas) == rank0_share  # places them
    assert rv.GetKernelStatus("area_imbalance") == pytest.approx(imbalance, abs=0.03)


def test_area_placement_weighs_cable_cells_by_their_cost():
    """A cable cell costs its nodes x dt sub-steps point-neuron steps: 10 ball-and-stick cells
    (7 nodes, 4 sub-steps: 280) outweigh 100 point neurons, so their area takes rank 0 alone."""
    rv.SetKernelStatus({"placement": "area", "dry_run": 2})
    cells = rv.Create("cable_cell", 10, params=SMALL_BALL_AND_STICK, area="cable")
    points = [rv.Create("iaf_psc_exp", 100, area=f"P{k}") for k in range(2)]
    kernel = rv._state.state.kernel
    assert len(kernel.local_positions(cells._gids)) == 10
    assert [len(kernel.local_positions(p._gids)) for p in points] == [0, 0]
    assert rv.GetKernelStatus("area_imbalance") == pytest.approx(280 / 240, abs=0.01)
