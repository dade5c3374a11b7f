"""A small random network of each new model gives bit-identical spikes and traces for 1, 2
and 3 threads; bad parameters raise with the parameter's name and value."""

import numpy as np
import pytest
from ranvier.errors import BadParameterError

import ranvier as rv

# model: (parameters that drive some neurons to fire, a (lo, hi) pair drawn uniformly per neuron,
# excitatory weight, inhibitory weight[, receptor_type of excitatory and inhibitory spikes])
NETWORKS = {
    "iaf_psc_delta": ({"I_e": (300.0, 420.0)}, 0.8, -2.0),
    "iaf_cond_exp": ({"I_e": (200.0, 450.0)}, 4.0, -8.0),
    "iaf_cond_alpha": ({"I_e": (200.0, 450.0)}, 2.0, -4.0),
    "aeif_cond_exp": ({"I_e": (400.0, 900.0)}, 4.0, -8.0),
    "aeif_cond_alpha": ({"I_e": (400.0, 900.0)}, 2.0, -4.0),
    "hh_psc_alpha": ({"I_e": (300.0, 1200.0)}, 150.0, -300.0),
    "hh_cond_exp_traub": ({"I_e": (0.0, 600.0)}, 3.0, -10.0),
    "izhikevich": ({"I_e": (2.0, 12.0)}, 1.5, -3.0),
    "mat2_psc_exp": ({"I_e": (300.0, 600.0)}, 40.0, -80.0),
    "gif_psc_exp": ({"I_e": (80.0, 160.0)}, 20.0, -40.0),  # fires at random: from counter-based streams
    # GLIF 5 (every mechanism on) has no I_e: the noise drives it, each sign at its own port
    "glif_psc": (
        {
            "V_th": (-56.0, -50.0),
            "tau_syn": [2.0, 1.0],
            "spike_dependent_threshold": True,
            "after_spike_currents": True,
            "adapting_threshold": True,
        },
        25.0,
        -30.0,
        (1, 2),
    ),
    "glif_psc_double_alpha": (
        {"V_th": (-56.0, -50.0), "tau_syn_fast": [2.0, 1.0], "tau_syn_slow": [6.0, 4.0], "amp_slow": [0.3, 0.6]},
        20.0,
        -25.0,
        (1, 2),
    ),
    # conductances (nS) at an excitatory and an inhibitory receptor, with after-spike currents
    "glif_cond": ({"V_th": (-62.0, -56.0), "after_spike_currents": True}, 4.0, 6.0, (1, 2)),
}


def network(model, threads):
    params, w_ex, w_in, (r_ex, r_in) = (*NETWORKS[model], (0, 0))[:4]
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": 7, "resolution": 0.1})
    drawn = {k: rv.random.uniform(*v) if isinstance(v, tuple) else v for k, v in params.items()}
    exc = rv.Create(model, 80, params=drawn)
    inh = rv.Create(model, 20, params=drawn)
    noise = rv.Create("poisson_generator", params={"rate": 2000.0})
    rv.Connect(noise, exc + inh, syn_spec={"weight": w_ex, "delay": 1.0, "receptor_type": r_ex})
    rv.Connect(
        exc,
        exc + inh,
        {"rule": "fixed_indegree", "indegree": 10},
        {"weight": w_ex, "delay": rv.random.uniform(1.0, 2.0), "receptor_type": r_ex},
    )
    rv.Connect(
        inh, exc + inh, {"rule": "fixed_indegree", "indegree": 5}, {"weight": w_in, "delay": 1.5, "receptor_type": r_in}
    )
    sr = rv.Create("spike_recorder")
    rv.Connect(exc + inh, sr)
    mm = rv.Create("multimeter", params={"interval": 0.5, "record_from": ["V_m"]})
    rv.Connect(mm, exc[:3] + inh[-2:])
    rv.Simulate(100.0)
    return sr.events, mm.events, (exc + inh).get("V_m")


@pytest.mark.parametrize("model", sorted(NETWORKS))
def test_spikes_identical_across_threads(model):
    spikes1, trace1, v1 = network(model, 1)
    assert len(spikes1["times"]) > 20, f"{model} network should fire"
    for threads in (2, 3):
        spikes, trace, v = network(model, threads)
        np.testing.assert_array_equal(spikes["senders"], spikes1["senders"])
        np.testing.assert_array_equal(spikes["times"], spikes1["times"])
        np.testing.assert_array_equal(trace["V_m"], trace1["V_m"])
        np.testing.assert_array_equal(v, v1)


