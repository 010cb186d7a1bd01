"""The offline handout (:mod:`classroom.handout`) under "Go deeper": the page at its settings as one HTML lesson
(objectives, headings, prose, formulas as MathML, every figure shown but those behind a question, the questions), the
teacher's edition with the answers, those figures and the discussion notes (tests/app/test_answers_wait.py: no answer
in the student's); the text escaped; every formula of every page converts (the browser's look at it, offline:
tests/e2e/test_handout_offline.py)."""

import html
import re
from pathlib import Path

import pytest
from helpers import ROOT, handouts, page_path, texts

import registry
from classroom import check_yourself
from classroom.handout import formula_html, markdown_html
from deploy.public_url import ENV
from dpcore import exercises
from ui.text import PageText

PAGES = ROOT / "app_pages"
CHART = re.compile(r"const figure = (.*?); Plotly\.newPlot", re.S)


@pytest.fixture(scope="module")
def truncation():
    """The truncation page in the teacher view: the page run and its downloads."""
    return handouts(page_path("truncation.py"), teacher="1")


def plain(document: str) -> str:
    """The document's characters but spaces: tags dropped, entities decoded (words compared letter by letter)."""
    return re.sub(r"\s+", "", html.unescape(re.sub(r"<[^>]+>", "", document)))


def said(markdown: str) -> str:
    """What a line of the page's Markdown says, compared as :func:`plain`: emphasis marks and spaces dropped."""
    return re.sub(r"\s+", "", markdown.replace("*", ""))


def formulas(markdown: str) -> int:
    """How many formulas a text holds: ``$$…$$`` blocks and inline ``$…$``."""
    display = markdown.count("$$") // 2
    return display + (markdown.count("$") - 4 * display) // 2


def test_the_handout_holds_the_page(truncation):
    at, files = truncation
    document = files["truncation-bias-handout.html"]
    info = registry.by_url_path("truncation-bias")
    words = plain(document)
    assert document.count("<h1") == 1 and "<html lang='en'>" in document
    assert all(said(line) in words for line in info.objectives)
    assert said(f"About {info.minutes} minutes") in words
    assert said("Clipping radius t = 2, Monte Carlo trials = 200, Random seed = 0") in words  # the settings
    assert all(said(heading.value) in words for heading in at.subheader)
    behind = 1  # the bias–noise trade-off answers the page's question: the student's handout leaves it out
    assert document.count("class='plot'") == len(at.get("plotly_chart")) - behind
    text = PageText.load(PAGES / "truncation.md")
    shown = sum(formulas(body) for name, body in text.parts.items() if name != "teacher")
    shown += sum(formulas(made.prompt + "".join(made.choices)) for made in variants("truncation-bias"))
    assert document.count("<math") == shown
    assert document.count("<script>") == 1 + len(at.get("plotly_chart")) - behind  # plotly.js once, one per chart
    teacher = files["truncation-bias-teachers-edition.html"]
    assert teacher.count("class='plot'") == len(at.get("plotly_chart"))  # the teacher's edition: every figure


def variants(url_path: str) -> list:
    """The page's exercises as the handout holds them: the variants on screen (seed 0's before the browser's progress
    is known, as in AppTest)."""
    return [check_yourself.variant_of(exercise, url_path, None) for exercise in exercises.for_page(url_path)]


def test_the_handout_carries_the_exercises_and_the_teachers_edition_their_answers(truncation):
    _, files = truncation
    student, teacher = (files[f"truncation-bias-{name}.html"] for name in ("handout", "teachers-edition"))
    listed = exercises.for_page("truncation-bias")
    assert len(listed) >= 3
    for number, exercise in enumerate(listed, start=1):
        title = "<h3 id='exercise-"
        assert f">Exercise {number}: {html.escape(exercise.title)}</h3>" in student and title in student
        assert f">Exercise {number}: {html.escape(exercise.title)}</h3>" in teacher
    assert student.count("Your answer: ") == len(listed) and "<strong>Answer:</strong>" not in student
    assert teacher.count("<strong>Answer:</strong>") >= len(listed) and "Your answer: " not in teacher
    assert ">Check yourself</h2>" in student


def test_students_guess_and_the_teacher_has_the_answers(truncation):
    at, files = truncation
    student, teacher = (plain(files[f"truncation-bias-{name}.html"]) for name in ("handout", "teachers-edition"))
    prompts = [said(value.removeprefix("**Predict first:**")) for value in texts(at.markdown)
               if value.startswith("**Predict first:**")]
    answers = [said(value.removeprefix(":material/lightbulb:")) for value in texts(at.markdown)
               if value.startswith(":material/lightbulb:")]
    assert prompts and len(answers) == len(prompts)
    assert all(prompt in student and prompt in teacher for prompt in prompts)
    assert all(answer not in student and answer in teacher for answer in answers)
    assert student.count("Yourguess:") == len(prompts) and "Answer:" not in student
    notes = said("Why not take the window from the data's own minimum and maximum?")
    assert notes in teacher and "Teacher’sedition" in teacher
    assert notes not in student and "Teacher’sedition" not in student


