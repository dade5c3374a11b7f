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


def test_status_shows_every_default():
    status = rv.GetKernelStatus()
    for name, d in DECLARED.items():
        assert status[name] == d["default"], name
    assert status["spike_exchange"] == "auto" and status["local_num_threads"] == 1


def bad_values(d):
    if d["type"] == "integer":
        low, high = d["range"]
        return [int(low) - 1, int(high) + 1, True, 1.5, "1"]
    if d["type"] == "real":
        return [0.0, -1.0, float("nan"), True, "0.1"]
    if d["type"] == "boolean":
        return [1, 0.0, "yes"]
    return [3, "no such " + d["choices"][0]]


@pytest.mark.parametrize("name", DECLARED)
def test_a_value_outside_the_declaration_names_setting_and_value(name):
    for value in bad_values(DECLARED[name]):
        with pytest.raises(rv.BadParameterError, match=f"{name} must be .*got {name} = "):
            rv.SetKernelStatus({name: value})
        assert rv.GetKernelStatus(name) == DECLARED[name]["default"]  # nothing changed


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
        given = {name: d["default"], **({"resolution": 0.1} if name == "tics_per_ms" else {})}
        if d["live"]:
            rv.SetKernelStatus(given)
        else:
            with pytest.raises(rv.KernelStateError, match=name):
                rv.SetKernelStatus(given)
    rv.SetKernelStatus({"max_D": 7, "rng_seed": 99, "queued_input": "on"})
    assert [rv.GetKernelStatus(k) for k in ("max_D", "rng_seed", "queued_input")] == [7, 99, "on"]


def test_unknown_settings_are_refused():
    with pytest.raises(rv.UnknownParameterError, match="no_such_setting"):
        rv.SetKernelStatus({"no_such_setting": 1})
