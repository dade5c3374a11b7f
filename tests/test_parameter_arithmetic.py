"""Arithmetic on parameters (PyNEST 3.10's Parameter operators, nest.math, nest.logic): values
against analytic moments, the same values for any number of threads, clear errors."""

import math

import numpy as np
import pytest
from scipy import stats

import ranvier as nest

N = 40000


def node_values(expression, threads=1, key="I_e"):
    nest.ResetKernel()
    nest.local_num_threads = threads
    nodes = nest.Create("iaf_psc_alpha", N)
    nodes.set({key: expression})
    return np.asarray(nodes.get(key))


def test_affine_normal_folds_into_one_distribution():
    p = 2.0 * nest.random.normal(1.0, 0.5) + 3.0
    assert p.spec()[:3] == ("normal", 5.0, 1.0)
    values = node_values(p)
    assert abs(values.mean() - 5.0) < 4 * 1.0 / math.sqrt(N)
    assert abs(values.std() - 1.0) < 0.02


def test_negative_scale_of_uniform_and_division():
    p = (1.0 - nest.random.uniform(2.0, 4.0)) / 2.0  # uniform on [-1.5, -0.5]
    kind, low, high = p.spec()[:3]
    assert (kind, low, high) == ("uniform", -1.5, -0.5)
    values = node_values(p)
    assert values.min() >= -1.5 and values.max() <= -0.5


def test_redraw_and_clip_map_through_the_affine_transform():
    p = nest.math.redraw(10.0 * nest.random.normal(0.0, 1.0), min=-5.0, max=5.0)
    values = node_values(p)
    assert values.min() >= -5.0 and values.max() < 5.0
    # a normal truncated to +-0.5 std has std sqrt(1 - 2*0.5*phi(0.5)/(2*Phi(0.5)-1)) times the std
    phi, big_phi = math.exp(-0.125) / math.sqrt(2 * math.pi), 0.5 * (1 + math.erf(0.5 / math.sqrt(2)))
    expected = 10.0 * math.sqrt(1 - 2 * 0.5 * phi / (2 * big_phi - 1))
    assert abs(values.std() - expected) < 0.05
    clipped = node_values(nest.math.max(nest.random.normal(0.0, 1.0) * 2.0, 0.0))
    assert clipped.min() == 0.0 and abs((clipped == 0.0).mean() - 0.5) < 0.01


def test_nonlinear_expressions_evaluate_per_node():
    values = node_values(nest.math.exp(nest.random.normal(0.0, 0.5)) * 10.0)
    assert abs(values.mean() - 10.0 * math.exp(0.125)) < 0.05
    values = node_values(nest.math.cos(nest.random.uniform(0.0, math.pi)))
    assert abs(values.mean()) < 0.02 and values.min() >= -1.0 and values.max() <= 1.0
    product = node_values(nest.random.uniform(0.0, 1.0) * nest.random.uniform(0.0, 1.0))
    assert abs(product.mean() - 0.25) < 0.005  # independent draws, not one squared (1/3)


def test_conditional_and_comparisons():
    values = node_values(nest.logic.conditional(nest.random.uniform(0.0, 1.0) < 0.25, 5.0, 10.0))
    assert set(np.unique(values)) == {5.0, 10.0}
    assert abs((values == 5.0).mean() - 0.25) < 0.01


def test_equality_comparisons_are_parameters_as_in_pynest():
    """== and != give parameters of 1.0 and 0.0, as <, <=, >, >= do (NEST's test_parameter_comparison)."""
    one, two = nest.CreateParameter("constant", {"value": 1.0}), nest.CreateParameter("constant", {"value": 2.0})
    assert [(one == two - one).GetValue(), (one != two).GetValue()] == [1.0, 1.0]
    assert [(one == two).GetValue(), (one != two - one).GetValue()] == [0.0, 0.0]
    integers = node_values(nest.logic.conditional(nest.random.uniform_int(4) == 2, 1.0, 0.0))
    assert abs(integers.mean() - 0.25) < 0.01
    layer = nest.Create("iaf_psc_alpha", positions=nest.spatial.free([[0.1, 0.1], [0.5, 0.5]]))
    layer.set(V_m=nest.logic.conditional(nest.spatial.pos.x != 0.5, -60.0, -50.0))
    assert layer.V_m == (-60.0, -50.0)
    assert len({one, two}) == 2  # still hashable


