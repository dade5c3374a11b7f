"""aeif_cond_alpha and aeif_cond_exp raise NEST's NumericalInstability when a neuron's state
diverges (NEST 3.10's bounds, checked after every solver step: V_m below -1000 mV, w outside
[-1e6, 1e6] pA), naming the neuron and the value, and the kernel stays usable."""

import pytest

import ranvier as nest

MODELS = ["aeif_cond_alpha", "aeif_cond_exp"]


@pytest.fixture(autouse=True)
def fresh_kernel():
    nest.ResetKernel()
    yield
    nest.ResetKernel()


@pytest.mark.parametrize("model", MODELS)
def test_v_m_below_bound_names_neuron_and_value(model):
    nest.Create(model)
    nest.Create(model, params={"I_e": -1e7})  # drives V_m down by ~36 V/ms
    with pytest.raises(
        nest.NESTErrors.NumericalInstability,
        match=rf"{model} 2: V_m = -\d+(\.\d+)? mV, below -1000 mV, in the step ending at t = 0.1 ms",
    ):
        nest.Simulate(1.0)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("w", [2e6, -2e6])
def test_w_out_of_bounds(model, w):
    nest.Create(model, params={"w": w})  # NEST 3.10 raises here too (w decays only with tau_w)
    with pytest.raises(nest.NumericalInstabilityError, match=r"w = -?\d.* pA, outside \[-1e\+?0?6, 1e\+?0?6\] pA"):
        nest.Simulate(0.3)


@pytest.mark.parametrize("threads", [1, 2])
def test_kernel_usable_after_instability(threads):
    """The other neurons keep a consistent state: after the error, the diverged neuron reset
    and the run continued, a firing neuron's spikes are those of a run without the failure."""

    def network():
        nest.SetKernelStatus({"local_num_threads": threads})
        firing = nest.Create("aeif_cond_alpha", 3, params={"I_e": 800.0})
        bad = nest.Create("aeif_cond_exp", 1)
        recorder = nest.Create("spike_recorder")
        nest.Connect(firing, recorder)
        return firing, bad, recorder

    firing, bad, recorder = network()
    nest.Simulate(20.0)
    bad.set(I_e=-1e7)
    with pytest.raises(nest.NumericalInstabilityError, match=r"aeif_cond_exp 4: V_m"):
        nest.Simulate(20.0)
    stopped = nest.GetKernelStatus("biological_time")
    assert 20.0 < stopped <= 40.0
    bad.set(I_e=0.0, V_m=-70.6, w=0.0, g_ex=0.0, g_in=0.0)
    nest.Simulate(30.0)
    times = sorted(recorder.get("events")["times"])
    assert len(times) >= 6

    nest.ResetKernel()
    firing, bad, recorder = network()
    nest.Simulate(stopped + 30.0)
    assert sorted(recorder.get("events")["times"]) == times
