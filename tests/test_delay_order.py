"""Runs ordered by delay (synapses/run_order.hpp): where delays are drawn per synapse, each
source's connections are kept by delay and target, with multapses together in creation order.
GetConnections still lists them by (source, target) with multapses in creation order,
SynapseCollection.set and Disconnect name the same connections, and spikes do not depend on
the number of threads."""

import numpy as np
import pytest

import ranvier as rv


def network(threads):
    """Each pair connected twice: first with a drawn delay of 2-6 ms, then with 1 ms, so each
    multapse's second connection has the shorter delay."""
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": threads, "rng_seed": 7})
    pre = rv.Create("iaf_psc_alpha", 4, params={"I_e": 500.0})
    post = rv.Create("iaf_psc_alpha", 6)
    rv.Connect(
        pre, post, "all_to_all", {"weight": rv.random.uniform(50.0, 150.0), "delay": rv.random.uniform(2.0, 6.0)}
    )
    rv.Connect(pre, post, "all_to_all", {"weight": 200.0, "delay": 1.0})
    return pre, post


@pytest.mark.parametrize("threads", [1, 3])
def test_get_connections_lists_multapses_in_creation_order(threads):
    pre, post = network(threads)
    conns = rv.GetConnections(pre, post)
    pairs = list(zip(conns.source, conns.target))
    assert pairs == sorted(pairs) and len(pairs) == 2 * len(pre) * len(post)
    delay, weight = np.asarray(conns.delay), np.asarray(conns.weight)
    assert np.all(delay[0::2] >= 2.0) and np.all(delay[1::2] == 1.0)
    assert np.all(weight[1::2] == 200.0)


@pytest.mark.parametrize("threads", [1, 3])
def test_set_and_disconnect_name_the_same_multapse(threads):
    pre, post = network(threads)
    conns = rv.GetConnections(pre, post)
    delay, weight = np.asarray(conns.delay), np.asarray(conns.weight)
    later = conns[np.flatnonzero(delay == 1.0)]  # each pair's second connection
    later.set(weight=7.0)
    after = rv.GetConnections(pre, post)
    after_delay, after_weight = np.asarray(after.delay), np.asarray(after.weight)
    np.testing.assert_array_equal(after_weight[after_delay == 1.0], 7.0)
    np.testing.assert_array_equal(after_weight[after_delay != 1.0], weight[delay != 1.0])
    later.disconnect()
    left = rv.GetConnections(pre, post)
    assert len(left) == len(pre) * len(post) and min(left.delay) >= 2.0
    np.testing.assert_array_equal(left.weight, weight[delay != 1.0])


def membrane_potentials(threads):
    pre, post = network(threads)
    mm = rv.Create("multimeter", params={"record_from": ["V_m"], "interval": 0.1})
    rv.Connect(mm, post)
    rv.Simulate(100.0)
    e = mm.events
    order = np.lexsort([e["senders"], e["times"]])
    return e["V_m"][order]


def test_delivery_is_the_same_for_any_threads():
    one = membrane_potentials(1)
    assert np.ptp(one) > 1.0  # the input arrives
    for threads in (2, 3):
        np.testing.assert_array_equal(membrane_potentials(threads), one)
