"""What a node's status lists, as NEST 3.10's does (run here, not read): every node's element_type,
frozen and node_uses_wfr; a neuron's recordables and, where it keeps spikes, t_spike; a recorder's
events in memory, or its files and file settings when it records to files, not both."""

import pytest

import ranvier as rv

ALWAYS = {"element_type", "frozen", "node_uses_wfr", "global_id", "model", "local", "vp", "thread"}


@pytest.fixture(autouse=True)
def fresh(tmp_path):
    rv.ResetKernel()
    rv.SetKernelStatus({"data_path": str(tmp_path)})


def test_neurons_and_stimulators():
    neuron = rv.Create("iaf_psc_alpha").get()
    assert ALWAYS | {"recordables", "t_spike"} <= set(neuron) and neuron["element_type"] == "neuron"
    assert neuron["frozen"] is False and neuron["node_uses_wfr"] is False
    generator = rv.Create("poisson_generator").get()
    assert ALWAYS <= set(generator) and generator["element_type"] == "stimulator"
    assert "recordables" not in generator
    assert rv.Create("volume_transmitter").get("element_type") == "other"


@pytest.mark.parametrize("model", ["multimeter", "spike_recorder", "weight_recorder"])
def test_recorders_show_their_backends_keys(model):
    memory = rv.Create(model).get()
    assert ALWAYS | {"events", "n_events", "record_to"} <= set(memory) and memory["element_type"] == "recorder"
    assert not {"precision", "file_extension", "filenames", "location"} & set(memory)
    files = rv.Create(model, params={"record_to": "ascii"}).get()
    assert ALWAYS | {"precision", "file_extension", "filenames", "n_events"} <= set(files)
    assert "events" not in files
    both = (rv.Create(model) + rv.Create(model, params={"record_to": "ascii"})).get()
    assert both["precision"] == (3, 3) and both["filenames"][0] == [] and len(both["events"]) == 2  # the union


def test_a_multimeters_location_shows_where_it_has_one():
    cell = rv.Create(
        "cable_cell", params={"morphology": {"branches": [{"name": "soma", "length": 20.0, "diameter": 20.0}]}}
    )
    at = rv.Create("multimeter", params={"record_from": ["V_m"], "location": ["soma", 0.5]})
    rv.Connect(at, cell)
    assert at.get()["location"] == ["soma", 0.5]
