"""e-prop (NEST 3.10's eprop_iaf family, eprop_readout, eprop_synapse with its optimizers,
eprop_learning_signal_connection, flush events, and the _bsshslm_2020 models of the original
e-prop): a network of each recurrent model against NEST
3.10 (tests/fixtures/nest_eprop.json, written by benchmarks/peers/nest_network_fixtures.py from
tests/mpi/eprop_network.py), the optimizers against their formulas, the same for any threads and
processes, and NEST's errors."""

import json
import math
import pathlib
import sys

import numpy as np
import pytest
from mpi_launch import HAVE_MPI, mpirun
from ranvier.errors import BadParameterError, IllegalConnectionError, UnknownParameterError

import ranvier as rv

sys.path.insert(0, str(pathlib.Path(__file__).parent / "mpi"))
import eprop_network  # noqa: E402

NEST = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_eprop.json").read_text())


@pytest.fixture(autouse=True)
def fresh_kernel():
    rv.ResetKernel()
    yield
    rv.ResetKernel()


@pytest.mark.parametrize("case", list(eprop_network.CASES))
def test_learning_is_nest_s(case):
    got, ref = eprop_network.run(rv, case), NEST[case]
    assert got.keys() == ref.keys()
    assert got["spikes.senders"] == ref["spikes.senders"] and got["spikes.times"] == ref["spikes.times"]
    assert got["history.eprop_history_duration"] == ref["history.eprop_history_duration"]
    for key in ("weights.senders", "weights.targets", "weights.times"):
        assert got[key] == ref[key], key
    # NEST sums a step's input spikes in delivery order, Ranvier by sign: last bits may differ
    for key in ("weights.weights", "readouts.readout_signal", "readouts.error_signal"):
        np.testing.assert_allclose(got[key], ref[key], rtol=1e-12, atol=1e-14, err_msg=key)


@pytest.mark.parametrize("case", ["delta_adapt_adam", "bsshslm_adam"])
def test_threads_give_identical_learning(case):
    reference = eprop_network.run(rv, case)
    assert eprop_network.run(rv, case, 2) == reference


@pytest.mark.skipif(not HAVE_MPI, reason="needs MPI")
@pytest.mark.parametrize("case, partitions", [("iaf_adam", ((2, 1), (3, 2))), ("bsshslm_adam", ((2, 2),))])
def test_processes_give_identical_learning(case, partitions):
    reference = eprop_network.run(rv, case)
    for n, threads in partitions:
        assert json.loads(mpirun(n, "eprop_network.py", case, threads)) == reference


def _one_synapse(optimizer, spikes, weight=0.5, model="eprop_iaf", target_params=None):
    """A parrot's spikes at `spikes` onto one neuron through an eprop_synapse; the weights it
    transmitted."""
    rv.SetKernelStatus({"resolution": 1.0})
    generator = rv.Create("spike_generator", params={"spike_times": spikes})
    parrot = rv.Create("parrot_neuron")
    target = rv.Create(model, params=target_params or {})
    wr = rv.Create("weight_recorder")
    rv.SetDefaults("eprop_synapse", {"optimizer": optimizer, "weight_recorder": wr})
    rv.Connect(generator, parrot)
    rv.Connect(parrot, target, syn_spec={"synapse_model": "eprop_synapse", "delay": 1.0, "weight": weight})
    return target, wr


def test_without_learning_signal_only_regularization_moves_the_weight():
    """No readout: the gradient is c_reg (f_av - f_target) e_bar_reg; with c_reg = 0 the weight stays."""
    _, wr = _one_synapse({"type": "gradient_descent", "eta": 0.1}, [2.0, 5.0, 9.0], target_params={"c_reg": 0.0})
    rv.Simulate(12.0)
    assert list(wr.events["weights"]) == [0.5, 0.5, 0.5]


def test_adam_steps_through_every_batch_since_its_last():
    """Optimizing at a spike only (optimize_each_step False), Adam makes one step per batch
    since the last: the first with the spike's gradient g, the others with none. Where |g| >>
    epsilon, step k moves the weight by eta sqrt(1 - b2^k) / (1 - b1^k) m_k / sqrt(v_k) with
    m_k = b1^(k-1) (1 - b1) g and v_k = b2^(k-1) (1 - b2) g^2, in the direction of -g."""
    params = {"c_reg": 1e9, "f_target": 50.0, "V_th": -69.9, "surrogate_gradient_width": 5.0}
    _, wr = _one_synapse({"type": "adam", "eta": 0.01, "optimize_each_step": False}, [2.0, 4.0], target_params=params)
    rv.Simulate(6.0)
    first, second = wr.events["weights"]
    batches = int(wr.events["times"][1]) - 1  # the batches from the first to the spike's
    b1, b2 = 0.9, 0.999
    moved = sum(
        math.sqrt(1 - b2**k) / (1 - b1**k) * b1 ** (k - 1) * (1 - b1) / math.sqrt(b2 ** (k - 1) * (1 - b2))
        for k in range(1, batches + 1)
    )
    assert first == 0.5 and batches > 1
    assert math.isclose(abs(second - first), 0.01 * moved, rel_tol=1e-6)


