"""Create, Connect, Disconnect and Simulate."""

import math
import warnings
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from . import _kernel, _state, cable, compartments, list_parameters, spatial, structural_plasticity, synapse_aliases
from .collocated_synapses import CollocatedSynapses, connect_collocated
from .connections import GetConnections, SynapseCollection
from .counts import COUNT_MAX, NODE_IDS
from .errors import (
    BadParameterError,
    IllegalConnectionError,
    UnknownNodeError,
    UnknownParameterError,
    UnsupportedRequestError,
    kernel_errors,
)
from .kernel_settings import t_max
from .models import _model
from .nodes import NodeCollection, kernel_ids, nonempty_nodes
from .parameters import apply_pending, set_parameters
from .random import Parameter


def Create(
    model: str,
    n: int | dict[str, Any] = 1,
    params: dict[str, Any] | list[dict[str, Any]] | None = None,
    positions: spatial.grid | spatial.free | None = None,
    area: str | None = None,
) -> NodeCollection:
    """Creates n nodes of a model and returns them as a NodeCollection. Neurons may belong to
    an `area` (a name); connections between areas are long-range (see placement "area")."""
    m = _model(model)
    if isinstance(n, dict) and params is None:  # PyNEST accepts Create(model, params)
        params, n = n, 1
    if m.kind == "synapse":
        raise BadParameterError(f"{model} is a synapse model; Create needs a neuron or device model")
    if positions is not None:
        n = spatial.layer_size(positions, n)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise BadParameterError(f"n must be a positive integer, got n = {n!r}")
    if n > NODE_IDS:
        raise BadParameterError(f"n must be at most {NODE_IDS} (node ids are 32-bit), got n = {n}")
    s = _state.state
    if area is not None and (m.kind != "neuron" or not isinstance(area, str) or not area):
        raise BadParameterError(f"area must be a non-empty name for neurons, got area = {area!r}")
    if m.base == "cable_cell":
        if positions is not None:
            raise BadParameterError("cable_cell takes no positions: spatial layers hold point neurons")
        cells = cable.create(m, int(n), params, s.areas.setdefault(area, len(s.areas)) if area is not None else -1)
        changed = {k: v for k, v in m.defaults.items() if _state.NEURON_MODELS[m.base].get(k) != v}
        if changed:  # SetDefaults and CopyModel of cable_cell (its description aside)
            try:
                set_parameters(cells, changed, model_defaults=True)
            except Exception:
                s.kernel.undo_last_create()
                s.remove_last_range()
                raise
        return cells
    if isinstance(params, dict):  # check names before anything exists
        params = compartments.unfolded(m.base, m.defaults, params)
        for name in params:
            if name not in m.defaults and name != "frozen":  # every node's (parameters.py)
                raise UnknownParameterError(f"{model} has no parameter {name}")
        params = _first_values(m, int(n), params)
    area_id = s.areas.setdefault(area, len(s.areas)) if area is not None else -1
    with kernel_errors():
        if m.kind == "neuron":
            first = s.kernel.create_neurons(m.base, int(n), area_id)
        else:
            first = s.kernel.create_devices(m.base, int(n))
    s.add_range(first, int(n), m)
    if area is not None:
        s.range_areas[first] = area
    nodes = NodeCollection._ascending(range(first, first + int(n)))
    built_in = _state.NEURON_MODELS[m.base] if m.kind == "neuron" else {}
    counts = list_parameters.counts_of(m) if m.kind == "neuron" else {}  # read-only lengths of lists
    defaults = {k: v for k, v in m.defaults.items() if (m.kind == "device" or built_in.get(k) != v) and k not in counts}
    try:
        if positions is not None:
            s.positions[first] = positions.layer(int(n), nodes._gids)
        if m.kind == "neuron" and s.settings["placement"] == "area":
            # placed later, with all areas known; a list of dicts is one per node
            _check_names(m, params)
            s.pending_parameters += [(nodes, p) for p in (defaults, params) if p]
        else:
            if defaults:
                set_parameters(nodes, defaults, model_defaults=True)
            if params is not None:
                set_parameters(nodes, params)
    except Exception:  # rejected parameters or positions: the nodes were never created
        s.positions.pop(first, None)
        s.kernel.undo_last_create()
        s.remove_last_range()
        raise
    return nodes


def _first_values(model, n, params):
    """As NEST's Create, an array of more values than nodes for a number parameter gives the
    first n (NEST's store_restore_network example relies on it); Ranvier says so."""
    out = dict(params)
    for name, value in params.items():
        default = model.defaults.get(name, False)  # frozen: not a model's parameter
        scalar = isinstance(default, (int, float)) and not isinstance(default, bool)
        if scalar and isinstance(value, (list, tuple, np.ndarray)) and np.ndim(value) == 1 and len(value) > n:
            warnings.warn(
                f"{name} has {len(value)} values for {n} nodes of {model.name}: the first {n} are used, as NEST does",
                stacklevel=3,
            )
            out[name] = value[:n]
    return out


