"""Bad input raises a Ranvier exception naming the parameter and value; the kernel stays usable."""

import math

import numpy as np
import pytest

import ranvier as rv
from ranvier import (
    BadParameterError,
    KernelStateError,
    RanvierError,
    UnknownModelError,
    UnknownNodeError,
    UnknownParameterError,
)


@pytest.fixture
def net():
    pre = rv.Create("iaf_psc_alpha", 10)
    post = rv.Create("iaf_psc_alpha", 10)
    rv.Connect(pre, post, "one_to_one")
    return pre, post


def still_usable(pre, post, connections=10):
    assert rv.GetKernelStatus("num_connections") == connections
    rv.Simulate(5.0)
    rv.Connect(pre, post, "one_to_one")
    assert rv.GetKernelStatus("num_connections") == connections + 10


CASES = [
    ("unknown model", lambda pre, post: rv.Create("iaf_unknown", 3), UnknownModelError, "iaf_unknown"),
    (
        "unknown synapse model",
        lambda pre, post: rv.Connect(pre, post, "one_to_one", {"synapse_model": "nope"}),
        UnknownModelError,
        "nope",
    ),
    (
        "unknown parameter in Create",
        lambda pre, post: rv.Create("iaf_psc_alpha", 2, {"V_mm": 1.0}),
        UnknownParameterError,
        "V_mm",
    ),
    ("unknown parameter in set", lambda pre, post: pre.set(tau_x=1.0), UnknownParameterError, "tau_x"),
    ("unknown parameter in get", lambda pre, post: pre.get("tau_x"), UnknownParameterError, "tau_x"),
    ("unknown kernel parameter", lambda pre, post: rv.SetKernelStatus({"speed": 3}), UnknownParameterError, "speed"),
    ("unknown rule", lambda pre, post: rv.Connect(pre, post, "some_to_some"), BadParameterError, "some_to_some"),
    (
        "unknown rule parameter",
        lambda pre, post: rv.Connect(pre, post, {"rule": "fixed_indegree", "indegree": 2, "k": 3}),
        UnknownParameterError,
        "k",
    ),
    ("wrong type", lambda pre, post: pre.set(V_m="high"), BadParameterError, "V_m"),
    ("bool as number", lambda pre, post: pre.set(I_e=True), BadParameterError, "I_e"),
    ("wrong shape", lambda pre, post: pre.set(V_m=np.zeros(3)), BadParameterError, "V_m"),
    ("NaN parameter", lambda pre, post: pre.set(V_m=math.nan), BadParameterError, "nan"),
    (
        "NaN weight",
        lambda pre, post: rv.Connect(pre, post, "one_to_one", {"weight": math.nan}),
        BadParameterError,
        "weight",
    ),
    ("value out of range", lambda pre, post: pre.set(C_m=-1.0), BadParameterError, "C_m = -1"),
    ("reset above threshold", lambda pre, post: pre.set(V_reset=-40.0), BadParameterError, "V_reset = -40"),
    (
        "delay below resolution",
        lambda pre, post: rv.Connect(pre, post, "one_to_one", {"delay": 0.04}),
        BadParameterError,
        "delay = 0.04",
    ),
    (
        "random delay below resolution",
        lambda pre, post: rv.Connect(pre, post, "all_to_all", {"delay": rv.random.uniform(0.0, 0.5)}),
        BadParameterError,
        "delay",
    ),
    (
        "negative weight on stdp",
        lambda pre, post: rv.Connect(
            pre, post, "all_to_all", {"synapse_model": "stdp_synapse", "weight": -1.0, "Kplus": 0.0}
        ),
        BadParameterError,
        "weight = -1",
    ),
    (
        "weight array of wrong shape",
        lambda pre, post: rv.Connect(pre, post, "one_to_one", {"weight": np.ones(4)}),
        BadParameterError,
        "(4,)",
    ),
    ("node that does not exist", lambda pre, post: rv.NodeCollection([1, 5000]), UnknownNodeError, "5000"),
    (
        "indegree above sources",
        lambda pre, post: rv.Connect(pre, post, {"rule": "fixed_indegree", "indegree": 11, "allow_multapses": False}),
        BadParameterError,
        "indegree = 11",
    ),
    (
        "outdegree above targets",
        lambda pre, post: rv.Connect(pre, post, {"rule": "fixed_outdegree", "outdegree": 12, "allow_multapses": False}),
        BadParameterError,
        "outdegree = 12",
    ),
    (
        "negative indegree",
        lambda pre, post: rv.Connect(pre, post, {"rule": "fixed_indegree", "indegree": -1}),
        BadParameterError,
        "indegree = -1",
    ),
    (
        "probability above one",
        lambda pre, post: rv.Connect(pre, post, {"rule": "pairwise_bernoulli", "p": 1.5}),
        BadParameterError,
        "p = 1.5",
    ),
    (
        "one_to_one size mismatch",
        lambda pre, post: rv.Connect(pre, post[:3], "one_to_one"),
        BadParameterError,
        "10 and 3",
    ),
    (
        "resolution after nodes",
        lambda pre, post: rv.SetKernelStatus({"resolution": 0.05}),
        KernelStateError,
        "resolution",
    ),
    (
        "threads after nodes",
        lambda pre, post: rv.SetKernelStatus({"local_num_threads": 2}),
        KernelStateError,
        "local_num_threads",
    ),
    ("negative simulation time", lambda pre, post: rv.Simulate(-5.0), BadParameterError, "t = -5"),
    ("simulation time off grid", lambda pre, post: rv.Simulate(1.05), BadParameterError, "t = 1.05"),
    (
        "spike times off grid",
        lambda pre, post: rv.Create("spike_generator", params={"spike_times": [1.25]}),
        BadParameterError,
        "spike_times",
    ),
    (
        "negative rate",
        lambda pre, post: rv.Create("poisson_generator", params={"rate": -3.0}),
        BadParameterError,
        "rate = -3",
    ),
    (
        "recording an unknown variable",
        lambda pre, post: rv.Connect(rv.Create("multimeter", params={"record_from": ["g_ex"]}), pre),
        rv.IllegalConnectionError,  # NEST's IllegalConnection
        "g_ex",
    ),
    (
        "neurons onto a voltmeter",
        lambda pre, post: rv.Connect(pre, rv.Create("voltmeter")),
        BadParameterError,
        "Connect(voltmeter, neurons)",
    ),
    (
        "neurons onto a multimeter",
        lambda pre, post: rv.Connect(pre, rv.Create("multimeter", params={"record_from": ["V_m"]})),
        BadParameterError,
        "Connect(multimeter, neurons)",
    ),
    (
        "neurons onto a generator",
        lambda pre, post: rv.Connect(pre, rv.Create("poisson_generator")),
        BadParameterError,
        "post",
    ),
    ("slice step", lambda pre, post: pre[::-1], rv.BadIndexError, "step = -1"),
    (
        "hom parameter per connection",
        lambda pre, post: rv.Connect(pre, post, "one_to_one", {"synapse_model": "stdp_pl_synapse_hom", "alpha": 2.0}),
        rv.errors.UnsupportedRequestError,  # NEST's NotImplemented
        "alpha",
    ),
]


