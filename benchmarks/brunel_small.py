#!/usr/bin/env python3
"""brunel-small (BENCHMARKS.md): the same code as ``python -m ranvier.bench brunel-small``.

    python benchmarks/brunel_small.py --scale 0.2 --time 200
"""
import sys

from ranvier.bench import main

if __name__ == "__main__":
    sys.exit(main(["brunel-small", *sys.argv[1:]]))
