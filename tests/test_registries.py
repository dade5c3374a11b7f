"""Python learns models, defaults and rules from the kernel's registries."""

import sys

import numpy as np
import pytest

import ranvier as rv
from ranvier import _kernel, compartments, eprop

CORRELATION_KEYS = {
    "correlation_detector": ("histogram", "histogram_correction", "count_histogram", "n_events"),
    "correlomatrix_detector": ("covariance", "count_covariance", "n_events"),
    "correlospinmatrix_detector": ("count_covariance",),
}


def test_every_registered_model_is_known_to_python_with_its_defaults():
    node = {
        "element_type",
        "frozen",
        "global_id",
        "local",
        "model",
        "model_id",
        "node_uses_wfr",
        "thread",
        "thread_local_id",
        "type_id",
        "vp",
    }  # NEST's prototype node
    for name, defaults in _kernel.neuron_models().items():
        # NEST's recordables as the model declares them, and each port's current where the
        # model names one (glif_psc has neither a count nor per-port recordables)
        lists = _kernel.neuron_lists().get(name, {})
        declared = _kernel.neuron_recordables()[name]
        recordables = (
            {}
            if declared is None
            else {
                "recordables": sorted(
                    declared
                    + [
                        f"{prefix}_{k + 1}"
                        for key, (_, prefix) in lists.items()
                        if prefix
                        for k in range(len(defaults[key]))
                    ]
                )
            }
        )
        archive = {"archiver_length", "t_spike", "post_trace"} if "tau_minus" in defaults else set()
        got = rv.GetDefaults(name)
        receptors = {"receptor_types"} if name in _kernel.neuron_receptor_types() else set()
        defaults = compartments.folded(name, defaults)  # NEST's one dict per compartment
        assert set(got) == set(defaults) | node | archive | set(recordables) | receptors | (
            {"has_connections"} if lists else set()
        )
        assert {k: got[k] for k in defaults} == defaults
        assert {k: got[k] for k in recordables} == recordables
    for name, (role, defaults, model_only, node_only) in _kernel.device_models(0.1).items():  # defaults at 0.1 ms
        assert role in ("stimulator", "recorder")
        assert set(model_only) <= set(defaults) and set(node_only) <= set(defaults)
        # A recorder's events come from the Python backends; precision and file_extension show
        # once set, as in NEST; a weight_recorder's filters are a node's
        hidden = set(node_only) | ({"precision", "file_extension"} if role == "recorder" else set())
        # (a correlation detector's results in their place)
        events = set(CORRELATION_KEYS.get(name, ("events", "n_events"))) if role == "recorder" else set()
        recordables = {"recordables"} if name in _kernel.device_recordables() else set()
        got = rv.GetDefaults(name)
        assert set(got) == set(defaults) - hidden | events | node | recordables
        assert {k: got[k] for k in set(defaults) - hidden} == {k: defaults[k] for k in set(defaults) - hidden}
    assert {name: records for name, (records, _) in _kernel.recorder_models().items()} == {
        "spike_recorder": "spikes",
        "multimeter": "samples",
        "voltmeter": "samples",
        "weight_recorder": "transmissions",
        "spin_detector": "spikes",
        "correlation_detector": "spikes",
        "correlomatrix_detector": "spikes",
        "correlospinmatrix_detector": "spikes",
    }
    assert _kernel.recorder_models()["spin_detector"][1] == ["state"]
    assert _kernel.recorder_models()["weight_recorder"][1] == ["weights", "targets", "receptors", "ports"]
    for name, (defaults, per_connection) in _kernel.synapse_models().items():
        got = rv.GetDefaults(name)
        assert len(got.pop("weight_recorder")) == 0  # none attached (a node collection)
        if "volume_transmitter" in defaults:  # likewise: none assigned (node id 0 in the kernel)
            assert len(got["volume_transmitter"]) == 0 and defaults["volume_transmitter"] == 0.0
            got["volume_transmitter"] = 0.0
        if eprop.has_optimizer(defaults):  # shown as NEST's "optimizer" dictionary
            defaults = eprop.shown(dict(defaults))
        for alias, named in _kernel.synapse_aliases().get(name, {}).items():  # a module's NESTML synapse
            assert got.pop(alias) == defaults[named]
        assert got == {
            **defaults,
            "num_connections": 0,
            "element_type": "synapse",
            "has_delay": "delay" in per_connection,  # not an instantaneous rate connection's
            "receptor_type": 0,
            "requires_symmetric": _kernel.coupling_synapse_models().get(name) == "gap_junction",
            "synapse_model": name,
            "synapse_modelid": rv._state.state.models[name].synapse_id,
        }  # the kernel's numbering
        assert set(per_connection) <= set(defaults)
        # every connection has a delay but those whose delay is the kernel's wfr_comm_interval
        assert ("delay" in per_connection) == (
            name not in ("rate_connection_instantaneous", "gap_junction", "diffusion_connection")
        )
    assert set(rv.Models()) == set(_kernel.neuron_models()) | set(_kernel.device_models(0.1)) | set(
        _kernel.synapse_models()
    )


