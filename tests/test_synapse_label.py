"""NEST's labelled synapses (the _lbl variants): each connection carries a synapse_label, set at
Connect, by SetDefaults or CopyModel, or on the connections, listed by GetConnections and
selected by GetConnections(synapse_label=...); the label changes nothing else (a plastic _lbl
synapse learns as its model does) and survives a checkpoint."""

import numpy as np
import pytest
from ranvier.errors import BadParameterError, UnknownParameterError

import ranvier as rv


@pytest.fixture(autouse=True)
def fresh_kernel():
    rv.ResetKernel()
    yield
    rv.ResetKernel()


def test_labels_are_set_listed_and_selected():
    a = rv.Create("iaf_psc_alpha", 3)
    rv.Connect(a, a, "one_to_one", {"synapse_model": "static_synapse_lbl", "synapse_label": 123})
    rv.Connect(a, a, "all_to_all", {"synapse_model": "stdp_synapse_lbl"})
    assert sorted(rv.GetConnections(a, a).get("synapse_label")) == [-1.0] * 9 + [123.0] * 3
    assert len(rv.GetConnections(synapse_label=123)) == 3
    labelled = rv.GetConnections(synapse_model="stdp_synapse_lbl")
    labelled.set({"synapse_label": 7})
    assert list(rv.GetConnections(synapse_label=7).get("synapse_label")) == [7.0] * 9
    rv.SetDefaults("static_synapse_lbl", {"synapse_label": 5})
    rv.CopyModel("static_synapse_lbl", "mine", {"synapse_label": 9})
    rv.Connect(a[:1], a[:1], syn_spec="static_synapse_lbl")
    rv.Connect(a[:1], a[:1], syn_spec="mine")
    assert len(rv.GetConnections(synapse_label=5)) == 1 and len(rv.GetConnections(synapse_label=9)) == 1
    assert rv.GetDefaults("static_synapse_lbl", "synapse_label") == 5


def test_a_label_changes_no_learning():
    def weights(model):
        rv.ResetKernel()
        g = rv.Create("poisson_generator", params={"rate": 2000.0})
        pre, post = rv.Create("parrot_neuron", 5), rv.Create("iaf_psc_alpha", 5, params={"I_e": 300.0})
        rv.Connect(g, pre)
        rv.Connect(pre, post, "all_to_all", {"synapse_model": model, "weight": 20.0})
        rv.Simulate(200.0)
        return rv.GetConnections(pre, post).get("weight")

    plain = weights("stdp_synapse")
    assert weights("stdp_synapse_lbl") == plain and len(set(plain)) > 1


def test_labels_survive_a_checkpoint(tmp_path):
    a = rv.Create("iaf_psc_alpha", 2)
    rv.Connect(a, a, "all_to_all", {"synapse_model": "stdp_synapse_lbl", "synapse_label": 4})
    rv.Simulate(5.0)
    rv.SaveCheckpoint(tmp_path / "ck")
    rv.ResetKernel()
    rv.LoadCheckpoint(tmp_path / "ck")
    assert list(rv.GetConnections().get("synapse_label")) == [4.0] * 4


@pytest.mark.parametrize("label", [-3, 1.5])
def test_a_label_is_a_whole_number_of_at_least_0(label):
    a = rv.Create("iaf_psc_alpha")
    with pytest.raises(BadParameterError, match="synapse_label"):
        rv.Connect(a, a, syn_spec={"synapse_model": "static_synapse_lbl", "synapse_label": label})
    rv.Connect(a, a, syn_spec={"synapse_model": "static_synapse_lbl"})
    with pytest.raises(BadParameterError, match="synapse_label"):
        rv.GetConnections().set({"synapse_label": label})
    assert np.all(rv.GetConnections().get("synapse_label") == -1)


def test_only_labelled_models_take_a_label():
    a = rv.Create("iaf_psc_alpha")
    with pytest.raises(BadParameterError, match="device"):  # rather than drop it
        rv.Connect(
            rv.Create("poisson_generator"), a, syn_spec={"synapse_model": "static_synapse_lbl", "synapse_label": 3}
        )
    with pytest.raises(UnknownParameterError, match="synapse_label"):
        rv.Connect(a, a, syn_spec={"synapse_model": "static_synapse", "synapse_label": 3})
    with pytest.raises(UnknownParameterError, match="synapse_label"):
        rv.SetDefaults("static_synapse", {"synapse_label": 3})
