"""NEST's multisynapse neurons (iaf_psc_exp_multisynapse, iaf_psc_alpha_multisynapse): one
current per receptor port with its own tau_syn. Closed-form PSPs on every receptor, NEST 3.10's
traces (fixture from benchmarks/peers/nest_multisynapse_traces.py), tau_syn as one list per
Create call, NEST's receptor and tau_syn errors, and bit-identity across threads."""

import math

import numpy as np
import port_fixture
import pytest
from ranvier.errors import BadParameterError, UnknownParameterError
from scipy import stats

import ranvier as rv

MODELS = ["iaf_psc_exp_multisynapse", "iaf_psc_alpha_multisynapse"]
FIXTURE, SPEC = port_fixture.load("nest_multisynapse_traces.npz")
H = 0.1


def psp(model, s, w, tau_s, tau_m=10.0, c_m=250.0):
    """V_m - E_L at s ms after a spike of weight w arrives (0 before): the membrane's response
    to w exp(-s/tau_s) or to the alpha current w e s/tau_s exp(-s/tau_s), which peaks at w."""
    a = 1.0 / tau_s - 1.0 / tau_m
    s = np.maximum(s, 0.0)
    if model.startswith("iaf_psc_exp"):
        return w / c_m * (np.exp(-s / tau_m) - np.exp(-s / tau_s)) / a
    return w * math.e / (tau_s * c_m) * np.exp(-s / tau_m) * (1 - np.exp(-a * s) * (1 + a * s)) / a**2


def psc(model, s, w, tau_s):
    """The current of one port s >= 0 ms after a spike of weight w arrived."""
    shape = np.exp(-s / tau_s) if model.startswith("iaf_psc_exp") else math.e * s / tau_s * np.exp(-s / tau_s)
    return w * shape


@pytest.mark.parametrize("model", MODELS)
def test_one_event_on_each_receptor_gives_its_closed_form_psp(model):
    taus, weights, arrivals = [0.7, 3.0, 8.0], [120.0, -90.0, 60.0], [2.0, 5.3, 9.1]
    rv.ResetKernel()
    n = rv.Create(model, params={"tau_syn": taus})
    for k, (w, t) in enumerate(zip(weights, arrivals)):
        sg = rv.Create("spike_generator", params={"spike_times": [t - 1.0]})
        rv.Connect(sg, n, syn_spec={"weight": w, "delay": 1.0, "receptor_type": k + 1})
    mm = rv.Create("multimeter", params={"interval": H, "record_from": ["V_m", "I_syn_1", "I_syn_2", "I_syn_3"]})
    rv.Connect(mm, n)
    rv.Simulate(40.0)
    ev = mm.events
    t = ev["times"]
    expected = -70.0 + sum(psp(model, t - ta, w, ts) * (t >= ta - 1e-9) for w, ts, ta in zip(weights, taus, arrivals))
    np.testing.assert_allclose(ev["V_m"], expected, rtol=0, atol=1e-10)
    for k, (w, ts, ta) in enumerate(zip(weights, taus, arrivals)):
        current = np.where(t >= ta - 1e-9, psc(model, t - ta, w, ts), 0.0)
        np.testing.assert_allclose(ev[f"I_syn_{k + 1}"], current, rtol=0, atol=1e-10)


@pytest.mark.parametrize("model", MODELS)
def test_matches_nest(model):
    # the same arithmetic as NEST's but for rounding: V_m to 1e-9 mV, currents to 1e-9 of their scale
    neurons = range(len(SPEC["models"][model]["neurons"]))
    port_fixture.assert_matches(
        FIXTURE, SPEC, model, neurons, lambda r, x: 1e-9 if r == "V_m" else 1e-9 * max(1.0, np.abs(x).max())
    )


@pytest.mark.parametrize("model", MODELS)
def test_tau_syn_is_a_list_per_create_call_with_its_count(model):
    rv.ResetKernel()
    d = rv.GetDefaults(model)
    assert d["tau_syn"] == [2.0] and d["n_synapses"] == 1 and "I_syn_1" in d["recordables"]
    n = rv.Create(model, 3, params={"tau_syn": [1.0, 4.0]})
    np.testing.assert_array_equal(n[1].get("tau_syn"), [1.0, 4.0])
    assert list(n.get("n_synapses")) == [2, 2, 2]
    n.set(tau_syn=[[1.0, 5.0, 6.0]] * 3)  # one equal list per node
    assert n[2].get("n_synapses") == 3
    same = rv.Create(model, 2, params=[{"tau_syn": [3.0], "I_e": 1.0}, {"tau_syn": [3.0], "I_e": 2.0}])
    assert list(same.get("n_synapses")) == [1, 1] and list(same.get("I_e")) == [1.0, 2.0]
    rv.SetDefaults(model, {"tau_syn": [1.5, 2.5]})
    assert rv.GetDefaults(model, "n_synapses") == 2
    np.testing.assert_array_equal(rv.Create(model).get("tau_syn"), [1.5, 2.5])
    rv.CopyModel(model, "my_multi", {"tau_syn": [7.0]})
    assert rv.Create("my_multi").get("n_synapses") == 1


