"""The real-data page's figures (dpcore.viz.figures.real_data) on a seeded income-like column."""

from __future__ import annotations

import numpy as np
import pytest

from dpcore.lessons import real_data as lesson
from dpcore.lessons.methods import LABELS
from dpcore.viz.figures import real_data as figures
from dpcore.viz.plotly_dict import decode_array, dictionaries
from dpcore.viz.style import METHOD_COLORS
from dpcore.viz.summary import figure_summary

X = 300.0 + 400.0 * np.random.default_rng(0).pareto(2.2, 235)
RANGE = dict(public_low=0.0, public_high=10_000.0)
PUBLIC = dict(**RANGE, lower=0.0, upper=10_000.0, epsilon=0.5, delta=1e-6, scale=500.0,
              moment_k=2.0)

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "clipping_bars": dict(x=X, lower=0.0, upper=10_000.0, epsilon=0.5, unit="francs", presentation=False),
    "histogram": dict(x=X, **RANGE, epsilon=0.5, seed=0, bins=20, unit="francs", presentation=False),
    "quantiles": dict(x=X, **RANGE, epsilon=0.5, seed=0, unit="francs", presentation=False),
    "laplace_vs_gaussian": dict(x=X, lower=0.0, upper=10_000.0, epsilon=0.5, delta=1e-6, unit="francs",
                                presentation=False),
    "means_vs_epsilon": dict(x=X, **PUBLIC, trials=20, seed=0, unit="francs", presentation=False),
    "quantiles_vs_epsilon": dict(x=X, **RANGE, epsilon=0.5, trials=20, seed=0, unit="francs", presentation=False),
}


def build(name, **change):
    with dictionaries():
        return getattr(figures, name)(**dict(VALID_CALLS[name], **change))


def test_the_bias_noise_bars_mark_the_oracle_as_not_private_and_draw_the_decomposition():
    fig = build("clipping_bars", lower=400.0, upper=900.0)
    split = lesson.clipping_decomposition(X, 400.0, 900.0, 0.5)
    best = lesson.best_bounds(X, 0.5).decomposition
    bias, noise, _ = fig["data"]
    assert fig["data"][0]["x"][1].startswith(figures.BEST)
    np.testing.assert_allclose(decode_array(bias["y"]), [abs(split.bias), abs(best.bias)])
    np.testing.assert_allclose(decode_array(noise["y"]), [split.noise_scale, best.noise_scale])
    assert "not private" in figure_summary(fig)


def test_the_histogram_draws_the_page_s_release_over_the_true_outline():
    fig = build("histogram")
    release = lesson.releases(X, **PUBLIC, seed=0).histogram
    private, true = fig["data"]
    np.testing.assert_array_equal(decode_array(private["y"]), release.value)
    np.testing.assert_array_equal(decode_array(true["y"]), release.true_value)
    assert true["name"] == figures.TRUE and true["marker"]["color"] == "rgba(0,0,0,0)"
    assert "histogram" in figure_summary(fig).lower()


def test_the_quantiles_sit_inside_their_80_percent_intervals_beside_the_truth():
    fig = build("quantiles")
    result = lesson.releases(X, **PUBLIC, seed=0)
    for trace, name in zip(fig["data"][:3], lesson.QUANTILE_METHODS, strict=True):
        assert decode_array(trace["y"])[0] == result.quantiles[name].value
        assert trace["marker"]["color"] == METHOD_COLORS[name]
        error = trace["error_y"]
        assert decode_array(error["array"])[0] >= 0 and decode_array(error["arrayminus"])[0] >= 0
    truth = [result.quantiles[name].true_value for name in lesson.QUANTILE_METHODS]
    assert list(decode_array(fig["data"][3]["y"])) == truth


def test_laplace_and_gaussian_densities_integrate_to_one():
    fig = build("laplace_vs_gaussian")
    for trace in fig["data"][:2]:
        x, y = decode_array(trace["x"]), decode_array(trace["y"])
        assert np.trapezoid(y, x) == pytest.approx(1.0, abs=0.01)


@pytest.mark.parametrize("name, methods", [("means_vs_epsilon", lesson.MEAN_METHODS),
                                           ("quantiles_vs_epsilon", lesson.QUANTILE_METHODS)])
def test_the_sweep_is_animated_over_epsilon_and_opens_on_the_page_s(name, methods):
    fig = build(name)
    labels = [frame["name"] for frame in fig["frames"]]
    assert labels == [f"{eps:g}" for eps in lesson.EPSILONS]  # 0.5 is on the grid
    assert fig["layout"]["sliders"][0]["active"] == labels.index("0.5")
    summary = figure_summary(fig)
    assert "horizontal line marks " in summary and "true " in summary and "band" in summary
    sweep = lesson.error_vs_epsilon(X, **PUBLIC, epsilons=lesson.EPSILONS, trials=20, seed=0)
    last = {trace["name"]: trace for trace in fig["frames"][-1]["data"]}  # the whole grid drawn
    for method in methods:  # the median release and its 10-90 % band, within the public range
        drawn = np.clip(sweep.released[method], 0.0, 10_000.0)
        for suffix, row in (("", 1), (" (band lower)", 0), (" (band upper)", 2)):
            np.testing.assert_array_equal(decode_array(last[LABELS[method] + suffix]["y"]), drawn[row])


def test_presentation_mode_and_units_reach_the_axes():
    fig = build("laplace_vs_gaussian", presentation=True)
    assert "(francs)" in fig["layout"]["xaxis"]["title"]["text"]
    plain = build("laplace_vs_gaussian")
    assert fig["layout"]["height"] > plain["layout"]["height"]


@pytest.mark.parametrize("name", ["laplace_vs_gaussian", "means_vs_epsilon", "quantiles_vs_epsilon"])
def test_the_x_title_of_a_line_chart_fits_one_line_on_a_phone(name):
    """On a 390 px phone the browser wraps an axis title by its axis's length (assets/fit_formulas.js), and a line
    chart's legend, or an animated chart's Play button, sits one title line below the axis: a second line ran under
    them. With the longest unit a column may have (20 characters), the x title stays within 30 characters."""
    fig = build(name, unit="x" * 20)
    assert len(fig["layout"]["xaxis"]["title"]["text"].replace("<br>", " ")) <= 30
