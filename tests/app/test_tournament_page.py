"""AppTest: the tournament (Scheffé) selection page at defaults, extreme and bad controls."""

import numpy as np
import pytest
from helpers import (
    as_sent,
    assert_clean_and_animated,
    assert_downloads,
    charts,
    decode,
    frame_traces,
    page_path,
    run,
    texts,
)

import ui
from dpcore.lessons import tournament as selection
from dpcore.lessons.methods import label
from dpcore.viz.figures import tournament as figures

PAGE = page_path("tournament.py")
ANIMATED = {"tv_vs_n": "41", "price_of_k": "0.1", "users_needed": "0.1", "user_tv": "16"}


def run_page(**query: str):
    return run(PAGE, timeout=300, **query)


@pytest.fixture(scope="module")
def default_page():
    return run_page()


def test_page_runs_at_defaults_with_every_figure(default_page):
    specs = assert_clean_and_animated(default_page, ANIMATED)
    assert {"contest", "win_matrix", "scores", "plane_scores", "plane_probabilities", *ANIMATED} <= set(specs)
    assert dict(default_page.query_params) == {"reveal": "1", "eps": "0.1", "n": "300", "hypotheses": "41", "a": "0.3",
                                               "b": "0.8", "m": "16", "trials": "100", "seed": "0", "mc": "0"}


def test_contest_title_states_the_exact_scheffe_probabilities(default_page):
    """N(0.3, 1) vs N(0.8, 1): W = {x < 0.55}, p1 = Φ(0.25) = 0.599, p2 = Φ(−0.25) = 0.401."""
    title = charts(default_page)["contest"]["layout"]["title"]["text"]
    assert "p₁ = 0.599" in title and "p₂ = 0.401" in title


def test_win_matrix_is_antisymmetric_and_scores_match_the_library(default_page):
    specs = charts(default_page)
    wins = np.array(decode(specs["win_matrix"]["data"][0]["z"]), dtype=float)
    assert wins.shape == (41, 41) and np.array_equal(wins, -wins.T)
    scores = next(t for t in specs["scores"]["data"] if t["name"] == "score S(H)")
    probabilities = next(t for t in specs["scores"]["data"] if t["name"] == "P(select H)")
    y = decode(scores["y"])
    assert y.max() > 0 and decode(probabilities["y"]).sum() == pytest.approx(1.0)
    means = decode(scores["x"])
    assert abs(means[np.argmax(y)] - 0.33) <= 0.15  # the best-scored hypothesis is next to the truth
    run_data = selection.one_run(41, 300, 0.1, 0)
    np.testing.assert_array_equal(y, as_sent(run_data.scores))
    np.testing.assert_array_equal(wins, run_data.wins)


def test_private_error_falls_with_n_and_the_guarantee_holds(default_page):
    """At ε = 0.1, k = 41: mean TV decreases from n = 30 to 10⁴ and stays under the 5α(n) + OPT guarantee."""
    traces = frame_traces(charts(default_page)["tv_vs_n"], "41")
    private = decode(traces[label(selection.PRIVATE)]["y"])
    bound = decode(traces["guarantee 5α(n) + OPT (when OPT ≤ α)"]["y"])
    assert private[-1] < 0.05 < private[0] and np.all(private <= bound + 1e-12)


def test_price_of_k_is_drawn_log_x_linear_y_so_a_straight_line_is_ln_k_growth(default_page):
    """The page's reading rule ("a straight line is growth like ln k") holds only with log x and linear y."""
    layout = charts(default_page)["price_of_k"]["layout"]
    assert layout["xaxis"]["type"] == "log" and layout["yaxis"]["type"] == "linear"
    guarantee = frame_traces(charts(default_page)["tv_vs_n"], "41")
    assert "guarantee 5α(n) + OPT (when OPT ≤ α)" in guarantee and figures.GUARANTEE_LABEL in guarantee


