"""Fits drawn from Monte Carlo curves: the power law of a rate, and the sample size a target error needs."""

from __future__ import annotations

import math

import numpy as np

from ..core.validation import Array, InvalidParameterError, Real, check_same_length, validated

__all__ = ["fit_power_law", "samples_needed"]


_POSITIVE_SERIES = Array(ndim=(1,), min_size=2, low=0, low_open=True)


@validated(x=_POSITIVE_SERIES, y=_POSITIVE_SERIES)
def fit_power_law(x, y) -> tuple[float, float]:
    r"""Least-squares fit of :math:`\log y = a \log x + b`; returns the exponent and the constant.

    Reads a rate off a simulation: ``fit_power_law(n, median_error)`` near ``(-0.5, 0.67)`` for a
    sample mean of standard normal data (:math:`0.6745\,n^{-1/2}`).

    Returns
    -------
    exponent : float
        :math:`a`.
    constant : float
        :math:`e^b`, so that :math:`y \approx e^b x^a`.

    Examples
    --------
    >>> exponent, constant = fit_power_law([1, 10, 100], [3.0, 0.3, 0.03])
    >>> round(exponent, 6), round(constant, 6)
    (-1.0, 3.0)
    """
    check_same_length(("x", "y"), (x, y))
    if np.ptp(x) == 0:
        raise InvalidParameterError(f"x must contain at least two distinct values; got {x.tolist()}")
    exponent, intercept = np.polyfit(np.log(x), np.log(y), 1)
    return float(exponent), math.exp(intercept)


@validated(n_values=Array(ndim=(1,), low=1, min_size=2), errors=Array(ndim=(1,), low=0, min_size=2),
           target=Real(low=0, low_open=True))
def samples_needed(n_values, errors, target: float) -> float:
    """The smallest n at which a decreasing error curve reaches ``target``: log-log interpolation between the grid
    points around its first crossing; ``nan`` when the curve never gets there, ``n_values[0]`` when it starts below.

    Turns a simulated error-vs-n curve into a measured sample complexity (e.g. n needed for TV <= 0.1 at each d).
    """
    below = np.flatnonzero(errors <= target)
    if below.size == 0:
        return math.nan
    i = int(below[0])
    if i == 0:
        return float(n_values[0])
    x0, x1 = np.log(n_values[i - 1:i + 1])
    y0, y1 = np.log(np.maximum(errors[i - 1:i + 1], 1e-300))
    return float(np.exp(x0 + (math.log(target) - y0) * (x1 - x0) / (y1 - y0)))

