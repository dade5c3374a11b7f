"""Units (ranvier.units): every parameter and state variable the kernel declares carries its unit,
which Python learns from the declaration, NEST's units where NEST has the parameter."""

import pytest

import ranvier as rv
from ranvier import _kernel

WEIGHT = "pA, nS or mV"  # a weight takes its target's unit: current, conductance or voltage jump
# the units the declarations use; a new one is added here on purpose, so a typo cannot slip in
KNOWN = {
    "",
    "mV",
    "pA",
    "nA",
    "pF",
    "nS",
    "ms",
    "Hz",
    "pA/ms",
    "nS/ms",
    "mV/ms",
    "1/ms",
    "Hz/mV",
    "1/mV",
    "mV^2",  # Clopath's u_ref_squared
    "1/s",
    "deg",
    "S/cm2",
    "uM",  # the astrocyte's concentrations
    "mM",  # iaf_bw_2001's magnesium
    "uM/ms",
    "1/(uM*ms)",
    WEIGHT,
}


def declared():
    """Per kind, each model's declared names, from the kernel's own listings of defaults."""
    density, synapse = _kernel.cable_mechanisms()
    return {
        "neuron": {name: set(defaults) for name, defaults in _kernel.neuron_models().items()},
        "synapse": {name: set(defaults) for name, (defaults, _) in _kernel.synapse_models().items()},
        "device": {name: set(defaults) for name, (_, defaults, *_) in _kernel.device_models(0.1).items()},
        "mechanism": {name: set(defaults) for name, defaults in {**density, **synapse}.items()},
    }


@pytest.mark.parametrize("kind", ["neuron", "synapse", "device", "mechanism"])
def test_every_declared_parameter_of_every_model_has_a_unit(kind):
    from_mod_files = set(rv.nmodl.loaded_mechanisms())  # units as their files write them
    for name, names in declared()[kind].items():
        units = rv.units(name)
        assert set(units) == names, name
        for parameter, unit in units.items():
            assert isinstance(unit, str) and (unit in KNOWN or name in from_mod_files), (name, parameter, unit)


def test_model_names_of_the_kinds_do_not_collide():
    kinds = declared().values()
    assert sum(len(k) for k in kinds) == len(set().union(*kinds)) == len(_kernel.units())


@pytest.mark.parametrize(
    "model, expected",
    [
        ("iaf_psc_alpha", {"C_m": "pF", "tau_m": "ms", "V_th": "mV", "I_e": "pA", "V_m": "mV", "t_ref": "ms"}),
        ("iaf_cond_exp", {"g_L": "nS", "E_ex": "mV", "g_ex": "nS"}),
        ("aeif_cond_alpha", {"a": "nS", "b": "pA", "Delta_T": "mV", "w": "pA"}),
        ("izhikevich", {"a": "", "b": "", "c": "mV", "d": "mV"}),
        ("gif_psc_exp", {"lambda_0": "1/s", "q_stc": "nA", "q_sfa": "mV"}),
        ("iaf_psc_exp_multisynapse", {"tau_syn": "ms", "n_synapses": ""}),
        ("static_synapse", {"weight": WEIGHT, "delay": "ms"}),
        ("stdp_synapse", {"tau_plus": "ms", "lambda": "", "Wmax": WEIGHT}),
        ("tsodyks_synapse", {"tau_rec": "ms", "U": ""}),
        ("poisson_generator", {"rate": "Hz", "start": "ms", "stop": "ms", "origin": "ms"}),
        ("ac_generator", {"amplitude": "pA", "frequency": "Hz", "phase": "deg"}),
        ("sinusoidal_poisson_generator", {"amplitude": "Hz"}),
        ("multimeter", {"interval": "ms", "record_from": ""}),
        ("hh", {"gnabar": "S/cm2", "gkbar": "S/cm2", "el": "mV"}),
        ("expsyn", {"tau": "ms", "e": "mV"}),
    ],
)
def test_units_are_nests(model, expected):
    units = rv.units(model)
    assert {name: units[name] for name in expected} == expected


def test_copies_have_their_models_units_and_unknown_names_raise():
    rv.ResetKernel()
    rv.CopyModel("stdp_synapse", "my_stdp")
    rv.CopyModel("iaf_psc_alpha", "my_neuron")
    assert rv.units("my_stdp") == rv.units("stdp_synapse")
    assert rv.units("my_neuron") == rv.units("iaf_psc_alpha")
    units = rv.units("iaf_psc_alpha")
    units["C_m"] = "F"  # a copy: the kernel's declaration stays
    assert rv.units("iaf_psc_alpha")["C_m"] == "pF"
    for bad in ("no_such_model", 3):
        with pytest.raises(rv.UnknownModelError):
            rv.units(bad)