@pytest.mark.parametrize("model", MODELS)
def test_growing_tau_syn_after_other_cells_are_connected(model):
    # The cells get new input columns; the connections of cells created after them stay.
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": 2})
    multi = rv.Create(model, 4)
    other = rv.Create("iaf_psc_alpha", 4)
    sg = rv.Create("spike_generator", params={"spike_times": [1.0]})
    rv.Connect(sg, other, syn_spec={"weight": 100.0})
    multi.set(tau_syn=[1.0, 2.0, 3.0])
    rv.Connect(sg, multi, syn_spec={"weight": 100.0, "receptor_type": 3})
    mm = rv.Create("multimeter", params={"interval": H, "record_from": ["V_m", "I_syn_3"]})
    rv.Connect(mm, multi)
    vm = rv.Create("voltmeter", params={"interval": H})
    rv.Connect(vm, other)
    rv.Simulate(10.0)
    ev = mm.events
    t = ev["times"][ev["senders"] == multi[0].global_id]
    v = ev["V_m"][ev["senders"] == multi[0].global_id]
    np.testing.assert_allclose(v, -70.0 + psp(model, t - 2.0, 100.0, 3.0) * (t >= 2.0 - 1e-9), rtol=0, atol=1e-10)
    assert vm.events["V_m"].max() > -69.9  # iaf_psc_alpha still gets its input


@pytest.mark.parametrize("model", MODELS)
def test_receptor_errors_are_nests(model):
    rv.ResetKernel()
    n = rv.Create(model, 2, params={"tau_syn": [1.0, 2.0]})
    sg = rv.Create("spike_generator", params={"spike_times": [1.0]})
    dc = rv.Create("dc_generator")
    with pytest.raises(BadParameterError, match="receptor_type = 0"):
        rv.Connect(sg, n)  # NEST: receptor type 0 does not accept spikes
    with pytest.raises(BadParameterError, match="receptor_type = 3"):
        rv.Connect(sg, n, syn_spec={"receptor_type": 3})
    with pytest.raises(BadParameterError, match="receptor_type = 1"):
        rv.Connect(dc, n, syn_spec={"receptor_type": 1})  # currents enter at 0
    with pytest.raises(BadParameterError, match="receptor_type = 1"):
        rv.Connect(sg, rv.Create("iaf_psc_alpha"), syn_spec={"receptor_type": 1})  # one port
    assert rv.GetKernelStatus("num_connections") == 0
    rv.Connect(dc, n)
    rv.Connect(sg, n, syn_spec={"receptor_type": 2})
    with pytest.raises(BadParameterError, match="number of ports cannot change"):
        n.set(tau_syn=[1.0])
    n.set(tau_syn=[3.0, 4.0])  # same count: allowed, as in NEST
    np.testing.assert_array_equal(n[0].get("tau_syn"), [3.0, 4.0])
    rv.Simulate(5.0)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(
    "params,name",
    [
        ({"tau_syn": [1.0, -2.0]}, "tau_syn = -2"),
        ({"tau_syn": [0.0]}, "tau_syn = 0"),
        ({"tau_syn": "fast"}, "tau_syn = 'fast'"),
        ({"tau_syn": [1.0, float("nan")]}, "NaN"),
        ({"n_synapses": 3}, "n_synapses is read-only"),
        ({"C_m": 0.0}, "C_m = 0"),
        ({"V_reset": -50.0}, "V_reset = -50"),
        ({"t_ref": -1.0}, "t_ref = -1"),
    ],
)
def test_bad_parameters_raise_with_name_and_value(model, params, name):
    rv.ResetKernel()
    with pytest.raises(BadParameterError, match=name):
        rv.Create(model, 2, params=params)
    n = rv.Create(model, 2)
    with pytest.raises(BadParameterError, match=name):
        n.set(params)
    if "tau_syn" in params:  # checked as the model default, not only at Create
        with pytest.raises(BadParameterError, match=name):
            rv.SetDefaults(model, params)
    assert n[0].get("n_synapses") == 1 and n[0].get("C_m") == 250.0


def test_one_list_per_create_call():
    rv.ResetKernel()
    n = rv.Create("iaf_psc_alpha_multisynapse", 3)
    with pytest.raises(BadParameterError, match="tau_syn is one list for all nodes"):
        n.set(tau_syn=[[1.0], [2.0], [1.0]])
    with pytest.raises(BadParameterError, match="set it on all 3 nodes"):
        n[1].set(tau_syn=[1.0, 2.0])
    n[1].set(tau_syn=[2.0])  # the call's list already: nothing changes
    with pytest.raises(UnknownParameterError, match="tau_syn"):
        rv.Create("iaf_psc_alpha", params={"tau_syn": [1.0]})


