"""A refractory period that is not a whole number of steps is rounded up to the grid, as NEST
3.10's Time rounds it (0.1 ms at h = 1 ms is one step, 1.4 ms two), for every model with t_ref:
the inter-spike intervals of neurons driven far above threshold equal NEST's
(benchmarks/peers/nest_refractory_fixture.py writes them; rounding to the nearest step, as
Ranvier did before, differs on three of the four t_ref)."""

import json
import os
import sys

import pytest

import ranvier

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "benchmarks", "peers"))
import nest_refractory_fixture  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "fixtures", "nest_refractory.json")) as f:
    NEST = json.load(f)


@pytest.fixture(scope="module")
def ranvier_intervals():
    return nest_refractory_fixture.intervals(ranvier)


@pytest.mark.parametrize("model", sorted(NEST["intervals"]))
def test_refractory_steps_as_nest(model, ranvier_intervals):
    assert ranvier_intervals[model] == NEST["intervals"][model]


def test_a_precise_model_refuses_no_refractoriness():
    ranvier.ResetKernel()
    with pytest.raises(ranvier.BadParameterError, match="t_ref"):
        ranvier.Create("iaf_psc_exp_ps", params={"t_ref": 0.0})
