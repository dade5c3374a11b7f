"""GetDefaults of every neuron and synapse model with NEST 3.10's keys, recordables and values
(tests/fixtures/nest_model_defaults.json, written by
benchmarks/peers/nest_model_defaults_fixture.py): Ranvier lists every key NEST lists, save the
mechanisms it does not offer (below), NEST's recordables, and NEST's values where both have
the key, save the known differences (below)."""

import json
import math
import os

import pytest

import ranvier as nest

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "fixtures", "nest_model_defaults.json")) as f:
    REFERENCE = json.load(f)
IN_NEST = lambda models: [m for m in models if m not in REFERENCE["not_in_nest"]]  # noqa: E731

# NEST's keys Ranvier does not list: its node memory-pool statistics and a synapse's size in
# memory (NOT_OFFERED); iaf_psc_exp_ps_lossless's offset and others by model (NOT_OFFERED_BY).
NOT_OFFERED = {"available", "capacity", "elementsize", "instantiations", "sizeof"}
# NEST's ignore_and_spike mode, which Ranvier's e-prop neurons and iaf_psc_delta alone offer
IGNORE_AND_SPIKE = {"ignore_and_spike", "ignore_and_spike_interval", "ignore_and_spike_offset"}


def offers_ignore_and_spike(model):
    return model.startswith("eprop_") or model == "iaf_psc_delta"


NOT_OFFERED_BY = {
    "iaf_psc_exp_ps_lossless": {"offset"},  # the last spike's offset
    # derived from Wmax and the count of synapses (NEST lets CopyModel set them; Ranvier derives them)
    "stdp_facetshw_synapse_hom": {"weight_per_lut_entry", "readout_cycle_duration"},
    # a device's label and SONATA stimulus source (strings), which Ranvier's generator of rates,
    # a node placed as a neuron is, does not have
    "step_rate_generator": {"label", "stimulus_source"},
}
# NEST's own numbering of models
NUMBERING = {"model_id", "synapse_modelid"}
# Defaults that differ, (Ranvier's, NEST's): an unbounded V_min is -inf here, minus the largest
# double in NEST (NEST's own models differ: iaf_psc_alpha's is -inf); quantal_stp_synapse's counts n and a are
# floats here (every synapse parameter is), ints in NEST (stdp_facetshw_synapse_hom's counts, and its
# init_flag a bool there), as are volume_transmitter's
# deliver_interval, pp_psc_delta's dead_time_shape and gif_pop_psc_exp's N, len_kernel and n_events
# (whole numbers held as floats). Per built-in model (also _hpc, _lbl).
DBL_MAX = 1.7976931348623157e308
KNOWN_DIFFERENCES = {
    ("iaf_psc_delta", "V_min"): (-math.inf, -DBL_MAX),
    ("izhikevich", "V_min"): (-math.inf, -DBL_MAX),
    ("quantal_stp_synapse", "n"): (1.0, 1),
    ("quantal_stp_synapse", "a"): (1.0, 1),
    ("volume_transmitter", "deliver_interval"): (1.0, 1),
    ("pp_psc_delta", "dead_time_shape"): (1.0, 1),
    ("gif_pop_psc_exp", "N"): (100.0, 100),
    ("gif_pop_psc_exp", "len_kernel"): (-1.0, -1),
    ("gif_pop_psc_exp", "n_events"): (0.0, 0),
    ("stdp_facetshw_synapse_hom", "no_synapses"): (0.0, 0),
    ("stdp_facetshw_synapse_hom", "synapses_per_driver"): (50.0, 50),
    ("stdp_facetshw_synapse_hom", "synapse_id"): (0.0, 0),
    ("stdp_facetshw_synapse_hom", "init_flag"): (0.0, False),
    # NEST sizes glif_cond's state lists when a run prepares (measured: [0.0] before, [0.0, 0.0]
    # after); Ranvier shows one value per receptor throughout
    ("glif_cond", "dg"): ([0.0, 0.0], [0.0]),
    ("glif_cond", "g"): ([0.0, 0.0], [0.0]),
    # NEST's default state holds two conductances for its one receptor (measured); Ranvier one
    ("gif_cond_exp_multisynapse", "g"): ([0.0], [0.0, 0.0]),
}


@pytest.fixture(autouse=True)
def fresh_kernel():
    nest.ResetKernel()
    yield
    nest.ResetKernel()


def test_fixture_covers_ranviers_models():
    models = nest._state.state.models
    built_in = [m for m in models if models[m].kind == "neuron" and m not in nest._state.INSTALLED_MODELS]
    assert sorted(REFERENCE["neurons"]) == sorted(built_in)  # a module's models (test_nestml.py) are not NEST's
    assert sorted(REFERENCE["synapses"]) == [m for m in nest.synapse_models if m not in nest._state.INSTALLED_MODELS]
    assert REFERENCE["not_in_nest"] == ["artificial_spiking_cell", "cable_cell"]


