"""PyNN's Projection on Ranvier: the connector hands over each target's sources; they are kept
and made by one Connect of (source, target) pairs with their values when the connector is done."""

from collections.abc import Callable
from typing import Any

import numpy as np
from pyNN import common, errors
from pyNN.random import RandomDistribution
from pyNN.space import Space

import ranvier as rv
from ranvier import _state

from . import native, simulator
from .standardmodels import StaticSynapse

# format="array" with several connections between a pair: PyNN's ways of making one value
_COMBINE: dict[str, Callable[[float, float], float]] = {
    "sum": lambda a, b: a + b,
    "min": min,
    "max": max,
    "first": lambda a, b: a,
    "last": lambda a, b: b,
}
_POST_PARAMETERS = ("tau_minus",)  # STDP parameters NEST keeps on the post-synaptic neurons
_PYNN_ONLY = {"dendritic_delay_fraction": 1.0, "w_min": 0.0}  # values Ranvier's models have fixed


class Connection(common.Connection):
    """One connection of a projection, read and written in the kernel when asked."""

    def __init__(self, projection: "Projection", k: int) -> None:
        self._projection, self._k = projection, k
        conns = projection._connections_now()[k]
        self.presynaptic_index = projection.pre.id_to_index(int(conns.source))
        self.postsynaptic_index = projection.post.id_to_index(int(conns.target))

    def _get(self, name: str) -> float:
        return float(self._projection._columns(self._projection._connections_now()[self._k], [name])[0][0])

    def _set(self, name: str, value: float) -> None:
        native = self._projection.synapse_type.translations[name]["translated_name"]
        connection = self._projection._connections_now()[self._k]
        factor = 1000.0 if name == "weight" else 1.0  # the standard synapses' only scaled value
        if name == "weight":
            factor *= float(self._projection._weight_factors(connection.target)[0])
        connection.set({native: value * factor})

    weight = property(lambda self: self._get("weight"), lambda self, v: self._set("weight", v))
    delay = property(lambda self: self._get("delay"), lambda self, v: self._set("delay", v))

    def as_tuple(self, *attribute_names: str) -> tuple:
        return tuple(getattr(self, name) for name in attribute_names)


