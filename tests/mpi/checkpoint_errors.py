"""A save whose write fails on one rank (a full disk there) raises on every rank and keeps
the previous checkpoint; prints one line per rank."""

import sys

import numpy as np
from ranvier.checkpoint import files

import ranvier as rv

where = sys.argv[1]
cells = rv.Create("iaf_psc_alpha", 10, params={"I_e": 400.0})
rv.Connect(cells, cells, {"rule": "fixed_indegree", "indegree": 2}, {"weight": 5.0})
rv.Simulate(10.0)
rv.SaveCheckpoint(where)
rv.Simulate(10.0)


def disk_full(*args, **kwargs):
    raise OSError(28, "No space left on device")


if rv.Rank() == 1:
    files.np = type("numpy_without_room", (), {"savez": staticmethod(disk_full)})
try:
    rv.SaveCheckpoint(where)
    print(f"rank {rv.Rank()}: saved")
except rv.CheckpointFileError as e:
    print(f"rank {rv.Rank()}: raised {e}")
files.np = np
rv.LoadCheckpoint(where)
print(f"rank {rv.Rank()}: loaded t = {rv.GetKernelStatus('biological_time')}")
