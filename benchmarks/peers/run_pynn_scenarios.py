"""Runs PyNN's back-end-generic system tests (test/system/scenarios of PyNN's repository: the
same functions for nest, neuron and brian2) with one back end, pyNN.ranvier or pyNN.nest, and
lists each test's outcome. The scenarios are read from a PyNN source tree; nothing of them is
copied here. A scenario runs for the back end only where it runs for nest (its
``run_with_simulators`` names "nest"): those are the specification.

    .venv/bin/python benchmarks/peers/run_pynn_scenarios.py --pynn-source <PyNN checkout> \
        [--simulator ranvier|nest] [--python PY] [--out benchmarks/results/pynn_scenarios]

Prints one JSON object (counts) and writes <out>/<simulator>.csv (nodeid, outcome, reason).
"""

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

# Replaces the scenarios' simulator list before any test module imports it.
CONFTEST = """
import os
import pytest
from scenarios import fixtures

_original = fixtures.run_with_simulators


def run_with_simulators(*sim_names):
    chosen = os.environ["PYNN_SCENARIO_SIMULATOR"]
    if "nest" not in sim_names:
        return pytest.mark.skip(reason="not a scenario for nest")
    return _original(chosen)


fixtures.run_with_simulators = run_with_simulators
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pynn-source", required=True, help="a PyNN source tree (its test/system/scenarios)")
    parser.add_argument("--simulator", default="ranvier", choices=["ranvier", "nest"])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "results", "pynn_scenarios"))
    parser.add_argument("--timeout", type=int, default=600)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pynn_scenarios_") as scratch:
        shutil.copytree(
            os.path.join(args.pynn_source, "test", "system", "scenarios"), os.path.join(scratch, "scenarios")
        )
        with open(os.path.join(scratch, "conftest.py"), "w") as f:
            f.write(CONFTEST)
        report = os.path.join(scratch, "report.xml")
        env = {**os.environ, "PYNN_SCENARIO_SIMULATOR": args.simulator, "MPLBACKEND": "Agg", "OMP_NUM_THREADS": "1"}
        command = [args.python, "-m", "pytest", "scenarios", "-q", "-p", "no:cacheprovider", f"--junitxml={report}"]
        done = subprocess.run(command, cwd=scratch, env=env, capture_output=True, text=True, timeout=args.timeout)
        rows = []
        for case in ET.parse(report).getroot().iter("testcase"):
            outcome, reason = "passed", ""
            for kind in ("failure", "error", "skipped"):
                found = case.find(kind)
                if found is not None:
                    outcome = {"failure": "failed", "error": "error", "skipped": "skipped"}[kind]
                    reason = (found.get("message") or "").splitlines()[0][:300] if found.get("message") else ""
            rows.append(
                {"nodeid": f"{case.get('classname')}::{case.get('name')}", "outcome": outcome, "reason": reason}
            )
    with open(os.path.join(args.out, f"{args.simulator}.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["nodeid", "outcome", "reason"])
        writer.writeheader()
        writer.writerows(rows)
    counts = {}
    for row in rows:
        counts[row["outcome"]] = counts.get(row["outcome"], 0) + 1
    print(
        json.dumps(
            {"simulator": args.simulator, "python": args.python, "pytest_exit_code": done.returncode, "totals": counts}
        )
    )


if __name__ == "__main__":
    main()
