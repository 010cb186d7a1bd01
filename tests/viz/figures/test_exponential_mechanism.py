"""The exponential-mechanism page's figures (dpcore.viz.figures.exponential_mechanism)."""

from __future__ import annotations

import numpy as np

from dpcore import viz

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "direction_disk": dict(
        radius=np.array([0.5, 0.5]),
        angle=np.array([0.0, np.pi]),
        scores=np.array([1.0, 2.0]),
        marks={"best": 0.0},
        title="t",
        presentation=False,
    ),
    "trajectory_figure": dict(
        points=np.zeros((3, 2)), trajectory=np.zeros((2, 2)), true_mean=np.ones(2), title="t", presentation=False
    ),
    "election_bars": dict(epsilon=0.1, seed=0, presentation=False),
    "election_sweep": dict(start="0.1", presentation=False),
    "user_level_errors": dict(trials=2, seed=0, start="0.1", presentation=False),
    "selection_loss": dict(trials=1, seed=0, start="1", presentation=False),
    "median_score": dict(n=10, epsilon=1.0, seed=0, presentation=False),
    "median_density": dict(n=10, epsilon=1.0, seed=0, presentation=False),
    "median_error": dict(trials=2, seed=0, start="0.1", presentation=False),
    "sdp_disk": dict(seed=0, presentation=False),
    "sdp_path": dict(seed=0, presentation=False),
}


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
