"""Runs NEST's own PyNEST example scripts on Ranvier (``sys.modules["nest"] = ranvier``) and
reports which run to their end, and with ``--peer PYTHON`` runs them on NEST 3.10 too and
compares the number of spikes the kernel counted and the simulated time at the end. The
scripts come with the nest-simulator wheel (<site-packages>/nest/doc/examples/pynest);
nothing of them is copied here.

    .venv/bin/python benchmarks/peers/run_nest_examples.py --peer /work/peers-venv/bin/python \
        /work/peers-venv/lib/python3.11/site-packages/nest/doc/examples/pynest script.py ...

Each script runs in a fresh process, in a scratch directory, with matplotlib's Agg backend,
plt.show() as a no-op and a time limit; the result is one JSON line per script."""

import json
import os
import subprocess
import sys
import tempfile
import time

LIMIT_S = 300

RUNNER = r"""
import os, runpy, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
plt.show = lambda *a, **k: None
if sys.argv[2] == "ranvier":
    import ranvier
    sys.modules["nest"] = ranvier
import nest
script = sys.argv[1]
sys.path.insert(0, os.path.dirname(script))
sys.argv = [script]
runpy.run_path(script, run_name="__main__")
print("\nRESULT", nest.GetKernelStatus("local_spike_counter"), nest.GetKernelStatus("biological_time"))
"""


def run(python, simulator, script):
    """(ran to its end, seconds, last line of output or the spike count and time at the end)."""
    with tempfile.TemporaryDirectory() as scratch:
        start = time.perf_counter()
        try:
            done = subprocess.run(
                [python, "-c", RUNNER, script, simulator], cwd=scratch, capture_output=True, text=True, timeout=LIMIT_S
            )
        except subprocess.TimeoutExpired:
            return False, LIMIT_S, f"timed out after {LIMIT_S} s"
    seconds = round(time.perf_counter() - start, 1)
    if done.returncode != 0:
        return False, seconds, ((done.stderr or done.stdout).strip().splitlines() or [""])[-1]
    result = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")][-1].split()
    return True, seconds, {"spikes": int(result[1]), "biological_time": float(result[2])}


def main():
    args = sys.argv[1:]
    peer = None
    if args[0] == "--peer":
        peer, args = args[1], args[2:]
    examples, names = args[0], args[1:]
    for name in names:
        script = os.path.join(examples, name)
        ok, seconds, detail = run(sys.executable, "ranvier", script)
        row = {"script": name, "ran_to_end": ok, "seconds": seconds, "ranvier": detail}
        if peer:
            row["nest"] = run(peer, "nest", script)[2]
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
