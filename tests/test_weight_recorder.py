"""weight_recorder against NEST 3.10 (tests/fixtures/nest_weight_recorder.json, written by
benchmarks/peers/nest_weight_recorder_fixture.py): events of STDP, static and tsodyks2
synapses, filters, start/stop, the ASCII file; identical for any number of threads; errors."""

import json
import os
import sys

import numpy as np
import pytest

import ranvier as nest

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "benchmarks", "peers"))
from nest_weight_recorder_fixture import scenario  # noqa: E402


@pytest.fixture(scope="module")
def reference():
    with open(os.path.join(HERE, "fixtures", "nest_weight_recorder.json")) as f:
        return json.load(f)


def run(path, threads=1):
    nest.ResetKernel()
    nest.local_num_threads = threads
    nest.data_path = ""
    try:
        return scenario(nest, str(path))
    finally:
        nest.data_path = ""


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    return run(tmp_path_factory.mktemp("wr"))


def in_nest_order(events, order_of):
    """NEST appends events in delivery order; Ranvier in (time, sender, target) order. Both
    sorted by (time, sender, target, port)."""
    keys = np.lexsort([order_of["ports"], order_of["targets"], order_of["senders"], order_of["times"]])
    return {k: np.asarray(v)[keys] for k, v in events.items()}


@pytest.mark.parametrize("recorder", ["stdp", "short_term"])
def test_events_as_nest(result, reference, recorder):
    got, want = result[recorder], in_nest_order(reference[recorder], reference[recorder])
    assert len(want["times"]) > 20
    assert set(got) == set(want)
    for key in ("senders", "targets", "times", "receptors", "ports"):
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)
    np.testing.assert_allclose(got["weights"], want["weights"], rtol=1e-12)
    assert len(set(np.round(got["weights"], 9))) > 5  # weights changed, so the update was recorded


def test_events_are_in_time_sender_target_order(result):
    e = result["stdp"]
    keys = list(zip(e["times"], e["senders"], e["targets"]))
    assert keys == sorted(keys)


@pytest.mark.parametrize(
    "key",
    [
        "stdp_after_first_simulate",
        "filtered_file",
        "filtered_filename",
        "filters",
        "default_attachment",
        "copy_attachment",
    ],
)
def test_as_nest(result, reference, key):
    assert result[key] == reference[key]


NEST_ERROR_NAMES = {
    "BadProperty": nest.NESTErrors.BadProperty,
    "TypeMismatch": nest.NESTErrors.TypeMismatch,
    "UnaccessedDictionaryEntry": nest.NESTErrors.UnaccessedDictionaryEntry,
    "NotImplemented": nest.NESTErrors.NotImplemented,
}


@pytest.mark.parametrize(
    "key",
    [
        "error_not_a_weight_recorder",
        "error_not_a_node_collection",
        "error_unknown_key",
        "error_filter_on_spike_recorder",
        "error_in_syn_spec",
    ],
)
def test_errors_as_nest(result, reference, key):
    assert result[key] is not None
    assert issubclass(getattr(nest, result[key]), NEST_ERROR_NAMES[reference[key]])


@pytest.mark.parametrize("threads", [2, 3])
def test_identical_for_any_number_of_threads(result, tmp_path, threads):
    got = run(tmp_path, threads)
    for recorder in ("stdp", "short_term"):
        for key, value in result[recorder].items():
            if key != "ports":  # NEST's port is the connection's index on its thread
                np.testing.assert_array_equal(got[recorder][key], value, err_msg=f"{recorder} {key}")
    without_ports = lambda text: [line.rsplit("\t", 1)[0] for line in text.split("\n")]  # noqa: E731
    assert without_ports(got["filtered_file"]) == without_ports(result["filtered_file"])


def test_bad_input_names_it_and_the_kernel_stays_usable():
    nest.ResetKernel()
    n = nest.Create("iaf_psc_alpha", 2)
    wr = nest.Create("weight_recorder")
    with pytest.raises(nest.BadParameterError, match="weight_recorder"):
        nest.Connect(n, wr)
    with pytest.raises(nest.BadParameterError, match="weight_recorder"):
        nest.CopyModel("static_synapse", "two", {"weight_recorder": wr + nest.Create("weight_recorder")})
    with pytest.raises(nest.BadParameterError, match="senders"):
        wr.set(senders=[1, 2])
    with pytest.raises(nest.UnknownParameterError, match="targets"):
        n.set(targets=n)
    nest.Connect(n[0], n[1], syn_spec={"weight": 2.5})
    nest.SetDefaults("static_synapse", {"weight_recorder": wr})  # the model's: connections made before too
    nest.Connect(n[1], n[0])
    n.set(I_e=400.0)
    nest.Simulate(100.0)
    e = wr.events
    assert len(e["times"]) > 3 and set(e["senders"].tolist()) == set(n.tolist())
    assert set(e["weights"][e["senders"] == n[0].global_id]) == {2.5}


def test_detaching_stops_recording():
    nest.ResetKernel()
    n = nest.Create("iaf_psc_alpha", 2, params={"I_e": 400.0})
    wr = nest.Create("weight_recorder")
    nest.CopyModel("static_synapse", "rec", {"weight_recorder": wr})
    nest.Connect(n, n, "one_to_one", {"synapse_model": "rec"})
    nest.Simulate(50.0)
    before = wr.n_events
    assert before > 0
    nest.SetDefaults("rec", {"weight_recorder": nest.NodeCollection()})
    nest.Simulate(50.0)
    assert wr.n_events == before
