#!/usr/bin/env python3
"""hines, the artificial-cell network of seed 003 (BENCHMARKS.md): the same code as
``python -m ranvier.bench hines``.

    python benchmarks/hines.py --scale 0.25
    mpiexec -n 2 python benchmarks/hines.py --threads 1 --exchange allgather --placement consecutive
"""
import sys

from ranvier.bench import main

if __name__ == "__main__":
    sys.exit(main(["hines", *sys.argv[1:]]))
