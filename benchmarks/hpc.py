#!/usr/bin/env python3
"""hpc, NEST's hpc_benchmark (BENCHMARKS.md): the same code as ``python -m ranvier.bench hpc``.

    python benchmarks/hpc.py --scale 0.5 --time 200
"""
import sys

from ranvier.bench import main

if __name__ == "__main__":
    sys.exit(main(["hpc", *sys.argv[1:]]))
