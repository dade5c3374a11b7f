"""Masks: which nodes of a layer lie in a region around a centre node. The kernel tests
membership (one program for Connect and SelectNodesByMask); this file checks the
specification and turns it into that program."""

from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .. import _kernel
from ..errors import BadParameterError, UnknownParameterError
from .layers import Layer

RECORD = 12  # doubles per program record (mask.hpp)
ALL, BOX, BALL, ELLIPSE, INTERSECT, UNITE, MINUS = range(7)

# name: (dimensions, required keys, optional keys with defaults)
SHAPES: dict[str, tuple[int | None, tuple[str, ...], dict[str, Any]]] = {
    "rectangular": (2, ("lower_left", "upper_right"), {"azimuth_angle": 0.0}),
    "box": (3, ("lower_left", "upper_right"), {"azimuth_angle": 0.0, "polar_angle": 0.0}),
    "circular": (2, ("radius",), {"anchor": None}),
    "spherical": (3, ("radius",), {"anchor": None}),
    "doughnut": (2, ("inner_radius", "outer_radius"), {}),
    "elliptical": (2, ("major_axis", "minor_axis"), {"azimuth_angle": 0.0, "anchor": None}),
    "ellipsoidal": (
        3,
        ("major_axis", "minor_axis", "polar_axis"),
        {"azimuth_angle": 0.0, "polar_angle": 0.0, "anchor": None},
    ),
    "grid": (None, ("shape",), {}),
}


def _number(shape, key, value, positive=False):
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float, np.integer, np.floating))
        or not np.isfinite(value)
    ):
        raise BadParameterError(f"{shape} mask: {key} must be a number, got {key} = {value!r}")
    if positive and value <= 0:
        raise BadParameterError(f"{shape} mask: {key} must be > 0, got {key} = {value!r}")
    return float(value)


def _point(shape, key, value, dims):
    try:
        v = np.asarray(value, dtype=float).ravel()
    except (TypeError, ValueError):
        v = np.empty(0)
    if v.size != dims or not np.all(np.isfinite(v)):
        raise BadParameterError(f"{shape} mask: {key} must be {dims} numbers, got {key} = {value!r}")
    return v


