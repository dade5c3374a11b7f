"""stdp_facetshw_synapse_hom against NEST 3.10 (tests/fixtures/nest_synapse_traces.json, from
benchmarks/peers/nest_synapse_traces.py), and its look-up tables as common list parameters."""

import json
import pathlib

import numpy as np
import pytest

import ranvier as rv

MODEL = "stdp_facetshw_synapse_hom"
FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_synapse_traces.json").read_text())[MODEL]


def facets_network(scenario):
    """The fixture's scenario: pre and post parrots driven by trains, one connection per row."""
    rv.SetDefaults(MODEL, scenario["common"])
    pre, post = rv.Create("parrot_neuron", 2), rv.Create("parrot_neuron", 3)
    for group, trains in ((pre, scenario["pre_times"]), (post, scenario["post_times"])):
        for node, times in zip(group, trains):
            rv.Connect(rv.Create("spike_generator", params={"spike_times": times}), node, syn_spec={"delay": 1.0})
    for i, j, weight, delay, th, tl in scenario["connections"]:
        syn = {"synapse_model": MODEL, "weight": weight, "delay": delay, "a_thresh_th": th, "a_thresh_tl": tl}
        rv.Connect(pre[i], post[j], syn_spec=syn)
    return pre, post


def test_weights_accumulators_and_readouts_are_nest_s():
    scenario = FIXTURE["scenario"]
    pre, post = facets_network(scenario)
    trace = {key: [] for key in FIXTURE["read"]}
    while rv.biological_time < scenario["t_end"]:
        rv.Simulate(10.0)
        conns = [rv.GetConnections(pre[i], post[j]) for i, j, *_ in scenario["connections"]]
        for key in FIXTURE["read"]:
            trace[key].append([c.get(key) for c in conns])
    assert len({w for row in FIXTURE["weight"] for w in row}) > 8  # the look-ups moved the weights
    for key in FIXTURE["read"]:
        np.testing.assert_array_equal(np.array(trace[key], dtype=float), np.array(FIXTURE[key], dtype=float), key)


def test_the_readout_by_hand():
    """Pre spikes every 100 ms, post spikes 15 ms after the first two, delay 5: each such pair adds
    e^(-20/20) to a_causal and e^(-80/20) to a_acausal (one post spike is the first and the last of
    its window). With both thresholds at 1.5 e^-1, the readout that follows the second pair finds
    a_causal above them: table 0 takes weight 0 to 2 of 15 steps of Wmax and both are reset."""
    pre, post = rv.Create("parrot_neuron"), rv.Create("parrot_neuron")
    rv.Connect(rv.Create("spike_generator", params={"spike_times": [10.0, 110.0, 210.0, 310.0]}), pre)
    rv.Connect(rv.Create("spike_generator", params={"spike_times": [25.0, 125.0]}), post)
    threshold = 1.5 * np.exp(-1.0)
    syn = {"synapse_model": MODEL, "weight": 0.0, "delay": 5.0, "a_thresh_th": threshold, "a_thresh_tl": threshold}
    syn["receptor_type"] = 1  # the post parrot does not repeat these spikes
    rv.Connect(pre, post, syn_spec=syn)
    conn = rv.GetConnections(pre, post)
    seen = []
    for _ in range(4):
        rv.Simulate(100.0)
        seen.append([conn.get(k) for k in ("weight", "a_causal", "a_acausal", "next_readout_time")])
    # readouts at the pre spikes (11, 111, 211, 311 ms) move on by a cycle of 15 ms past them
    pair = [np.exp(-1.0), np.exp(-4.0)]
    expected = [
        [0.0, 0.0, 0.0, 15.0],
        [0.0, *pair, 120.0],
        [0.0, *(2 * np.array(pair)), 225.0],
        [40.0 / 3, 0, 0, 315.0],
    ]
    np.testing.assert_allclose(seen, expected, rtol=1e-15)