def _check_names(model, params):
    for p in params if isinstance(params, (list, tuple)) else [params or {}]:
        for name in p:
            if name not in model.defaults:
                raise UnknownParameterError(f"{model.name} has no parameter {name}")


def _value_spec(name, value):
    """(kind, p0, p1, min, max, clip min, clip max, values) for the kernel; the rule checks an
    array's shape."""
    if isinstance(value, Parameter):
        return value.spec()
    if isinstance(value, (bool, str)) or value is None:
        raise BadParameterError(f"{name} must be a number, array or random parameter, got {name} = {value!r}")
    try:
        values = np.asarray(value, dtype=float)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an integer beyond any double
        raise BadParameterError(f"{name} must be a number, array or random parameter, got {name} = {value!r}") from None
    if np.isnan(values).any():
        raise BadParameterError(f"{name} must not be NaN, got {name} = nan")
    if values.ndim == 0:
        return ("constant", float(values), 0.0, -math.inf, math.inf, -math.inf, math.inf, np.empty(0))
    return ("array", 0.0, 0.0, -math.inf, math.inf, -math.inf, math.inf, np.ascontiguousarray(values))


_FLAGS = ("allow_autapses", "allow_multapses", "make_symmetric")


def _conn_spec(conn_spec):
    """The conn_spec as a dict with a rule name and checked flags; the kernel checks the rule
    and its own parameters."""
    if conn_spec is None:
        conn_spec = {"rule": "all_to_all"}
    if isinstance(conn_spec, str):
        conn_spec = {"rule": conn_spec}
    if not isinstance(conn_spec, dict) or "rule" not in conn_spec:
        raise BadParameterError(f"conn_spec must be a rule name or a dict with 'rule', got {conn_spec!r}")
    if not isinstance(conn_spec["rule"], str):
        raise BadParameterError(f"unknown connection rule: rule = {conn_spec['rule']!r}")
    for key in _FLAGS:
        if not isinstance(conn_spec.get(key, True), (bool, np.bool_)):
            raise BadParameterError(f"{key} must be True or False, got {key} = {conn_spec[key]!r}")
    return conn_spec


def _rule_parameters(spec):
    """The rule's own parameters of a checked conn_spec, as the kernel takes them: the rule
    declares and checks them."""
    return {k: _rule_value(k, v) for k, v in spec.items() if k != "rule" and k not in _FLAGS}


def _int64(key, value):
    """An integer within the kernel's 64 bits (it checks the rule's own range)."""
    if value > COUNT_MAX:
        raise BadParameterError(f"{key} must be at most {COUNT_MAX}, got {key} = {value}")
    if value < -COUNT_MAX - 1:
        raise BadParameterError(f"{key} must be at least {-COUNT_MAX - 1}, got {key} = {value}")
    return int(value)


