"""PyNEST's TripartiteConnect: primary connections from pre to post, each paired by a
third-factor rule with a node of a third population (an astrocyte), which then gets a connection
from the primary source (third_in) and makes one to the primary target (third_out). The kernel
draws the pairing (connect/third_factor.hpp), keyed by target, for every rank's connections at
once, so the network is the same for any partition."""

from typing import Any

import numpy as np

from . import _state
from .collocated_synapses import CollocatedSynapses, connect_collocated
from .connections import GetConnections
from .errors import BadParameterError, IllegalConnectionError, UnknownParameterError, kernel_errors
from .network import Connect, _syn_spec, added_connections
from .nodes import NodeCollection

THIRD_FACTOR_RULES = {"third_factor_bernoulli_with_pool": ("p", "pool_type", "pool_size")}
SYN_SPEC_KEYS = ("primary", "third_in", "third_out")


def _collocated(key, syn_spec):
    """A syn_specs entry as CollocatedSynapses (NEST's normal form), its values one per call."""
    if syn_spec is None:
        syn_spec = {"synapse_model": "static_synapse"}
    elif isinstance(syn_spec, str):
        syn_spec = {"synapse_model": syn_spec}
    specs = syn_spec if isinstance(syn_spec, CollocatedSynapses) else CollocatedSynapses(syn_spec)
    for spec in specs.syn_specs:
        for entry, value in spec.items():
            if isinstance(value, (list, tuple, np.ndarray)):
                raise ValueError(
                    f"tripartite connections take no parameter lists, got syn_specs[{key!r}][{entry!r}] = {value!r}"
                )
    return specs


def _third_factor_rule(spec, n_post, n_third):
    """The third-factor conn_spec's rule and its parameters, with NEST's defaults."""
    if not isinstance(spec, dict):
        raise BadParameterError(f"third_factor_conn_spec must be a dict, got third_factor_conn_spec = {spec!r}")
    rule = spec.get("rule")
    if rule not in THIRD_FACTOR_RULES:
        raise IllegalConnectionError(
            f"rule must be a third-factor rule ({', '.join(THIRD_FACTOR_RULES)}), got rule = {rule!r}"
        )
    unknown = set(spec) - {"rule", *THIRD_FACTOR_RULES[rule]}
    if unknown:
        raise UnknownParameterError(f"third-factor rule {rule} has no parameter {sorted(unknown)[0]}")
    pool_type = spec.get("pool_type", "random")
    if pool_type not in ("random", "block"):
        raise BadParameterError(f"pool_type must be 'random' or 'block', got pool_type = {pool_type!r}")
    pool_size = spec.get("pool_size", n_third)  # NEST's default: the whole third population
    if isinstance(pool_size, bool) or not isinstance(pool_size, (int, np.integer)):
        raise BadParameterError(f"pool_size must be an integer, got pool_size = {pool_size!r}")
    p = spec.get("p", 1.0)
    if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)):
        raise BadParameterError(f"p must be a number, got p = {p!r}")
    return float(p), pool_type == "random", int(pool_size)


def _partners(sources, targets, positions, third, n_post, rule):
    """The kernel's third-factor pairing (connect/third_factor.hpp) of the primary connections."""
    p, random_pool, pool_size = rule
    with kernel_errors():
        return _state.state.kernel.third_factor_partners(
            sources, targets, positions, third._gids.astype(np.uint32), n_post, p, random_pool, pool_size
        )


def TripartiteConnect(
    pre: NodeCollection,
    post: NodeCollection,
    third: NodeCollection,
    conn_spec: str | dict[str, Any],
    third_factor_conn_spec: dict[str, Any],
    syn_specs: dict[str, Any] | None = None,
) -> None:
    """Connects pre to post by conn_spec (any rule) and pairs each connection made, by the
    third-factor rule, with a node of third (PyNEST's TripartiteConnect). syn_specs: the
    synapse specs of the "primary", "third_in" (pre to third) and "third_out" (third to post)
    connections, static_synapse where missing; each may be CollocatedSynapses."""
    for name, nodes in (("pre", pre), ("post", post), ("third", third)):
        if not isinstance(nodes, NodeCollection):
            raise TypeError(f"{name} must be a NodeCollection, got {type(nodes).__name__}")
    if isinstance(conn_spec, dict) and conn_spec.get("make_symmetric", False):
        raise BadParameterError("make_symmetric must be False for tripartite connections, got make_symmetric = True")
    syn_specs = dict(syn_specs or {})
    unknown = set(syn_specs) - set(SYN_SPEC_KEYS)
    if unknown:
        raise BadParameterError(f"syn_specs takes {', '.join(SYN_SPEC_KEYS)}, got {sorted(unknown)[0]!r}")
    specs = {key: _collocated(key, syn_specs.get(key)) for key in SYN_SPEC_KEYS}
    rule = _third_factor_rule(third_factor_conn_spec, len(post), len(third))
    empty = np.zeros(0, np.uint32)
    _partners(empty, empty, empty, third, len(post), rule)  # the kernel checks the rule before anything is connected
    for key in SYN_SPEC_KEYS:
        for spec in specs[key].syn_specs:
            _syn_spec(spec)

    model = _syn_spec(specs["primary"].syn_specs[0])[0].name
    before = GetConnections(pre, post, synapse_model=model, gather=True)
    connect_collocated(lambda spec: Connect(pre, post, conn_spec, spec), specs["primary"])
    made = added_connections(before, GetConnections(pre, post, synapse_model=model, gather=True))
    # Every rank pairs all primary connections, ordered by target and source.
    sources, targets = made._values["source"].astype(np.uint32), made._values["target"].astype(np.uint32)
    order = np.lexsort((sources, targets))
    sources, targets = sources[order], targets[order]
    post_ids = post._gids
    sorted_post = np.argsort(post_ids, kind="stable")
    positions = sorted_post[np.searchsorted(post_ids, targets, sorter=sorted_post)].astype(np.uint32)
    partners = _partners(sources, targets, positions, third, len(post), rule)
    paired = np.flatnonzero(partners)
    if paired.size == 0:
        return
    Connect(partners[paired], targets[paired], "one_to_one", specs["third_out"])
    Connect(sources[paired], partners[paired], "one_to_one", specs["third_in"])
