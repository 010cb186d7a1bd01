"""The "Truncation bias" page (app_pages/truncation.py) through AppTest: runs, figures, URL handling."""

import math
import re

import helpers
import numpy as np
import pytest
from helpers import (
    ROOT,
    active_frame,
    as_sent,
    assert_downloads,
    charts,
    decode,
    frame_traces,
    run,
    texts,
    widget_values,
)
from streamlit.testing.v1 import AppTest

import ui
from dpcore.estimators import truncated_mle
from dpcore.experiments import fit_power_law
from dpcore.lessons import truncation
from dpcore.lessons.methods import LABELS

PAGE = str(ROOT / "app_pages" / "truncation.py")
MOMENTS = ["2", "2.5", "3", "4", "6", "10", "inf"]
EPSILON_FRAMES = ["0.25", "0.5", "1", "2", "4"]
ANIMATED = ("error_vs_n", "bias_correction")
CHARTS = {"clipping_histogram", "bias_noise_tradeoff", *ANIMATED}
SLIDERS = ("eps", "n", "t", "trials")
RADIOS = ("moment", "family")
DEFAULTS = dict(eps=1.0, moment="3", family="lomax", n=10_000, t=2.0, trials=200, seed=0)
PRIVATE = "private part (bias + noise)"
SLOPE = re.compile(r"Measured log–log slope of the private part at k = (\S+): \*\*(-?\d+\.\d+)\*\*; "
                   r"theory −\(k−1\)/k = \*\*(-?\d+\.\d+)\*\*")


def run_page(**query: str) -> AppTest:
    return run(PAGE, timeout=120, **query)


def assert_animated(spec: dict) -> None:
    """The shared animation checks, and every plotted value positive and finite (log axes)."""
    helpers.assert_animated(spec)
    for frame in spec["frames"]:
        for trace in frame["data"]:
            y = decode(trace["y"])
            assert np.all(np.isfinite(y) & (y > 0)), (frame["name"], trace["name"])


def assert_healthy(at: AppTest) -> dict[str, dict]:
    assert not at.exception, [e.value for e in at.exception]
    specs = charts(at)
    assert set(specs) == CHARTS
    for key in ANIMATED:
        assert_animated(specs[key])
    assert [frame["name"] for frame in specs["error_vs_n"]["frames"]] == MOMENTS
    assert [frame["name"] for frame in specs["bias_correction"]["frames"]] == EPSILON_FRAMES
    return specs


def measured_slope(at: AppTest) -> tuple[str, float, float]:
    """(k label, measured slope, theory slope) from the "Measured log–log slope" markdown."""
    found = [SLOPE.search(text) for text in texts(at.markdown)]
    (match,) = [m for m in found if m]
    return match.group(1), float(match.group(2)), float(match.group(3))


def clipped_bar(spec: dict) -> tuple[float, int]:
    """(percentage in the legend, total count) of the histogram's "clipped" bars."""
    (bar,) = [trace for trace in spec["data"] if trace["type"] == "bar" and trace["name"].startswith("clipped")]
    percent = float(re.match(r"clipped \((\d+\.\d) % of points\)", bar["name"]).group(1))
    return percent, int(decode(bar["y"]).sum())


def caption_percent(at: AppTest) -> float:
    (caption,) = [text for text in texts(at.caption) if text.startswith("Window radius t")]
    return float(re.search(r": (\d+\.\d+) % of points clipped", caption).group(1))


@pytest.fixture(scope="module")
def default_page() -> AppTest:
    return run_page()


def test_page_runs_at_defaults(default_page):
    specs = assert_healthy(default_page)
    assert not default_page.error and not default_page.warning and not default_page.info
    assert widget_values(default_page, SLIDERS, RADIOS) == DEFAULTS
    assert active_frame(specs["error_vs_n"]) == "3"  # the sidebar's k
    assert active_frame(specs["bias_correction"]) == "1"  # the sidebar's ε
    assert {key: default_page.query_params[key] for key in DEFAULTS} == dict(
        eps="1", moment="3", family="lomax", n="10000", t="2", trials="200", seed="0")


