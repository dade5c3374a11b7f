#!/usr/bin/env python3
"""hines, the artificial-cell network of Hines et al. (2011) (benchmarks/README.md): the same code as
``python benchmarks/bench.py hines``.

    python benchmarks/hines.py --scale 0.25
    mpiexec -n 2 python benchmarks/hines.py --threads 1 --exchange allgather --placement consecutive
"""

import sys

from ranvier_bench import main

if __name__ == "__main__":
    sys.exit(main(["hines", *sys.argv[1:]]))
