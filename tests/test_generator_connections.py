"""SynapseCollection.set and Disconnect on the connections of stimulating devices (they use
static_synapse, as in NEST): a changed weight acts as if the connection had been made with it,
a removed connection as if it had never been made (NEST's sudoku example sets its input weights
this way)."""

import numpy as np
import pytest
from ranvier.errors import BadParameterError, UnknownParameterError

import ranvier as nest


def run(weight, disconnect_first=False, set_after=None):
    """V_m after 50 ms of two neurons driven by a poisson_generator (connected with `weight`, or
    with 0 and then set to `set_after`) and a dc_generator (its connection to the first neuron
    removed if `disconnect_first`)."""
    nest.ResetKernel()
    nest.local_num_threads = 2
    n = nest.Create("iaf_psc_exp", 2)
    pg = nest.Create("poisson_generator", params={"rate": 3000.0})
    dc = nest.Create("dc_generator", params={"amplitude": 200.0})
    nest.Connect(pg, n, "all_to_all", {"weight": 0.0 if set_after is not None else weight})
    nest.Connect(dc, n)
    if set_after is not None:
        nest.GetConnections(pg).set(weight=set_after)
    if disconnect_first:
        nest.Disconnect(nest.GetConnections(dc, n[0]))
    nest.Simulate(50.0)
    return np.array(n.get("V_m"))


def test_set_weights_act_as_if_connected_with_them():
    direct = run(25.0)
    assert np.array_equal(run(None, set_after=25.0), direct)
    assert not np.array_equal(run(0.0), direct)  # the weight matters


def test_set_lists_one_weight_per_connection_and_get_reads_them():
    n = nest.Create("iaf_psc_exp", 3)
    pg = nest.Create("poisson_generator")
    nest.Connect(pg, n, "all_to_all", {"weight": 1.0})
    nest.Connect(pg, n[1], syn_spec={"weight": 2.0})  # a multapse: named by creation order
    conns = nest.GetConnections(pg)
    assert list(conns.get("weight")) == [1.0, 1.0, 2.0, 1.0]
    conns.set(weight=[5.0, 6.0, 7.0, 8.0])
    assert list(nest.GetConnections(pg).get("weight")) == [5.0, 6.0, 7.0, 8.0]


def test_disconnect_acts_as_if_never_connected():
    kept = run(10.0, disconnect_first=True)
    nest.ResetKernel()
    nest.local_num_threads = 2
    n = nest.Create("iaf_psc_exp", 2)
    pg = nest.Create("poisson_generator", params={"rate": 3000.0})
    dc = nest.Create("dc_generator", params={"amplitude": 200.0})
    nest.Connect(pg, n, "all_to_all", {"weight": 10.0})
    nest.Connect(dc, n[1])
    nest.Simulate(50.0)
    assert np.array_equal(kept, np.array(n.get("V_m")))


def test_disconnect_removes_the_listed_connection_only():
    n = nest.Create("iaf_psc_exp", 2)
    dc = nest.Create("dc_generator")
    nest.Connect(dc, n)
    nest.Disconnect(nest.GetConnections(dc, n[0]))
    conns = nest.GetConnections(dc)
    assert conns.target == n[1].global_id


def test_bad_values_leave_every_weight_as_it_was():
    n = nest.Create("iaf_psc_exp", 2)
    pg = nest.Create("poisson_generator")
    nest.Connect(pg, n, "all_to_all", {"weight": 1.0})
    conns = nest.GetConnections(pg)
    with pytest.raises(BadParameterError, match="weight"):
        conns.set(weight=[3.0, float("nan")])
    assert list(nest.GetConnections(pg).get("weight")) == [1.0, 1.0]
    with pytest.raises(UnknownParameterError, match="U"):
        conns.set(U=0.5)


@pytest.mark.parametrize("generator", ["poisson_generator", "dc_generator", "spike_generator"])
def test_a_device_keeps_to_one_synapse_model_as_in_nest(generator):
    """NEST 3.10, run: "All outgoing connections from a device must use the same synapse type"
    (IllegalConnection), also for a copy of static_synapse; the same model again is fine."""
    nest.ResetKernel()
    stim, cells = nest.Create(generator), nest.Create("iaf_psc_alpha", 2)
    nest.CopyModel("static_synapse", "my_static")
    nest.Connect(stim, cells[0], syn_spec="my_static")
    nest.Connect(stim, cells[1], syn_spec="my_static")
    with pytest.raises(
        BadParameterError, match="one synapse model: node 1 connects with my_static, not static_synapse"
    ):
        nest.Connect(stim, cells, syn_spec="static_synapse")
    assert list(nest.GetConnections(stim).synapse_model) == ["my_static", "my_static"]
