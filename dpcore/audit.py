r"""Statistical privacy audits: an empirical lower bound on a mechanism's :math:`\varepsilon`.

Run a mechanism many times on two neighbouring inputs :math:`X, X'`, count how often each of a set of
events :math:`E` occurs, and bound the event probabilities with exact (Clopper–Pearson) intervals.
If the mechanism is :math:`(\varepsilon, \delta)`-DP then for every event
:math:`P[M(X) \in E] \le e^{\varepsilon} P[M(X') \in E] + \delta`, so with confidence ``confidence``

.. math:: \varepsilon \ge \max_E \ln\frac{\underline p_E - \delta}{\overline q_E},

where :math:`\underline p_E` is a lower confidence bound on :math:`P[M(X)\in E]` and :math:`\overline q_E` an upper
bound on :math:`P[M(X')\in E]`. Both directions and every event's complement are tried; the
confidence level is split over all of them (Bonferroni), so the bound holds simultaneously.

A correct mechanism yields a lower bound below its claimed :math:`\varepsilon` (with probability at
least ``confidence``); a broken one (noise halved, sensitivity ignored) yields one above it.
This is a test of a claim, never a proof of privacy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

from .core.validation import Array, Integer, InvalidParameterError, Real, validated

__all__ = ["AuditResult", "clopper_pearson", "epsilon_lower_bound", "threshold_counts", "outcome_counts"]


@dataclass(frozen=True)
class AuditResult:
    r"""The outcome of an audit.

    Attributes
    ----------
    epsilon_lower_bound : float
        Empirical lower bound on :math:`\varepsilon` (``0.0`` if no event separates the two inputs).
    event : int
        Index of the event (in the order given, complements after) that achieved the bound.
    forward : bool
        True if the bound came from :math:`X` over :math:`X'`, False for the reverse direction.
    p_lower, q_upper : float
        The confidence bounds behind it.
    trials : int
        Draws per input.
    """

    epsilon_lower_bound: float
    event: int
    forward: bool
    p_lower: float
    q_upper: float
    trials: int


@validated(successes=Array(low=0), trials=Integer(low=1), confidence=Real(0, 1, low_open=True, high_open=True))
def clopper_pearson(successes, trials: int, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Exact two-sided binomial confidence interval(s) for success counts out of ``trials``.

    Parameters
    ----------
    successes : float or array
        Success counts, each in ``[0, trials]`` (finite, non-negative; integral values expected).
    trials : int
        Number of trials, at least 1.
    confidence : float, default 0.95
        Two-sided confidence level in :math:`(0, 1)`.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        The lower and upper Clopper–Pearson bounds, each of ``successes``' shape (lower 0 where there is no
        success, upper 1 where every trial succeeded).

    Raises
    ------
    InvalidParameterError
        If some count exceeds ``trials``.
    """
    if np.any(successes > trials):
        raise InvalidParameterError(f"successes must be at most trials={trials}; got max {np.max(successes)}")
    alpha = 1.0 - confidence
    with np.errstate(divide="ignore", invalid="ignore"):
        lower = np.where(successes > 0, _beta_quantile(alpha / 2, successes, trials - successes + 1), 0.0)
        upper = np.where(successes < trials, _beta_quantile(1 - alpha / 2, successes + 1, trials - successes), 1.0)
    return lower, upper


def _beta_quantile(level: float, a, b) -> np.ndarray:
    """The ``level`` quantile of Beta(a, b), element-wise.

    SciPy's inverse, checked against its distribution function and found again by bisection (Brent) where they
    disagree. The inverse is off for a huge ``b``: Beta(1000, 999499001) gave 1.9e-6 for its 1.25 % quantile, 9.3e-7,
    which made the audit claim more than the counts show; the distribution function there is right to 1e-14.
    """
    a, b = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
    quantiles = np.array(special.betaincinv(a, b, level), dtype=float)
    for index in zip(*np.nonzero(np.abs(special.betainc(a, b, quantiles) - level) > 1e-9 * min(level, 1 - level))):
        if a[index] > 0 and b[index] > 0:
            quantiles[index] = optimize.brentq(lambda x, i=index: special.betainc(a[i], b[i], x) - level, 0.0, 1.0,
                                               xtol=1e-300, rtol=1e-14)
    return quantiles


@validated(counts=Array(ndim=(1,), low=0), counts_neighbour=Array(ndim=(1,), low=0), trials=Integer(low=1),
           delta=Real(0, 1, high_open=True), confidence=Real(0, 1, low_open=True, high_open=True))
