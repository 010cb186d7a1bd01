r"""Check yourself, "Privacy audit lab": an audit's lower bound on ε, and what an attacker's record shows.

Three exercises: the ε an audit's counts prove (a number), what a player's record in the attacker game shows against
the ε-DP bound (a choice), and the ε at which the best attacker reaches a given accuracy (a task on the page's
controls). Every number comes from the library: the Clopper–Pearson audit of :mod:`dpcore.audit` (Jagielski, Ullman &
Oprea 2020) and the attacker game of :mod:`dpcore.lessons.audit_lab` (Kairouz, Oh & Viswanath 2015).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..audit import clopper_pearson, epsilon_lower_bound
from ..lessons import audit_lab as lesson
from ..lessons.grids import log_grid
from ._numbers import in_math, same
from .base import Exercise, Variant

__all__ = ["EXERCISES"]

#: The page's ε control (app_pages/settings/audit_lab.py): ε on this grid
EPSILONS = log_grid(0.1, 5.0)
CONFIDENCES = (0.9, 0.95, 0.99)  #: the page's confidence levels


def _percent(share: float) -> str:
    return f"{100 * share:.1f} %"


def _audit_bound(rng: np.random.Generator) -> Variant:
    r"""The lower bound on ε one event's counts prove, :math:`\hat\varepsilon = \ln(\underline p/\overline q)`.

    An ε-DP mechanism has :math:`P[M(X)\in E] \le e^{\varepsilon}P[M(X')\in E]`, so with Clopper–Pearson intervals
    :math:`[\underline p, \overline p]` and :math:`[\underline q, \overline q]` that hold together (Clopper & Pearson
    1934; Bonferroni over the event, its complement and both directions), :math:`\varepsilon \ge
    \ln(\underline p/\overline q)` (Jagielski, Ullman & Oprea 2020): the library's
    :func:`~dpcore.audit.epsilon_lower_bound`, which this event's counts make come from the event itself.
    """
    while True:
        draws = int(rng.choice([10_000, 20_000, 50_000, 100_000]))
        share = float(rng.choice([0.005, 0.01, 0.02, 0.05]))
        loss = float(rng.choice([0.7, 1.0, 1.5, 2.0]))
        confidence = float(rng.choice(CONFIDENCES))
        neighbour = int(round(draws * share * rng.uniform(0.9, 1.1)))
        count = int(round(draws * share * math.exp(loss) * rng.uniform(0.9, 1.1)))
        if not (20 <= neighbour and count <= min(5000, draws // 2)):
            continue
        result = epsilon_lower_bound(np.array([count]), np.array([neighbour]), draws, 0.0, confidence)
        if (result.event == 0 and result.forward and result.epsilon_lower_bound > 0.05
                and math.log(count / neighbour) - result.epsilon_lower_bound > 0.04):
            break
    level = 1 - 2 * (1 - confidence) / 4  # each of the 4 one-sided tests at (1 − confidence)/4, as the audit does
    (p_low,), (p_high,) = (np.ravel(end) for end in clopper_pearson(np.array([count]), draws, level))
    (q_low,), (q_high,) = (np.ravel(end) for end in clopper_pearson(np.array([neighbour]), draws, level))
    bound = result.epsilon_lower_bound
    low, high = f"{result.p_lower:.4g}", f"{result.q_upper:.4g}"
    return Variant(
        prompt=("An audit tests a mechanism $M$ that claims to be $\\varepsilon$-differentially private (with "
                f"$\\delta = 0$). It runs $M$ on a dataset $X$, $N = {in_math(f'{draws:,}')}$ times, and as many "
                "times on a neighbouring dataset $X'$, and counts how often the output lands in an event $E$ fixed in "
                f"advance (such as \"the output is above 52\"): $c = {in_math(f'{count:,}')}$ times on $X$ and "
                f"$c' = {in_math(f'{neighbour:,}')}$ times on $X'$. "
                f"Clopper–Pearson intervals that hold together with {100 * confidence:g} % confidence give "
                f"$P[M(X) \\in E] \\in [{p_low:.4g}, {p_high:.4g}]$ and "
                f"$P[M(X') \\in E] \\in [{q_low:.4g}, {q_high:.4g}]$ ($P[M(X) \\in E]$: the probability that "
                "the output on $X$ lands in $E$). What lower bound on the mechanism's "
                "$\\varepsilon$ do these counts prove? (to within 0.01)"),
        hints=("ε-DP promises P[M(X) ∈ E] ≤ e^ε · P[M(X′) ∈ E] for every event: the bound must hold even in the "
               "least favourable case the two intervals allow.",
               f"Take the lower end for X and the upper end for X′: ε ≥ ln({low}/{high})."),
        solution=(f"The smallest P[M(X) ∈ E] the first interval allows is {low}, the largest P[M(X′) ∈ E] the "
                  f"second allows is {high}. ε-DP needs {low} ≤ e^ε × {high}, so ε ≥ ln({low}/{high}) = "
                  f"{bound:.3f}."),
        why=(f"ε ≥ ln(p̲/q̄) = ln({low}/{high}) = {bound:.3f}: a mechanism with a smaller ε would contradict these "
             f"counts, except with probability {1 - confidence:.2g} (Jagielski, Ullman & Oprea 2020). The point "
             f"estimates alone, ln(c/c′) = {math.log(count / neighbour):.3f}, would claim more than the draws show."),
        answer=bound, tolerance=0.01)


def _attacker_record(rng: np.random.Generator) -> Variant:
    r"""Where a player's accuracy interval lies against the ε-DP bound :math:`e^{\varepsilon}/(1+e^{\varepsilon})`.

    No attacker of an ε-DP release on a fair coin is right more often than :math:`e^{\varepsilon}/(1+e^{\varepsilon})`
    in the long run (Kairouz, Oh & Viswanath 2015); an exact Clopper–Pearson interval on the player's accuracy
    (Clopper & Pearson 1934) wholly above it catches the release, one that contains it may be luck: the library's
    :func:`~dpcore.lessons.audit_lab.against_bound`.
    """
    while True:
        epsilon = float(rng.choice([0.5, 0.7, 1.0, 1.5, 2.0]))
        rounds = int(rng.choice([20, 50, 100, 200, 500]))
        situation = str(rng.choice(["above", "contains", "below"]))
        bound = lesson.accuracy_bound(epsilon)
        rights = np.arange(math.ceil(rounds / 2), rounds + 1)
        lows, highs = (np.ravel(end) for end in clopper_pearson(rights, rounds, 0.95))
        clear = np.minimum(np.abs(lows - bound), np.abs(highs - bound)) >= 0.005
        where = np.where(lows > bound, "above", np.where(highs < bound, "below", "contains"))
        fits = clear & (where == situation) & ((situation != "contains") | (rights / rounds > bound + 0.005))
        if fits.any():
            break
    pick = int(rng.choice(np.flatnonzero(fits)))
    right, low, high = int(rights[pick]), float(lows[pick]), float(highs[pick])
    accuracy = right / rounds
    found = lesson.against_bound(low, high, epsilon)
    interval = f"[{_percent(low)}, {_percent(high)}]"
    b = f"b = {_percent(bound)}"
    above = ("Its interval lies wholly above $b$: the release is not $\\varepsilon$-DP (or the lab has a bug)",
             f"The interval {interval} is not wholly above {b}: "
             + (f"its lower end, {_percent(low)}, is below b." if found == "contains" else
                f"its upper end, {_percent(high)}, is below b."))
    contains = ("Its interval contains $b$: beating $b$ may be luck, play more rounds",
                f"{b} lies outside the interval {interval}: "
                + ("the whole interval is above b, which luck does less than 2.5 % of the time."
                   if found == "above" else "the whole interval is below b."))
    below = ("Its interval lies wholly below $b$: these guesses stay within the privacy promise",
             f"The interval {interval} is not wholly below {b}: its upper end, {_percent(high)}, is above b.")
    fourth = ((f"Its accuracy, {_percent(accuracy)}, beats $b$: the release is not $\\varepsilon$-DP",
               f"An accuracy above b after {rounds} rounds can be luck: the release is caught only when the whole "
               f"interval lies above {b}, and {interval} still contains it.") if found == "contains" else
              (f"Nothing yet: {rounds} rounds are too few to tell",
               f"An exact confidence interval holds whatever the number of rounds, and {interval} already lies "
               f"wholly {found} {b}."))
    why = {"above": f"The whole interval {interval} lies above {b}: an ε-DP release lets no attacker be right more "
                    "often than b in the long run, and luck puts the interval above b less than 2.5 % of the time. "
                    "The release is not ε-DP, or the mechanism has a bug.",
           "contains": f"The interval {interval} contains {b}: the player's long-run accuracy may be b or below, and "
                       f"{_percent(accuracy)} may be luck. More rounds narrow the interval.",
           "below": f"The whole interval {interval} lies below {b}: the guesses stay within what the privacy promise "
                    "allows."}[found]
    options = [above, contains, below, fourth]
    answer = ("above", "contains", "below").index(found)
    options[answer] = (options[answer][0], why)
    return Variant(
        prompt=("In the page's attacker game a fair coin decides whether a target person is in a dataset, the lab "
                "releases a noisy count that is $\\varepsilon$-differentially private with "
                f"$\\varepsilon = {epsilon:g}$, and a player guesses \"in\" or \"out\". No attacker can be right more "
                "often than $b = e^{\\varepsilon}/(1+e^{\\varepsilon})$ in the long run. A player was right "
                f"{right} times in {rounds} rounds ({_percent(accuracy)}); the exact 95 % confidence interval "
                f"(Clopper–Pearson) on their long-run accuracy is {interval}. What does this record show?"),
        hints=("Compare the whole confidence interval, not the accuracy alone, with b.",
               f"b = e^{epsilon:g}/(1 + e^{epsilon:g}) = {_percent(bound)}; where does {interval} lie against it?"),
        solution=f"b = e^{epsilon:g}/(1 + e^{epsilon:g}) = {_percent(bound)}. {why}",
        why=why, answer=answer, choices=tuple(option[0] for option in options),
        reasons=tuple(option[1] for option in options))


def _best_attacker_epsilon(rng: np.random.Generator) -> Variant:
    r"""On the page: the smallest ε of the slider at which the best attacker is right a given share of the time.

    The likelihood-ratio attacker says "in" when the Laplace count (scale :math:`1/\varepsilon`) is nearer 51 than 50,
    and is right with probability :math:`1 - e^{-\varepsilon/2}/2`
    (:func:`~dpcore.lessons.audit_lab.likelihood_ratio_rates`), below the bound :math:`e^{\varepsilon}/(1 +
    e^{\varepsilon})` of every attacker (Kairouz, Oh & Viswanath 2015).
    """
    accuracies = [lesson.likelihood_ratio_rates(epsilon)["accuracy"] for epsilon in EPSILONS]
    index = int(rng.integers(1, len(EPSILONS)))
    low, high = 100 * accuracies[index - 1], 100 * accuracies[index]
    wanted = int(rng.choice(np.arange(math.floor(low + 0.3) + 1, math.ceil(high - 0.3))))
    epsilon, before = EPSILONS[index], EPSILONS[index - 1]

    def accepts(params: Mapping[str, Any]) -> bool:
        return same(params.get("eps"), epsilon)

    return Variant(
        prompt=("In the attacker game (Part 2 of this page) the best attacker says \"in\" when the released count "
                "is nearer 51 than 50. With the privacy budget $\\varepsilon$ control (smaller is more private), "
                "find the smallest $\\varepsilon$ on the slider at which this attacker is right at least "
                f"**{wanted} %** of the time in the long run. The page's \"What to notice\" says how often the best "
                "attacker is right at the current $\\varepsilon$."),
        hints=("A larger ε means less noise, so the best attacker is right more often: move ε up until it reaches "
               f"{wanted} %.",
               "The best attacker is right with probability 1 − e^(−ε/2)/2: compute it for the slider's values, "
               f"{', '.join(f'{e:g}' for e in EPSILONS[:7])}, …, and take the first at least {wanted} %."),
        solution=(f"At ε = {before:g} the best attacker is right {_percent(accuracies[index - 1])} of the time, at "
                  f"ε = {epsilon:g} {_percent(accuracies[index])}. So ε = {epsilon:g}."),
        why=(f"1 − e^(−ε/2)/2 = {_percent(accuracies[index])} ≥ {wanted} % at ε = {epsilon:g}, but "
             f"{_percent(accuracies[index - 1])} at ε = {before:g}. No attacker at all can beat e^ε/(1 + e^ε) = "
             f"{_percent(lesson.accuracy_bound(epsilon))} there (Kairouz, Oh & Viswanath 2015)."),
        accepts=accepts, controls=("eps",))


EXERCISES = (
    Exercise("audit_bound", "numeric", "The ε an audit proves", _audit_bound),
    Exercise("attacker_record", "choice", "What an attacker's record shows", _attacker_record),
    Exercise("best_attacker_epsilon", "on_page", "How private for a given attacker", _best_attacker_epsilon),
)
