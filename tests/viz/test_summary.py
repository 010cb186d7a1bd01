"""A figure in words: written per kind of chart, with the figure's own numbers (at the frame it opens on), rounded as a
person says them; its accessible name; its data as a table."""

import numpy as np
import plotly.graph_objects as go
import pytest

from dpcore.lessons import exponential_mechanism, truncation
from dpcore.viz import FrameData, Series, animated_sweep, line_figure
from dpcore.viz.figures import exponential_mechanism as election_figures
from dpcore.viz.figures import truncation as truncation_figures
from dpcore.viz.summary import _number, figure_name, figure_summary, figure_table
from tests.viz.frames import EXAMPLE_FIGURE

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "figure_summary": dict(fig=EXAMPLE_FIGURE),
    "figure_name": dict(fig=EXAMPLE_FIGURE),
    "figure_table": dict(fig=EXAMPLE_FIGURE),
}


@pytest.mark.parametrize("value, said", [
    (-0.0, "0"), (2689.2000000000003, "2,690"), (1024, "1,024"), (10_000_000, "10,000,000"), (0.000827, "0.000827"),
    (4.41e-07, "4.41 × 10⁻⁷"), (-2.5250000000000004, "−2.53"), (1e-12, "10⁻¹²"), (12345, "12,300"),
    (-1.9375105320022565, "−1.94"), (0.1 + 0.2, "0.3"), (float("nan"), "undefined"), (2.5e12, "2.5 × 10¹²")])
def test_numbers_are_said_as_a_person_says_them(value, said):
    assert _number(value) == said


def test_a_line_is_told_by_its_ends_with_its_symbol():
    fig = line_figure([Series("Laplace", [1000, 10, 100], [0.005, 0.5, 0.05])], x_title="sample size n",
                      y_title="error", title="Error vs n")
    assert figure_summary(fig) == ("Error vs n. Lines of error against sample size n: Laplace falls from 0.5 at "
                                   "n = 10 to 0.005 at n = 1,000.")  # sorted by x


def test_lines_with_bands_name_the_widest_band_and_who_ends_lowest():
    fig = line_figure([Series("Laplace", [10, 100, 1000], [0.5, 0.05, 0.005], lower=[0.4, 0.01, 0.004],
                              upper=[0.6, 0.2, 0.006]),
                       Series("Gaussian", [10, 100, 1000], [0.3, 0.03, 0.003], lower=[0.2, 0.02, 0.002],
                              upper=[0.4, 0.04, 0.004])],
                      x_title="sample size n", y_title="error", title="Error vs n", log_y=True)
    summary = figure_summary(fig)
    assert "(band lower)" not in summary and "(band upper)" not in summary
    assert ("Shaded bands hold the middle 80 % of the runs (10 % to 90 %); the widest is Laplace's at n = 100, from "
            "0.01 to 0.2.") in summary  # a factor 20, the widest on the log axis
    assert summary.endswith("At n = 1,000 the lowest is Gaussian (0.003) and the highest Laplace (0.005).")


def test_an_animation_is_told_at_the_frame_it_opens_on():
    frames = [FrameData(f"{eps:g}", [Series("noise", [1, 2], [1 / eps, 2 / eps])]) for eps in (0.5, 1.0, 2.0)]
    fig = animated_sweep(frames, x_title="d", y_title="sd", frame_title="ε", title="Noise", start="2", log_x=False,
                         log_y=False)
    assert figure_summary(fig) == ("Noise (ε = 2, the frame it opens on). Lines of sd against the value d: noise "
                                   "rises from 0.5 at d = 1 to 1 at d = 2.")


