"""The "Pure vs approximate DP" page (app_pages/noise_tradeoff.py) through AppTest: runs, figures, URL handling."""


import numpy as np
import pytest
from helpers import (
    ROOT,
    active_frame,
    as_sent,
    assert_animated,
    assert_downloads,
    charts,
    decode,
    run,
    texts,
    widget_values,
)
from streamlit.testing.v1 import AppTest

import ui
from dpcore.estimators import mean_release as nt
from dpcore.lessons import noise_tradeoff as lesson
from dpcore.lessons.methods import LABELS
from dpcore.lessons.plain_words import superscript

PAGE = str(ROOT / "app_pages" / "noise_tradeoff.py")
ANIMATED = ("error_vs_n", "error_vs_d", "profiles", "tradeoff", "composition")
DIMENSIONS = ["1", "2", "4", "8", "16", "32", "64", "128", "256", "512", "1024"]
CLASSICAL = {"Gaussian (classical)", "Gaussian (classical) (theory)"}
SLIDERS = ("eps", "delta", "d", "n", "releases", "trials")


def run_page(**query: str) -> AppTest:
    return run(PAGE, timeout=60, **query)


def trace_names(traces: list[dict]) -> set[str]:
    return {trace["name"] for trace in traces}


def assert_healthy(at: AppTest) -> dict[str, dict]:
    assert not at.exception, [e.value for e in at.exception]
    specs = charts(at)
    for key in ANIMATED:
        assert_animated(specs[key])
    for key in ("error_vs_n", "error_vs_d"):  # log axes: every simulated and theory value positive and finite
        for frame in specs[key]["frames"]:
            for trace in frame["data"]:
                y = decode(trace["y"])
                assert np.all(np.isfinite(y) & (y > 0)), (key, frame["name"], trace["name"])
    return specs


@pytest.fixture(scope="module")
def default_page() -> AppTest:
    """The page as a class opens it: every control at its default, the sweeps served from assets/precomputed."""
    return run_page()


def test_page_runs_at_defaults(default_page):
    assert widget_values(default_page, SLIDERS) == dict(eps=1.0, delta=1e-6, d=64, n=10_000, releases=100,
                                                        trials=200, seed=0)
    specs = assert_healthy(default_page)
    assert (default_page.error, default_page.warning, default_page.info) == ([], [], [])
    assert set(ANIMATED) | {"clouds"} <= set(specs)
    assert [frame["name"] for frame in specs["error_vs_n"]["frames"]] == DIMENSIONS
    assert [active_frame(specs[key]) for key in ANIMATED] == ["64", "1", "1", "1", "0.1"]
    assert CLASSICAL <= trace_names(specs["error_vs_n"]["data"])  # ε = 1: the classical Gaussian is valid
    zcdp = next(text for text in texts(default_page.markdown) if "not a fairer Gaussian" in text)
    assert "= 5.76, not ε = 1" in zcdp  # what the zCDP Gaussian's curve promises, converted at the page's δ


def test_error_vs_n_figure_shows_the_library_sweep_and_exact_rmse(default_page):
    """Frame d = 64 plots lesson.error_sweep's RMSE (streams keyed by values: a d = 64 sweep gives the same numbers)
    and the dashed curves are nt.expected_error."""
    frame = next(f for f in charts(default_page)["error_vs_n"]["frames"] if f["name"] == "64")
    traces = {trace["name"]: trace for trace in frame["data"]}
    n_grid = decode(traces["Laplace"]["x"]).astype(int)
    result = lesson.error_sweep(n_grid, np.array([64]), np.array([1.0]), 1e-6, 200, 0)
    for mechanism in (*nt.MECHANISMS, nt.NON_PRIVATE):
        # the page serves the stored sweep; a fresh run on another CPU differs in the last bits (precomputed_check)
        label = LABELS[mechanism]
        np.testing.assert_allclose(decode(traces[label]["y"]), result.curve(mechanism, "n")["rmse"], rtol=1e-6)
        exact = [nt.expected_error(mechanism, 64, int(n), 1.0, 1e-6) for n in n_grid]
        np.testing.assert_array_equal(decode(traces[f"{label} (theory)"]["y"]), as_sent(exact))


def test_takeaways_quote_the_library(default_page):
    notes = next(text for text in texts(default_page.markdown) if text.startswith("- At ε = 1"))
    radius = nt.clip_radius(64, 10_000)
    ratio = nt.calibrate("laplace", 64, 10_000, 1.0, 1e-6, radius).rmse / nt.calibrate(
        "gaussian_analytic", 64, 10_000, 1.0, 1e-6, radius).rmse
    assert f"d > **{lesson.crossover_dimension(1.0, 1e-6):.1f}**" in notes and "**8.9**" in notes
    assert f"**{ratio:.2f}×**" in notes
    assert "basic 10.00, advanced 6.31, zCDP 5.76, exact Gaussian 4.89" in notes  # docs/algorithms.md §2.4 at k = 100
    assert f"from **k = {lesson.advanced_beats_basic_from(0.1, 1e-6)}** on" in notes
    measured = lesson.error_ratio_exponent(10_000, 1e-6, 200, 0, 1.0)
    assert f"**d{superscript(measured, '.2f')}**" in notes  # the measured exponent
    caption = default_page.caption[1].value  # after the objectives' "About 25 minutes in class"
    for mechanism in ("laplace", "gaussian_analytic", "non_private"):
        assert f"{nt.expected_error(mechanism, 64, 10_000, 1.0, 1e-6):.3g}" in caption


