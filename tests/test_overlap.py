"""overlap_exchange: spike exchange overlapped with the update of the next epoch. Spikes,
potentials and STDP weights stay bit-identical to the non-overlapped run, on one process
here and under real mpiexec (1-3 processes, 1-2 threads, round-robin and area placement)."""

import json

import numpy as np
import pytest
from mpi_launch import HAVE_MPI, mpirun
from networks import brunel, hines, two_area_brunel  # noqa: E402  (tests/mpi is on the path through test_mpi)

import ranvier as rv

needs_mpi = pytest.mark.skipif(not HAVE_MPI, reason="Ranvier built without MPI")


def test_switch_is_off_by_default_and_reported():
    rv.ResetKernel()
    s = rv.GetKernelStatus()
    assert s["overlap_exchange"] is False
    assert s["time_communicate_hidden"] == 0.0
    rv.SetKernelStatus({"overlap_exchange": True})
    assert rv.GetKernelStatus("overlap_exchange") is True


def test_bad_switch_value_names_parameter():
    rv.ResetKernel()
    with pytest.raises(rv.BadParameterError, match="overlap_exchange"):
        rv.SetKernelStatus({"overlap_exchange": 1})
    with pytest.raises(rv.BadParameterError, match="multisend_subintervals = 3"):
        rv.SetKernelStatus({"multisend_subintervals": 3})
    rv.SetKernelStatus({"multisend_subintervals": 2})
    assert rv.GetKernelStatus("multisend_subintervals") == 2


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("method", ["local", "allgather", "alltoall"])
def test_one_process_bit_identical(method, threads):
    runs = {}
    for overlap in (False, True):
        rv.ResetKernel()
        rv.SetKernelStatus(
            {"local_num_threads": threads, "rng_seed": 11, "spike_exchange": method, "overlap_exchange": overlap}
        )
        runs[overlap] = brunel(pieces=(5.5, 3.3, 11.2), t_sim=20.0)
        s = rv.GetKernelStatus()
        # one process: the exchange is a copy, done when it starts; nothing to hide
        assert s["time_communicate_hidden"] == 0.0
    assert len(runs[False]["times"]) > 300
    for key, value in runs[False].items():
        np.testing.assert_array_equal(runs[True][key], value, err_msg=key)


def test_min_delay_of_one_step_runs_unsplit():
    runs = {}
    for overlap in (False, True):
        rv.ResetKernel()
        rv.SetKernelStatus({"rng_seed": 3, "overlap_exchange": overlap, "resolution": 1.0})
        runs[overlap] = hines(n=200, c=20, t_sim=100.0)
    assert len(runs[False]["times"]) > 100
    for key, value in runs[False].items():
        np.testing.assert_array_equal(runs[True][key], value, err_msg=key)


@needs_mpi
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("processes", [1, 2, 3])
def test_mpi_bit_identical_with_stdp_and_areas(processes, threads, tmp_path):
    out = tmp_path / "run.npz"
    mpirun(processes, "run_overlap.py", out, threads, timeout=600)
    got = np.load(out)
    runs = {k.rsplit("/", 2)[0] for k in got.files if k.split("/")[0] not in ("counters", "hidden")}
    assert len(runs) == 4 * (1 + 1 + 1 + 2 + 1)  # methods x networks x placements
    for run in runs:
        off, on = f"{run}/False", f"{run}/True"
        fields = [k.rsplit("/", 1)[1] for k in got.files if k.startswith(off + "/")]
        assert {"senders", "times"} <= set(fields)
        for field in fields:
            np.testing.assert_array_equal(got[f"{on}/{field}"], got[f"{off}/{field}"], err_msg=f"{run}/{field}")
        sent, received = got[f"counters/{on}"]
        assert sent == received > 0, run
        hidden, _, d_on = got[f"hidden/{on}"]
        assert hidden >= 0.0 and got[f"hidden/{off}"][0] == 0.0
        if run.startswith("two_area_brunel"):  # the long-range exchange overlaps: one cycle less per interval
            assert d_on == got[f"hidden/{off}"][2] - 1 == 4, run
    # the interrupted Simulate calls continue exactly as the uninterrupted ones
    for method in ("allgather1", "alltoall1", "multisend1", "multisend2"):
        for field in ("senders", "times", "V_m", "weights"):
            np.testing.assert_array_equal(
                got[f"brunel_pieces/{method}/round_robin/True/{field}"],
                got[f"brunel/{method}/round_robin/False/{field}"],
                err_msg=field,
            )
    assert len(got["brunel/allgather1/round_robin/False/times"]) > 500
    if processes > 1:  # an exchange between ranks took time, and some of it was hidden
        assert max(got[f"hidden/{run}/True"][0] for run in runs) > 0.0


@needs_mpi
@pytest.mark.parametrize("processes", [2, 3])
def test_spike_in_last_step_of_epoch_arrives_when_due(processes, tmp_path):
    out = tmp_path / "due.json"
    mpirun(processes, "overlap_due.py", out, timeout=300)
    got = json.loads(out.read_text())
    for key, r in got.items():
        assert r["cycle"] == 1.0, key  # between the parrots (NEST's min_delay is the generator's 0.1)
        expected = sorted(t for t in [2.5, 3.0, 3.6, 4.0, 4.5, 5.0, 7.5, 8.0] for _ in range(r["n_sources"]))
        np.testing.assert_allclose(r["source_times"], expected, atol=1e-9, err_msg=key)
        np.testing.assert_allclose(r["target_times"], [t + 1.0 for t in expected], atol=1e-9, err_msg=key)


@needs_mpi
@pytest.mark.parametrize("processes", [2, 3])
def test_error_on_one_rank_reaches_every_rank(processes, tmp_path):
    mpirun(processes, "overlap_errors.py", tmp_path, timeout=240)  # a hang fails on the timeout
    per_rank = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in range(processes)]
    for r in per_rank:
        assert r["identical"] and r["spikes"] > 500
        assert [e[0] for e in r["errors"]] == ["BadParameterError", "BadParameterError"]
    assert "got t = -1.0" in per_rank[0]["errors"][0][1]
    assert "multiple of the resolution" in per_rank[-1]["errors"][1][1]
    assert len({json.dumps(r["errors"]) for r in per_rank}) == 1


@pytest.mark.parametrize("t_sim, fits", [(45.0, True), (42.0, False)])
def test_switching_overlap_with_areas_between_calls(t_sim, fits):
    """With areas the switch changes D (5 -> 4 here): between Simulate calls that end on a
    long-range interval the run goes on identically, elsewhere the next call says why not."""

    def run(switch):
        def switching(k):  # two_area_brunel simulates t_sim / 3, then 2 t_sim / 3
            if k > 0 and switch:
                rv.SetKernelStatus({"overlap_exchange": True})

        rv.ResetKernel()
        rv.SetKernelStatus({"placement": "area", "rng_seed": 3})
        return two_area_brunel(t_sim=t_sim, before_each=switching), rv.GetKernelStatus("D")

    if not fits:
        with pytest.raises(rv.KernelStateError, match="overlap_exchange with areas"):
            run(True)
        return
    (plain, d_plain), (switched, d_switched) = run(False), run(True)
    assert (d_plain, d_switched) == (5, 4)
    for key, value in plain.items():
        np.testing.assert_array_equal(switched[key], value, err_msg=key)