class Mask:
    """A mask: a shape with its anchor, or masks combined with ``&``, ``|`` and ``-``."""

    dims: int | None
    anchor: np.ndarray | None

    def __init__(
        self,
        shape: str | None = None,
        spec: dict[str, Any] | None = None,
        anchor: Any = None,
        op: int | None = None,
        parts: Iterable["Mask"] = (),
    ) -> None:
        self.shape, self.op, self.parts = shape, op, tuple(parts)
        self.spec = dict(spec or {})
        if op is not None:
            part_dims = {p.dims for p in self.parts} - {None}
            if len(part_dims) > 1:
                raise BadParameterError("masks to combine must have the same number of dimensions")
            self.dims, self.anchor = (part_dims.pop() if part_dims else None), None
            return
        if shape not in SHAPES:
            raise BadParameterError(f"unknown mask type: {shape!r} (known: {', '.join(SHAPES)})")
        dims, required, optional = SHAPES[shape]
        for key in self.spec:
            if key not in required and key not in optional:
                raise UnknownParameterError(f"{shape} mask has no parameter {key}")
        for key in required:
            if key not in self.spec:
                raise BadParameterError(f"{shape} mask needs parameter {key}")
        if "anchor" in self.spec:  # the round shapes take their anchor (centre) among their parameters too
            if anchor is not None:
                raise BadParameterError(
                    f"{shape} mask: anchor given twice, in its parameters and as anchor = {anchor!r}"
                )
            anchor = self.spec.pop("anchor")
        if shape == "grid":
            try:
                size = [int(s) for s in self.spec["shape"]]
            except (TypeError, ValueError):
                size = []
            if len(size) not in (2, 3) or min(size) < 1:
                raise BadParameterError(
                    f"grid mask: shape must be 2 or 3 positive integers, got shape = {self.spec['shape']!r}"
                )
            dims = len(size)
        self.dims = dims
        self.anchor = None if anchor is None else _point(shape, "anchor", anchor, dims)
        # a grid mask's anchor is a whole grid offset, within the shape or not (NEST's suite
        # anchors at [5, 5] and [0, -1] of a [3, 2] mask: the mask then lies off the node)
        if shape == "grid" and self.anchor is not None and np.any(self.anchor != np.round(self.anchor)):
            raise BadParameterError(f"grid mask: anchor must be whole grid offsets, got anchor = {list(anchor)}")
        self._shape_record(None)  # checks the values

    def __and__(self, other: "Mask | dict[str, Any]") -> "Mask":
        return Mask(op=INTERSECT, parts=(self, _as_mask(other)))

    def __or__(self, other: "Mask | dict[str, Any]") -> "Mask":
        return Mask(op=UNITE, parts=(self, _as_mask(other)))

    def __sub__(self, other: "Mask | dict[str, Any]") -> "Mask":
        return Mask(op=MINUS, parts=(self, _as_mask(other)))

    def __repr__(self) -> str:
        if self.op is not None:
            return f"Mask({self.parts[0]!r} {'&|-'[self.op - INTERSECT]} {self.parts[1]!r})"
        return f"Mask({self.shape!r}, {self.spec!r}, anchor={None if self.anchor is None else list(self.anchor)})"

    def placed(self, layer: Layer) -> tuple[np.ndarray, np.ndarray]:
        """The kernel's postfix program for this mask on `layer`, and the offset of the point
        it is centred on: NEST wraps displacements around the anchor of a single shape, so
        that anchor stays out of the program; combined masks carry their parts' anchors."""
        if self.dims is not None and self.dims != layer.dims:
            raise BadParameterError(f"a {self.dims}D mask cannot be used on a {layer.dims}D layer")
        single = self.op is None and self.anchor is not None
        records: list[np.ndarray] = []
        self._emit(layer, records, bake=not single)
        offset = (self._grid_shift(layer, self.anchor) if self.shape == "grid" else self.anchor) if single else None
        return np.ascontiguousarray(np.concatenate(records)), np.asarray(
            np.zeros(layer.dims) if offset is None else offset, dtype=float
        )

    @staticmethod
    def _grid_shift(layer, anchor):
        """Where a grid mask's anchor cells put it: anchor columns left, anchor rows up (rows
        grow downwards)."""
        step = layer.extent / np.asarray(layer.shape, dtype=float)
        shift = -step * anchor
        shift[1] = -shift[1]
        return shift

    def _emit(self, layer, records, bake=True):
        if self.op is not None:
            for part in self.parts:
                part._emit(layer, records)
            records.append(_record(self.op))
        elif self.shape == "doughnut":
            outer = _record(BALL, 0, 0, 0, self.spec["outer_radius"])
            inner = _record(BALL, 0, 0, 0, self.spec["inner_radius"])
            records += [self._anchored(outer, BALL, bake), self._anchored(inner, BALL, bake), _record(MINUS)]
        else:
            records.append(self._shape_record(layer, bake))

    def _anchored(self, record, kind, bake):
        """The shape moved by its anchor (NEST: the mask's origin sits at the anchor)."""
        if self.anchor is None or not bake:
            return record
        shift = np.zeros(3)
        shift[: len(self.anchor)] = self.anchor
        record = record.copy()
        record[1:4] += shift
        if kind == BOX:
            record[4:7] += shift
        return record

    def _shape_record(self, layer, bake=True):
        s, name, dims = self.spec, self.shape, self.dims
        if name in ("rectangular", "box"):
            low, high = (
                _point(name, "lower_left", s["lower_left"], dims),
                _point(name, "upper_right", s["upper_right"], dims),
            )
            if np.any(low >= high):
                raise BadParameterError(
                    f"{name} mask: upper_right must be > lower_left in every dimension, "
                    f"got lower_left = {list(low)}, upper_right = {list(high)}"
                )
            rec = _record(
                BOX,
                *_pad(low),
                *_pad(high),
                _number(name, "azimuth_angle", s.get("azimuth_angle", 0.0)),
                _number(name, "polar_angle", s.get("polar_angle", 0.0)),
            )
            return self._anchored(rec, BOX, bake)
        if name in ("circular", "spherical"):
            return self._anchored(_record(BALL, 0, 0, 0, _number(name, "radius", s["radius"], True)), BALL, bake)
        if name == "doughnut":
            inner = _number(name, "inner_radius", s["inner_radius"], True)
            outer = _number(name, "outer_radius", s["outer_radius"], True)
            if inner >= outer:
                raise BadParameterError(
                    f"doughnut mask: inner_radius must be < outer_radius, "
                    f"got inner_radius = {inner}, outer_radius = {outer}"
                )
            return None
        if name in ("elliptical", "ellipsoidal"):
            major = _number(name, "major_axis", s["major_axis"], True)
            minor = _number(name, "minor_axis", s["minor_axis"], True)
            polar = _number(name, "polar_axis", s["polar_axis"], True) if dims == 3 else 1.0
            if minor > major:
                raise BadParameterError(
                    f"{name} mask: minor_axis must be <= major_axis, got major_axis = {major}, minor_axis = {minor}"
                )
            rec = _record(
                ELLIPSE,
                0,
                0,
                0,
                major,
                minor,
                polar,
                _number(name, "azimuth_angle", s.get("azimuth_angle", 0.0)),
                _number(name, "polar_angle", s.get("polar_angle", 0.0)),
            )
            return self._anchored(rec, ELLIPSE, bake)
        # grid: cells of the layer's grid, the anchor cell on the centre node; rows grow downwards
        if layer is None:
            return None
        if layer.shape is None:
            raise BadParameterError("grid masks can only be used with grid layers")
        size = np.asarray([int(v) for v in s["shape"]], dtype=float)
        step = layer.extent / np.asarray(layer.shape, dtype=float)
        low, high = -step / 2, step * size - step / 2  # the anchor cell on the node
        low[1], high[1] = -high[1], -low[1]
        record = _record(BOX, *_pad(low), *_pad(high), 0.0, 0.0)
        if self.anchor is None or not bake:
            return record
        shift = np.zeros(3)
        shift[: layer.dims] = self._grid_shift(layer, self.anchor)
        record[1:4] += shift
        record[4:7] += shift
        return record

    def extent_in(self, layer: Layer) -> np.ndarray:
        """Width of the mask's bounding box in each dimension."""
        program, _ = self.placed(layer)
        lower, upper = _kernel.mask_bounds(program, layer.dims)
        return np.asarray(upper[: layer.dims]) - np.asarray(lower[: layer.dims])

    def Inside(self, point: ArrayLike) -> bool:
        """PyNEST's Mask.Inside: whether `point`, relative to the mask's origin, lies in it."""
        p = _point(self.shape or "combined", "point", point, self.dims or len(np.ravel(point)))
        space = Layer(np.zeros((0, p.size)), np.ones(p.size), np.zeros(p.size), False)
        return bool(self.select(space, np.zeros(p.size), p[None, :])[0])

    def select(self, layer: Layer, centre: ArrayLike, positions: ArrayLike) -> np.ndarray:
        """Which of `positions` lie inside the mask placed on the point `centre` of `layer`."""
        program, offset = self.placed(layer)
        d = layer.displacement(np.asarray(centre, dtype=float) + offset, positions)
        points = np.ascontiguousarray(d.reshape(-1, layer.dims).ravel())
        return np.asarray(_kernel.mask_contains(program, layer.dims, points), dtype=bool)