def test_synapses_are_numbered_per_thread_in_the_order_they_first_transmit():
    """As NEST (run with 2 threads): each thread counts its own synapses from no_synapses."""
    rv.SetKernelStatus({"local_num_threads": 2})
    rv.SetDefaults(MODEL, {"no_synapses": 3})
    pre, post = rv.Create("parrot_neuron", 3), rv.Create("parrot_neuron", 4)
    rv.Connect(rv.Create("spike_generator", params={"spike_times": [10.0, 20.0]}), pre)
    rv.Connect(pre, post, syn_spec={"synapse_model": MODEL, "weight": 20.0})
    rv.Simulate(50.0)
    conns = rv.GetConnections(synapse_model=MODEL)
    ids = {}
    for thread, sid in zip(conns.get("target_thread"), conns.get("synapse_id")):
        ids.setdefault(thread, []).append(sid)
    assert sorted(ids) == [0, 1]
    for numbers in ids.values():
        assert sorted(numbers) == list(range(3, 3 + len(numbers)))
    assert all(conns.get("init_flag"))


def test_tables_are_lists_of_integers_set_and_copied_as_nest_takes_them():
    defaults = rv.GetDefaults(MODEL)
    assert defaults["lookuptable_0"] == [2, 3, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 14, 15]
    assert defaults["reset_pattern"] == [1] * 6 and defaults["configbit_1"] == [0, 1, 0, 0]
    table = list(range(15, -1, -1))
    rv.CopyModel(MODEL, "mine", {"lookuptable_1": np.array(table), "tau_plus": 5.0})
    assert rv.GetDefaults("mine", "lookuptable_1") == table and rv.GetDefaults("mine", "tau_plus") == 5.0
    assert rv.GetDefaults(MODEL, "lookuptable_1")[0] == 0  # the original keeps its own


@pytest.mark.parametrize(
    "params, match",
    [
        ({"lookuptable_0": [16] + [0] * 15}, "lookuptable_0"),
        ({"lookuptable_2": [1.5] + [0] * 15}, "lookuptable_2"),
        ({"lookuptable_1": [0] * 15}, "lookuptable_1 must have 16 entries"),
        ({"configbit_0": [0, 1, 0]}, "configbit_0 must have 4 entries"),
        ({"reset_pattern": "all"}, "reset_pattern"),
        ({"Wmax": 0.0}, "Wmax"),
        ({"synapses_per_driver": 0}, "synapses_per_driver"),
    ],
)
def test_bad_values_are_refused_by_name_and_leave_the_model_as_it_was(params, match):
    before = rv.GetDefaults(MODEL)
    with pytest.raises(rv.BadParameterError, match=match):
        rv.SetDefaults(MODEL, params)
    assert rv.GetDefaults(MODEL) == before
    n = rv.Create("parrot_neuron", 2)
    rv.Connect(n[0], n[1], syn_spec={"synapse_model": MODEL})  # the kernel goes on
    rv.Simulate(5.0)


def _run_to_end(scenario):
    rv.Simulate(scenario["t_end"] - rv.biological_time)
    return rv.GetConnections(synapse_model=MODEL).get(["weight", "a_causal", "a_acausal", "synapse_id"])


def test_continues_from_a_checkpoint_as_without_one(tmp_path):
    """Numbered connections stay numbered and the count goes on from them."""
    scenario = dict(FIXTURE["scenario"], common={**FIXTURE["scenario"]["common"], "no_synapses": 2})
    facets_network(scenario)
    expected = _run_to_end(scenario)
    rv.ResetKernel()
    facets_network(scenario)
    rv.Simulate(14.0)  # after pre 0's first spike, before pre 1's
    rv.SaveCheckpoint(tmp_path / "ckpt")
    rv.ResetKernel()
    rv.LoadCheckpoint(tmp_path / "ckpt")
    assert rv.GetDefaults(MODEL, "lookuptable_2") == scenario["common"]["lookuptable_2"]
    assert _run_to_end(scenario) == expected
