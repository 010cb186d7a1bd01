r"""Lesson "Home": what ε promises, on the Laplace mechanism releasing a count from two neighbouring datasets.

A count has sensitivity 1 (one person changes it by at most 1), so Laplace noise of scale :math:`1/\varepsilon` makes
its release :math:`\varepsilon`-DP (Dwork, McSherry, Nissim & Smith 2006): at every output the two datasets'
densities differ by a factor of at most :math:`e^{\varepsilon}`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import mechanisms
from ..core.validation import EPSILON, Integer, validated
from .plain_words import belief_after, exp_text

__all__ = ["GLOSSARY", "COUNT", "SEED", "EPSILONS", "RELEASES", "Deployment", "DEPLOYMENTS", "ODDS", "BELIEF",
           "neighbouring_densities",
           "deployment_table", "takeaways"]

#: The glossary terms (:data:`dpcore.lessons.glossary.TERMS`) the page's words use, checked against the page as
#: drawn by tests/app/test_plain_words.py
GLOSSARY = ("audit", "bias", "binary product distribution", "canary", "clipping", "composition",
            "differential privacy (DP)", "exponential mechanism", "Gaussian differential privacy (μ-GDP)",
            "Gaussian mechanism", "heavy tails", "k (the letter)", "Laplace mechanism",
            "maximum likelihood estimate (MLE)", "median", "membership inference", "neighbouring datasets",
            "parallel composition", "privacy profile", "pure and approximate DP", "Scheffé set", "score",
            "sensitivity (Δ)", "total variation (TV)", "trade-off curve", "truncation", "user-level privacy",
            "zCDP (ρ)", "δ (delta)", "ε (epsilon)")

COUNT = 42  #: f(X): how many people in X have the property; f(X′) = COUNT + 1
SEED = 0
EPSILONS = (0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0)  #: the figure's frames (log-spaced)
RELEASES = 10_000  #: simulated releases behind the quoted median error


@validated(epsilon=EPSILON, count=Integer(low=0))
def neighbouring_densities(epsilon: float, count: int = COUNT) -> dict[str, np.ndarray]:
    r"""The Laplace mechanism's output densities on X (count ``count``) and X′ (count + 1), each divided by its peak
    :math:`\varepsilon/2` (which leaves every ratio unchanged), and the floor :math:`e^{-\varepsilon}` × the one on X.

    >>> curves = neighbouring_densities(1.0)
    >>> round(float(np.max(curves["on_x"] / curves["on_x_prime"])), 6)  # e^1
    2.718282
    """
    z = np.linspace(count - 8, count + 9, 171)
    on_x = np.exp(-epsilon * np.abs(z - count))
    return {"z": z, "on_x": on_x, "on_x_prime": np.exp(-epsilon * np.abs(z - count - 1)),
            "floor": math.exp(-epsilon) * on_x}


@validated(epsilon=EPSILON)
def takeaways(epsilon: float) -> list[str]:
    """What to notice at ``epsilon``: the largest density ratio on screen, the attacker's best certainty, and the
    median error of :data:`RELEASES` simulated releases (drawn with :data:`SEED`; the page has no seed to change, so
    its words name none) against its theory ln 2 / ε."""
    z = neighbouring_densities(epsilon)["z"]
    # The ratio in log space: the densities themselves underflow to 0 far from the count once ε is large (0/0).
    largest_log_ratio = float(np.max(epsilon * (np.abs(z - COUNT - 1) - np.abs(z - COUNT))))
    releases = mechanisms.laplace(np.full(RELEASES, float(COUNT)), 1.0, epsilon, rng=SEED)
    median_error = float(np.median(np.abs(releases - COUNT)))
    return [
        f"The largest ratio between the two curves on screen is {exp_text(largest_log_ratio, '.3f')} = "
        f"$e^{{{epsilon:g}}}$: no released value is more than {exp_text(epsilon, '.3g')} times likelier under *X* "
        "than under *X′*. *X′* never drops below the dashed floor, $e^{-\\varepsilon}$ times the curve on *X*.",
        f"Someone who thought *X* and *X′* equally likely can be at most {1 / (1 + math.exp(-epsilon)):.0%} sure "
        "which one it was after seeing the release.",
        f"The price: {RELEASES:,} simulated releases miss the true count by {median_error:.2f} people "
        f"in the median (theory: ln 2 / ε = {math.log(2) / epsilon:.2f}).",
    ]


# --------------------------------------------------------------------------------------- ε in the real world
@dataclass(frozen=True)
class Deployment:
    """A deployed differentially private release and the privacy parameters its publisher reported.

    who: the organisation and the data; epsilon, delta: the reported guarantee (delta 0 for pure DP); unit: whose
    data and over what period the guarantee protects; model: "local" (noise added on each device) or "central"
    (noise added by the data holder); source: where the numbers are published.
    """

    who: str
    epsilon: float
    delta: float
    unit: str
    model: str
    source: str


#: Deployments with publicly documented parameters, as reported by their publishers (compiled in the OpenDP
#: Deployments Registry, registry.opendp.org, and Desfontaines' list of real-world uses of differential privacy).
DEPLOYMENTS: tuple[Deployment, ...] = (
    Deployment("Apple: which health data types are used (iOS)", 2.0, 0.0, "one user, one day", "local",
               "Apple Differential Privacy Team (2017)"),
    Deployment("Apple: most popular emoji (iOS, macOS)", 4.0, 0.0, "one user, one day", "local",
               "Apple Differential Privacy Team (2017)"),
    Deployment("Apple: websites where Safari should not autoplay", 8.0, 0.0, "one user, one day", "local",
               "Apple Differential Privacy Team (2017)"),
    Deployment("Wikimedia: Wikipedia page views by country", 1.0, 1e-7, "one device's first 10 page views, one day",
               "central", "Adeleye et al. (2023); ρ = 0.015 zCDP, reported as about (1, 10⁻⁷)"),
    Deployment("Microsoft: assistive AI (text suggestions)", 4.0, 1e-7, "one user", "central",
               "Microsoft (2020), quoted in the OpenDP Deployments Registry"),
    Deployment("Israel Ministry of Health: live births of 2014", 9.98, 0.0, "one birth", "central",
               "Israeli Ministry of Health (2024), OpenDP Deployments Registry"),
    Deployment("LinkedIn: audience engagement statistics for advertisers", 34.9, 7e-9, "one member, one month",
               "central", "Rogers et al. (2020)"),
)


ODDS = "odds change ≤"  #: column of deployment_table: e^ε, the most one person changes any outcome's odds
BELIEF = "a 50 % guess becomes ≤"  #: column of deployment_table: an attacker's belief after one release


def deployment_table() -> list[dict]:
    """:data:`DEPLOYMENTS` as table rows, with what each ε means in odds (×e^ε) and for an attacker's 50 % belief
    (:func:`~dpcore.lessons.plain_words.belief_after`), sorted by ε.

    >>> [(row["ε"], row[BELIEF]) for row in deployment_table()][:2]
    [('1', '73.1 %'), ('2', '88.1 %')]
    """
    return [{"release": item.who, "ε": f"{item.epsilon:g}", "δ": f"{item.delta:.0e}" if item.delta else "0 (pure)",
             ODDS: _times(math.exp(item.epsilon)), BELIEF: _percent(belief_after(item.epsilon)),
             "protects": item.unit, "noise added": item.model, "source": item.source}
            for item in sorted(DEPLOYMENTS, key=lambda item: item.epsilon)]


def _percent(belief: float) -> str:
    """A belief as a percentage, never rounded up to a certainty it is not: 73.1 %, 99.97 %, over 99.99 %."""
    if belief < 0.99:
        return f"{100 * belief:.3g} %"
    return f"{100 * belief:.2f} %" if belief < 0.9999 else "over 99.99 %"


def _times(factor: float) -> str:
    """A multiplicative factor for a student: ×7.4, ×2,981, ×1.4e+15."""
    return f"×{factor:.2g}" if factor < 10 else f"×{factor:,.0f}" if factor < 1e6 else f"×{factor:.2g}"
