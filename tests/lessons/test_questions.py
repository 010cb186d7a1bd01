"""Predict, then reveal (dpcore.lessons.questions): a question's parts, its feedback and the answer buckets.

Each page's question is tested with its lesson (``test_*_answer_*`` in tests/lessons/test_<page>.py): a question
whose "right" answer the figure contradicts would teach the opposite of the page, so each answer is checked
against the page's own computation (the exact curves, the stored Monte Carlo sweeps), over the settings a class
can reach, not only at the defaults.
"""

import importlib
import pkgutil
import re

import pytest

from dpcore import lessons
from dpcore.lessons import truncation
from dpcore.lessons.questions import Question, bucket

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "bucket": dict(value=5.77, edges=[1.0, 3.0, 10.0, 30.0]),
}


# ---------------------------------------------------------------------------------------------------- the parts
@pytest.mark.parametrize("value, index", [(0.5, 0), (1.0, 1), (2.9, 1), (3.0, 2), (5.77, 2), (30.0, 4), (1e9, 4)])
def test_bucket_counts_the_edges_at_or_below_the_value(value, index):
    assert bucket(value, (1, 3, 10, 30)) == index


def test_a_question_rejects_an_answer_outside_its_choices():
    with pytest.raises(ValueError, match="answer must index one of the 2 choices; got 2"):
        Question("q", "Which?", ("a", "b"), 2, "Because.")


def test_feedback_says_right_wrong_or_just_the_answer():
    question = Question("q", "Which?", ("Left", "Right"), 1, "Because.")
    assert question.feedback(1) == "Right: **Right**. Because."
    assert question.feedback(0) == "Not quite: you said left; the answer is **Right**. Because."
    assert question.feedback(None) == "The answer: **Right**. Because."


# ------------------------------------------------------------------------------------------- the words (issue 40)
def question_builders() -> list[tuple[str, str]]:
    """(lesson module, function) of every question a page asks: the ``*_question`` functions of dpcore.lessons."""
    found = []
    for module in sorted(info.name for info in pkgutil.iter_modules(lessons.__path__)):
        names = getattr(importlib.import_module(f"dpcore.lessons.{module}"), "__all__", ())
        found += [(module, name) for name in names if name.endswith("_question")]
    return found


def question_words(question: Question) -> list[str]:
    """The question's words outside rendered math: its prompt and choices (which the class poll also sends to every
    phone) and its explanation; TeX inside ``$…$`` writes its powers with ``^``."""
    return [re.sub(r"\$\$.*?\$\$|\$[^$\n]+\$", "", text, flags=re.S)
            for text in (question.prompt, *question.choices, question.explanation)]


@pytest.mark.parametrize("module, name", question_builders(), ids=lambda value: value)
def test_no_question_types_a_caret(module, name):
    """A power in a question is a superscript (E|X − μ|³) or rendered math, never a caret: at the example call each
    lesson's tests make (their ``VALID_CALLS``)."""
    call = importlib.import_module(f"tests.lessons.test_{module}").VALID_CALLS[name]
    question = getattr(importlib.import_module(f"dpcore.lessons.{module}"), name)(**call)
    assert not [text for text in question_words(question) if "^" in text], question


@pytest.mark.parametrize("family", truncation.FAMILIES)
@pytest.mark.parametrize("moment_k", truncation.MOMENT_ORDERS)
def test_the_truncation_question_writes_its_moment_as_a_superscript(family, moment_k):
    """The truncation page's question, which a class poll shows on every phone, at every law and moment order."""
    question = truncation.radius_question(family, moment_k, 1_000, 1.0)
    assert not [text for text in question_words(question) if "^" in text], question.prompt
    if moment_k == 3:
        assert "E|X − μ|³ = 1" in question.prompt
