"""NEST's spatial plots draw what the layer and its connections hold."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import ranvier as rv  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _points(ax):
    return np.concatenate([c.get_offsets() for c in ax.collections if len(c.get_offsets())])


def test_plot_layer_draws_every_node():
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([4, 3], extent=[2.0, 1.5]))
    fig = rv.PlotLayer(layer, nodesize=5)
    np.testing.assert_allclose(_points(fig.gca()), rv.GetPosition(layer))
    free3 = rv.Create("iaf_psc_alpha", 20, positions=rv.spatial.free(rv.random.uniform(-0.5, 0.5), num_dimensions=3))
    assert rv.PlotLayer(free3).gca().name == "3d"


def test_plot_targets_and_sources_draw_the_connections_and_mask():
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.grid([15, 15], extent=[1.0, 1.0], edge_wrap=True))
    p = rv.spatial_distributions.gaussian(rv.spatial.distance, std=0.15)
    mask = {"circular": {"radius": 0.3}}
    rv.Connect(layer, layer, {"rule": "pairwise_bernoulli", "p": p, "mask": mask})
    fig = rv.PlotTargets(layer[7], layer, mask=mask, probability_parameter=p)
    ax = fig.gca()
    targets = np.asarray(rv.GetTargetPositions(layer[7], layer)[0])
    drawn = ax.collections[0].get_offsets()
    np.testing.assert_allclose(drawn, targets)
    assert len(ax.patches) >= 1 + 9  # the mask with its 8 periodic images, and the extent
    assert len(ax.images) == 1
    fig = rv.PlotSources(
        layer,
        layer[100],
        mask={"rectangular": {"lower_left": [-0.2, -0.1], "upper_right": [0.2, 0.1], "azimuth_angle": 20.0}},
    )
    np.testing.assert_allclose(fig.gca().collections[0].get_offsets(), rv.GetSourcePositions(layer, layer[100])[0])


def test_plot_probability_parameter_shows_its_values():
    layer = rv.Create("iaf_psc_alpha", positions=rv.spatial.free([[0.0, 0.0], [0.2, 0.1]], extent=[1.0, 1.0]))
    p = rv.spatial_distributions.exponential(rv.spatial.distance, beta=0.2)
    ax = rv.PlotProbabilityParameter(layer[0], p, shape=[11, 21])
    z = ax.images[0].get_array()
    x, y = np.meshgrid(np.linspace(-0.5, 0.5, 11), np.linspace(-0.5, 0.5, 21))
    np.testing.assert_allclose(z, np.exp(-np.hypot(x, y) / 0.2), atol=1e-12)
    with pytest.raises(rv.BadParameterError, match="parameter or a mask"):
        rv.PlotProbabilityParameter(layer[0])
