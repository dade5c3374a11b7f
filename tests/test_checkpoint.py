"""Checkpoints: a run saved after t1 ms and continued from its checkpoint in a fresh kernel
gives the uninterrupted run's spikes, V_m samples and weights bit for bit, whatever the
processes x threads of either side (tests/mpi/run_checkpoint.py builds a network with every
kind of state a checkpoint carries); damaged, newer or incomplete checkpoints raise and leave
an empty kernel; a save that fails or is killed leaves the previous checkpoint as it was."""

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from mpi_launch import HAVE_MPI, HERE, mpirun  # puts tests/mpi on the path
from run_checkpoint import main as run

import ranvier as rv

needs_mpi = pytest.mark.skipif(not HAVE_MPI, reason="Ranvier built without MPI")
T1, T2 = 60.4, 80.0  # t1 inside a cycle: the checkpoint holds a cycle's spikes half made


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("whole") / "whole.npz"
    run("full", T1, T2, 1, out)
    found = dict(np.load(out))
    assert len(found["spikes_times"]) > 1000 and len(found["wr_times"]) > 1000
    return found


def assert_same(got, expected):
    assert set(got) == set(expected)
    for key, value in expected.items():
        np.testing.assert_array_equal(got[key], value, err_msg=key)


@pytest.mark.parametrize(("save_threads", "load_threads", "t1"), [(2, 1, T1), (1, 3, T1), (2, 2, 60.0)])
def test_continues_bit_identically_on_other_threads(uninterrupted, tmp_path, save_threads, load_threads, t1):
    expected = uninterrupted
    if t1 != T1:  # a checkpoint at a cycle's boundary
        run("full", t1, T1 + T2 - t1, 1, tmp_path / "whole.npz")
        expected = dict(np.load(tmp_path / "whole.npz"))
        np.testing.assert_array_equal(expected["spikes_times"], uninterrupted["spikes_times"])
    run("save", t1, save_threads, tmp_path / "ckpt")
    run("load", tmp_path / "ckpt", T1 + T2 - t1, load_threads, tmp_path / "resumed.npz")
    assert_same(dict(np.load(tmp_path / "resumed.npz")), expected)


@needs_mpi
@pytest.mark.parametrize(
    ("save", "load", "method"),
    [
        ((2, 2), (1, 1), "auto"),
        ((1, 1), (3, 1), "alltoall"),
        ((3, 1), (2, 2), "allgather"),
        ((2, 1), (2, 1), "multisend"),
        ((1, 2), (2, 2), "rma"),
    ],
)
def test_continues_bit_identically_on_other_processes(uninterrupted, tmp_path, save, load, method):
    mpirun(save[0], "run_checkpoint.py", "save", T1, save[1], tmp_path / "ckpt")
    assert len([f for f in os.listdir(tmp_path / "ckpt") if f.startswith("rank-")]) == save[0]
    mpirun(load[0], "run_checkpoint.py", "load", tmp_path / "ckpt", T2, load[1], tmp_path / "resumed.npz", method)
    assert_same(dict(np.load(tmp_path / "resumed.npz")), uninterrupted)
    read = [json.loads((tmp_path / f"resumed.npz.read-{r}.json").read_text()) for r in range(load[0])]
    saved = [f"connections-{r}-{t}.npz" for r in range(save[0]) for t in range(save[1])]
    if save == (1, 2) and load == (2, 2):
        # thread t saved the neurons that rank t loads (gid mod 2 for both); thread 0 also saved
        # the connections to the volume transmitter, which every rank holds
        assert read == [[saved[0]], saved]
    else:  # each saved thread's connections reach the ranks that hold its targets
        assert sorted(set(sum(read, []))) == saved


@needs_mpi
def test_a_damaged_file_only_one_rank_reads_raises_on_every_rank(tmp_path):
    run("save", T1, 2, tmp_path / "ckpt")
    damaged = tmp_path / "ckpt" / "connections-0-1.npz"  # read by rank 1 of 2 only
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 1
    damaged.write_bytes(bytes(data))
    mpirun(2, "run_checkpoint.py", "damaged", tmp_path / "ckpt", 1, tmp_path / "out")
    for rank in (0, 1):
        error, nodes = json.loads((tmp_path / f"out.error-{rank}.json").read_text())
        assert "damaged: connections-0-1.npz" in error and nodes == 0