def no_mask() -> np.ndarray:
    """The program of a Connect without a mask (every node is a candidate)."""
    return _record(ALL)


def _pad(v):
    out = np.zeros(3)
    out[: len(v)] = v
    return out


def _record(op, *args):
    rec = np.zeros(RECORD)
    rec[0] = op
    rec[1 : 1 + len(args)] = args
    return rec


def _as_mask(value):
    if isinstance(value, Mask):
        return value
    if isinstance(value, dict):
        return mask_from_spec(value)
    raise BadParameterError(
        f"mask must be a Mask or a dict such as {{'circular': {{'radius': 0.5}}}}, got mask = {value!r}"
    )


def mask_from_spec(spec: Mask | dict[str, Any]) -> Mask:
    """A Mask from NEST's dict form: ``{'circular': {'radius': 0.5}, 'anchor': [0, 0]}``."""
    if isinstance(spec, Mask):
        return spec
    if not isinstance(spec, dict):
        raise BadParameterError(f"mask must be a Mask or a dict, got mask = {spec!r}")
    shapes = [k for k in spec if k != "anchor"]
    if len(shapes) != 1 or not isinstance(spec[shapes[0]], dict):
        raise BadParameterError(f"mask must name one mask type with its parameters, got mask = {spec!r}")
    return Mask(shapes[0], spec[shapes[0]], spec.get("anchor"))


def CreateMask(masktype: str, specs: dict[str, Any], anchor: ArrayLike | None = None) -> Mask:
    """NEST's CreateMask: a Mask to pass as conn_spec 'mask' or to SelectNodesByMask."""
    if not isinstance(specs, dict):
        raise BadParameterError(f"specs must be a dict of mask parameters, got specs = {specs!r}")
    return Mask(masktype, specs, anchor)
