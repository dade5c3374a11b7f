#!/usr/bin/env python3
"""Runs one of Ranvier's benchmarks: ``python benchmarks/bench.py NAME [options]`` (see README.md)."""

import sys

from ranvier_bench import main

sys.exit(main())
