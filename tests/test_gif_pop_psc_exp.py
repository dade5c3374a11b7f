"""NEST's gif_pop_psc_exp: its membrane, synaptic currents and adaptation to the last bit against
NEST 3.10 where nothing is drawn (tests/fixtures/nest_gif_pop_psc_exp.json, written by
benchmarks/peers/nest_scenario_fixtures.py on tests/gif_pop_psc_exp_scenario.py), on one thread
and on two; the population's rate and its variance where spikes are drawn (NEST's own test's
values, binomial and Poisson draws); a step's spikes sent as that many spikes; NEST's checks.
tests/mpi/networks.py runs populations across processes."""

import json
import pathlib

import numpy as np
import pytest
from gif_pop_psc_exp_scenario import RECORDABLES, run
from scenario_recording import assert_like_nest, by_sender

import ranvier as rv

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_gif_pop_psc_exp.json").read_text())
KEYS = ["senders", "times"] + RECORDABLES


@pytest.mark.parametrize("threads", [1, 2])
def test_what_follows_from_the_input_is_nests(threads):
    got = run(rv, threads)
    assert_like_nest(got, FIXTURE, KEYS)
    e_sfa = by_sender(got, "senders", "E_sfa")[1]
    assert np.ptp(e_sfa) > 0.05  # the initial history's adaptation arrived
    assert got["len_kernel"] == FIXTURE["len_kernel"] == [1000.0, 600.0]  # chosen automatically, and given


@pytest.mark.parametrize("binomial", [True, False])
def test_an_inhibitory_population_fires_at_nests_rate(binomial):
    """NEST's test_gif_pop_psc_exp: 500 neurons inhibiting themselves fire at 22 +- 1 spks/s with
    a variance of the rate of 102 +- 6 (spks/s)^2 (binomial draws; Poisson draws give the same
    mean); the spike recorder sees each step's spikes as that many spikes."""
    rv.ResetKernel()
    rv.resolution = 0.5
    params = {"N": 500, "V_T_star": 10.0, "I_e": 500.0, "tau_syn_in": 2.0, "tau_sfa": [500.0], "q_sfa": [1.0]}
    node = rv.Create("gif_pop_psc_exp", params={**params, "BinoRand": binomial})
    rv.Connect(node, node, syn_spec={"delay": 1.0, "weight": -6.25})
    vm = rv.Create("voltmeter", params={"record_from": ["n_events"], "interval": 0.5})
    rv.Connect(vm, node)
    sr = rv.Create("spike_recorder")
    rv.Connect(node, sr)
    rv.Simulate(10000.0)
    n = vm.events["n_events"]
    # each step's spikes as that many spikes at the step's time (the voltmeter's last samples lag)
    np.testing.assert_array_equal(np.unique(sr.events["times"], return_counts=True)[1][: len(n) // 2],
                                  n[n > 0][: len(n) // 2])  # fmt: skip
    late = n[2000:]
    rate = late.mean() / 500 / 0.5 * 1000.0
    assert abs(rate - 22.0) <= 1.0
    if binomial:
        assert abs(late.var() / 500 / 0.5 * 1000.0 / 500 / 0.5 * 1000.0 - 102.0) <= 6.0


def test_nests_checks():
    rv.ResetKernel()
    pop = rv.Create("gif_pop_psc_exp")
    for params, name in (({"N": 0}, "N = 0"), ({"N": 2.5}, "N = 2.5"), ({"Delta_V": 0.0}, "Delta_V = 0"),
                         ({"tau_sfa": [10.0, 20.0]}, "q_sfa"), ({"tau_sfa": [-1.0]}, "tau_sfa"),
                         ({"lambda_0": -1.0}, "lambda_0 = -1"), ({"tau_syn_in": 0.0}, "tau_syn_in = 0")):  # fmt: skip
        with pytest.raises(rv.BadParameterError, match=name):
            pop.set(params)
    assert pop.get("N") == 100
    pop.set(tau_sfa=[10.0, 20.0], q_sfa=[1.0, 2.0])
    rv.Simulate(5.0)
    assert pop.get("len_kernel") > 1  # written back as NEST does