def _rule_value(key, value):
    """A rule parameter as the binding passes it on, whatever the rule: a bool, a 64-bit int, a
    float, a one-dimensional int64 or float64 array, or anything else as its text (which the
    kernel names in its error)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, Parameter) and value.kind == "constant":  # CreateParameter("constant", ...)
        value = int(value.p0) if float(value.p0).is_integer() else value.p0
    if isinstance(value, (int, np.integer)):
        return _int64(key, value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, (list, tuple, np.ndarray)):
        array = np.asarray(value)
        if array.ndim == 0:
            return _rule_value(key, array.item())
        if array.ndim == 1 and array.dtype.kind in "iu":
            if array.size:
                _int64(key, int(array.max())), _int64(key, int(array.min()))
            return np.ascontiguousarray(array, dtype=np.int64)
        if array.ndim == 1 and array.dtype.kind in "fb" or array.size == 0:
            return np.ascontiguousarray(array.ravel(), dtype=float)
        return f"an array of shape {array.shape}"
    return repr(value)


def _syn_spec(syn_spec):
    if syn_spec is None:
        syn_spec = {}
    if isinstance(syn_spec, str):
        syn_spec = {"synapse_model": syn_spec}
    if not isinstance(syn_spec, dict):
        raise BadParameterError(f"syn_spec must be a model name or a dict, got {syn_spec!r}")
    m = _model(syn_spec.get("synapse_model", "static_synapse"))
    if m.kind != "synapse":
        raise BadParameterError(f"synapse_model must be a synapse model, got synapse_model = {m.name!r}")
    syn_spec = synapse_aliases.as_named(m.base, syn_spec)
    per_connection = _state.PER_CONNECTION[m.base]
    for key in syn_spec:
        if key != "synapse_model" and key not in per_connection:
            if key == "receptor_type":
                continue
            if key in ("weight", "delay") and m.base in _state.COUPLING_SYNAPSES:  # NEST: BadProperty
                raise BadParameterError(
                    f"{m.name} connection has no {key} of its own"
                    + (": it is the kernel's wfr_comm_interval" if key == "delay" else "")
                )
            if key in m.defaults:  # as NEST 3.10 when run: NotImplemented
                raise UnsupportedRequestError(
                    f"{key} is common to all {m.name} synapses; set it with SetDefaults or CopyModel"
                )
            raise UnknownParameterError(f"{m.name} has no parameter {key}")
    return m, syn_spec.get("weight", m.defaults["weight"]), syn_spec.get("delay", m.defaults["delay"])


def _record_parameters(m, syn_spec):
    """The per-connection parameters in syn_spec beside weight and delay (one number each)."""
    if not isinstance(syn_spec, dict):
        return {}
    given = {k: v for k, v in syn_spec.items() if k in _state.RECORD_PARAMETERS[m.base]}
    for k, v in given.items():
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise BadParameterError(f"{k} takes one number per Connect call in Ranvier, got {k} = {v!r}")
    return {k: float(v) for k, v in given.items()}


def _rule_name(conn_spec):
    if conn_spec is None:
        return "all_to_all"
    return conn_spec.get("rule", "all_to_all") if isinstance(conn_spec, dict) else conn_spec


def _as_ids(nodes, name):
    """pre or post of Connect as node ids: a NodeCollection's, or a list's, tuple's or array's."""
    if isinstance(nodes, NodeCollection):
        return nodes._gids.astype(np.int64)
    ids = np.asarray(nodes)
    if ids.size and ids.dtype.kind not in "iu":
        raise TypeError(f"{name} node ids must be integers, got {name} = {nodes!r}")
    if ids.ndim != 1:
        raise BadParameterError(f"{name} must be one-dimensional, got shape {ids.shape}")
    ids = ids.astype(np.int64)
    outside = ids[(ids < 1) | (ids > _state.state.n_nodes)]
    if outside.size:
        raise UnknownNodeError(f"{name} node {outside[0]} does not exist")
    return ids


def _inputs(pre, post, conn_spec):
    """pre and post as PyNEST reads them: NodeCollections as they are; lists, tuples or arrays
    of distinct ids as NodeCollections, except under one_to_one, where they (and arrays with
    repeated ids) pair up position by position. Returns (pairs, pre, post): pairs when pre
    and post are id arrays to pair up."""
    one_to_one = _rule_name(conn_spec) == "one_to_one"
    if isinstance(pre, NodeCollection) and isinstance(post, NodeCollection):
        pre._check_kernel()
        post._check_kernel()
        return False, pre, post
    ids = _as_ids(pre, "pre"), _as_ids(post, "post")
    if not one_to_one and all(np.unique(i).size == i.size for i in ids):
        return False, NodeCollection(ids[0]), NodeCollection(ids[1])
    if ids[0].size != ids[1].size:
        raise BadParameterError(
            f"pre and post with repeated node ids must have the same length, got {ids[0].size} and {ids[1].size}"
        )
    if not one_to_one:
        raise BadParameterError(
            f"pre and post with repeated node ids connect one_to_one only, got rule = {_rule_name(conn_spec)!r}"
        )
    return True, ids[0], ids[1]


def Connect(
    pre: NodeCollection | ArrayLike,
    post: NodeCollection | ArrayLike,
    conn_spec: str | dict[str, Any] | None = None,
    syn_spec: str | dict[str, Any] | CollocatedSynapses | None = None,
    return_synapsecollection: bool = False,
) -> SynapseCollection | None:
    """Connects pre to post by a rule (PyNEST's Connect); with return_synapsecollection, returns
    the new connections as a SynapseCollection (those to and from recorders are in none). pre
    and post may be lists or arrays of node ids, as in PyNEST; under one_to_one they pair up
    position by position, ids may repeat, and each syn_spec value may be one per pair.
    syn_spec may be CollocatedSynapses: a connection per spec for each pair the rule chooses."""
    if isinstance(syn_spec, CollocatedSynapses):
        if return_synapsecollection:
            raise BadParameterError("Connect returns no SynapseCollection for CollocatedSynapses")
        connect_collocated(lambda spec: Connect(pre, post, conn_spec, spec), syn_spec)
        return None
    pairs, pre, post = _inputs(pre, post, conn_spec)
    if pairs:
        if return_synapsecollection:
            raise BadParameterError("Connect returns no SynapseCollection when it pairs up arrays of node ids")
        return connect_pairs(pre, post, syn_spec)
    if not return_synapsecollection:
        return _connect(pre, post, conn_spec, syn_spec)
    model = _syn_spec(syn_spec)[0].name
    pre, post = nonempty_nodes(pre, "pre"), nonempty_nodes(post, "post")
    before = GetConnections(pre, post, synapse_model=model)
    _connect(pre, post, conn_spec, syn_spec)
    return added_connections(before, GetConnections(pre, post, synapse_model=model))


def added_connections(before: SynapseCollection, after: SynapseCollection) -> SynapseCollection:
    """The connections of after that before lacks (both of the same nodes and synapse model)."""
    # each (source, target) pair's new connections come after its old ones, in creation order
    old_keys, old_counts = np.unique(_pair_keys(before), return_counts=True)
    keys = _pair_keys(after)
    at = np.searchsorted(old_keys, keys)
    known = at < len(old_keys)
    known[known] = old_keys[at[known]] == keys[known]
    old = np.zeros(len(keys), dtype=np.int64)
    old[known] = old_counts[at[known]]
    return after[np.flatnonzero(after._multapse >= old)]


def _pair_keys(conns):
    return conns._values["source"] * (1 << 32) + conns._values["target"]


def _connect(pre, post, conn_spec, syn_spec, half_of_symmetric=False):
    apply_pending()
    pre, post = nonempty_nodes(pre, "pre"), nonempty_nodes(post, "post")
    s = _state.state
    pre_kinds, post_kinds = s.models_in(pre._ids), s.models_in(post._ids)
    pre_models, post_models = {m.base for m in pre_kinds}, {m.base for m in post_kinds}
    samplers = {m for m in _state.RECORDERS if _state.RECORDS[m] == "samples"}
    if post_models & samplers:
        name = sorted(post_models & samplers)[0]
        raise BadParameterError(
            f"a {name} is the source of its connections: Connect({name}, neurons), not Connect(neurons, {name})"
        )
    for side, models, recorders in (("post", post_models, _state.RECORDERS), ("pre", pre_models, samplers)):
        if models & recorders and models - recorders:
            raise BadParameterError(
                f"{side} mixes recorders ({', '.join(sorted(models & recorders))}) with other nodes "
                f"({', '.join(sorted(models - recorders))}): connect them in separate calls"
            )
    if post_models & _state.RECORDERS:
        _connect_recorder(pre, post, post_models, pre_models, conn_spec, syn_spec)
        return
    if pre_models & samplers:
        _connect_recorder(post, pre, pre_models, post_models, conn_spec, syn_spec)
        return
    if any(m.kind != "neuron" for m in post_kinds):
        raise BadParameterError("post must be neurons (or a recorder)")
    if pre_models & _state.RECORDERS:
        raise BadParameterError("pre must be neurons or stimulating devices (or a sampling recorder)")
    kinds = _kinds(pre._ids)
    if len(kinds) > 1:
        return _connect_kinds(pre, post, kinds, conn_spec, syn_spec)
    symmetric = isinstance(conn_spec, dict) and conn_spec.get("make_symmetric", False) is True
    rule = _rule_name(conn_spec)
    elements = structural_plasticity.sp_elements(syn_spec, rule)
    if elements:  # the connections take synaptic elements of their neurons
        if symmetric:
            raise UnsupportedRequestError("symmetric connections cannot take synaptic elements (NEST's rule)")
        _connect(pre, post, conn_spec, structural_plasticity.without_elements(syn_spec))
        autapses = _conn_spec(conn_spec).get("allow_autapses", True)
        structural_plasticity.count_connected(pre._gids, post._gids, rule, elements, bool(autapses), 1)
        return
    if not half_of_symmetric:
        _refuse_one_way(pre, post, rule, symmetric, syn_spec)
    if _state.RULE_TRAITS.get(rule, {}).get("both_ways"):  # the rule makes both directions itself
        if not symmetric:
            raise BadParameterError(f"make_symmetric must be True for rule {rule}, as in NEST")
    elif symmetric:
        return _connect_symmetric(pre, post, conn_spec, syn_spec)
    if _arrays_of_record_parameters(syn_spec) and _rule_name(conn_spec) in ("one_to_one", "all_to_all"):
        return _connect_arrays_of_parameters(pre, post, conn_spec, syn_spec)
    if spatial.connect.is_spatial(conn_spec, syn_spec):
        for name, nodes in (("pre", pre), ("post", post)):
            if nodes.spatial is None:
                raise TypeError(f"{name} must be a layer (nodes created with positions) for a spatial Connect")
        synapse, weight, delay = _syn_spec(syn_spec)
        target = spatial.connect.Target(
            _receptor(post, syn_spec, synapse.defaults["receptor_type"]), _record_parameters(synapse, syn_spec)
        )
        return spatial.connect.connect(pre, post, conn_spec, syn_spec, synapse, weight, delay, target)
    _connect_ids(pre._ids, post._ids, conn_spec, syn_spec)


def _connect_ids(sources, targets, conn_spec, syn_spec):
    """The kernel's Connect of senders of one kind (neurons, or devices of one model) to
    neurons (targets ascending and distinct; one_to_one: pairs in any order). Ids are arrays,
    or ranges of consecutive ones, which the kernel takes as (first, count): no array of a
    whole population is made."""
    synapse, weight, delay = _syn_spec(syn_spec)
    parameters = _record_parameters(synapse, syn_spec)
    spec = _conn_spec(conn_spec)
    autapses, multapses = bool(spec.get("allow_autapses", True)), bool(spec.get("allow_multapses", True))
    rule_parameters = _rule_parameters(spec)
    w = _value_spec("weight", weight)
    d = _value_spec("delay", delay)
    named = isinstance(syn_spec, dict) and isinstance(syn_spec.get("receptor_type"), str)  # a cable cell's synapse
    post = NodeCollection._ascending(targets if isinstance(targets, range) else np.unique(targets)) if named else None
    receptor = _receptor(post, syn_spec, synapse.defaults["receptor_type"], drawn=True)
    with kernel_errors():
        _state.state.kernel.connect(
            spec["rule"],
            kernel_ids(sources),
            kernel_ids(targets),
            rule_parameters,
            autapses,
            multapses,
            w,
            d,
            synapse.synapse_id,
            receptor,
            parameters,
        )


def _arrays_of_record_parameters(syn_spec):
    """The per-connection parameters beside weight and delay given one per connection."""
    if not isinstance(syn_spec, dict):
        return []
    return [k for k, v in syn_spec.items() if k not in ("weight", "delay") and isinstance(v, (list, tuple, np.ndarray))]


def _connect_arrays_of_parameters(pre, post, conn_spec, syn_spec):
    """one_to_one or all_to_all with an array of a per-connection parameter that the kernel takes
    one of per call (alpha, receptor_type, ...): as the pairs of the rule, each with its values
    (all_to_all's arrays are targets x sources, as NEST's)."""
    spec = _conn_spec(conn_spec)
    if spec["rule"] == "one_to_one":
        return connect_pairs(pre._gids, post._gids, syn_spec, spec)
    n_pre, n_post = len(pre), len(post)
    share = dict(syn_spec)
    for key, value in syn_spec.items():
        if isinstance(value, (list, tuple, np.ndarray)):
            share[key] = np.asarray(value)
            if share[key].shape != (n_post, n_pre):
                raise BadParameterError(
                    f"{key} needs one value per connection, an array of {n_post} x {n_pre} (targets x sources), "
                    f"got shape {share[key].shape}"
                )
            share[key] = share[key].ravel()
    pairs_spec = {"rule": "one_to_one", "allow_autapses": spec.get("allow_autapses", True)}
    connect_pairs(np.tile(pre._gids, n_post), np.repeat(post._gids, n_pre), share, pairs_spec)


def _refuse_one_way(pre, post, rule, symmetric, syn_spec):
    """Gap junctions join neurons both ways (NEST's requires_symmetric)."""
    if not isinstance(syn_spec, (str, dict)):
        return
    model = _syn_spec(syn_spec)[0]
    if model.base not in _state.SYMMETRIC_SYNAPSES:
        return
    drawn = isinstance(syn_spec, dict) and any(not np.isscalar(v) for k, v in syn_spec.items() if k != "synapse_model")
    if (rule == "one_to_one" and symmetric) or (rule == "all_to_all" and pre == post and not drawn):
        return
    raise BadParameterError(
        f"{model.name} joins neurons both ways: Connections with this synapse model can only be created as "
        'one-to-one connections with "make_symmetric" set to true, or all_to_all within one population '
        f"with one value of each parameter (got rule = {rule!r}, make_symmetric = {symmetric})"
    )


def _connect_symmetric(pre, post, conn_spec, syn_spec):
    """NEST's make_symmetric: one_to_one connections and the same ones back (post[k] to pre[k]),
    with the same weight, delay and parameters (numbers or arrays, not drawn)."""
    rule = _rule_name(conn_spec)
    one_way = {k: v for k, v in conn_spec.items() if k != "make_symmetric"}
    if rule not in _state.CONNECTION_RULES:  # the kernel names the rules it has
        return _connect(pre, post, one_way, syn_spec)
    if rule != "one_to_one":
        raise UnsupportedRequestError(f"make_symmetric needs rule one_to_one, as in NEST, got rule = {rule!r}")
    drawn = [k for k, v in (syn_spec or {}).items() if isinstance(v, (Parameter, spatial.parameters.SpatialParameter))]
    if isinstance(syn_spec, dict) and drawn:
        raise BadParameterError(
            f"make_symmetric gives both directions the same values, which a drawn {drawn[0]} does not: "
            f"{drawn[0]} = {syn_spec[drawn[0]]!r}"
        )
    both = [(pre, post), (post, pre)]
    if _syn_spec(syn_spec)[0].base in _state.SYMMETRIC_SYNAPSES:
        both.reverse()  # NEST checks the way back first (its errors name that connection's ends)
    for source, target in both:
        _connect(source, target, one_way, syn_spec, half_of_symmetric=True)


def _kinds(gids):
    """Positions in gids of each kind of sender the kernel connects in one call: the neurons,
    and the devices of each model (a current generator drives a neuron's current input)."""
    s = _state.state
    range_kinds = np.array([m.base if m.kind != "neuron" else "" for m in s.range_models])
    if len(set(range_kinds[s.calls_among(gids)].tolist())) == 1:
        return [range(len(gids))]
    kind = range_kinds[s.range_index(gids)]
    return [np.flatnonzero(kind == k) for k in dict.fromkeys(kind.tolist())]


def _connect_kinds(pre, post, kinds, conn_spec, syn_spec):
    """Connect of a pre that mixes neurons and devices, or devices of several models, as PyNEST
    takes it: the rule's connections of each kind of source, with their share of any array of
    weights or delays."""
    rule = _rule_name(conn_spec)
    per_source = [name for name, traits in _state.RULE_TRAITS.items() if traits["per_source"]]
    if rule not in per_source or spatial.connect.is_spatial(conn_spec, syn_spec):
        raise BadParameterError(
            f"rule {rule} with a pre of neurons and devices, or of several device models: Ranvier connects "
            f"these one kind at a time for the rules {', '.join(per_source)} (non-spatial) only; "
            "call Connect for each kind of pre"
        )
    if rule == "one_to_one" and len(pre) != len(post):
        raise BadParameterError(f"one_to_one needs pre and post of equal size, got {len(pre)} and {len(post)}")
    for positions in kinds:
        part = NodeCollection._ascending(pre._gids[positions])
        targets = NodeCollection._ascending(post._gids[positions]) if rule == "one_to_one" else post
        _connect(part, targets, conn_spec, _syn_spec_share(syn_spec, rule, positions))


def _syn_spec_share(syn_spec, rule, positions):
    """syn_spec for the sources at positions of pre: arrays of weights and delays cut to theirs
    (one_to_one: one per source; all_to_all: targets x sources; fixed_outdegree: sources x
    outdegree)."""
    if not isinstance(syn_spec, dict):
        return syn_spec
    share = dict(syn_spec)
    for key in ("weight", "delay"):
        value = syn_spec.get(key)
        if isinstance(value, (list, tuple, np.ndarray)):
            values = np.asarray(value)
            share[key] = values[:, positions] if rule == "all_to_all" and values.ndim == 2 else values[positions]
    return share


def connect_pairs(pre, post, syn_spec, conn_spec="one_to_one", kept=None):
    """PyNEST's Connect of arrays of node ids: pre[k] to post[k] for every k (ids may repeat),
    each syn_spec value one for all pairs or one per pair (also one_to_one's of collections).
    kept: where given, the pairs this rank passes on (those of its own targets, which the
    kernel would keep of all); every rank checks all pairs and makes the same kernel calls."""
    syn_spec = {"synapse_model": syn_spec} if isinstance(syn_spec, str) else dict(syn_spec or {})
    for wrong, right in (("weights", "weight"), ("delays", "delay")):
        if wrong in syn_spec:
            raise BadParameterError(f"syn_spec names the weight {right!r}, got {wrong!r}")
    n = len(pre)
    if len(post) != n:
        raise BadParameterError(f"one_to_one needs pre and post of equal size, got {n} and {len(post)}")
    per_pair = {}
    for key, value in syn_spec.items():
        if key != "synapse_model" and isinstance(value, (list, tuple, np.ndarray)):
            per_pair[key] = np.asarray(value)
            if per_pair[key].shape != (n,):
                raise BadParameterError(f"{key} needs one value per pair ({n}), got shape {per_pair[key].shape}")
    s = _state.state
    if any(m.kind != "neuron" for m in s.models_among(post)):
        raise BadParameterError("post must be neurons when Connect pairs up arrays of node ids")
    if {m.base for m in s.models_among(pre)} & _state.RECORDERS:
        raise BadParameterError("pre must be neurons or stimulating devices when Connect pairs up arrays of node ids")
    # one kernel call per kind of source and per value of the parameters it takes one of per
    # call (receptor_type, alpha, ...); the kernel's one_to_one takes pairs in any order
    kinds = _kinds(pre)
    once = [k for k in per_pair if k not in ("weight", "delay")]
    if len(kinds) == 1 and not once:
        if kept is None:
            return _connect_ids(pre, post, conn_spec, syn_spec)
        share = {**syn_spec, **{k: per_pair[k][kept] for k in per_pair}}
        return _connect_ids(pre[kept], post[kept], conn_spec, share)
    kind = np.empty(n, dtype=np.int64)
    for k, positions in enumerate(kinds):
        kind[positions] = k
    keys = np.stack([kind] + [per_pair[k].astype(float) for k in once], axis=1)
    groups = np.unique(keys, axis=0, return_inverse=True)[1].ravel()
    for g in range(groups.max() + 1):
        positions = np.flatnonzero(groups == g)
        value_once = {k: per_pair[k][positions[0]].item() for k in once}
        if kept is not None:
            positions = positions[kept[positions]]
        share = {**syn_spec, **{k: per_pair[k][positions] for k in per_pair}}
        share.update(value_once)
        _connect_ids(pre[positions], post[positions], conn_spec, share)


def _receptor(post, syn_spec, default, drawn=False):
    """The input port of the targets: NEST's receptor_type (an int), or a cable cell's synapse
    name; the synapse model's receptor_type where syn_spec has none. drawn: a port per connection
    may also be given as ``uniform_int(n) + k`` (the kernel's spec of it)."""
    receptor = syn_spec.get("receptor_type", default) if isinstance(syn_spec, dict) else default
    if isinstance(receptor, str):
        return cable.port_of(post, receptor)
    if isinstance(receptor, Parameter):
        spec = _drawn_port(receptor) if drawn else None
        if spec is None:
            raise BadParameterError(
                "receptor_type must be a non-negative integer, a synapse name or, for a rule's connections, "
                f"uniform_int(n) + k with k >= 0 an integer, got receptor_type = {receptor!r}"
            )
        return spec
    if isinstance(receptor, bool) or not isinstance(receptor, (int, np.integer)) or receptor < 0:
        raise BadParameterError(
            f"receptor_type must be a non-negative integer or a synapse name, got receptor_type = {receptor!r}"
        )
    if receptor > NODE_IDS:
        raise BadParameterError(f"receptor_type must be at most {NODE_IDS}, got receptor_type = {receptor}")
    return int(receptor)


def _drawn_port(p):
    """The kernel's spec of a parameter that draws ports (integers >= 0, equally likely: uniform_int(n)
    + k), else None."""
    try:
        spec = p.spec()
    except BadParameterError:  # no one distribution
        return None
    kind, _, offset, *bounds = spec[:7]
    unbounded = bounds == [-math.inf, math.inf] * 2
    return spec if kind == "uniform_int" and offset >= 0 and offset == int(offset) and unbounded else None


def Disconnect(
    *args: Any, conn_spec: str | dict[str, Any] | None = None, syn_spec: str | dict[str, Any] | None = None
) -> None:
    """PyNEST's Disconnect: ``Disconnect(conns)`` removes a SynapseCollection's connections;
    ``Disconnect(pre, post, conn_spec="one_to_one", syn_spec="static_synapse")`` removes one
    connection of the synapse model for each pair, pairwise (``one_to_one``) or every pre with
    every post (``all_to_all``), as NEST, and raises naming a pair that has none. The synaptic
    elements a syn_spec names, or the structural_plasticity_synapses entry of its model, are
    freed (structural_plasticity.py)."""
    if args and isinstance(args[0], SynapseCollection):
        if len(args) > 1:
            raise TypeError("Disconnect takes a SynapseCollection alone, or pre, post[, conn_spec[, syn_spec]]")
        if conn_spec is not None or syn_spec is not None:
            raise ValueError("Disconnect(SynapseCollection) takes no conn_spec or syn_spec: the connections are given")
        return args[0].disconnect()
    if len(args) not in (2, 3, 4) or any(isinstance(a, SynapseCollection) for a in args):
        raise TypeError("Disconnect takes a SynapseCollection, or pre, post[, conn_spec[, syn_spec]]")
    pre, post = nonempty_nodes(args[0], "pre"), nonempty_nodes(args[1], "post")
    conn_spec = args[2] if len(args) > 2 else "one_to_one" if conn_spec is None else conn_spec
    syn_spec = args[3] if len(args) > 3 else "static_synapse" if syn_spec is None else syn_spec
    spec = _conn_spec(conn_spec)
    model = syn_spec.get("synapse_model", "static_synapse") if isinstance(syn_spec, dict) else syn_spec
    with kernel_errors():  # the rule's pairs, from the rule registry as Connect's rules
        pairs = np.array(
            _kernel.disconnect_pairs(spec["rule"], pre._gids, post._gids, _rule_parameters(spec)), dtype=np.int64
        ).reshape(-1, 2)
    existing = GetConnections(pre, post, synapse_model=model, gather=True)  # a pair may live on any rank
    first = existing._multapse == 0
    have = set(zip(existing._values["source"][first].tolist(), existing._values["target"][first].tolist()))
    for s, t in pairs.tolist():
        if (s, t) not in have:
            raise BadParameterError(f"Disconnect: there is no {model} connection from node {s} to node {t}")
    keys = np.array(sorted(set(map(tuple, pairs.tolist()))), dtype=np.int64).reshape(-1, 2)
    which = np.isin(_pair_keys(existing), keys[:, 0] * (1 << 32) + keys[:, 1]) & first
    existing[np.flatnonzero(which)].disconnect()
    elements = structural_plasticity.sp_synapse_elements(model) or structural_plasticity.sp_elements(
        syn_spec, spec["rule"]
    )
    if elements:
        structural_plasticity.count_connected(pre._gids, post._gids, spec["rule"], elements, True, -1)


def _connect_recorder(neurons, recorders, recorder_models, neuron_models, conn_spec, syn_spec=None):
    """A recorder of spikes records neurons, or generators that send spikes (their trains as
    they leave, the connection's delay later); a sampler records neurons, or the current
    generators' I (the kernel refuses what a node cannot record). all_to_all: each recorder
    records every node; one_to_one: the k-th recorder the k-th node."""
    kinds = {m.kind for m in _state.state.models_in(neurons._gids)}
    name = sorted(recorder_models)[0]
    records = _state.RECORDS[name]
    if records == "transmissions":
        raise BadParameterError(
            f"a {name} is not connected to nodes: give it to a synapse model, as "
            f"CopyModel(model, new, {{'weight_recorder': wr}}) or SetDefaults"
        )
    if len(recorder_models) > 1 or (kinds != {"neuron"} and neuron_models & _state.RECORDERS):
        raise BadParameterError(
            f"a {name} records neurons and " + ("spike generators" if records == "spikes" else "current generators")
        )
    synapse = _syn_spec(syn_spec)[0] if syn_spec else None
    if synapse is not None and synapse.base in _state.EPROP_SYNAPSES:
        raise IllegalConnectionError(f"{synapse.name} needs e-prop neurons as targets: a {name} is none")
    rule = _rule_name(conn_spec)
    if rule not in ("all_to_all", "one_to_one"):
        raise BadParameterError(f"a {name} connects all_to_all or one_to_one, got rule = {rule!r}")
    if rule == "one_to_one" and len(recorders) != len(neurons):
        raise BadParameterError(
            f"one_to_one needs as many {name}s as nodes they record, got {len(recorders)} and {len(neurons)}"
        )
    synapse, weight, delay = _syn_spec(syn_spec)  # a sampler's delay counts in NEST's delay extrema only
    receptor = synapse.defaults["receptor_type"]
    if isinstance(syn_spec, dict):
        receptor = syn_spec.get("receptor_type", receptor)
    for key, value in (("weight", weight), ("delay", delay), ("receptor_type", receptor)):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise BadParameterError(
                f"{key} of a connection to or from a {name} must be a number, got {key} = {value!r}"
            )
    if isinstance(receptor, float) or receptor < 0:
        raise BadParameterError(f"receptor_type must be a non-negative integer, got receptor_type = {receptor!r}")
    for k, gid in enumerate(recorders._gids.tolist()):
        recorded = neurons._gids[k : k + 1] if rule == "one_to_one" else neurons._gids
        if records == "samples":  # NEST: a multimeter records a node once (every rank knows)
            sampled = _state.state.sampled.get(gid, np.zeros(0, dtype=recorded.dtype))
            again = recorded[np.isin(recorded, sampled)]
            if len(again):
                raise IllegalConnectionError(
                    f"{name} {gid} records node {int(again[0])} already: it records a node once"
                )
        with kernel_errors():
            _state.state.kernel.connect_recorder(gid, recorded, float(delay), int(receptor), float(weight))
        if records == "samples":
            _state.state.sampled[gid] = np.union1d(sampled, recorded)
        calls = _state.state.recorded_calls.setdefault(gid, set())
        calls.update(np.unique(_state.state.range_index(recorded)).tolist())


def steps_of(t: float) -> int:
    """t ms as whole steps. A bad t on some ranks is an error on every rank, before any rank
    starts simulating (a rank that simulated alone would wait for the others in its first
    spike exchange)."""
    s = _state.state
    with kernel_errors():
        real = isinstance(t, (int, float, np.integer, np.floating)) and not isinstance(t, bool)
        if not real or (isinstance(t, (float, np.floating)) and math.isnan(t)):
            raise BadParameterError(f"t must be a number of ms, got t = {t!r}")
        if t < 0:
            raise BadParameterError(f"t must be >= 0, got t = {t}")
        h = s.resolution
        end = t_max(h, s.settings["tics_per_ms"])  # NEST's T_max: the clock's range
        left = end - s.kernel.step * h
        if t > left:  # also inf, and what would not fit the kernel's step count
            raise BadParameterError(f"t must be at most {left} ms (the clock ends at T_max = {end} ms), got t = {t}")
        steps = round(t / h)
        if abs(steps * h - t) > 1e-9 * max(1.0, t):
            raise BadParameterError(f"t must be a multiple of the resolution {h} ms, got t = {t}")
    return int(steps)


def Simulate(t: float) -> None:
    """Advances the network by t ms; a later call continues where this one stopped."""
    steps = steps_of(t)
    apply_pending()
    with kernel_errors():
        _state.state.kernel.simulate(steps)
