r"""Check yourself, "Scheffé tournament": private selection among k hypotheses pays ln k, not k.

Three exercises: the samples the guarantee's privacy term asks for (a number), the sensitivity of a user-level score
(a choice), and a contest pair set apart by a given total variation (a task on the page's contest controls). Every
number comes from the library: the page's privacy term (:func:`dpcore.lessons.tournament.privacy_term`), the
user-level scores and the Scheffé sets of :mod:`dpcore.estimators.selection` (Bun, Kamath, Steinke & Wu 2019; Ghazi
et al. 2023).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..estimators.selection import GaussianFamily, gaussian_grid, user_scheffe_scores
from ..lessons import tournament as lesson
from ._numbers import in_math, num, plain, same, shuffled, to_tolerance, tolerance
from .base import Exercise, Variant

__all__ = ["EXERCISES"]


def _privacy_term(rng: np.random.Generator) -> Variant:
    r"""The samples the privacy term of the guarantee asks for, :math:`n = 2\ln(k/\beta)/(\varepsilon\alpha)`.

    The exponential mechanism over sensitivity-1 Scheffé scores picks a hypothesis within :math:`5\alpha` in total
    variation once :math:`n \ge \max\{2\ln(k^2/\beta)/\alpha^2, 2\ln(k/\beta)/(\varepsilon\alpha)\}` (our constants
    for the rate of Bun, Kamath, Steinke & Wu 2019); :math:`\alpha` = the page's target TV / 5, :math:`\beta` = 0.1.
    """
    k = int(rng.choice([10, 20, 50, 100, 200, 500, 1000, 5000]))
    epsilon = float(rng.choice([0.05, 0.1, 0.2, 0.5, 1.0, 2.0]))
    needed = float(lesson.privacy_term(np.array([k]), epsilon)[0])
    target, beta = lesson.TARGET_TV, lesson.BETA
    alpha = target / 5
    within = max(1.0, tolerance(needed, 0.01))
    return Variant(
        prompt=(f"A private tournament picks one of $k = {in_math(f'{k:,}')}$ candidate distributions (hypotheses) "
                "with the exponential mechanism, at privacy budget "
                f"$\\varepsilon = {epsilon:g}$ (smaller is more private). The page's guarantee asks for a number of "
                "samples $n$ that is the larger of two terms: a statistical one, and a *privacy term*, the price of "
                f"choosing privately. The page aims at a total variation distance (TV) of at most {target:g} between "
                f"the data's distribution and the chosen hypothesis, that is an accuracy $\\alpha = {target:g}/5 = "
                f"{alpha:g}$, failing with probability at most $\\beta = {beta:g}$. How many samples does the privacy "
                f"term ask for? (to within {plain(within)} samples)"),
        hints=("The privacy term is the guarantee's second term, the one with ε in it.",
               f"n = 2 ln(k/β) / (εα) = 2 × ln({k:,}/{beta:g}) / ({epsilon:g} × {alpha:g})."),
        solution=(f"ln(k/β) = ln({k:,}/{beta:g}) = {math.log(k / beta):.4g}, and εα = {epsilon:g} × {alpha:g} = "
                  f"{epsilon * alpha:g}, so n = 2 × {math.log(k / beta):.4g} / {epsilon * alpha:g} = "
                  f"{to_tolerance(needed, within)} samples."),
        why=(f"n = 2 ln(k/β) / (εα) = 2 ln({k:,}/{beta:g}) / ({epsilon:g} × {alpha:g}) = "
             f"{to_tolerance(needed, within)}: the exponential mechanism pays about ln(k/β)/ε in score to choose "
             "among k hypotheses, and a good hypothesis scores about nα."),
        answer=needed, tolerance=within, unit="samples")


_PER_USER = (9, 16, 25, 36, 64, 100, 144, 256)  #: examples per user: squares above 4, so that 2√m < m


def _user_sensitivity(rng: np.random.Generator) -> Variant:
    r"""The sensitivity of a clipped user-level score, :math:`\Delta_u = \min(m, 2\tau)` with :math:`\tau = \sqrt m`.

    Each user's contribution to a contest is clipped to :math:`[-\tau, \tau]`, so replacing a user moves every contest's
    sum, and their minimum, by at most :math:`2\tau` (Ghazi et al. 2023, Appendix E, Theorems 40–41; the library's
    :func:`~dpcore.estimators.selection.user_scheffe_scores`).
    """
    m = int(rng.choice(_PER_USER))
    users = int(rng.choice([100, 300, 1000]))
    tau = math.sqrt(m)
    _, sensitivity = user_scheffe_scores(gaussian_grid(3), np.zeros((2, m)), lesson.ALPHA, tau)
    why = (f"A user's clipped contribution lies in [−τ, τ], so replacing the user moves each contest's sum, and so "
           f"the score, by at most 2τ = 2√{m} = {sensitivity:g}: Δ = min(m, 2τ) = {sensitivity:g} (Ghazi et al. "
           "2023). Without clipping it would be m.")
    choices, reasons, answer = shuffled(rng, (f"Δ = {sensitivity:g}", why), [
        (f"Δ = {m}",
         f"That is group privacy: without clipping, all m = {m} examples of one user can move into or out of the "
         f"Scheffé set, changing a score by m. Clipping caps the change at 2τ = {2 * tau:g}."),
        (f"Δ = {tau:g}",
         f"The clipped contribution lies in [−τ, τ], but replacing the user can move it from −τ to +τ: a change of "
         f"2τ = {2 * tau:g}, not τ = {tau:g}."),
        ("Δ = 1",
         "1 is the item-level sensitivity, when neighbouring datasets differ in one example. Here they differ in a "
         f"whole user's m = {m} examples; clipping caps their effect at 2τ = {2 * tau:g}."),
    ])
    return Variant(
        prompt=(f"User-level privacy: $n = {in_math(f'{users:,}')}$ users hold $m = {m}$ examples each, and "
                "neighbouring datasets differ in one whole user (all $m$ of their examples). In each contest of the "
                "tournament, a user's contribution (how many of their examples fall in the Scheffé set, where one "
                "hypothesis's density beats the other's, minus how many the hypothesis predicts) is clipped to "
                f"$[-\\tau, \\tau]$ with $\\tau = \\sqrt m = {tau:g}$, and a hypothesis's score adds up the "
                "clipped contributions. By how much can one user change a score at most (the score's sensitivity "
                "$\\Delta$)?"),
        hints=("Clipping bounds what one user can contribute; a neighbour replaces the user's contribution by any "
               "other value in the same range.",
               f"The contribution lies in [−τ, τ]: from one end to the other is 2τ, unless m = {m} is smaller."),
        solution=(f"τ = √{m} = {tau:g}. Replacing a user changes their clipped contribution by at most 2τ = "
                  f"{2 * tau:g} (from −τ to +τ), which is less than m = {m}, so Δ = min(m, 2τ) = {sensitivity:g}."),
        why=why, answer=answer, choices=choices, reasons=reasons)


@functools.cache
def _separations() -> tuple[np.ndarray, np.ndarray]:
    """The distances 0.1, 0.2, …, 4 between two means of the contest grid, and the TV between N(0, 1) and N(D, 1) at
    each, from the library's exact Scheffé sets (TV = p₁ − p₂)."""
    distances = np.round(np.arange(1, 41) * lesson.SPACING, 1)
    family = GaussianFamily(np.concatenate([[0.0], distances]), np.ones(41))
    p1, p2 = family.probabilities()
    return distances, np.asarray(p1[0, 1:] - p2[0, 1:])