BAD = [
    ("iaf_psc_delta", {"C_m": 0.0}, "C_m"),
    ("iaf_psc_delta", {"V_reset": -50.0}, "V_reset"),
    ("iaf_psc_delta", {"t_ref": -1.0}, "t_ref"),
    ("iaf_psc_delta", {"tau_m": -2.0}, "tau_m"),
    ("iaf_cond_exp", {"C_m": -1.0}, "C_m"),
    ("iaf_cond_exp", {"tau_syn_ex": 0.0}, "tau_syn_ex"),
    ("iaf_cond_exp", {"V_reset": -55.0}, "V_reset"),
    ("iaf_cond_alpha", {"t_ref": -0.5}, "t_ref"),
    ("iaf_cond_alpha", {"tau_syn_in": -3.0}, "tau_syn_in"),
    ("aeif_cond_exp", {"V_peak": -60.0}, "V_peak"),
    ("aeif_cond_exp", {"Delta_T": -1.0}, "Delta_T"),
    ("aeif_cond_exp", {"Delta_T": 0.01}, "Delta_T"),  # exp((V_peak - V_th)/Delta_T) overflows
    ("aeif_cond_exp", {"V_reset": 5.0}, "V_reset"),
    ("aeif_cond_alpha", {"tau_w": 0.0}, "tau_w"),
    ("aeif_cond_alpha", {"gsl_error_tol": 0.0}, "gsl_error_tol"),
    ("aeif_cond_alpha", {"g_ex": -1.0}, "g_ex"),
    ("hh_psc_alpha", {"C_m": 0.0}, "C_m"),
    ("hh_psc_alpha", {"g_Na": -1.0}, "g_Na"),
    ("hh_psc_alpha", {"Act_m": -0.1}, "Act_m"),
    ("hh_cond_exp_traub", {"tau_syn_ex": -5.0}, "tau_syn_ex"),
    ("hh_cond_exp_traub", {"t_ref": -2.0}, "t_ref"),
    ("iaf_psc_delta", {"refractory_input": 2}, "refractory_input"),
    ("izhikevich", {"consistent_integration": "yes"}, "consistent_integration"),
    ("mat2_psc_exp", {"C_m": -100.0}, "C_m"),
    ("mat2_psc_exp", {"tau_2": 0.0}, "tau_2"),
    ("mat2_psc_exp", {"t_ref": 0.0}, "t_ref"),
    ("mat2_psc_exp", {"tau_syn_ex": 5.0}, "tau_syn_ex"),
    ("gif_psc_exp", {"g_L": 0.0}, "g_L"),
    ("gif_psc_exp", {"Delta_V": -0.5}, "Delta_V"),
    ("gif_psc_exp", {"lambda_0": -1.0}, "lambda_0"),
    ("gif_psc_exp", {"t_ref": -1.0}, "t_ref"),
    ("gif_psc_exp", {"C_m": 0.0}, "C_m"),
    ("gif_psc_exp", {"tau_syn_in": 0.0}, "tau_syn_in"),
    ("glif_psc", {"g": 0.0}, "g"),
    ("glif_psc", {"t_ref": 0.0}, "t_ref"),
    ("glif_psc", {"V_reset": -40.0}, "V_reset"),
]


@pytest.mark.parametrize("model,params,name", BAD)
def test_bad_parameters_raise_with_name_and_value(model, params, name):
    n = rv.Create(model)
    before = n.get(name)
    with pytest.raises(BadParameterError) as info:
        n.set(params)
    value = params[name]
    shown = f"{value:g}" if isinstance(value, float) else repr(value)
    assert f"{name} = {shown}" in str(info.value)
    assert n.get(name) == before  # the kernel stays usable, the node unchanged
    rv.Simulate(1.0)
    with pytest.raises(BadParameterError):
        rv.Create(model, params=params)


def test_boolean_parameters_read_back_as_booleans():
    n = rv.Create("izhikevich")
    assert n.get("consistent_integration") is True
    n.set({"consistent_integration": False})
    assert n.get("consistent_integration") is False
    assert rv.GetDefaults("iaf_psc_delta")["refractory_input"] is False


@pytest.mark.parametrize("model", ["iaf_cond_exp", "aeif_cond_exp", "hh_psc_alpha"])
def test_one_neuron_on_two_threads(model):
    """A thread with none of a model's neurons skips the solver (it once read neuron 0 of an
    empty group and crashed)."""
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": 2})
    n = rv.Create(model, 1, params={"I_e": 300.0})
    rv.Simulate(5.0)
    assert n.V_m != rv.GetDefaults(model)["V_m"]
