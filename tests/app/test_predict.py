"""Predict, then reveal, and the teacher view, on every topic page (AppTest).

A student sees the question before its figure, guesses, reveals: the figure appears with the verdict and the
answer computed from the page's numbers, in the answer's own container (the live region the keyboard focus moves to:
assets/a11y.js, tested in the browser by tests/e2e/test_keyboard.py). The teacher view's links to the settings worth
showing live are each a valid state of their page (the teacher view itself, which answers nothing before "Reveal":
test_teacher_view.py). The page's heading carries no icon name in its anchor.
"""

import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from helpers import ROOT, charts, page_path, run, tables, texts

import registry
from dpcore import experiments
from dpcore.lessons import (
    audit_studio,
    choosing_epsilon,
    exponential_mechanism,
    noise_tradeoff,
    partition_rounds,
    tournament,
    truncation,
)
from ui.chrome import heading_anchor
from ui.page import ANSWER, PAGE_SPECS
from ui.params import parse_param
from ui.text import PageText

STORED = ROOT / "assets" / "precomputed"


def stored(function, **params):
    """The stored sweeps the page serves at its defaults."""
    return experiments.load_or_run(STORED, function, **params)


#: page script -> (question key, the chart it hides or None for the block table, the question at the defaults)
QUESTIONS = {
    "noise_tradeoff.py": ("crossover", "error_vs_d", lambda: noise_tradeoff.crossover_question(1.0, 1e-6)),
    "exponential_mechanism.py": ("election", "election", lambda: exponential_mechanism.election_question(0.1)),
    "truncation.py": ("radius", "bias_noise_tradeoff", lambda: truncation.radius_question("lomax", 3, 10_000, 1.0)),
    "tournament.py": ("price", "price_of_k", lambda: tournament.price_question(100, 0, 0.1, run=stored)),
    "partition_rounds.py": ("composition", None, lambda: partition_rounds.composition_question(
        partition_rounds.one_run("log-uniform", 1024, 1_000_000, 1.0))),
    "audit_studio.py": (audit_studio.QUESTION, "seed_band",
                        lambda: audit_studio.interference_question(1.0, 0.0, 0.95, "correct")),
    "choosing_epsilon.py": (choosing_epsilon.QUESTION, "epsilon_vs_target",
                            lambda: choosing_epsilon.halving_question(choosing_epsilon.WORKED, 1e-6)),
}
TOPIC_PAGES = [info for info in registry.PAGES if info.script.removeprefix("app_pages/") in QUESTIONS]
LINK = re.compile(r"\]\((/[^)]*)\)")


def open_page(script: str, **query: str):
    return run(page_path(script), timeout=120, answered=False, **query)


def block_table_shown(at) -> bool:
    return any("ε on these rows" in table[0] for table in tables(at))


def blocks(node) -> list:
    """Every container under ``node`` (depth first), each with its proto (``id`` ends in ``-<key>`` when keyed)."""
    found = []
    for child in getattr(node, "children", {}).values():
        if hasattr(child, "children"):
            found += [child, *blocks(child)]
    return found


def keyed(node, key: str) -> list:
    """The containers keyed ``key`` on the page (an AppTest) or in a container."""
    root = getattr(node, "main", node)
    return [block for block in blocks(root) if getattr(block.proto, "id", "").endswith(f"-{key}")]


@pytest.mark.parametrize("script", QUESTIONS)
def test_a_wrong_guess_then_reveal_shows_the_figure_and_the_computed_answer(script):
    key, chart, expected = QUESTIONS[script]
    at = open_page(script)
    assert not at.exception and not at.error
    radio = at.radio(key=f"guess_{key}")
    assert radio.value is None  # nothing is pre-selected: the student commits first
    assert chart not in charts(at) if chart else not block_table_shown(at)
    question = expected()
    assert f"**Predict first:** {question.prompt}" in texts(at.markdown)
    wrong = question.choices[(question.answer + 1) % len(question.choices)]
    radio.set_value(wrong)
    at.button(key=f"reveal_{key}").click().run()
    assert not at.exception
    assert chart in charts(at) if chart else block_table_shown(at)
    assert texts(at.error) == [question.feedback(question.choices.index(wrong))] and not at.success
    assert texts(at.error)[0].startswith("Not quite: you said")


def test_the_answer_appears_in_its_own_container_inside_the_question_only_after_the_reveal():
    """The answer's container (``answer_<key>``) is what assets/a11y.js makes a live region and focuses after Reveal:
    absent before, then holding the verdict and nothing else, inside the question's box."""
    at = open_page("truncation.py")
    assert keyed(at, "question_radius") and not keyed(at, f"{ANSWER}radius")
    question = truncation.radius_question("lomax", 3, 10_000, 1.0)
    at.radio(key="guess_radius").set_value(question.choices[0])
    at.button(key="reveal_radius").click().run()
    [box] = keyed(at, "question_radius")
    [answer] = keyed(box, f"{ANSWER}radius")
    assert texts(answer.error) == [question.feedback(0)] and not answer.success
    assert len(answer.children) == 1  # the verdict alone: what a screen reader reads when focus lands there
    assert texts(at.error) == [question.feedback(0)]  # and nowhere else


def test_an_answer_shown_at_once_is_in_its_container_too():
    at = open_page("exponential_mechanism.py", reveal="1")
    question = exponential_mechanism.election_question(0.1)
    [answer] = keyed(at, f"{ANSWER}election")
    assert texts(answer.markdown) == [f":material/lightbulb: {question.feedback(None)}"]