class Projection(common.Projection):
    __doc__ = common.Projection.__doc__
    _simulator = simulator
    _static_synapse_class = StaticSynapse
    _made = 0  # projections made (they name their synapse models)

    def __init__(self, presynaptic_population, postsynaptic_population, connector, synapse_type=None,
                 source=None, receptor_type=None, space=None, label=None):  # fmt: skip
        common.Projection.__init__(self, presynaptic_population, postsynaptic_population, connector,
                                   synapse_type, source, receptor_type, space or Space(), label)  # fmt: skip
        # each projection its own copy of the model, so that its connections can be told apart
        Projection._made += 1
        self._model = f"{self.synapse_type.ranvier_name}__projection{Projection._made}"
        rv.CopyModel(self.synapse_type.ranvier_name, self._model)
        self._pairs: list[tuple[np.ndarray, int, dict[str, Any]]] = []
        self._gathering = False  # get reads every rank's connections
        if not self._connect_natively(connector):
            connector.connect(self)
            self._make()
        for variable, value in getattr(self, "initial_values", {}).items():  # given before the connections were
            self._set_initial_value_array(variable, value)

    def _targets(self) -> dict[int, tuple[float, int]]:
        """Per target cell (an Assembly may mix cell types): what a translated weight onto it is
        multiplied by, and its receptor_type. A PointNeuron's named receptor is its port
        (from 1); other cells take input at port 0 and inhibition onto conductance-based ones as
        a negative weight (PyNN's conductances are positive, Ranvier's and NEST's models take
        inhibition as negative weights; current-based weights carry their sign already); and
        the cell type's own scale."""
        if not hasattr(self, "_target_of"):
            self._target_of = {}
            for cell in self.post.all_cells:
                celltype = cell.celltype
                named = hasattr(celltype, "get_receptor_type")
                port = celltype.get_receptor_type(self.receptor_type) if named else 0
                inhibitory = not named and self.receptor_type == "inhibitory" and celltype.conductance_based
                self._target_of[int(cell)] = ((-1.0 if inhibitory else 1.0) * celltype.weight_scale, port)
        return self._target_of

    def _weight_factors(self, targets: np.ndarray) -> np.ndarray:
        target_of = self._targets()
        return np.asarray([target_of[int(t)][0] for t in np.atleast_1d(targets)], dtype=float)

    def _ports(self, targets: np.ndarray) -> dict[str, Any]:
        """The receptor_type of each target's connection, where any is not 0."""
        target_of = self._targets()
        ports = np.asarray([target_of[int(t)][1] for t in np.atleast_1d(targets)], dtype=np.int64)
        if not ports.any():
            return {}
        return {"receptor_type": int(ports[0]) if np.all(ports == ports[0]) else ports}

    def _connect_natively(self, connector: Any) -> bool:
        """A connector given a NativeRNG, and weights and delays that are numbers or distributions
        of it, as one Connect by Ranvier's rule (the kernel draws): whether it could."""
        rule = native.conn_spec(connector) if isinstance(getattr(connector, "rng", None), native.NativeRNG) else None
        pre, post = (np.asarray(p.all_cells, dtype=np.int64) for p in (self.pre, self.post))
        factors, ports = np.unique(self._weight_factors(post)), self._ports(post)
        if rule is None or len(factors) != 1 or getattr(self.synapse_type, "from_target", None):
            return False
        if isinstance(ports.get("receptor_type"), np.ndarray):
            return False  # an Assembly whose cells take the receptor at different ports
        if np.any(np.diff(pre) <= 0) or np.any(np.diff(post) <= 0):
            return False  # views in another order: PyNN's own connector
        standard = self.synapse_type.parameter_space
        spec: dict[str, Any] = {"synapse_model": self._model, **_extra_parameters(self.synapse_type), **ports}
        for name in ("weight", "delay"):
            given = standard[name]
            if given.operations or not given.is_homogeneous and not isinstance(given.base_value, RandomDistribution):
                return False
            spec[name] = native.value(
                given.base_value, _scale(self.synapse_type, name) * (factors[0] if name == "weight" else 1.0)
            )
            if spec[name] is None:
                return False
        others = self.synapse_type.native_parameters
        others.shape = (1,)
        per_connection = set(_state.PER_CONNECTION.get(self.synapse_type.ranvier_name, ()))
        for name, value in others.items():
            if name in ("weight", "delay") or name in _PYNN_ONLY.keys() | {"w_min"}:
                continue
            number = float(np.asarray(value.evaluate(simplify=True)).ravel()[0])
            if name in _POST_PARAMETERS:
                rv.NodeCollection(post.tolist()).set({name: number})
            elif name in per_connection:
                spec[name] = number
        rv.Connect(rv.NodeCollection(pre.tolist()), rv.NodeCollection(post.tolist()), rule, spec)
        self._size = len(self._connections_now(gather=True))
        return True

    def _convergent_connect(self, presynaptic_indices, postsynaptic_index, location_selector=None,
                            **connection_parameters):  # fmt: skip
        if location_selector is not None:
            raise NotImplementedError("Ranvier's PyNN back end has no multicompartment cells")
        self._pairs.append((np.asarray(presynaptic_indices), int(postsynaptic_index), connection_parameters))

    def _make(self) -> None:
        if not self._pairs:
            self._size = 0
            return
        sources = np.concatenate([np.asarray(self.pre.all_cells, dtype=np.int64)[i] for i, _, _ in self._pairs])
        post = np.asarray(self.post.all_cells, dtype=np.int64)
        targets = np.concatenate([np.full(len(i), post[j]) for i, j, _ in self._pairs])
        names = self._pairs[0][2].keys()
        values = {name: np.concatenate([np.broadcast_to(p[name], len(i)) for i, _, p in self._pairs]) for name in names}
        self._pairs = []
        spec: dict[str, Any] = {"synapse_model": self._model}
        per_connection = set(_state.PER_CONNECTION.get(self.synapse_type.ranvier_name, ()))
        for name, value in values.items():
            if name in _PYNN_ONLY:
                if not np.all(value == _PYNN_ONLY[name]):
                    raise errors.InvalidParameterValueError(
                        f"{name} must be {_PYNN_ONLY[name]} with Ranvier's {self._model}, got {name} = {value[0]}"
                    )
            elif name in _POST_PARAMETERS:
                rv.NodeCollection(np.unique(targets).tolist()).set({name: float(value[0])})
            elif name in per_connection:
                spec[name] = value.astype(float) * (self._weight_factors(targets) if name == "weight" else 1.0)
            else:
                raise errors.InvalidParameterValueError(f"{self._model} has no parameter {name}")
        spec.update(_extra_parameters(self.synapse_type))
        for name, (excitatory, inhibitory) in getattr(self.synapse_type, "from_target", {}).items():
            spec[name] = _of_targets(targets, inhibitory if self.receptor_type == "inhibitory" else excitatory)
        spec.update(self._ports(targets))
        rv.Connect(sources, targets, "one_to_one", spec)
        self._size = len(sources)  # every rank connects every pair; each keeps its targets'

    def __len__(self) -> int:
        """This rank's connections, as PyNN counts them."""
        return self._size if rv.NumProcesses() == 1 else len(self._connections_now())

    def size(self, gather=True):
        """PyNN's size: with `gather`, all ranks' connections (counted where they were made,
        without mpi4py)."""
        return self._size if gather else len(self)

    @property
    def connections(self):
        return (Connection(self, k) for k in range(len(self._connections_now())))

    def _connections_now(self, gather: bool = False):
        return rv.GetConnections(rv.NodeCollection(sorted({int(i) for i in self.pre.all_cells})),
                                 rv.NodeCollection(sorted({int(i) for i in self.post.all_cells})),
                                 synapse_model=self._model, gather=gather)  # fmt: skip

    def get(self, attribute_names, format, gather=True, with_address=True, multiple_synapses="sum"):
        """PyNN's get. Under MPI its gather is Ranvier's GetConnections(gather=True), not mpi4py's:
        with `gather` (True or "all") every rank gets every connection, in the order one process
        gives them; without it, its own."""
        self._gathering = bool(gather) and rv.NumProcesses() > 1
        try:
            return super().get(attribute_names, format, gather=False, with_address=with_address,
                               multiple_synapses=multiple_synapses)  # fmt: skip
        finally:
            self._gathering = False

    def _get_attributes_as_list(self, names):
        conns = self._connections_now(self._gathering)
        columns = self._columns(conns, names)
        return [tuple(row) for row in zip(*columns)]

    def _get_attributes_as_arrays(self, names, multiple_synapses="sum"):
        conns = self._connections_now(self._gathering)
        columns = self._columns(conns, [n for n in names])
        pre_index = {int(c): k for k, c in enumerate(self.pre.all_cells)}
        post_index = {int(c): k for k, c in enumerate(self.post.all_cells)}
        out = []
        for column in columns[2:] if names[:2] == ["presynaptic_index", "postsynaptic_index"] else columns:
            matrix = np.full((self.pre.size, self.post.size), np.nan)
            combine = _COMBINE[multiple_synapses]
            for s, t, v in zip(np.atleast_1d(conns.source), np.atleast_1d(conns.target), column):
                i, j = pre_index[s], post_index[t]
                matrix[i, j] = v if np.isnan(matrix[i, j]) else combine(matrix[i, j], v)
            out.append(matrix)
        return out

    def _columns(self, conns, names):
        pre_index = {int(c): k for k, c in enumerate(self.pre.all_cells)}
        post_index = {int(c): k for k, c in enumerate(self.post.all_cells)}
        n = len(conns)
        natives = self._native_values(conns)
        columns: list[Any] = []
        for name in names:
            if name == "presynaptic_index":
                columns.append([pre_index[s] for s in np.atleast_1d(conns.source)])
            elif name == "postsynaptic_index":
                columns.append([post_index[t] for t in np.atleast_1d(conns.target)])
            else:  # PyNN asks by native name and wants the standard value
                translation = self._translation_of_native(name)
                columns.append(np.broadcast_to(np.asarray(_standard(translation, natives)), (n,)))
        return columns

    def _translation_of_native(self, native: str) -> dict[str, Any]:
        for translation in self.synapse_type.translations.values():
            if translation["translated_name"] == native:
                return translation
        raise errors.NonExistentParameterError(native, self.synapse_type.__class__.__name__)

    def _native_values(self, conns) -> dict[str, np.ndarray]:
        """Every native value of the connections the translations may need (alpha needs lambda):
        their own, the post-synaptic neurons' and the ones fixed in Ranvier's models."""
        n = len(conns)
        per_connection = set(_state.PER_CONNECTION.get(self.synapse_type.ranvier_name, ()))
        values: dict[str, np.ndarray] = {}
        for pynn_name, translation in self.synapse_type.translations.items():
            native = translation["translated_name"]
            if native in per_connection:
                got = conns.get(native)
                values[native] = np.asarray(got if n > 1 else [got], dtype=float)
            elif native in _POST_PARAMETERS:
                values[native] = _of_targets(np.atleast_1d(conns.target), native)
            elif pynn_name in _PYNN_ONLY:
                values[native] = np.full(n, _PYNN_ONLY[pynn_name] * (1000.0 if pynn_name == "w_min" else 1.0))
        if "weight" in values:
            values["weight"] = values["weight"] / self._weight_factors(conns.target)
        return values

    def _set_initial_value_array(self, variable: str, initial_value: Any) -> None:
        """A synapse's state variable (u of the Tsodyks-Markram and quantal synapses), one value
        per connection in their order, or one for all."""
        conns = self._connections_now()
        if len(conns) == 0:
            return  # before the connections are made: applied once they are
        if getattr(initial_value, "is_homogeneous", False):
            values = np.full(len(conns), float(initial_value.base_value))
        else:
            values = np.asarray(initial_value.evaluate(simplify=False), dtype=float)
        conns.set({variable: values})

    def _set_attributes(self, parameter_space):
        """parameter_space: native values, one per (pre, post) cell pair; each connection takes its pair's."""
        conns = self._connections_now()
        pre_index = np.asarray([self.pre.id_to_index(s) for s in np.atleast_1d(conns.source)], dtype=np.int64)
        post_index = np.asarray([self.post.id_to_index(t) for t in np.atleast_1d(conns.target)], dtype=np.int64)
        parameter_space.shape = (self.pre.size, self.post.size)
        parameter_space.evaluate(simplify=False)
        for name, value in parameter_space.items():
            values = np.asarray(value, dtype=float)[pre_index, post_index]
            if name == "weight":
                values = values * self._weight_factors(conns.target)
            if name in _POST_PARAMETERS:
                rv.NodeCollection(sorted({int(t) for t in np.atleast_1d(conns.target)})).set({name: float(values[0])})
            elif name not in _PYNN_ONLY:
                conns.set({name: values})


