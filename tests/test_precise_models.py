"""NEST's precise-timing models (iaf_psc_delta_ps, iaf_psc_exp_ps, iaf_psc_exp_ps_lossless,
iaf_psc_alpha_ps, parrot_neuron_ps, poisson_generator_ps): exact against the membrane
equation's solutions, equal to NEST 3.10 (tests/fixtures/nest_precise.json, written by
benchmarks/peers/nest_precise_fixture.py), the same for any resolution and thread count, and
NEST's checks."""

import json
import math
import os

import numpy as np
import pytest

import ranvier as nest

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "fixtures", "nest_precise.json")) as f:
    NEST = json.load(f)
IAF_PS = ("iaf_psc_delta_ps", "iaf_psc_exp_ps", "iaf_psc_exp_ps_lossless", "iaf_psc_alpha_ps")


def set_resolution(h):
    nest.ResetKernel()
    nest.set(tics_per_ms=1000 if h == 0.1 else 2**14, resolution=h)


@pytest.mark.parametrize("model", IAF_PS)
@pytest.mark.parametrize("h", [1.0, 0.1, 2**-7])
def test_dc_response_and_first_spike_are_exact(model, h):
    set_resolution(h)
    params = {"E_L": 0.0, "V_m": 0.0, "V_reset": 0.0, "V_th": 15.0, "I_e": 1000.0, "tau_m": 10.0, "C_m": 250.0}
    neuron = nest.Create(model, params=params)
    recorder = nest.Create("spike_recorder")
    nest.Connect(neuron, recorder)
    nest.Simulate(8.0)
    # V(t) = I tau / C (1 - exp(-t / tau)) reaches 15 mV at t = -tau ln(1 - C V_th / (tau I))
    first = -10.0 * math.log(1.0 - 250.0 * 15.0 / (10.0 * 1000.0))
    assert recorder.events["times"][0] == pytest.approx(first, abs=1e-12)
    assert len(recorder.events["times"]) == 1
    since = 8.0 - first  # refractory for 2 ms at 0 mV, then rising again
    assert neuron.V_m == pytest.approx(40.0 * (1.0 - math.exp(-(since - 2.0) / 10.0)), abs=1e-12)


@pytest.mark.parametrize("run", NEST["runs"], ids=lambda r: f"{r['model']}-{r['case']}-{r['resolution']}")
def test_spikes_and_potential_as_nest(run):
    set_resolution(run["resolution"])
    case = NEST["cases"][run["case"]]
    neuron = nest.Create(run["model"], params={"t_ref": 1.0, **case["params"]})
    recorder = nest.Create("spike_recorder")
    nest.Connect(neuron, recorder)
    w_ex, w_in = NEST["delta_weights"] if run["model"] == "iaf_psc_delta_ps" else case["weights"]
    if case["weights"][0]:
        for times, w in ((NEST["excitatory"], w_ex), (NEST["inhibitory"], w_in)):
            generator = nest.Create("spike_generator", params={"spike_times": times, "precise_times": True})
            nest.Connect(generator, neuron, syn_spec={"weight": w, "delay": 1.0})
    nest.Simulate(NEST["t_sim"])
    np.testing.assert_allclose(recorder.events["times"], run["times"], rtol=0, atol=1e-12)
    assert neuron.V_m == pytest.approx(run["V_m"], abs=1e-11)


@pytest.mark.parametrize("h", [0.1, 0.0625])
def test_parrot_repeats_precise_times(h):
    set_resolution(h)
    generator = nest.Create("spike_generator", params={"spike_times": NEST["excitatory"], "precise_times": True})
    parrot = nest.Create("parrot_neuron_ps")
    recorder = nest.Create("spike_recorder")
    nest.Connect(generator, parrot, syn_spec={"delay": 1.0})
    nest.Connect(parrot, recorder)
    nest.Simulate(NEST["t_sim"])
    np.testing.assert_allclose(recorder.events["times"], NEST["parrot"][str(h)], rtol=0, atol=1e-12)