@pytest.mark.parametrize("name,action,error,text", CASES, ids=[c[0] for c in CASES])
def test_bad_input(net, name, action, error, text):
    pre, post = net
    before = pre.get("V_m")
    with pytest.raises(error) as info:
        action(pre, post)
    assert isinstance(info.value, RanvierError)
    assert text in str(info.value), str(info.value)
    np.testing.assert_array_equal(pre.get("V_m"), before)
    still_usable(pre, post)


def test_failed_set_leaves_every_node_unchanged(net):
    pre, _ = net
    with pytest.raises(BadParameterError):
        pre.set(C_m=np.array([250.0] * 9 + [-1.0]))
    assert pre.get("C_m") == (250.0,) * len(pre)


def test_errors_are_standard_python_exceptions_too():
    assert issubclass(BadParameterError, ValueError)
    assert issubclass(UnknownNodeError, IndexError)
    assert issubclass(KernelStateError, RuntimeError)
    with pytest.raises(ValueError):
        rv.Create("iaf_psc_alpha", 0)


def test_rejected_create_leaves_no_nodes(net):
    with pytest.raises(BadParameterError):
        rv.Create("iaf_psc_alpha", 2, {"C_m": -1.0})
    with pytest.raises(BadParameterError):
        rv.Create("poisson_generator", 2, {"rate": -1.0})
    assert rv.GetKernelStatus("network_size") == 20
    assert rv.Create("iaf_psc_exp", 1).global_id == 21