def test_weights_are_clipped_to_the_optimizer_s_bounds():
    params = {"c_reg": 1e6, "f_target": 50.0, "V_th": -69.9, "surrogate_gradient_width": 5.0}
    _, wr = _one_synapse(
        {"type": "gradient_descent", "eta": 10.0, "Wmin": 0.2, "Wmax": 0.8}, [2.0, 4.0, 6.0], target_params=params
    )
    rv.Simulate(8.0)
    assert all(0.2 <= w <= 0.8 for w in wr.events["weights"])
    assert wr.events["weights"][-1] in (0.2, 0.8)


def test_optimizer_is_nest_s_dictionary():
    defaults = rv.GetDefaults("eprop_synapse")["optimizer"]
    assert defaults == {
        "optimizer": "gradient_descent",
        "batch_size": 1,
        "eta": 1e-4,
        "Wmin": -100.0,
        "Wmax": 100.0,
        "optimize_each_step": True,
    }
    rv.SetDefaults("eprop_synapse", {"optimizer": {"type": "adam", "beta_1": 0.8}})
    adam = rv.GetDefaults("eprop_synapse")["optimizer"]
    assert adam["optimizer"] == "adam" and adam["beta_1"] == 0.8 and adam["beta_2"] == 0.999 and adam["epsilon"] == 1e-7


def test_the_optimizer_cannot_change_once_connected():
    _one_synapse({"type": "gradient_descent"}, [2.0])
    with pytest.raises(BadParameterError, match="cannot be changed"):
        rv.SetDefaults("eprop_synapse", {"optimizer": {"type": "adam"}})
    rv.SetDefaults("eprop_synapse", {"optimizer": {"eta": 1e-3}})  # its settings can


@pytest.mark.parametrize(
    "optimizer, error",
    [
        ({"type": "sgd"}, BadParameterError),
        ({"batch_size": 0}, BadParameterError),
        ({"eta": -1.0}, BadParameterError),
        ({"type": "adam", "beta_1": 1.0}, BadParameterError),
        ({"beta_1": 0.5}, UnknownParameterError),  # gradient descent has none
        ({"Wmin": 2.0, "Wmax": 1.0}, BadParameterError),
    ],
)
def test_bad_optimizer_settings_are_refused(optimizer, error):
    before = rv.GetDefaults("eprop_synapse")["optimizer"]
    with pytest.raises(error):
        rv.SetDefaults("eprop_synapse", {"optimizer": optimizer})
    assert rv.GetDefaults("eprop_synapse")["optimizer"] == before


def test_eprop_synapses_need_eprop_targets_and_one_step():
    rv.SetKernelStatus({"resolution": 1.0})
    source = rv.Create("eprop_iaf")
    for target in (rv.Create("iaf_psc_alpha"), rv.Create("spike_recorder")):
        with pytest.raises(IllegalConnectionError, match="e-prop neurons"):
            rv.Connect(source, target, syn_spec={"synapse_model": "eprop_synapse", "delay": 1.0})
    with pytest.raises(IllegalConnectionError, match="one simulation step"):
        rv.Connect(source, rv.Create("eprop_iaf"), syn_spec={"synapse_model": "eprop_synapse", "delay": 2.0})
    with pytest.raises(IllegalConnectionError):  # a recurrent neuron sends no learning signal
        rv.Connect(source, rv.Create("eprop_iaf"), syn_spec={"synapse_model": "eprop_learning_signal_connection"})


def test_surrogate_gradient_function_is_a_name():
    n = rv.Create("eprop_iaf", params={"surrogate_gradient_function": "arctan_derivative"})
    assert n.get("surrogate_gradient_function") == "arctan_derivative"
    assert rv.GetDefaults("eprop_iaf")["surrogate_gradient_function"] == "piecewise_linear"
    with pytest.raises(BadParameterError, match="surrogate_gradient_function"):
        n.set({"surrogate_gradient_function": "unknown"})
    assert n.get("surrogate_gradient_function") == "arctan_derivative"


def test_f_target_is_given_in_hertz_and_shown_per_millisecond():
    n = rv.Create("eprop_iaf", params={"f_target": 20.0})
    assert n.get("f_target") == 0.02


def test_flush_events_reach_no_recorder():
    """NEST's test_flush_event_filtering: a parrot's flush events are not spikes."""
    generator = rv.Create("spike_generator", params={"spike_times": [10.0]})
    parrot = rv.Create("parrot_neuron", params={"flush_event_send_interval": 5.0})
    sr = rv.Create("spike_recorder")
    rv.Connect(generator, parrot)
    rv.Connect(parrot, sr)
    rv.Simulate(30.0)
    assert list(sr.events["times"]) == [11.0]


def test_ignore_and_spike_fires_at_its_offset_and_interval():
    n = rv.Create(
        "eprop_iaf", params={"ignore_and_spike": True, "ignore_and_spike_offset": 3.0, "ignore_and_spike_interval": 5.0}
    )
    sr = rv.Create("spike_recorder")
    rv.Connect(n, sr)
    rv.Simulate(20.0)
    assert list(sr.events["times"]) == [3.0, 8.0, 13.0, 18.0]
