"""Building very large networks (10^8 neurons, as in hpc's dry run at scale 17,778) with as
little Python work as possible.

The benchmarks use these functions above :data:`THRESHOLD` neurons (``--bulk auto``). They make
the same kernel calls as rv.Create and rv.Connect:

- :func:`create` creates the nodes with the model's built-in values (rv.Create without
  params) and then sets the parameters of THIS rank's neurons only. Under round-robin placement
  rank r of M owns the gids with gid % M == r, so a dry run of M = 28,672 ranks sets ~7,000
  neurons instead of 2e8 (other placements ask the kernel which gids are local). Random values
  are drawn with one draw_node_values call per parameter, as rv.Create does, so V_m comes out
  the same as with rv.Create (the hpc dry runs give identical spike counts both ways).
- :func:`connect` passes gid arrays to the kernel's connect as rv.Connect does, without
  rv.Connect's model checks (the benchmark's populations are known to be neurons).

History: when this was written, rv.Create(params=...) and rv.Connect looked up the model of
every node in Python (one list entry per node) and would not have fitted at 2e8 neurons. The
Python layer has since learnt to do that per Create call (commit b865a82), and the public path
now also builds the 2e8-neuron dry run (``--bulk no``: 51 s, 6,427 MiB peak, against 41-62 s
and 5,664 MiB in bulk). NodeCollection ``a + b`` is still slow at that size (np.intersect1d: ~10 s at
1e7 nodes), so the brunel builder avoids it either way.

Both use private parts of the Python layer (``ranvier._state``, ``ranvier.network._value_spec``)
and need updating if those change.
"""
import numpy as np

import ranvier as rv
from ranvier import _state
from ranvier.errors import kernel_errors
from ranvier.random import Parameter

THRESHOLD = 4_000_000  # neurons above which the benchmarks build in bulk by default
CHUNK = 1 << 21        # gids per set_variables call when every gid must be passed


def gids(nodes):
    """The uint32 gid array of a NodeCollection (no copy)."""
    return nodes._gids


def _ranks_and_rank():
    s = _state.state
    dry = int(s.settings.get("dry_run", 0))
    return (dry, 0) if dry else (rv.NumProcesses(), rv.Rank())


def local_gids(first, count):
    """This rank's gids among first .. first + count - 1, or None if the placement is not
    round-robin (then the caller passes every gid and the kernel skips the foreign ones)."""
    if _state.state.settings.get("placement", "round_robin") != "round_robin":
        return None
    m, r = _ranks_and_rank()
    start = first + (r - first) % m
    return np.arange(start, first + count, m, dtype=np.uint32)


def _values(name, value, g):
    if isinstance(value, Parameter):
        with kernel_errors():
            return _state.state.kernel.draw_node_values(value.spec(), g)
    return np.full(len(g), float(value))


def set_params(nodes, params):
    """Sets neuron parameters (numbers or rv.random parameters) of a range of neurons."""
    if not params:
        return
    g_all = gids(nodes)
    first, count = int(g_all[0]), len(g_all)
    if int(g_all[-1]) - first + 1 != count:
        raise ValueError("bulk.set_params needs a contiguous range of gids")
    names = list(params)
    mine = local_gids(first, count)
    kernel = _state.state.kernel
    if mine is None and hasattr(kernel, "local_positions"):  # other placements: ask the kernel
        with kernel_errors():
            mine = np.ascontiguousarray(g_all[kernel.local_positions(g_all)])
    chunks = [mine] if mine is not None else (
        [g_all] if count <= CHUNK * 8 else [g_all[k:k + CHUNK] for k in range(0, count, CHUNK)])
    for g in chunks:
        if not len(g):
            continue
        values = np.stack([_values(n, params[n], g) for n in names])
        with kernel_errors():
            _state.state.kernel.set_variables(names, np.ascontiguousarray(g), np.ascontiguousarray(values))


def create(model, n, params=None):
    """rv.Create(model, n, params) for neuron models, without per-node Python work."""
    nodes = rv.Create(model, int(n))
    set_params(nodes, params or {})
    return nodes


def _constant(name, value):
    """The kernel's value spec of a constant, made by rv.Connect's own helper."""
    from ranvier.network import _value_spec

    return _value_spec(name, float(value), None, "bulk")


def connect(pre, post, conn_spec, synapse_model, weight, delay):
    """rv.Connect(pre, post, conn_spec, {synapse_model, weight, delay}) for gid arrays
    (ascending uint32) of neurons or of one stimulating device, constant weight and delay."""
    s = _state.state
    model = s.models[synapse_model]
    rule = conn_spec["rule"]
    degree, degrees = 0, np.empty(0, dtype=np.int64)
    if rule == "fixed_indegree":
        value = conn_spec["indegree"]
        if np.ndim(value) == 0:
            degree = int(value)
        else:
            degrees = np.ascontiguousarray(value, dtype=np.int64)
    elif rule not in ("all_to_all", "one_to_one"):
        raise ValueError(f"bulk.connect does not support rule {rule}")
    autapses = bool(conn_spec.get("allow_autapses", True))
    multapses = bool(conn_spec.get("allow_multapses", True))
    pre = np.ascontiguousarray(pre, dtype=np.uint32)
    post = np.ascontiguousarray(post, dtype=np.uint32)
    with kernel_errors():
        s.kernel.connect(rule, pre, post, degree, degrees, 0.0, autapses, multapses, _constant("weight", weight),
                         _constant("delay", delay), model.synapse_id)
