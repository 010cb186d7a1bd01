"""The exponential-mechanism page's figures (dpcore.viz.figures.exponential_mechanism)."""

from __future__ import annotations

import numpy as np

from dpcore import viz


def test_direction_disk_and_trajectory_figures():
    radius, angle = np.repeat([0.25, 0.75], 4), np.tile(np.arange(4) * np.pi / 2, 2)
    disk = viz.figures.exponential_mechanism.direction_disk(radius, angle, np.arange(8.0), {"sampled": np.pi / 2})
    cells, ray = disk.data
    np.testing.assert_allclose(np.asarray(cells.base, dtype=float), radius - 0.25)
    assert list(cells.theta) == [0, 90, 180, 270, 0, 90, 180, 270] and list(ray.theta) == [90, 90]
    path = viz.figures.exponential_mechanism.trajectory_figure(np.zeros((3, 2)), np.array([[0.0, 0.0], [1.0, 0.5]]),
                                                               np.array([2.0, 1.0]))
    assert [trace.name for trace in path.data] == ["bucket means", "private estimate, step by step", "true mean"]
    assert list(path.data[1].text) == ["μ̃1", "μ̃2"]