def test_the_bottom_of_the_bias_noise_curve_and_the_marker_lines():
    """The U-shaped total error is told with its minimum, the radius the figure marks as best; the marker lines
    (best t, your t) are said to mark a place, never to 'rise'."""
    fig = truncation_figures.bias_noise_tradeoff("lomax", 3, 10_000, radius=2.0, epsilon=1.0)
    curve = truncation.bias_noise_tradeoff("lomax", 3, 10_000, 1.0)
    lowest = np.argmin(curve["mse"])
    summary = figure_summary(fig)
    assert (f"total: mean squared error falls from {_number(curve['mse'][0])} at t = {_number(curve['radii'][0])} "
            "to its lowest, "
            f"{_number(curve['mse'][lowest])} at t = {_number(curve['radii'][lowest])}, then rises") in summary
    marks = go.Figure(fig).to_dict()
    marks["data"] = [trace for trace in marks["data"] if trace["name"].startswith(("best t", "your t"))]
    assert figure_summary(marks) == ("Narrow window: less noise, more bias. Marker lines of squared error (exact) "
                                     "against clipping radius t: a vertical line marks best t = 5.77; a vertical "
                                     "line marks your t = 2.")


def test_a_marker_line_whose_name_lacks_its_value_says_where_it_stands():
    fig = go.Figure([go.Scatter(x=[0, 10], y=[1, 2], mode="lines", name="error"),
                     go.Scatter(x=[4.56789, 4.56789], y=[0, 2], mode="lines", name="best event's edge")],
                    layout=dict(title=dict(text="Audit"), xaxis=dict(title=dict(text="output z"))))
    assert "a vertical line marks best event's edge at z = 4.57" in figure_summary(fig)


def test_bars_list_their_values_and_the_tallest():
    fig = election_figures.election_bars(0.1, 0)
    exact = exponential_mechanism.election_probabilities(0.1)["standard"]
    summary = figure_summary(fig)
    assert summary.startswith("Who wins a private election at ε = 0.1? Bars of P(announced) against candidate")
    assert f"A {exact[0]:.3g}, B {exact[1]:.3g}, C {exact[2]:.3g} (tallest: C)" in summary


def test_a_histogram_gives_where_its_mass_lies_and_what_the_window_cuts():
    centres = np.arange(-1.9375105320022565, 2.0, 0.25)
    counts = np.where(np.abs(centres) < 1, 10, 0)
    counts[8] = 30  # the tallest bar
    fig = go.Figure([go.Bar(x=centres, y=counts, name="inside the window"),
                     go.Bar(x=np.arange(2.1, 4.0, 0.2), y=[0, 4, 2, 1, 0, 0, 0, 0, 0, 1], name="clipped")],
                    layout=dict(title=dict(text="Clipping"), xaxis=dict(title=dict(text="x")),
                                yaxis=dict(title=dict(text="count")),
                                shapes=[dict(type="rect", x0=-2, x1=2, y0=0, y1=1, xref="x", yref="y domain")]))
    summary = figure_summary(fig)
    assert summary.startswith("Clipping. A histogram of count against the value x: inside the window — bars from "
                              "x = −0.938 to 0.812, the tallest (30) at 0.0625, the middle 80 % between −0.938 and "
                              "0.562; clipped — bars from x = 2.3 to 3.9, the tallest (4) at 2.3")
    assert "1.9375" not in summary
    assert summary.endswith("The shaded region runs from −2 to 2.")
    assert "x is x" not in summary and "rises" not in summary


def test_a_point_cloud_is_a_cloud_not_a_line():
    rng = np.random.default_rng(0)
    fig = go.Figure([go.Scatter(x=rng.normal(1, 0.1, 400), y=rng.normal(-0.5, 0.1, 400), mode="markers",
                                name="Laplace"),
                     go.Scatter(x=[1.0], y=[-0.5], mode="markers", name="true mean")],
                    layout=dict(title=dict(text="Releases")))
    summary = figure_summary(fig)
    assert summary.startswith("Releases. Point clouds with points: Laplace — a cloud of 400 points centred near "
                              "(0.995, −0.502), across from 0.623 to 1.31, up from −0.89 to −0.253")
    assert summary.endswith("true mean at (1, −0.5).")
    assert "rises" not in summary and "falls" not in summary