def _apart_pair(rng: np.random.Generator) -> Variant:
    r"""On the page: the contest pair nearest :math:`H_i` that is more than a given TV apart.

    For two unit-variance Gaussians the Scheffé set is the half-line beyond the midpoint, so
    :math:`\mathrm{TV} = p_1 - p_2 = 2\Phi(D/2) - 1` with :math:`D = |a - b|` (Devroye & Lugosi 2001; the contest of
    Bun, Kamath, Steinke & Wu 2019), from the library's exact Scheffé probabilities.
    """
    distances, tvs = _separations()
    while True:
        apart = float(rng.choice([0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]))
        first = int(np.flatnonzero(tvs > apart)[0])
        if first > 0 and tvs[first] > apart + 0.002 and tvs[first - 1] < apart - 0.002:
            break
    distance, below = float(distances[first]), float(distances[first - 1])
    mean = float(rng.choice(lesson.MEANS))
    low, high = lesson.MEANS[0], lesson.MEANS[-1]
    targets = [round(mean + sign * distance, 1) for sign in (-1, 1) if low <= round(mean + sign * distance, 1) <= high]

    def accepts(params: Mapping[str, Any]) -> bool:
        other = params.get("b")
        return (same(params.get("a"), mean) and any(same(other, target) for target in targets))

    either = " or ".join(num(target) for target in targets)
    return Variant(
        prompt=(f"In the contest section of this page, set $H_i$'s mean to **{num(mean)}**: $H_i = N({mean:g}, 1)$, "
                "the Gaussian with that mean and variance 1. Then choose $H_j$'s mean as close to "
                f"{num(mean)} as the control allows such that $H_i$ and $H_j$ are more than {apart:g} apart in total "
                "variation (TV). The figure's title gives $p_1$ and $p_2$, the shares of the Scheffé set $W$ "
                "(where $H_i$'s density is the larger) that $H_i$ and $H_j$ predict; their difference "
                "$p_1 - p_2$ is the TV between the two hypotheses."),
        hints=("The TV between N(a, 1) and N(b, 1) depends only on the distance D = |a − b|, and grows with it: "
               "widen the gap step by step.",
               "p₁ − p₂ = Φ(D/2) − Φ(−D/2) = 2Φ(D/2) − 1 (Φ: the standard Gaussian's cumulative distribution "
               f"function); find the smallest D, in steps of 0.1, where it exceeds {apart:g}."),
        solution=(f"At D = {below:g} the TV is 2Φ({below / 2:g}) − 1 = {tvs[first - 1]:.3f}, not above "
                  f"{apart:g}; at D = {distance:g} it is 2Φ({distance / 2:g}) − 1 = {tvs[first]:.3f}. So $H_j$'s "
                  f"mean is {either}."),
        why=(f"TV = p₁ − p₂ = 2Φ(D/2) − 1 = {tvs[first]:.3f} > {apart:g} at D = |a − b| = {distance:g}, while at "
             f"D = {below:g} it is {tvs[first - 1]:.3f}. (The page's private score counts pairs closer than "
             f"κ = {4 * lesson.ALPHA:g} in TV as ties.)"),
        accepts=accepts, controls=("a", "b"))


EXERCISES = (
    Exercise("privacy_term", "numeric", "What choosing privately costs in samples", _privacy_term),
    Exercise("user_sensitivity", "choice", "The sensitivity of a user-level score", _user_sensitivity),
    Exercise("apart_pair", "on_page", "Two hypotheses set apart", _apart_pair),
)
