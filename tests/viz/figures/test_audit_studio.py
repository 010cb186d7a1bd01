"""The figures of "Audit studio" (dpcore.viz.figures.audit_studio): the one-run bound animated over the canaries and
opening on the page's m, the band over seeds, the trade-off boxes apart by verdict, and the three ways of choosing a
threshold against the claim; all drawing the lesson's numbers in colours told apart."""

from __future__ import annotations

import numpy as np
import pytest

from dpcore.lessons import audit_studio as lesson
from dpcore.viz.figures import audit_studio as figures
from dpcore.viz.plotly_dict import decode_array, dictionaries
from dpcore.viz.style import colour_clashes
from dpcore.viz.summary import figure_summary

CLAIM = dict(epsilon=1.0, delta=0.0, confidence=0.95, bug="correct")
GUESSES = dict(guesses_in=100, guesses_out=100)
MANY = dict(epsilon=1.0, draws=20_000, confidence=0.95, bug="correct", seed=0)

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "bound_vs_guesses": dict(mode="randomized-response", **GUESSES, **CLAIM, seed=0, m=1000, presentation=False),
    "seed_band": dict(mode="randomized-response", m=1000, **GUESSES, **CLAIM, presentation=False),
    "tradeoff": dict(mechanism="laplace-count", **MANY, presentation=False),
    "honesty": dict(epsilon=1.0, confidence=0.95, bug="correct", seed=0, presentation=False),
}


def build(name, **change):
    with dictionaries():
        return getattr(figures, name)(**dict(VALID_CALLS[name], **change))


def traces(fig) -> dict[str, dict]:
    return {trace["name"]: trace for trace in fig["data"]}


@pytest.mark.parametrize("m", [100, 1000, 10_000])
def test_the_bound_is_animated_over_the_canaries_and_opens_on_m(m):
    fig = build("bound_vs_guesses", m=m)
    assert [frame["name"] for frame in fig["frames"]] == [f"{count:,}" for count in lesson.CANARIES]
    slider = fig["layout"]["sliders"][0]
    assert slider["steps"][slider["active"]]["label"] == f"{m:,}"
    [frame] = [frame for frame in lesson.bound_frames("randomized-response", **GUESSES, **CLAIM, seed=0)
               if frame["m"] == m]
    shown = traces(fig)
    np.testing.assert_array_equal(decode_array(shown["lower bound on ε, one run"]["y"]), frame["bounds"])
    np.testing.assert_array_equal(decode_array(shown["lower bound on ε, one run"]["x"]), frame["guesses"])
    assert decode_array(shown["your guesses, k₊ + k₋"]["y"]).tolist() == [frame["chosen_bound"]]
    assert decode_array(shown["claimed ε = 1"]["y"]).tolist() == [1.0, 1.0]
    assert fig["layout"]["xaxis"]["type"] == "log"


def test_the_band_draws_the_lessons_median_and_band_for_both_kinds():
    fig = build("seed_band")
    band = lesson.seed_band("randomized-response", 1000, **GUESSES, **CLAIM)
    shown = traces(fig)
    for kind, name in (("randomized-response", "isolated canaries, randomized response"),
                       ("aggregate", "one noisy sum of all canaries")):
        np.testing.assert_array_equal(decode_array(shown[name]["y"]), band["bands"][kind]["median"])
        np.testing.assert_array_equal(decode_array(shown[f"{name} (band upper)"]["y"]), band["bands"][kind]["high"])
    assert "Shaded bands hold the middle 80 %" in figure_summary(fig)


def test_the_tradeoff_boxes_are_apart_by_verdict():
    correct = traces(build("tradeoff"))
    assert "tests wholly below the claim (caught)" not in correct
    points = decode_array(correct["thresholds' tests, boxes on or above the claim"]["x"])
    assert points.size == 41
    bugged = traces(build("tradeoff", bug="bug"))
    curves = lesson.tradeoff_curves("laplace-count", **{**MANY, "bug": "bug"})
    caught = decode_array(bugged["tests wholly below the claim (caught)"]["x"])
    np.testing.assert_array_equal(caught, curves["points"].fpr[curves["caught"]])
    boxes = decode_array(bugged["tests wholly below the claim (caught): confidence boxes"]["y"])
    assert boxes.size == 6 * curves["caught_count"] and np.isnan(boxes[5::6]).all()
    assert bugged["tests wholly below the claim (caught): confidence boxes"]["showlegend"] is False
    gaussian = traces(build("tradeoff", mechanism="gaussian-mean"))
    assert "the claim's curve, ε = 1, δ = 10⁻⁵" in gaussian


def test_the_honesty_curves_are_each_ways_sorted_bounds():
    fig = build("honesty")
    result = lesson.honesty(1.0, 0.95, "correct", 0)
    shown = traces(fig)
    for name, bounds in result["bounds"].items():
        np.testing.assert_array_equal(decode_array(shown[lesson.METHOD_WORDS[name][0]]["y"]), np.sort(bounds))
    x = decode_array(shown[lesson.METHOD_WORDS["naive"][0]]["x"])
    above = np.mean(np.sort(result["bounds"]["naive"]) > 1.0)
    assert above == result["rates"]["naive"] and 0 < x[0] < x[-1] < 1


@pytest.mark.parametrize("name", VALID_CALLS)
def test_colours_are_told_apart_and_every_figure_has_words(name):
    fig = build(name, **({"bug": "bug"} if name == "tradeoff" else {}))
    colours = {trace["name"]: trace["line"]["color"] if "lines" in trace.get("mode", "lines") else
               trace["marker"]["color"] for trace in fig["data"] if trace.get("showlegend", True) is not False}
    assert colour_clashes(colours) == []
    assert figure_summary(fig)


def test_presentation_mode_draws_the_same_numbers():
    plain, big = build("honesty"), build("honesty", presentation=True)
    assert [decode_array(trace["y"]).tolist() for trace in plain["data"]] == \
        [decode_array(trace["y"]).tolist() for trace in big["data"]]