def test_set_of_several_parameters_is_all_or_nothing(net):
    pre, _ = net
    with pytest.raises(BadParameterError):
        pre.set({"V_m": -60.0, "C_m": -1.0})
    assert pre.get("V_m") == (-70.0,) * len(pre) and pre.get("C_m") == (250.0,) * len(pre)


def test_redraw_that_cannot_succeed_raises_instead_of_hanging(net):
    pre, post = net
    hopeless = rv.math.redraw(rv.random.normal(0.0, 1.0), min=50.0, max=51.0)
    with pytest.raises(BadParameterError, match="redraw"):
        rv.Connect(pre, post, "one_to_one", {"weight": hopeless})
    with pytest.raises(BadParameterError, match="redraw"):
        pre.set(V_m=hopeless)
    still_usable(pre, post)


@pytest.mark.parametrize("n", [2**64, 10**12, 2**32, -3])
def test_too_many_nodes_names_n(net, n):
    with pytest.raises(BadParameterError, match=f"n = {n}"):
        rv.Create("iaf_psc_alpha", n)
    still_usable(*net)


def test_infinite_delay_is_not_called_small(net):
    pre, post = net
    with pytest.raises(BadParameterError, match="finite") as info:
        rv.Connect(pre, post, "one_to_one", {"delay": math.inf})
    assert "resolution" not in str(info.value)
    still_usable(pre, post)


def test_kernel_connects_recorders_of_nodes_only(net):
    pre, post = net
    kernel = rv._state.state.kernel
    vm, wr, dc = rv.Create("voltmeter"), rv.Create("weight_recorder"), rv.Create("dc_generator")
    for node in (wr, dc):
        with pytest.raises(BadParameterError, match=f"node {node.global_id} is not a recorder of nodes"):
            kernel.connect_recorder(node.global_id, pre._gids, 1.0)
    rv.Connect(vm, pre)
    rv.Simulate(5.0)
    assert set(vm.get("events")["senders"]) == set(pre.tolist())
    still_usable(pre, post, connections=10 + len(pre))  # the voltmeter's count, as in NEST


def test_kernel_errors_arrive_as_their_own_classes():
    # raised by the kernel itself, past the Python checks: no message is read to classify them
    kernel = rv._state.state.kernel
    with pytest.raises(UnknownModelError):
        kernel.create_neurons("no_such_model", 1)
    with pytest.raises(UnknownNodeError):
        kernel.get_variable("V_m", np.array([12345], dtype=np.uint32))
    with pytest.raises(BadParameterError):
        kernel.create_neurons("iaf_psc_alpha", 0)


