"""Runs NEST 3.10's own pytest suite with Ranvier standing in for NEST (``import nest`` gives
``ranvier``) and tables the outcome of every test case, so that NEST's suite can serve as
Ranvier's specification. The tests come with the nest-simulator wheel
(<site-packages>/nest/share/nest/testsuite/pytests); nothing of them is copied into this repo.

    python3 -m venv /work/peers-nest && /work/peers-nest/bin/pip install nest-simulator==3.10.0
    .venv/bin/pip install pytest-timeout                   # pytest and pytest-xdist are there already
    .venv/bin/pip install --no-deps --target /work/peers-nest/extras pandas   # NEST's testutil needs it
    .venv/bin/python benchmarks/peers/run_nest_suite.py \
        --pytests /work/peers-nest/lib/python3.11/site-packages/nest/share/nest/testsuite/pytests \
        --pythonpath /work/peers-nest/extras [--out benchmarks/results/nest_suite] [-k EXPR] [FOLDER ...]

NEST itself on the same suite, for a baseline (its venv needs pytest pytest-xdist pytest-timeout
pandas scipy):

    .venv/bin/python benchmarks/peers/run_nest_suite.py --simulator nest \
        --python /work/peers-nest/bin/python --out /tmp/nest_suite_nest

FOLDERs are folders of the suite (default: connect neurons synapses stimulating recording spatial
structural_plasticity other regressions) or single test files; top-level test_*.py files run with the default set.
pytest runs in a subprocess of ``--python`` (default: this repo's .venv) on a scratch copy of the
suite, with ``-n --workers`` (pytest-xdist) and a hard time limit per test (pytest-timeout's
thread method: a test stuck in C++ ends its worker, which xdist replaces).

Writes to --out: tests.csv (nodeid, outcome, first line of the reason, seconds, and the whole
message on one line where it has more lines, cut at 400 characters), summary.json (counts per
folder) and pytest_output.txt; prints the summary as one JSON object on the last line of stdout.
Each test case has one outcome (pytest's own line counts a failed test whose teardown also fails
twice): passed, failed, error (in a fixture or at collection), skipped, xfailed, xpassed,
crashed (the worker process died), timeout (it died after the time limit)."""

import argparse
import collections
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FOLDERS = (
    "connect",
    "neurons",
    "synapses",
    "stimulating",
    "recording",
    "spatial",
    "structural_plasticity",
    "other",
    "regressions",
)
PEER_SUITES = "/work/peers-nest/lib/python3*/site-packages/nest/share/nest/testsuite/pytests"

