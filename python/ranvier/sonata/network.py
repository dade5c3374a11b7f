"""NEST 3.10's SonataNetwork: a SONATA network (circuit config, optionally a simulation
config) built and simulated as PyNEST scripts do it.

    net = ranvier.SonataNetwork("circuit_config.json", sim_config="simulation_config.json")
    node_collections = net.BuildNetwork(hdf5_hyperslab_size=2**20)
    net.Simulate()

The config's ``run`` gives the resolution (``dt``, set when the network is made) and the time
(``tstop`` or ``duration``); its ``output`` (``output_dir``, ``spikes_file``,
``spikes_sort_order``), where given, makes Simulate write the spikes of every neuron
population to a SONATA spike file.
"""

import os
from pathlib import PurePath
from typing import Any

from .. import kernel_settings
from ..errors import BadParameterError, KernelStateError
from ..network import Connect, Create
from ..nodes import NodeCollection
from ..simulation import Simulate
from . import recorder_files
from .config import read_config
from .edges import HYPERSLAB_SIZE, EdgeReader, check_hyperslab_size
from .nodes import NodeBuilder

TARGET_SIMULATORS = ("NEST", "Ranvier")  # configs written for NEST run unchanged
_SORT_ORDERS = {"time": "by_time", "id": "by_id", "none": "none", "by_time": "by_time", "by_id": "by_id"}


class SonataNetwork:
    def __init__(self, config: str | PurePath, sim_config: str | PurePath | None = None) -> None:
        self._conf = read_config(config)
        if sim_config is not None:
            self._conf.update(read_config(sim_config))
        simulator = self._conf.get("target_simulator", "NEST")
        if simulator not in TARGET_SIMULATORS:
            raise BadParameterError(
                f"target_simulator must be one of {', '.join(TARGET_SIMULATORS)}, got target_simulator = {simulator!r}"
            )
        run = self._conf.get("run", {})
        if "dt" not in run:
            raise BadParameterError("the SONATA config's run must give the resolution dt")
        kernel_settings.SetKernelStatus({"resolution": float(run["dt"])})
        self._nodes = NodeBuilder(self._conf)
        self._created = self._built = False
        self._output: NodeCollection | None = None

    @property
    def config(self) -> dict[str, Any]:
        return self._conf

    @property
    def node_collections(self) -> dict[str, NodeCollection]:
        return self._nodes.collections

    def Create(self) -> dict[str, NodeCollection]:
        """Creates the nodes of every node population; returns them by population name."""
        if self._created:
            raise KernelStateError("the SONATA network's nodes were created already")
        self._nodes.create()
        self._created = True
        return self._nodes.collections

    def Connect(self, hdf5_hyperslab_size: int | None = None) -> None:
        """Connects the nodes by the edges files, reading hdf5_hyperslab_size edges at a time."""
        size = check_hyperslab_size(HYPERSLAB_SIZE if hdf5_hyperslab_size is None else hdf5_hyperslab_size)
        if not self._created:
            raise KernelStateError("the SONATA network's nodes must be created (Create) before Connect")
        EdgeReader(self._conf, self._nodes.gids).connect(size)
        self._built = True

    def BuildNetwork(self, hdf5_hyperslab_size: int | None = None) -> dict[str, NodeCollection]:
        """Create, then Connect."""
        size = check_hyperslab_size(HYPERSLAB_SIZE if hdf5_hyperslab_size is None else hdf5_hyperslab_size)
        nodes = self.Create()
        self.Connect(size)
        return nodes

    def Simulate(self) -> None:
        """Simulates the config's tstop (or duration) ms, writing its spikes output if it has one."""
        if not self._built:
            raise KernelStateError("the SONATA network must be built (BuildNetwork) before Simulate")
        run = self._conf["run"]
        t = run.get("tstop", run.get("duration"))
        if t is None:
            raise BadParameterError("the SONATA config's run must give tstop or duration")
        if self._output is None and "spikes_file" in self._conf.get("output", {}):
            self._output = self._spike_output()
        Simulate(float(t))

    def _spike_output(self) -> NodeCollection:
        output = self._conf["output"]
        order = output.get("spikes_sort_order", "time")
        if order not in _SORT_ORDERS:
            raise BadParameterError(f"spikes_sort_order must be time, id or none, got spikes_sort_order = {order!r}")
        folder = output.get("output_dir", ".")
        os.makedirs(folder, exist_ok=True)
        recorder = Create("spike_recorder", params={"record_to": "sonata"})
        recorder_files.set_file(
            int(recorder._gids[0]), os.path.join(folder, output["spikes_file"]), _SORT_ORDERS[order]
        )
        for name, nodes in self._nodes.collections.items():
            if name not in self._nodes.virtual:
                Connect(nodes, recorder)
        return recorder