def _standard(translation: dict[str, Any], natives: dict[str, np.ndarray]) -> Any:
    """A standard value from native ones, one translation at a time (PyNN's reverse_translate
    evaluates every translation, and a native name such as NEST's lambda is no Python name)."""
    if translation["type"] == "simple":
        return natives[translation["translated_name"]]
    reverse = translation["reverse_transform"]
    return reverse(**natives) if callable(reverse) else eval(reverse, {}, natives)  # noqa: S307 - PyNN's own transforms


def _extra_parameters(synapse_type: Any) -> dict[str, float]:
    """The native values a standard type (or an STDP mechanism's parts) fixes: additive STDP
    is NEST's stdp_synapse with mu_plus = mu_minus = 0."""
    extra: dict[str, float] = dict(getattr(synapse_type, "extra_parameters", {}))
    for part in ("timing_dependence", "weight_dependence"):
        extra.update(getattr(getattr(synapse_type, part, None), "extra_parameters", {}))
    return extra


def _of_targets(targets: np.ndarray, name: str) -> np.ndarray:
    """A parameter of each connection's target neuron, one value per connection."""
    distinct = rv.NodeCollection(np.unique(targets).tolist())
    of_target = dict(zip(distinct.tolist(), np.atleast_1d(distinct.get(name))))
    return np.asarray([of_target[int(t)] for t in targets], dtype=float)


def _scale(synapse_type: Any, name: str) -> float:
    """The factor from a standard value to the native one (weights: 1000, nA or uS to pA or nS)."""
    translation = synapse_type.translations[name]
    if translation["type"] == "simple":
        return 1.0
    forward = translation["forward_transform"]
    return float(forward(**{name: 1.0}) if callable(forward) else eval(forward, {}, {name: 1.0}))  # noqa: S307