# A pytest plugin, loaded with -p before the suite's conftest.py imports nest. With "ranvier" it
# makes `import nest` give ranvier and `import nest.X` give ranvier.X (the same module object, not
# a second copy); a submodule Ranvier does not have (nest.lib, nest.ll_api, nest.visualization)
# fails to import as unknown. In the controlling process it appends one JSON line per test phase
# to $NEST_SUITE_LOG (xdist forwards the workers' reports there).
PLUGIN = r'''
import importlib, importlib.abc, importlib.util, json, os, sys, time

if os.environ.get("NEST_SUITE_SIMULATOR") == "ranvier":
    import ranvier
    import ranvier.kernel_attributes
    sys.modules["nest"] = ranvier
    # NEST's SONATA test finds its example network under build_info's docdir: NEST's own
    _info = ranvier.kernel_attributes._build_info
    ranvier.kernel_attributes._build_info = lambda: {**_info(), "docdir": os.environ["NEST_SUITE_DOCDIR"]}

    class _NestAsRanvier(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(self, name, path=None, target=None):
            if not name.startswith("nest."):
                return None
            if importlib.util.find_spec("ranvier." + name[5:]) is None:
                raise ModuleNotFoundError(f"No module named {name!r} (Ranvier has no such submodule)", name=name)
            return importlib.util.spec_from_loader(name, self)

        def create_module(self, spec):
            module = importlib.import_module("ranvier." + spec.name[5:])
            self.spec = module.__spec__
            return module

        def exec_module(self, module):
            module.__spec__ = self.spec  # the import system set nest.X's spec on ranvier.X

    sys.meta_path.insert(0, _NestAsRanvier())


def _reason(report):
    """Why a test did not pass: the exception and its message, or the skip reason."""
    longrepr = report.longrepr
    if longrepr is None:
        return ""
    if isinstance(longrepr, tuple):  # a skip: (path, line, reason)
        return str(longrepr[2] or "")
    crash = getattr(longrepr, "reprcrash", None)
    if crash is not None and crash.message:
        return crash.message.strip()
    lines = [line for line in str(longrepr).splitlines() if line.strip()]
    errors = [line[1:].strip() for line in lines if line.startswith("E ")]
    return "\n".join(errors) if errors else lines[-1] if lines else ""


def _log(config, record):
    if hasattr(config, "workerinput"):  # an xdist worker: the controller logs
        return
    with open(os.environ["NEST_SUITE_LOG"], "a") as f:
        f.write(json.dumps(record) + "\n")


def pytest_configure(config):
    global _config
    _config = config


def pytest_runtest_logstart(nodeid, location):
    _log(_config, {"nodeid": nodeid, "when": "start", "t": time.time()})


def pytest_runtest_logreport(report):
    _log(_config, {"nodeid": report.nodeid, "when": report.when, "outcome": report.outcome,
                   "xfail": hasattr(report, "wasxfail"), "reason": _reason(report),
                   "seconds": report.duration, "t": time.time()})


def pytest_collectreport(report):
    if report.failed:
        _log(_config, {"nodeid": report.nodeid, "when": "collect", "outcome": "failed",
                       "xfail": False, "reason": _reason(report), "seconds": 0.0, "t": time.time()})
'''


