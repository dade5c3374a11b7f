#!/usr/bin/env python3
"""brunel-small (benchmarks/README.md): the same code as ``python benchmarks/bench.py brunel-small``.

python benchmarks/brunel_small.py --scale 0.2 --time 200
"""

import sys

from ranvier_bench import main

if __name__ == "__main__":
    sys.exit(main(["brunel-small", *sys.argv[1:]]))
