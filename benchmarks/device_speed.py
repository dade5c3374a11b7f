"""Cost of the stimulation devices beside NEST 3.10, in one run: each device drives N
iaf_psc_alpha neurons (one generator, all_to_all, delay 1 ms) for T ms, one thread; the
Simulate time of the same script under Ranvier and under NEST (run with the peers'
interpreter). Prints JSON: per device the seconds of each and NEST / Ranvier.

    .venv/bin/python benchmarks/device_speed.py [--n 2000] [--t 1000] [--peer /work/peers-venv/bin/python]
"""

import argparse
import json
import subprocess
import sys

DEVICES = {
    "poisson_generator": {"rate": 8000.0},
    "dc_generator": {"amplitude": 100.0},
    "step_current_generator": {"amplitude_times": [100.0, 500.0], "amplitude_values": [100.0, 300.0]},
    "ac_generator": {"amplitude": 100.0, "frequency": 10.0, "offset": 200.0},
    "noise_generator": {"mean": 200.0, "std": 100.0, "dt": 0.1},
    "sinusoidal_poisson_generator": {"rate": 8000.0, "amplitude": 4000.0, "frequency": 10.0},
    "inhomogeneous_poisson_generator": {"rate_times": [1.0, 500.0], "rate_values": [8000.0, 4000.0]},
    "mip_generator": {"rate": 8000.0, "p_copy": 0.5},
    "gamma_sup_generator": {"rate": 1000.0, "gamma_shape": 3, "n_proc": 8},
}

# Run under either simulator: argv = module, device, n, t; prints the Simulate seconds.
SCRIPT = """
import json, sys, time, importlib
sim = importlib.import_module(sys.argv[1])
device, n, t = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
params = json.loads(sys.argv[5])
sim.ResetKernel()
sim.SetKernelStatus({"resolution": 0.1, "local_num_threads": 1})
neurons = sim.Create("iaf_psc_alpha", n)
gen = sim.Create(device, params=params)
sim.Connect(gen, neurons, syn_spec={"weight": 10.0, "delay": 1.0})
start = time.perf_counter()
sim.Simulate(t)
print(time.perf_counter() - start)
"""


def seconds(python, module, device, n, t):
    out = subprocess.run(
        [python, "-c", SCRIPT, module, device, str(n), str(t), json.dumps(DEVICES[device])],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return float(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--t", type=float, default=1000.0)
    ap.add_argument("--peer", default="/work/peers-venv/bin/python")
    a = ap.parse_args()
    results = {}
    for device in DEVICES:
        ranvier = seconds(sys.executable, "ranvier", device, a.n, a.t)
        nest = seconds(a.peer, "nest", device, a.n, a.t)
        results[device] = {
            "ranvier_s": round(ranvier, 4),
            "nest_s": round(nest, 4),
            "nest_over_ranvier": round(nest / ranvier, 2),
        }
    print(json.dumps({"n": a.n, "t_ms": a.t, "threads": 1, "devices": results}, indent=1))


if __name__ == "__main__":
    main()
