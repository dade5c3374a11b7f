"""Siegert neurons and diffusion connections (NEST's siegert_neuron, diffusion_connection):
against NEST 3.10's rates (tests/fixtures/nest_siegert.json, written by
benchmarks/peers/nest_network_fixtures.py from tests/mpi/siegert_network.py), against the
noise-free limit and NEST's own expected rate at threshold, the same for any threads and
processes, and NEST's errors."""

import json
import math
import pathlib
import sys

import numpy as np
import pytest
from mpi_launch import HAVE_MPI, mpirun
from ranvier.errors import BadParameterError, IllegalConnectionError

import ranvier as rv

sys.path.insert(0, str(pathlib.Path(__file__).parent / "mpi"))
import siegert_network  # noqa: E402

NEST = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nest_siegert.json").read_text())
LIF = {"tau_m": 10.0, "t_ref": 2.0, "theta": 15.0, "V_reset": 0.0}


@pytest.mark.parametrize("case", ["wfr", "no_wfr"])
def test_rates_are_nest_s(case):
    got, ref = siegert_network.run(rv, case == "wfr"), NEST[case]
    assert got["min_delay"] == ref["min_delay"]
    for k, (mine, theirs) in enumerate(zip(got["rates"], ref["rates"], strict=True)):
        # Siegert's integrals by Ranvier's quadrature against GSL's (to 1.5e-8 relative, NEST's request)
        np.testing.assert_allclose(mine, theirs, rtol=1e-11, atol=1e-300, err_msg=f"neuron {k}")
    finals = [r[-1] for r in ref["rates"]]
    assert finals[0] > 20 and finals[1] > 70 and finals[2] == 0.0 and finals[6] > 5  # the cases differ


def test_threads_and_processes_give_identical_rates():
    reference = siegert_network.run(rv, True)
    assert siegert_network.run(rv, True, threads=3) == reference
    if HAVE_MPI:
        assert json.loads(mpirun(2, "siegert_network.py", True, 2)) == reference


def stationary_rate(mu, sigma2, tau_syn=0.0):
    rv.ResetKernel()
    drive = rv.Create("siegert_neuron", params={"mean": 1.0, "rate": 1.0})
    target = rv.Create("siegert_neuron", params={**LIF, "tau_syn": tau_syn})
    rv.Connect(
        drive,
        target,
        syn_spec={"synapse_model": "diffusion_connection", "drift_factor": mu, "diffusion_factor": sigma2},
    )
    rv.Simulate(30.0)  # tau 1 ms: at its fixed point to double precision
    return target.rate


def test_rates_at_nest_s_limits():
    """NEST's test_siegert_neuron: 27.1095934379 /s with the mean at threshold (sigma^2 = 1.5),
    and the noise-free limit 1e3 / (t_ref + tau_m ln((mu - V_reset) / (mu - theta))) above
    threshold, 0 below."""
    assert stationary_rate(15.0, 1.5) == pytest.approx(27.1095934379, rel=1e-10)
    sigma2 = (1e-3 * 15.0) ** 2
    assert stationary_rate(22.5, sigma2) == pytest.approx(1e3 / (2.0 + 10.0 * math.log(22.5 / 7.5)), rel=1e-5)
    assert stationary_rate(13.5, sigma2) == 0.0


def test_synaptic_filtering_shifts_the_threshold_up():
    assert stationary_rate(12.0, 6.0, tau_syn=0.5) < stationary_rate(12.0, 6.0)


def test_connections_and_parameters_follow_nest_s_rules():
    siegert, rate = rv.Create("siegert_neuron"), rv.Create("lin_rate_ipn")
    for key in ("weight", "delay"):
        with pytest.raises(BadParameterError, match=f"diffusion_connection connection has no {key}"):
            rv.Connect(siegert, siegert, syn_spec={"synapse_model": "diffusion_connection", key: 2.0})
    with pytest.raises(IllegalConnectionError, match="does not support diffusion"):
        rv.Connect(siegert, rate, syn_spec={"synapse_model": "diffusion_connection"})
    with pytest.raises(IllegalConnectionError, match="does not support rate"):
        rv.Connect(siegert, siegert, syn_spec={"synapse_model": "rate_connection_instantaneous"})
    rv.Connect(siegert, siegert, syn_spec={"synapse_model": "diffusion_connection", "drift_factor": 2.0})
    assert rv.GetConnections().get(["drift_factor", "diffusion_factor"]) == {
        "drift_factor": 2.0,
        "diffusion_factor": 1.0,
    }
    for name, value in (("V_reset", 20.0), ("tau", 0.0), ("tau_m", -1.0), ("tau_syn", -1.0), ("t_ref", -1.0)):
        with pytest.raises(BadParameterError, match=f"{name} = "):
            rv.Create("siegert_neuron", params={name: value})