def test_the_heading_reads_the_title_and_its_anchor_has_no_icon_name():
    at = open_page("truncation.py")
    [title] = at.title
    assert title.proto.body == ":material/content_cut: Truncation bias"  # the icon is drawn (a11y.js hides it)
    assert title.anchor == "truncation-bias"  # Streamlit's own would be content-cut-truncation-bias
    assert any("window.dplabA11y" in html.proto.body for html in at.get("html"))  # the keyboard help is loaded
    anchors = {info.heading: heading_anchor(info.heading) for info in registry.PAGES}
    assert anchors["Truncation bias"] == "truncation-bias"
    assert anchors["Pure vs approximate DP"] == "pure-vs-approximate-dp"
    assert anchors["Private Estimation Lab"] == "private-estimation-lab"  # the home page's heading
    for info in registry.PAGES:
        icon = info.icon.removeprefix(":material/").removesuffix(":").replace("_", "-")
        assert icon not in anchors[info.heading] and re.fullmatch(r"[0-9a-z]+(-[0-9a-z]+)*", anchors[info.heading])
    assert len(set(anchors.values())) == len(anchors)


@pytest.mark.parametrize("name", ["fit_formulas.js", "a11y.js", "style.css", "present.css"])
def test_the_page_scripts_pass_the_html_sanitiser(name):
    """Streamlit's st.html runs DOMPurify, which removes a <script> whose text holds "<" followed by a letter, "/"
    or "!" (a comment like "answer_<key>" once silently switched off every script of the page); a <style> too (a
    comment naming "teacher_poll_<question>" switched off presentation mode)."""
    assert not re.search(r"<[/\w!]", (ROOT / "assets" / name).read_text(encoding="utf-8"))


def test_a_right_guess_is_confirmed_and_stays_revealed_when_the_settings_change():
    at = open_page("truncation.py")
    question = truncation.radius_question("lomax", 3, 10_000, 1.0)
    at.radio(key="guess_radius").set_value(question.choices[question.answer])
    at.button(key="reveal_radius").click().run()
    assert texts(at.success) == [question.feedback(question.answer)]
    at.select_slider(key="w_n").set_value(1_000_000).run()  # a new n: the answer is recomputed, the figure stays
    moved = truncation.radius_question("lomax", 3, 1_000_000, 1.0)
    assert "bias_noise_tradeoff" in charts(at)
    assert moved.explanation in (texts(at.success) + texts(at.error))[0]
    assert moved.explanation != question.explanation  # the best radius moves with n


def test_revealing_without_a_guess_gives_the_answer_plainly():
    at = open_page("exponential_mechanism.py")
    at.button(key="reveal_election").click().run()
    question = exponential_mechanism.election_question(0.1)
    assert f":material/lightbulb: {question.feedback(None)}" in texts(at.markdown)
    assert not at.success and not at.error and "election" in charts(at)


def test_presentation_mode_asks_the_question_big():
    at = open_page("noise_tradeoff.py", present="1")
    question = noise_tradeoff.crossover_question(1.0, 1e-6)
    assert f"### **Predict first:** {question.prompt}" in texts(at.markdown)


# ---------------------------------------------------------------------------------------------------- teacher view
@pytest.mark.parametrize("info", TOPIC_PAGES, ids=lambda info: info.url_path)
def test_every_live_setting_link_opens_a_valid_state_of_its_page(info):
    """Each link of the teacher view points at a page of the lab and sets only its current keys (no alias) to values
    its controls hold exactly (no clamping, no snapping), and keeps the teacher view on."""
    text = PageText.load(page_path(info.script.removeprefix("app_pages/")).removesuffix(".py") + ".md")
    links = LINK.findall(text.parts["teacher"])
    assert len(links) >= 2
    specs = {spec.key: spec for spec in open_page(info.script.removeprefix("app_pages/")).session_state[PAGE_SPECS]}
    for link in links:
        parts = urlsplit(link)
        assert parts.path == f"/{info.url_path}", link
        query = dict(parse_qsl(parts.query))
        assert query.pop("teacher") == "1", link
        for key, value in query.items():
            assert key in specs, (link, key)
            assert parse_param(specs[key], value)[1] == [], (link, key)  # not clamped, not snapped


# ---------------------------------------------------------------------------------------------------- draw again
def test_draw_again_advances_the_seed_in_the_url_and_the_link_reproduces_the_draw():
    at = run(page_path("noise_tradeoff.py"), timeout=120, seed="41")
    before = charts(at)["clouds"]
    at.button(key="draw_again").click().run()
    assert at.number_input(key="w_seed").value == 42 and at.query_params["seed"] == "42"
    drawn = charts(at)["clouds"]
    assert drawn["data"] != before["data"]  # new data and noise
    again = run(page_path("noise_tradeoff.py"), timeout=120, seed="42")
    assert charts(again)["clouds"]["data"] == drawn["data"]  # the same URL, the same figure


def test_every_figure_says_what_it_shows_in_words():
    at = run(page_path("truncation.py"), timeout=120)
    sentences = [text for text in texts(at.caption) if text.startswith("In words: ")]
    assert len(sentences) == len(charts(at))
    assert any("total: mean squared error falls from" in text and "to its lowest" in text for text in sentences)
