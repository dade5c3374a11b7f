"""Gap junctions (NEST's hh_psc_alpha_gap and gap_junction, with waveform relaxation of each
interpolation order and without it): against NEST 3.10's potentials and spikes
(tests/fixtures/nest_gap_junctions.json, written by benchmarks/peers/nest_network_fixtures.py
from tests/mpi/gap_network.py), the same for any threads and processes, and NEST's rules for
connecting them."""

import json
import pathlib
import sys

import numpy as np
import pytest
from mpi_launch import HAVE_MPI, mpirun
from ranvier.errors import BadParameterError, IllegalConnectionError

import ranvier as rv

sys.path.insert(0, str(pathlib.Path(__file__).parent / "mpi"))
import gap_network  # noqa: E402

NEST = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_gap_junctions.json").read_text())
GAP = {"synapse_model": "gap_junction"}
BOTH_WAYS = {"rule": "one_to_one", "make_symmetric": True}


@pytest.mark.parametrize("case", sorted(gap_network.CASES))
def test_potentials_and_spikes_are_nest_s(case):
    if case == "constant":  # one cycle does not settle in 40 passes, on NEST too ("Maximum number of iterations")
        with pytest.warns(UserWarning, match="in 1 cycles"):
            got = gap_network.run(rv, case)
    else:
        got = gap_network.run(rv, case)
    ref = NEST[case]
    assert got["min_delay"] == ref["min_delay"]  # the relaxation's interval, or one step without it
    assert got["senders"] == ref["senders"]
    # the adaptive solver takes NEST's steps; its exponential differs from libm's in the last
    # bits, which the Traub neurons' looser tolerance (1e-3) lets grow to 2e-8 mV
    np.testing.assert_allclose(got["V_m"], ref["V_m"], rtol=0, atol=5e-8)
    assert got["spike_senders"] == ref["spike_senders"] and len(got["spike_times"]) > 80
    np.testing.assert_allclose(got["spike_times"], ref["spike_times"], rtol=0, atol=1e-9)


def test_the_interpolation_order_matters():
    cubic, linear, constant = (np.asarray(NEST[c]["V_m"]) for c in ("cubic", "linear", "constant"))
    assert np.abs(cubic - linear).max() > 1e-3 and np.abs(cubic - constant).max() > 1.0


def test_threads_give_identical_results():
    for case in ("cubic", "no_wfr"):
        reference = gap_network.run(rv, case)
        assert gap_network.run(rv, case, threads=3) == reference


@pytest.mark.skipif(not HAVE_MPI, reason="needs MPI")
def test_processes_give_identical_results():
    reference = gap_network.run(rv, "cubic")
    for n, threads in ((2, 1), (3, 2)):
        assert json.loads(mpirun(n, "gap_network.py", "cubic", threads)) == reference


def test_a_junction_pulls_potentials_together():
    """Two resting neurons, one held depolarized by a current: the junction's current
    depolarizes the other, the more the stronger the junction."""

    def partner_potential(weight):
        rv.ResetKernel()
        pair = rv.Create("hh_psc_alpha_gap", 2)
        pair[0].I_e = 20.0
        if weight:
            rv.Connect(pair[0], pair[1], BOTH_WAYS, {**GAP, "weight": weight})
        rv.Simulate(50.0)
        return pair[1].V_m

    rest, weak, strong = partner_potential(0.0), partner_potential(0.5), partner_potential(5.0)
    assert rest < weak < strong