def test_a_map_gives_what_its_colour_shows_and_where_it_is_highest():
    fig = go.Figure(go.Heatmap(z=[[0.0, 1.0, -1.0], [2.0, 0.5, 0.0]], x=[0.1, 0.2, 0.3], y=[5, 6],
                               colorbar=dict(title=dict(text="score"))),
                    layout=dict(title=dict(text="Wins"), xaxis=dict(title=dict(text="first coordinate")),
                                yaxis=dict(title=dict(text="second coordinate"))))
    assert figure_summary(fig) == ("Wins. A heat map over first coordinate (across) and second coordinate (up): score "
                                   "by colour, from −1 to 2; highest, 2, at first coordinate 0.1, second coordinate "
                                   "6.")


def test_a_map_of_labelled_values_counts_its_cells():
    fig = go.Figure(go.Heatmap(z=[[0, 1], [-1, 0]], x=["a", "b"], y=["a", "b"],
                               colorbar=dict(title=dict(text="row vs column"), tickvals=[-1, 0, 1],
                                             ticktext=["loses", "tie", "wins"])),
                    layout=dict(title=dict(text="Who beats whom")))
    assert figure_summary(fig).endswith("row vs column by colour, cell by cell: 1 wins, 2 tie, 1 loses.")


def test_many_curves_are_counted_not_listed():
    fig = line_figure([Series(f"c{i}", [1, 2], [i, i + 1]) for i in range(7)], x_title="step k", y_title="value")
    assert "c4 rises from 4 at k = 1 to 5 at k = 2; and 2 more." in figure_summary(fig)


def test_the_accessible_name_is_the_title_on_one_line():
    fig = truncation_figures.bias_noise_tradeoff("lomax", 3, 10_000, radius=2.0, epsilon=1.0)
    assert figure_name(fig) == "Narrow window: less noise, more bias"
    assert figure_name({"data": [{"type": "bar", "y": [1]}], "layout": {}}) == "Chart"


def test_the_table_gives_each_point_in_words_with_its_band_and_any_frame():
    frames = [FrameData(f"{eps:g}", [Series("noise", [1, 2], [1 / eps, 2 / eps], lower=[0.5 / eps, 1 / eps],
                                            upper=[2 / eps, 3 / eps])]) for eps in (0.5, 2.0)]
    fig = animated_sweep(frames, x_title="dimension d", y_title="sd", frame_title="ε", title="Noise", start="2",
                         log_x=False, log_y=False)
    assert figure_table(fig) == (["shown", "dimension d", "sd", "10–90 % band"],
                                 [["noise", "1", "0.5", "0.25 to 1"], ["noise", "2", "1", "0.5 to 1.5"]])
    assert figure_table(fig, "0.5")[1][0] == ["noise", "1", "2", "1 to 4"]


def test_the_table_of_a_labelled_map_says_its_words():
    fig = go.Figure(go.Heatmap(z=[[0, 1], [-1, 0]], x=["a", "b"], y=["c", "d"],
                               colorbar=dict(title=dict(text="row vs column"), tickvals=[-1, 0, 1],
                                             ticktext=["loses", "tie", "wins"])))
    assert figure_table(fig) == (["y", "x", "row vs column"], [["c", "a", "tie"], ["c", "b", "wins"],
                                                               ["d", "a", "loses"], ["d", "b", "tie"]])


def test_it_rejects_what_is_not_a_figure():
    with pytest.raises(TypeError, match="fig"):
        figure_summary({"data": []})


