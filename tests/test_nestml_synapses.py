"""NESTML synapses through Ranvier's target: NESTML's library synapses, generated with the neuron
they read (neuron_synapse_pairs) or alone, match Ranvier's built-in synapses (which match NEST
3.10) on NESTML's own test protocol (stdp_synapse_test.py: a parrot's spikes onto a neuron that
forced spikes drive, delays 1 and 1.5 ms, resolutions 0.1, 0.5 and 1 ms); networks of them run
alike for any partition, every exchange method and from a checkpoint; what the target lacks is
refused by name."""

import ast
import contextlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from mpi_launch import HAVE_MPI, mpirun
from nestml_plastic_network import SYNAPSE
from nestml_plastic_network import run as run_network
from ranvier.nestml import UnsupportedNESTML, generate_ranvier_target

import ranvier as nest
from ranvier import modules

LIBRARY = Path(sys.prefix) / "models"  # NESTML's model library, as its wheel installs it
PAIRED = ("stdp_synapse", "stdp_nn_symm_synapse", "stdp_triplet_synapse")  # read their neuron's spikes
MODULATED = "neuromodulated_stdp_synapse"  # paired too, and reads a volume transmitter's spikes
ALONE = ("tsodyks_synapse",)
NOISY = "noisy_synapse"  # alone, drawing its weight's noise at each spike
# alone, with a parameter common to all its connections (@homogeneous: NEST's common property),
# which a function of its own reads
SCALED = "scaled_static_synapse"
SCALED_MODEL = """
model scaled_static_synapse:
    parameters:
        w real = 1
        scale real = 2 @homogeneous
    input:
        pre_spikes <- spike
    output:
        spike
    onReceive(pre_spikes):
        emit_spike(scaled(w))

    function scaled(x real) real:
        return x * scale
"""
# alone, its delay under a name of its own (codegen_opts delay_variable) that it reads
DELAYED = "delay_scaled_synapse"
DELAYED_MODEL = """
model delay_scaled_synapse:
    parameters:
        w real = 1
        d ms = 1 ms
    input:
        pre_spikes <- spike
    output:
        spike
    onReceive(pre_spikes):
        emit_spike(w * d / 1 ms)
"""
MODULE = "plasticmodule"
# not test_nestml.py's "_nestml": models outlive ResetKernel, and one process may run both files
SUFFIX = "_plastic"
# NESTML's synapse -> the built-in one with its parameters set to the NESTML model's defaults, and
# those of the built-in's target (the traces NESTML moves into its generated neuron).
REFERENCE = {
    "stdp_synapse": ("stdp_synapse", {}, {}),
    "stdp_nn_symm_synapse": ("stdp_nn_symm_synapse", {}, {}),
    "stdp_triplet_synapse": (
        "stdp_triplet_synapse",
        {"tau_plus": 16.8, "tau_plus_triplet": 101.0, "Aplus": 7.5e-10, "Aplus_triplet": 9.3e-3},
        {"tau_minus": 33.7, "tau_minus_triplet": 125.0},
    ),
    "tsodyks_synapse": ("tsodyks_synapse", {"U": 0.5, "tau_fac": 0.0, "tau_rec": 800.0, "tau_psc": 3.0}, {}),
}
# NESTML's spike trains (stdp_synapse_test.py): on the grid, off it, and a long pair
TRAINS = {
    "few": ([1.0, 11.0, 21.0], [6.0, 16.0, 26.0]),
    "off-grid": ([1, 5, 6, 7, 9, 11, 12, 13, 14.5, 16.1], [2, 3, 4, 8, 9, 10, 12, 13.2, 15.1, 16.4]),
    "long": (
        [2, 4, 7, 8, 12, 13, 19, 23, 24, 28, 29, 30, 33, 34, 35, 36, 38, 40, 42, 46, 51, 53, 54, 55, 56, 59, 63, 64]
        + [65, 66, 68, 72, 73, 76, 79, 80, 83, 84, 86, 87, 90, 95, 99, 100, 103, 104, 105, 111, 112, 126, 131]
        + [133, 134, 139, 147, 150, 152, 155, 172, 175, 176, 181, 196, 197, 199, 202, 213, 215, 217, 265],
        [4, 5, 6, 7, 10, 11, 12, 16, 17, 18, 19, 20, 22, 23, 25, 27, 29, 30, 31, 32, 34, 36, 37, 38, 39, 42, 44]
        + [46, 48, 49, 50, 54, 56, 57, 59, 60, 61, 62, 67, 74, 76, 79, 80, 81, 83, 88, 93, 94, 97, 99, 100, 105]
        + [111, 113, 114, 115, 116, 119, 123, 130, 132, 134, 135, 145, 152, 155, 158, 166, 172, 174, 188, 194]
        + [202, 245, 249, 289, 454],
    ),
}


