"""NEST's spatial plots (matplotlib): a layer's nodes, a node's targets or sources with the
mask and probability used to connect them, and a probability parameter as an image."""

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from ..errors import BadParameterError
from ..nodes import NodeCollection
from .masks import Mask, mask_from_spec
from .queries import GetPosition, GetSourcePositions, GetTargetPositions


def _figure(fig, three_d):
    import matplotlib.pyplot as plt

    if fig is None:
        fig = plt.figure()
        return fig, fig.add_subplot(111, projection="3d") if three_d else fig.add_subplot(111)
    return fig, fig.gca()


def _draw_extent(ax, center, extent):
    import matplotlib.pyplot as plt

    low = np.asarray(center[:2]) - np.asarray(extent[:2]) / 2
    ax.add_patch(plt.Rectangle(tuple(low), extent[0], extent[1], fc="none", ec="0.5", lw=1, zorder=1))
    ax.set(
        aspect="equal",
        xlim=(low[0] - 0.05 * extent[0], low[0] + 1.05 * extent[0]),
        ylim=(low[1] - 0.05 * extent[1], low[1] + 1.05 * extent[1]),
        xticks=(),
        yticks=(),
    )


def _one_node(nodes, name):
    if not isinstance(nodes, NodeCollection) or len(nodes) != 1:
        raise BadParameterError(f"{name} must be a NodeCollection of one node")
    return nodes


def PlotLayer(layer: NodeCollection, fig: Any = None, nodecolor: str = "b", nodesize: float = 20) -> Any:
    """Scatter plot of the layer's nodes (2D with its extent drawn, or 3D)."""
    import matplotlib.pyplot as plt

    if not isinstance(layer, NodeCollection):
        raise BadParameterError("layer must be a NodeCollection")
    pos = np.atleast_2d(GetPosition(layer))
    fig, ax = _figure(fig, pos.shape[1] == 3)
    if pos.shape[1] == 2:
        ax.scatter(pos[:, 0], pos[:, 1], s=nodesize, facecolor=nodecolor)
        info = cast(dict[str, Any], layer.spatial)
        _draw_extent(ax, info["center"], info["extent"])
    else:
        ax.scatter(pos[:, 0], pos[:, 1], pos[:, 2], s=nodesize, c=nodecolor)
    plt.draw_if_interactive()
    return fig


def _plot_partners(
    centre_node,
    layer,
    partner_positions,
    fig,
    mask,
    probability_parameter,
    centre_color,
    centre_size,
    partner_color,
    partner_size,
    mask_color,
    probability_cmap,
):
    import matplotlib.pyplot as plt

    centre = np.asarray(GetPosition(centre_node))
    three_d = len(centre) == 3
    fig, ax = _figure(fig, three_d)
    found = np.asarray(partner_positions[0], dtype=float).reshape(-1, len(centre))
    if three_d:
        ax.scatter3D(found[:, 0], found[:, 1], found[:, 2], s=partner_size, facecolor=partner_color)
        ax.scatter3D(*centre, s=centre_size, facecolor=centre_color, alpha=0.4, zorder=-10)
    else:
        ax.scatter(found[:, 0], found[:, 1], s=partner_size, facecolor=partner_color)
        ax.scatter(centre[:1], centre[1:], s=centre_size, facecolor=centre_color, alpha=0.4, zorder=-10)
        info = cast(dict[str, Any], layer.spatial)
        c, e = info["center"], info["extent"]
        if mask is not None or probability_parameter is not None:
            PlotProbabilityParameter(
                centre_node,
                probability_parameter,
                mask=mask,
                edges=[c[0] - e[0], c[0] + e[0], c[1] - e[1], c[1] + e[1]],
                ax=ax,
                prob_cmap=probability_cmap,
                mask_color=mask_color,
            )
        _draw_extent(ax, c, e)
    plt.draw_if_interactive()
    return fig


def PlotTargets(
    src_nrn: NodeCollection,
    tgt_layer: NodeCollection,
    syn_type: str | None = None,
    fig: Any = None,
    mask: Mask | dict[str, Any] | None = None,
    probability_parameter: Any = None,
    src_color: str = "red",
    src_size: float = 50,
    tgt_color: str = "blue",
    tgt_size: float = 20,
    mask_color: str = "yellow",
    probability_cmap: str = "Greens",
) -> Any:
    """The targets of one source node in tgt_layer, with the mask and probability if given."""
    _one_node(src_nrn, "src_nrn")
    return _plot_partners(
        src_nrn,
        tgt_layer,
        GetTargetPositions(src_nrn, tgt_layer, syn_type),
        fig,
        mask,
        probability_parameter,
        src_color,
        src_size,
        tgt_color,
        tgt_size,
        mask_color,
        probability_cmap,
    )


