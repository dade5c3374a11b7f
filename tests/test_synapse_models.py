"""Synapse models beside static_synapse: NEST's _hpc and _lbl names, static_synapse_hom_w;
against hand-computed values and NEST 3.10's traces (tests/fixtures/nest_synapse_traces.json,
from benchmarks/peers/nest_synapse_traces.py)."""
import json
import math
import pathlib

import numpy as np
import pytest

import ranvier as rv
from ranvier import _kernel

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_synapse_traces.json").read_text())
BASES = ("static_synapse", "static_synapse_hom_w", "stdp_pl_synapse_hom")


@pytest.mark.parametrize("base", BASES)
def test_hpc_and_lbl_names_are_the_model_itself(base):
    models = _kernel.synapse_models()
    for variant in (base + "_hpc", base + "_lbl"):
        assert models[variant] == models[base]
        assert rv.GetDefaults(variant) == rv.GetDefaults(base)
        assert variant in rv.Models("synapses")


def test_hpc_variant_follows_the_stdp_rule_as_nest_does():
    s = FIXTURE["stdp_pl_synapse_hom_hpc"]["scenario"]
    rv.CopyModel("stdp_pl_synapse_hom_hpc", "stdp", s["common"])
    drive_pre = rv.Create("spike_generator", params={"spike_times": s["pre_times"]})
    drive_post = rv.Create("spike_generator", params={"spike_times": s["post_times"]})
    pre, post = rv.Create("parrot_neuron"), rv.Create("parrot_neuron", params={"tau_minus": s["tau_minus"]})
    rv.Connect(drive_pre, pre, syn_spec={"delay": 1.0})
    rv.Connect(drive_post, post, syn_spec={"delay": 1.0})
    rv.Connect(pre, post, syn_spec={"synapse_model": "stdp", "weight": s["weight"], "delay": s["delay"]})
    weights = []
    for t in s["pre_times"]:
        rv.Simulate(t + 1.0 + 2 * s["delay"] + 1.0 - rv.GetKernelStatus("biological_time"))
        weights.append(rv.GetConnections(pre, post).weight[0])
    np.testing.assert_allclose(weights, FIXTURE["stdp_pl_synapse_hom_hpc"]["weights"], rtol=1e-12)


def hom_w_network(threads=1):
    """The fixture's scenario: two parrots into an iaf_psc_alpha through a common weight."""
    s = FIXTURE["static_synapse_hom_w"]["scenario"]
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads})
    rv.CopyModel("static_synapse_hom_w", "hom", {"weight": s["weights"][0]})
    target = rv.Create("iaf_psc_alpha")
    parrots = []
    for times, delay in zip(s["pre_times"], s["delays"]):
        drive = rv.Create("spike_generator", params={"spike_times": times})
        parrots.append(rv.Create("parrot_neuron"))
        rv.Connect(drive, parrots[-1], syn_spec={"delay": 1.0})
        rv.Connect(parrots[-1], target, syn_spec={"synapse_model": "hom", "delay": delay})
    vm = rv.Create("voltmeter", params={"interval": 0.1})
    rv.Connect(vm, target)
    return s, target, vm


def test_hom_w_weight_is_the_models_and_changes_for_existing_connections():
    s, target, vm = hom_w_network()
    rv.Simulate(s["t_switch"])
    assert list(rv.GetConnections(target=target, synapse_model="hom").weight) == [s["weights"][0]] * 2
    rv.SetDefaults("hom", {"weight": s["weights"][1]})
    rv.Simulate(s["t_end"] - s["t_switch"])
    assert list(rv.GetConnections(target=target, synapse_model="hom").weight) == [s["weights"][1]] * 2
    ev = vm.events
    nest = FIXTURE["static_synapse_hom_w"]
    n = len(nest["times"])  # NEST's voltmeter leaves out the last min_delay interval's samples
    assert n >= 580
    np.testing.assert_allclose(ev["times"][:n], nest["times"], atol=1e-12)
    np.testing.assert_allclose(ev["V_m"][:n], nest["V_m"], atol=1e-9, rtol=0)
    # the second weight is inhibitory: the potential falls below rest after the switch
    assert min(ev["V_m"][np.asarray(ev["times"]) > s["t_switch"] + 1.0]) < -70.0


def test_hom_w_postsynaptic_current_by_hand():
    """One spike through weight w into iaf_psc_alpha: the PSC is w e t/tau exp(-t/tau) from the
    arrival (spike at 3 ms, parrot +1 ms, delay 2 ms: 6 ms)."""
    rv.SetDefaults("static_synapse_hom_w", {"weight": 80.0})
    target = rv.Create("iaf_psc_alpha", params={"I_e": 0.0})
    drive = rv.Create("spike_generator", params={"spike_times": [3.0]})
    parrot = rv.Create("parrot_neuron")
    rv.Connect(drive, parrot, syn_spec={"delay": 1.0})
    rv.Connect(parrot, target, syn_spec={"synapse_model": "static_synapse_hom_w", "delay": 2.0})
    mm = rv.Create("multimeter", params={"interval": 0.1, "record_from": ["I_syn_ex"]})
    rv.Connect(mm, target)
    rv.Simulate(12.0)
    t, i_syn = mm.events["times"], mm.events["I_syn_ex"]
    tau = rv.GetDefaults("iaf_psc_alpha", "tau_syn_ex")
    after = t - 6.0
    expected = np.where(after > 0, 80.0 * math.e * after / tau * np.exp(-after / tau), 0.0)
    np.testing.assert_allclose(i_syn, expected, atol=1e-9)


@pytest.mark.parametrize("threads", [2, 3])
def test_hom_w_is_identical_across_threads(threads):
    traces = []
    for n in (1, threads):
        s, _, vm = hom_w_network(n)
        rv.Simulate(s["t_end"])
        traces.append(np.asarray(vm.events["V_m"]))
    np.testing.assert_array_equal(traces[0], traces[1])


def test_hom_w_rejects_a_weight_per_connection():
    pre, post = rv.Create("parrot_neuron"), rv.Create("parrot_neuron")
    with pytest.raises(rv.errors.BadParameterError, match="weight"):
        rv.Connect(pre, post, syn_spec={"synapse_model": "static_synapse_hom_w", "weight": 2.0})
    assert rv.GetKernelStatus("num_connections") == 0


def test_bad_common_values_are_rejected_and_leave_the_model_alone():
    with pytest.raises(rv.errors.BadParameterError, match="tau_plus"):
        rv.SetDefaults("stdp_pl_synapse_hom_hpc", {"tau_plus": -1.0})
    assert rv.GetDefaults("stdp_pl_synapse_hom_hpc", "tau_plus") == 20.0
    with pytest.raises(rv.errors.BadParameterError, match="tau_plus"):
        rv.CopyModel("stdp_pl_synapse_hom", "broken", {"tau_plus": 0.0})
    assert "broken" not in rv.Models()
    with pytest.raises(rv.errors.UnknownParameterError):
        rv.SetDefaults("static_synapse_hom_w", {"U": 0.5})
