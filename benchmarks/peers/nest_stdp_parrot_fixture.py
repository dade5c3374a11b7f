"""Writes tests/fixtures/nest_stdp_parrot.json: the weight of NEST 3.10's stdp_synapse between
two parrot neurons after a pre-post protocol, with the synapse at receptor_type 0 (the post
parrot repeats its spikes) and 1 (it ignores them). tests/test_synapse_collection_reads.py
reads the weights through a SynapseCollection taken before Simulate, as NEST's suite does.

    /work/peers-nest/bin/python benchmarks/peers/nest_stdp_parrot_fixture.py
"""

import json
import os

import nest

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "nest_stdp_parrot.json")
PRE, POST = [100.0, 200.0], [102.0, 202.0]


def weight(receptor):
    nest.ResetKernel()
    pre_spikes = nest.Create("spike_generator", params={"spike_times": PRE})
    post_spikes = nest.Create("spike_generator", params={"spike_times": POST})
    pre, post = nest.Create("parrot_neuron"), nest.Create("parrot_neuron")
    nest.Connect(pre_spikes, pre, syn_spec={"delay": 1.0})
    nest.Connect(post_spikes, post, syn_spec={"delay": 1.0})
    nest.Connect(pre, post, "one_to_one", {"synapse_model": "stdp_synapse", "receptor_type": receptor})
    synapse = nest.GetConnections(source=pre, synapse_model="stdp_synapse")
    nest.Simulate(204.0)
    return synapse.weight


if __name__ == "__main__":
    with open(FIXTURE, "w") as f:
        json.dump({"pre": PRE, "post": POST, "weights": {str(r): weight(r) for r in (0, 1)}}, f, indent=1)
    print("wrote", FIXTURE)
