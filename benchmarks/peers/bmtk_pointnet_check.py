"""BMTK's PointNet on Ranvier: builds a small network with BMTK's NetworkBuilder (100
iaf_psc_alpha cells, excitatory and inhibitory, 20 virtual Poisson inputs written as a SONATA
spike file), then runs BMTK's pointnet simulator on it twice, in fresh processes: with
``nest`` standing for ``ranvier``, and on NEST 3.10 (--peer-python). Prints one JSON object:
each run's spike count and whether the SONATA spike files BMTK wrote hold the same spikes.

    .venv/bin/python benchmarks/peers/bmtk_pointnet_check.py --peer-python /work/peers-nest/bin/python

Needs bmtk (pip install bmtk) in both Pythons."""

import argparse
import json
import os
import subprocess
import sys
import tempfile

BUILD = r"""
import json, os
import numpy as np
from bmtk.builder.networks import NetworkBuilder
from bmtk.utils.reports.spike_trains import PoissonSpikeGenerator

np.random.seed(1)
p = lambda prob: (lambda s, t: 1 if np.random.rand() < prob else 0)
net = NetworkBuilder("internal")
for name, n in (("exc", 80), ("inh", 20)):
    net.add_nodes(N=n, pop_name=name, ei=name[0], model_type="point_process", model_template="nest:iaf_psc_alpha",
                  dynamics_params="cell.json")
net.add_edges(source={"ei": "e"}, target={}, connection_rule=p(0.1), syn_weight=20.0, delay=1.5,
              dynamics_params="syn.json", model_template="static_synapse")
net.add_edges(source={"ei": "i"}, target={}, connection_rule=p(0.1), syn_weight=-60.0, delay=1.5,
              dynamics_params="syn.json", model_template="static_synapse")
net.build(); net.save_nodes(output_dir="network"); net.save_edges(output_dir="network")
ext = NetworkBuilder("external")
ext.add_nodes(N=20, model_type="virtual", pop_name="bg", ei="e")
ext.add_edges(target=net.nodes(), connection_rule=p(0.3), syn_weight=900.0, delay=2.0, dynamics_params="syn.json",
              model_template="static_synapse")
ext.build(); ext.save_nodes(output_dir="network"); ext.save_edges(output_dir="network")
poisson = PoissonSpikeGenerator(population="external", seed=2)
poisson.add(node_ids=range(20), firing_rate=40.0, times=(0.0, 1.0))
os.makedirs("inputs"); poisson.to_sonata("inputs/bg_spikes.h5")
os.makedirs("components")
json.dump({"I_e": 0.0, "tau_m": 20.0, "C_m": 250.0, "t_ref": 2.0, "E_L": -70.0, "V_th": -55.0, "V_reset": -70.0},
          open("components/cell.json", "w"))
json.dump({}, open("components/syn.json", "w"))
network = lambda name: {"nodes_file": f"$NETWORK_DIR/{name}_nodes.h5", "node_types_file": f"$NETWORK_DIR/{name}_node_types.csv"}
edges = lambda name: {"edges_file": f"$NETWORK_DIR/{name}_internal_edges.h5",
                      "edge_types_file": f"$NETWORK_DIR/{name}_internal_edge_types.csv"}
json.dump({
    "manifest": {"$BASE_DIR": "${configdir}", "$NETWORK_DIR": "$BASE_DIR/network"},
    "run": {"tstop": 1000.0, "dt": 0.1}, "target_simulator": "NEST",
    "inputs": {"bg": {"input_type": "spikes", "module": "sonata", "input_file": "$BASE_DIR/inputs/bg_spikes.h5",
                      "node_set": "external"}},
    "output": {"output_dir": "$BASE_DIR/output", "log_file": "log.txt", "spikes_file": "spikes.h5",
               "overwrite_output_dir": True},
    "components": {"point_neuron_models_dir": "$BASE_DIR/components", "synaptic_models_dir": "$BASE_DIR/components"},
    "networks": {"nodes": [network("internal"), network("external")], "edges": [edges("internal"), edges("external")]},
}, open("config.json", "w"))
"""

RUN = r"""
import sys
if sys.argv[1] == "ranvier":
    import ranvier
    sys.modules["nest"] = ranvier
import h5py
import numpy as np
from bmtk.simulator import pointnet
config = pointnet.Config.from_json("config.json")
config.build_env()
network = pointnet.PointNetwork.from_config(config)
pointnet.PointSimulator.from_config(config, network).run()
with h5py.File("output/spikes.h5") as f:
    spikes = f["spikes/internal"]
    np.save(sys.argv[2], np.stack([spikes["node_ids"][:].astype(float), spikes["timestamps"][:]]))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer-python", required=True, help="a Python with NEST 3.10 and bmtk")
    args = parser.parse_args()
    import numpy as np

    out = {}
    with tempfile.TemporaryDirectory(prefix="bmtk_pointnet_") as folder:
        subprocess.run([sys.executable, "-c", BUILD], cwd=folder, check=True, capture_output=True)
        spikes = {}
        for name, python in (("ranvier", sys.executable), ("nest", args.peer_python)):
            path = os.path.join(folder, f"{name}.npy")
            subprocess.run([python, "-c", RUN, name, path], cwd=folder, check=True, capture_output=True)
            ids, times = np.load(path)
            spikes[name] = sorted(zip(ids.astype(int).tolist(), np.round(times, 9).tolist()))
            out[f"{name}_spikes"] = len(spikes[name])
    out["same_spikes"] = spikes["ranvier"] == spikes["nest"]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