def test_clipping_needs_fewer_users_than_group_privacy_at_large_m(default_page):
    traces = frame_traces(charts(default_page)["users_needed"], "0.1")
    clipped, group = (decode(traces[label(method)]["y"]) for method in (selection.USER_CLIPPED, selection.GROUP))
    assert clipped[-1] < 0.6 * group[-1]  # m = 256
    assert clipped[0] == pytest.approx(decode(traces[label(selection.ONE_PER_USER)]["y"])[0], rel=0.5)  # m = 1


def test_caption_and_takeaways_quote_the_lesson(default_page):
    assert selection.run_caption(41, 300, 0.1, 0) in texts(default_page.caption)
    notes = next(text for text in texts(default_page.markdown) if text.startswith("- This run:"))
    assert notes == "\n".join(f"- {line}" for line in selection.takeaways(41, 300, 0.1, 16, 100, 0, run=ui.sweep))


def test_every_animated_figure_is_offered_for_download(default_page):
    offered = default_page.session_state[ui.FIGURE_CALLS]
    assert {key: builder for key, (builder, _) in offered.items()} == {
        "tv_vs_n": figures.tv_vs_n, "price_of_k": figures.price_of_k, "users_needed": figures.users_needed,
        "user_tv": figures.user_tv}
    assert_downloads(run_page(), list(offered))


def test_presentation_mode_keeps_the_formulas_and_drops_the_prose(default_page):
    present = run_page(present="1")
    assert not present.exception and len(present.latex) == len(default_page.latex) == 3
    assert not any(text.startswith("The histogram is the data") for text in texts(present.markdown))
    assert any(text.startswith("The histogram is the data") for text in texts(default_page.markdown))


@pytest.mark.parametrize("query", [dict(eps="0.01", n="30", hypotheses="321", m="256"),
                                   dict(eps="5", n="10000", hypotheses="21", m="1", a="-2", b="2")])
def test_extreme_controls(query):
    at = run_page(**query)
    assert not at.exception and not at.error and not at.warning
    assert at.select_slider(key="w_hypotheses").value == int(query["hypotheses"])


@pytest.mark.parametrize("query, level, words", [
    (dict(eps="abc"), "error", "Invalid eps in the link: `abc`"),
    (dict(n="5"), "warning", "clamped to 30"),
    (dict(a="0.3", b="0.3"), "warning", "two different hypotheses"),
    (dict(hypotheses="40"), "info", "using the nearest, 41"),
])
def test_bad_links_give_messages_not_tracebacks(query, level, words):
    at = run_page(**query)
    assert not at.exception
    assert any(words in text for text in texts(getattr(at, level)))


def test_a_contest_of_one_hypothesis_with_itself_stops_only_its_section():
    specs = charts(run_page(a="0.3", b="0.3"))
    assert "contest" not in specs and {"win_matrix", "scores", "plane_scores", *ANIMATED} <= set(specs)


def test_equal_contest_means_get_one_message_in_the_pages_words_and_every_other_chart():
    """A link with a == b stops only "One contest", with a message naming the controls as the page labels them
    ("H_i's mean", "H_j's mean"), never the library's parameter names; the 8 other charts render."""
    at = run_page(a="0.3", b="0.3")
    assert not at.exception
    alerts = texts(at.error) + texts(at.warning) + texts(at.info)
    assert len(alerts) == 1, alerts
    assert "H_i" in alerts[0] and "H_j" in alerts[0] and "0.3" in alerts[0] and " a and b" not in alerts[0]
    others = {"win_matrix", "scores", "tv_vs_n", "price_of_k", "users_needed", "user_tv", "plane_scores",
              "plane_probabilities"}
    assert set(charts(at)) == others


def test_a_saved_link_with_the_old_key_k_sets_the_hypotheses():
    """Teachers' saved links said k= for the number of hypotheses; the key is now hypotheses=."""
    at = run_page(k="81")
    assert not at.exception and not at.error and not at.warning
    assert at.select_slider(key="w_hypotheses").value == 81
    assert at.query_params["hypotheses"] == "81" and "k" not in at.query_params