def test_the_settings_in_the_link_make_the_handout():
    pages = {eps: handouts(page_path("noise_tradeoff.py"), eps=eps) for eps in ("1", "0.1")}
    documents = {eps: files["pure-vs-approximate-handout.html"] for eps, (_, files) in pages.items()}
    assert [button.proto.label for button in pages["1"][0].get("download_button")][-1:] == [
        "Handout (offline lesson, HTML)"]  # no teacher's edition outside the teacher view
    assert said("Privacy budget ε = 0.1,") in plain(documents["0.1"]) and said("Privacy budget ε = 1,") in plain(
        documents["1"])
    charts = {eps: CHART.findall(document) for eps, document in documents.items()}
    behind = 1  # "Error vs d" answers the page's question: the student's handout leaves it out
    assert len(charts["1"]) == len(charts["0.1"]) == len(pages["1"][0].get("plotly_chart")) - behind
    assert charts["1"] != charts["0.1"]


def test_text_is_escaped_never_run():
    converted = markdown_html("A <script>alert(1)</script> and <img src=x onerror=alert(1)> **here**")
    assert "<script" not in converted and "<img" not in converted
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in converted and "<strong>here</strong>" in converted
    assert markdown_html("[again](/truncation-bias?t=0.5)") == "<p>again</p>\n"  # no lab address: no dead link
    assert 'href="https://lab.example.edu/truncation-bias?t=0.5"' in markdown_html(
        "[again](/truncation-bias?t=0.5)", "https://lab.example.edu/")


@pytest.mark.parametrize("markdown", sorted(PAGES.glob("*.md")), ids=lambda path: path.stem)
def test_every_formula_converts(markdown: Path):
    text = PageText.load(markdown)
    for name, body in text.parts.items():
        fields = dict.fromkeys(re.findall(r"\{\{(\w+)\}\}", body), "1")
        for kind, block in text.blocks(name, **fields):
            display = kind == "formula"
            converted = formula_html(block, display=True) if display else markdown_html(block)
            assert converted.count("<math") == formulas(f"$${block}$$" if display else block), (name, block)
            assert "\\" not in "".join(re.findall(r"<math.*?</math>", converted, re.S)), block  # no command as text
            # a fixed-size delimiter (\Big( … \Big)) is a fence that stretches to its content (issue 40)
            sized = len(re.findall(r"\\(?:bigg|Bigg|big|Big)[lr]?(?![a-zA-Z])", block))
            assert "minsize" not in converted and converted.count('stretchy="true"') >= sized, block


def test_formulas_ask_for_a_math_font_every_system_has(truncation):
    """MathML draws stretched brackets and big operators from a font's OpenType MATH table, which a text font lacks:
    the handout names the math fonts systems ship (macOS, Windows, TeX, Debian and Ubuntu, Android), offline, before
    the browser's own ``math`` (on Debian's Chromium, a text font: brackets stayed their text size)."""
    _, files = truncation
    stack = re.search(r"math \{ font-family: ([^;]+);", files["truncation-bias-handout.html"]).group(1)
    fonts = [font.strip().strip('"') for font in stack.split(",")]
    assert fonts[-1] == "math" and {"STIX Two Math", "Cambria Math", "Latin Modern Math",
                                    "DejaVu Math TeX Gyre"} <= set(fonts)


def test_the_way_back_is_the_public_address(monkeypatch, truncation):
    _, files = truncation
    assert "localhost" not in files["truncation-bias-handout.html"]  # no public address: no link to the live page
    assert "127.0.0.1" not in files["truncation-bias-handout.html"]
    monkeypatch.setenv(ENV, "https://lab.example.edu/dp")
    _, files = handouts(page_path("truncation.py"), teacher="1", eps="0.5")
    teacher = files["truncation-bias-teachers-edition.html"]
    live = re.findall(r"The live page at these settings: <a href='([^']+)'>", teacher)
    assert live and live[0].startswith("https://lab.example.edu/dp/truncation-bias?") and "eps=0.5" in live[0]
    assert "teacher=" not in live[0] and "reveal=" not in live[0]  # the class's link: no answers, no teacher view
    assert 'href="https://lab.example.edu/dp/truncation-bias?moment=2' in teacher  # the notes' live settings


def test_presentation_mode_hands_out_the_usual_figures(truncation):
    _, files = truncation
    _, projected = handouts(page_path("truncation.py"), present="1")
    usual, shown = (CHART.findall(document) for document in (files["truncation-bias-handout.html"],
                                                            projected["truncation-bias-handout.html"]))
    assert shown == usual  # the projector's large fonts stay on the projector: the handout draws the usual figures
    assert plain(files["truncation-bias-handout.html"]) == plain(projected["truncation-bias-handout.html"])
