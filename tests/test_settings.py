"""Kernel settings are declared once, in the kernel (kernel/settings.hpp): Python's checks,
GetKernelStatus's values and the docs' table all follow the declarations."""

import pathlib

import numpy as np
import pytest
from ranvier.kernel_settings import settings_table

import ranvier as rv
from ranvier import _state

DECLARED = _state.SETTING_DECLARATIONS
GUIDE = pathlib.Path(__file__).parent.parent / "docs" / "user_guide.md"


def test_the_guide_shows_the_declared_settings():
    assert settings_table() in GUIDE.read_text(), (
        "docs/user_guide.md's settings table differs from the kernel's declarations; write it anew with "
        'python -c "import ranvier.kernel_settings as k; print(k.settings_table())"'
    )


# min_delay and max_delay (default 0: the connections' own) show NEST's delay extrema: those of
# the connections so far, the resolution before any.
SHOWN = {"min_delay": 0.1, "max_delay": 0.1}


def test_status_shows_every_default():
    status = rv.GetKernelStatus()
    for name, d in DECLARED.items():
        assert status[name] == SHOWN.get(name, d["default"]), name
    assert status["spike_exchange"] == "auto" and status["local_num_threads"] == 1


def bad_values(d):
    if d["type"] == "integer":
        low, high = d["range"]
        return [int(low) - 1, int(high) + 1, True, 1.5, "1"]
    if d["type"] == "real":
        return [-1.0, float("nan"), True, "0.1"] + ([0.0] if d["range"][0] > 0 else [])
    if d["type"] == "boolean":
        return [1, 0.0, "yes"]
    return [3, "no such " + d["choices"][0]]


@pytest.mark.parametrize("name", DECLARED)
def test_a_value_outside_the_declaration_names_setting_and_value(name):
    for value in bad_values(DECLARED[name]):
        with pytest.raises(rv.BadParameterError, match=f"{name} must be .*got {name} = "):
            rv.SetKernelStatus({name: value})
        assert rv.GetKernelStatus(name) == SHOWN.get(name, DECLARED[name]["default"])  # nothing changed


@pytest.mark.parametrize("name", [n for n, d in DECLARED.items() if d["type"] == "integer"])
def test_numpy_integers_are_integers(name):
    low = int(DECLARED[name]["range"][0])
    value = low if name != "local_num_threads" else 2
    if name == "tics_per_ms":
        rv.SetKernelStatus({name: np.int64(value), "resolution": 1.0})
    else:
        rv.SetKernelStatus({name: np.int32(value)})
    assert rv.GetKernelStatus(name) == value


def test_the_alias_sets_its_setting():
    rv.SetKernelStatus({"total_num_virtual_procs": 3})
    assert rv.GetKernelStatus("local_num_threads") == 3
    with pytest.raises(rv.BadParameterError, match="total_num_virtual_procs = 0"):
        rv.SetKernelStatus({"total_num_virtual_procs": 0})


def test_only_live_settings_change_once_nodes_exist():
    rv.Create("iaf_psc_alpha", 2)
    for name, d in DECLARED.items():
        # the thread layout set again unchanged is no change (test_kernel_api.py): another one
        value = d["default"] + 1 if name in ("local_num_threads", "total_num_virtual_procs") else d["default"]
        given = {name: value, **({"resolution": 0.1} if name == "tics_per_ms" else {})}
        if d["phase"] == "any_time":
            rv.SetKernelStatus(given)
        elif d["phase"] == "empty_kernel":
            with pytest.raises(rv.KernelStateError, match=name):
                rv.SetKernelStatus(given)
    rv.SetKernelStatus({"max_D": 7, "rng_seed": 99, "queued_input": "on"})
    assert [rv.GetKernelStatus(k) for k in ("max_D", "rng_seed", "queued_input")] == [7, 99, "on"]


# NEST's delay extrema, as NEST 3.10 behaves when run: set together, before the first connection
# (after Create too); then every delay must lie within them.
def test_delay_extrema_are_set_together_before_connections():
    with pytest.raises(rv.BadParameterError, match="together"):
        rv.SetKernelStatus({"min_delay": 0.5})
    with pytest.raises(rv.BadParameterError, match="min_delay must be at most max_delay"):
        rv.SetKernelStatus({"min_delay": 2.0, "max_delay": 1.0})
    with pytest.raises(rv.BadParameterError, match="at least the resolution"):
        rv.SetKernelStatus({"min_delay": 0.05, "max_delay": 1.0})
    n = rv.Create("iaf_psc_alpha", 2)
    rv.SetKernelStatus({"min_delay": 0.5, "max_delay": 3.0})
    assert rv.GetKernelStatus(["min_delay", "max_delay"]) == (0.5, 3.0)
    for delay, bound in ((0.2, ">= min_delay = 0.5 ms"), (5.0, "<= max_delay = 3 ms")):
        with pytest.raises(rv.NESTErrors.BadDelay, match=bound):
            rv.Connect(n[0], n[1], syn_spec={"delay": delay})
    rv.Connect(n[0], n[1], syn_spec={"delay": 1.0})
    with pytest.raises(rv.BadParameterError, match="connections already exist"):
        rv.SetKernelStatus({"min_delay": 0.3, "max_delay": 3.0})
    rv.Simulate(10.0)
    assert rv.GetKernelStatus(["min_delay", "max_delay"]) == (0.5, 3.0)


def brunel_spikes(extrema):
    rv.ResetKernel()
    rv.SetKernelStatus({"local_num_threads": 2, "rng_seed": 5, **extrema})
    exc = rv.Create("iaf_psc_alpha", 200, params={"I_e": 450.0, "V_m": rv.random.uniform(-70.0, -55.0)})
    rv.Connect(
        exc, exc, {"rule": "fixed_indegree", "indegree": 20}, {"weight": 30.0, "delay": rv.random.uniform(1.0, 2.5)}
    )
    sr = rv.Create("spike_recorder")
    rv.Connect(exc, sr)
    rv.Simulate(100.0)
    return sr.events["senders"], sr.events["times"], rv.GetKernelStatus("exchange_cycles")


def test_a_smaller_min_delay_changes_the_cycle_not_the_spikes():
    """min_delay set below every delay makes the exchange cycle shorter: the same spikes."""
    senders, times, cycles = brunel_spikes({})
    assert len(times) > 100
    shorter = brunel_spikes({"min_delay": 0.3, "max_delay": 4.0})
    np.testing.assert_array_equal(shorter[0], senders)
    np.testing.assert_array_equal(shorter[1], times)
    assert (cycles, shorter[2]) == (100, 333)  # whole cycles of 1.0 ms and of 0.3 ms in 100 ms


def test_unknown_settings_are_refused():
    with pytest.raises(rv.UnknownParameterError, match="no_such_setting"):
        rv.SetKernelStatus({"no_such_setting": 1})
