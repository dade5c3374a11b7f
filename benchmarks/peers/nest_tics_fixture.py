"""Writes tests/fixtures/nest_tics.json: NEST 3.10's time representation (tics_per_ms,
ms_per_tic, tics_per_step, resolution, T_min, T_max) by default and after nest.set(tics_per_ms=
..., resolution=...), which settings it refuses, and the spike and voltmeter times of one
neuron with 2**5 tics per ms (artificial_synchrony.py's grid) and with 100 tics per ms.

    /work/peers-nest/bin/python benchmarks/peers/nest_tics_fixture.py

tests/test_tics.py runs the same scenario (``scenario(ranvier)``) on Ranvier and compares."""

import json
import os
import sys

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "nest_tics.json")
KEYS = ("tics_per_ms", "ms_per_tic", "tics_per_step", "resolution", "T_min", "T_max")

# (name, settings) NEST refuses on a fresh kernel
REFUSED = [
    ("tics_without_resolution", {"tics_per_ms": 32}),
    ("resolution_off_the_tics", {"tics_per_ms": 32, "resolution": 0.1}),
    ("resolution_below_a_tic", {"tics_per_ms": 32, "resolution": 0.01}),
    ("default_tics_resolution_off", {"resolution": 0.0015}),
    ("tics_not_an_integer", {"tics_per_ms": 32.5, "resolution": 1.0}),
]


def error_name(call):
    try:
        call()
    except Exception as e:  # noqa: BLE001 - the class is what we record
        return type(e).__name__
    return None


def status(nest):
    return dict(zip(KEYS, nest.GetKernelStatus(KEYS)))


def neuron_times(nest, tics_per_ms, resolution, simtime=40.0):
    """Spike times of an iaf_psc_alpha driven above threshold and a voltmeter's sample times."""
    nest.ResetKernel()
    nest.set(tics_per_ms=tics_per_ms, resolution=resolution)
    n = nest.Create(
        "iaf_psc_alpha",
        params={
            "I_e": 575.0,
            "E_L": 0.0,
            "V_m": 0.0,
            "V_reset": 0.0,
            "V_th": 20.0,
            "t_ref": 0.25,
            "C_m": 250.0,
            "tau_m": 10.0,
        },
    )
    sr = nest.Create("spike_recorder")
    vm = nest.Create("voltmeter", params={"interval": 1.3 if tics_per_ms == 100 else 0.75})
    nest.Connect(n, sr)
    nest.Connect(vm, n)
    nest.Simulate(simtime)
    return {
        "spikes": sr.events["times"].tolist(),
        "voltmeter": vm.events["times"].tolist(),
        "biological_time": nest.biological_time,
        "status": status(nest),
    }


def scenario(nest):
    out = {}
    nest.ResetKernel()
    out["default"] = status(nest)
    nest.set(tics_per_ms=32, resolution=1 / 32)
    out["tics_32"] = status(nest)
    nest.set(resolution=0.125)  # the tics stay
    out["tics_32_resolution_0.125"] = status(nest)
    out["refused_then"] = {"tics_32_resolution_0.1": error_name(lambda: nest.set(resolution=0.1))}
    nest.Create("iaf_psc_alpha")
    out["refused_then"]["after_nodes"] = error_name(lambda: nest.set(tics_per_ms=64, resolution=0.25))
    out["refused_then"]["resolution_after_nodes"] = error_name(lambda: nest.set(resolution=0.25))
    nest.ResetKernel()
    out["after_reset"] = status(nest)
    nest.Simulate(1.0)
    out["refused_then"]["after_simulate"] = error_name(lambda: nest.set(tics_per_ms=64, resolution=0.25))
    out["refused"] = {}
    for name, settings in REFUSED:
        nest.ResetKernel()
        out["refused"][name] = error_name(lambda: nest.set(**settings))
        out["refused"][name + "_unchanged"] = status(nest) == out["default"]
    out["neuron_32"] = neuron_times(nest, 32, 1 / 32)
    out["neuron_100"] = neuron_times(nest, 100, 0.1)
    return out


def main():
    import nest

    nest.verbosity = nest.VerbosityLevel.FATAL
    result = scenario(nest)
    result["nest_version"] = nest.__version__
    with open(FIXTURE, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {FIXTURE}: spikes at {result['neuron_32']['spikes']}", file=sys.stderr)


if __name__ == "__main__":
    main()
