"""AppTest: the privacy audit lab at its defaults, with the other variant and mechanism, the reveal, the attacker
game, and bad links."""

import functools

import helpers
import numpy as np
import pytest
from helpers import (
    active_frame,
    assert_clean_and_animated,
    assert_downloads,
    assert_message,
    charts,
    decode,
    open_go_deeper,
    texts,
)

from dpcore.lessons import audit_lab as lesson

run_page = functools.partial(helpers.run, helpers.page_path("audit_lab.py"), timeout=120)
default_page = helpers.page_fixture("audit_lab.py", timeout=120)
LAST = f"{lesson.DRAWS:,}"


def verdicts(at) -> list[str]:
    return [text for text in texts(at.markdown) if text.startswith(("**Caught.**", "**Not caught.**"))]


def test_page_runs_at_defaults_and_catches_the_broken_variant(default_page):
    specs = assert_clean_and_animated(default_page, {"audit_histograms": LAST})
    assert {"audit_histograms", "bound_vs_draws", "attacker_plane"} <= set(specs)
    assert dict(default_page.query_params) == {"reveal": "1", "mechanism": "laplace-count", "variant": "A", "eps": "1",
                                               "draws": "200000", "conf": "0.95", "seed": "0"}
    assert lesson.variant_letters("laplace-count", 0)[0] == "noise halved"  # seed 0 puts the bug under A
    assert verdicts(default_page) == [lesson.verdict("laplace-count", "A", 1.0, lesson.DRAWS, 0.95, 0)]
    assert verdicts(default_page)[0].startswith("**Caught.** With 95 % confidence ε ≥ 1.96")


def test_each_frame_is_the_audit_of_the_first_draws(default_page):
    histograms = charts(default_page)["audit_histograms"]
    path = lesson.audit_path("laplace-count", "A", 1.0, lesson.DRAWS, 0.95, 0)
    assert [frame["name"] for frame in histograms["frames"]] == [f"{count:,}" for count in path["draws"]]
    titles = [frame["layout"]["title"]["text"].replace("<br>", " ") for frame in histograms["frames"]]
    assert titles[0] == f"100 draws each: ε ≥ {path['best'][0]:.2f}, claim 1: not caught"
    assert titles[-1] == f"{LAST} draws each: ε ≥ {path['best'][-1]:.2f}, claim 1: caught"
    shares = decode(histograms["frames"][-1]["data"][0]["y"])
    assert abs(shares.sum() - 1.0) < 1e-9  # every draw in one bin (the ends hold what lies beyond)
    bound = {trace["name"]: decode(trace["y"]) for trace in charts(default_page)["bound_vs_draws"]["data"]}
    np.testing.assert_allclose(bound["best event of the grid"], path["best"])
    assert bound["one weak event"][-1] < bound["best event of the grid"][-1]


def test_the_correct_variant_passes_and_says_passing_is_no_proof():
    at = run_page(variant="B")
    assert not at.exception
    (verdict,) = verdicts(at)
    assert verdict.startswith("**Not caught.**") and "not a proof of privacy" in verdict
    assert active_frame(charts(at)["audit_histograms"]) == LAST


@pytest.mark.parametrize("mechanism", list(lesson.MECHANISMS))
def test_every_mechanism_page_catches_its_bug_at_the_defaults(mechanism):
    letters = lesson.variant_letters(mechanism, 0)
    broken = "AB"[next(i for i, name in enumerate(letters) if name != "correct")]
    at = run_page(mechanism=mechanism, variant=broken)
    assert not at.exception and not at.error
    assert verdicts(at)[0].startswith("**Caught.**")


def test_the_reveal_names_the_broken_variant():
    at = run_page()
    assert not any("Variant A: broken" in text for text in texts(at.markdown))
    at.toggle(key="reveal").set_value(True).run()
    assert "- Variant A: broken: the noise scale is 1/(2ε) instead of 1/ε.\n- Variant B: the correct mechanism." in \
        texts(at.markdown)


def test_the_attacker_game_counts_rounds_and_plays_the_best_attacker():
    at = run_page()
    for _ in range(3):
        at.button(key="guess_in").click().run()
    you = next(text for text in texts(at.markdown) if text.startswith("**You**"))
    assert you.startswith("**You**: 3 rounds")
    at.button(key="auto_play").click().run()
    best = next(text for text in texts(at.markdown) if text.startswith("**The likelihood-ratio attacker**"))
    played = lesson.attack_rounds(1.0, 10**6, 1000, 0)
    rates = lesson.attacker_rates(played["member"], lesson.likelihood_ratio_guess(played["release"]))
    assert f"1,000 rounds, right {100 * rates['accuracy']:.1f} %" in best and "more than 73.1 %" in best
    names = [trace["name"] for trace in charts(at)["attacker_plane"]["data"]]
    assert "you (3 rounds)" in names and "the likelihood-ratio attacker (1,000 rounds)" in names


def test_downloads():
    assert_downloads(run_page(), ["audit_histograms", "bound_vs_draws"])


BAD_LINKS = [(dict(variant="C"), "error", "Invalid variant in the link: `C`"), (dict(mechanism="rappor"), "error",
                                                                   "Invalid mechanism in the link: `rappor`"),
             (dict(draws="10"), "warning", "clamped to 1,000"), (dict(eps="0"), "warning", "clamped to 0.1")]


@pytest.mark.parametrize("query, level, words", BAD_LINKS)
def test_bad_links_give_messages_not_tracebacks(query, level, words):
    assert_message(run_page(**query), level, words)


def test_the_download_choices_read_as_one_line_titles():
    labels = open_go_deeper(run_page()).selectbox(key="download_figure").options
    assert labels == ["200,000 draws each: ε ≥ 1.96, claim 1: caught",  # the title of the frame on show
                      "Variant A: the bound as draws grow"]  # wrapped titles, without their <br>