def PlotSources(
    src_layer: NodeCollection,
    tgt_nrn: NodeCollection,
    syn_type: str | None = None,
    fig: Any = None,
    mask: Mask | dict[str, Any] | None = None,
    probability_parameter: Any = None,
    tgt_color: str = "red",
    tgt_size: float = 50,
    src_color: str = "blue",
    src_size: float = 20,
    mask_color: str = "yellow",
    probability_cmap: str = "Greens",
) -> Any:
    """The sources of one target node in src_layer, with the mask and probability if given."""
    _one_node(tgt_nrn, "tgt_nrn")
    return _plot_partners(
        tgt_nrn,
        src_layer,
        GetSourcePositions(src_layer, tgt_nrn, syn_type),
        fig,
        mask,
        probability_parameter,
        tgt_color,
        tgt_size,
        src_color,
        src_size,
        mask_color,
        probability_cmap,
    )


def _mask_patches(ax, mask, centre, extent, periodic, color):
    """Patches of a 2D mask placed on `centre` (and its periodic images)."""
    import matplotlib.patches as mpatches
    import matplotlib.path as mpath
    from matplotlib.transforms import Affine2D

    m = mask if isinstance(mask, Mask) else mask_from_spec(mask)
    if m.op is not None or m.dims != 2 or m.shape == "grid":
        raise BadParameterError(f"mask {m!r} cannot be plotted (circular, doughnut, rectangular, elliptical only)")
    anchor = np.zeros(2) if m.anchor is None else m.anchor
    style = {"fc": color, "ec": "black", "alpha": 0.2, "lw": 2}
    shifts = [np.zeros(2)] + (
        [np.array([i, j]) * extent[:2] for i in (-1, 0, 1) for j in (-1, 0, 1) if i or j] if periodic else []
    )
    s = m.spec
    patches: list[mpatches.Patch] = []
    for shift in shifts:
        at = centre[:2] + anchor + shift
        if m.shape == "circular":
            patches.append(mpatches.Circle(at, radius=s["radius"], **style))
        elif m.shape == "doughnut":
            t = np.linspace(0.0, 2 * np.pi, 200)
            ring = lambda r: np.column_stack([r * np.cos(t), r * np.sin(t)])  # noqa: E731
            verts = np.concatenate([ring(s["outer_radius"])[::-1], ring(s["inner_radius"])]) + at
            codes = np.full(len(verts), mpath.Path.LINETO)
            codes[[0, len(t)]] = mpath.Path.MOVETO
            patches.append(mpatches.PathPatch(mpath.Path(verts, codes), **style))
        elif m.shape == "rectangular":
            low, high = np.asarray(s["lower_left"], float) + at, np.asarray(s["upper_right"], float) + at
            patch = mpatches.Rectangle(low, *(high - low), **style)
            mid = (low + high) / 2
            patch.set_transform(
                Affine2D().rotate_deg_around(mid[0], mid[1], s.get("azimuth_angle", 0.0)) + ax.transData
            )
            patches.append(patch)
        else:
            patches.append(
                mpatches.Ellipse(at, s["major_axis"], s["minor_axis"], angle=s.get("azimuth_angle", 0.0), **style)
            )
    return patches


def PlotProbabilityParameter(
    source: NodeCollection,
    parameter: Any = None,
    mask: Mask | dict[str, Any] | None = None,
    edges: Sequence[float] = (-0.5, 0.5, -0.5, 0.5),
    shape: Sequence[int] = (100, 100),
    ax: Any = None,
    prob_cmap: str = "Greens",
    mask_color: str = "yellow",
) -> Any:
    """The connection probability `parameter` from node `source` as an image over `edges`
    (clipped to [0, 1]), with the mask drawn on top."""
    import matplotlib.pyplot as plt

    if parameter is None and mask is None:
        raise BadParameterError("PlotProbabilityParameter needs a parameter or a mask")
    _one_node(source, "source")
    if ax is None:
        _, ax = plt.subplots()
    ax.set_xlim(*edges[:2])
    ax.set_ylim(*edges[2:])
    if parameter is not None:
        xs, ys = np.linspace(edges[0], edges[1], shape[0]), np.linspace(edges[2], edges[3], shape[1])
        grid = np.array([[x, y] for y in ys for x in xs])
        z = np.asarray(parameter.apply(source, grid)).reshape(shape[1], shape[0])
        img = ax.imshow(np.clip(z, 0.0, 1.0), extent=list(edges), origin="lower", cmap=prob_cmap, vmin=0.0, vmax=1.0)
        plt.colorbar(img, ax=ax, fraction=0.046, pad=0.04)
    if mask is not None:
        s = cast(dict[str, Any], source.spatial)
        for patch in _mask_patches(ax, mask, np.asarray(GetPosition(source)), s["extent"], s["edge_wrap"], mask_color):
            patch.set_zorder(0.5)
            ax.add_patch(patch)
    return ax