@pytest.fixture(scope="module")
def uninterrupted_areas(tmp_path_factory):
    out = tmp_path_factory.mktemp("whole_areas") / "whole.npz"
    run("full", T1, T2, 1, out, "network=areas")
    found = dict(np.load(out))
    assert len(found["spikes_times"]) > 1000 and np.unique(found["stdp_long_weight"]).size > 1000
    return found


@pytest.mark.parametrize(
    ("save", "load", "method", "t1"),
    [
        ((1, 2), (1, 3), "auto", T1),
        ((1, 2), (1, 1), "auto", 60.7),  # inside a cycle's second epoch
        ((2, 2), (1, 1), "auto", T1),
        ((2, 1), (3, 1), "alltoall", 60.7),
        ((1, 1), (2, 2), "allgather", T1),
    ],
)
def test_areas_continue_bit_identically(uninterrupted_areas, tmp_path, save, load, method, t1):
    """Two areas saved with area placement and overlapped exchange (long-range spikes waiting in
    their buffers and rows; at 60.7 ms a cycle's first epoch already exchanged), loaded with
    round-robin placement on other processes and threads."""
    if max(save[0], load[0]) > 1 and not HAVE_MPI:
        pytest.skip("Ranvier built without MPI")
    launch = lambda n, *a: mpirun(n, "run_checkpoint.py", *a) if n > 1 else run(*a)  # noqa: E731
    launch(save[0], "save", t1, save[1], tmp_path / "ckpt", "network=areas")
    launch(load[0], "load", tmp_path / "ckpt", T1 + T2 - t1, load[1], tmp_path / "resumed.npz", method, "network=areas")
    assert_same(dict(np.load(tmp_path / "resumed.npz")), uninterrupted_areas)


def small_network():
    rv.ResetKernel()
    cells = rv.Create("iaf_psc_alpha", 20, params={"I_e": 400.0})
    rv.Connect(cells, cells, {"rule": "fixed_indegree", "indegree": 3}, {"weight": 10.0})
    rv.Simulate(20.0)
    return cells


