"""Figures several lessons share (dpcore.viz.figures.common)."""

from __future__ import annotations

import pytest

from dpcore import viz

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "bar_figure": dict(
        categories=["a", "b"], bars={"exact": [0.4, 0.6]}, x_title="x", y_title="y", title="t", presentation=False
    ),
}


def test_bar_figure_groups_one_bar_per_category_and_series():
    fig = viz.figures.common.bar_figure(["A", "B", "C"], {"exact": [0.2, 0.3, 0.5], "sampled": [0.21, 0.29, 0.5]},
                         x_title="candidate", y_title="probability")
    assert [trace.name for trace in fig.data] == ["exact", "sampled"]
    assert list(fig.data[0].x) == ["A", "B", "C"] and list(fig.data[1].y) == [0.21, 0.29, 0.5]
    assert fig.layout.barmode == "group"
    with pytest.raises(ValueError, match="one value per category"):
        viz.figures.common.bar_figure(["A", "B"], {"exact": [1.0]}, x_title="x", y_title="y")
