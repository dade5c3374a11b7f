"""Rate neurons and rate connections (NEST's *_rate_ipn, *_rate_opn, rate_transformer_*,
rate_connection_delayed and _instantaneous, waveform relaxation): against NEST 3.10's rates
(tests/fixtures/nest_rates.json, written by benchmarks/peers/nest_network_fixtures.py from
tests/mpi/rate_network.py), against the exact solution of a lone neuron, the noise's
statistics, the same for any threads and processes, and NEST's errors."""

import json
import math
import pathlib
import sys

import numpy as np
import pytest
from mpi_launch import HAVE_MPI, mpirun
from ranvier.errors import BadParameterError, IllegalConnectionError, KernelStateError

import ranvier as rv

sys.path.insert(0, str(pathlib.Path(__file__).parent / "mpi"))
import rate_network  # noqa: E402

NEST = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_rates.json").read_text())


@pytest.mark.parametrize("case", ["wfr", "no_wfr"])
def test_rates_are_nest_s(case):
    got, ref = rate_network.run(rv, case == "wfr"), NEST[case]
    assert got.keys() == ref.keys()
    assert got["min_delay"] == ref["min_delay"]  # the relaxation's interval, or one step without it
    for key in sorted(set(ref) - {"min_delay"}):
        # NEST's order of operations; the sums of several inputs may take another order
        np.testing.assert_allclose(got[key], ref[key], rtol=0, atol=2e-15, err_msg=key)
        assert np.ptp(ref[key]) > 0.1 or key == "rectified.rate", key  # the rate moved
    assert all(v == 0.1 for v in got["rectified.rate"])  # held at rectify_rate


def test_relaxation_changes_what_instantaneous_connections_carry():
    wfr, plain = NEST["wfr"]["loop_a.rate"], NEST["no_wfr"]["loop_a.rate"]
    assert abs(wfr[0] - plain[0]) > 1e-3  # without relaxation the loop's input lags a step


def test_a_call_ending_inside_a_cycle_changes_nothing():
    """NEST loses the first part's delayed rates there (tests/mpi/rate_network.py); Ranvier
    sends the whole cycle's."""
    assert rate_network.run(rv, True, first=6.3) == rate_network.run(rv, True)


def test_threads_give_identical_rates():
    for use_wfr in (True, False):
        reference = rate_network.run(rv, use_wfr)
        for threads in (2, 3):
            assert rate_network.run(rv, use_wfr, threads) == reference


@pytest.mark.skipif(not HAVE_MPI, reason="needs MPI")
def test_processes_give_identical_rates():
    reference = rate_network.run(rv, True)
    for n, threads in ((2, 1), (3, 2)):
        assert json.loads(mpirun(n, "rate_network.py", True, threads)) == reference


@pytest.mark.parametrize("model", ["lin_rate_ipn", "lin_rate_opn"])
def test_a_lone_neuron_relaxes_exactly(model):
    """tau dr/dt = -lambda r + mu: r(t) = mu / lambda + (r0 - mu / lambda) exp(-lambda t / tau)."""
    params = {"rate": 2.0, "mu": 0.6, "tau": 4.0, "sigma": 0.0}
    lam = 1.0
    if model == "lin_rate_ipn":
        params["lambda"] = lam = 0.5
    n = rv.Create(model, params=params)
    mm = rv.Create("multimeter", params={"record_from": ["rate"], "interval": 0.1})
    rv.Connect(mm, n)
    rv.Simulate(20.0)
    t = mm.events["times"]
    exact = 0.6 / lam + (2.0 - 0.6 / lam) * np.exp(-lam * t / 4.0)
    np.testing.assert_allclose(mm.events["rate"], exact, rtol=1e-12)


def test_noise_has_nest_s_statistics():
    """NEST's test_rate_neuron: input noise of std sigma gives the rate a variance sigma^2 / 2
    (lambda 1) about mu; output noise leaves the rate at mu. 10^5 samples, correlated over
    tau = 5 ms (about 10^3 independent ones): 5% is over three standard errors."""
    rv.SetKernelStatus({"use_wfr": False})
    params = {"mu": 1.5, "sigma": 0.5, "tau": 5.0}
    ipn, opn = rv.Create("lin_rate_ipn", params=params), rv.Create("lin_rate_opn", params=params)
    mm = rv.Create("multimeter", params={"record_from": ["rate", "noise"], "interval": 0.1, "start": 50.0})
    rv.Connect(mm, ipn + opn)
    rv.Simulate(10000.0)
    ev = mm.events
    for node in (ipn, opn):
        mine = ev["senders"] == node.global_id
        assert np.mean(ev["rate"][mine]) == pytest.approx(1.5, rel=0.05)
        assert np.std(ev["noise"][mine]) == pytest.approx(0.5, rel=0.05)
    assert np.var(ev["rate"][ev["senders"] == ipn.global_id]) == pytest.approx(0.5**2 / 2, rel=0.05)


