"""spike_train_injector against NEST 3.10 (fixture by benchmarks/peers/nest_device_traces.py):
its spikes (off-grid times, multiplicities, activity window and origin; a train set mid-run
with shift_now_spikes), the times GetStatus reports, and the exact V_m of a neuron it drives.
Its spikes travel like a neuron's: through plastic synapses, and the same for any threads
(tests/mpi/synapse_network.py has injectors too, for the process counts)."""

import sys

import numpy as np
import pytest
from device_fixture import FIXTURE, SPEC, H, reset
from ranvier.errors import BadParameterError

import ranvier as rv

S = SPEC["injector"]


def run(threads=1):
    reset(threads)
    first = rv.Create("spike_train_injector", params=S["window"])
    second = rv.Create("spike_train_injector")
    target = rv.Create("iaf_psc_alpha", params=SPEC["neuron"])
    sr = rv.Create("spike_recorder")
    vm = rv.Create("voltmeter", params={"interval": H})
    rv.Connect(first + second, sr)
    rv.Connect(first + second, target, syn_spec={"weight": S["weight"], "delay": S["delay"]})
    rv.Connect(vm, target)
    rv.Simulate(S["t_first"])
    second.set(S["later"])
    set_times = np.array(second.spike_times)
    rv.Simulate(S["t_end"] - S["t_first"])
    ev = sr.events
    order = np.lexsort((ev["senders"], ev["times"]))
    return {
        "times": ev["times"][order],
        "senders": ev["senders"][order] - first.global_id,
        "V_m": vm.events["V_m"],
        "first_times": np.array(first.spike_times),
        "second_times": set_times,
    }


def test_spikes_and_trace_as_nest():
    got = run()
    order = np.lexsort((FIXTURE["injector/senders"], FIXTURE["injector/times"]))
    np.testing.assert_array_equal(np.rint(got["times"] / H), np.rint(FIXTURE["injector/times"][order] / H))
    np.testing.assert_array_equal(got["senders"], FIXTURE["injector/senders"][order])
    np.testing.assert_allclose(got["first_times"], FIXTURE["injector/first_times"], atol=1e-12)
    np.testing.assert_allclose(got["second_times"], FIXTURE["injector/second_times"], atol=1e-12)
    nest_vm = FIXTURE["injector/V_m"]  # NEST's voltmeter lags one min_delay at a simulation's end
    assert np.max(np.abs(got["V_m"][: len(nest_vm)] - nest_vm)) < 1e-9 and len(nest_vm) >= 180
    assert len(got["times"]) == 14  # multiplicities repeat a spike


def test_identical_for_any_threads():
    one, two = run(1), run(2)
    for key in ("times", "senders", "V_m"):
        np.testing.assert_array_equal(one[key], two[key])


def test_drives_plastic_synapses_like_a_parrot():
    """The same pre train from an injector and from a spike_generator through a parrot: an STDP
    synapse onto a post parrot ends with the same weight."""
    reset()
    pre_times, post_times = [5.0, 12.0, 20.0, 31.0], [8.0, 14.0, 25.0]
    injector = rv.Create("spike_train_injector", params={"spike_times": [t + 1.0 for t in pre_times]})
    drive = rv.Create("spike_generator", params={"spike_times": pre_times})
    parrot = rv.Create("parrot_neuron")
    rv.Connect(drive, parrot, syn_spec={"delay": 1.0})
    post_drive = rv.Create("spike_generator", params={"spike_times": post_times})
    post = rv.Create("parrot_neuron", 2)
    rv.Connect(post_drive, post, syn_spec={"delay": 1.0})
    spec = {"synapse_model": "stdp_synapse", "weight": 20.0, "lambda": 0.1, "delay": 1.0}
    rv.Connect(injector, post[0], syn_spec=spec)
    rv.Connect(parrot, post[1], syn_spec=spec)
    rv.Simulate(50.0)
    w = [rv.GetConnections(src, post[k]).weight for k, src in enumerate((injector, parrot))]
    assert w[0] == w[1] != 20.0


def test_defaults_as_nest():
    d = rv.GetDefaults("spike_train_injector")
    assert d["spike_times"] == [] and d["spike_multiplicities"] == []
    assert (d["origin"], d["start"], d["stop"]) == (0.0, 0.0, sys.float_info.max)
    assert d["precise_times"] is d["allow_offgrid_times"] is d["shift_now_spikes"] is False
    assert "recordables" not in d  # as NEST: nothing to record


@pytest.mark.parametrize(
    "params,named",
    [
        ({"spike_times": [1.0, 1.05]}, "spike_times"),  # off the grid
        ({"spike_times": [2.0, 1.0]}, "spike_times"),  # not sorted
        ({"spike_times": [0.0, 1.0]}, "spike_times"),
        ({"spike_times": [1.0, 2.0], "spike_multiplicities": [1, 2, 3]}, "spike_multiplicities"),
        ({"spike_times": [1.0], "spike_multiplicities": [1.5]}, "spike_multiplicities"),
        ({"origin": 0.25 + 1e-3}, "origin"),
        ({"start": 5.0, "stop": 2.0}, "stop"),
        ({"precise_times": True}, "precise_times"),
        ({"spike_times": "soon"}, "spike_times"),
    ],
)
def test_bad_parameters_raise(params, named):
    reset()
    with pytest.raises(BadParameterError, match=named):
        rv.Create("spike_train_injector", params=params)
    n = rv.Create("spike_train_injector", params={"spike_times": [1.0]})
    with pytest.raises(BadParameterError, match=named):
        n.set(params)
    assert list(n.spike_times) == [1.0]  # unchanged, the kernel usable
    rv.Simulate(2.0)


def test_flags_only_with_spike_times():
    reset()
    n = rv.Create("spike_train_injector", params={"spike_times": [1.0]})
    with pytest.raises(BadParameterError, match="allow_offgrid_times"):
        n.set({"allow_offgrid_times": True})
    n.set({"allow_offgrid_times": True, "spike_times": [1.04]})
    assert list(n.spike_times) == [pytest.approx(1.1)]


def test_list_parameters_through_defaults_copies_and_per_node_values():
    reset()
    rv.SetDefaults("spike_train_injector", {"spike_times": [1.0, 2.0]})
    rv.CopyModel("spike_train_injector", "late_trains", {"spike_times": (5.0,), "spike_multiplicities": [2]})
    a, b = rv.Create("spike_train_injector"), rv.Create("late_trains")
    assert list(a.spike_times) == [1.0, 2.0] and list(b.spike_times) == [5.0]
    pair = rv.Create("spike_train_injector", 2, params={"spike_times": [[1.0], [3.0, 4.0]]})
    got = pair.get("spike_times")
    assert [list(v) for v in got] == [[1.0], [3.0, 4.0]]
    with pytest.raises(BadParameterError, match="spike_times"):
        rv.SetDefaults("spike_train_injector", {"spike_times": [1.0, "x"]})
    assert rv.GetDefaults("spike_train_injector", "spike_times") == [1.0, 2.0]


def test_connections_into_the_injector_are_refused():
    """It has no input ports, as NEST's injector accepts no connections."""
    rv.ResetKernel()
    injector = rv.Create("spike_train_injector")
    with pytest.raises(rv.BadParameterError, match="receptor_type"):
        rv.Connect(rv.Create("iaf_psc_alpha"), injector)
