"""The truncation page's figures (dpcore.viz.figures.truncation)."""

from __future__ import annotations

import numpy as np
import pytest

from dpcore import viz


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