def test_noise_is_the_same_for_any_threads():
    def rates(threads):
        rv.ResetKernel()
        rv.SetKernelStatus({"local_num_threads": threads})
        n = rv.Create("tanh_rate_ipn", 5, params={"sigma": 0.3})
        rv.Connect(n, n, syn_spec={"synapse_model": "rate_connection_instantaneous", "weight": 0.2})
        mm = rv.Create("multimeter", params={"record_from": ["rate"], "interval": 0.1})
        rv.Connect(mm, n)
        rv.Simulate(5.0)
        return sorted(zip(mm.events["senders"], mm.events["times"], mm.events["rate"]))

    assert rates(2) == rates(1)


def test_mean_and_std_are_mu_and_sigma():
    n = rv.Create("lin_rate_ipn", params={"mean": 0.7, "std": 0.2})
    assert n.get(["mu", "sigma", "mean", "std"]) == {"mu": 0.7, "sigma": 0.2, "mean": 0.7, "std": 0.2}
    n.sigma = 0.4
    assert n.std == 0.4
    gauss = rv.Create("gauss_rate_ipn")  # its gain's sigma shows as sigma, the noise's as std
    assert gauss.get(["sigma", "std"]) == {"sigma": 0.0, "std": 1.0}
    gauss.sigma = 0.3  # NEST sets both from one key
    assert gauss.get(["sigma", "std"]) == {"sigma": 0.3, "std": 0.3}


def test_defaults_and_node_properties():
    assert rv.GetDefaults("rate_connection_instantaneous")["has_delay"] is False
    assert rv.GetDefaults("rate_connection_delayed")["has_delay"] is True
    assert rv.GetDefaults("lin_rate_opn")["recordables"] == ["noise", "noisy_rate", "rate"]
    assert rv.GetDefaults("rate_transformer_tanh")["recordables"] == ["rate"]
    assert rv.Create("lin_rate_ipn").node_uses_wfr is True
    assert rv.Create("iaf_psc_alpha").node_uses_wfr is False
    rv.ResetKernel()
    rv.SetKernelStatus({"use_wfr": False})
    assert rv.Create("lin_rate_ipn").node_uses_wfr is False


def test_wfr_settings_follow_nest_s_rules():
    assert rv.GetKernelStatus("wfr_comm_interval") == 1.0
    with pytest.raises(BadParameterError, match="wfr_comm_interval"):
        rv.SetKernelStatus({"resolution": 0.1, "wfr_comm_interval": 0.05})
    with pytest.raises(BadParameterError, match="use_wfr = False"):
        rv.SetKernelStatus({"use_wfr": False, "wfr_comm_interval": 0.5})
    rv.SetKernelStatus({"use_wfr": True, "wfr_comm_interval": 0.5})
    rv.SetKernelStatus({"resolution": 0.2, "use_wfr": False})
    assert rv.GetKernelStatus("wfr_comm_interval") == 0.2  # the resolution without relaxation
    rv.Create("lin_rate_ipn")
    with pytest.raises(KernelStateError, match="use_wfr"):
        rv.SetKernelStatus({"use_wfr": True})
    rv.SetKernelStatus({"wfr_tol": 1e-6, "wfr_max_iterations": 30})  # these change at any time
    with pytest.raises(BadParameterError, match="wfr_interpolation_order"):
        rv.SetKernelStatus({"wfr_interpolation_order": 2})


def test_instantaneous_connections_take_the_relaxation_interval_as_delay():
    rv.SetKernelStatus({"wfr_comm_interval": 2.0})
    a, b = rv.Create("lin_rate_ipn", 2)
    rv.Connect(a, b, syn_spec={"synapse_model": "rate_connection_instantaneous"})
    rv.Simulate(4.0)
    assert rv.GetKernelStatus("min_delay") == 2.0
    assert rv.GetConnections().get("delay") == 2.0


def test_unsettled_relaxation_warns():
    rv.SetKernelStatus({"wfr_max_iterations": 1})
    a, b = rv.Create("lin_rate_ipn", 2, params={"mu": 1.0, "sigma": 0.0})
    syn = {"synapse_model": "rate_connection_instantaneous", "weight": 0.5}
    rv.Connect(a, b, syn_spec=syn)
    rv.Connect(b, a, syn_spec=syn)
    with pytest.warns(UserWarning, match="wfr_max_iterations = 1"):
        rv.Simulate(3.0)
    assert rv.GetKernelStatus("wfr_unsettled_cycles") == 3
    assert rv.GetKernelStatus("wfr_passes") == 3  # one per cycle
    assert rv.GetKernelStatus("time_relax") > 0  # a phase of its own


