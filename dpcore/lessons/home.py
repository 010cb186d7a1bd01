r"""Lesson "Home": what ε promises, on the Laplace mechanism releasing a count from two neighbouring datasets.

A count has sensitivity 1 (one person changes it by at most 1), so Laplace noise of scale :math:`1/\varepsilon` makes
its release :math:`\varepsilon`-DP (Dwork, McSherry, Nissim & Smith 2006): at every output the two datasets'
densities differ by a factor of at most :math:`e^{\varepsilon}`.
"""

from __future__ import annotations

import math

import numpy as np

from .. import mechanisms
from ..core.validation import EPSILON, Integer, validated

__all__ = ["COUNT", "SEED", "EPSILONS", "RELEASES", "neighbouring_densities", "takeaways"]

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


def _exp_text(exponent: float, spec: str) -> str:
    """:math:`e^x` as text: formatted with ``spec`` up to 1e6, in scientific notation above (computed from
    :math:`x/\\ln 10`, so that it never overflows: :math:`e^{1000}` is "1.97e+434")."""
    if exponent <= math.log(1e6):
        return format(math.exp(exponent), spec)
    decimal = exponent / math.log(10.0)
    power = math.floor(decimal)
    mantissa = 10.0 ** (decimal - power)
    if round(mantissa, 2) >= 10.0:
        mantissa, power = mantissa / 10.0, power + 1
    return f"{mantissa:.2f}e+{power}"


@validated(epsilon=EPSILON)
def takeaways(epsilon: float) -> list[str]:
    """What to notice at ``epsilon``: the largest density ratio on screen, the attacker's best certainty, and the
    median error of :data:`RELEASES` simulated releases (seed :data:`SEED`) against its theory ln 2 / ε."""
    z = neighbouring_densities(epsilon)["z"]
    # The ratio in log space: the densities themselves underflow to 0 far from the count once ε is large (0/0).
    largest_log_ratio = float(np.max(epsilon * (np.abs(z - COUNT - 1) - np.abs(z - COUNT))))
    releases = mechanisms.laplace(np.full(RELEASES, float(COUNT)), 1.0, epsilon, rng=SEED)
    median_error = float(np.median(np.abs(releases - COUNT)))
    return [
        f"The largest ratio between the two curves on screen is {_exp_text(largest_log_ratio, '.3f')} = "
        f"$e^{{{epsilon:g}}}$: no released value is more than {_exp_text(epsilon, '.3g')} times likelier under *X* "
        "than under *X′*. *X′* never drops below the dashed floor, $e^{-\\varepsilon}$ times the curve on *X*.",
        f"Someone who thought *X* and *X′* equally likely can be at most {1 / (1 + math.exp(-epsilon)):.0%} sure "
        "which one it was after seeing the release.",
        f"The price: {RELEASES:,} simulated releases (seed {SEED}) miss the true count by {median_error:.2f} people "
        f"in the median (theory: ln 2 / ε = {math.log(2) / epsilon:.2f}).",
    ]
