"""NESTML models through Ranvier's target (ranvier.nestml) and Install (ranvier.modules): neurons
of NESTML's library, generated, built and installed here, match Ranvier's built-ins (which match
NEST 3.10): those with exact propagators to NESTML's own equivalence tolerances, those the
numeric solver integrates within the built-ins' solver tolerance (and a closed form within the
generated model's); modules that cannot be installed are refused by name."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from mpi_launch import HAVE_MPI, mpirun
from nestml_network import run as _run
from ranvier.nestml import UnsupportedNESTML, generate_ranvier_target
from ranvier.nestml.code_generator import added_last

import ranvier as nest
from ranvier import modules

# NESTML's model library, as its wheel installs it
LIBRARY = Path(sys.prefix) / "models"
# built-in -> (NESTML's model, the input's weights, V_m's tolerance in mV). Exact propagators:
# NESTML's tests ask 1e-7 mV. Numeric: the built-ins integrate to 1e-3 mV (NEST's GSL tolerance
# for iaf_cond_*), the NESTML models to 1e-6; hh_psc_alpha's V_m moves 100 mV/ms in a spike.
GENERATED = {
    "iaf_psc_exp": ("iaf_psc_exp_neuron", (30.0, -40.0), 1e-9),
    "iaf_psc_alpha": ("iaf_psc_alpha_neuron", (30.0, -40.0), 1e-9),
    "iaf_psc_delta": ("iaf_psc_delta_neuron", (30.0, -40.0), 1e-9),
    "iaf_cond_exp": ("iaf_cond_exp_neuron", (8.0, -6.0), 1e-3),
    "iaf_cond_alpha": ("iaf_cond_alpha_neuron", (8.0, -6.0), 1e-3),
    "hh_psc_alpha": ("hh_psc_alpha_neuron", (30.0, -40.0), 1e-2),
}
# A model of the tests' own: NESTML's random functions, one draw of each per step, and a
# recordable inline expression.
DRAWS_NEURON = """
model draws_neuron:
    state:
        x real = 0
        u real = 0
        k integer = 0

    equations:
        recordable inline twice_x real = 2 * x

    parameters:
        mu real = 1
        sigma real = 2

    update:
        x = random_normal(mu, sigma)
        u = random_uniform(-1, 3)
        k = random_poisson(4)
"""


@pytest.fixture(scope="module")
def module_dir(tmp_path_factory):
    """The neurons generated into one module and installed; builds go to a fresh cache so that
    the test compiles."""
    root = tmp_path_factory.mktemp("nestml")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("XDG_CACHE_HOME", str(root / "cache"))
        env.setenv(modules.MODULE_PATH_VARIABLE, str(root / "lib"))
        (root / "draws_neuron.nestml").write_text(DRAWS_NEURON)
        generate_ranvier_target(
            [str(LIBRARY / "neurons" / f"{m}.nestml") for m, _, _ in GENERATED.values()]
            + [str(root / "draws_neuron.nestml")],
            target_path=str(root / "generated"),
            install_path=str(root / "lib"),
            module_name="librarymodule",
            suffix="_nestml",
        )
        nest.Install("librarymodule")
        yield root
    nest.ResetKernel()


@pytest.mark.parametrize("builtin", sorted(GENERATED))
def test_generated_neuron_matches_the_builtin(module_dir, builtin):
    model, weights, tolerance = GENERATED[builtin]
    v_builtin, spikes_builtin = _run(builtin, weights=weights)
    v, spikes = _run(model + "_nestml", weights=weights)
    assert len(spikes) >= 8
    np.testing.assert_array_equal(spikes, spikes_builtin)  # NESTML's tests: spike times within 1e-9 ms
    np.testing.assert_allclose(v, v_builtin, rtol=0, atol=tolerance)


def test_a_numerically_integrated_neuron_follows_the_closed_form(module_dir):
    """iaf_cond_exp_neuron without synaptic input charges as V(t) = E_L + I_e / g_L (1 - e^(-t g_L / C_m)),
    within the solver's tolerance."""
    nest.ResetKernel()
    cell = nest.Create("iaf_cond_exp_neuron_nestml", params={"I_e": 200.0, "gsl_abs_error_tol": 1e-10})
    meter = nest.Create("multimeter", params={"record_from": ["V_m"], "interval": 0.1})
    nest.Connect(meter, cell)
    nest.Simulate(100.0)
    p, events = cell.get(["E_L", "g_L", "C_m"]), meter.get("events")
    t = events["times"]
    expected = p["E_L"] + 200.0 / p["g_L"] * -np.expm1(-t * p["g_L"] / p["C_m"])
    np.testing.assert_allclose(events["V_m"], expected, rtol=0, atol=1e-8)
    assert cell.integration_step > 0.1  # the step it proposes: the solver's adaptive control ran
    with pytest.raises(nest.NESTErrors.BadProperty, match="gsl_abs_error_tol must be > 0"):
        cell.gsl_abs_error_tol = 0.0


