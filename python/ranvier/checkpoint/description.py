"""The network's structure as the Python layer and the kernel's queries know it (settings,
models, Create calls, devices' parameters, connections, recorders' events), and its rebuild
with the usual calls on any partition. The state that only the kernel holds travels in its
snapshot (kernel/checkpoint.cpp)."""

from typing import Any

import numpy as np

from .. import (
    _state,
    cm,
    kernel_attributes,
    kernel_ref,
    list_parameters,
    models,
    network,
    recording,
    structural_plasticity,
)
from ..errors import UnknownModelError, UnsupportedRequestError
from ..nodes import NodeCollection
from ..python_settings import Settings

# Settings that make the model: the checkpoint's. The others say how it runs (threads, exchange)
# and are those of the kernel that loads it.
MODEL_SETTINGS = (
    "resolution",
    "tics_per_ms",
    "rng_seed",
    "min_delay",
    "max_delay",
    "structural_plasticity_update_interval",
)
CONNECTION_COLUMNS = ("source", "target", "synapse_id", "receptor", "weight", "delay")
# Synapse defaults that name nodes (kept as their ids)
NODE_DEFAULTS = {"weight_recorder", "volume_transmitter"}


def _refuse(what: str) -> None:
    raise UnsupportedRequestError(f"checkpoints do not hold {what} yet")


def describe() -> dict[str, Any]:
    """What rank 0 writes: every rank knows it alike."""
    s = _state.state
    if s.settings["dry_run"]:
        _refuse("dry runs")
    ranges = []
    for first, model, end in zip(s.range_starts, s.range_models, s.range_starts[1:] + [s.n_nodes + 1]):
        lists = {}
        if model.kind == "neuron":
            lists = {name: list(s.kernel.get_list(first, name)) for name in list_parameters.lists_of(model)}
        devices = [s.kernel.device_parameters(g) for g in range(first, end)] if model.kind == "device" else []
        layer = s.positions.get(first)  # spatial.layers.Layer: positions, extent, center, edge_wrap
        ranges.append(
            {
                "model": model.name,
                "first": first,
                "count": end - first,
                "lists": lists,
                "devices": devices,
                "layer": layer,
                "area": s.range_areas.get(first),
                "description": s.cell_descriptions.get(first),  # cable cells
                "cm": cm.definition(first) if model.base in cm.MODELS else None,
            }
        )
    return {
        "settings": {k: s.settings[k] for k in MODEL_SETTINGS},
        "models": [(m.name, m.base, m.kind, dict(m.defaults)) for m in s.models.values()],
        # by kernel id: a loading kernel may number them otherwise (an installed module's come
        # before the network's copies, where the saving one had none or installed it later)
        "synapse_models": list(s.kernel.synapse_model_names()),
        "ranges": ranges,
        "populations": dict(s.populations),
        "structural_plasticity": structural_plasticity.state(),
    }


def connection_columns() -> dict[str, np.ndarray]:
    """This rank's connections of devices and recorders, as GetConnections lists them (the
    kernel's snapshot holds those between neurons as its tables store them)."""
    s = _state.state
    devices = np.asarray(s.device_gids(), dtype=np.uint32)
    recorders = devices[[s.model_of(g).base in _state.RECORDERS for g in devices.tolist()]]
    parts = [s.kernel.get_connections(devices, None, -1, True), s.kernel.get_connections(None, recorders, -1, True)]
    return {f"connection.{k}": np.concatenate([np.asarray(p[k]) for p in parts]) for k in CONNECTION_COLUMNS}


def event_columns() -> dict[str, np.ndarray]:
    """The recorders' events so far (rank 0 holds every rank's), for recorders that keep them."""
    s = _state.state
    out = {}
    for gid in s.device_gids():
        if s.model_of(gid).base not in _state.RECORDERS:
            continue
        senders, times, values = s.kernel.events(gid)
        out[f"events.{gid}.senders"] = np.asarray(senders, dtype=np.uint32)
        out[f"events.{gid}.stamps"] = np.rint(np.asarray(times) / s.resolution).astype(np.int64)
        out[f"events.{gid}.values"] = np.ascontiguousarray(values, dtype=float).ravel()
    return out


