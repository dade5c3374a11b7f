"""PyNN's Population, PopulationView and Assembly on Ranvier: a population is one Create call
(a spike source's also its generators, each feeding its cell, a parrot_neuron)."""

from typing import Any

import numpy as np
from lazyarray import larray
from pyNN import common, errors
from pyNN.parameters import ArrayParameter, ParameterSpace, Sequence, simplify
from pyNN.standardmodels import StandardCellType

import ranvier as rv

from . import simulator
from .recording import Recorder

_SHIFTED = ("spike_times", "start", "stop", "origin")  # a spike source's times: relative to the last reset


def _nodes(ids: np.ndarray) -> tuple[Any, np.ndarray]:
    """A NodeCollection of the node ids, and the positions in it of the ids as given."""
    ids = np.asarray(ids, dtype=np.int64)
    order = np.argsort(ids, kind="stable")
    return rv.NodeCollection(ids[order].tolist()), np.argsort(order)


class _Cells:
    """What Population and PopulationView share: getting and setting native values of their cells."""

    celltype: Any
    size: int
    all_cells: Any

    @property
    def _root(self) -> Any:
        """The Population (of a view, its grandparent)."""
        return self.grandparent if hasattr(self, "grandparent") else self

    def _parameter_ids(self) -> np.ndarray:
        """The nodes that hold the cells' parameters (a spike source's generators)."""
        root = self._root
        cells = np.asarray(self.all_cells, dtype=np.int64)
        if root._generators is None:
            return cells
        return cells - root._nodes[0].global_id + root._generators[0].global_id

    def _shift(self, name: str) -> float:
        """What a spike source's time parameter adds: the offset of the last reset, less the
        delay to the parrot for spike times (the parrot emits them at the times given)."""
        celltype = self.celltype
        if not getattr(celltype, "spike_source", False) or name not in _SHIFTED:
            return 0.0
        return simulator.state.offset - (self._root._parrot_delay if name == "spike_times" else 0.0)

    def _get_native_parameters(self, *names: str) -> ParameterSpace:
        nodes, positions = _nodes(self._parameter_ids())
        values = {}
        for name in names:
            got = nodes.get(name)
            got = got if isinstance(got, (tuple, list, np.ndarray)) and len(nodes) > 1 else [got]
            if name == "spike_times":
                values[name] = np.array(
                    [Sequence(np.asarray(got[p]) - self._shift(name)) for p in positions], dtype=Sequence
                )
            elif _listed(got, len(nodes)):  # a list per cell (gif's tau_stc): PyNN's ArrayParameters
                values[name] = np.array([ArrayParameter(np.asarray(got[p], dtype=float)) for p in positions])
            else:
                values[name] = simplify(np.asarray(got, dtype=float)[positions] - self._shift(name))
        return ParameterSpace(values, shape=(len(positions),))

    def _get_parameters(self, *names: str) -> ParameterSpace:
        celltype = self.celltype
        dotted = [name for name in names if "." in name]
        if dotted:  # a PointNeuron's receptor parameters ("AMPA.tau_syn"), from its model's lists
            plain = [name for name in names if "." not in name]
            space = self._get_parameters(*plain) if plain else ParameterSpace({}, shape=(self.size,))
            first = rv.NodeCollection([int(self.all_cells[0])])
            lists = {key: np.atleast_1d(first.get(key)) for key in celltype.receptor_lists()}
            for name in dotted:
                space[name] = celltype.receptor_parameter(lists, name)
            return space
        if isinstance(celltype, StandardCellType):
            if any(name in celltype.computed_parameters() for name in names):
                native_names = celltype.get_native_names()
            else:
                native_names = celltype.get_native_names(*names)
            return celltype.reverse_translate(self._get_native_parameters(*native_names))
        return self._get_native_parameters(*names)

    def _set_parameters(self, parameter_space: ParameterSpace) -> None:
        """parameter_space holds native names and values."""
        parameter_space.shape = (self.size,)
        parameter_space.evaluate(simplify=False)
        nodes, positions = _nodes(self._parameter_ids())
        order = np.argsort(positions)  # nodes' order -> positions in this population
        values = dict(parameter_space.items())
        lists = {name: values.pop(name) for name in list(values) if _holds_lists(values[name])}
        trains = values.pop("spike_times", None)
        if trains is not None and not (isinstance(trains, np.ndarray) and trains.shape == (self.size,)):
            trains = [trains] * self.size  # one train for every cell
        columns = {
            name: np.broadcast_to(np.asarray(value, dtype=float), (self.size,))[order] + self._shift(name)
            for name, value in values.items()
        }
        defaults = rv.GetDefaults(self._model_name())
        for name, column in columns.items():  # integer parameters (gamma_shape) as integers
            if isinstance(defaults.get(name), int) and not isinstance(defaults.get(name), bool):
                columns[name] = np.rint(column).astype(np.int64)
        if lists:  # a list per cell, in the nodes' order, with the rest
            per_cell = {name: _per_cell(value, self.size) for name, value in lists.items()}
            nodes.set([{**{n: v[k] for n, v in per_cell.items()}, **{n: c[i] for n, c in columns.items()}}
                       for i, k in enumerate(order)])  # fmt: skip
            return
        if trains is None:
            nodes.set(columns)  # all at once: Ranvier checks the values together (V_reset < V_th)
            return
        shift = self._shift("spike_times")
        for k in order:
            if np.any(np.diff(np.asarray(simulator.plain(trains[k]), dtype=float)) < 0):
                raise errors.InvalidParameterValueError(f"spike_times must be ascending, got {trains[k]!r}")
        nodes.set(
            [
                {
                    "spike_times": np.asarray(simulator.plain(trains[k]), dtype=float) + shift,
                    **{name: column[i] for name, column in columns.items()},
                }  # fmt: skip
                for i, k in enumerate(order)
            ]
        )

    def _model_name(self) -> str:
        """The Ranvier model of the nodes that hold the parameters."""
        root = self._root
        holder = root._generators if root._generators is not None else root._nodes
        return holder[0].get("model")

    def _set_initial_value_array(self, variable: str, initial_values: Any) -> None:
        native, factor = self.celltype.state_variables[variable]
        if not hasattr(initial_values, "evaluate"):
            initial_values = larray(initial_values)
        initial_values.shape = (self.size,)
        values = np.asarray(initial_values.evaluate(simplify=False), dtype=float) * factor
        if "." in variable:  # a receptor's state: Ranvier's ports start at 0 and are not set by name
            if np.any(values != 0.0):
                raise errors.InvalidParameterValueError(
                    f"{variable} starts at 0 in Ranvier (a receptor's state is not set), got {variable} = {values[0]}"
                )
            return
        nodes, positions = _nodes(self.all_cells)
        nodes.set({native: values[np.argsort(positions)]})

    def _get_view(self, selector: Any, label: str | None = None) -> "PopulationView":
        return PopulationView(self, selector, label)