def test_rates_and_spikes_do_not_mix():
    rate, spiking = rv.Create("lin_rate_ipn"), rv.Create("iaf_psc_alpha")
    for source, target in ((rate, spiking), (spiking, rate)):
        for model in ("rate_connection_instantaneous", "rate_connection_delayed"):
            with pytest.raises(IllegalConnectionError, match="rate"):
                rv.Connect(source, target, syn_spec={"synapse_model": model})
    with pytest.raises(IllegalConnectionError, match="rate"):
        rv.Connect(rate, rate)  # a static synapse carries spikes
    with pytest.raises(IllegalConnectionError, match="currents"):
        rv.Connect(rv.Create("dc_generator"), rate)
    with pytest.raises(IllegalConnectionError, match="devices"):
        rv.Connect(rv.Create("poisson_generator"), rate, syn_spec={"synapse_model": "rate_connection_delayed"})
    with pytest.raises(BadParameterError, match="delay"):
        rv.Connect(rate, rate, syn_spec={"synapse_model": "rate_connection_instantaneous", "delay": 2.0})
    assert rv.GetKernelStatus("num_connections") == 0


@pytest.mark.parametrize(
    "model, name, value",
    [
        ("lin_rate_ipn", "tau", 0.0),
        ("lin_rate_ipn", "lambda", -1.0),
        ("tanh_rate_ipn", "sigma", -0.1),
        ("lin_rate_ipn", "rectify_rate", -1.0),
        ("lin_rate_opn", "tau", -2.0),
        ("gauss_rate_ipn", "std", -1.0),
    ],
)
def test_bad_parameters_raise_naming_them(model, name, value):
    with pytest.raises(BadParameterError, match=f"{name} = {value:g}"):
        rv.Create(model, params={name: value})


def test_checkpoints_refuse_rate_neurons(tmp_path):
    rv.Create("lin_rate_ipn")
    rv.Simulate(1.0)
    with pytest.raises(KernelStateError, match="lin_rate_ipn"):
        rv.SaveCheckpoint(tmp_path / "ckpt")


def test_instantaneous_rates_converge_to_the_fixed_point():
    """Two neurons driving each other instantaneously: relaxed to wfr_tol, the loop's steady
    state solves r_a = mu + w r_b, r_b = w r_a (lambda 1, linear gain); its slower mode decays
    as exp(-(1 - w) t / tau), to e^-30 in 600 ms."""
    rv.SetKernelStatus({"wfr_tol": 1e-10})
    a, b = rv.Create("lin_rate_ipn", params={"mu": 1.0, "sigma": 0.0}), rv.Create("lin_rate_ipn", params={"sigma": 0.0})
    syn = {"synapse_model": "rate_connection_instantaneous", "weight": 0.5}
    rv.Connect(a, b, syn_spec=syn)
    rv.Connect(b, a, syn_spec=syn)
    rv.Simulate(600.0)
    r_a = 1.0 / (1.0 - 0.25)
    assert a.rate == pytest.approx(r_a, rel=1e-9) and b.rate == pytest.approx(0.5 * r_a, rel=1e-9)
    assert math.isclose(rv.GetKernelStatus("wfr_unsettled_cycles"), 0)


def test_a_shorter_cycle_between_runs_delivers_the_last_cycle_whole():
    """New connections with a shorter delay shorten the cycle between two Simulate calls; the
    rates of the last long cycle arrive as they would have, in the steps they were due."""

    def rates(cut):
        rv.ResetKernel()
        rv.SetKernelStatus({"use_wfr": False})
        a, b, c = (rv.Create("lin_rate_ipn", params={"mu": m, "sigma": 0.0}) for m in (1.0, 0.0, 0.0))
        rv.Connect(a, b, syn_spec={"synapse_model": "rate_connection_delayed", "delay": 2.0, "weight": 0.5})
        mm = rv.Create("multimeter", params={"record_from": ["rate"], "interval": 0.1})
        rv.Connect(mm, b)
        if cut:
            rv.Simulate(4.0)
        rv.Connect(c, b, syn_spec={"synapse_model": "rate_connection_delayed", "delay": 0.5, "weight": 0.0})
        rv.Simulate(10.0 - (4.0 if cut else 0.0))
        return mm.events["rate"]

    np.testing.assert_array_equal(rates(True), rates(False))
