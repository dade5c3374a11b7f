#!/usr/bin/env python3
"""hpc, NEST's hpc_benchmark (benchmarks/README.md): the same code as ``python benchmarks/bench.py hpc``.

python benchmarks/hpc.py --scale 0.5 --time 200
"""

import sys

from ranvier_bench import main

if __name__ == "__main__":
    sys.exit(main(["hpc", *sys.argv[1:]]))
