"""AppTest: the privacy audit lab at its defaults, with the other variant and mechanism; the guess before the
verdict (and ?reveal=1, which shows everything at once); display names; the attacker game with its interval; bad
links."""

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


def frame_titles(at) -> list[str]:
    """The titles of the histograms' frames, one line each."""
    return [frame["layout"]["title"]["text"].replace("<br>", " ") for frame in charts(at)["audit_histograms"]["frames"]]


def verdicts(at) -> list[str]:
    return [text for text in texts(at.markdown) if text.startswith(("**Caught.**", "**Not caught.**"))]


def test_page_runs_at_defaults_and_the_correct_variant_passes(default_page):
    """The defaults with ?reveal=1: variant A at seed 0 is the correct Laplace count (the bug is under B there), so
    the verdict is "not caught", with its words that passing is no proof."""
    specs = assert_clean_and_animated(default_page, {"audit_histograms": LAST})
    assert {"audit_histograms", "bound_vs_draws", "attacker_plane"} <= set(specs)
    assert dict(default_page.query_params) == {"reveal": "1", "mechanism": "laplace-count", "variant": "A", "eps": "1",
                                               "draws": "200000", "conf": "0.95", "seed": "0"}
    assert lesson.broken_letter("laplace-count", 0) == "B"  # seed 0 puts the Laplace count's bug under B
    (verdict,) = verdicts(default_page)
    assert verdict == lesson.verdict("laplace-count", "A", 1.0, lesson.DRAWS, 0.95, 0)
    assert verdict.startswith("**Not caught.** The lower bound ε ≥ 0.98") and "not a proof of privacy" in verdict
    assert texts(default_page.markdown).count(":material/lightbulb: The answer: **B**. Variant B has the planted bug: "
                                              "the noise scale is 1/(2ε) instead of 1/ε. Variant A is the correct "
                                              "mechanism. The audit below shows whether the draws are enough to catch "
                                              "it.") == 1


def test_each_frame_is_the_audit_of_the_first_draws(default_page):
    histograms = charts(default_page)["audit_histograms"]
    path = lesson.audit_path("laplace-count", "A", 1.0, lesson.DRAWS, 0.95, 0)
    assert [frame["name"] for frame in histograms["frames"]] == [f"{count:,}" for count in path["draws"]]
    titles = [frame["layout"]["title"]["text"].replace("<br>", " ") for frame in histograms["frames"]]
    assert titles[0] == f"100 draws each: ε ≥ {path['best'][0]:.2f}, claim 1: not caught"
    assert titles[-1] == f"{LAST} draws each: ε ≥ {path['best'][-1]:.2f}, claim 1: not caught"
    shares = decode(histograms["frames"][-1]["data"][0]["y"])
    assert abs(shares.sum() - 1.0) < 1e-9  # every draw in one bin (the ends hold what lies beyond)
    bound = {trace["name"]: decode(trace["y"]) for trace in charts(default_page)["bound_vs_draws"]["data"]}
    np.testing.assert_allclose(bound["best event of the grid"], path["best"])
    assert bound["one weak event"][-1] < bound["best event of the grid"][-1]


def test_the_broken_variant_is_caught():
    at = run_page(variant="B")
    assert not at.exception
    (verdict,) = verdicts(at)
    assert verdict.startswith("**Caught.** With 95 % confidence ε ≥ 1.96, above the claimed ε = 1: variant B")
    assert active_frame(charts(at)["audit_histograms"]) == LAST
    assert frame_titles(at)[-1] == f"{LAST} draws each: ε ≥ 1.96, claim 1: caught"


@pytest.mark.parametrize("mechanism", list(lesson.MECHANISMS))
def test_every_mechanism_page_catches_its_bug_at_the_defaults(mechanism):
    at = run_page(mechanism=mechanism, variant=lesson.broken_letter(mechanism, 0))
    assert not at.exception and not at.error
    assert verdicts(at)[0].startswith("**Caught.**")


def all_text(at) -> str:
    return "\n".join(texts(at.markdown) + texts(at.caption) + texts(at.success) + texts(at.error) + texts(at.info))


