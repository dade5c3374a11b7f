"""Writes tests/fixtures/nest_raster_histogram.json: what NEST 3.10's raster_plot.from_data
draws for a few spikes (bar heights and positions, axis labels, what it returns).

    /work/peers-venv/bin/python benchmarks/peers/nest_plot_fixture.py"""

import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import nest  # noqa: E402
import nest.raster_plot  # noqa: E402
import numpy as np  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "nest_raster_histogram.json")
DATA = [[1, 5.0], [2, 6.0], [1, 7.0], [3, 19.0], [2, 20.0]]


def main():
    returned = nest.raster_plot.from_data(np.array(DATA), hist=True, hist_binwidth=5.0)
    raster, rates = plt.gcf().axes
    result = {
        "data": DATA,
        "hist_binwidth": 5.0,
        "returned": type(returned[0]).__name__,
        "bar_heights": [round(float(b.get_height()), 6) for b in rates.patches],
        "bar_lefts": [float(b.get_x()) for b in rates.patches],
        "labels": [raster.get_ylabel(), rates.get_ylabel(), rates.get_xlabel(), raster.get_title()],
    }
    with open(FIXTURE, "w") as f:
        json.dump(result, f, indent=1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
