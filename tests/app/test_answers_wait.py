"""A question's answer waits for its Reveal (issue 40), on every topic page (AppTest).

Before a student reveals a *Predict first* question, nothing on the page states its answer: not the takeaways, the
captions, the tables, the alerts, a chart's title, annotations or legend, nor its "In words" sentence; not on the
projector (``?present=1``), not in the teacher view before the teacher reveals, and never in the student's handout
(which asks every question). The page says instead that it appears after the guess. After Reveal (the question's
button, or ``?reveal=1``) the page shows it, and so do the teacher's folded answer and the teacher's edition of the
handout.

The answer's words and numbers are derived from each lesson's own computation (the one its question is answered
from), formatted as the page writes them.
"""

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from helpers import ROOT, charts, handouts, page_path, run, tables, texts

from dpcore import experiments, planning
from dpcore.datasets import load_dataset
from dpcore.lessons import (
    audit_lab,
    audit_studio,
    choosing_epsilon,
    exponential_mechanism,
    noise_tradeoff,
    partition_rounds,
    real_data,
    tournament,
    truncation,
)
from dpcore.lessons.plain_words import number_text
from dpcore.lessons.questions import HELD_BACK, Question
from ui.page import PEEK

STORED = ROOT / "assets" / "precomputed"
AFTER = HELD_BACK  #: the words of every line that holds an answer back


def stored(function, **params):
    """The stored sweeps the page serves at its defaults."""
    return experiments.load_or_run(STORED, function, **params)


@dataclass(frozen=True)
class Case:
    """A topic page's question at the page's defaults (as its lesson computes it), and the answer's words."""

    question: Callable[[], Question]
    #: what states the answer, as the page writes it: none of it before the reveal
    hidden: Callable[[Question], list[str]]
    #: what the reveal shows of it (on the page and in the teacher's edition; default: all of ``hidden``)
    shown: Callable[[Question], list[str]] | None = None
    #: whether the page holds back a part of itself with a line saying it comes after the guess (a page whose
    #: answer is only the figure or text behind the question has no such line: the Reveal button says it)
    says_after: bool = True
    #: how many of the shown words the handout can hold (the handout has no tables: the last ones may be a table's)
    in_handout: int | None = None

    def shown_words(self, question: Question) -> list[str]:
        return (self.shown or self.hidden)(question)


def number(value: str) -> str:
    """A number standing alone: not a part of a longer one (0.366 is not in 0.3661 or 10.366)."""
    return rf"(?<![\d.,]){re.escape(value)}(?![\d])"


def words(value: str) -> str:
    return re.escape(value)


def election(question: Question) -> list[str]:
    votes = exponential_mechanism.election(0.1, 0)
    shares = [f"{votes[kind][2]:.3f}" for kind in ("standard", "monotone", "sampled")]
    return [*map(number, shares), number(f"{100 * votes['standard'][2]:.1f}") + " %"]


def radius(question: Question) -> list[str]:
    curve = truncation.bias_noise_tradeoff("lomax", 3, 10_000, 1.0)
    return [words(f"t = {curve['best']:.3g}"), words(f"t = {curve['best']:.2f}"), number(f"{curve['best_rmse']:.3g}")]


def crossover(question: Question) -> list[str]:
    """The crossover dimension, and what says on which side of it the page's d = 64 lies: the two errors there and
    the samples each needs for the target error."""
    methods = ("laplace", "gaussian_analytic")
    errors = [noise_tradeoff.expected_error(method, 64, 10_000, 1.0, 1e-6) for method in methods]
    needed = [noise_tradeoff.samples_needed(method, 64, noise_tradeoff.TARGET_ERROR, 1.0, 1e-6) for method in methods]
    return [number(f"{noise_tradeoff.crossover_dimension(1.0, 1e-6):.1f}"), *(number(f"{e:.3g}") for e in errors),
            *(number(f"{n:,}") for n in needed)]