@pytest.mark.parametrize(
    "expression",
    [
        lambda: 2.0 * nest.random.normal(0.0, 1.0) + 1.0,
        lambda: nest.math.exp(nest.random.normal(0.0, 0.3)) - nest.random.uniform(0.0, 1.0),
        lambda: nest.math.redraw(nest.random.uniform(0.0, 1.0) + nest.random.uniform(0.0, 1.0), 0.5, 1.0),
        lambda: nest.random.exponential(3.0),
        lambda: nest.random.uniform_int(7) + nest.random.exponential(0.5),
    ],
)
def test_same_values_for_any_number_of_threads(expression):
    one = node_values(expression(), threads=1)
    assert np.array_equal(one, node_values(expression(), threads=2))
    assert np.array_equal(one, node_values(expression(), threads=3))


def test_connection_parameters_fold():
    nodes = nest.Create("iaf_psc_alpha", 200)
    nest.Connect(
        nodes,
        nodes,
        {"rule": "fixed_indegree", "indegree": 50},
        {
            "weight": -2.0 * nest.math.redraw(nest.random.normal(3.0, 1.0), 2.0, 4.0),
            "delay": nest.random.uniform(1.0, 2.0) / 2.0 + 1.0,
        },
    )
    c = nest.GetConnections()
    assert min(c.weight) > -8.0 and max(c.weight) <= -4.0
    assert min(c.delay) >= 1.5 and max(c.delay) <= 2.0


def test_connection_parameters_that_do_not_fold_are_refused():
    nodes = nest.Create("iaf_psc_alpha", 10)
    with pytest.raises(nest.BadParameterError, match="affine"):
        nest.Connect(nodes, nodes, syn_spec={"weight": nest.math.exp(nest.random.normal(0.0, 1.0))})
    assert nest.num_connections == 0


def test_unreachable_redraw_raises_instead_of_hanging():
    nodes = nest.Create("iaf_psc_alpha", 10)
    p = nest.math.redraw(nest.random.uniform(0.0, 1.0) * nest.random.uniform(0.0, 1.0), 5.0, 6.0)
    with pytest.raises(nest.BadParameterError, match="redraw"):
        nodes.set(I_e=p)


def test_create_parameter():
    assert nest.CreateParameter("normal", {"mean": 1.0, "std": 2.0}).spec()[:3] == ("normal", 1.0, 2.0)
    values = node_values(nest.CreateParameter("constant", {"value": 3.0}) * nest.random.uniform(0.0, 1.0))
    assert values.max() <= 3.0 and values.mean() > 1.4
    with pytest.raises(nest.BadParameterError, match="parametertype"):
        nest.CreateParameter("gamma", {})
    with pytest.raises(nest.BadParameterError, match="normal"):
        nest.CreateParameter("normal", {"sigma": 1.0})


def test_get_value_draws_anew_at_each_call():
    """PyNEST's Parameter.GetValue (wang_decision_making.py draws rates with it)."""
    p = nest.CreateParameter("normal", {"mean": 5.0, "std": 2.0})
    values = np.array([p.GetValue() for _ in range(4000)])
    assert len(set(values.tolist())) == 4000
    assert abs(values.mean() - 5.0) < 5 * 2.0 / np.sqrt(4000) and abs(values.std() - 2.0) < 0.1
    assert (3.0 * nest.CreateParameter("constant", {"value": 2.0}) + 1.0).GetValue() == 7.0


