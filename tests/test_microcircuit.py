"""The published microcircuit package (Potjans and Diesmann 2014; `pip install microcircuit`)
runs unchanged on Ranvier with ``sys.modules["nest"] = ranvier``, as its example script uses it:
create, connect, presimulate, simulate, evaluate (raster and box plots from its ASCII files)."""

import importlib.util
import os
import sys

import numpy as np
import pytest

import ranvier

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("microcircuit") is None,
    reason="the microcircuit package is not installed (pip install microcircuit)",
)


@pytest.fixture
def as_nest():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    previous = sys.modules.get("nest")
    sys.modules["nest"] = ranvier
    yield
    if previous is None:
        sys.modules.pop("nest", None)
    else:
        sys.modules["nest"] = previous
    ranvier.data_path, ranvier.data_prefix = "", ""


def test_microcircuit_runs_and_evaluates(as_nest, tmp_path):
    from microcircuit.network import Network
    from microcircuit.network_params import default_net_dict
    from microcircuit.sim_params import default_sim_dict
    from microcircuit.stimulus_params import default_stim_dict

    net_dict = {**default_net_dict, "N_scaling": 0.02, "K_scaling": 1.0}
    sim_dict = {
        **default_sim_dict,
        "data_path": str(tmp_path) + "/",
        "local_num_threads": 2,
        "t_presim": 100.0,
        "t_sim": 700.0,
        "print_time": False,
        "store_metadata": False,
    }
    stim_dict = dict(default_stim_dict)
    net = Network(sim_dict, net_dict, stim_dict)
    net.create()
    net.connect()
    net.simulate(sim_dict["t_presim"])
    net.simulate(sim_dict["t_sim"])
    net.evaluate(
        np.array([stim_dict["th_start"] - 100.0, stim_dict["th_start"] + 100.0]),
        np.array([sim_dict["t_presim"], sim_dict["t_presim"] + sim_dict["t_sim"]]),
    )
    assert (tmp_path / "raster_plot.png").stat().st_size > 0 and (tmp_path / "box_plot.png").stat().st_size > 0
    names = sorted(os.listdir(tmp_path))
    assert [n for n in names if n.startswith("spike_recorder")] == [
        f"spike_recorder-{gid}-0.dat" for gid in sorted(net.spike_recorders.tolist(), key=str)
    ]
    rates = [np.loadtxt(tmp_path / f"rate{i}.dat").mean() for i in range(len(net.pops))]
    assert all(0.1 < r < 50.0 for r in rates), rates  # every population fires, none explodes
