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

**Gaussian DP.** Assuming the mechanism's trade-off curve is Gaussian, :math:`f_\mu(\alpha) =
\Phi(\Phi^{-1}(1-\alpha) - \mu)` (Dong, Roth & Su 2022), every test of :math:`X` against :math:`X'` with error rates
FPR and FNR shows :math:`\mu \ge \Phi^{-1}(1 - \mathrm{FPR}) - \Phi^{-1}(\mathrm{FNR})`; with upper confidence bounds
on both rates this is a lower bound on :math:`\mu`, hence on :math:`\varepsilon` at any :math:`\delta`
(:func:`gaussian_dp_lower_bound`, :func:`gaussian_dp_fit`; Nasr et al. 2023): much tighter than the bound above, and
only as true as the assumption. :func:`tradeoff_points` gives the empirical trade-off curve in simultaneous confidence
boxes. The one-run audit is :mod:`dpcore.one_run_audit`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

from .accounting import gaussian_epsilon
from .core.validation import DELTA, Array, Integer, InvalidParameterError, Real, check_same_length, validated

__all__ = ["AuditResult", "GaussianDPFit", "TradeoffPoints", "clopper_pearson", "epsilon_lower_bound",
           "threshold_counts", "outcome_counts", "gaussian_dp_lower_bound", "gaussian_dp_fit", "tradeoff_points"]

_CONFIDENCE = Real(0, 1, low_open=True, high_open=True)


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


def _thresholds_below(ordered: np.ndarray, samples: np.ndarray) -> np.ndarray:
    """How many of the sorted thresholds ``ordered`` lie strictly below each sample, as ``np.searchsorted``.

    The same integers as ``np.searchsorted(ordered, samples, side="left")``. On an evenly spaced grid the count is
    guessed from the spacing and checked against the thresholds around it; a sample whose guess fails the check
    (rounding at a threshold, or a grid far from even) is searched, so the answer is the search's on any grid.
    """
    span = float(ordered[-1] - ordered[0])
    scale = (ordered.size - 1) / span if span > 0 else math.inf
    if not math.isfinite(scale):
        return np.searchsorted(ordered, samples, side="left")
    with np.errstate(over="ignore"):  # a far sample's guess overflows to ±inf, clipped to the ends
        below = np.clip(np.ceil((samples - ordered[0]) * scale), 0, ordered.size).astype(np.intp)
    padded = np.concatenate([[-np.inf], ordered, [np.inf]])  # threshold b - 1 is padded[b], threshold b padded[b + 1]
    wrong = np.flatnonzero((padded[below] >= samples) | (padded[1:][below] < samples))
    below[wrong] = np.searchsorted(ordered, samples[wrong], side="left")
    return below