def test_device_defaults_follow_the_resolution():
    # noise_generator's dt defaults to 10 steps (NEST 3.10)
    assert _kernel.device_models(0.1)["noise_generator"][1]["dt"] == pytest.approx(1.0)
    assert _kernel.device_models(0.3)["noise_generator"][1]["dt"] == pytest.approx(3.0)
    assert _kernel.device_models(0.1)["sinusoidal_poisson_generator"][2] == ["individual_spike_trains"]


def test_nest_defaults_of_a_few_models():
    assert rv.GetDefaults("iaf_psc_alpha", "C_m") == 250.0
    assert rv.GetDefaults("voltmeter", "record_from") == ["V_m"]
    assert rv.GetDefaults("spike_generator", "stop") == sys.float_info.max  # NEST's: never
    assert rv.GetDefaults("stdp_pl_synapse_hom", "mu") == 0.4


def test_connection_rules_and_their_parameters_come_from_the_kernel():
    assert _kernel.connection_rules() == {
        "all_to_all": [],
        "fixed_indegree": ["indegree"],
        "fixed_outdegree": ["outdegree"],
        "fixed_total_number": ["N"],
        "one_to_one": [],
        "pairwise_bernoulli": ["p"],
        "pairwise_poisson": ["pairwise_avg_num_conns"],
        "symmetric_pairwise_bernoulli": ["p"],
    }
    assert _kernel.connection_rule_parameters()["fixed_indegree"] == {"indegree": ("count_per_target", None)}
    assert _kernel.connection_rule_parameters()["pairwise_bernoulli"] == {"p": ("probability", None)}
    assert _kernel.connection_rule_parameters()["pairwise_poisson"] == {"pairwise_avg_num_conns": ("mean", None)}
    assert list(rv.GetKernelStatus("connection_rules")) == sorted(_kernel.connection_rules())


def test_rule_parameters_are_checked_by_the_kernel():
    pre, post = rv.Create("iaf_psc_alpha", 4), rv.Create("iaf_psc_alpha", 4)
    with pytest.raises(rv.BadParameterError, match=r"p must be in \[0, 1\], got p = 1.5"):
        rv._state.state.kernel.connect(
            "pairwise_bernoulli",
            pre._gids,
            post._gids,
            {"p": 1.5},
            True,
            True,
            ("constant", 1.0, 0, -np.inf, np.inf, -np.inf, np.inf, np.empty(0)),
            ("constant", 1.0, 0, -np.inf, np.inf, -np.inf, np.inf, np.empty(0)),
            0,
            0,
            {},
        )
    with pytest.raises(rv.BadParameterError, match="outdegree = 5 exceeds the 4 possible partners"):
        rv.Connect(pre, post, {"rule": "fixed_outdegree", "outdegree": 5, "allow_multapses": False})
    with pytest.raises(rv.UnknownParameterError, match="rule one_to_one has no parameter indegree"):
        rv.Connect(pre, post, {"rule": "one_to_one", "indegree": 2})
    with pytest.raises(
        TypeError, match="pre must be a layer"
    ):  # p of a rule but pairwise_bernoulli: spatial, as PyNEST
        rv.Connect(pre, post, {"rule": "one_to_one", "p": 0.5})
    assert len(rv.GetConnections()) == 0


def test_exchange_methods_come_from_the_kernel():
    methods = _kernel.exchange_methods()
    assert "local" in methods and "dry_run" not in methods
    if _kernel.built_with_mpi():
        assert {"allgather", "alltoall", "multisend", "rma"} <= set(methods)


def test_kernel_status_is_typed():
    s = rv.GetKernelStatus()
    assert type(s["local_num_threads"]) is int and type(s["num_connections"]) is int
    assert type(s["sync_barrier"]) is bool and type(s["placement"]) is str
    assert type(s["resolution"]) is float and type(s["rng_seed"]) is int


def test_a_copied_synapse_model_sets_only_its_common_parameters():
    rv.CopyModel("stdp_pl_synapse_hom", "my_stdp", {"alpha": 2.0})
    assert rv.GetDefaults("my_stdp", "alpha") == 2.0
    assert rv.GetDefaults("stdp_pl_synapse_hom", "alpha") == 1.0
    with pytest.raises(rv.UnknownParameterError):
        rv._state.state.kernel.add_synapse_model("bad", "stdp_pl_synapse_hom", {"weight": 3.0}, {})
