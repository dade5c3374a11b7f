"""Errors that only one rank can see are raised on every rank with the same message.
mpiexec -n M python errors.py DIR: each rank writes DIR/rank<r>.json with one entry per case."""

import json
import os
import sys
from pathlib import Path

import numpy as np

import ranvier as rv
from ranvier import modules

pre = rv.Create("iaf_psc_alpha", 12)
post = rv.Create("iaf_psc_alpha", 12)
multi = rv.Create("iaf_psc_exp_multisynapse", 12, params={"tau_syn": [1.0, 2.0]})
rv.Connect(pre, multi, "one_to_one", {"receptor_type": 2})


def install_a_module_one_rank_finds():
    """Rank 0 finds a file that is no library, the others find none."""
    folder = Path(sys.argv[1], f"modules{rv.Rank()}")
    folder.mkdir(exist_ok=True)
    if rv.Rank() == 0:
        (folder / "onerankmodule.so").write_text("not a library")
    os.environ[modules.MODULE_PATH_VARIABLE] = str(folder)
    rv.Install("onerankmodule")


def an_exchange_one_rank_chose():
    """The other ranks would wait in another exchange: every rank refuses to simulate."""
    rv.SetKernelStatus({"spike_exchange": "alltoall" if rv.Rank() == 1 else "allgather"})
    try:
        rv.Simulate(1.0)
    finally:
        rv.SetKernelStatus({"spike_exchange": "allgather"})


cases = {
    # the node lives on one rank only; only that rank's kernel sees the bad value
    "bad value on one node": lambda: post[7].set(C_m=-5.0),
    "bad values on some nodes": lambda: post.set(V_reset=np.where(np.arange(12) == 4, -40.0, -70.0)),
    # drawn delays below the resolution occur on the target's rank only
    "random delay below resolution": lambda: rv.Connect(
        pre, post[3], "all_to_all", {"delay": rv.random.uniform(0.0, 0.3)}
    ),
    "negative plastic weight": lambda: rv.Connect(
        pre,
        post[10],
        "all_to_all",
        {"synapse_model": "stdp_synapse", "weight": rv.random.normal(0.0, 1.0), "Kplus": 0.0},
    ),
    "unknown parameter": lambda: post[2].get("tau_x"),
    # receptor ports: every rank checks them against the Create call, not only the target's
    "receptor_type too large": lambda: rv.Connect(pre, multi[5], "all_to_all", {"receptor_type": 3}),
    "receptor_type 0 for spikes": lambda: rv.Connect(pre[:2], multi[8], "all_to_all"),
    "tau_syn changed after Connect": lambda: multi.set(tau_syn=[1.0, 2.0, 3.0]),
    "receptor_type on a one-port neuron": lambda: rv.Connect(pre, post[9], "all_to_all", {"receptor_type": 1}),
    "disconnect a pair never connected": lambda: rv.Disconnect(pre[5:6], post[5:6]),
    "receptor port a point neuron lacks": lambda: rv.Connect(pre, post[6], "all_to_all", {"receptor_type": 2}),
    "a module one rank finds": install_a_module_one_rank_finds,
    "a spike exchange one rank chose": an_exchange_one_rank_chose,
}
report = []
for name, action in cases.items():
    try:
        action()
        outcome = ("no error", "")
    except rv.RanvierError as e:
        outcome = (type(e).__name__, str(e))
    report.append({"rank": rv.Rank(), "case": name, "type": outcome[0], "message": outcome[1]})
# the kernel is still usable and nothing of the failed calls remains; Disconnect removes on every rank
rv.Connect(pre, post, "one_to_one")
rv.Connect(pre[:3], post[:3], "one_to_one")
rv.Disconnect(pre[:3], post[:3])
rv.Simulate(10.0)
report.append(
    {
        "rank": rv.Rank(),
        "case": "after",
        "connections": len(rv.GetConnections(gather=True)),
        "C_m": float(post[7].get("C_m")),
        "n_synapses": int(multi[3].get("n_synapses")),
    }
)
Path(sys.argv[1], f"rank{rv.Rank()}.json").write_text(json.dumps(report))