def test_exp_rejects_tau_syn_equal_to_tau_m():
    # NEST's condition for iaf_psc_exp_multisynapse (its alpha sibling takes the limit)
    rv.ResetKernel()
    with pytest.raises(BadParameterError, match="tau_syn = 10"):
        rv.Create("iaf_psc_exp_multisynapse", params={"tau_syn": [2.0, 10.0]})
    n = rv.Create("iaf_psc_exp_multisynapse", params={"tau_syn": [2.0, 5.0]})
    with pytest.raises(BadParameterError, match="tau_syn = 5"):
        n.set(tau_m=5.0)
    assert n.get("tau_m") == 10.0
    rv.Create("iaf_psc_alpha_multisynapse", params={"tau_syn": [10.0]})


def test_multimeter_keeps_recorded_ports():
    rv.ResetKernel()
    n = rv.Create("iaf_psc_exp_multisynapse", params={"tau_syn": [1.0, 2.0]})
    with pytest.raises(rv.IllegalConnectionError, match="I_syn_3"):  # NEST's IllegalConnection
        rv.Connect(rv.Create("multimeter", params={"record_from": ["I_syn_3"]}), n)
    rv.Connect(rv.Create("multimeter", params={"record_from": ["I_syn_2"]}), n)
    with pytest.raises(BadParameterError, match="multimeter records port 2"):
        n.set(tau_syn=[1.0])
    n.set(tau_syn=[1.0, 2.0, 3.0])


def network(model, threads):
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": 11})
    cells = rv.Create(model, 60, params={"tau_syn": [0.5, 2.0, 6.0], "I_e": rv.random.uniform(250.0, 400.0)})
    noise = rv.Create("poisson_generator", params={"rate": 3000.0})
    rv.Connect(noise, cells, syn_spec={"weight": 30.0, "receptor_type": 1})
    rv.Connect(
        cells[:45],
        cells,
        {"rule": "fixed_indegree", "indegree": 8},
        {"weight": 40.0, "delay": rv.random.uniform(1.0, 2.0), "receptor_type": 2},
    )
    rv.Connect(cells[45:], cells, {"rule": "fixed_indegree", "indegree": 4}, {"weight": -120.0, "receptor_type": 3})
    sr = rv.Create("spike_recorder")
    rv.Connect(cells, sr)
    mm = rv.Create("multimeter", params={"interval": 0.5, "record_from": ["V_m", "I_syn", "I_syn_2"]})
    rv.Connect(mm, cells[:3])
    rv.Simulate(100.0)
    return sr.events, mm.events


@pytest.mark.parametrize("model", MODELS)
def test_spikes_identical_across_threads(model):
    spikes1, trace1 = network(model, 1)
    assert len(spikes1["times"]) > 20
    spikes2, trace2 = network(model, 2)
    np.testing.assert_array_equal(spikes2["senders"], spikes1["senders"])
    np.testing.assert_array_equal(spikes2["times"], spikes1["times"])
    for r in ("V_m", "I_syn", "I_syn_2"):
        np.testing.assert_array_equal(trace2[r], trace1[r])


def test_no_receptors_still_takes_currents():
    # NEST allows an empty tau_syn: no spike receptors, currents still enter at receptor_type 0.
    rv.ResetKernel()
    n = rv.Create("iaf_psc_exp_multisynapse", 2, params={"tau_syn": []})
    assert list(n.get("n_synapses")) == [0, 0]
    with pytest.raises(BadParameterError, match="which has none"):
        rv.Connect(rv.Create("spike_generator"), n, syn_spec={"receptor_type": 1})
    rv.Connect(rv.Create("dc_generator", params={"amplitude": 100.0}), n)
    vm = rv.Create("voltmeter", params={"interval": H})
    rv.Connect(vm, n[0])
    rv.Simulate(10.0)
    t = vm.events["times"]
    # sent from step 0 with the default delay of 1 ms, the current acts from t = 1 ms + h on
    expected = -70.0 + 100.0 * 10.0 / 250.0 * (1 - np.exp(-np.maximum(t - 1.0 - H, 0.0) / 10.0))
    np.testing.assert_allclose(vm.events["V_m"], expected, rtol=0, atol=1e-10)


