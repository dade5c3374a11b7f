"""Queued input (kernel setting queued_input): delivery appends each input to the queue of its
arrival step, and the queue joins the input rows when the step is due. Every input row element
receives its adds in the same order as by adding at once, so spikes, voltages and weights are
bit-identical either way, for every kind of input (static and plastic synapses, generators,
multisynapse ports, cable cells, long-range input between areas), any threads and processes,
and the setting may change between any two Simulate calls."""

import networks  # noqa: E402  (tests/mpi is on the path through test_mpi)
import numpy as np
import pytest
from mpi_launch import HAVE_MPI, mpirun

import ranvier as rv

needs_mpi = pytest.mark.skipif(not HAVE_MPI, reason="Ranvier built without MPI")

CASES = {
    "brunel": networks.brunel,
    "stimulators": networks.stimulators,
    "multisynapse": networks.multisynapse,
    "cable": networks.cable,
    "two_area_brunel": networks.two_area_brunel,
}


def run(build, threads, mode, **settings):
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": 4, "queued_input": mode, **settings})
    return build()


def assert_same(a, b):
    assert a.keys() == b.keys()
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_setting_is_auto_by_default_and_checked():
    rv.ResetKernel()
    assert rv.GetKernelStatus("queued_input") == "auto"
    with pytest.raises(rv.BadParameterError, match="queued_input = 'yes'"):
        rv.SetKernelStatus({"queued_input": "yes"})
    assert rv.GetKernelStatus("queued_input") == "auto"
    rv.SetKernelStatus({"queued_input": "on"})
    assert rv.GetKernelStatus("queued_input") == "on"


@pytest.mark.parametrize("value, shown", [("yes", "'yes'"), ("On", "'On'"), (1, "1"), (None, "None")])
def test_bad_value_is_refused_naming_it_also_when_the_kernel_is_rebuilt(value, shown):
    # the kernel checks the value, live (its setter) or rebuilt with a structural setting (its
    # constructor); Python only refuses what is not text
    rv.ResetKernel()
    for settings in ({"queued_input": value}, {"queued_input": value, "local_num_threads": 2}):
        with pytest.raises(rv.BadParameterError, match=f"queued_input = {shown}$"):
            rv.SetKernelStatus(settings)
        assert rv.GetKernelStatus("queued_input") == "auto"
        assert rv.GetKernelStatus("local_num_threads") == 1


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", CASES)
def test_queued_and_direct_input_give_identical_results(name, threads):
    direct = run(CASES[name], threads, "off")
    assert len(direct["times"]) > 50, "the network should be active"
    assert_same(run(CASES[name], threads, "on"), direct)


def test_long_range_input_with_overlapped_exchange():
    direct = run(networks.two_area_brunel, 2, "off", placement="area", overlap_exchange=True)
    assert_same(run(networks.two_area_brunel, 2, "on", placement="area", overlap_exchange=True), direct)


def test_switching_between_simulate_calls_keeps_the_input_in_flight():
    """Input queued for later steps joins its rows when the setting turns off, and input added
    at once stays when it turns on: the run goes on as if nothing changed."""
    pieces = (7.3, 12.0, 20.7)
    steady = run(lambda: networks.brunel(pieces=pieces), 2, "off")
    for modes in (("on", "off", "on"), ("off", "on", "auto")):
        rv.ResetKernel()
        rv.SetKernelStatus({"local_num_threads": 2, "rng_seed": 4})
        switch = lambda k, modes=modes: rv.SetKernelStatus({"queued_input": modes[k]})  # noqa: E731
        assert_same(networks.brunel(pieces=pieces, before_each=switch), steady)


@needs_mpi
def test_queued_input_under_mpi_matches_one_process(tmp_path):
    direct = {name: run(CASES[name], 1, "off") for name in ("brunel", "cable")}
    out = tmp_path / "run.npz"
    mpirun(3, "run_queued.py", out, 2, "brunel", "cable")
    got = np.load(out)
    for name, expected in direct.items():
        assert_same({k.split("/", 1)[1]: got[k] for k in got.files if k.startswith(name + "/")}, expected)