def _draws(threads):
    nest.ResetKernel()
    nest.SetKernelStatus({"local_num_threads": threads, "rng_seed": 3})
    cells = nest.Create("draws_neuron_nestml", 4)
    meter = nest.Create("multimeter", params={"record_from": ["x", "u", "k", "twice_x"], "interval": 0.1})
    nest.Connect(meter, cells)
    nest.Simulate(1000.0)
    events = meter.get("events")
    by_time = np.lexsort((events["senders"], events["times"]))
    return {name: events[name][by_time] for name in ("x", "u", "k", "twice_x")}


def test_random_functions_draw_their_distributions_alike_for_any_number_of_threads(module_dir):
    """About 40,000 draws of each: means within 4 standard errors, spreads within 4 of theirs."""
    draws = _draws(threads=1)
    x, u, k = draws["x"], draws["u"], draws["k"]
    n = len(x)
    assert n > 39000
    assert abs(x.mean() - 1.0) < 4 * 2.0 / np.sqrt(n) and abs(x.std() - 2.0) < 4 * 2.0 / np.sqrt(2 * n)
    assert u.min() >= -1.0 and u.max() < 3.0 and abs(u.mean() - 1.0) < 4 * (4.0 / np.sqrt(12)) / np.sqrt(n)
    assert np.all(k == np.round(k)) and abs(k.mean() - 4.0) < 4 * 2.0 / np.sqrt(n) and abs(k.var() - 4.0) < 0.2
    assert len(np.unique(x)) == n  # no draw repeats another neuron's or step's
    np.testing.assert_array_equal(draws["twice_x"], 2 * x)  # a recordable inline expression, computed when read
    three = _draws(threads=3)
    for name in draws:
        np.testing.assert_array_equal(three[name], draws[name])


@pytest.mark.parametrize("model", ["iaf_psc_alpha_neuron_nestml", "hh_psc_alpha_neuron_nestml"])
def test_generated_neurons_spike_alike_for_any_number_of_threads(module_dir, model):
    one = _run(model, threads=1)
    three = _run(model, threads=3)
    np.testing.assert_array_equal(one[0], three[0])
    np.testing.assert_array_equal(one[1], three[1])


@pytest.mark.skipif(not HAVE_MPI, reason="Ranvier built without MPI")
@pytest.mark.parametrize(
    "processes, threads, model", [(2, 1, "iaf_psc_alpha_neuron_nestml"), (3, 2, "iaf_cond_exp_neuron_nestml")]
)
def test_generated_neurons_spike_alike_on_every_partition(module_dir, tmp_path, processes, threads, model):
    v, spikes = _run(model)
    out = tmp_path / "run.npz"
    mpirun(processes, "nestml_network.py", "librarymodule", model, threads, out)
    distributed = np.load(out)
    np.testing.assert_array_equal(distributed["spikes"], spikes)
    np.testing.assert_array_equal(distributed["v"], v)


def test_installed_models_have_defaults_units_and_recordables_and_outlive_reset_kernel(module_dir):
    nest.ResetKernel()
    assert "iaf_psc_exp_neuron_nestml" in nest.node_models
    defaults = nest.GetDefaults("iaf_psc_exp_neuron_nestml")
    assert defaults["tau_syn_exc"] == 2.0 and defaults["V_m"] == defaults["E_L"] == -70.0
    assert set(defaults["recordables"]) == {"V_m", "refr_t", "I_syn_exc", "I_syn_inh"}
    units = nest.units("iaf_psc_alpha_neuron_nestml")  # as NEST writes them
    assert units["V_m"] == "mV" and units["I_stim"] == "pA" and units["I_kernel_exc__X__exc_spikes__d"] == "1/s"
    with pytest.raises(nest.NESTErrors.DynamicModuleManagementError, match="installed already"):
        nest.Install("librarymodule")