def test_alpha_psp_of_an_off_grid_spike_is_exact():
    nest.ResetKernel()
    tau_s, tau_m, c_m, w, t_in = 0.3, 10.0, 250.0, 500.0, 1.132123512
    neuron = nest.Create(
        "iaf_psc_alpha_ps", params={"E_L": 0.0, "V_m": 0.0, "V_th": 1e3, "tau_syn_ex": tau_s, "C_m": c_m}
    )
    generator = nest.Create("spike_generator", params={"spike_times": [t_in], "precise_times": True})
    nest.Connect(generator, neuron, syn_spec={"weight": w, "delay": 1.0})
    nest.Simulate(4.0)
    t, a = 4.0 - 1.0 - t_in, 1 / tau_s - 1 / tau_m
    psp = (
        w
        * math.e
        / (tau_s * c_m)
        * ((math.exp(-t / tau_m) - math.exp(-t / tau_s)) / a**2 - t * math.exp(-t / tau_s) / a)
    )
    assert neuron.V_m == pytest.approx(psp, rel=1e-12)


def test_poisson_ps_trains_do_not_depend_on_resolution_or_threads():
    trains = []
    for h, threads in ((0.1, 1), (0.01, 1), (0.1, 2)):
        nest.ResetKernel()
        nest.set(resolution=h, local_num_threads=threads)
        generator = nest.Create("poisson_generator_ps", params={"rate": 2000.0, "dead_time": 0.2})
        parrots = nest.Create("parrot_neuron_ps", 3)
        recorder = nest.Create("spike_recorder")
        nest.Connect(generator, parrots)
        nest.Connect(parrots, recorder)
        nest.Simulate(200.0)
        order = np.lexsort((recorder.events["times"], recorder.events["senders"]))
        trains.append((recorder.events["senders"][order], recorder.events["times"][order]))
    for senders, times in trains[1:]:
        np.testing.assert_array_equal(senders, trains[0][0])
        np.testing.assert_allclose(times, trains[0][1], rtol=0, atol=1e-9)
    senders, times = trains[0]
    intervals = np.concatenate([np.diff(times[senders == s]) for s in np.unique(senders)])
    assert intervals.min() >= 0.2 - 1e-12  # the dead time
    # 3 x 400 intervals of mean 0.5 ms: the mean within 4 standard errors (sd = 0.3 ms)
    assert abs(intervals.mean() - 0.5) < 4 * 0.3 / math.sqrt(len(intervals))


def test_network_spikes_identical_for_threads():
    results = []
    for threads in (1, 2, 3):
        nest.ResetKernel()
        nest.set(local_num_threads=threads)
        drive = nest.Create("poisson_generator_ps", params={"rate": 20000.0})
        neurons = nest.Create("iaf_psc_alpha_ps", 40)
        recorder = nest.Create("spike_recorder")
        nest.Connect(drive, neurons, syn_spec={"weight": 30.0})
        nest.Connect(neurons, neurons, {"rule": "fixed_indegree", "indegree": 8}, {"weight": -20.0, "delay": 1.5})
        nest.Connect(neurons, recorder)
        nest.Simulate(200.0)
        order = np.lexsort((recorder.events["times"], recorder.events["senders"]))
        results.append((recorder.events["senders"][order], recorder.events["times"][order]))
    assert len(results[0][0]) > 100
    for senders, times in results[1:]:
        np.testing.assert_array_equal(senders, results[0][0])
        np.testing.assert_array_equal(times, results[0][1])


@pytest.mark.parametrize("model", IAF_PS[:2] + IAF_PS[3:])
def test_refractory_period_of_at_least_one_step(model):
    """NEST rounds t_ref to a tic, then up to a whole step: 0.04 ms is one step at h = 0.1 ms;
    0.0004 ms is no tic, refused (NEST 3.10, run)."""
    nest.ResetKernel()
    nest.Create(model, params={"t_ref": 0.04})
    for t_ref in (0.0004, 0.0):
        with pytest.raises(nest.BadParameterError, match="t_ref"):
            nest.Create(model, params={"t_ref": t_ref})
    neuron = nest.Create(model)
    assert neuron.V_m == -70.0  # the kernel is still usable


def test_lossless_needs_equal_synaptic_time_constants():
    nest.ResetKernel()
    nest.Create("iaf_psc_exp_ps_lossless", params={"t_ref": 0.0})
    with pytest.raises(nest.BadParameterError, match="tau_syn_ex"):
        nest.Create("iaf_psc_exp_ps_lossless", params={"tau_syn_ex": 1.0})