def price(question: Question) -> list[str]:
    slope, per_doubling = tournament.k_growth(100, 0, 0.1, run=stored)
    return [number(f"{per_doubling:,.0f}") + " more samples", number(f"{slope:,.0f}") + " per unit of ln k"]


def engel() -> Question:
    return real_data.cost_question(load_dataset("engel"), 0.0, 10_000.0, 1.0)


def cost(question: Question) -> list[str]:
    split = real_data.clipping_decomposition(load_dataset("engel"), 0.0, 10_000.0, 1.0)
    return [words(f"{question.choices[question.answer]} costs more"),
            words(f"moves {100 * split.clipped_fraction:.3g} % of the values"),
            words(f"noise adds {number_text(split.noise_scale)}")]


def composition(question: Question) -> list[str]:
    """The answer's choice (ε = 1 in total), and the same said without the number (ε in total, no composition)."""
    answer = question.choices[question.answer]
    return [words(answer), words(re.sub(r"ε = \S+ ", "ε ", answer)), words("no composition cost")]


def broken(question: Question) -> list[str]:
    """The audit's bound on the variant the page opens on, and its verdict."""
    path = audit_lab.audit_path("laplace-count", "A", 1.0, audit_lab.DRAWS, 0.95, 0)
    return [words(f"ε ≥ {path['best'][-1]:.2f}"), r"(?i)\bnot caught\b"]


def interference(question: Question) -> list[str]:
    """The aggregate's median bound at the page's defaults (the takeaway and the band figure that say it)."""
    band = audit_studio.seed_band("randomized-response", 1000, 100, 100, 1.0, 0.0, 0.95, "correct")
    aggregate = float(band["bands"]["aggregate"]["median"].max())
    return [words(f"one noisy sum of them only {aggregate:.2f}"), words("one noisy sum of all canaries"),
            words(f"{audit_studio.SEEDS} audits of m = 1,000 canaries")]


def halving(question: Question) -> list[str]:
    """What a target twice as tight costs (the worked count within ±5, from the planner), and the takeaway saying it."""
    halved = planning.calibrate(planning.Release("count", 5.0)).epsilon
    return [words(f"{choosing_epsilon.epsilon_text(halved)} within ±5"), words("Accuracy costs ε in proportion")]


CASES = {
    "exponential_mechanism.py": Case(lambda: exponential_mechanism.election_question(0.1), election),
    "truncation.py": Case(lambda: truncation.radius_question("lomax", 3, 10_000, 1.0), radius),
    "noise_tradeoff.py": Case(lambda: noise_tradeoff.crossover_question(1.0, 1e-6), crossover, in_handout=3),
    "tournament.py": Case(lambda: tournament.price_question(100, 0, 0.1, run=stored), price),
    "real_data.py": Case(engel, cost),
    "partition_rounds.py": Case(lambda: partition_rounds.composition_question(
        partition_rounds.one_run("log-uniform", 1024, 1_000_000, 1.0)), composition,
        shown=lambda question: [words(question.choices[question.answer])], says_after=False),
    "audit_lab.py": Case(lambda: audit_lab.broken_question("laplace-count", 0), broken),
    "audit_studio.py": Case(lambda: audit_studio.interference_question(1.0, 0.0, 0.95, "correct"), interference),
    "choosing_epsilon.py": Case(lambda: choosing_epsilon.halving_question(choosing_epsilon.WORKED, 1e-6), halving),
}


def chart_words(spec: dict) -> list[str]:
    """What a chart writes: its title, axis titles, annotations and legend (trace names), line breaks as spaces."""
    layout = spec.get("layout", {})
    said = [(layout.get("title") or {}).get("text") or ""]
    said += [(axis.get("title") or {}).get("text") or "" for name, axis in layout.items() if name.startswith(
        ("xaxis", "yaxis")) and isinstance(axis, dict)]
    said += [note.get("text") or "" for note in layout.get("annotations", [])]
    said += [trace.get("name") or "" for trace in spec.get("data", [])]
    return [re.sub(r"<br\s*/?>", " ", text) for text in said]