@contextlib.contextmanager
def installed(root, sources, module, codegen_opts):
    """The NESTML files generated into `module` under root and installed; builds go to a fresh
    cache (so that the test compiles), and the module path holds while the context lasts."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("XDG_CACHE_HOME", str(root / "cache"))
        env.setenv(modules.MODULE_PATH_VARIABLE, str(root / "lib"))
        generate_ranvier_target(
            [str(source) for source in sources],
            target_path=str(root / "generated"),
            install_path=str(root / "lib"),
            module_name=module,
            suffix=SUFFIX,
            codegen_opts=codegen_opts,
        )
        nest.Install(module)
        yield


@pytest.fixture(scope="module")
def module_dir(tmp_path_factory):
    """iaf_psc_exp_neuron generated with each of PAIRED and MODULATED, and ALONE, NOISY and
    SCALED, into one module, installed."""
    root = tmp_path_factory.mktemp("nestml_synapses")
    (root / f"{SCALED}.nestml").write_text(SCALED_MODEL)
    with installed(
        root,
        [LIBRARY / "neurons" / "iaf_psc_exp_neuron.nestml", root / f"{SCALED}.nestml"]
        + [LIBRARY / "synapses" / f"{s}.nestml" for s in PAIRED + ALONE + (MODULATED, NOISY)],
        MODULE,
        {
            "weight_variable": {s: "w" for s in PAIRED + ALONE + (MODULATED, NOISY, SCALED)},
            # NESTML 9.0 reads a synapse's ports from the first pair with its neuron, whatever
            # the synapse: the one with a volume transmitter port comes first
            "neuron_synapse_pairs": [
                {
                    "neuron": "iaf_psc_exp_neuron",
                    "synapses": {MODULATED: {"post_ports": ["post_spikes"], "vt_ports": ["mod_spikes"]}},
                }
            ]
            + [{"neuron": "iaf_psc_exp_neuron", "synapses": {s: {"post_ports": ["post_spikes"]}}} for s in PAIRED],
        },
    ):
        yield root
    nest.ResetKernel()


def generated(synapse):
    """The generated synapse's and its target's names (NESTML's NEST target's names)."""
    if synapse in ALONE:
        return f"{synapse}{SUFFIX}", f"iaf_psc_exp_neuron{SUFFIX}"
    return f"{synapse}{SUFFIX}__with_iaf_psc_exp_neuron{SUFFIX}", f"iaf_psc_exp_neuron{SUFFIX}__with_{synapse}{SUFFIX}"


def protocol_network(
    synapse, neuron, resolution, delay, trains, synapse_params=None, neuron_params=None, dopamine=None
):
    """NESTML's protocol: a parrot relays the presynaptic train through the synapse onto a neuron
    that the postsynaptic train forces to spike (and, with `dopamine`, a parrot relays that train
    to a volume transmitter the synapse names: NESTML's stdp_neuromod_test.py). Its weight
    recorder, the parrot and how long the protocol lasts."""
    pre, post = trains
    nest.ResetKernel()
    nest.resolution = resolution
    recorder = nest.Create("weight_recorder")
    if dopamine is not None:
        transmitter, relay = nest.Create("volume_transmitter"), nest.Create("parrot_neuron")
        nest.Connect(
            nest.Create("spike_generator", params={"spike_times": dopamine, "allow_offgrid_times": True}), relay
        )
        nest.Connect(relay, transmitter)
        synapse_params = {**(synapse_params or {}), "volume_transmitter": transmitter}
    nest.CopyModel(synapse, "recorded", {"weight_recorder": recorder, **(synapse_params or {})})
    pre_generator = nest.Create("spike_generator", params={"spike_times": pre, "allow_offgrid_times": True})
    post_generator = nest.Create("spike_generator", params={"spike_times": post, "allow_offgrid_times": True})
    parrot = nest.Create("parrot_neuron")
    tau = "tau_syn_ex" if neuron == "iaf_psc_exp" else "tau_syn_exc"
    target = nest.Create(neuron, params={tau: 0.2, **(neuron_params or {})})
    nest.Connect(pre_generator, parrot, syn_spec={"delay": 1.0})
    nest.Connect(post_generator, target, syn_spec={"delay": 1.0, "weight": 99999.0})
    nest.Connect(parrot, target, syn_spec={"synapse_model": "recorded", "delay": delay})
    return recorder, parrot, resolution * np.ceil((max(max(pre), max(post)) + 5 * delay) / resolution)


def protocol(*args, **kwargs):
    """The protocol run: the weights the synapse transmitted (a weight_recorder's) and its
    weight at the end."""
    recorder, parrot, duration = protocol_network(*args, **kwargs)
    nest.Simulate(duration)
    return recorder.events["weights"], nest.GetConnections(parrot).weight


@pytest.mark.parametrize("train", sorted(TRAINS))
@pytest.mark.parametrize("delay", [1.0, 1.5])
@pytest.mark.parametrize("resolution", [0.1, 0.5, 1.0])
@pytest.mark.parametrize("synapse", PAIRED + ALONE)
def test_generated_synapses_transmit_and_learn_as_the_builtins(module_dir, synapse, resolution, delay, train):
    """Within 1e-12 of the built-ins (NESTML's test asks 1e-6): the generated synapses advance
    their traces by the intervals between spikes, as NEST's generated synapses do, where the
    built-ins decay them at once."""
    model, neuron = generated(synapse)
    builtin, synapse_params, neuron_params = REFERENCE[synapse]
    transmitted, weight = protocol(model, neuron, resolution, delay, TRAINS[train])
    expected, expected_weight = protocol(
        builtin, "iaf_psc_exp", resolution, delay, TRAINS[train], synapse_params, neuron_params
    )
    assert len(transmitted) == len(expected) > 0
    np.testing.assert_allclose(transmitted, expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(weight, expected_weight, rtol=1e-12, atol=1e-12)
    if synapse in PAIRED and train == "long":  # the protocol changes the weight
        assert abs(weight - 1.0) > 1e-3


@pytest.mark.parametrize("train", ["few", "long"])
@pytest.mark.parametrize("delay", [1.0, 1.5])
@pytest.mark.parametrize("resolution", [0.1, 1.0])
def test_a_neuromodulated_synapse_learns_as_stdp_dopamine_synapse(module_dir, resolution, delay, train):
    """NESTML's neuromodulated_stdp_synapse restates NEST's stdp_dopamine_synapse: dopamine spikes
    through a volume transmitter, which also brings every connection up to date at its
    deliveries (NESTML's stdp_neuromod_test.py asks 1e-6 on one train)."""
    model, neuron = generated(MODULATED)
    dopamine = [14.0, 23.0, 35.5, 36.0, 80.0, 150.0, 151.0, 260.0]
    transmitted, weight = protocol(model, neuron, resolution, delay, TRAINS[train], dopamine=dopamine)
    # NESTML's model keeps no bounds on the weight: the built-in's are set out of reach
    unbounded = {"Wmin": -1e9, "Wmax": 1e9}
    expected, expected_weight = protocol(
        "stdp_dopamine_synapse", "iaf_psc_exp", resolution, delay, TRAINS[train], unbounded, dopamine=dopamine
    )
    assert len(transmitted) == len(expected) > 0
    np.testing.assert_allclose(transmitted, expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(weight, expected_weight, rtol=1e-12, atol=1e-12)
    assert abs(weight - 1.0) > 1e-3


def test_a_checkpoint_inside_a_window_of_postsynaptic_spikes_keeps_what_the_window_reads(module_dir, tmp_path):
    """Saved at 126 ms, between the parrot's spikes at 113 and 127 ms with six of the target's
    between them: the triplet rule then reads its moved trace just before each of those, which
    comes from the spike before each (the archive keeps it, and the checkpoint with it)."""
    model, neuron = generated("stdp_triplet_synapse")
    _, parrot, duration = protocol_network(model, neuron, 0.1, 1.0, TRAINS["long"])
    nest.Simulate(duration)
    whole = nest.GetConnections(parrot).get(["weight", "tr_r1", "tr_r2"])
    _, parrot, _ = protocol_network(model, neuron, 0.1, 1.0, TRAINS["long"])
    nest.Simulate(126.0)
    nest.SaveCheckpoint(tmp_path / "checkpoint")
    nest.ResetKernel()
    nest.LoadCheckpoint(tmp_path / "checkpoint")
    nest.Simulate(duration - 126.0)
    assert nest.GetConnections(nest.NodeCollection(parrot.tolist())).get(["weight", "tr_r1", "tr_r2"]) == whole


def test_generated_synapses_have_nestml_defaults_and_units(module_dir):
    model, _ = generated("stdp_synapse")
    defaults = nest.GetDefaults(model)
    assert defaults["weight"] == 1.0 and defaults["delay"] == 1.0
    assert defaults["lambda"] == 0.01 and defaults["tau_tr_pre"] == 20.0 and defaults["Wmax"] == 100.0
    assert defaults["pre_trace"] == 0.0
    assert model in nest.synapse_models
    assert nest.units(model)["tau_tr_pre"] == "ms"


def test_the_weight_is_also_the_weight_variable_as_nest_has_it(module_dir):
    """NEST's generated synapses take and show the weight under its NESTML name too (w), and
    refuse both at once."""
    model, neuron = generated("stdp_synapse")
    nest.ResetKernel()
    nest.CopyModel(model, "copied", {"w": 2.0})
    assert nest.GetDefaults("copied")["weight"] == nest.GetDefaults("copied")["w"] == 2.0
    cells = nest.Create(neuron, 2)
    nest.Connect(cells[0], cells[1], syn_spec={"synapse_model": "copied"})
    nest.Connect(cells[1], cells[0], syn_spec={"synapse_model": model, "w": 3.0})
    nest.Connect(cells[1], cells[0], syn_spec={"synapse_model": "static_synapse", "weight": 4.0})
    shown = nest.GetConnections().get(["synapse_model", "w"])  # None: a model without one
    assert dict(zip(shown["synapse_model"], shown["w"])) == {"static_synapse": None, model: 3.0, "copied": 2.0}
    copied = nest.GetConnections(synapse_model="copied")
    copied.set(w=5.0)
    assert copied.get(["weight", "w"]) == {"weight": 5.0, "w": 5.0}
    with pytest.raises(nest.BadParameterError, match="either weight or w"):
        nest.SetDefaults("copied", {"w": 1.0, "weight": 1.0})


def test_built_in_synapse_models_keep_their_ids_when_modules_add_some(module_dir):
    """A kernel numbers the modules' synapse models after its own, so that a built-in model's
    id, and the random streams its connections draw from, are a fresh process's."""
    nest.ResetKernel()
    ids = {name: m.synapse_id for name, m in nest._state.state.models.items() if m.kind == "synapse"}
    fresh = subprocess.run(
        [
            sys.executable,
            "-c",
            "import ranvier as r; print({n: m.synapse_id for n, m in r._state.state.models.items() "
            "if m.kind == 'synapse'})",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    builtin = ast.literal_eval(fresh)  # the fresh process's dict
    assert {name: ids[name] for name in builtin} == builtin
    assert min(ids[name] for name in set(ids) - set(builtin)) == len(builtin)


def test_a_paired_synapse_refuses_other_targets(module_dir):
    model, _ = generated("stdp_synapse")
    with pytest.raises(nest.NESTErrors.IllegalConnection, match="targets only its neurons: iaf_psc_exp node"):
        nest.Connect(nest.Create("parrot_neuron"), nest.Create("iaf_psc_exp"), syn_spec={"synapse_model": model})


def test_networks_of_generated_synapses_learn_alike_for_any_number_of_threads(module_dir):
    one = run_network(1, 200.0)
    three = run_network(3, 200.0)
    assert len(one["times"]) > 100 and np.ptp(one[f"{SYNAPSE}.weight"]) > 1.0
    assert np.ptp(one["modulated.weight"]) > 1e-3
    for name in one:
        np.testing.assert_array_equal(three[name], one[name])


@pytest.mark.skipif(not HAVE_MPI, reason="Ranvier built without MPI")
def test_networks_of_generated_synapses_learn_alike_on_every_partition_and_from_a_checkpoint(module_dir, tmp_path):
    whole = run_network(1, 200.0)
    methods = ("allgather", "alltoall", "multisend", "rma")
    for method in methods:
        mpirun(2, "nestml_plastic_network.py", "run", MODULE, 2, 200.0, tmp_path / f"{method}.npz", method)
    mpirun(2, "nestml_plastic_network.py", "save", MODULE, 1, 120.0, tmp_path / "checkpoint")
    mpirun(3, "nestml_plastic_network.py", "load", MODULE, 1, 80.0, tmp_path / "checkpoint", tmp_path / "resumed.npz")
    for out in [f"{method}.npz" for method in methods] + ["resumed.npz"]:
        distributed = np.load(tmp_path / out)
        for name in whole:
            np.testing.assert_array_equal(distributed[name], whole[name])


@pytest.mark.skipif(not HAVE_MPI, reason="Ranvier built without MPI")
def test_a_checkpoint_saved_with_a_module_installed_loads_where_it_is_not(module_dir, tmp_path):
    """This process numbers the module's synapse models before the network's copies, a fresh
    one without the module does not: the checkpoint names its synapse models, the load numbers
    them anew, and the network (built-in models only) continues bit for bit."""
    from run_checkpoint import main as run_checkpoint  # tests/mpi, on the path through mpi_launch

    run_checkpoint("full", 60.4, 40.0, 1, tmp_path / "whole.npz")
    run_checkpoint("save", 60.4, 2, tmp_path / "ckpt")
    mpirun(1, "run_checkpoint.py", "load", tmp_path / "ckpt", 40.0, 1, tmp_path / "resumed.npz", "auto")
    whole, resumed = np.load(tmp_path / "whole.npz"), np.load(tmp_path / "resumed.npz")
    assert set(resumed) == set(whole)
    for key in whole:
        np.testing.assert_array_equal(resumed[key], whole[key], err_msg=key)


@pytest.fixture(scope="module")
def delay_module(tmp_path_factory):
    """DELAYED in a module of its own: NESTML 9.0 wants a delay variable of every synapse it
    generates once one has one."""
    root = tmp_path_factory.mktemp("nestml_delay")
    (root / f"{DELAYED}.nestml").write_text(DELAYED_MODEL)
    options = {"weight_variable": {DELAYED: "w"}, "delay_variable": {DELAYED: "d"}}
    with installed(root, [root / f"{DELAYED}.nestml"], "delaymodule", options):
        pass
    nest.ResetKernel()


def transmitted(pre, models):
    """The weights the models' connections from the parrot `pre` transmit for one spike, by target."""
    recorder = nest.Create("weight_recorder")
    for name in models:
        nest.SetDefaults(name, {"weight_recorder": recorder})
    nest.Connect(nest.Create("spike_generator", params={"spike_times": [1.0]}), pre)
    nest.Simulate(5.0)
    return np.asarray(recorder.events["weights"])[np.argsort(recorder.events["targets"])]


def test_the_delay_is_also_the_delay_variable_which_the_model_reads_in_ms(delay_module):
    """NESTML's delay_variable as NEST's generated synapses have it (NESTML's
    test_delay_variable_specified.py): Connect takes either name, get shows both, set either, and
    giving both raises; the model reads the connection's delay in ms (it emits w * d / ms)."""
    model = DELAYED + SUFFIX
    assert nest.GetDefaults(model)["d"] == nest.GetDefaults(model)["delay"] == 1.0
    pre, post = nest.Create("parrot_neuron"), nest.Create("parrot_neuron", 2)
    nest.Connect(pre, post[0], syn_spec={"synapse_model": model, "d": 2.5, "w": 3.0})
    nest.Connect(pre, post[1], syn_spec={"synapse_model": model, "delay": 4.0, "w": 3.0})
    conns = nest.GetConnections(pre, synapse_model=model)
    assert conns.get("delay") == [2.5, 4.0] and conns.get("d") == [2.5, 4.0]
    conns.set(d=[1.5, 2.0])
    assert conns.get("delay") == [1.5, 2.0] and conns.get("d") == [1.5, 2.0]
    with pytest.raises(nest.BadParameterError, match="either delay or d"):
        conns.set({"d": 3.0, "delay": 3.0})
    with pytest.raises(nest.BadParameterError, match="either delay or d"):
        nest.Connect(pre, post[0], syn_spec={"synapse_model": model, "d": 2.0, "delay": 2.0})
    np.testing.assert_array_equal(transmitted(pre, [model]), [3.0 * 1.5, 3.0 * 2.0])


def test_a_homogeneous_parameter_is_the_models_as_a_common_property_is(module_dir):
    """@homogeneous as NEST's generated synapses have it: in the model's defaults, set with
    SetDefaults or CopyModel, refused in Connect; every connection transmits w * scale (which
    the model's function computes)."""
    model = SCALED + SUFFIX
    assert nest.GetDefaults(model)["scale"] == 2.0
    pre, post = nest.Create("parrot_neuron"), nest.Create("parrot_neuron", 2)
    with pytest.raises(nest.UnsupportedRequestError, match="scale is common to all"):  # NEST: NotImplemented
        nest.Connect(pre, post, syn_spec={"synapse_model": model, "scale": 3.0})
    nest.SetDefaults(model, {"scale": 3.0})
    nest.CopyModel(model, "scaled_by_5", {"scale": 5.0})
    nest.Connect(pre, post[0], syn_spec={"synapse_model": model, "w": 2.0})
    nest.Connect(pre, post[1], syn_spec={"synapse_model": "scaled_by_5", "w": 2.0})
    np.testing.assert_array_equal(transmitted(pre, [model, "scaled_by_5"]), [2.0 * 3.0, 2.0 * 5.0])


def noisy_weights(threads):
    """The weights noisy_synapse transmits from a parrot's 50 spikes to 100 neurons, twice each
    (multapses), as its weight_recorder records them, in the order of time, target, weight."""
    nest.ResetKernel()
    nest.local_num_threads = threads
    generator = nest.Create("spike_generator", params={"spike_times": [1.0 + 2.0 * k for k in range(50)]})
    parrot = nest.Create("parrot_neuron")
    nest.Connect(generator, parrot)
    recorder = nest.Create("weight_recorder")
    nest.SetDefaults(NOISY + SUFFIX, {"weight_recorder": recorder})
    targets = nest.Create("iaf_psc_delta", 100)
    for _ in range(2):
        nest.Connect(parrot, targets, syn_spec={"synapse_model": NOISY + SUFFIX, "w": 1.0, "A_noise": 0.4})
    nest.Simulate(110.0)
    events = recorder.events
    order = np.lexsort((events["weights"], events["targets"], events["times"]))
    return np.asarray(events["weights"])[order], np.asarray(events["targets"])[order]


def test_a_synapse_draws_from_its_connection_stream_alike_for_any_number_of_threads(module_dir):
    """noisy_synapse transmits w + A_noise N(0, 1) at each spike: 10,000 weights with mean 1 and
    standard deviation 0.4 (within 4 standard errors), the two multapses of a pair drawing apart,
    each weight the same with 1 and 3 threads."""
    weights, targets = noisy_weights(1)
    assert len(weights) == 50 * 100 * 2
    assert abs(weights.mean() - 1.0) < 4 * 0.4 / np.sqrt(len(weights))
    assert abs(weights.std() - 0.4) < 4 * 0.4 / np.sqrt(2 * len(weights))
    assert np.all(weights[0::2] != weights[1::2])  # a pair's multapses, side by side in this order
    np.testing.assert_array_equal(targets[0::2], targets[1::2])
    threaded, _ = noisy_weights(3)
    np.testing.assert_array_equal(threaded, weights)


# a synapse whose function reads an internal, which a connection derives only over an interval
FUNCTION_OF_INTERNALS = """
model decaying_synapse:
    parameters:
        w real = 1
        tau ms = 10 ms
    internals:
        decay real = exp(-resolution() / tau)
    input:
        pre_spikes <- spike
    output:
        spike
    onReceive(pre_spikes):
        emit_spike(decayed(w))

    function decayed(x real) real:
        return x * decay
"""
# a synapse drawing outside its presynaptic handler, where no spike numbers the draws
DRAWS_IN_UPDATE = """
model drifting_synapse:
    state:
        w real = 1
        drift real = 0
    input:
        pre_spikes <- spike
    output:
        spike
    update:
        drift += random_normal(0, 1)
    onReceive(pre_spikes):
        emit_spike(w + drift)
"""


@pytest.mark.parametrize(
    "synapse, options, message",
    [
        ("drifting_synapse", {}, "random numbers outside the presynaptic handler in synapses"),
        ("decaying_synapse", {}, "functions that read internals in synapses"),
        ("static_synapse", {"weight_variable": {}}, "needs a weight variable"),
    ],
)
def test_synapse_features_the_target_lacks_are_refused_by_name(tmp_path, synapse, options, message):
    (tmp_path / "drifting_synapse.nestml").write_text(DRAWS_IN_UPDATE)
    (tmp_path / "decaying_synapse.nestml").write_text(FUNCTION_OF_INTERNALS)
    library = tmp_path if synapse in ("drifting_synapse", "decaying_synapse") else LIBRARY / "synapses"
    with pytest.raises(UnsupportedNESTML, match=message):
        generate_ranvier_target(
            [str(LIBRARY / "neurons" / "iaf_psc_exp_neuron.nestml"), str(library / f"{synapse}.nestml")],
            target_path=str(tmp_path),
            install_path=str(tmp_path),
            codegen_opts={"weight_variable": {synapse: "w"}, **options},
        )
