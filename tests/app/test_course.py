"""The guided path: every topic page states what a student can do after it and how long it takes, starts with
those objectives and ends with a link to the next page; wherever ε is set, the sidebar says what it means in odds."""

import math
import re

import pytest
from helpers import ROOT, run, texts

import registry
from dpcore.lessons.glossary import TERMS
from dpcore.lessons.plain_words import belief_after, epsilon_in_words
from registry import PAGES

TOPICS = [page for page in PAGES if page.url_path]


@pytest.mark.parametrize("info", TOPICS, ids=[info.url_path for info in TOPICS])
def test_every_topic_page_opens_with_its_objectives_and_ends_with_the_next_page(info):
    assert 2 <= len(info.objectives) <= 4 and 10 <= info.minutes <= 45 and info.needs
    at = run(str(ROOT / info.script), timeout=600)
    assert not at.exception
    markdown = texts(at.main.markdown)
    assert markdown[0] == "**After this page you can**\n" + "\n".join(f"- {line}" for line in info.objectives)
    assert f"About {info.minutes} minutes in class. First: {info.needs}." in texts(at.caption)
    following = registry.next_page(info)
    label = f"Next: {following.title}" if following.url_path else "Back to the start: the course"
    assert markdown[-1] == f"[{label}](/{following.url_path})"  # a page run alone links by URL; in the app, in-tab


def test_presentation_mode_leaves_the_objectives_out():
    at = run(str(ROOT / TOPICS[0].script), timeout=600, present="1")
    assert not any(text.startswith("**After this page you can**") for text in texts(at.markdown))


def test_the_course_takes_about_three_hours_and_ends_where_it_started():
    assert sum(page.minutes for page in TOPICS) == 230  # the README says so
    assert registry.next_page(PAGES[-1]) is PAGES[0]


@pytest.mark.parametrize("script, query, delta", [("noise_tradeoff.py", dict(eps="0.5", delta="1e-08"), 1e-8),
                                                  ("truncation.py", dict(eps="5"), 0.0)])
def test_the_sidebar_says_what_epsilon_means_in_odds(script, query, delta):
    at = run(str(ROOT / "app_pages" / script), timeout=600, **query)
    assert epsilon_in_words(float(query["eps"]), delta) in texts(at.sidebar.caption)


def test_epsilon_in_words_gives_the_odds_and_the_attackers_belief():
    assert belief_after(1.0) == pytest.approx(math.e / (1 + math.e))  # 50 % becomes at most 73.1 %
    assert belief_after(math.log(3), prior=0.25) == pytest.approx(0.5)  # odds 1:3 times 3 = 1:1
    words = epsilon_in_words(0.1)
    assert "×1.1;" in words and "at most 52.5 %" in words and "δ" not in words
    with_delta = epsilon_in_words(2.0, 1e-5)
    assert "×7.4;" in with_delta and "at most 88.1 %" in with_delta and "one chance in 100,000" in with_delta


@pytest.mark.parametrize("info", PAGES, ids=[info.url_path or "home" for info in PAGES])
def test_every_page_has_the_glossary_in_its_sidebar(info):
    at = run(str(ROOT / info.script), timeout=600)
    (glossary,) = [expander for expander in at.sidebar.expander if expander.label == "Glossary"]
    text = glossary.markdown[0].value
    assert [line.split("**")[1] for line in text.splitlines()] == list(TERMS)
    assert "- **δ (delta)**: A small probability with which the ε promise may fail" in text


def test_the_home_page_places_the_sliders_against_deployed_epsilons():
    """The table of deployed ε: what each publisher reported, sorted by ε, with the odds and the attacker's belief
    each implies (computed, not typed), and a source for every row."""
    from dpcore.lessons.home import BELIEF, DEPLOYMENTS, ODDS, deployment_table

    at = run(str(ROOT / "app.py"))
    (table,) = [block.value for block in at.markdown if 'class="dplab-table"' in block.value]  # a reflowing table
    rows = deployment_table()
    assert re.findall(r'data-label="ε">([^<]*)<', table) == [row["ε"] for row in rows] == \
        sorted((f"{d.epsilon:g}" for d in DEPLOYMENTS), key=float)
    assert table.count('data-label="source"') == len(DEPLOYMENTS) and table.count("<th ") == len(rows[0])
    for row, epsilon in zip(rows, sorted(d.epsilon for d in DEPLOYMENTS)):
        factor = row[ODDS].lstrip("×").replace(",", "")
        assert float(factor) == pytest.approx(math.exp(epsilon), rel=0.05)  # two significant digits at least
        belief = row[BELIEF]
        assert not belief.startswith("100")  # a belief below certainty is never shown as certainty (99.97 % at ε = 8)
        assert belief == "over 99.99 %" if belief_after(epsilon) >= 0.9999 else \
            float(belief.removesuffix(" %")) == pytest.approx(100 * belief_after(epsilon), abs=0.05)
        assert "(20" in row["source"]  # authors and year
    assert {"local", "central"} == {d.model for d in DEPLOYMENTS}
    assert rows[-1]["δ"] == "7e-09" and rows[-1]["ε"] == "34.9"  # LinkedIn's monthly (34.9, 7 × 10⁻⁹)
