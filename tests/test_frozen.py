"""NEST's frozen nodes: a frozen neuron is not updated (its state stays, it neither spikes nor is
sampled, input that reaches it meanwhile is dropped) and goes on from where it was once thawed."""

import numpy as np
import pytest

import ranvier as rv


@pytest.mark.parametrize("model", ["iaf_psc_alpha", "aeif_cond_alpha", "iaf_psc_alpha_ps", "iaf_psc_exp_multisynapse"])
def test_a_frozen_neuron_keeps_its_state_and_goes_on_when_thawed(model):
    """Two driven neurons, the first frozen for the first 10 of 20 ms: its trace is the second's
    first 10 ms (NEST's test_multimeter_freeze_thaw)."""
    n = rv.Create(model, 2, params={"I_e": 600.0})
    mm = rv.Create("multimeter", params={"record_from": ["V_m"], "interval": 0.1})
    sr = rv.Create("spike_recorder")
    rv.Connect(mm, n)
    rv.Connect(n, sr)
    before = n[0].get("V_m")
    n[0].frozen = True
    rv.Simulate(10.0)
    assert n[0].get("V_m") == before and n.get("frozen") == (True, False)
    n[0].frozen = False
    rv.Simulate(10.0)
    ev = mm.events
    frozen, free = ev["V_m"][ev["senders"] == n[0].global_id], ev["V_m"][ev["senders"] == n[1].global_id]
    assert len(frozen) == len(free) - 100  # no samples in the 100 frozen steps
    np.testing.assert_array_equal(frozen, free[: len(frozen)])
    spikes = sr.events
    assert np.all(spikes["times"][spikes["senders"] == n[0].global_id] > 10.0)


def test_frozen_neurons_neither_spike_nor_take_input_and_threads_agree():
    def run(threads):
        rv.ResetKernel()
        rv.SetKernelStatus({"local_num_threads": threads})
        n = rv.Create("iaf_psc_exp", 40, params={"I_e": rv.random.uniform(300.0, 500.0)})
        rv.Connect(n, n, {"rule": "fixed_indegree", "indegree": 5}, {"weight": 50.0, "delay": 1.5})
        sr = rv.Create("spike_recorder")
        rv.Connect(n, sr)
        n[::3].frozen = True
        rv.Simulate(50.0)
        frozen = sr.events["senders"][np.isin(sr.events["senders"], n[::3].tolist())]
        n[::3].frozen = False
        rv.Simulate(50.0)
        order = np.lexsort((sr.events["senders"], sr.events["times"]))
        return len(frozen), sr.events["times"][order], sr.events["senders"][order], np.array(n.get("V_m"))

    one = run(1)
    assert one[0] == 0 and len(one[1]) > 100
    for a, b in zip(one[1:], run(3)[1:]):
        np.testing.assert_array_equal(a, b)


def test_devices_are_never_frozen_and_values_are_checked():
    rv.Create("multimeter", params={"frozen": False})
    with pytest.raises(rv.BadParameterError, match="frozen"):
        rv.Create("multimeter", params={"frozen": True})
    n = rv.Create("iaf_psc_alpha")
    with pytest.raises(rv.BadParameterError, match="frozen must be True or False"):
        n.frozen = "yes"
    assert n.frozen is False and rv.GetDefaults("iaf_psc_alpha", "frozen") is False
