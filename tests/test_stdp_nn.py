"""The nearest-neighbour STDP synapses against NEST 3.10's weights (tests/fixtures/nest_stdp_nn.json,
written by benchmarks/peers/nest_network_fixtures.py from tests/stdp_nn_network.py), the same for
any threads."""

import json
import pathlib

import numpy as np
import pytest
from ranvier.errors import BadParameterError
from stdp_nn_network import MODELS, run

import ranvier as rv

NEST = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_stdp_nn.json").read_text())


def test_weights_are_nest_s():
    got = run(rv)
    assert set(got) == set(NEST)
    for key, weights in NEST.items():
        # the same arithmetic on the same steps; K- from Ranvier's decay tables (the last bits)
        np.testing.assert_allclose(got[key], weights, rtol=1e-14, atol=0, err_msg=key)
    # the pairing schemes differ from each other and from all-to-all pairing
    finals = {m: NEST[f"{m}/0.0"][-1] for m in MODELS}
    assert len({tuple(v) for v in finals.values()}) == len(MODELS)


def test_threads_give_identical_weights():
    assert run(rv, threads=2) == run(rv)


@pytest.mark.parametrize("model", MODELS[:3])
def test_parameters_are_checked(model):
    pre, post = rv.Create("parrot_neuron"), rv.Create("parrot_neuron")
    for spec in ({"weight": 1.0, "Wmax": -5.0}, {"tau_plus": 0.0}):
        with pytest.raises(BadParameterError, match="|".join(spec)):
            rv.Connect(pre, post, syn_spec={"synapse_model": model, **spec})
    assert ("Kplus" in rv.GetDefaults(model)) == (model == "stdp_nn_pre_centered_synapse")
