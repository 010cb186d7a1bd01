r"""Lesson "Class poll": the class's own answers to a page's question, released with differential privacy.

Each student votes once for one of the question's choices; when the teacher reveals, the vote counts are released
with the two-sided geometric (or Laplace) mechanism at the ε the teacher picks
(:func:`dpcore.mechanisms.poll_histogram`) and shown next to the true counts, with one sentence saying what that ε
means for any one student's vote: whatever the class sees was at most :math:`e^{\varepsilon}` times likelier with
that student's actual vote than with another, so the odds that they chose one answer rather than another move by at
most that factor (Nanayakkara et al. 2023 on ε as odds).

A release is drawn once per reveal, from a secret random seed recorded with the room (whoever knows the seed can
subtract the noise), so every rerun and every replica shows the same numbers: drawing again on each rerun would give
the class many independent releases, whose average converges to the true counts (their ε add up,
docs/algorithms.md §0.5).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .. import mechanisms
from ..core.guarantees import diagnostic, public, released
from ..core.validation import EPSILON, Array, Choice, InstanceOf, Integer, InvalidParameterError, Seed, validated
from ..mechanisms.poll import NEIGHBOURS, NOISES
from .plain_words import exp_text

__all__ = ["EPSILONS", "DEFAULT_EPSILON", "PollResult", "poll_result", "odds_sentence", "mean_error"]

EPSILONS = (0.1, 0.25, 0.5, 1.0, 2.0, 5.0)  #: the ε a teacher may pick (a suggestion for the page's control)
DEFAULT_EPSILON = 1.0


@dataclass(frozen=True)
class PollResult:
    """A poll's released counts next to the true ones.

    Attributes
    ----------
    labels : tuple of str, public
        The choices, in order.
    true_counts : numpy.ndarray, diagnostic
        The exact votes per choice: not private (shown to compare, which is the lesson).
    released_counts : numpy.ndarray, released
        The counts released with ε-DP, rounded and clamped at 0.
    answered : int, diagnostic
        How many voted, exact. Not private under ``neighbours="add-remove"``; under ``"change"`` it is the same on
        neighbouring classes, so showing it costs nothing of the guarantee (which then hides what each student voted,
        not whether they voted).
    rows : list of dict, diagnostic
        One row per choice: the answer, its true count and its released count (the table a page shows). Holds the
        true counts, so not private.
    sentence : str, public
        What ε means for any one student's vote, in one sentence.
    mean_error : float, public
        The expected absolute error of each released count before rounding and clamping.
    guarantee : str, public
        The privacy statement.
    answer : int or None, public
        The index of the right choice, if the question has one.
    """

    labels: tuple[str, ...] = public()
    true_counts: np.ndarray = diagnostic()
    released_counts: np.ndarray = released()
    answered: int = diagnostic()
    rows: list[dict] = diagnostic()
    sentence: str = public()
    mean_error: float = public()
    guarantee: str = public()
    answer: int | None = public()


def _factor(epsilon: float) -> str:
    """:math:`e^{\\varepsilon}` for a student, never overflowing: 2.7, 148, 1,097, 1.97e+434."""
    return exp_text(epsilon, ".2g" if epsilon < math.log(10.0) else ",.0f")


@validated(epsilon=EPSILON, neighbours=Choice(NEIGHBOURS))
def odds_sentence(epsilon: float, neighbours: str = "change") -> str:
    r"""What ε means for any one student's vote, in one plain sentence (Markdown: :math:`e^{\varepsilon}` as KaTeX).

    >>> print(odds_sentence(1.0))  # doctest: +NORMALIZE_WHITESPACE
    With ε = 1, whatever the class is shown was at most 2.7 times ($e^{\varepsilon}$) as likely with any one
    student's actual vote as with a different vote, so it moves the odds that they chose one answer rather than
    another by at most ×2.7.
    """
    factor = _factor(epsilon)
    other = "with a different vote" if neighbours == "change" else "without it"
    target = ("the odds that they chose one answer rather than another" if neighbours == "change"
              else "the odds of anything about that vote (cast or not, for which answer)")
    return (f"With ε = {epsilon:g}, whatever the class is shown was at most {factor} times ($e^{{\\varepsilon}}$) as "
            f"likely with any one student's actual vote as {other}, so it moves {target} by at most ×{factor}.")


@validated(epsilon=EPSILON, noise=Choice(NOISES), neighbours=Choice(NEIGHBOURS))
def mean_error(epsilon: float, noise: str = "geometric", neighbours: str = "change") -> float:
    r"""The expected absolute noise on each count: :math:`b = \Delta_1/\varepsilon` for Laplace,
    :math:`2\alpha/(1 - \alpha^2)` with :math:`\alpha = e^{-\varepsilon/\Delta_1}` for the geometric mechanism.

    >>> mean_error(1.0, "laplace"), round(mean_error(1.0, "geometric"), 4)
    (2.0, 1.919)
    """
    scale = mechanisms.poll.SENSITIVITY[neighbours] / epsilon
    if noise == "laplace":
        return scale
    step = 1.0 / scale
    return 2.0 * math.exp(-step) / -math.expm1(-2.0 * step)  # 2α / (1 - α²), exact for a tiny step, 0 for a huge one


@validated(counts=Array(ndim=(1,), min_size=1, low=0),
           labels=InstanceOf((tuple, list), "a list of the choices' labels"), epsilon=EPSILON, noise=Choice(NOISES),
           neighbours=Choice(NEIGHBOURS), seed=Seed(), answer=Integer(low=0))
def poll_result(counts, labels: Sequence[str], epsilon: float = DEFAULT_EPSILON, noise: str = "geometric",
                neighbours: str = "change", seed: int | None = None, answer: int | None = None) -> PollResult:
    """The poll's counts released at ``epsilon`` next to the true ones, and what ε means for one student.

    ``seed`` makes the release reproducible: draw it once per reveal, at random, and keep it with the room (the app
    keeps it in its poll store), so that reruns show the same release rather than new ones. It must stay secret:
    whoever knows the seed can redraw the noise and subtract it. ``None`` (the default) draws fresh OS entropy.
    ``answer``, the index of the right choice (a predict question's :attr:`~dpcore.lessons.questions.Question.answer`),
    marks its row.

    >>> result = poll_result([12, 7, 0], ["yes", "no", "not sure"], epsilon=1000.0, seed=0)
    >>> result.released_counts.tolist(), result.answered
    ([12, 7, 0], 19)
    >>> result.rows[0]
    {'answer': 'yes', 'true count': 12, 'released count': 12}
    """
    if len(labels) != counts.size or not all(isinstance(label, str) for label in labels):
        raise InvalidParameterError(f"labels must be {counts.size} texts, one per count; got {len(labels)} labels")
    if answer is not None and answer >= counts.size:
        raise InvalidParameterError(f"answer must index one of the {counts.size} choices; got {answer}")
    release = mechanisms.poll_histogram(counts, epsilon, noise=noise, neighbours=neighbours, rng=seed)
    true_counts = counts.astype(np.int64)
    rows = [{"answer": label, "true count": int(true), "released count": int(shown)}
            | ({"right answer": "yes" if index == answer else ""} if answer is not None else {})
            for index, (label, true, shown) in enumerate(zip(labels, true_counts, release.counts))]
    return PollResult(labels=tuple(labels), true_counts=true_counts, released_counts=release.counts,
                      answered=int(true_counts.sum()), rows=rows, sentence=odds_sentence(epsilon, neighbours),
                      mean_error=mean_error(epsilon, noise, neighbours), guarantee=release.guarantee, answer=answer)
