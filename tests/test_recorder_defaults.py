"""GetDefaults of the weight_recorder and other devices with NEST 3.10's keys
(tests/fixtures/nest_recorder_defaults.json, written by
benchmarks/peers/nest_recorder_defaults_fixture.py): a weight_recorder's senders and targets
are a node's filters, not model defaults; precision shows once set, as in NEST."""

import json
import os

import pytest

import ranvier as nest

HERE = os.path.dirname(__file__)
# NEST's node memory-pool statistics: Ranvier has no such pool
POOL = {"available", "capacity", "elementsize", "instantiations"}
RECORDERS = ("weight_recorder", "spike_recorder", "multimeter", "voltmeter")


@pytest.fixture(scope="module")
def reference():
    with open(os.path.join(HERE, "fixtures", "nest_recorder_defaults.json")) as f:
        return json.load(f)


@pytest.fixture(autouse=True)
def fresh_kernel():
    nest.ResetKernel()
    yield
    nest.ResetKernel()


# A multimeter's location (cable cells) is Ranvier's
SAMPLERS = {"multimeter": ({"location"}, set()), "voltmeter": ({"location"}, set())}


@pytest.mark.parametrize("model", RECORDERS)
def test_recorder_keys_as_nest(reference, model):
    mine, nests = set(nest.GetDefaults(model)), set(reference["keys"][model]) - POOL
    assert (mine - nests, nests - mine) == SAMPLERS.get(model, (set(), set()))


@pytest.mark.parametrize("model", RECORDERS + ("dc_generator", "poisson_generator"))
def test_prototype_node_values_as_nest(reference, model):
    defaults = nest.GetDefaults(model)
    assert {k: defaults[k] for k in reference["node_values"][model]} == reference["node_values"][model]
    if model in reference["events"]:
        assert sorted(defaults["events"]) == reference["events"][model]
        assert all(len(v) == 0 for v in defaults["events"].values())


def test_precision_shows_once_set(reference):
    nest.CopyModel("weight_recorder", "wr_precise", {"precision": 5})
    defaults = nest.GetDefaults("wr_precise")
    assert set(defaults) == set(reference["keys"]["wr_precise"]) - POOL
    assert {k: defaults[k] for k in ("model", "type_id", "precision")} == reference["node_values"]["wr_precise"]
    assert nest.GetDefaults("wr_precise", ["model", "type_id"]) == ["wr_precise", "weight_recorder"]  # a list, as NEST


def test_filters_belong_to_nodes(reference):
    assert set(nest.Create("weight_recorder").get()) >= {"senders", "targets"}
    wr = nest.Create("weight_recorder", params={"senders": nest.NodeCollection([1])})
    assert wr.get("senders").tolist() == [1]
    # NEST raises KeyError; Ranvier's UnknownParameterError names the key
    assert reference["errors"] == {"set_defaults_senders": "KeyError", "get_defaults_targets": "KeyError"}
    with pytest.raises(nest.NESTErrors.UnaccessedDictionaryEntry, match="senders"):
        nest.SetDefaults("weight_recorder", {"senders": wr})
    with pytest.raises(nest.NESTErrors.UnaccessedDictionaryEntry, match="targets"):
        nest.GetDefaults("weight_recorder", "targets")
    with pytest.raises(nest.NESTErrors.UnaccessedDictionaryEntry, match="senders"):
        nest.CopyModel("weight_recorder", "wr_filtered", {"senders": wr})
