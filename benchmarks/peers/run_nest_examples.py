"""Runs NEST's own PyNEST example scripts on Ranvier (``sys.modules["nest"] = ranvier``) and
reports which run to their end. The scripts come with the nest-simulator wheel
(<site-packages>/nest/doc/examples/pynest); nothing of them is copied here.

    .venv/bin/python benchmarks/peers/run_nest_examples.py \
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
import ranvier
sys.modules["nest"] = ranvier
script = sys.argv[1]
sys.path.insert(0, os.path.dirname(script))
sys.argv = [script]
runpy.run_path(script, run_name="__main__")
"""


def run(examples, name):
    script = os.path.join(examples, name)
    with tempfile.TemporaryDirectory() as scratch:
        start = time.perf_counter()
        try:
            done = subprocess.run([sys.executable, "-c", RUNNER, script], cwd=scratch, capture_output=True,
                                  text=True, timeout=LIMIT_S)
            ok, tail = done.returncode == 0, (done.stderr or done.stdout).strip().splitlines()[-1:]
        except subprocess.TimeoutExpired:
            ok, tail = False, [f"timed out after {LIMIT_S} s"]
    return {"script": name, "ran_to_end": ok, "seconds": round(time.perf_counter() - start, 1),
            "last_line": tail[0] if tail and not ok else ""}


def main():
    examples, names = sys.argv[1], sys.argv[2:]
    for name in names:
        print(json.dumps(run(examples, name)), flush=True)


if __name__ == "__main__":
    main()
