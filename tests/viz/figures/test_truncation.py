"""The truncation page's figures (dpcore.viz.figures.truncation)."""

from __future__ import annotations

import numpy as np
import pytest

from dpcore import viz

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "clipping_histogram": dict(
        sample=np.array([0.0, 1.0, 5.0]), low=-1.0, high=2.0, means={"true mean": 0.5}, title="t", presentation=False
    ),
    "clipping_window": dict(
        family="lomax", moment="3", n=100, radius=2.0, epsilon=1.0, seed=0, presentation=False
    ),
    "bias_noise_tradeoff": dict(
        family="lomax", moment="3", n=100, radius=2.0, epsilon=1.0, presentation=False
    ),
    "error_vs_n": dict(
        family="lomax", epsilon=1.0, trials=2, seed=0, start="3", presentation=False
    ),
    "bias_correction": dict(trials=2, seed=0, start="1", presentation=False),
}


def test_clipping_histogram_splits_the_sample_at_the_window():
    sample = np.r_[np.zeros(90), np.full(10, 10.0)]  # 10 % far outside the window [-1, 1]
    fig = viz.figures.truncation.clipping_histogram(sample, -1.0, 1.0, {"true mean": 1.0, "clipped mean": 0.1}, bins=20)
    inside, outside, true_line, clipped_line = fig.data
    assert inside.y.sum() == 90 and outside.y.sum() == 10
    assert outside.name == "clipped (10.0 % of points)"
    assert list(true_line.x) == [1.0, 1.0] and true_line.line.dash == "dash"
    assert clipped_line.line.color == viz.REFERENCE_COLORS["clipped mean"]
    with pytest.raises(ValueError, match="low must be below high"):
        viz.figures.truncation.clipping_histogram(sample, 1.0, -1.0, {})