def _differs(a: Any, b: Any) -> bool:
    try:
        return not bool(np.array_equal(np.asarray(a, dtype=object), np.asarray(b, dtype=object)))
    except (TypeError, ValueError):
        return a != b


def _unknown(name: str) -> UnknownModelError:
    return UnknownModelError(f"the checkpoint's model {name} is not known here (Install its module first)")


def _models(described: list, kinds: tuple[str, ...]) -> None:
    """CopyModel and SetDefaults as the checkpoint's models have them (copies in their order).
    Those of a module not installed here are left out: the network's nodes and connections
    name the ones it needs."""
    s = _state.state
    for name, base, kind, defaults in described:
        if kind not in kinds or base not in s.models:
            continue
        if name not in s.models:
            models.CopyModel(base, name)
        m = s.models[name]
        counts = list_parameters.counts_of(m) if kind == "neuron" else {}
        changed = {k: v for k, v in defaults.items() if k not in counts and _differs(m.defaults.get(k), v)}
        for key in NODE_DEFAULTS & changed.keys():  # the defaults hold node ids; SetDefaults takes the nodes
            changed[key] = NodeCollection(np.atleast_1d(changed[key]).astype(np.uint32))
        if changed:
            models.SetDefaults(name, changed)


def rebuild(described: dict[str, Any], connections: dict[str, np.ndarray]) -> None:
    """A new kernel with the checkpoint's network: settings, models, nodes (their state comes
    with the snapshot) and connections (every rank's, each rank keeping its own)."""
    s = _state.state
    partition = {k: v for k, v in s.settings.items() if k not in MODEL_SETTINGS}
    mine = dict(Settings.current())
    kernel_attributes.ResetKernel()
    kernel_attributes.SetKernelStatus({**partition, **described["settings"]})
    Settings.owner, Settings.values = kernel_ref.current(), mine
    s = _state.state
    _models(described["models"], ("neuron", "device"))
    for r in described["ranges"]:
        if r["model"] not in s.models:
            raise _unknown(r["model"])
        nodes = network.Create(r["model"], r["count"], params=r["description"], area=r["area"])
        if int(nodes._gids[0]) != r["first"]:
            raise RuntimeError("the rebuilt nodes are numbered differently")  # a defect, not bad input
        if r["lists"]:
            nodes.set(r["lists"])
        if r.get("cm"):  # absent in checkpoints written before cm_default
            nodes.set(r["cm"])
        if r["layer"] is not None:
            s.positions[r["first"]] = r["layer"]
        for gid, params in zip(nodes._gids.tolist(), r["devices"]):
            s.kernel.configure_devices([gid], params)
            recording.configured([gid], params)
    s.populations.update(described["populations"])
    _models(described["models"], ("synapse",))
    structural_plasticity.restore(described["structural_plasticity"])
    _connect({**connections, "connection.synapse_id": synapse_ids(described, connections["connection.synapse_id"])})


def synapse_ids(described: dict[str, Any], saved: np.ndarray) -> np.ndarray:
    """The saving kernel's synapse model ids as this kernel numbers the same models (by name)."""
    if "synapse_models" not in described:  # saved before the checkpoint named them: as numbered
        return saved
    names = _state.state.kernel.synapse_model_names()
    now = {name: i for i, name in enumerate(names)}
    renumbered = np.empty(len(described["synapse_models"]), dtype=np.uint32)
    for i, name in enumerate(described["synapse_models"]):
        renumbered[i] = now.get(name, len(names))  # past the end: this kernel lacks it
    ids = renumbered[np.asarray(saved, dtype=np.int64)]
    if np.any(ids == len(names)):
        raise _unknown(described["synapse_models"][int(saved[ids == len(names)][0])])
    return ids


