"""The figures of "Choosing ε" (dpcore.viz.figures.choosing_epsilon): the bars draw the lesson's ε by noise in the
methods' colours, the simulated releases cross the target at the table's share, the ε-against-target curves double at
half the target, and the attacker's ROC is animated over the target scales, opening on the plan as asked."""

from __future__ import annotations

import numpy as np
import pytest

from dpcore import planning
from dpcore.lessons import choosing_epsilon as lesson
from dpcore.lessons.methods import LABELS
from dpcore.viz.figures import choosing_epsilon as figures
from dpcore.viz.plotly_dict import decode_array, dictionaries
from dpcore.viz.style import METHOD_COLORS, colour_clashes
from dpcore.viz.summary import figure_summary

MIXED = "count:t=10;mean:t=1,m=g,hi=120;histogram:t=5,bins=20;quantile:t=20,hi=100"

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "mechanisms": dict(plan=lesson.WORKED, delta=1e-6, presentation=False),
    "coverage": dict(plan=lesson.WORKED, delta=1e-6, seed=0, presentation=False),
    "epsilon_vs_target": dict(plan=lesson.WORKED, delta=1e-6, presentation=False),
    "attacker_roc": dict(plan=lesson.WORKED, delta=1e-6, start="×1", presentation=False),
}


def build(name, **change):
    with dictionaries():
        return getattr(figures, name)(**dict(VALID_CALLS[name], **change))


def test_the_bars_are_the_lessons_epsilons_in_the_methods_colours():
    fig = build("mechanisms", plan=MIXED)
    bars = lesson.mechanism_bars(MIXED, 1e-6)
    by_name = {trace["name"]: trace for trace in fig["data"]}
    assert list(by_name) == [LABELS[method] for method in ("laplace", "gaussian_analytic", "exponential_mechanism")]
    for method in ("laplace", "gaussian_analytic", "exponential_mechanism"):
        trace = by_name[LABELS[method]]
        values = bars[method][np.isfinite(bars[method])]
        np.testing.assert_allclose(decode_array(trace["y"]), values)
        assert trace["marker"]["color"] == METHOD_COLORS[method] and "nan" not in trace["text"]
    assert by_name[LABELS["exponential_mechanism"]]["x"] == ["4. a median ±20"]
    worked = build("mechanisms")
    assert [trace["name"] for trace in worked["data"]] == ["Laplace", "Gaussian (analytic)"]  # no median: no bar


def test_the_simulated_releases_cross_the_target_at_the_tables_share():
    fig = build("coverage", plan=MIXED, seed=5)
    items = planning.plan_for(lesson.releases(MIXED), 1e-6).items
    curves = {trace["name"]: trace for trace in fig["data"]}
    for index, item in enumerate(items):
        trace = curves[f"{index + 1}. {item.release.describe()}"]
        x, y = decode_array(trace["x"]), decode_array(trace["y"])
        assert y[np.flatnonzero(np.isclose(x, 1.0))[0]] == planning.coverage(item, seed=5)
    assert build("coverage", seed=1)["data"] != build("coverage", seed=2)["data"]  # the seed redraws them


def test_the_release_colours_are_told_apart():
    assert not colour_clashes({**{str(i): colour for i, colour in enumerate(figures.RELEASE_COLORS)},
                               "reference": "#555555"})
    assert len(figures.RELEASE_COLORS) == planning.MAX_RELEASES


def test_half_the_target_costs_twice_the_epsilon_on_the_curves():
    fig = build("epsilon_vs_target")
    for trace in fig["data"][:2]:
        x, y = decode_array(trace["x"]), decode_array(trace["y"])
        half, one = (int(np.argmin(np.abs(x - scale))) for scale in (0.5, 1.0))
        assert y[half] / y[one] == pytest.approx(2.0)
    assert fig["layout"]["xaxis"]["type"] == "log" and fig["layout"]["yaxis"]["type"] == "log"


@pytest.mark.parametrize("start", ["×0.25", "×1", "×4"])
def test_the_roc_is_animated_over_the_targets_and_opens_where_asked(start):
    fig = build("attacker_roc", start=start)
    names = [frame["name"] for frame in fig["frames"]]
    assert names == [f"×{scale:g}" for scale in lesson.SCALES]
    slider = fig["layout"]["sliders"][0]
    assert slider["steps"][slider["active"]]["label"] == start
    opening = fig["frames"][names.index(start)]
    np.testing.assert_array_equal(decode_array(fig["data"][0]["y"]), decode_array(opening["data"][0]["y"]))
    assert "total ε = " in opening["layout"]["title"]["text"]
    assert "total ε = 0.659" in build("attacker_roc")["layout"]["title"]["text"]


def test_every_figure_is_told_in_words_without_float_noise():
    for name in VALID_CALLS:
        said = figure_summary(build(name, plan=MIXED))
        assert "nan" not in said and len(said) < 1400, (name, said)
