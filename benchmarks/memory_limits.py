"""What this machine's memory allows: compiles benchmarks/native/memory_limits.c with the
system C compiler and prints its JSON (read bandwidth, pointer-chase latency and random
read-modify-write throughput at several working-set sizes).

    python benchmarks/memory_limits.py [--out results/memory_limits.json]
"""

import argparse
import json
import pathlib
import subprocess
import tempfile

HERE = pathlib.Path(__file__).resolve().parent


def measure():
    with tempfile.TemporaryDirectory() as tmp:
        exe = pathlib.Path(tmp) / "memory_limits"
        subprocess.run(
            ["cc", "-O3", "-march=native", "-o", str(exe), str(HERE / "native" / "memory_limits.c")], check=True
        )
        return json.loads(subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", help="also write the JSON to this file")
    args = p.parse_args()
    result = measure()
    print(json.dumps(result))
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