def test_connections_follow_nest_s_rules():
    gap, plain = rv.Create("hh_psc_alpha_gap", 2), rv.Create("iaf_psc_alpha", 2)
    rv.Connect(gap, gap, BOTH_WAYS, GAP)
    rv.Connect(gap, gap, "all_to_all", GAP)  # within one population it is symmetric
    assert set(rv.GetConnections(synapse_model="gap_junction").get("delay")) == {1.0}  # wfr_comm_interval
    with pytest.raises(BadParameterError, match='"make_symmetric" set to true'):
        rv.Connect(gap, gap, "one_to_one", GAP)
    with pytest.raises(BadParameterError, match="gap_junction connection has no delay"):
        rv.Connect(gap, gap, BOTH_WAYS, {**GAP, "delay": 2.0})
    with pytest.raises(IllegalConnectionError, match="The source node does not support gap junction output"):
        rv.Connect(plain, plain, BOTH_WAYS, GAP)
    # NEST checks the way back first, and names its ends (found by running NEST 3.10)
    with pytest.raises(IllegalConnectionError, match="The source node does not support gap junction output"):
        rv.Connect(gap[0], plain[0], BOTH_WAYS, GAP)
    with pytest.raises(IllegalConnectionError, match="The target node or synapse model does not support gap"):
        rv.Connect(plain[0], gap[0], BOTH_WAYS, GAP)
    with pytest.raises(BadParameterError, match="one value of each parameter"):
        rv.Connect(gap, gap, "all_to_all", {**GAP, "weight": rv.random.uniform(0.5, 1.0)})
    with pytest.raises(IllegalConnectionError, match="does not support rate"):
        rv.Connect(gap, gap, syn_spec={"synapse_model": "rate_connection_delayed"})
    rv.Connect(gap, plain, "one_to_one", {"weight": 10.0})  # and spikes, as any neuron
    assert rv.GetKernelStatus("num_connections") == 10  # a refused Connect leaves nothing
    defaults = rv.GetDefaults("gap_junction")
    assert defaults["requires_symmetric"] is True and defaults["has_delay"] is False
    assert gap[0].node_uses_wfr is True


@pytest.mark.parametrize("delay", [3.0, 1.0])
def test_junctions_count_in_the_delay_extrema_as_the_relaxation_interval(delay):
    """NEST's test_gap_junction.py::test_min_delay, with wfr_comm_interval 2 ms."""
    rv.SetKernelStatus({"wfr_comm_interval": 2.0})
    plain, gap = rv.Create("iaf_psc_alpha"), rv.Create("hh_psc_alpha_gap")
    rv.Connect(plain, plain, syn_spec={"weight": 3.0, "delay": delay})
    old_min, old_max = rv.GetKernelStatus(["min_delay", "max_delay"])
    rv.Connect(gap, gap, BOTH_WAYS, GAP)
    new_min, new_max = rv.GetKernelStatus(["min_delay", "max_delay"])
    assert (new_min, new_max) == ((old_min, 2.0) if delay < 2.0 else (2.0, old_max))


def test_bad_parameters_raise_naming_them():
    for name, value in (("C_m", 0.0), ("g_Kv1", -1.0), ("tau_syn_in", 0.0), ("t_ref", -1.0)):
        with pytest.raises(BadParameterError, match=f"{name} = "):
            rv.Create("hh_psc_alpha_gap", params={name: value})


def test_the_interpolation_order_may_change_between_runs():
    """The last cycle's potentials, sent with the old order's coefficients, still arrive."""
    pair = rv.Create("hh_psc_alpha_gap", 2, params={"I_e": 150.0})
    rv.Connect(pair[0], pair[1], BOTH_WAYS, {**GAP, "weight": 2.0})
    rv.Simulate(5.0)
    before = pair.get("V_m")
    rv.SetKernelStatus({"wfr_interpolation_order": 1})
    rv.Simulate(5.0)
    assert all(np.isfinite(pair.get("V_m"))) and pair.get("V_m") != before


def test_rate_neurons_and_gap_junction_neurons_in_one_network():
    """Coupled neurons that send different numbers of values per step share one exchange; a
    gap-junction neuron without junctions changes nothing for the rate neurons beside it."""

    def rates(with_gap_neuron):
        rv.ResetKernel()
        a, b = rv.Create("lin_rate_ipn", 2, params={"mu": 1.0, "sigma": 0.0})
        rv.Connect(a, b, syn_spec={"synapse_model": "rate_connection_instantaneous", "weight": 0.5})
        rv.Connect(b, a, syn_spec={"synapse_model": "rate_connection_delayed", "weight": -0.3, "delay": 1.5})
        if with_gap_neuron:
            rv.Create("hh_psc_alpha_gap", 3)
        mm = rv.Create("multimeter", params={"record_from": ["rate"], "interval": 0.1})
        rv.Connect(mm, a + b)
        rv.Simulate(10.0)
        return mm.events["rate"].tolist()

    assert rates(True) == rates(False)
