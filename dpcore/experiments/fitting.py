r"""The Monte Carlo engine: estimators x parameter grid x trials, vectorised over trials.

Every page's "error versus n, epsilon, k" figure comes from :func:`run_sweep`. A sweep takes

* ``sample(data_params, trials, rng)``: draws ``trials`` independent datasets **at once** (e.g. an
  array of shape ``(trials, n)``) from the parameters that change the data;
* ``estimators``: ``{name: estimator(data, params, rng) -> errors}``, each returning the per-trial
  error, shape ``(trials,)``, computed with array operations over the trial axis;
* ``grid``: the parameter axes, ``{"n": [...], "epsilon": [...]}``, of which ``data_parameters``
  (e.g. ``("n",)``) change the data and the others (epsilon, delta, ...) only the estimator.

**Vectorisation.** There is no Python loop over trials: one call of ``sample`` draws all datasets of
a data-parameter combination and one call of an estimator privatises all of them. The Python-level
work per grid point is constant (a dict, a generator, one estimator call, a few reductions), so a
sweep costs about what its random draws and array arithmetic cost (``benchmarks/bench_engine.py``).

**Common random numbers (CRN).** The data for a data-parameter combination are drawn once, from the
stream ``child_generator(seed, "data", *data values)``, and reused by every method at every value of
the other parameters. Each method's noise comes from ``child_generator(seed, "noise", method,
*data values)``, started afresh at each value of the other parameters: the same data and the same
noise draws at epsilon = 1 and epsilon = 2, so an epsilon animation moves only because epsilon moved,
and the difference between two methods is not blurred by independent data. Different methods get
independent noise; different data-parameter combinations get independent data. Streams are keyed by
values, not positions, so a sweep over ``n = [100, 1000]`` and one over ``n = [100]`` see the same data
at ``n = 100``. Datasets returned as NumPy arrays are made read-only, since every method shares them.

Summaries per grid point and method: median and a quantile band (default 10 %–90 %) of the errors,
their mean and root mean square, the number of trials, and the raw errors themselves.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.validation import Array, Real, check_same_length, validated

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
        raise ValueError(f"x must contain at least two distinct values; got {x.tolist()}")
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

