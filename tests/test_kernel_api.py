"""PyNEST 3.10's kernel API: nest.set / nest.get, kernel attributes, Prepare/Run/Cleanup,
RunManager, verbosity, node queries, NEST's exception names."""

import logging

import numpy as np
import pytest

import ranvier as nest


def test_set_and_get():
    nest.set(resolution=0.2, rng_seed=7, print_time=False, keep_source_table=False)
    assert nest.get("resolution") == 0.2 and nest.resolution == 0.2
    assert nest.get("rng_seed", "keep_source_table") == (7, False)
    status = nest.get()
    assert status["tics_per_step"] == 200 and status["ms_per_tic"] == 0.001
    assert nest.GetKernelStatus(["resolution", "rng_seed"]) == (0.2, 7)


def test_attributes_read_and_write():
    nest.local_num_threads = 2
    assert nest.local_num_threads == 2 and nest.total_num_virtual_procs == 2
    nest.overwrite_files = True
    assert nest.overwrite_files is True
    assert "iaf_psc_alpha" in nest.node_models and "static_synapse" in nest.synapse_models
    assert nest.build_info["threads_model"] == "openmp"
    assert nest.memory_size > 1000  # KiB
    assert nest.T_max == 1152921504606846.8  # NEST 3.10 at 0.1 ms: whole steps of 2**60 tics, times ms_per_tic
    assert nest.time_simulate == 0.0  # the kernel's own measurements read as attributes too


def test_read_only_and_unknown_attributes():
    with pytest.raises(AttributeError, match="read-only"):
        nest.network_size = 3
    with pytest.raises(ValueError, match="read-only"):
        nest.set(network_size=3)
    with pytest.raises(ValueError, match="foo"):
        nest.set(foo=3)
    with pytest.raises(AttributeError, match="foo"):
        nest.foo  # noqa: B018
    # as NEST: a misspelt kernel attribute raises rather than set nothing, and the API stays
    with pytest.raises(AttributeError, match="no kernel attribute 'resolutoin'"):
        nest.resolutoin = 0.2
    with pytest.raises(AttributeError, match="ranvier.Simulate is part of the API"):
        nest.Simulate = print
    assert nest.resolution == 0.1 and callable(nest.Simulate)
    with pytest.raises(nest.BadParameterError, match="print_time"):
        nest.print_time = "yes"
    with pytest.raises(nest.BadParameterError, match="rng_type"):
        nest.rng_type = "mt19937_64"


def test_reset_kernel_restores_defaults_but_keeps_data_prefix():
    nest.set(print_time=True, overwrite_files=True, data_prefix="run_", use_compressed_spikes=False)
    nest.ResetKernel()
    assert nest.get("print_time", "overwrite_files", "data_prefix", "use_compressed_spikes") == (
        False,
        False,
        "run_",
        True,
    )
    nest.data_prefix = ""


def test_settings_survive_a_kernel_rebuild():
    nest.overwrite_files = True
    nest.resolution = 0.5  # rebuilds the kernel of an empty network
    assert nest.overwrite_files is True


def spiking_network():
    n = nest.Create("iaf_psc_exp", params={"I_e": 400.0})
    sr = nest.Create("spike_recorder")
    nest.Connect(n, sr)
    return sr


def test_run_manager_runs_as_simulate():
    sr = spiking_network()
    with nest.RunManager():
        for _ in range(6):
            nest.Run(10.0)
    assert nest.biological_time == 60.0
    assert sr.events["times"].tolist() == [27.8, 57.6]


def test_prepare_run_cleanup_order():
    spiking_network()
    with pytest.raises(nest.KernelStateError, match="Prepare"):
        nest.Run(10.0)
    nest.Prepare()
    assert nest.prepared
    with pytest.raises(nest.KernelStateError, match="twice"):
        nest.Prepare()
    nest.Run(10.0)
    nest.Cleanup()
    with pytest.raises(nest.KernelStateError, match="Cleanup"):
        nest.Cleanup()


def test_print_time_reports_progress(capsys):
    nest.print_time = True
    spiking_network()
    nest.Simulate(50.0)
    lines = capsys.readouterr().out.splitlines()
    assert 1 <= len(lines) <= 3  # a line every few seconds and at the end, not one per step
    assert "100.0%" in lines[-1] and "Real-time factor" in lines[-1]