def test_error_figure_shows_the_library_sweep(default_page):
    """Frame k = 3 plots truncation.error_sweep's medians (streams keyed by values: a k = 3 sweep gives the same
    numbers), the naive window is ≥ 5× worse than Kamath, Singhal & Ullman's (2020) estimator at n = 10^3, 10^4, and
    its error falls with n."""
    traces = frame_traces(charts(default_page)["error_vs_n"], "3")
    n_grid = decode(traces["private range, then clip"]["x"]).astype(int)
    np.testing.assert_array_equal(n_grid, [100, 300, 1000, 3000, 10_000, 30_000, 100_000])
    result = truncation.error_sweep("lomax", [3.0], n_grid, 1.0, 400_000, 0, mean_range=1000.0)
    for method in truncation.SWEEP_METHODS:
        # the page serves the stored sweep; a fresh run on another CPU differs in the last bits (precomputed_check)
        np.testing.assert_allclose(decode(traces[LABELS[method]]["y"]), result.curve(method, "n")["median"], rtol=1e-6)
    ksu20, naive = decode(traces["private range, then clip"]["y"]), decode(traces["naive"]["y"])
    assert np.all((naive / ksu20)[(n_grid >= 1000) & (n_grid <= 10_000)] >= 5)
    assert np.all(np.diff(ksu20[n_grid >= 1000]) < 0)


def test_measured_slope_is_near_the_theory_at_the_default(default_page):
    label, slope, theory = measured_slope(default_page)
    assert (label, theory) == ("3", -0.67)
    assert abs(slope - (-2 / 3)) <= 0.15
    traces = frame_traces(charts(default_page)["error_vs_n"], "3")
    fitted, _ = fit_power_law(decode(traces[PRIVATE]["x"]).astype(float), decode(traces[PRIVATE]["y"]))
    assert slope == round(fitted, 2)  # the markdown quotes the plotted curve's fit


def test_bias_figure_naive_is_the_truncation_bias_and_the_mle_removes_it(default_page):
    traces = frame_traces(charts(default_page)["bias_correction"], "1")
    n = decode(traces["naive truncated mean"]["x"]).astype(int)
    naive = decode(traces["naive truncated mean"]["y"])
    bias = 0.8 - truncated_mle.truncated_mean_map(0.8, 0.0, 1.5)
    np.testing.assert_allclose(naive, bias, atol=0.02)
    np.testing.assert_array_equal(decode(traces["naive truncated mean (theory)"]["y"]), as_sent(bias))
    at_4000 = list(n).index(4000)
    for method in ("truncated MLE (moment matching)", "truncated MLE (DP gradient descent)"):
        assert naive[at_4000] / decode(traces[method]["y"])[at_4000] >= 5, method
    notes = next(text for text in texts(default_page.markdown) if text.startswith("- At n"))
    assert f"naive truncated mean error {naive[-1]:.3f}" in notes


def test_clipped_bar_follows_t(default_page):
    at = run_page()
    seen = []
    for radius in (0.5, 2.0, 10.0):
        at.select_slider(key="w_t").set_value(radius).run()
        assert not at.exception
        assert at.query_params["t"] == f"{radius:g}"
        percent, count = clipped_bar(charts(at)["clipping_histogram"])
        assert percent == pytest.approx(caption_percent(at), abs=0.051)  # legend (viz) = caption (the release)
        seen.append((percent, count))
    percents, counts = zip(*seen)
    assert percents[0] > percents[1] > percents[2] and counts[0] > counts[1] > counts[2]
    assert counts[1] > 0  # at the default t = 2 about 0.9 % of 10^4 points are clipped
    assert seen[1][0] == clipped_bar(charts(default_page)["clipping_histogram"])[0]


@pytest.mark.parametrize("query", [
    dict(n="10", eps="0.01", moment="2"),  # the extreme controls
    dict(moment="inf", family="two-point", t="100"),
    dict(n="1000000"),
])
def test_extreme_controls(query):
    at = run_page(**query)
    specs = assert_healthy(at)
    assert not at.error and not at.warning and not at.info  # every value is on the page's grid
    values = widget_values(at, SLIDERS, RADIOS)
    for key, raw in query.items():
        assert values[key] == (raw if key in RADIOS else float(raw))
    k = query.get("moment", "3")
    assert active_frame(specs["error_vs_n"]) == k
    label, slope, theory = measured_slope(at)
    assert label == k and theory == (-1.0 if k == "inf" else round(-(float(k) - 1) / float(k), 2))
    assert math.isfinite(slope) and slope < 0
    eps_frame = min(EPSILON_FRAMES, key=lambda frame: abs(math.log(float(frame) / values["eps"])))
    assert active_frame(specs["bias_correction"]) == eps_frame