def test_rebuilding_an_installed_module_replaces_its_file_rather_than_rewriting_it(module_dir, monkeypatch):
    """The process maps the installed library: a rebuild must leave that file as it is."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(module_dir / "cache"))
    installed = module_dir / "lib" / "librarymodule.so"
    before = installed.stat().st_ino
    modules.build_module([module_dir / "generated" / "librarymodule.cpp"], "librarymodule", module_dir / "lib")
    assert installed.stat().st_ino != before
    assert len(_run("iaf_psc_exp_neuron_nestml")[1]) > 50  # the loaded module still runs


def test_what_nestml_adds_is_ordered_by_name_after_the_models_own_declarations():
    own = ["V_m", "refr_t", "w"]
    added = ["g_exc__X__exc_spikes", "__P__g_exc__X__exc_spikes__g_exc__X__exc_spikes", "g_inh__X__inh_spikes"]
    for shuffled in (added, added[::-1], added[1:] + added[:1]):
        mixed = [own[0], shuffled[0], own[1], *shuffled[1:], own[2]]
        assert added_last(mixed) == own + sorted(added)


def test_generated_source_is_the_same_in_every_process(tmp_path):
    """NESTML's analysis orders what it adds differently from run to run (iaf_cond_beta_neuron:
    one of two orders, measured); the generated source must not, or a build's cache would miss."""
    sources = []
    for run in range(2):
        script = (
            "from ranvier.nestml import generate_ranvier_target; "
            f"generate_ranvier_target({str(LIBRARY / 'neurons' / 'iaf_cond_beta_neuron.nestml')!r}, "
            f"target_path={str(tmp_path / str(run))!r}, install_path={str(tmp_path / 'lib')!r}, module_name='samemodule')"
        )
        env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
        subprocess.run([sys.executable, "-c", script], check=True, env=env, capture_output=True)
        sources.append((tmp_path / str(run) / "iaf_cond_beta_neuron.hpp").read_text())
    assert sources[0] == sources[1]


def test_a_module_naming_an_existing_model_is_refused_whole(module_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(module_dir / "cache"))
    source = (LIBRARY / "neurons" / "iaf_psc_exp_neuron.nestml").read_text()
    (tmp_path / "clash.nestml").write_text(source.replace("model iaf_psc_exp_neuron:", "model iaf_psc_exp:"))
    generate_ranvier_target(
        str(tmp_path / "clash.nestml"),
        target_path=str(tmp_path / "gen"),
        install_path=str(module_dir / "lib"),
        module_name="clashmodule",
    )
    with pytest.raises(nest.NESTErrors.DynamicModuleManagementError, match="model iaf_psc_exp exists already"):
        nest.Install("clashmodule")
    assert nest.GetDefaults("iaf_psc_exp")["tau_syn_ex"] == 2.0  # the built-in stays


@pytest.mark.parametrize(
    "source, message",
    [
        ('extern "C" int f() { return 1; }', "is not a Ranvier module"),
        (  # a module's two functions, as a module built against other headers has them
            '#define EXPORTED extern "C" __attribute__((visibility("default")))\n'
            'EXPORTED const char* ranvier_module_abi() { return "0.0.1+other"; }\n'
            "EXPORTED const void* ranvier_module_contents() { return nullptr; }",
            "was built for Ranvier 0.0.1\\+other, this kernel is",
        ),
    ],
)
def test_a_library_that_is_not_a_module_of_this_kernel_is_refused(tmp_path, monkeypatch, source, message):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv(modules.MODULE_PATH_VARIABLE, str(tmp_path))
    (tmp_path / "other.cpp").write_text(source)
    modules.build_module([tmp_path / "other.cpp"], "othermodule", tmp_path)
    with pytest.raises(nest.NESTErrors.DynamicModuleManagementError, match=message):
        nest.Install("othermodule")


def test_an_unknown_module_is_refused_naming_where_it_was_looked_for(tmp_path, monkeypatch):
    monkeypatch.setenv(modules.MODULE_PATH_VARIABLE, str(tmp_path))
    with pytest.raises(nest.NESTErrors.DynamicModuleManagementError, match=f"no nosuchmodule.so in {tmp_path}"):
        nest.Install("nosuchmodule")


@pytest.mark.parametrize(
    "model, options, message",
    [
        ("synapses/stdp_synapse", {}, "stdp_synapse: a synapse with postsynaptic ports is generated with its neuron"),
        (
            "neurons/iaf_psc_exp_neuron",
            {"gap_junctions": {"enable": True, "membrane_potential_variable": "V_m", "gap_current_port": "I_stim"}},
            "gap junctions are not supported",
        ),
    ],
)
def test_a_model_that_needs_a_feature_the_target_lacks_is_refused_by_name(tmp_path, model, options, message):
    with pytest.raises(UnsupportedNESTML, match=message):
        generate_ranvier_target(
            str(LIBRARY / f"{model}.nestml"),
            target_path=str(tmp_path),
            install_path=str(tmp_path),
            codegen_opts=options,
        )