def test_verbosity_both_forms(caplog):
    nest.verbosity = nest.VerbosityLevel.ERROR
    assert nest.verbosity == nest.VerbosityLevel.ERROR == nest.get_verbosity() == 30
    nest.set_verbosity("M_WARNING")
    assert nest.verbosity == nest.VerbosityLevel.WARNING
    logger = logging.getLogger("ranvier")
    logger.addHandler(caplog.handler)
    try:
        nest.message("hidden")
        nest.message("shown", nest.VerbosityLevel.ERROR)
        nest.message("M_WARNING", "Sender", "old form")
    finally:
        logger.removeHandler(caplog.handler)
        nest.verbosity = nest.VerbosityLevel.INFO
    assert [r.getMessage() for r in caplog.records] == ["shown", "Sender: old form"]
    with pytest.raises(nest.BadParameterError, match="verbosity"):
        nest.set_verbosity("M_LOUD")


def test_node_queries(capsys):
    a = nest.Create("iaf_psc_alpha", 3, params={"I_e": 5.0})
    b = nest.Create("iaf_psc_exp", 2)
    nest.Create("spike_recorder")
    assert nest.GetNodes() == nest.NodeCollection([1, 2, 3, 4, 5, 6])
    assert nest.GetNodes({"model": "iaf_psc_exp"}) == b
    assert nest.GetNodes({"I_e": 5.0}) == a
    assert nest.GetLocalNodeCollection(a + b) == a + b
    nest.PrintNodes()
    assert capsys.readouterr().out.splitlines() == ["1 .. 3 iaf_psc_alpha", "4 .. 5 iaf_psc_exp", "6 spike_recorder"]
    assert nest.Rank() == 0 and nest.NumProcesses() == 1


def test_nest_exception_names():
    with pytest.raises(nest.NESTErrors.UnknownModelName):
        nest.Create("no_such_model")
    with pytest.raises(nest.NESTError):
        nest.Create("iaf_psc_alpha", params={"no_such_parameter": 1.0})
    with pytest.raises(nest.NESTErrors.DynamicModuleManagementError, match="nestmlmodule"):
        nest.Install("nestmlmodule")


def test_any_nest_error_name_is_a_class_under_nest_error():
    made = nest.NESTErrors.MUSICPortUnconnected  # NEST makes a class for any name
    assert made is nest.NESTErrors.MUSICPortUnconnected and made.__name__ == "MUSICPortUnconnected"
    assert issubclass(made, nest.NESTError) and made is not nest.NESTError
    with pytest.raises(nest.NESTErrors.UnknownModelName):  # that class catches no error Ranvier raises
        try:
            nest.Create("no_such_model")
        except made:
            pass
    n = nest.Create("iaf_psc_alpha")
    with pytest.raises(nest.NESTErrors.BadDelay, match="delay = 0.04"):
        nest.Connect(n, n, syn_spec={"delay": 0.04})
    with pytest.raises(AttributeError):
        nest.NESTErrors.__wrapped__  # noqa: B018 (reading it is what raises)


def test_model_and_global_id_keys():
    n = nest.Create("iaf_psc_alpha", 2)
    assert n.get("model") == ("iaf_psc_alpha", "iaf_psc_alpha") and n[0].get("model") == "iaf_psc_alpha"
    assert np.array_equal(n.get("global_id"), [1, 2])


def test_kernel_times_are_the_decimal_grid_times():
    # 16041 steps of 0.1 ms: 16041 * 0.1 is 1604.1000000000001 in doubles; NEST's tics give 1604.1.
    nest.ResetKernel()
    nest.Simulate(1604.1)
    assert nest.biological_time == 1604.1
    nest.ResetKernel()
    a, b = nest.Create("iaf_psc_alpha", 2)
    nest.Connect(a, b, syn_spec={"delay": 0.3})  # 3 * 0.1 is 0.30000000000000004 in doubles
    nest.Simulate(1.0)
    assert nest.min_delay == 0.3