def test_a_damaged_checkpoint_raises_and_leaves_an_empty_kernel(tmp_path):
    small_network()
    rv.SaveCheckpoint(tmp_path / "ckpt")
    rank0 = tmp_path / "ckpt" / "rank-0.npz"
    data = bytearray(rank0.read_bytes())
    data[len(data) // 2] ^= 1
    rank0.write_bytes(bytes(data))
    small_network()
    with pytest.raises(rv.BadParameterError, match="damaged: rank-0.npz"):
        rv.LoadCheckpoint(tmp_path / "ckpt")
    rank0.unlink()
    with pytest.raises(rv.BadParameterError, match="lacks its file rank-0.npz"):
        rv.LoadCheckpoint(tmp_path / "ckpt")
    with pytest.raises(rv.BadParameterError, match="not a complete checkpoint"):
        rv.LoadCheckpoint(tmp_path / "nowhere")


def test_a_newer_format_is_refused(tmp_path):
    small_network()
    rv.SaveCheckpoint(tmp_path / "ckpt")
    manifest = json.loads((tmp_path / "ckpt" / "manifest.json").read_text())
    manifest["format"] += 1
    (tmp_path / "ckpt" / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(rv.BadParameterError, match=f"format {manifest['format']}, newer"):
        rv.LoadCheckpoint(tmp_path / "ckpt")


def test_a_failed_load_leaves_an_empty_usable_kernel(tmp_path):
    small_network()
    rv.SaveCheckpoint(tmp_path / "ckpt")
    network = tmp_path / "ckpt" / "network.pkl"
    shutil.copy(network, tmp_path / "saved.pkl")
    cells = rv.Create("iaf_psc_exp", 3)
    rv.SaveCheckpoint(tmp_path / "other")
    # a checkpoint that names a model this process does not know (an Install missing)
    rv.ResetKernel()
    described = (tmp_path / "other" / "network.pkl").read_bytes().replace(b"iaf_psc_exp", b"iaf_psc_exq")
    (tmp_path / "other" / "network.pkl").write_bytes(described)
    manifest = json.loads((tmp_path / "other" / "manifest.json").read_text())
    manifest["files"]["network.pkl"] = {"bytes": len(described), "sha256": hashlib.sha256(described).hexdigest()}
    (tmp_path / "other" / "manifest.json").write_text(json.dumps(manifest))
    small_network()
    with pytest.raises(rv.UnknownModelError, match="model iaf_psc_exq is not known here"):
        rv.LoadCheckpoint(tmp_path / "other")
    assert rv.GetKernelStatus("network_size") == 0
    assert len(cells) == 3
    rv.LoadCheckpoint(tmp_path / "ckpt")  # the kernel goes on
    rv.Simulate(10.0)
    assert rv.GetKernelStatus("network_size") == 20 and rv.GetKernelStatus("biological_time") == 30.0


def test_a_save_replaces_the_last_checkpoint_only_when_complete(tmp_path):
    cells = small_network()
    rv.SaveCheckpoint(tmp_path / "ckpt")
    first = (tmp_path / "ckpt" / "manifest.json").read_text()
    # a save killed before it completed leaves its temporary directory and the old checkpoint
    os.makedirs(tmp_path / "ckpt.saving")
    (tmp_path / "ckpt.saving" / "rank-0.npz").write_bytes(b"half")
    rv.LoadCheckpoint(tmp_path / "ckpt")
    rv.Simulate(5.0)
    rv.SaveCheckpoint(tmp_path / "ckpt")
    assert (tmp_path / "ckpt" / "manifest.json").read_text() != first
    assert sorted(os.listdir(tmp_path)) == ["ckpt"]
    assert rv.GetKernelStatus("biological_time") == 25.0
    assert len(cells) == 20


def test_a_write_that_fails_raises_and_keeps_the_old_checkpoint(tmp_path):
    small_network()
    rv.SaveCheckpoint(tmp_path / "ckpt")
    (tmp_path / "a_file").write_text("")
    with pytest.raises(rv.CheckpointFileError, match="could not be written"):
        rv.SaveCheckpoint(tmp_path / "a_file" / "ckpt")
    os.chmod(tmp_path, 0o500)
    try:
        if os.access(tmp_path, os.W_OK):
            pytest.skip("running as a user who writes anywhere")
        with pytest.raises(rv.CheckpointFileError):
            rv.SaveCheckpoint(tmp_path / "ckpt")
    finally:
        os.chmod(tmp_path, 0o700)
    rv.LoadCheckpoint(tmp_path / "ckpt")
    assert rv.GetKernelStatus("biological_time") == 20.0


def test_what_checkpoints_do_not_hold_is_refused_by_name(tmp_path):
    rv.ResetKernel()
    rv.set(dry_run=8)
    rv.Create("iaf_psc_alpha", 4)
    with pytest.raises(rv.UnsupportedRequestError, match="dry runs"):
        rv.SaveCheckpoint(tmp_path / "ckpt")
    assert not os.path.exists(tmp_path / "ckpt")


@pytest.fixture(scope="module")
def uninterrupted_cable(tmp_path_factory):
    out = tmp_path_factory.mktemp("whole_cable") / "whole.npz"
    run("full", T1, T2, 1, out, "network=cable")
    found = dict(np.load(out))
    assert np.count_nonzero(found["spikes_senders"] <= 10) > 20  # the cable cells take part
    return found


@pytest.mark.parametrize(("save", "load", "method"), [((1, 2), (1, 3), "auto"), ((2, 2), (3, 1), "alltoall")])
def test_cable_cells_continue_bit_identically(uninterrupted_cable, tmp_path, save, load, method):
    """Ball-and-stick cells (hh, pas, expsyn, exp2syn): every compartment's voltage, gates and
    synaptic state, and the events waiting for a cell's next step."""
    if max(save[0], load[0]) > 1 and not HAVE_MPI:
        pytest.skip("Ranvier built without MPI")
    launch = lambda n, *a: mpirun(n, "run_checkpoint.py", *a) if n > 1 else run(*a)  # noqa: E731
    launch(save[0], "save", T1, save[1], tmp_path / "ckpt", "network=cable")
    launch(load[0], "load", tmp_path / "ckpt", T2, load[1], tmp_path / "resumed.npz", method, "network=cable")
    assert_same(dict(np.load(tmp_path / "resumed.npz")), uninterrupted_cable)


def spatial_network():
    rv.ResetKernel()
    rv.set(local_num_threads=2)
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([6, 6], extent=[1.0, 1.0], edge_wrap=True))
    layer.set(I_e=rv.random.uniform(350.0, 400.0))
    free = rv.Create("iaf_psc_exp", 20, positions=rv.spatial.free(rv.random.uniform(-0.5, 0.5), num_dimensions=2))
    mask = {"circular": {"radius": 0.3}}
    rv.Connect(layer, free, {"rule": "pairwise_bernoulli", "p": 0.8, "mask": mask}, {"weight": 40.0})
    return layer, free, mask


def test_spatial_layers_continue_with_their_positions(tmp_path):
    """A spatial Connect after the load draws as the one after the save (positions, masks and
    the Connect calls' random streams come back)."""
    runs = []
    for resumed in (False, True):
        layer, free, mask = spatial_network()
        rv.Simulate(30.0)
        if resumed:
            rv.SaveCheckpoint(tmp_path / "ckpt")
            rv.ResetKernel()
            rv.LoadCheckpoint(tmp_path / "ckpt")
            layer, free = rv.NodeCollection(list(range(1, 37))), rv.NodeCollection(list(range(37, 57)))
        rv.Connect(free, layer, {"rule": "fixed_indegree", "indegree": 3, "mask": mask},
                   {"weight": -rv.spatial.distance * 20.0})  # fmt: skip
        recorder = rv.Create("spike_recorder")
        rv.Connect(layer + free, recorder)
        rv.Simulate(40.0)
        c = rv.GetConnections()
        runs.append((rv.GetPosition(free), c.get("source"), c.get("target"), c.get("weight"), recorder.events))
    assert runs[1][0] == runs[0][0] and len(runs[0][1]) > 100
    for got, expected in zip(runs[1][1:4], runs[0][1:4]):
        np.testing.assert_array_equal(got, expected)
    assert len(runs[0][4]["times"]) > 20
    for key in ("senders", "times"):
        np.testing.assert_array_equal(runs[1][4][key], runs[0][4][key])


def test_inside_run_manager_is_refused(tmp_path):
    small_network()
    with rv.RunManager():
        rv.Run(5.0)
        with pytest.raises(rv.KernelStateError, match="between Simulate calls"):
            rv.SaveCheckpoint(tmp_path / "ckpt")
        with pytest.raises(rv.KernelStateError, match="between Simulate calls"):
            rv.LoadCheckpoint(tmp_path / "ckpt")


@needs_mpi
def test_a_write_failing_on_one_rank_raises_on_every_rank(tmp_path):
    out = mpirun(2, "checkpoint_errors.py", tmp_path / "ckpt")
    for rank in (0, 1):
        assert f"rank {rank}: raised" in out and f"rank {rank}: loaded t = 10.0" in out, out
    assert "No space left on device" in out and "saved" not in out


def test_periodic_checkpoints_keep_the_newest_and_resume_after_a_kill(tmp_path):
    t_end = 8000.0
    run("full", t_end, 0.0, 1, tmp_path / "whole.npz")
    where = tmp_path / "periodic"
    job = subprocess.Popen(
        [sys.executable, str(HERE / "run_checkpoint.py"), "periodic", "25", str(t_end), "2", str(where)], cwd=HERE
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and job.poll() is None:
        if os.path.isdir(where) and len([d for d in os.listdir(where) if not d.endswith(".saving")]) >= 2:
            break
        time.sleep(0.01)
    job.send_signal(signal.SIGKILL)  # as a scheduler ends a job at its time limit
    assert job.wait() == -signal.SIGKILL, "the job ended before it was killed"
    kept = [d for d in sorted(os.listdir(where)) if (where / d / "manifest.json").exists()]
    # checkpoint_keep 2, and one more where the kill fell between a new one's completion and the
    # oldest's removal
    assert 1 <= len(kept) <= 3 and all(d.startswith("step-") for d in kept)
    run("resume", where, t_end, 3, tmp_path / "resumed.npz")
    assert_same(dict(np.load(tmp_path / "resumed.npz")), dict(np.load(tmp_path / "whole.npz")))


def test_periodic_checkpoints_fall_on_multiples_of_the_interval(tmp_path):
    small_network()  # at 20 ms
    rv.set(checkpoint_interval=15.0, checkpoint_path=tmp_path / "p", checkpoint_keep=2)
    rv.Simulate(50.0)  # to 70 ms: at 30, 45 and 60 ms
    assert sorted(os.listdir(tmp_path / "p")) == ["step-000000000000450", "step-000000000000600"]
    rv.Simulate(4.0)  # to 74 ms: none due
    rv.LoadCheckpoint(tmp_path / "p")
    assert rv.GetKernelStatus("biological_time") == 60.0
    for bad in (-1.0, "10", float("inf")):
        with pytest.raises(rv.BadParameterError, match="checkpoint_interval"):
            rv.set(checkpoint_interval=bad)
    with pytest.raises(rv.BadParameterError, match="checkpoint_keep"):
        rv.set(checkpoint_keep=0)