@validated(samples=Array(ndim=(1,)), thresholds=Array(ndim=(1,)))
def threshold_counts(samples, thresholds) -> np.ndarray:
    r"""For scalar outputs: how many samples exceed each threshold (events :math:`\{y > t\}`).

    Each sample is placed among the sorted thresholds (``b`` of them lie below it: it exceeds exactly those), so the
    count of threshold ``j`` (in sorted order) is the number of samples with ``b > j``: O(n log k) for n samples and
    k thresholds at worst, where sorting the samples cost O(n log n); O(n) for an evenly spaced grid (``b`` guessed
    from the spacing, then checked exactly against the thresholds).

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
    below = _thresholds_below(thresholds[order], samples)
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


# ---------------------------------------------------------------------------------------------- Gaussian DP audits

def _upper_bounds(errors: np.ndarray, totals: np.ndarray, level: float) -> np.ndarray:
    """One-sided Clopper–Pearson upper bounds at level ``level`` on the rates ``errors / totals``.

    The ``1 - level`` quantile of Beta(errors + 1, totals - errors), and 1 where every trial erred.
    """
    errors, totals = np.broadcast_arrays(errors, totals)
    upper = np.ones(errors.shape)
    some = errors < totals
    upper[some] = _beta_quantile(1.0 - level, errors[some] + 1, totals[some] - errors[some])
    return upper


def _gaussian_mu_bounds(false_positives, negatives, false_negatives, positives, confidence: float) -> np.ndarray:
    r"""Each test's bound :math:`\Phi^{-1}(1 - \overline{\mathrm{FPR}}) - \Phi^{-1}(\overline{\mathrm{FNR}})`.

    Bonferroni over the tests and both rates; ``-inf`` where a rate's upper bound is 1.
    """
    level = (1.0 - confidence) / (2 * false_positives.size)
    fpr = _upper_bounds(false_positives, negatives, level)
    fnr = _upper_bounds(false_negatives, positives, level)
    usable = (fpr < 1) & (fnr < 1)
    bounds = np.full(fpr.shape, -np.inf)
    bounds[usable] = -special.ndtri(fpr[usable]) - special.ndtri(fnr[usable])
    return bounds


def _check_table(names: tuple[str, str, str, str], errors: tuple[np.ndarray, np.ndarray],
                 totals: tuple[np.ndarray, np.ndarray]) -> None:
    """Raise InvalidParameterError unless the error counts and their totals fit together.

    The error counts must have one length, each total be a number or have that length, and no count exceed its total.
    """
    check_same_length(names[::2], errors)
    for error_name, total_name, error, total in zip(names[::2], names[1::2], errors, totals):
        if total.ndim and total.size != error.size:
            raise InvalidParameterError(f"{total_name} must be a number or have one entry per entry of {error_name}; "
                                        f"got shapes {total.shape} and {error.shape}")
        if np.any(error > total):
            raise InvalidParameterError(f"{error_name} must be at most {total_name}; got {error_name} up to "
                                        f"{np.max(error):g}")


@validated(false_positives=Array(ndim=(1,), low=0), negatives=Array(ndim=(0, 1), low=1),
           false_negatives=Array(ndim=(1,), low=0), positives=Array(ndim=(0, 1), low=1), confidence=_CONFIDENCE)
def gaussian_dp_lower_bound(false_positives, negatives, false_negatives, positives, confidence: float = 0.95
                            ) -> float:
    r"""A lower confidence bound on :math:`\mu`, **assuming** the mechanism is :math:`\mu`-Gaussian DP.

    Each entry is one test of :math:`X` (negative) against :math:`X'` (positive), for example one threshold: it
    wrongly said :math:`X'` in ``false_positives`` of ``negatives`` runs on :math:`X`, and wrongly said :math:`X` in
    ``false_negatives`` of ``positives`` runs on :math:`X'`. If the mechanism's trade-off curve is the Gaussian one,
    :math:`f_\mu(\alpha) = \Phi(\Phi^{-1}(1-\alpha) - \mu)` (Dong, Roth & Su 2022), every test has
    :math:`\mathrm{FNR} \ge f_\mu(\mathrm{FPR})`, that is :math:`\mu \ge \Phi^{-1}(1-\mathrm{FPR}) -
    \Phi^{-1}(\mathrm{FNR})`, and both terms decrease in the rates. With one-sided Clopper–Pearson upper bounds
    :math:`\overline{\mathrm{FPR}}, \overline{\mathrm{FNR}}`, each at level :math:`(1-\text{confidence})/(2K)` for
    :math:`K` tests (Bonferroni over the tests and both rates),

    .. math:: \underline\mu = \max\Bigl(0,\; \max_{\text{tests}}\;
              \Phi^{-1}(1 - \overline{\mathrm{FPR}}) - \Phi^{-1}(\overline{\mathrm{FNR}})\Bigr)

    is at most the true :math:`\mu` with probability at least ``confidence`` (Nasr et al. 2023). The assumption is
    the price of the tightness: for a mechanism whose curve is not Gaussian (Laplace, say) :math:`\underline\mu`
    bounds nothing; only :func:`epsilon_lower_bound` assumes nothing.

    Parameters
    ----------
    false_positives : array of shape (K,)
        Per test, the runs on :math:`X` it called :math:`X'` (counts in ``[0, negatives]``).
    negatives : float or array of shape (K,)
        The runs on :math:`X` (at least 1), for every test or per test.
    false_negatives : array of shape (K,)
        Per test, the runs on :math:`X'` it called :math:`X` (counts in ``[0, positives]``).
    positives : float or array of shape (K,)
        The runs on :math:`X'` (at least 1), for every test or per test.
    confidence : float, default 0.95
        Simultaneous confidence over the tests, in :math:`(0, 1)`.

    Returns
    -------
    float
        :math:`\underline\mu \ge 0` (0 when no test separates the inputs).

    Examples
    --------
    >>> round(gaussian_dp_lower_bound([3085], 10_000, [3085], 10_000), 3)  # μ = 1 at its middle threshold
    0.949
    """
    _check_table(("false_positives", "negatives", "false_negatives", "positives"),
                 (false_positives, false_negatives), (negatives, positives))
    bounds = _gaussian_mu_bounds(false_positives, negatives, false_negatives, positives, confidence)
    return max(0.0, float(np.max(bounds)))


@dataclass(frozen=True)
class GaussianDPFit:
    r"""The Gaussian-DP audit of draws on two neighbouring inputs, beside the assumption-free one.

    Attributes
    ----------
    mu_lower : float
        :func:`gaussian_dp_lower_bound` over the tests "say :math:`X'`" on every event and every complement.
    epsilon : float
        The :math:`\varepsilon` of :math:`\underline\mu`-Gaussian DP at ``delta`` (``accounting.gaussian_epsilon``;
        0 when :math:`\underline\mu = 0`): a lower bound on :math:`\varepsilon` **if** the trade-off curve is
        Gaussian.
    epsilon_clopper_pearson : float
        :func:`epsilon_lower_bound` of the same counts at the same ``delta``: a lower bound with no assumption.
    delta : float
        The :math:`\delta` of both.
    event : int
        The event behind :math:`\underline\mu` (the order given, complements after; -1 if none).
    """

    mu_lower: float
    epsilon: float
    epsilon_clopper_pearson: float
    delta: float
    event: int


@validated(counts=Array(ndim=(1,), low=0), counts_neighbour=Array(ndim=(1,), low=0), trials=Integer(low=1),
           delta=DELTA, confidence=_CONFIDENCE)
def gaussian_dp_fit(counts, counts_neighbour, trials: int, delta: float, confidence: float = 0.95) -> GaussianDPFit:
    r"""Fit Gaussian DP to event counts on two neighbouring inputs, and compare with the Clopper–Pearson bound.

    The counts are those of :func:`epsilon_lower_bound` (how many of ``trials`` draws on :math:`X` and on :math:`X'`
    fell in each event, such as :func:`threshold_counts`). Each event :math:`E` and each complement gives the test
    "say :math:`X'` on :math:`E`" (false positives: the draws on :math:`X` in :math:`E`; false negatives: those on
    :math:`X'` outside it). The reverse test, "say :math:`X` on :math:`E`", has the complement's two error rates
    swapped, and the Gaussian bound is symmetric in them, so it would add nothing but a wider Bonferroni split.
    :func:`gaussian_dp_lower_bound` bounds :math:`\mu` over the :math:`2K` tests at once, and
    ``accounting.gaussian_epsilon`` turns
    :math:`\underline\mu` into :math:`\varepsilon` at ``delta`` (a :math:`\mu`-GDP mechanism with :math:`\mu > 0` is
    :math:`(\varepsilon, \delta)`-DP only for :math:`\delta > 0`). Assumes the trade-off curve is Gaussian; the
    Clopper–Pearson bound beside it does not.

    Parameters
    ----------
    counts, counts_neighbour : arrays of shape (K,)
        Event counts on :math:`X` and :math:`X'`, each in ``[0, trials]``.
    trials : int
        Draws per input, at least 1.
    delta : float
        The :math:`\delta` at which both bounds are stated, :math:`0 < \delta < 1`.
    confidence : float, default 0.95
        Confidence of each bound, in :math:`(0, 1)`.

    Returns
    -------
    GaussianDPFit
        :math:`\underline\mu`, its :math:`\varepsilon`, the Clopper–Pearson :math:`\varepsilon`, and the event
        behind :math:`\underline\mu`.
    """
    if counts.shape != counts_neighbour.shape:
        raise InvalidParameterError(f"counts and counts_neighbour must have the same shape; got {counts.shape} "
                                    f"and {counts_neighbour.shape}")
    if max(np.max(counts), np.max(counts_neighbour)) > trials:
        raise InvalidParameterError(f"counts and counts_neighbour must be at most trials={trials}")
    false_positives = np.concatenate([counts, trials - counts])  # draws on X in each event, then each complement
    false_negatives = np.concatenate([trials - counts_neighbour, counts_neighbour])  # draws on X' outside them
    total = np.array(float(trials))
    bounds = _gaussian_mu_bounds(false_positives, total, false_negatives, total, confidence)
    best = int(np.argmax(bounds))
    mu = max(0.0, float(bounds[best]))
    reference = epsilon_lower_bound(counts, counts_neighbour, trials, delta, confidence).epsilon_lower_bound
    if mu == 0.0:
        return GaussianDPFit(0.0, 0.0, reference, delta, -1)
    return GaussianDPFit(mu, gaussian_epsilon(mu, delta), reference, delta, best)


@dataclass(frozen=True)
class TradeoffPoints:
    r"""Empirical trade-off points with simultaneous confidence boxes.

    Attributes
    ----------
    fpr, fnr : numpy.ndarray
        Per event, the test "say :math:`X'` on the event": its false-positive rate (draws on :math:`X` in it) and
        false-negative rate (draws on :math:`X'` outside it).
    fpr_low, fpr_high, fnr_low, fnr_high : numpy.ndarray
        Clopper–Pearson intervals that hold for every event and both rates at once with probability at least
        ``confidence``.
    confidence : float
        Their simultaneous confidence.
    """

    fpr: np.ndarray
    fnr: np.ndarray
    fpr_low: np.ndarray
    fpr_high: np.ndarray
    fnr_low: np.ndarray
    fnr_high: np.ndarray
    confidence: float


@validated(counts=Array(ndim=(1,), low=0), counts_neighbour=Array(ndim=(1,), low=0), trials=Integer(low=1),
           confidence=_CONFIDENCE)
def tradeoff_points(counts, counts_neighbour, trials: int, confidence: float = 0.95) -> TradeoffPoints:
    r"""The empirical trade-off curve: each event's test as a point (FPR, FNR), in a simultaneous confidence box.

    For the test "say :math:`X'` when the output is in the event" (for the events :math:`\{y > t\}` of
    :func:`threshold_counts`: the threshold test), :math:`\mathrm{FPR} = P[M(X) \in E]` and
    :math:`\mathrm{FNR} = 1 - P[M(X') \in E]`. Each rate gets a two-sided Clopper–Pearson interval at level
    :math:`1 - (1 - \text{confidence})/(2K)` for :math:`K` events, so all :math:`2K` intervals hold at once with
    probability at least ``confidence`` (Bonferroni). An :math:`(\varepsilon, \delta)`-DP mechanism's points lie on
    or above its trade-off function :math:`f_{\varepsilon,\delta}` (``accounting.dp_tradeoff``); a box wholly below
    that curve shows a violation. Swap the two inputs for the reverse tests.

    Parameters
    ----------
    counts, counts_neighbour : arrays of shape (K,)
        How many of ``trials`` draws on :math:`X` and on :math:`X'` fell in each event, each in ``[0, trials]``.
    trials : int
        Draws per input, at least 1.
    confidence : float, default 0.95
        Simultaneous confidence over all events and both rates, in :math:`(0, 1)`.

    Returns
    -------
    TradeoffPoints
        The points and their boxes, one per event, in the order given.
    """
    if counts.shape != counts_neighbour.shape:
        raise InvalidParameterError(f"counts and counts_neighbour must have the same shape; got {counts.shape} "
                                    f"and {counts_neighbour.shape}")
    level = 1.0 - (1.0 - confidence) / (2 * counts.size)
    fpr_low, fpr_high = clopper_pearson(counts, trials, level)
    in_low, in_high = clopper_pearson(counts_neighbour, trials, level)
    return TradeoffPoints(counts / trials, 1.0 - counts_neighbour / trials, fpr_low, fpr_high, 1.0 - in_high,
                          1.0 - in_low, confidence)