def epsilon_lower_bound(counts, counts_neighbour, trials: int, delta: float = 0.0,
                        confidence: float = 0.95) -> AuditResult:
    r"""Empirical :math:`\varepsilon` lower bound from event counts on two neighbouring inputs.

    Parameters
    ----------
    counts, counts_neighbour : arrays of shape (events,)
        How many of ``trials`` outputs on :math:`X` (resp. :math:`X'`) fell in each event (each in
        ``[0, trials]``; the two of the same shape). Complements are added automatically.
    trials : int
        Draws per input, at least 1.
    delta : float, default 0.0
        The :math:`\delta` of the claim being audited, :math:`0 \le \delta < 1` (0 for pure DP).
    confidence : float, default 0.95
        Simultaneous confidence over all events, complements and both directions, in :math:`(0, 1)`.

    Returns
    -------
    AuditResult
        The largest bound over events and directions, the event and direction behind it, and the two
        confidence bounds; ``epsilon_lower_bound`` is 0.0 (``event`` -1) if no event separates the inputs.
    """
    if counts.shape != counts_neighbour.shape:
        raise InvalidParameterError(f"counts and counts_neighbour must have the same shape; got {counts.shape} "
                                    f"and {counts_neighbour.shape}")
    p_counts = np.concatenate([counts, trials - counts])
    q_counts = np.concatenate([counts_neighbour, trials - counts_neighbour])
    tests = 2 * p_counts.size
    one_sided = 1.0 - 2.0 * (1.0 - confidence) / tests  # two-sided level whose one side is (1-confidence)/tests
    p_low, p_high = clopper_pearson(p_counts, trials, one_sided)
    q_low, q_high = clopper_pearson(q_counts, trials, one_sided)
    best = AuditResult(0.0, -1, True, 0.0, 1.0, trials)
    for forward, low, high in ((True, p_low, q_high), (False, q_low, p_high)):
        with np.errstate(divide="ignore", invalid="ignore"):
            bounds = np.log(np.maximum(low - delta, 0.0) / high)
        index = int(np.argmax(bounds))
        if math.isfinite(bounds[index]) and bounds[index] > best.epsilon_lower_bound:
            best = AuditResult(float(bounds[index]), index, forward, float(low[index]), float(high[index]), trials)
    return best


@validated(samples=Array(ndim=(1,)), thresholds=Array(ndim=(1,)))
def threshold_counts(samples, thresholds) -> np.ndarray:
    r"""For scalar outputs: how many samples exceed each threshold (events :math:`\{y > t\}`).

    Each sample is placed among the sorted thresholds (``b`` of them lie below it: it exceeds exactly those), so the
    count of threshold ``j`` (in sorted order) is the number of samples with ``b > j``: O(n log k) for n samples and
    k thresholds, where sorting the samples cost O(n log n).

    Parameters
    ----------
    samples : array of shape (n,)
        The mechanism's outputs, finite, at least one.
    thresholds : array of shape (k,)
        The thresholds :math:`t`, finite, at least one, in any order.

    Returns
    -------
    numpy.ndarray of int
        Shape ``(k,)``: the number of samples strictly above each threshold, in the order given.

    Examples
    --------
    >>> threshold_counts(np.array([0.5, 2.0, 3.0, 3.0]), np.array([3.0, 1.0, -1.0]))
    array([0, 3, 4])
    """
    order = np.argsort(thresholds, kind="stable")
    below = np.searchsorted(thresholds[order], samples, side="left")  # thresholds strictly below each sample
    exceeding = samples.size - np.cumsum(np.bincount(below, minlength=thresholds.size + 1))[:-1]
    counts = np.empty(thresholds.size, dtype=exceeding.dtype)
    counts[order] = exceeding
    return counts


@validated(samples=Array(ndim=(1,), low=0), outcomes=Integer(low=1))
def outcome_counts(samples, outcomes: int) -> np.ndarray:
    r"""For discrete outputs ``0..outcomes-1``: how many samples equal each outcome (events :math:`\{y = h\}`).

    Parameters
    ----------
    samples : array of shape (n,)
        The mechanism's outputs: non-negative integers (as floats or ints; truncated to int), at least one.
    outcomes : int
        The number of outcomes, at least 1; samples at or above it are not counted.

    Returns
    -------
    numpy.ndarray of int
        Shape ``(outcomes,)``: the count of each outcome.
    """
    return np.bincount(samples.astype(int), minlength=outcomes)[:outcomes]