def test_trade_off_curves_sharing_their_ends_are_told_by_their_values_at_small_alpha():
    """Five curves that all fall from 1 at α = 0 to 0 at α = 1: the ends are said once, and each curve by where it
    differs from the others, its β at α = 0.05 and 0.2 (was "falls from 1 at α = 0 to 0 at α = 1" five times)."""
    from dpcore.lessons import noise_tradeoff
    from dpcore.viz.figures import noise_tradeoff as tradeoff_figures
    summary = figure_summary(tradeoff_figures.tradeoff_curves(1e-6, start="1"))
    curves = noise_tradeoff.tradeoff_curves(1.0, 1e-6)
    at = lambda values, alpha: _number(float(np.interp(alpha, curves["alpha"], values)))  # noqa: E731
    assert "falls from 1 at α = 0 to 0 at α = 1" not in summary
    assert summary.count("from 1 at α = 0 to 0 at α = 1") == 1
    assert "Lines of type-II error β (says X when X′) against type-I error α (says X′ when the data are X), " \
           "each from 1 at α = 0 to 0 at α = 1: " in summary
    assert (f"Laplace: β = {at(curves['laplace'], 0.05)} at α = 0.05 and {at(curves['laplace'], 0.2)} at α = 0.2"
            in summary)
    assert "no better than guessing: β = 1 − α: β = 0.95 at α = 0.05 and 0.8 at α = 0.2" in summary
    assert summary.count(" at α = 0.05 and ") == 5


def test_an_roc_plane_is_told_by_its_values_at_small_false_positive_rates():
    from dpcore.viz.figures import audit_lab as audit_figures
    summary = figure_summary(audit_figures.attacker_plane(1.0))
    assert "rises from 0 at 0 to 1 at 1" not in summary and "each from 0 at 0 to 1 at 1: " in summary
    assert "guessing: 0.05 at 0.05 and 0.2 at 0.2" in summary


def test_score_and_probability_bars_are_told_without_quantiles():
    """Bars of a score or a probability per hypothesis are values, not a sample's histogram: no "middle 80 %", no
    "histogram"; their range, the tallest and where they are at least half as tall."""
    from dpcore.lessons import tournament
    from dpcore.viz.figures import tournament as tournament_figures
    run = tournament.one_run(41, 300, 0.1, 0)
    summary = figure_summary(tournament_figures.selection_scores(41, 300, 0.1, 0))
    assert "middle 80 %" not in summary and "histogram" not in summary
    assert summary.startswith("Scores and selection probabilities, ε = 0.1. Bars of score (not private) against "
                              "hypothesis mean μ: score S(H) — ")
    top = int(np.argmax(run.probabilities))
    half = run.means[run.probabilities >= run.probabilities[top] / 2]
    assert (f"P(select H) — bars from μ = {_number(run.means.min())} to {_number(run.means.max())}, the tallest "
            f"({_number(run.probabilities[top])}) at {_number(run.means[top])}, at least half as tall from "
            f"{_number(half.min())} to {_number(half.max())}") in summary
    assert "a vertical line marks selected μ = " in summary and " at μ = " not in summary.split("selected μ = ")[1]


def test_a_density_is_told_by_its_mode_and_where_most_of_its_mass_lies():
    """A density whose tails vanish (1.31 × 10⁻¹¹² at the axis's ends) is told from where it matters: its peak and
    the middle 80 % of its area."""
    from dpcore.viz.figures import real_data as real_figures
    x = np.random.default_rng(0).normal(1000, 300, 235)
    fig = real_figures.laplace_vs_gaussian(x, 0, 500, 1.0, 1e-6)
    summary = figure_summary(fig)
    assert "10⁻" not in summary and "rises from" not in summary
    laplace = fig.data[0]
    peak = int(np.argmax(laplace.y))
    assert f"Laplace, ε = 1 (b = 2.13) peaks at {_number(laplace.y[peak])} at {_number(laplace.x[peak])}" in summary
    area = np.concatenate([[0], np.cumsum(np.diff(laplace.x) * (laplace.y[1:] + laplace.y[:-1]) / 2)])
    low, high = np.interp([0.1, 0.9], area / area[-1], laplace.x)
    assert f", the middle 80 % of its area between {_number(low)} and {_number(high)}" in summary


def test_a_likelihood_bump_is_a_density_too():
    from dpcore.viz.figures import home as home_figures
    summary = figure_summary(home_figures.neighbouring_densities(start="1"))
    assert "on X (count 42) peaks at 1 at z = 42, the middle 80 % of its area between z = " in summary
    assert "0.000335" not in summary