@pytest.mark.parametrize("key, raw, level, words, repaired", [
    ("moment", "1", "error", ["moment in the link: `1`", "not one of 2, 2.5, 3, 4, 6, 10, inf", "default 3"], "3"),
    ("family", "cauchy", "error", ["family in the link: `cauchy`", "not one of lomax"], "lomax"),
    ("eps", "abc", "error", ["eps in the link: `abc`", "not a number"], "1"),
    ("t", "-3", "warning", ["t = `-3`", "outside [0.1, 100]", "clamped to 0.1"], "0.1"),
])
def test_bad_url_parameters_give_a_message(key, raw, level, words, repaired):
    at = run_page(**{key: raw})
    assert_healthy(at)
    messages = texts(getattr(at, level))
    others = [element for kind in ("error", "warning", "info") if kind != level for element in getattr(at, kind)]
    assert len(messages) == 1 and not others, (messages, others)
    for word in words:
        assert word in messages[0]
    assert at.query_params[key] == repaired  # the URL is repaired
    assert widget_values(at, SLIDERS, RADIOS) == ({**DEFAULTS, "t": 0.1} if key == "t" else DEFAULTS)


def test_url_round_trip():
    query = dict(eps="0.5", moment="4", family="student-t", n="3000", t="5", trials="100", seed="7")
    at = run_page(**query)
    assert_healthy(at)
    assert not at.error and not at.warning and not at.info
    assert widget_values(at, SLIDERS, RADIOS) == dict(eps=0.5, moment="4", family="student-t", n=3000, t=5.0,
                                                      trials=100, seed=7)
    assert {key: at.query_params[key] for key in query} == query  # the URL states the page exactly
    assert active_frame(charts(at)["error_vs_n"]) == "4" and active_frame(charts(at)["bias_correction"]) == "0.5"

    at.radio(key="w_moment").set_value("6").run()
    assert at.query_params["moment"] == "6"  # the URL follows the widget
    moved = charts(at)
    assert active_frame(moved["error_vs_n"]) == "6"
    assert measured_slope(at)[0] == "6"

    again = run_page(**{key: at.query_params[key] for key in query})  # open the new link
    assert widget_values(again, SLIDERS, RADIOS) == widget_values(at, SLIDERS, RADIOS)
    reopened = charts(again)
    for key in CHARTS:
        assert len(moved[key]["data"]) == len(reopened[key]["data"])
        for trace, same in zip(moved[key]["data"], reopened[key]["data"]):
            np.testing.assert_array_equal(decode(trace["y"]), decode(same["y"]))


HEADINGS = ["One run: where to clip", "Error vs n, one frame per moment order k",
            "Taking the bias back: truncated maximum likelihood", "What to notice", "Check yourself"]


def test_sections_fill_their_prose_with_the_lesson_constants(default_page):
    assert [header.value for header in default_page.subheader] == HEADINGS
    shown = "\n".join(texts(default_page.markdown))
    assert "knowing only |μ| ≤ R = 1000." in shown
    assert "Gaussian data with mean μ* = 0.8 (variance 1)." in shown
    assert "*survival set*\nS = [c − r, c + r] are kept" in shown and "with r = 1.5 and c =\n0 a *warm start*" in shown
    assert "the *truncated* mean, 0.42, whatever n is" in shown
    assert "{{" not in shown and len(default_page.latex) == 1


def test_presentation_mode_keeps_headings_formula_figures_and_takeaways():
    present = run_page(present="1")
    assert_healthy(present)
    assert [header.value for header in present.subheader] == HEADINGS and len(present.latex) == 1
    shown = texts(present.markdown)
    assert not any("Red bars are the points" in text or "Privacy spent" in text for text in shown)
    assert any(text.startswith("- At n = 100 and k = 3") for text in shown)
    assert charts(present)["error_vs_n"]["layout"]["template"]["layout"]["font"]["size"] == 22


def test_both_animated_sweeps_are_offered_for_download(default_page):
    offered = default_page.session_state[ui.FIGURE_CALLS]
    assert list(offered) == list(ANIMATED)
    assert offered["error_vs_n"][1] == dict(family="lomax", epsilon=1.0, trials=200, seed=0, start="3")
    assert offered["bias_correction"][1] == dict(trials=200, seed=0, start="1")
    assert_downloads(run_page(), list(ANIMATED))


def test_a_saved_link_with_the_old_key_k_sets_the_moment_order():
    """Teachers' saved links said k= for the moment order; the key is now moment= (one letter had four meanings)."""
    at = run_page(k="4")
    assert not at.exception and not at.error and not at.warning
    assert at.radio(key="w_moment").value == "4"
    assert at.query_params["moment"] == "4" and "k" not in at.query_params