# Integers and times too large for the binding's argument types: each is an error naming the
# parameter and its value, not a TypeError or OverflowError of nanobind's.
TOO_LARGE = [
    (
        "N",
        lambda pre, post: rv.Connect(pre, post, {"rule": "fixed_total_number", "N": 2**63}),
        "N = 9223372036854775808",
    ),
    (
        "indegree",
        lambda pre, post: rv.Connect(pre, post, {"rule": "fixed_indegree", "indegree": 2**63}),
        "indegree = 9223372036854775808",
    ),
    (
        "indegree per target",
        lambda pre, post: rv.Connect(
            pre, post, {"rule": "fixed_indegree", "indegree": np.full(10, 2**63, dtype=np.uint64)}
        ),
        "indegree = 9223372036854775808",
    ),
    (
        "outdegree",
        lambda pre, post: rv.Connect(pre, post, {"rule": "fixed_outdegree", "outdegree": 2**64}),
        "outdegree = 18446744073709551616",
    ),
    (
        "receptor_type",
        lambda pre, post: rv.Connect(pre, post, "one_to_one", {"receptor_type": 2**40}),
        "receptor_type = 1099511627776",
    ),
    ("simulation time", lambda pre, post: rv.Simulate(1e300), "t = 1e+300"),
    ("infinite simulation time", lambda pre, post: rv.Simulate(math.inf), "t = inf"),
    ("huge integer simulation time", lambda pre, post: rv.Simulate(10**400), "t = 1000"),
    (
        "delay beyond the steps a connection holds",
        lambda pre, post: rv.Connect(pre, post, "one_to_one", {"delay": 1e19}),
        "delay = 1e+19",
    ),
    ("delay far beyond", lambda pre, post: rv.Connect(pre, post, "one_to_one", {"delay": 1e300}), "delay = 1e+300"),
]


@pytest.mark.parametrize("name,action,text", TOO_LARGE, ids=[c[0] for c in TOO_LARGE])
def test_too_large_is_named(net, name, action, text):
    pre, post = net
    with pytest.raises(BadParameterError, match="must be") as info:
        action(pre, post)
    assert text in str(info.value), str(info.value)
    assert "resolution" not in str(info.value)  # a huge delay is not called small
    still_usable(pre, post)


def test_simulation_time_is_bounded_by_the_clock(net):
    rv.Simulate(5.0)
    left = rv.GetKernelStatus("T_max") - 5.0
    with pytest.raises(BadParameterError, match=f"at most {left} ms"):
        rv.Simulate(left + 1e6)
    assert rv.GetKernelStatus("biological_time") == 5.0


def test_run_checks_time_with_progress_shown(net):
    rv.SetKernelStatus({"print_time": True})
    with rv.RunManager():
        with pytest.raises(BadParameterError, match="t = inf"):
            rv.Run(math.inf)
        rv.Run(1.0)
    assert rv.GetKernelStatus("biological_time") == 1.0


def test_spatial_degree_too_large_is_named():
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid(shape=[3, 3]))
    spec = {"rule": "fixed_indegree", "indegree": 2**63, "mask": {"circular": {"radius": 1.0}}}
    with pytest.raises(BadParameterError, match="indegree = 9223372036854775808"):
        rv.Connect(layer, layer, spec)


@pytest.mark.parametrize("delay", [math.inf, 1e19, 1e5])
@pytest.mark.parametrize("how", ["SetDefaults", "CopyModel", "stdp SetDefaults"])
def test_synapse_default_delay_is_checked_when_set(net, delay, how):
    # as NEST, a delay no connection can hold is refused when it becomes a default, not at Connect
    with pytest.raises(BadParameterError, match="delay"):
        if how == "SetDefaults":
            rv.SetDefaults("static_synapse", {"delay": delay})
        elif how == "CopyModel":
            rv.CopyModel("static_synapse", "far_synapse", {"delay": delay})
        else:
            rv.SetDefaults("stdp_synapse", {"delay": delay})
    assert rv.GetDefaults("static_synapse", "delay") == 1.0
    assert rv.GetDefaults("stdp_synapse", "delay") == 1.0
    assert "far_synapse" not in rv.synapse_models
    still_usable(*net)