def merge(log_path, limit_s):
    """{nodeid: (outcome, reason, seconds)} from the phase records, one outcome per test case."""
    tests, started = {}, {}
    with open(log_path) as f:
        records = [json.loads(line) for line in f if line.strip()]
    for r in records:
        nodeid, when = r["nodeid"], r["when"]
        if when == "start":
            started[nodeid] = r["t"]
            continue
        outcome, reason, seconds = tests.get(nodeid, ("passed", "", 0.0))
        seconds += r["seconds"]
        if "crashed while running" in r["reason"]:  # xdist's report for a worker that died
            elapsed = r["t"] - started.get(nodeid, r["t"])
            outcome, seconds = ("timeout" if elapsed >= limit_s else "crashed"), elapsed
            reason = f"worker died after {elapsed:.0f} s" + (" (time limit)" if outcome == "timeout" else "")
        elif when == "collect":
            outcome, reason = "error", r["reason"]
        elif r["outcome"] == "skipped":
            if outcome == "passed":
                outcome, reason = ("xfailed" if r["xfail"] else "skipped"), r["reason"]
        elif r["outcome"] == "failed":
            if when == "call":
                outcome, reason = "failed", r["reason"]
            elif outcome in ("passed", "xpassed"):  # setup or teardown
                outcome, reason = "error", f"[{when}] " + r["reason"]
        elif when == "call" and r["xfail"]:
            outcome = "xpassed"
        tests[nodeid] = (outcome, reason, seconds)
    return tests


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", help="folders or test files of the suite (default: %(default)s)")
    parser.add_argument("--pytests", help="NEST's pytests folder (default: found under /work/peers-nest)")
    parser.add_argument("--python", help="the interpreter that runs pytest (default: the repo's .venv)")
    parser.add_argument("--pythonpath", default="", help="prepended to PYTHONPATH (e.g. where pandas is)")
    parser.add_argument("--simulator", choices=("ranvier", "nest"), default="ranvier")
    parser.add_argument("--out", default=os.path.join(REPO, "benchmarks", "results", "nest_suite"))
    parser.add_argument("-k", dest="keyword", help="pytest -k expression")
    parser.add_argument("--workers", type=int, default=2, help="pytest-xdist workers (0: none)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds one test may take")
    args = parser.parse_args()

    pytests = args.pytests or next(iter(sorted(glob.glob(PEER_SUITES))), None)
    if not pytests or not os.path.isdir(pytests):
        sys.exit("NEST's pytests folder not found: give --pytests")
    python = args.python or next(
        (p for p in (os.path.join(REPO, ".venv", "bin", "python"),) if os.path.exists(p)), sys.executable
    )
    folders = args.folders or list(FOLDERS) + sorted(
        os.path.basename(p) for p in glob.glob(os.path.join(pytests, "test_*.py"))
    )
    os.makedirs(args.out, exist_ok=True)

    with tempfile.TemporaryDirectory(prefix="nest_suite_") as scratch:
        suite = os.path.join(scratch, "pytests")
        shutil.copytree(pytests, suite, ignore=shutil.ignore_patterns("__pycache__"))
        with open(os.path.join(scratch, "nest_suite_plugin.py"), "w") as f:
            f.write(PLUGIN)
        log_path = os.path.join(scratch, "log.jsonl")
        env = dict(
            os.environ,
            NEST_SUITE_SIMULATOR=args.simulator,
            NEST_SUITE_LOG=log_path,
            NEST_SUITE_DOCDIR=os.path.join(os.path.dirname(pytests), "..", "..", "..", "doc"),
            MPLBACKEND="Agg",
            OMP_NUM_THREADS="1",
            PYTHONHASHSEED="0",  # tests parametrized over sets: xdist's workers must collect alike
            PYTHONPATH=os.pathsep.join(p for p in (scratch, args.pythonpath, os.environ.get("PYTHONPATH")) if p),
        )
        command = [
            python,
            "-m",
            "pytest",
            *folders,
            "-p",
            "nest_suite_plugin",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            suite,
            "--continue-on-collection-errors",
            "-q",
            "-rN",
            "--tb=no",
            "--timeout",
            str(args.timeout),
            "--timeout-method",
            "thread",
        ]
        if args.workers:
            # a module's tests on one worker: NEST's SONATA test writes its network's output file
            command += ["-n", str(args.workers), "--dist", "loadscope", "--max-worker-restart", "1000"]
        if args.keyword:
            command += ["-k", args.keyword]
        print(" ".join(command), file=sys.stderr, flush=True)
        start = time.perf_counter()
        done = subprocess.run(command, cwd=suite, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        wall_s = time.perf_counter() - start
        summary_line = re.compile(r"\d+ (passed|failed|errors?)\b.* in [\d.]+s")  # pytest's closing line
        closing = [line for line in done.stdout.splitlines() if summary_line.search(line)]
        with open(os.path.join(args.out, "pytest_output.txt"), "w") as f:
            f.write(done.stdout)
        tests = merge(log_path, args.timeout) if os.path.exists(log_path) else {}

    with open(os.path.join(args.out, "tests.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(("nodeid", "outcome", "reason", "seconds", "detail"))
        for nodeid in sorted(tests):
            outcome, reason, seconds = tests[nodeid]
            lines = [line.strip() for line in reason.splitlines() if line.strip()]
            detail = " | ".join(lines)[:400] if len(lines) > 1 else ""  # e.g. pytest.raises' pattern and text
            writer.writerow((nodeid, outcome, lines[0] if lines else "", f"{seconds:.2f}", detail))
    per_folder = collections.defaultdict(collections.Counter)
    for nodeid, (outcome, _, _) in tests.items():
        folder = nodeid.split("/")[0] if "/" in nodeid else "(top level)"
        per_folder[folder][outcome] += 1
    totals = sum(per_folder.values(), collections.Counter())
    summary = {
        "simulator": args.simulator,
        "python": python,
        "pytests": pytests,
        "folders": folders,
        "keyword": args.keyword,
        "timeout_s": args.timeout,
        "workers": args.workers,
        "wall_s": round(wall_s, 1),
        "pytest_exit_code": done.returncode,
        "pytest_summary": closing[-1].strip("= ") if closing else None,
        "cases": len(tests),
        "totals": dict(sorted(totals.items())),
        "per_folder": {k: dict(sorted(v.items())) for k, v in sorted(per_folder.items())},
    }
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