def _connect(c: dict[str, np.ndarray]) -> None:
    s = _state.state
    source, target = c["connection.source"], c["connection.target"]
    if len(source) == 0:
        return
    is_recorder = np.zeros(s.n_nodes + 1, dtype=bool)
    for gid in s.device_gids():
        is_recorder[gid] = s.model_of(gid).base in _state.RECORDERS
    to_recorder, from_recorder = is_recorder[target], is_recorder[source]
    _connect_recorders(target[to_recorder], source[to_recorder], {k: v[to_recorder] for k, v in c.items()})
    _connect_recorders(source[from_recorder], target[from_recorder], {k: v[from_recorder] for k, v in c.items()})
    # The stimulating devices' (the kernel keeps those between neurons), in the order listed: each
    # (source, target)'s connections keep the order they were made in. One call per synapse
    # model and receptor.
    stimuli = ~(to_recorder | from_recorder)
    columns = {k: v[stimuli] for k, v in c.items()}
    groups = (columns["connection.synapse_id"].astype(np.int64) << 32) | columns["connection.receptor"]
    for group in np.unique(groups).tolist():
        _connect_pairs(columns, groups == group, group >> 32, group & 0xFFFFFFFF)


def _connect_pairs(columns: dict[str, np.ndarray], pick: np.ndarray, synapse: int, receptor: int) -> None:
    s = _state.state
    name = s.kernel.synapse_model_names()[synapse]
    model = s.models[name]
    weights = columns["connection.weight"][pick]
    weight = network._value_spec("weight", float(weights[0]) if _common_weight(model) else weights)
    delay = network._value_spec("delay", columns["connection.delay"][pick])
    with network.kernel_errors():
        s.kernel.connect(
            "one_to_one",
            np.ascontiguousarray(columns["connection.source"][pick], dtype=np.uint32),
            np.ascontiguousarray(columns["connection.target"][pick], dtype=np.uint32),
            {},
            True,
            True,
            weight,
            delay,
            synapse,
            receptor,
            {},
        )


def _common_weight(model: _state.Model) -> bool:
    return "weight" not in _state.PER_CONNECTION.get(model.base, ("weight",))


def _connect_recorders(recorders: np.ndarray, nodes: np.ndarray, columns: dict[str, np.ndarray]) -> None:
    """Each recorder's connections, as Connect made them (grouped by delay, and for recorders of
    spikes by receptor_type and weight; in their order)."""
    s = _state.state
    for gid in np.unique(recorders).tolist():
        spikes = _state.RECORDS[s.model_of(gid).base] == "spikes"  # a sampler's receptor counts its connections
        mine = np.flatnonzero(recorders == gid)
        keys = np.stack(
            [columns["connection.delay"][mine]]
            + [
                columns[f"connection.{k}"][mine].astype(float) if spikes else np.zeros(len(mine))
                for k in ("receptor", "weight")
            ],
            axis=1,
        )
        for delay, port, weight in np.unique(keys, axis=0).tolist():
            recorded = np.unique(nodes[mine[np.all(keys == (delay, port, weight), axis=1)]])
            with network.kernel_errors():
                s.kernel.connect_recorder(
                    gid, np.ascontiguousarray(recorded, dtype=np.uint32), delay, int(port), weight if spikes else 1.0
                )
            s.recorded_calls.setdefault(gid, set()).update(np.unique(s.range_index(recorded)).tolist())


def restore_events(columns: dict[str, np.ndarray]) -> None:
    s = _state.state
    for key in columns:
        if key.startswith("events.") and key.endswith(".senders"):
            gid = int(key.split(".")[1])
            s.kernel.restore_events(gid, columns[key], columns[f"events.{gid}.stamps"], columns[f"events.{gid}.values"])