def test_the_page_opens_without_a_verdict_and_asks_for_a_guess():
    """No ?reveal=1: the question and its A/B control come first; no verdict, no bound in the histograms' titles,
    no bound-vs-draws figure and no takeaway that gives the answer away, until the student guesses."""
    at = run_page(answered=False, variant="B")  # the broken variant: nothing may say "caught"
    assert not at.exception and not at.error
    question = lesson.broken_question("laplace-count", 0)
    assert f"**Predict first:** {question.prompt}" in texts(at.markdown)
    radio = at.radio(key=f"guess_{question.key}")
    assert radio.options == ["A", "B"] and radio.value is None  # nothing pre-selected
    assert not verdicts(at)
    shown = all_text(at)  # the prose explains the word "caught"; nothing may say whether B is
    assert not any(words in shown for words in ("**Caught.**", "Not caught", ": caught", "B is caught", "ε ≥ 1.96"))
    assert "bound_vs_draws" not in charts(at)
    histograms = charts(at)["audit_histograms"]
    titles = [frame["layout"]["title"]["text"].replace("<br>", " ") for frame in histograms["frames"]]
    assert titles[-1] == f"{LAST} draws each of variant B"
    assert not any("caught" in title or "ε ≥" in title for title in titles)
    assert active_frame(histograms) == LAST
    assert "Make your guess above first: this figure shows the audit's verdict." in texts(at.info)


@pytest.mark.parametrize("guess, right", [("B", True), ("A", False)])
def test_a_guess_reveals_the_verdict_and_says_whether_it_was_right(guess, right):
    at = run_page(answered=False)
    question = lesson.broken_question("laplace-count", 0)
    at.radio(key=f"guess_{question.key}").set_value(guess)
    at.button(key=f"reveal_{question.key}").click().run()
    assert not at.exception
    feedback = texts(at.success) if right else texts(at.error)
    assert feedback == [question.feedback(question.choices.index(guess))]
    assert feedback[0].startswith("Right: **B**." if right else "Not quite: you said A; the answer is **B**.")
    assert verdicts(at) == [lesson.verdict("laplace-count", "A", 1.0, lesson.DRAWS, 0.95, 0)]
    assert "bound_vs_draws" in charts(at)
    assert frame_titles(at)[-1].endswith("claim 1: not caught")
    at.radio(key="w_variant").set_value("B").run()  # the other letter: the guess stays, its verdict shows at once
    assert verdicts(at)[0].startswith("**Caught.**")


def test_a_new_mechanism_asks_again():
    at = run_page(answered=False)
    question = lesson.broken_question("laplace-count", 0)
    at.radio(key=f"guess_{question.key}").set_value("B")
    at.button(key=f"reveal_{question.key}").click().run()
    assert verdicts(at)
    at.radio(key="w_mechanism").set_value("clipped-mean").run()
    assert not verdicts(at) and "bound_vs_draws" not in charts(at)
    assert at.radio(key=f"guess_{lesson.broken_question('clipped-mean', 0).key}").value is None


def test_the_mechanism_control_shows_display_names_and_keeps_url_values():
    at = run_page(answered=False, mechanism="private-median")
    radio = at.radio(key="w_mechanism")
    assert radio.options == [mechanism.title for mechanism in lesson.MECHANISMS.values()]
    assert radio.options[:2] == ["Laplace count", "Gaussian mean"]
    assert radio.value == "private-median" and at.query_params["mechanism"] == "private-median"
    radio.set_value("gaussian-mean").run()
    assert at.query_params["mechanism"] == "gaussian-mean"
    assert not any("laplace-count" in text or "gaussian-mean" in text for text in texts(at.markdown))


