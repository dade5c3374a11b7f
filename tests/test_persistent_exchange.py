"""persistent_exchange: the fixed-block rounds of allgather and alltoall as MPI-4 persistent
collectives, set up once per block size and restarted every exchange. Spikes stay
bit-identical to fresh collectives, with and without overlap, also when a burst grows the
blocks and the collectives are set up again."""

import numpy as np
import pytest
from mpi_launch import HAVE_MPI, mpirun
from networks import brunel  # noqa: E402  (tests/mpi is on the path through test_mpi)

import ranvier as rv

needs_mpi = pytest.mark.skipif(not HAVE_MPI, reason="Ranvier built without MPI")


def test_switch_is_off_by_default_and_checked():
    rv.ResetKernel()
    assert rv.GetKernelStatus("persistent_exchange") is False
    with pytest.raises(rv.BadParameterError, match="persistent_exchange = 'yes'"):
        rv.SetKernelStatus({"persistent_exchange": "yes"})
    rv.SetKernelStatus({"persistent_exchange": True})
    assert rv.GetKernelStatus("persistent_exchange") is True


@pytest.mark.parametrize("method", ["allgather", "alltoall"])
def test_one_process_bit_identical_and_switchable_between_runs(method):
    runs = {}
    for persistent in (False, True):
        rv.ResetKernel()
        rv.SetKernelStatus(
            {"local_num_threads": 2, "rng_seed": 7, "spike_exchange": method, "persistent_exchange": persistent}
        )
        runs[persistent] = brunel(t_sim=20.0)
    assert len(runs[False]["times"]) > 100
    for key, value in runs[False].items():
        np.testing.assert_array_equal(runs[True][key], value, err_msg=key)


@needs_mpi
@pytest.mark.parametrize("processes", [2, 3])
def test_mpi_bit_identical_also_when_blocks_grow(processes, tmp_path):
    out = tmp_path / "run.npz"
    mpirun(processes, "run_persistent.py", out, timeout=600)
    got = np.load(out)
    runs = {k.rsplit("/", 2)[0] for k in got.files if not k.startswith("counters/")}
    assert len(runs) == 3 * 2 * 2  # networks x methods x overlap
    for run in runs:
        fields = [k.rsplit("/", 1)[1] for k in got.files if k.startswith(f"{run}/False/")]
        for field in fields:
            np.testing.assert_array_equal(
                got[f"{run}/True/{field}"], got[f"{run}/False/{field}"], err_msg=f"{run}/{field}"
            )
        for persistent in (False, True):
            sent, received = got[f"counters/{run}/{persistent}"]
            assert sent == received > 0, run
    for method in ("allgather", "alltoall"):
        times = got[f"burst/{method}/False/True/times"]
        assert len(times) == 2 * 1500 * 10  # every echo parrot repeats every burst spike
        assert got[f"burst/{method}/False/True/repeats"][0] >= 1, "the burst should have grown the blocks"
