"""The one-run charts of dpcore.viz.charts: what each draws from the arrays it is given, and bad input refused."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from dpcore import viz

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "bar_figure": dict(
        categories=["a", "b"], bars={"exact": [0.4, 0.6]}, x_title="x", y_title="y", title="t", presentation=False
    ),
    "scheffe_figure": dict(
        sample=np.array([0.0, 1.0, 2.0]),
        curves={"H": (np.array([0.0, 2.0]), np.array([0.1, 0.2]))},
        shaded=[(1.0, np.inf)],
        shaded_name="W",
        bins=5,
        title="t",
        presentation=True,
    ),
    "win_matrix_figure": dict(
        matrix=np.array([[0.0, 1.0], [-1.0, 0.0]]), labels=["a", "b"], title="t", presentation=False
    ),
    "selection_figure": dict(
        positions=np.array([0.0, 1.0]),
        scores=np.array([1.0, 2.0]),
        probabilities=np.array([0.4, 0.6]),
        marks={"truth": 0.5},
        x_title="μ",
        title="t",
        presentation=False,
    ),
    "grid_scores_figure": dict(
        xs=np.array([0.0, 1.0]),
        ys=np.array([0.0, 1.0]),
        values=np.ones((2, 2)),
        marks={"truth": (0.5, 0.5)},
        value_title="score",
        title="t",
        presentation=False,
    ),
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
    "release_clouds": dict(
        points=np.zeros((3, 2)),
        center=np.zeros(2),
        radius=1.0,
        releases={"Laplace": np.zeros((4, 2))},
        title="t",
        presentation=False,
    ),
    "clipping_histogram": dict(
        sample=np.array([0.0, 1.0, 5.0]), low=-1.0, high=2.0, means={"true mean": 0.5}, title="t", presentation=False
    ),
    "partition_rounds_figure": dict(
        truth=np.array([0.4, 0.1, 0.01]),
        result=importlib.import_module("dpcore.estimators.partition_rounds").simulate_partition_rounds(
            np.array([0.4, 0.1, 0.01]), 30, 1.0, rng=0, rounds=1
        ),
        title="t",
        presentation=False,
    ),
}


def test_bar_figure_groups_one_bar_per_category_and_series():
    fig = viz.charts.bar_figure(["A", "B", "C"], {"exact": [0.2, 0.3, 0.5], "sampled": [0.21, 0.29, 0.5]},
                         x_title="candidate", y_title="probability")
    assert [trace.name for trace in fig.data] == ["exact", "sampled"]
    assert list(fig.data[0].x) == ["A", "B", "C"] and list(fig.data[1].y) == [0.21, 0.29, 0.5]
    assert fig.layout.barmode == "group"
    with pytest.raises(ValueError, match="one value per category"):
        viz.charts.bar_figure(["A", "B"], {"exact": [1.0]}, x_title="x", y_title="y")


def test_direction_disk_and_trajectory_figures():
    radius, angle = np.repeat([0.25, 0.75], 4), np.tile(np.arange(4) * np.pi / 2, 2)
    disk = viz.charts.direction_disk(radius, angle, np.arange(8.0), {"sampled": np.pi / 2})
    cells, ray = disk.data
    np.testing.assert_allclose(np.asarray(cells.base, dtype=float), radius - 0.25)
    assert list(cells.theta) == [0, 90, 180, 270, 0, 90, 180, 270] and list(ray.theta) == [90, 90]
    path = viz.charts.trajectory_figure(np.zeros((3, 2)), np.array([[0.0, 0.0], [1.0, 0.5]]),
                                                               np.array([2.0, 1.0]))
    assert [trace.name for trace in path.data] == ["bucket means", "private estimate, step by step", "true mean"]
    assert list(path.data[1].text) == ["μ̃1", "μ̃2"]


def test_partition_rounds_figure_replays_every_round_then_the_estimates():
    """One frame per round plus the estimates; groups hold the selected coordinates at their selecting values, the
    floor min p/4 replaces values below it, and the final frame places every coordinate exactly once."""
    from dpcore.distributions import binary_product as products
    from dpcore.estimators import partition_rounds as product
    p = products.marginal_profile("log-uniform", 256)
    run = product.simulate_partition_rounds(p, 100_000, 1.0, rng=3)
    fig = viz.charts.partition_rounds_figure(p, run)
    assert [f.name for f in fig.frames] == [f"round {r + 1}" for r in range(len(run.rounds))] + ["final estimates"]
    floor = p.min() / 4
    for r, step in enumerate(run.rounds):
        traces = {t.name: t for t in fig.frames[r].data}
        assert traces["still to place"].mode == "markers"
        waiting = step.candidates & ~step.selected
        np.testing.assert_allclose(np.asarray(traces["still to place"].y, dtype=float),
                                   np.maximum(step.noisy_means[waiting], floor))
        assert np.asarray(traces["threshold 3u/8"].y, dtype=float)[0] == pytest.approx(3 / 8 * 0.5 ** (r + 1))
    final = {t.name: np.asarray(t.y, dtype=float) for t in fig.frames[-1].data}
    placed = sum(np.isfinite(y).sum() for name, y in final.items() if name.startswith(("H", "light")))
    assert placed == p.size
    np.testing.assert_allclose(np.sort(np.concatenate([y[np.isfinite(y)] for name, y in final.items()
                                                       if name.startswith(("H", "light"))])),
                               np.sort(np.maximum(run.estimate, floor)))


def test_clipping_histogram_splits_the_sample_at_the_window():
    sample = np.r_[np.zeros(90), np.full(10, 10.0)]  # 10 % far outside the window [-1, 1]
    fig = viz.charts.clipping_histogram(sample, -1.0, 1.0, {"true mean": 1.0, "clipped mean": 0.1}, bins=20)
    inside, outside, true_line, clipped_line = fig.data
    assert inside.y.sum() == 90 and outside.y.sum() == 10
    assert outside.name == "clipped (10.0 % of points)"
    assert list(true_line.x) == [1.0, 1.0] and true_line.line.dash == "dash"
    assert clipped_line.line.color == viz.REFERENCE_COLORS["clipped mean"]
    with pytest.raises(ValueError, match="low must be below high"):
        viz.charts.clipping_histogram(sample, 1.0, -1.0, {})
