#!/usr/bin/env python3
"""Reference voltages of the Allen Institute's channels (the .mod files BMTK ships with its
biophysical components, and tests/fixtures/cable/nmodl/*.mod) from NEURON 9 compiling them with
nrnivmodl, each in one compartment
under current clamps, written to tests/fixtures/cable/neuron_nmodl_channels.npz for
tests/test_nmodl.py (issue 24).

    /work/peers-cable/bin/pip install neuron bmtk
    /work/peers-cable/bin/python benchmarks/peers/neuron_nmodl_channels.py

Every case: one CV, soma L = diam = 20 um, cm 1 uF/cm2, Ra 100 Ohm cm, celsius 34, v_init
-70 mV, pas (g 1e-4 S/cm2, e -70 mV), ena 53 mV, ek -107 mV (the Allen fits' values), the
channels of the case with the conductances below, and two clamps at soma(0.5): -0.03 nA from 10
to 60 ms, then +0.05 nA from 80 to 180 ms; dt 0.025 ms, tstop 200 ms. eca follows Nernst from
cai where CaDynamics (which writes cai) is in the case, as NEURON's ion style has it. Voltages
are written every 0.1 ms (every 4th step) from t = 0; the cases' mechanisms and parameters go
into the fixture too ("cases", JSON), so the test builds the same cells.
"""

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
OUT = HERE.parent.parent / "tests" / "fixtures" / "cable" / "neuron_nmodl_channels.npz"
TEST_MODFILES = OUT.parent / "nmodl"  # Ranvier's own test mechanisms
DT, TSTOP, EVERY = 0.025, 200.0, 4
SOMA = {"L": 20.0, "diam": 20.0, "cm": 1.0, "Ra": 100.0}
CELSIUS, V_INIT, ENA, EK = 34.0, -70.0, 53.0, -107.0
PAS = {"g": 1e-4, "e": -70.0}
CLAMPS = [(10.0, 50.0, -0.03), (80.0, 100.0, 0.05)]  # delay, duration (ms), amplitude (nA)
CA = {"Ca_HVA": {"gbar": 1e-3}, "CaDynamics": {"gamma": 0.05, "decay": 80.0}}
# Each case's mechanisms (beside pas) and their parameters.
CASES = {
    "NaTs": {"NaTs": {"gbar": 0.05}},
    "NaTa": {"NaTa": {"gbar": 0.05}},
    "Nap": {"Nap": {"gbar": 1e-3}},
    "K_T": {"K_T": {"gbar": 0.01}},
    "K_P": {"K_P": {"gbar": 0.01}},
    "Kd": {"Kd": {"gbar": 5e-3}},
    "Kv2like": {"Kv2like": {"gbar": 0.01}},
    "Kv3_1": {"Kv3_1": {"gbar": 0.05}},
    "Im": {"Im": {"gbar": 5e-3}},
    "Im_v2": {"Im_v2": {"gbar": 5e-3}},
    "Ih": {"Ih": {"gbar": 1e-3}},
    "Ca_HVA": dict(CA),
    "Ca_LVA": {"Ca_LVA": {"gbar": 5e-3}, "CaDynamics": {"gamma": 0.05, "decay": 80.0}},
    "SK": {**CA, "SK": {"gbar": 0.01}},
    "NaV": {"NaV": {"gbar": 0.05}},  # a KINETIC scheme (sparse) with a LINEAR initial state
    "NaV_Kv3_1": {"NaV": {"gbar": 0.1}, "Kv3_1": {"gbar": 0.1}},  # spiking
    # tests/fixtures/cable/nmodl/nlgate.mod: METHOD derivimplicit on an ODE not linear in its state
    "nlgate": {"nlgate": {"gbar": 0.002, "e": -90.0}},
    # all together, a spiking soma
    "soma": {
        "NaTs": {"gbar": 1.0},
        "Nap": {"gbar": 5e-4},
        "K_T": {"gbar": 1e-3},
        "K_P": {"gbar": 1e-3},
        "Kv3_1": {"gbar": 0.1},
        "Kd": {"gbar": 1e-4},
        "Im": {"gbar": 1e-4},
        "Ih": {"gbar": 5e-5},
        "SK": {"gbar": 1e-3},
        "Ca_HVA": {"gbar": 5e-4},
        "Ca_LVA": {"gbar": 3e-3},
        "CaDynamics": {"gamma": 5e-3, "decay": 200.0},
    },
}


def modfiles() -> Path:
    import bmtk

    return Path(bmtk.__file__).parent / "utils" / "scripts" / "bionet" / "mechanisms" / "modfiles"


def compile_channels(scratch: Path) -> None:
    for f in modfiles().glob("*.mod"):
        if f.stem != "vecevent":  # VERBATIM
            shutil.copy(f, scratch)
    for f in TEST_MODFILES.glob("*.mod"):
        shutil.copy(f, scratch)
    nrnivmodl = Path(os.environ.get("NRNIVMODL", shutil.which("nrnivmodl") or "nrnivmodl"))
    subprocess.run([str(nrnivmodl)], cwd=scratch, check=True, capture_output=True)


def run_case(h, mechanisms: dict) -> np.ndarray:
    soma = h.Section(name="soma")
    for key, value in SOMA.items():
        setattr(soma, key, value)
    soma.nseg = 1
    soma.insert("pas")
    soma.g_pas, soma.e_pas = PAS["g"], PAS["e"]
    for name, params in mechanisms.items():
        soma.insert(name)
        for key, value in params.items():
            setattr(soma(0.5), f"{key}_{name}", value)
    if h.ismembrane("na_ion", sec=soma):
        soma.ena = ENA
    if h.ismembrane("k_ion", sec=soma):
        soma.ek = EK
    clamps = []
    for delay, duration, amplitude in CLAMPS:
        clamp = h.IClamp(soma(0.5))
        clamp.delay, clamp.dur, clamp.amp = delay, duration, amplitude
        clamps.append(clamp)
    v = h.Vector().record(soma(0.5)._ref_v)
    h.dt, h.celsius = DT, CELSIUS
    h.finitialize(V_INIT)
    h.continuerun(TSTOP)
    return np.array(v)[::EVERY]


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        compile_channels(Path(scratch))
        from neuron import h, load_mechanisms

        load_mechanisms(scratch)
        h.load_file("stdrun.hoc")
        traces = {case: run_case(h, mechanisms) for case, mechanisms in CASES.items()}
    np.savez_compressed(OUT, cases=json.dumps(CASES), **traces)
    for case, v in traces.items():
        print(f"{case:10s} min {v.min():8.3f} max {v.max():8.3f} mV")


if __name__ == "__main__":
    main()