def test_spike_generator_multiplicities_and_off_grid_times():
    nest.ResetKernel()
    generator = nest.Create(
        "spike_generator",
        params={"spike_times": [1.23, 2.0], "spike_multiplicities": [3, 1], "allow_offgrid_times": True},
    )
    neuron = nest.Create("iaf_psc_delta", params={"V_th": 1000.0, "E_L": 0.0, "V_m": 0.0, "tau_m": 1e9})
    recorder = nest.Create("spike_recorder")
    nest.Connect(generator, neuron, syn_spec={"weight": 2.0, "delay": 1.0})
    nest.Connect(generator, recorder)
    nest.Simulate(2.5)  # the spikes of 1.3 ms arrive at 2.3 ms
    assert neuron.V_m == pytest.approx(6.0, abs=1e-6)
    nest.Simulate(1.0)
    np.testing.assert_allclose(recorder.events["times"], [1.3, 1.3, 1.3, 2.0])
    assert neuron.V_m == pytest.approx(8.0, abs=1e-6)
    with pytest.raises(nest.BadParameterError, match="spike_multiplicities"):
        generator.set(spike_multiplicities=[1, 2, 3])
    with pytest.raises(nest.BadParameterError, match="precise_times"):
        generator.set(precise_times=True)


def test_precise_spikes_cross_the_exchange_in_fine_units():
    """Cell to cell, an offset travels in 2^k units of the step (here 2^27 of 0.1 ms, since the
    longest cycle is 20 steps): a parrot chain keeps each time within 1e-9 ms."""
    nest.ResetKernel()
    times = [1.2345678912, 3.00000001, 7.77777]
    generator = nest.Create("spike_generator", params={"spike_times": times, "precise_times": True})
    first, second = nest.Create("parrot_neuron_ps"), nest.Create("parrot_neuron_ps")
    recorder = nest.Create("spike_recorder")
    nest.Connect(generator, first, syn_spec={"delay": 1.0})
    nest.Connect(first, second, syn_spec={"delay": 1.0})
    nest.Connect(second, recorder)
    nest.Simulate(12.0)
    np.testing.assert_allclose(recorder.events["times"], np.add(times, 2.0), rtol=0, atol=0.1 / 2**28)


@pytest.mark.parametrize("model", ["parrot_neuron", "parrot_neuron_ps"])
def test_t_spike_is_the_last_spike_and_port_1_is_not_repeated(model):
    nest.ResetKernel()
    generator = nest.Create("spike_generator", params={"spike_times": [2.0, 4.25], "precise_times": True})
    parrot = nest.Create(model)
    assert parrot.t_spike == -1.0
    nest.Connect(generator, parrot, syn_spec={"delay": 1.0})
    silent = nest.Create(model)
    nest.Connect(generator, silent, syn_spec={"delay": 1.0, "receptor_type": 1})
    nest.Simulate(10.0)
    # the grid parrot repeats 4.25 at the end of its step, 5.3; the precise one at 5.25
    assert parrot.t_spike == pytest.approx(5.25 if model == "parrot_neuron_ps" else 5.3, abs=1e-12)
    assert silent.t_spike == -1.0
    with pytest.raises(nest.BadParameterError, match="receptor_type"):
        nest.Connect(generator, silent, syn_spec={"receptor_type": 2})


def test_precise_generator_times_on_the_grid_have_no_offset():
    """A precise spike time that is a grid time (17.9 ms at h = 0.1 ms) has offset 0, as NEST's
    Time gives the step's end in whole tics; a parrot 0.1 ms later then fires at exactly 18.0 ms
    (step x h would leave 2e-15 ms and a parrot time of 17.999999999999996). NEST 3.10's parrot
    times for these inputs, run: 3.4, 5.223456, 12.0, 18.0."""
    nest.ResetKernel()
    generator = nest.Create(
        "spike_generator", params={"spike_times": [3.3000000000000003, 5.123456, 11.9, 17.9], "precise_times": True}
    )
    parrot = nest.Create("parrot_neuron_ps")
    nest.Connect(generator, parrot, syn_spec={"delay": 0.1})
    recorder = nest.Create("spike_recorder")
    nest.Connect(parrot, recorder)
    nest.Simulate(30.0)
    assert recorder.events["times"].tolist() == [3.4, 5.223456, 12.0, 18.0]