def test_neuron_defaults_list_their_recordables():
    rec = nest.GetDefaults("iaf_cond_alpha")["recordables"]
    assert {"V_m", "g_ex", "g_in"} <= set(rec)


def test_local_spike_counter_counts_the_last_run_as_nest():
    nest.ResetKernel()
    n = nest.Create("iaf_psc_alpha", 3, params={"I_e": 500.0})
    sr = nest.Create("spike_recorder")
    nest.Connect(n, sr)
    nest.Simulate(100.0)
    first = sr.n_events
    nest.Simulate(50.0)
    total = sr.n_events
    assert first > 0 and total > first
    assert nest.local_spike_counter == total - first
    assert nest.GetKernelStatus("spikes_emitted") == total
    nest.print_time = True  # which runs in pieces: the counter counts the whole call
    nest.Simulate(50.0)
    assert nest.local_spike_counter == sr.n_events - total > 0


def test_rng_seed_may_change_after_nodes_exist_and_later_draws_follow_it():
    """As NEST: setting rng_seed reseeds what is drawn from then on; the same seed gives the
    same draws (sensitivity_to_perturbation.py relies on it)."""

    def trial(seed):
        nest.ResetKernel()
        neurons = nest.Create("iaf_psc_alpha", 20)
        noise = nest.Create("poisson_generator", params={"rate": 20000.0})
        nest.rng_seed = seed
        nest.Connect(noise, neurons, syn_spec={"weight": nest.random.uniform(10.0, 30.0)})
        recorder = nest.Create("spike_recorder")
        nest.Connect(neurons, recorder)
        nest.Simulate(200.0)
        return nest.GetConnections(noise).weight, recorder.events["times"]

    weights, times = trial(11)
    again_weights, again_times = trial(11)
    other_weights, other_times = trial(12)
    np.testing.assert_array_equal(weights, again_weights)
    np.testing.assert_array_equal(times, again_times)
    assert not np.array_equal(weights, other_weights) and not np.array_equal(times, other_times)
    assert nest.rng_seed == 12


def test_the_thread_layout_may_be_set_again_unchanged_once_nodes_exist():
    """As NEST 3.10 (run here): once nodes exist, setting local_num_threads or
    total_num_virtual_procs to the value they have is no change and goes through (NEST's
    test_neuron_vp.py does it); another value, or the resolution even unchanged, raises."""
    nest.ResetKernel()
    nest.total_num_virtual_procs = 2
    nodes = nest.Create("parrot_neuron", 3)
    nest.total_num_virtual_procs = 2
    nest.SetKernelStatus({"local_num_threads": 2, "rng_seed": 5})
    assert nest.local_num_threads == 2 and nest.rng_seed == 5 and len(nodes) == 3
    with pytest.raises(nest.KernelStateError, match="local_num_threads cannot change"):
        nest.local_num_threads = 3
    with pytest.raises(nest.KernelStateError, match="resolution cannot change"):
        nest.resolution = 0.1


def test_delay_extrema_set_by_hand_round_outwards_onto_the_grid():
    """As NEST 3.10 shows them (run there): min_delay rounded down, max_delay up, also after the
    resolution changes."""
    nest.set(min_delay=0.81, max_delay=1.49)
    assert (nest.min_delay, nest.max_delay) == (0.8, 1.5)
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.1, "min_delay": 2.1, "max_delay": 12.3})
    nest.resolution = 1.0
    assert (nest.min_delay, nest.max_delay) == (2.0, 13.0)


def test_biological_time_is_set_to_0_only_before_the_clock_runs():
    """NEST's rule (run): 0.0 only; Ranvier's clock does not run back, so after a Simulate it is
    refused rather than rewound."""
    nest.ResetKernel()
    nest.SetKernelStatus({"biological_time": 0.0, "rng_seed": 1})
    nest.biological_time = 0.0
    with pytest.raises(nest.BadParameterError, match="biological_time can only be set to 0.0"):
        nest.SetKernelStatus({"biological_time": 5.0})
    nest.Create("iaf_psc_alpha")
    nest.Simulate(1.0)
    with pytest.raises(nest.KernelStateError, match="does not run back"):
        nest.biological_time = 0.0
    assert nest.biological_time == 1.0
