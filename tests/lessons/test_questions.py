"""Predict, then reveal (dpcore.lessons.questions): a question's parts, its feedback and the answer buckets.

Each page's question is tested with its lesson (``test_*_answer_*`` in tests/lessons/test_<page>.py): a question
whose "right" answer the figure contradicts would teach the opposite of the page, so each answer is checked
against the page's own computation (the exact curves, the stored Monte Carlo sweeps), over the settings a class
can reach, not only at the defaults.
"""


import pytest

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
