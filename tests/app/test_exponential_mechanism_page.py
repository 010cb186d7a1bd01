"""AppTest: the exponential-mechanism page at defaults, extreme and bad controls, and with the SDP section on."""

import functools

import helpers
import numpy as np
import pytest
from helpers import assert_clean_and_animated, assert_downloads, assert_message, charts, decode, frame_traces, texts

from dpcore.lessons import exponential_mechanism as lesson

ANIMATED = {"election_vs_epsilon": "0.1", "loss_vs_k": "0.3", "median_vs_n": "0.1", "user_level": "0.1"}
run_page = functools.partial(helpers.run, helpers.page_path("exponential_mechanism.py"), timeout=300)
default_page = helpers.page_fixture("exponential_mechanism.py")  # the page at its defaults, run once for the module


def test_page_runs_at_defaults_with_every_figure(default_page):
    specs = assert_clean_and_animated(default_page, ANIMATED)
    assert {"election", "median_score", "median_density", *ANIMATED} <= set(specs)
    assert "sdp_disk" not in specs  # the SDP section is solved only on request
    assert dict(default_page.query_params) == {"reveal": "1", "eps": "0.1", "n": "100", "trials": "200", "seed": "0",
                                               "mc": "0"}


def test_election_bars_show_both_conventions_exactly(default_page):
    bars = {trace["name"]: decode(trace["y"]) for trace in charts(default_page)["election"]["data"]}
    np.testing.assert_allclose(bars["factor 2: exp(εu/2Δ)"], [0.2853, 0.3484, 0.3663], atol=5e-5)
    np.testing.assert_allclose(bars["monotone: exp(εu/Δ)"],
                               [0.2415, 0.3603, 0.3982], atol=5e-5)
    sampled = bars["1,000 draws (factor 2)"]
    assert sampled.sum() == pytest.approx(1.0) and np.all(np.abs(sampled - [0.2853, 0.3484, 0.3663]) < 0.05)


def test_loss_grows_like_log_k(default_page):
    traces = {name: decode(trace["y"]) for name, trace in frame_traces(charts(default_page)["loss_vs_k"], "1").items()}
    em, exact = traces["exponential mechanism"], traces["exponential mechanism (theory)"]
    np.testing.assert_allclose(em, exact, rtol=0.1)  # simulated mean loss = exact g (k − 1)/(2k − 1)
    assert np.all(np.diff(em) > 0) and np.all(traces["permute-and-flip"] <= em + 1e-9)


@pytest.mark.parametrize("query", [dict(eps="0.01", n="10"), dict(eps="10", n="3000")])
def test_extreme_controls(query):
    at = run_page(**query)
    assert not at.exception and not at.error and not at.warning
    assert at.select_slider(key="w_eps").value == float(query["eps"])
    assert at.select_slider(key="w_n").value == int(query["n"])


BAD_LINKS = [(dict(eps="abc"), "error", "Invalid eps in the link: `abc`"), (dict(n="-5"), "warning", "clamped to 10"),
             (dict(eps="1e308"), "warning", "clamped to 10")]


@pytest.mark.parametrize("query, level, words", BAD_LINKS)
def test_bad_links_give_messages_not_tracebacks(query, level, words):
    assert_message(run_page(**query), level, words)


def test_sdp_section_on_request_meets_its_stated_error():
    at = run_page()
    assert not {"sdp_disk", "sdp_path"} & set(charts(at))  # nothing heavy before the click
    at.button(key="sdp_solve").click().run()
    assert not at.exception
    at.run()  # a later rerun keeps the solved seed's figures, without the button
    assert not [button for button in at.button if button.key == "sdp_solve"]
    specs = charts(at)
    assert {"sdp_disk", "sdp_path"} <= set(specs)
    path = next(trace for trace in specs["sdp_path"]["data"] if trace["name"] == "private estimate, step by step")
    end = np.array([decode(path["x"])[-1], decode(path["y"])[-1]])
    assert np.linalg.norm(end - np.asarray(lesson.ITERATIVE_DEFAULTS["true_offset"])) <= lesson.ITERATIVE_DEFAULT_ERROR
    assert lesson.sdp_note(0) in texts(at.caption)


def test_clipping_beats_group_privacy_once_users_hold_many_examples(default_page):
    mean = {name: decode(trace["y"]) for name, trace in frame_traces(charts(default_page)["user_level"], "0.1").items()
            if "band" not in name}
    assert mean["user-level, clipped"][-1] < 0.25 * mean["group privacy (Δ = m)"][-1]  # m = 100
    np.testing.assert_allclose(mean["user-level, clipped"][0], mean["one example per user"][0], rtol=0.5)  # m = 1


def test_takeaways_and_captions_are_the_lessons(default_page):
    notes = next(text for text in texts(default_page.markdown) if text.startswith("- At ε = 0.1 the leader C"))
    assert notes == "\n".join(f"- {line}" for line in lesson.takeaways(0.1, 100, 200, 0))
    captions = [text for text in texts(default_page.caption) if not text.startswith("In words: ")]  # figures' own
    assert captions[1:3] == [lesson.savings_note(), lesson.median_note(100, 0.1, 0)]


def test_every_monte_carlo_animation_is_offered_for_download(default_page):
    assert_downloads(run_page(), ["user_level", "loss_vs_k", "median_vs_n"])