@pytest.mark.parametrize("model", IN_NEST(REFERENCE["neurons"] + REFERENCE["synapses"]))
def test_keys_as_nest(model):
    nests = set(REFERENCE["keys"][model])
    missing = nests - set(nest.GetDefaults(model))
    base = model.removesuffix("_hpc").removesuffix("_lbl")
    not_offered = (
        NOT_OFFERED | NOT_OFFERED_BY.get(base, set()) | (set() if offers_ignore_and_spike(base) else IGNORE_AND_SPIKE)
    )
    assert missing == nests & not_offered


@pytest.mark.parametrize("model", IN_NEST(REFERENCE["neurons"]))
def test_recordables_as_nest(model):
    defaults = nest.GetDefaults(model)
    assert ("recordables" in defaults) == ("recordables" in REFERENCE["keys"][model])
    if "recordables" in defaults:
        assert defaults["recordables"] == REFERENCE["recordables"][model]


def same(mine, nests):
    if isinstance(nests, list):
        return len(mine) == len(nests) and all(same(a, b) for a, b in zip(mine, nests))
    if isinstance(nests, float) and not isinstance(mine, bool):
        return mine == nests or math.isclose(mine, nests, rel_tol=1e-15)  # hh's Act_n: one ulp apart
    return type(mine) is type(nests) and mine == nests


@pytest.mark.parametrize("model", IN_NEST(REFERENCE["neurons"] + REFERENCE["synapses"]))
def test_values_as_nest(model):
    defaults = nest.GetDefaults(model)
    shared = {k: v for k, v in REFERENCE["values"][model].items() if k in defaults and k not in NUMBERING}
    differ = {k: (defaults[k], v) for k, v in shared.items() if not same(defaults[k], v)}
    base = model.removesuffix("_hpc").removesuffix("_lbl")
    assert differ == {k: v for (m, k), v in KNOWN_DIFFERENCES.items() if m == base}


@pytest.mark.parametrize("model", [m for m in REFERENCE["neurons"] if m != "cable_cell"])  # cells need a description
def test_a_multimeter_records_the_recordables(model):
    recordables = nest.GetDefaults(model).get("recordables", [])
    if not recordables:
        pytest.skip(f"{model} lists no recordables")
    n = nest.Create(model)
    mm = nest.Create("multimeter", params={"interval": 1.0, "record_from": recordables})
    nest.Connect(mm, n)
    nest.Simulate(3.0)
    events = mm.get("events")
    assert all(len(events[r]) == 2 for r in recordables)


def test_copies_show_their_names_and_ports():
    nest.CopyModel("iaf_psc_exp_multisynapse", "three_ports", {"tau_syn": [1.0, 2.0, 3.0]})
    d = nest.GetDefaults("three_ports")
    assert (d["model"], d["type_id"], d["element_type"]) == ("three_ports", "iaf_psc_exp_multisynapse", "neuron")
    assert d["recordables"] == ["I_syn", "I_syn_1", "I_syn_2", "I_syn_3", "V_m"]
    nest.CopyModel("stdp_synapse", "my_stdp", {"tau_plus": 15.0})
    d = nest.GetDefaults("my_stdp")
    assert (d["synapse_model"], d["element_type"], d["tau_plus"], d["num_connections"]) == (
        "my_stdp",
        "synapse",
        15.0,
        0,
    )
    assert d["synapse_modelid"] != nest.GetDefaults("stdp_synapse", "synapse_modelid")


def test_node_keys_are_read_only():
    for model, key, value in (
        ("iaf_psc_alpha", "element_type", "stimulator"),
        ("iaf_psc_alpha", "recordables", []),
        ("static_synapse", "synapse_model", "x"),
        ("static_synapse", "has_delay", False),
    ):
        with pytest.raises(nest.NESTErrors.UnaccessedDictionaryEntry, match=key):
            nest.SetDefaults(model, {key: value})


@pytest.mark.parametrize("model, params", [("iaf_psc_alpha", {"tau_m": -10.0}), ("aeif_cond_alpha", {"V_peak": -80.0})])
def test_bad_defaults_are_refused_where_they_are_set(model, params):
    """As NEST (BadProperty at SetDefaults and CopyModel), not first at the next Create."""
    before = nest.GetDefaults(model)
    name = next(iter(params))
    with pytest.raises(nest.BadParameterError, match=name):
        nest.SetDefaults(model, params)
    with pytest.raises(nest.BadParameterError, match=name):
        nest.CopyModel(model, "my_copy", params)
    assert nest.GetDefaults(model) == before and "my_copy" not in nest.node_models
    nest.SetDefaults(model, {"V_m": -60.0})  # a good value still goes through
    assert nest.Create(model).get("V_m") == -60.0


def test_every_neuron_model_takes_its_own_defaults_back():
    for model in nest.node_models:
        if nest.GetDefaults(model)["element_type"] == "neuron":
            nest.SetDefaults(model, {k: v for k, v in nest.GetDefaults(model).items() if k == "V_m"})