def page_text(at) -> str:
    """Everything the page writes: Markdown (tables included, cell by cell), captions (the charts' "In words"),
    alerts, headings, and the charts' own words."""
    said = [html.unescape(value) for value in texts(at.markdown)]
    said += [" | ".join(f"{column}: {cell}" for column, cell in row.items()) for table in tables(at) for row in table]
    for kind in ("caption", "info", "warning", "error", "success", "subheader", "title", "latex"):
        said += texts(getattr(at, kind))
    said += [text for spec in charts(at).values() for text in chart_words(spec)]
    return "\n".join(said)


def found(patterns: list[str], text: str) -> list[str]:
    return [pattern for pattern in patterns if re.search(pattern, text)]


DEEPER = "<h2>Go deeper: algorithms, guarantees, references</h2>"


def handout_text(document: str) -> str:
    """A handout's words (its charts' JSON included: their titles are drawn), without the questions' lists of
    choices, which every edition prints, and without its appendix, "Go deeper": the page's reference (algorithms,
    their guarantees), which the live page folds and the handout prints last, after every question and "What to
    notice" (the partitioning rounds' guarantee is the answer to its question: ε in total)."""
    document = re.sub(r"<ul class='choices'>.*?</ul>", "", document.partition(DEEPER)[0], flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", document))


def open_page(script: str, **query: str):
    return run(page_path(script), timeout=300, answered=False, **query)


@pytest.mark.parametrize("script", CASES)
def test_a_student_reads_no_answer_before_revealing_then_the_reveal_shows_it(script):
    case = CASES[script]
    question = case.question()
    at = open_page(script)
    assert not at.exception
    before = page_text(at)
    assert f"**Predict first:** {question.prompt}" in texts(at.markdown)
    assert found(case.hidden(question), before) == []
    assert (AFTER in before) == case.says_after  # the page says where the held-back part went
    at.button(key=f"reveal_{question.key}").click().run()
    assert not at.exception
    assert found(case.shown_words(question), page_text(at)) == case.shown_words(question)


@pytest.mark.parametrize("script", CASES)
def test_the_projector_holds_the_answer_back_until_reveal(script):
    case = CASES[script]
    question = case.question()
    at = open_page(script, present="1")
    assert found(case.hidden(question), page_text(at)) == []
    at.button(key=f"reveal_{question.key}").click().run()
    assert found(case.shown_words(question), page_text(at)) == case.shown_words(question)


@pytest.mark.parametrize("script", CASES)
def test_the_teacher_view_holds_it_back_and_the_teachers_folded_answer_has_it(script):
    case = CASES[script]
    question = case.question()
    at = open_page(script, teacher="1")
    assert found(case.hidden(question), page_text(at)) == []
    at.session_state[f"{PEEK}{question.key}"] = True  # as a click on the folded box does
    at.run()
    [peek] = [box for box in at.expander if box.label.startswith("For the teacher: the answer")]
    assert texts(peek.markdown) == [f":material/lightbulb: {question.feedback(None)}"]


@pytest.mark.parametrize("script", CASES)
def test_the_students_handout_holds_the_answer_back_and_the_teachers_edition_has_it(script):
    case = CASES[script]
    question = case.question()
    at, files = handouts(page_path(script), teacher="1")  # every question answered on screen (?reveal=1)
    name = next(file for file in files if file.endswith("-handout.html")).removesuffix("-handout.html")
    student, teacher = (handout_text(files[f"{name}-{edition}.html"]) for edition in ("handout", "teachers-edition"))
    shown = case.shown_words(question)
    assert found(shown, page_text(at)) == shown  # on screen, revealed
    assert found(case.hidden(question), student) == []
    assert AFTER in student
    assert found(shown[:case.in_handout], teacher) == shown[:case.in_handout]


def test_the_home_page_gives_no_pages_answer_away():
    """The course's list on the home page says what each page teaches, not the answers to its questions."""
    text = page_text(open_page("home.py"))
    for script, case in CASES.items():
        assert found(case.hidden(case.question()), text) == [], script