def test_area_placement_places_the_ports_later():
    # Under area placement the cells and their tau_syn wait until Connect places every area.
    rv.ResetKernel()
    rv.SetKernelStatus({"placement": "area", "local_num_threads": 2})
    cells = rv.Create("iaf_psc_alpha_multisynapse", 6, params={"tau_syn": [1.0, 2.0, 3.0]}, area="A")
    rv.Create("iaf_psc_exp", 6, area="B")
    sg = rv.Create("spike_generator", params={"spike_times": [1.0]})
    rv.Connect(sg, cells, syn_spec={"weight": 100.0, "receptor_type": 3})
    mm = rv.Create("multimeter", params={"interval": H, "record_from": ["V_m"]})
    rv.Connect(mm, cells[4])
    rv.Simulate(10.0)
    t = mm.events["times"]
    model = "iaf_psc_alpha_multisynapse"
    np.testing.assert_allclose(
        mm.events["V_m"], -70.0 + psp(model, t - 2.0, 100.0, 3.0) * (t >= 2.0 - 1e-9), rtol=0, atol=1e-10
    )


def test_synapse_models_have_a_default_receptor_type():
    """As NEST: a synapse model's receptor_type (SetDefaults, CopyModel) is the port of its
    connections where Connect's syn_spec names none."""
    n = rv.Create("iaf_psc_exp_multisynapse", 2, params={"tau_syn": [1.0, 2.0]})
    rv.CopyModel("static_synapse", "into_second", {"receptor_type": 2})
    assert (
        rv.GetDefaults("into_second", "receptor_type") == 2 and rv.GetDefaults("static_synapse", "receptor_type") == 0
    )
    rv.Connect(n[0], n[1], syn_spec="into_second")
    with pytest.raises(rv.BadParameterError, match="got receptor_type = 0"):
        rv.Connect(n[0], n[1])
    rv.Connect(n[0], n[1], syn_spec={"synapse_model": "into_second", "receptor_type": 1})
    assert len(rv.GetConnections()) == 2


def drawn_ports(threads):
    """A network whose connections take receptor_type uniform_int(3) + 1 (NEST's
    brunel_exp_multisynapse): each connection's port as GetConnections lists it, and the
    currents of one spike from a generator into each neuron at its drawn port."""
    rv.ResetKernel()
    rv.local_num_threads = threads
    n = rv.Create("iaf_psc_exp_multisynapse", 60, params={"tau_syn": [1.0, 2.0, 3.0]})
    sg = rv.Create("spike_generator", params={"spike_times": [1.0]})
    drawn = {"receptor_type": rv.random.uniform_int(3) + 1}
    rv.Connect(n, n, {"rule": "fixed_indegree", "indegree": 30}, drawn)
    rv.Connect(sg, n, syn_spec={**drawn, "weight": 100.0})
    mm = rv.Create("multimeter", params={"record_from": ["I_syn_1", "I_syn_2", "I_syn_3"], "interval": 1.0})
    rv.Connect(mm, n)
    rv.Simulate(4.0)
    among = rv.GetConnections(n, n)
    from_generator = rv.GetConnections(sg, n)
    order = np.argsort(from_generator.target)
    return among.source, among.target, among.receptor, np.asarray(from_generator.receptor)[order], mm.events


def test_a_drawn_receptor_type_spreads_connections_over_the_ports_alike_for_any_thread_count():
    one, two = drawn_ports(1), drawn_ports(2)
    for a, b in zip(one[:4], two[:4]):
        np.testing.assert_array_equal(a, b)
    counts = np.bincount(one[2])
    assert counts[0] == 0 and len(counts) == 4  # ports 1..3 only
    assert stats.chisquare(counts[1:]).pvalue > 1e-4
    # the generator's spike arrives (at 2 ms) where GetConnections says, in every neuron
    events = one[4]
    at = events["times"] == 3.0
    senders = events["senders"][at]
    currents = np.stack([events[f"I_syn_{p}"][at][np.argsort(senders)] for p in (1, 2, 3)], axis=1)
    hit = np.zeros_like(currents, dtype=bool)
    hit[np.arange(60), one[3] - 1] = True
    assert (currents[hit] > 0).all() and (currents[~hit] == 0).all()


def test_a_receptor_type_draw_must_give_ports():
    rv.ResetKernel()
    n = rv.Create("iaf_psc_exp_multisynapse", 3, params={"tau_syn": [1.0, 2.0, 3.0]})
    with pytest.raises(BadParameterError, match="receptor_type = 4"):  # 1 + 3 could be drawn
        rv.Connect(n, n, syn_spec={"receptor_type": rv.random.uniform_int(4) + 1})
    for bad in (rv.random.uniform(1.0, 3.0), rv.random.uniform_int(3) * 2, rv.random.uniform_int(3) + 0.5):
        with pytest.raises(BadParameterError, match="uniform_int\\(n\\) \\+ k"):
            rv.Connect(n, n, syn_spec={"receptor_type": bad})
    assert rv.GetKernelStatus("num_connections") == 0