def _listed(got: Any, n: int) -> bool:
    """Whether a NodeCollection.get gave one list per node (of n) rather than one number each."""
    return isinstance(got, (tuple, list, np.ndarray)) and len(got) == n and any(np.ndim(v) == 1 for v in got)


def _holds_lists(value: Any) -> bool:
    """Whether an evaluated parameter holds a list per cell (PyNN's ArrayParameter; not a spike
    train, a Sequence, which is one too)."""
    is_list = lambda v: isinstance(v, ArrayParameter) and not isinstance(v, Sequence)  # noqa: E731
    return is_list(value) or (isinstance(value, np.ndarray) and value.dtype == object and any(map(is_list, value.flat)))


def _per_cell(value: Any, n: int) -> list[list[float]]:
    """A list parameter as one list of floats per cell."""
    cells = [value] * n if isinstance(value, ArrayParameter) else list(value)
    return [np.asarray(v.value if isinstance(v, ArrayParameter) else v, dtype=float).tolist() for v in cells]


class Assembly(common.Assembly):
    _simulator = simulator


class PopulationView(_Cells, common.PopulationView):
    _assembly_class = Assembly
    _simulator = simulator


class Population(_Cells, common.Population):
    __doc__ = common.Population.__doc__
    _simulator = simulator
    _recorder_class = Recorder
    _assembly_class = Assembly

    def _create_cells(self) -> None:
        celltype = self.celltype
        off_grid: str = getattr(celltype, "off_grid_name", "") if simulator.state.spike_precision == "off_grid" else ""
        model: str = off_grid or celltype.ranvier_name
        fixed = dict(getattr(celltype, "fixed", {}).get(simulator.state.spike_precision, {})) or None
        self._generators, self._parrot_delay = None, 0.0
        if getattr(celltype, "behind_parrots", False):
            self._generators = rv.Create(model, self.size, params=fixed)
            parrot = "parrot_neuron_ps" if simulator.state.spike_precision == "off_grid" else "parrot_neuron"
            self._nodes = rv.Create(parrot, self.size)
            self._parrot_delay = simulator.state.default_delay()
            rv.Connect(self._generators, self._nodes, "one_to_one", {"delay": self._parrot_delay})
        else:
            self._nodes = rv.Create(model, self.size, params=fixed)
        self.all_cells = np.array([simulator.ID(g) for g in self._nodes.tolist()], dtype=simulator.ID)
        self._mask_local = np.ones(self.size, dtype=bool)
        for cell in self.all_cells:
            cell.parent = self
        parameters = celltype.native_parameters if isinstance(celltype, StandardCellType) else celltype.parameter_space
        self._set_parameters(parameters)
        simulator.state.populations.append(self)

    def _source_parameters(self) -> ParameterSpace | None:
        """A spike source's native parameters, times relative to the last reset; None for others."""
        if not getattr(self.celltype, "spike_source", False):
            return None
        return self._get_native_parameters(*self.celltype.get_native_names())

    def _restart(self, source_parameters: ParameterSpace | None) -> None:
        """After reset: the initial values again, and a source's times from the new zero."""
        for variable, values in self.initial_values.items():
            self._set_initial_value_array(variable, values)
        if source_parameters is not None:
            self._set_parameters(source_parameters)
