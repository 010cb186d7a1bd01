"""A figure in one sentence: the numbers it states are the figure's own, at the frame it opens on."""

import numpy as np
import plotly.graph_objects as go
import pytest

from dpcore.lessons import exponential_mechanism, truncation
from dpcore.viz import FrameData, Series, animated_sweep, line_figure
from dpcore.viz.figures import exponential_mechanism as election_figures
from dpcore.viz.figures import truncation as truncation_figures
from dpcore.viz.summary import figure_summary
from tests.viz.frames import EXAMPLE_FIGURE

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "figure_summary": dict(fig=EXAMPLE_FIGURE),
}


def test_a_curve_is_told_by_its_ends_and_its_bands_are_left_out():
    fig = line_figure([Series("Laplace", [1000, 10, 100], [0.005, 0.5, 0.05], lower=[0.004, 0.4, 0.04],
                              upper=[0.006, 0.6, 0.06])], x_title="sample size n", y_title="error", title="Error vs n")
    assert figure_summary(fig) == ("Error vs n: x is sample size n, y is error; Laplace falls from 0.5 at 10 through "
                                   "0.05 at 100 to 0.005 at 1,000.")  # sorted by x; the band edges say nothing


def test_an_animation_is_told_at_the_frame_it_opens_on():
    frames = [FrameData(f"{eps:g}", [Series("noise", [1, 2], [1 / eps, 2 / eps])]) for eps in (0.5, 1.0, 2.0)]
    fig = animated_sweep(frames, x_title="d", y_title="sd", frame_title="ε", title="Noise", start="2", log_x=False,
                         log_y=False)
    assert figure_summary(fig) == ("Noise (ε = 2, the frame it opens on): x is d, y is sd; noise rises from 0.5 at 1 "
                                   "to 1 at 2.")


def test_the_bottom_of_the_bias_noise_curve_is_the_figures_lowest_total_error():
    """The U-shaped total error is told with its minimum, the radius the trade-off figure marks as best."""
    fig = truncation_figures.bias_noise_tradeoff("lomax", 3, 10_000, radius=2.0, epsilon=1.0)
    curve = truncation.bias_noise_tradeoff("lomax", 3, 10_000, 1.0)
    lowest = np.argmin(curve["mse"])
    assert (f"total: mean squared error falls from {curve['mse'][0]:.3g} at {curve['radii'][0]:.3g} to its lowest, "
            f"{curve['mse'][lowest]:.3g} at {curve['radii'][lowest]:.3g}, then rises") in figure_summary(fig)


def test_bars_list_their_values():
    fig = election_figures.election_bars(0.1, 0)
    exact = exponential_mechanism.election_probabilities(0.1)["standard"]
    summary = figure_summary(fig)
    assert summary.startswith("Who wins a private election at ε = 0.1? x is candidate")
    assert f"A {exact[0]:.3g}, B {exact[1]:.3g}, C {exact[2]:.3g}" in summary


def test_a_map_gives_its_size_and_range():
    fig = go.Figure(go.Heatmap(z=[[0.0, 1.0, -1.0], [2.0, 0.5, 0.0]]), layout=dict(title=dict(text="Wins")))
    assert figure_summary(fig) == "Wins; A 2 × 3 map of values from -1 to 2."


def test_many_curves_are_counted_not_listed():
    fig = line_figure([Series(f"c{i}", [1, 2], [i, i + 1]) for i in range(7)], x_title="x", y_title="y")
    assert figure_summary(fig).endswith("c4 rises from 4 at 1 to 5 at 2; and 2 more.")


def test_it_rejects_what_is_not_a_figure():
    with pytest.raises(TypeError, match="fig"):
        figure_summary({"data": []})
