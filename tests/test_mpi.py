"""Distributed runs under real mpiexec: bit-identical spikes for every partition, exchange
method and placement; spike conservation; buffer growth; dry run; errors on all ranks."""

import json

import numpy as np
import pytest
from mpi_launch import HAVE_MPI, mpirun
from networks import NETWORKS, small_hpc

import ranvier as rv

pytestmark = pytest.mark.skipif(not HAVE_MPI, reason="Ranvier built without MPI")


@pytest.fixture(scope="module")
def reference():
    """Every test network on one process, one thread, local exchange."""
    results = {}
    for name, build in NETWORKS.items():
        rv.ResetKernel()
        rv.SetKernelStatus({"rng_seed": 11})
        for k, v in build().items():
            results[f"{name}/{k}"] = v
    assert len(results["brunel/times"]) > 500 and len(results["hines/times"]) > 500
    return results


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("processes", [1, 2, 3, 4])
def test_spikes_identical_for_every_partition_method_and_placement(reference, processes, threads, tmp_path):
    out = tmp_path / "run.npz"
    mpirun(processes, "run_partition.py", out, threads)
    got = np.load(out)
    runs = {k.rsplit("/", 1)[0] for k in got.files if not k.startswith("counters/")}
    methods = {r.split("/")[1] for r in runs}
    assert {"allgather1", "alltoall1", "multisend1", "multisend2", "rma1"} <= methods
    assert {r.split("/")[2] for r in runs} == {"round_robin", "consecutive", "random"}
    for key in got.files:
        if key.startswith("counters/"):
            sent, received = got[key]
            assert sent == received > 0, key
            continue
        network, _, _, field = key.split("/")
        np.testing.assert_array_equal(got[key], reference[f"{network}/{field}"], err_msg=key)


@pytest.mark.parametrize("method", ["allgather", "alltoall", "multisend", "rma"])
def test_burst_beyond_buffers_loses_nothing(method, tmp_path):
    out = tmp_path / "burst.json"
    mpirun(3, "burst.py", method, out)
    r = json.loads(out.read_text())
    assert r["events"] == 1500 * 60  # every echo parrot repeats every burst spike
    assert r["times"] == [7.0]
    assert r["sent"] == r["received"]
    if method in ("allgather", "alltoall", "rma"):
        assert r["log"], "the burst should have grown the buffers"
    if method in ("allgather", "alltoall"):
        assert r["repeats"] >= 1


@pytest.mark.parametrize("ranks", [2, 3])
def test_dry_run_builds_rank_zeros_connections(ranks, tmp_path):
    out = tmp_path / "rank0.npz"
    mpirun(ranks, "dry_run_connections.py", out)
    real = np.load(out)
    rv.ResetKernel()
    small_hpc(threads=2, dry_run=ranks)
    dry = rv.GetConnections()
    assert 0 < len(dry) < 1125 * 112
    for key in ("source", "target", "weight", "delay"):
        np.testing.assert_array_equal(getattr(dry, key), real[key], err_msg=key)
    rv.Simulate(20.0)  # the dry run simulates with synthetic spikes for the other ranks
    s = rv.GetKernelStatus()
    assert s["dry_run"] == ranks and s["spikes_received"] >= s["spikes_sent"]


def test_a_dry_run_receives_what_a_real_rank_would():
    """Rank 0 of 100 receives its own spikes and, of the copies on the other ranks, those of
    neurons with targets on rank 0 (each at gid + r, 0 < r < 100): a real rank's share."""
    ranks = 100
    rv.SetKernelStatus({"local_num_threads": 2, "dry_run": ranks, "rng_seed": 3})
    nodes = rv.Create("iaf_psc_alpha", 2000, params={"I_e": rv.random.uniform(380.0, 450.0)})
    rv.Connect(nodes, nodes, {"rule": "fixed_indegree", "indegree": 10}, {"weight": 1.0, "delay": 1.0})
    sr = rv.Create("spike_recorder")
    rv.Connect(nodes, sr)
    rv.Simulate(150.0)
    spiked = sr.events["senders"]
    sources = np.unique(rv.GetConnections().source)
    copies = sum(np.searchsorted(sources, g + ranks) - np.searchsorted(sources, g, side="right") for g in spiked)
    s = rv.GetKernelStatus()
    assert len(spiked) > 50 and s["spikes_sent"] == len(spiked)
    assert s["spikes_received"] == len(spiked) + copies
    assert copies < 0.5 * len(spiked) * (ranks - 1)  # sparse: most neurons have no target here


def test_errors_raised_on_all_ranks(tmp_path):
    mpirun(3, "errors.py", tmp_path)
    lines = [entry for r in range(3) for entry in json.loads((tmp_path / f"rank{r}.json").read_text())]
    by_case = {}
    for line in lines:
        by_case.setdefault(line["case"], []).append(line)
    for case, per_rank in by_case.items():
        assert sorted(r["rank"] for r in per_rank) == [0, 1, 2], case
        if case == "after":
            assert all(r["connections"] == 24 and r["C_m"] == 250.0 and r["n_synapses"] == 2 for r in per_rank)
            continue
        assert len({(r["type"], r["message"]) for r in per_rank}) == 1, per_rank
        assert per_rank[0]["type"] != "no error", case


def test_rank_zero_holds_every_rank_events_the_others_their_own(tmp_path):
    """Recorders' events: rank 0 all of them (as one process records them), the other ranks
    those recorded on them (their neurons' spikes, what their synapses transmitted); reading
    on rank 0 alone does not hang."""
    from recorder_ranks import network

    rv.ResetKernel()
    whole = network()
    assert len(whole["sr_times"]) > 100 and len(whole["wr_times"]) > 300 and 0 < whole["first"]
    mpirun(3, "recorder_ranks.py", tmp_path / "rank", timeout=300)
    ranks = [np.load(tmp_path / f"rank{r}.npz") for r in range(3)]
    for key in whole:
        if key != "local":
            np.testing.assert_array_equal(ranks[0][key], whole[key], err_msg=key)
    for r in (1, 2):
        local = ranks[r]["local"]
        assert 0 < len(local) < 40
        mine = np.isin(whole["sr_senders"], local)
        np.testing.assert_array_equal(ranks[r]["sr_senders"], whole["sr_senders"][mine])
        np.testing.assert_array_equal(ranks[r]["sr_times"], whole["sr_times"][mine])
        mine = np.isin(whole["wr_targets"], local)  # synapses live with their targets
        for key in ("senders", "targets", "times", "weights", "receptors"):
            np.testing.assert_array_equal(ranks[r][f"wr_{key}"], whole[f"wr_{key}"][mine], err_msg=key)
