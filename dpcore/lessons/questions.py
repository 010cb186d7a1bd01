"""Predict, then reveal: a question asked before a figure, whose answer is computed from the numbers the figure draws.

A student commits to a guess first and sees the figure after: a wrong prediction is remembered far better than a
figure looked at passively. Every topic page's lesson module builds its questions with :class:`Question` and
:func:`bucket`; the tests check each right answer against the page's own computation. Until the guess nothing on the
page states the answer: a lesson function whose words would (takeaways, a caption, a table) takes ``revealed`` and
says :data:`HELD_BACK` in their place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.validation import Array, InvalidParameterError, Real, validated

__all__ = ["Question", "bucket", "HELD_BACK"]

#: What a line, a caption or a table cell says in place of what would answer a question the student has not revealed
#: yet (a lesson function given ``revealed=False``): the answer waits for "Reveal" (``ui.Page.revealed``)
HELD_BACK = "after your guess"


@dataclass(frozen=True)
class Question:
    """A multiple-choice question with its computed answer.

    Parameters
    ----------
    key : str
        Stable name of the question on its page (a guess is remembered under it while the settings change).
    prompt : str
        The question, in the student's words, with the settings it is asked at.
    choices : tuple of str
        The possible answers, in order.
    answer : int
        Index of the right choice, computed from the numbers the figure draws.
    explanation : str
        Why, with those numbers.
    """

    key: str
    prompt: str
    choices: tuple[str, ...]
    answer: int
    explanation: str

    def __post_init__(self) -> None:
        if not 0 <= self.answer < len(self.choices):
            raise InvalidParameterError(f"answer must index one of the {len(self.choices)} choices; got {self.answer}")

    def feedback(self, guess: int | None) -> str:
        """The reveal: whether ``guess`` (an index, or None for no guess) was right, the answer and why."""
        right = f"**{self.choices[self.answer]}**."
        if guess is None:
            verdict = f"The answer: {right}"
        elif guess == self.answer:
            verdict = f"Right: {right}"
        else:
            said = self.choices[guess] if len(self.choices[guess]) == 1 else self.choices[guess].lower()  # "A" stays
            verdict = f"Not quite: you said {said}; the answer is {right}"
        return f"{verdict} {self.explanation}"


@validated(value=Real(), edges=Array(ndim=(1,)))
def bucket(value: float, edges: Sequence[float]) -> int:
    """The index of the interval of ``edges`` (increasing) that holds ``value``: 0 below ``edges[0]``, len(edges)
    at or above the last; the right-choice index of a question whose choices are those intervals.

    >>> bucket(5.77, (1, 3, 10, 30))
    2
    """
    return int(np.searchsorted(np.asarray(edges, dtype=float), value, side="right"))