def test_exponential_has_nests_scale_beta():
    """beta * E, E standard exponential: mean beta, variance beta**2."""
    values = node_values(nest.random.exponential(beta=2.0))
    assert values.min() >= 0.0
    assert abs(values.mean() - 2.0) < 5 * 2.0 / math.sqrt(N)
    assert abs(values.var() - 4.0) < 5 * math.sqrt(8 * 2.0**4 / N)  # var of the sample variance: (mu4 - beta^4) / N
    assert stats.kstest(values, "expon", args=(0.0, 2.0)).pvalue > 1e-4
    assert (-3.0 * nest.random.exponential(2.0)).spec()[:2] == ("exponential", -6.0)  # folds
    assert nest.CreateParameter("exponential", {"beta": 0.5}).spec()[:2] == ("exponential", 0.5)
    assert nest.random.exponential().spec()[:2] == ("exponential", 1.0)


def test_uniform_int_draws_0_to_max_minus_1_alike():
    values = node_values(nest.random.uniform_int(5))
    assert set(np.unique(values).tolist()) == {0.0, 1.0, 2.0, 3.0, 4.0}
    assert abs(values.mean() - 2.0) < 5 * math.sqrt(2.0 / N)  # variance (5^2 - 1) / 12 = 2
    assert stats.chisquare(np.bincount(values.astype(int))).pvalue > 1e-4
    assert nest.CreateParameter("uniform_int", {"max": 3}).spec()[:2] == ("uniform_int", 3.0)
    shifted = node_values(nest.random.uniform_int(5) + 2)  # NEST's receptor_type draws: n, offset
    assert set(np.unique(shifted).tolist()) == {2.0, 3.0, 4.0, 5.0, 6.0}
    assert (nest.random.uniform_int(5) + 2).spec()[:3] == ("uniform_int", 5.0, 2.0)
    for bad in (0, -2, 2.5, True, 2**60):
        with pytest.raises(nest.BadParameterError, match=f"max = {bad!r}"):
            nest.random.uniform_int(bad)
    with pytest.raises(nest.BadParameterError, match="beta"):
        nest.random.exponential("1")


def test_exponential_and_uniform_int_connection_values_are_the_same_for_any_number_of_threads():
    drawn = []
    for threads in (1, 2):
        nest.ResetKernel()
        nest.local_num_threads = threads
        nodes = nest.Create("iaf_psc_alpha", 100)
        nest.Connect(
            nodes, nodes, {"rule": "fixed_indegree", "indegree": 40}, {"weight": -2.0 * nest.random.exponential(1.5)}
        )
        nest.Connect(
            nodes, nodes, "one_to_one", {"weight": nest.random.uniform_int(3), "synapse_model": "stdp_synapse"}
        )
        c = nest.GetConnections()
        drawn.append((c.source, c.target, c.weight))
    for a, b in zip(*drawn):
        np.testing.assert_array_equal(a, b)
    weights = np.asarray(nest.GetConnections(synapse_model="static_synapse").weight)
    assert weights.max() <= 0.0 and abs(weights.mean() + 3.0) < 5 * 3.0 / math.sqrt(len(weights))
    assert set(nest.GetConnections(synapse_model="stdp_synapse").weight) == {0.0, 1.0, 2.0}


def test_max_and_min_of_a_constant_are_constants():
    five = nest.CreateParameter("constant", {"value": 5.0})
    assert nest.math.max(five, 7.0).GetValue() == 7.0 and nest.math.max(five, 2.0).GetValue() == 5.0
    assert nest.math.min(five, 2.0).GetValue() == 2.0 and nest.math.min(five, 7.0).GetValue() == 5.0


def test_create_parameter_distance_is_the_spatial_distance():
    """PyNEST's CreateParameter("distance", {}) (NEST's test_weight_delay builds 1 - 0.02 d with it)."""
    assert nest.CreateParameter("distance", {}) is nest.spatial.distance
    with pytest.raises(nest.BadParameterError, match=r"distance has no parameters \['x'\]"):
        nest.CreateParameter("distance", {"x": 1})
