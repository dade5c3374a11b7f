"""A bad Simulate on one rank, in the middle of an overlapped cycle, fails on every rank and
leaves the run able to continue: mpiexec -n M python overlap_errors.py OUT_DIR. Each rank
writes rank<r>.json with the errors it saw and its spikes."""

import json
import sys
from pathlib import Path

from networks import brunel

import ranvier as rv

out = Path(sys.argv[1])
errors = []


def simulate_bad_on(rank, good, bad):
    try:
        rv.Simulate(bad if rv.Rank() == rank else good)
        errors.append(["no error", ""])
    except rv.RanvierError as e:
        errors.append([type(e).__name__, str(e)])


class Interrupted:
    """brunel's Simulate calls, with bad ones on single ranks between them."""

    def __init__(self):
        self.calls = [5.5, 3.3, 31.2]

    def __iter__(self):
        yield self.calls[0]  # the first epoch's exchange has just been started
        simulate_bad_on(rv.NumProcesses() - 1, 1.0, -1.0)
        yield self.calls[1]  # stops inside the second epoch
        simulate_bad_on(0, 1.0, 0.05)  # not a multiple of the resolution
        yield self.calls[2]


rv.SetKernelStatus({"spike_exchange": "allgather", "overlap_exchange": True, "rng_seed": 11})
interrupted = brunel(pieces=Interrupted())
rv.ResetKernel()
rv.SetKernelStatus({"spike_exchange": "allgather", "rng_seed": 11})
plain = brunel(pieces=(5.5, 3.3, 31.2))
(out / f"rank{rv.Rank()}.json").write_text(
    json.dumps(
        {
            "errors": errors,
            "identical": all((interrupted[k] == plain[k]).all() for k in plain),
            "spikes": len(plain["times"]),
        }
    )
)