def test_the_attacker_game_counts_rounds_and_plays_the_best_attacker():
    at = run_page()
    for _ in range(3):
        at.button(key="guess_in").click().run()
    you = next(text for text in texts(at.markdown) if text.startswith("**You**"))
    rates = lesson.attacker_rates(lesson.attack_rounds(1.0, 0, 3, 0)["member"], [True] * 3)
    low, high = rates["accuracy_interval"]
    assert you.startswith(f"**You**: 3 rounds, right {rates['right']} times")
    assert f"lies between {100 * low:.1f} % and {100 * high:.1f} %" in you and "Play more rounds" in you
    at.button(key="auto_play").click().run()
    best = next(text for text in texts(at.markdown) if text.startswith("**The likelihood-ratio attacker**"))
    played = lesson.attack_rounds(1.0, 10**6, 1000, 0)
    rates = lesson.attacker_rates(played["member"], lesson.likelihood_ratio_guess(played["release"]))
    assert f"1,000 rounds, right {rates['right']:,} times ({100 * rates['accuracy']:.1f} %)" in best
    assert "That whole range lies below 73.1 %, the most a 1-DP attacker can expect" in best
    names = [trace["name"] for trace in charts(at)["attacker_plane"]["data"]]
    assert "you (3 rounds)" in names and "the likelihood-ratio attacker (1,000 rounds)" in names


def test_each_round_reveals_whether_the_target_was_in():
    """Seed 0's first rounds: the target is out, out, then in. Each guess is followed by the truth."""
    at = run_page()
    assert lesson.attack_rounds(1.0, 0, 3, 0)["member"].tolist() == [False, False, True]
    at.button(key="guess_in").click().run()
    assert texts(at.error) == [lesson.round_text(1.0, 0, True, 0)]
    assert texts(at.error)[0].endswith("The target was **out**: wrong.")
    at.button(key="guess_out").click().run()
    assert texts(at.success) == [lesson.round_text(1.0, 1, False, 0)]
    assert texts(at.success)[0].endswith("The target was **out**: right.")


def test_ten_lucky_rounds_are_called_possible_luck():
    """The issue's case: a player right 8 times in 10 (80 %, above the 73.1 % bound) is told the interval still
    holds the bound, so it may be luck. The guesses follow the hidden coin but for two rounds."""
    at = run_page()
    members = lesson.attack_rounds(1.0, 0, 10, 0)["member"].tolist()
    guesses = [member if index >= 2 else not member for index, member in enumerate(members)]
    for guess in guesses:
        at.button(key="guess_in" if guess else "guess_out").click().run()
    you = next(text for text in texts(at.markdown) if text.startswith("**You**"))
    assert you.startswith("**You**: 10 rounds, right 8 times (80.0 %). With 95 % confidence the long-run accuracy "
                          "lies between 44.4 % and 97.5 %. That is above 73.1 %, the most a 1-DP attacker can expect, "
                          "but the range still contains it: after 10 rounds that can be luck.")


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
    assert labels == ["200,000 draws each: ε ≥ 0.98, claim 1: not caught",  # the title of the frame on show
                      "Variant A: the bound as draws grow"]  # wrapped titles, without their <br>


def test_the_teacher_view_keeps_the_verdict_until_the_reveal_and_shows_the_teacher_the_answer_on_request():
    """The teacher view spoils nothing on the projector: no verdict, no bound before "Reveal"; the answer waits,
    folded, for the teacher alone (tests/app/test_teacher_view.py covers the other pages)."""
    at = run_page(answered=False, teacher="1", present="1", mechanism="private-median")
    assert not at.exception and not at.error
    question = lesson.broken_question("private-median", 0)
    letter = lesson.broken_letter("private-median", 0)
    assert not verdicts(at) and "bound_vs_draws" not in charts(at)
    assert f"The answer: **{letter}**" not in all_text(at)
    at.session_state[f"peek_{question.key}"] = True  # the teacher opens the folded answer
    at.run()
    assert any(text.startswith(f":material/lightbulb: The answer: **{letter}**.") for text in texts(at.markdown))
    assert not verdicts(at) and "bound_vs_draws" not in charts(at)  # the class still sees no verdict
    at.button(key=f"reveal_{question.key}").click().run()
    assert verdicts(at) and "bound_vs_draws" in charts(at)
