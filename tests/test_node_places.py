"""NEST's node properties of where a node lives: vp (the virtual process that owns it: node id
modulo the virtual processes under round-robin placement, as NEST 3.10 reports), thread, and
local (on this rank); devices have an instance everywhere (vp 0, thread 0, local)."""

import json

import pytest
from mpi_launch import HAVE_MPI, mpirun

import ranvier as rv


def test_round_robin_places_as_nest():
    # NEST 3.10, 3 threads: iaf_psc_alpha 1..7 have vp and thread (1, 2, 0, 1, 2, 0, 1)
    rv.SetKernelStatus({"local_num_threads": 3})
    nodes = rv.Create("iaf_psc_alpha", 7)
    generator = rv.Create("poisson_generator")
    assert nodes.get("vp") == nodes.get("thread") == (1, 2, 0, 1, 2, 0, 1)
    assert nodes.get("local") == (True,) * 7
    assert (generator.get("vp"), generator.get("thread"), generator.get("local")) == (0, 0, True)
    assert nodes[0].get()["vp"] == 1 and nodes[2].vp == 0


def test_every_placement_answers_where_the_kernel_put_the_node():
    for placement in ("consecutive", "random"):
        rv.ResetKernel()
        rv.SetKernelStatus({"local_num_threads": 2, "placement": placement})
        nodes = rv.Create("iaf_psc_alpha", 6)
        assert sorted(nodes.get("vp")) == [0, 0, 0, 1, 1, 1]  # equal shares per virtual process
        assert nodes.get("vp") == nodes.get("thread")


@pytest.mark.skipif(not HAVE_MPI, reason="Ranvier built without MPI")
def test_each_rank_knows_which_nodes_are_its_own(tmp_path):
    mpirun(2, "node_places.py", tmp_path, 2)
    lines = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in (0, 1)]
    assert sorted(r["rank"] for r in lines) == [0, 1]
    for r in lines:
        vps = [gid % 4 for gid in range(1, 10)]  # 2 ranks x 2 threads, round-robin as NEST
        assert r["vp"] == vps and r["thread"] == [vp // 2 for vp in vps]
        mine = [vp % 2 == r["rank"] for vp in vps]
        assert r["local"] == mine
        assert r["local_collection"] == [gid for gid, m in zip(range(1, 10), mine) if m]
        assert r["local_V_m"] == [-59.0 - gid for gid in r["local_collection"]]
        # GetConnections: the connections a rank holds (to its own nodes), as NEST's; gather: all
        assert r["held_targets"] == r["local_collection"] and r["everywhere"] == 81
        assert r["device"] == [0, 0, True]
    assert sum(r["held"] for r in lines) == 81
    first = next(r for r in lines if r["rank"] == 0)
    assert first["alone"] == first["held"] + 1  # and the plastic connection it holds since
    second = next(r for r in lines if r["rank"] == 1)
    assert second["weights"] == [1.0] * second["held"]
