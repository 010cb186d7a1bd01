r"""Check yourself, "Exponential mechanism": choosing privately, and what it costs.

Three exercises: the probability that the exponential mechanism announces a candidate of an election (a number),
its utility bound among :math:`k` candidates (a choice), and the ε at which the page's own election becomes decisive
(a task on the page's controls). Every number comes from the library:
:func:`dpcore.mechanisms.exponential_probabilities` (McSherry & Talwar 2007),
:func:`dpcore.theory.exponential_mechanism_loss_bound` (Dwork & Roth 2014, Thm 3.11) and the page's election,
:func:`dpcore.lessons.exponential_mechanism.election_probabilities` (Hopkins, Kamath & Majid 2022).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from .. import mechanisms, theory
from ..lessons import exponential_mechanism as lesson
from ..lessons.grids import log_grid
from ._numbers import in_math, plain, same, shuffled, to_tolerance
from .base import Exercise, Variant

__all__ = ["EXERCISES"]

#: The page's ε slider (app_pages/settings/exponential_mechanism.py: from 0.01 to 10, log-spaced)
EPSILONS = log_grid(0.01, 10.0)
NAMES = ("A", "B", "C", "D")  #: the candidates of the numeric election
PERCENT_WITHIN = 0.5  #: the numeric election's tolerance, in percentage points
MARGIN = 0.02  #: how clearly (relatively) the page's task is met at its answer and missed one step below it


def _mistakes(votes: np.ndarray, epsilon: float, asked: int) -> dict[str, float]:
    """The percentages a student gets by the mistakes the hints are about: no factor 2 (the monotone rule), every
    candidate alike, and shares proportional to the votes themselves."""
    return {"monotone": 100 * float(mechanisms.exponential_probabilities(votes, epsilon, monotonic=True)[asked]),
            "uniform": 100 / votes.size, "proportional": 100 * float(votes[asked] / votes.sum())}


def _announce_probability(rng: np.random.Generator) -> Variant:
    r"""The exponential mechanism's probability of announcing a candidate,
    :math:`P(h) = e^{\varepsilon u_h/2}/\sum_j e^{\varepsilon u_j/2}` with vote counts :math:`u` (sensitivity 1).

    McSherry & Talwar (2007): :math:`P(h) \propto \exp(\varepsilon u(X, h)/(2\Delta))` is ε-DP; a voter who changes
    their vote moves two counts in opposite directions (not monotone), so the factor 2 is needed. Computed by
    :func:`dpcore.mechanisms.exponential_probabilities`. Drawn again until the answer lies between 3 % and 97 % and
    every mistake of :func:`_mistakes` is at least three tolerances from it.
    """
    while True:
        votes = rng.integers(10, 61, size=len(NAMES)).astype(float)
        epsilon = float(rng.choice([0.05, 0.1, 0.2, 0.3]))
        asked = int(rng.integers(len(NAMES)))
        percent = 100 * float(mechanisms.exponential_probabilities(votes, epsilon)[asked])
        if 3 <= percent <= 97 and all(abs(wrong - percent) >= 3 * PERCENT_WITHIN
                                      for wrong in _mistakes(votes, epsilon, asked).values()):
            break
    halves = epsilon * votes / 2
    weights = np.exp(halves)
    name = NAMES[asked]
    listed = ", ".join(f"{who} {count:g}" for who, count in zip(NAMES, votes))
    terms = " + ".join(f"e^{half:.4g}" for half in halves)
    exponents = ", ".join(f"{who}: {half:.4g}" for who, half in zip(NAMES, halves))
    weighed = ", ".join(f"{who}: {weight:.4g}" for who, weight in zip(NAMES, weights))
    return Variant(
        prompt=(f"An election with four candidates: {listed} votes. Neighbouring elections differ by one voter "
                "changing their vote, so each count changes by at most 1 (the sensitivity $\\Delta = 1$). The "
                "exponential mechanism (McSherry & Talwar 2007), as this page uses it, announces a winner at random "
                f"with the privacy budget $\\varepsilon = {epsilon:g}$ (smaller is more private). With what "
                f"probability does it announce **{name}**? Answer in percent (to within {PERCENT_WITHIN:g} "
                "percentage points)."),
        hints=("Each candidate gets a weight that grows exponentially with its votes, e to the power ε × votes / 2 "
               "(the 2 because a changed vote moves two counts, one up and one down); the probability is its "
               "weight's share of all the weights.",
               f"P({name}) = e^(ε × votes of {name} / 2), divided by the sum of e^(ε × votes / 2) over the four "
               f"candidates; here ε/2 = {epsilon / 2:g}."),
        solution=(f"The exponents ε × votes / 2 are {exponents}; their weights e^(ε × votes / 2) are {weighed}, "
                  f"summing to "
                  f"{weights.sum():.4g}. {name}'s share is {weights[asked]:.4g} / {weights.sum():.4g} = "
                  f"{to_tolerance(percent, PERCENT_WITHIN)} %."),
        why=(f"P({name}) = e^{halves[asked]:.4g} / ({terms}) = {to_tolerance(percent, PERCENT_WITHIN)} %: "
             "exponentially more likely with more votes, yet never certain, which is what hides any one voter."),
        answer=percent, tolerance=PERCENT_WITHIN, unit="%")


def _loss_bound(rng: np.random.Generator) -> Variant:
    r"""The exponential mechanism's utility bound at probability 90 %: a score at most
    :math:`\tfrac{2\Delta}{\varepsilon}(\ln k + t)` below the best, :math:`t = \ln 10`.

    McSherry & Talwar (2007); Dwork & Roth (2014, Thm 3.11): :math:`P[u(\hat h) \le \mathrm{OPT} -
    \tfrac{2\Delta}{\varepsilon}(\ln k + t)] \le e^{-t}`, by :func:`dpcore.theory.exponential_mechanism_loss_bound`.
    The wrong choices: the monotone factor :math:`\Delta/\varepsilon`, :math:`t` left out, and :math:`k` for
    :math:`\ln k`. No :math:`k = 10`: there :math:`t` left out and the monotone factor agree.
    """
    k = int(rng.choice([20, 50, 100, 500, 1000, 5000]))
    sensitivity = float(rng.choice([1, 2, 5]))
    epsilon = float(rng.choice([0.1, 0.5, 1.0, 2.0]))
    t = math.log(10)
    bound = float(theory.exponential_mechanism_loss_bound(k, epsilon, sensitivity, t=t))
    monotone = float(theory.exponential_mechanism_loss_bound(k, epsilon, sensitivity, t=t, monotonic=True))
    no_t = float(theory.exponential_mechanism_loss_bound(k, epsilon, sensitivity, t=0.0))
    linear = 2 * sensitivity / epsilon * (k + t)
    factor = 2 * sensitivity / epsilon

    def points(value: float) -> str:
        return f"At most {value:,.3g} below the best score" if value < 1000 else \
            f"At most {value:,.0f} below the best score"

    choices, reasons, answer = shuffled(rng, (
        points(bound),
        f"(2Δ/ε)(ln k + t) with t = ln 10 (so that e^(−t) = 10 %): (2 × {sensitivity:g} / {epsilon:g}) × "
        f"({math.log(k):.3g} + {t:.3g}) = {bound:.3g}. Choosing among {k:,} candidates costs only ln k."), [
        (points(monotone),
         "That is (Δ/ε)(ln k + ln 10), the bound without the factor 2: it belongs to the monotone rule "
         "exp(ε·u/Δ), which is ε-DP only when all scores move the same way between neighbours. The general "
         f"mechanism, exp(ε·u/(2Δ)), loses up to (2Δ/ε)(ln k + ln 10) = {bound:.3g}."),
        (points(no_t),
         f"That is (2Δ/ε)·ln k with t left out: with t = 0 the bound fails with probability up to e⁰ = 1, so it "
         f"promises nothing. At 90 %, e^(−t) = 0.1 asks for t = ln 10 ≈ {t:.3g}: {bound:.3g}."),
        (points(linear),
         f"That charges k = {k:,} where the bound charges ln k = {math.log(k):.3g}: choosing privately among many "
         f"candidates costs only logarithmically in their number, (2Δ/ε)(ln k + ln 10) = {bound:.3g}."),
    ])
    return Variant(
        prompt=(f"The exponential mechanism chooses one of $k = {in_math(f'{k:,}')}$ candidates by their scores "
                f"$u$; replacing one person's data changes any score by at most $\\Delta = {sensitivity:g}$ (the "
                f"sensitivity), and the privacy budget is $\\varepsilon = {epsilon:g}$. Call OPT the best score. Its "
                "guarantee (McSherry & Talwar 2007): with probability at least 90 %, the chosen candidate's score is "
                "how far below OPT, at most?"),
        hints=("The loss grows with the number of candidates only through ln k, and a smaller failure probability "
               "e^(−t) costs an extra t.",
               "With probability 1 − e^(−t) the loss is at most (2Δ/ε)(ln k + t); 90 % means e^(−t) = 0.1, t = ln 10."),
        solution=(f"2Δ/ε = 2 × {sensitivity:g} / {epsilon:g} = {factor:g}; ln k = ln {k:,} = {math.log(k):.4g}; "
                  f"t = ln 10 = {t:.4g}. The bound is {factor:g} × ({math.log(k):.4g} + {t:.4g}) = {bound:.3g}."),
        why=reasons[answer], answer=answer, choices=choices, reasons=reasons)


@functools.cache
def _election() -> dict[float, np.ndarray]:
    """The page's election's probabilities with the factor 2 (A, B, C) at every ε of the slider, computed once."""
    return {epsilon: lesson.election_probabilities(epsilon)["standard"] for epsilon in EPSILONS}


def _measure(kind: str, epsilon: float) -> float:
    """What the page's task reads at ``epsilon``: A's probability (``"share"``) or C's over A's (``"ratio"``)."""
    probabilities = _election()[epsilon]
    return float(probabilities[0] if kind == "share" else probabilities[2] / probabilities[0])


def _met(kind: str, value: float, level: float, margin: float = 0.0) -> bool:
    """Whether ``value`` meets the task ``kind`` at ``level`` (A's share at most it, the ratio at least it), by a
    relative ``margin``."""
    return value <= (1 - margin) * level if kind == "share" else value >= (1 + margin) * level


@functools.cache
def _clear_tasks() -> tuple[tuple[str, float, float], ...]:
    """The tasks (kind, level, the smallest ε of the slider that does it) whose answer is clear on the slider: met by
    :data:`MARGIN` at the answer, missed by as much one step below it."""
    tasks = [("share", q) for q in (0.25, 0.2, 0.15, 0.1, 0.05, 0.02, 0.01)] + \
            [("ratio", r) for r in (2.0, 3.0, 5.0, 10.0, 20.0, 100.0, 1000.0)]
    clear = []
    for kind, level in tasks:
        first = next(i for i, epsilon in enumerate(EPSILONS) if _met(kind, _measure(kind, epsilon), level))
        if first > 0 and _met(kind, _measure(kind, EPSILONS[first]), level, MARGIN) \
                and not _met(kind, _measure(kind, EPSILONS[first - 1]), level, -MARGIN):
            clear.append((kind, level, EPSILONS[first]))
    return tuple(clear)


def _election_epsilon(rng: np.random.Generator) -> Variant:
    r"""On the page: the smallest ε of the slider at which the page's election (A 15, B 19, C 20 votes) announces A
    at most :math:`q` of the time, or C at least :math:`r` times as often as A.

    With the factor 2, :math:`P(h) \propto e^{\varepsilon u_h/2}` (McSherry & Talwar 2007; the election of Kamath's
    slides about Hopkins, Kamath & Majid 2022), :math:`P(C)/P(A) = e^{\varepsilon(20 - 15)/2}`: the probabilities of
    :func:`dpcore.lessons.exponential_mechanism.election_probabilities`. Thresholds are drawn among those the slider
    crosses clearly (:func:`_clear_tasks`).
    """
    a, b, c = lesson.VOTES
    clear = _clear_tasks()
    kind, level, target = clear[int(rng.integers(len(clear)))]
    below = EPSILONS[EPSILONS.index(target) - 1]
    at, before = _election()[target], _election()[below]
    gap = c - a

    def accepts(params: Mapping[str, Any]) -> bool:
        return same(params.get("eps"), target)

    if kind == "share":
        task = f"announces **A** (the candidate with the fewest votes) at most **{100 * level:g} %** of the time"
        said = (f"at ε = {target:g}, P(A) = {100 * at[0]:.3g} %; one step below, at ε = {below:g}, P(A) = "
                f"{100 * before[0]:.3g} %, more than {100 * level:g} %")
        idea = "As ε grows, the weights e^(ε·votes/2) pull apart and A, the last, is announced less and less often."
        compute = (f"P(A) = e^({a:g}ε/2) / (e^({a:g}ε/2) + e^({b:g}ε/2) + e^({c:g}ε/2)): the “factor 2” bar over A "
                   "in the election's chart.")
    else:
        task = f"announces **C** (the true winner) at least **{level:,g} times** as often as **A** (the last)"
        said = (f"at ε = {target:g}, P(C)/P(A) = e^({gap:g}ε/2) = {at[2] / at[0]:.3g}; one step below, at "
                f"ε = {below:g}, it is {before[2] / before[0]:.3g}, less than {level:,g}")
        idea = "The ratio of two candidates' probabilities depends only on their vote gap: the other weights cancel."
        compute = (f"P(C)/P(A) = e^({c:g}ε/2) / e^({a:g}ε/2) = e^({gap:g}ε/2): it reaches {level:,g} at "
                   f"ε = 2 ln({level:,g})/{gap:g} = {2 * math.log(level) / gap:.3g}; take the next value on the "
                   "slider.")
    return Variant(
        prompt=(f"The page's election: A has {a:g} votes, B {b:g} and C {c:g}. The exponential mechanism with the "
                "factor 2 (the bars marked “factor 2” in the election's chart: probability proportional to "
                "$e^{\\varepsilon\\cdot\\text{votes}/2}$, "
                "$\\varepsilon$ the privacy budget) announces one of them at random. Set $\\varepsilon$ to the "
                f"**smallest** value on the slider at which the mechanism {task}."),
        hints=(idea, compute),
        solution=f"Set ε = {target:g}: {said}.",
        why=f"At ε = {target:g} the mechanism {task.replace('**', '')}: {said}. A larger ε buys a clearer winner "
            f"with less privacy; ε = {plain(target)} is the least privacy lost for it.",
        accepts=accepts, controls=("eps",))


EXERCISES = (
    Exercise("announce_probability", "numeric", "Who is announced, and how often", _announce_probability),
    Exercise("loss_bound", "choice", "The price of choosing among k", _loss_bound),
    Exercise("election_epsilon", "on_page", "When the election becomes decisive", _election_epsilon),
)