@pytest.mark.parametrize("query, classical", [
    (dict(n="100", eps="0.05", delta="1e-12", d="1"), True),
    (dict(n="1000000", eps="10", d="1024"), False),
    (dict(eps="1.5"), False),  # the first ε above 1 on the page's grid
])
def test_extreme_controls(query, classical):
    at = run_page(**query)
    specs = assert_healthy(at)
    assert not at.error and not at.warning and not at.info  # every value is on the page's grid
    values = widget_values(at, SLIDERS)
    for key, raw in query.items():
        assert values[key] == float(raw)
    assert active_frame(specs["error_vs_n"]) == query.get("d", "64")
    figure = specs["error_vs_n"]
    for traces in [figure["data"]] + [frame["data"] for frame in figure["frames"]]:
        assert CLASSICAL & trace_names(traces) == (CLASSICAL if classical else set())  # shown iff ε <= 1


def test_bad_epsilon_in_the_url():
    at = run_page(eps="abc")
    assert_healthy(at)
    assert len(at.error) == 1 and "eps in the link: `abc`" in at.error[0].value and "not a number" in at.error[0].value
    assert at.select_slider(key="w_eps").value == 1.0
    assert at.query_params["eps"] == "1"  # the URL is repaired


def test_off_grid_dimension_in_the_url():
    at = run_page(d="7")
    specs = assert_healthy(at)
    assert not at.error and len(at.info) == 1
    assert "d = `7`" in at.info[0].value and "nearest, 8" in at.info[0].value
    assert at.select_slider(key="w_d").value == 8
    assert active_frame(specs["error_vs_n"]) == "8"
    assert at.query_params["d"] == "8"


def test_delta_of_one_in_the_url_is_clamped():
    at = run_page(delta="1")
    assert_healthy(at)
    assert not at.error and len(at.warning) == 1
    assert "delta = `1`" in at.warning[0].value and "clamped to 1e-03" in at.warning[0].value
    assert at.select_slider(key="w_delta").value == 1e-3
    notes = next(text for text in texts(at.markdown) if text.startswith("- At ε"))
    assert "**too large**" in notes  # δ·n = 10 at n = 10^4


def test_url_round_trip():
    query = dict(eps="0.3", delta="1e-08", d="16", n="3000", releases="30", trials="100", seed="7")
    at = run_page(**query)
    assert not at.exception and not at.error and not at.warning and not at.info
    assert widget_values(at, SLIDERS) == dict(eps=0.3, delta=1e-8, d=16, n=3000, releases=30, trials=100, seed=7)
    assert {key: at.query_params[key] for key in query} == query  # the URL states the page exactly

    at.select_slider(key="w_d").set_value(256).run()
    assert at.query_params["d"] == "256"  # the URL follows the widget
    moved = charts(at)
    assert active_frame(moved["error_vs_n"]) == "256"

    again = run_page(**{key: at.query_params[key] for key in query})  # open the new link
    assert widget_values(again, SLIDERS) == widget_values(at, SLIDERS)
    reopened = charts(again)
    for key in ANIMATED:
        for trace, same in zip(moved[key]["data"], reopened[key]["data"]):
            np.testing.assert_array_equal(decode(trace["y"]), decode(same["y"]))


def test_go_deeper_offers_both_monte_carlo_figures_and_the_tradeoff_curves(default_page):
    offered = default_page.session_state[ui.FIGURE_CALLS]
    assert list(offered) == ["error_vs_n", "error_vs_d", "tradeoff"]
    assert offered["error_vs_d"][1] == dict(n=10_000, epsilon=1.0, delta=1e-6, trials=200, seed=0)
    assert_downloads(run_page(), ["error_vs_n", "error_vs_d", "tradeoff"])
    headings = [element.value for element in default_page.subheader]
    assert headings[0] == "One run: the shape of the noise" and headings[-2:] == ["What to notice", "Check yourself"]


def test_presentation_mode_keeps_headings_formulas_figures_and_takeaways(default_page):
    shown = run_page(present="1")
    assert not shown.exception and len(shown.latex) == len(default_page.latex) == 3
    assert [h.value for h in shown.subheader] == [h.value for h in default_page.subheader]
    assert not any(text.startswith("Markers: Monte Carlo RMSE") for text in texts(shown.markdown))
    assert any(text.startswith("Markers: Monte Carlo RMSE") for text in texts(default_page.markdown))
    assert any(text.startswith("- At ε = 1") for text in texts(shown.markdown))
    assert charts(shown)["error_vs_n"]["layout"]["template"]["layout"]["font"]["size"] == 22


def test_the_tradeoff_curves_open_on_the_sidebars_epsilon_with_the_lessons_numbers():
    at = run_page(eps="2", delta="1e-05")
    spec = charts(at)["tradeoff"]
    assert active_frame(spec) == "2"
    curves = lesson.tradeoff_curves(2.0, 1e-5)
    shown = {trace["name"]: decode(trace["y"]) for trace in spec["data"]}
    np.testing.assert_allclose(shown["Laplace"], curves["laplace"])
    np.testing.assert_allclose(shown["Gaussian (analytic)"], curves["gaussian"])
    assert lesson.tradeoff_caption(2.0, 1e-5) in texts(at.caption)


def test_a_saved_link_with_the_old_key_k_sets_the_releases_and_the_address_is_rewritten():
    """Teachers' saved links said k= for the composed releases; the control is now releases= beside its chart."""
    at = run_page(k="30")
    assert not at.exception and not at.error and not at.warning
    assert at.select_slider(key="w_releases").value == 30
    assert at.query_params["releases"] == "30" and "k" not in at.query_params
    line = charts(at)["composition"]["layout"]["shapes"][0]
    assert line["x0"] == line["x1"] == 30  # the dotted line marks the chosen k on the chart beside the control
    assert any("After k = 30 releases" in text for text in texts(at.markdown))
