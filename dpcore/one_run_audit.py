r"""One-run privacy audits (Steinke, Nasr & Jagielski 2023): a lower bound on :math:`\varepsilon` from a single run.

Put :math:`m` *canaries* in the input, each included independently with probability ½, run the mechanism **once**,
and let an auditor guess from the output which canaries were in: "in", "out" or abstain. With :math:`r` guesses of
which :math:`v` are right, an :math:`\varepsilon`-DP mechanism makes :math:`v` no larger, in distribution, than a
:math:`\mathrm{Binomial}(r, e^{\varepsilon}/(1+e^{\varepsilon}))` count: each guess is at best right as often as
randomized response at :math:`\varepsilon` would let it be, however the guesses are made. So a :math:`v` too large
for that binomial rejects :math:`\varepsilon`; the largest rejected :math:`\varepsilon` is a lower bound
(:func:`one_run_epsilon`; with :math:`\delta > 0` a further term, their Appendix D).

The price of one run is *interference*: when every canary feeds one shared release (a sum), each canary's score
carries the others' contributions as noise, and the bound stays far below the true :math:`\varepsilon`
(Keinan, Shenfeld & Ligett 2025). :func:`one_run_audit` simulates both cases, and planted bugs.

Choosing the guessing threshold (how many to guess) after looking at the outcome and reporting the best bound
breaks the guarantee; a Bonferroni correction over the thresholds tried, or choosing on one half of the canaries and
certifying on the other, keeps it (:func:`threshold_honesty`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import special

from .core.validation import EPSILON, SEED, Choice, Integer, InvalidParameterError, Real, validated

__all__ = ["OneRunAudit", "ThresholdHonesty", "one_run_epsilon", "one_run_p_value", "one_run_audit",
           "ranked_inclusion", "threshold_honesty"]

_CONFIDENCE = Real(0, 1, low_open=True, high_open=True)
_CANARIES = Integer(low=1, high=1_000_000)
_TOLERANCE = 1e-6  #: the bisection's width in ε


def _p_values(canaries: int, guesses: int, correct: int, delta: float) -> Callable[[float], float]:
    """The p-value of :func:`one_run_p_value` as a function of ε (arguments already checked).

    What ε plays no part in, the binomial coefficients of the counts below ``correct``, is computed once for every ε
    a bisection tries.
    """

    def tail(epsilon: float) -> float:  # P[Binomial(guesses, expit(ε)) >= correct]
        return float(special.bdtrc(correct - 1, guesses, special.expit(epsilon))) if correct else 1.0

    if correct == 0 or delta == 0.0:
        return lambda epsilon: min(tail(epsilon), 1.0)
    below = np.arange(correct - 1, -1, -1, dtype=float)  # v-1, v-2, ..., 0: the counts v - i for i = 1..v
    above = guesses - below
    log_choose = special.gammaln(guesses + 1.0) - special.gammaln(below + 1) - special.gammaln(above + 1)
    averages = np.arange(1, correct + 1)

    def p_value(epsilon: float) -> float:
        log_pmf = log_choose + below * special.log_expit(epsilon) + above * special.log_expit(-epsilon)
        spread = np.max(np.cumsum(np.exp(log_pmf)) / averages)  # max_i P[v-i <= B < v] / i
        return min(tail(epsilon) + 2.0 * canaries * delta * float(spread), 1.0)

    return p_value


def _check_counts(canaries: int, guesses: int, correct: int) -> None:
    if guesses > canaries:
        raise InvalidParameterError(f"guesses must be at most canaries={canaries}; got {guesses}")
    if correct > guesses:
        raise InvalidParameterError(f"correct must be at most guesses={guesses}; got {correct}")


@validated(canaries=_CANARIES, guesses=Integer(low=0), correct=Integer(low=0), epsilon=Real(low=0),
           delta=Real(0, 1, high_open=True))
def one_run_p_value(canaries: int, guesses: int, correct: int, epsilon: float, delta: float = 0.0) -> float:
    r"""The one-run audit's p-value: how likely so many right guesses are under :math:`(\varepsilon, \delta)`-DP.

    With :math:`q = e^{\varepsilon}/(1+e^{\varepsilon})` and :math:`B \sim \mathrm{Binomial}(r, q)`,

    .. math:: p = \min\Bigl(1,\; P[B \ge v] + 2m\delta\max_{1 \le i \le v}\frac{P[v - i \le B < v]}{i}\Bigr)

    (Steinke, Nasr & Jagielski 2023, Theorem 3.1 and Appendix D). Under the hypothesis the probability of at least
    :math:`v` right guesses is at most :math:`p`.

    Parameters
    ----------
    canaries : int
        :math:`m`, the number of canaries, each included independently with probability ½; 1 to 1,000,000.
    guesses : int
        :math:`r`, the guesses taken (abstentions excluded), at most ``canaries``.
    correct : int
        :math:`v`, the right guesses, at most ``guesses``.
    epsilon : float
        The :math:`\varepsilon \ge 0` of the hypothesis.
    delta : float, default 0.0
        The :math:`\delta` of the hypothesis, :math:`0 \le \delta < 1`.

    Returns
    -------
    float
        The p-value in :math:`[0, 1]` (1 when no guess is right).
    """
    _check_counts(canaries, guesses, correct)
    return _p_values(canaries, guesses, correct, delta)(epsilon)


@validated(canaries=_CANARIES, guesses=Integer(low=0), correct=Integer(low=0), delta=Real(0, 1, high_open=True),
           confidence=_CONFIDENCE)
def one_run_epsilon(canaries: int, guesses: int, correct: int, delta: float = 0.0, confidence: float = 0.95) -> float:
    r"""The one-run audit's lower bound on :math:`\varepsilon` (Steinke, Nasr & Jagielski 2023).

    **Guarantee.** If the mechanism is :math:`(\varepsilon, \delta)`-DP with respect to each canary, and the
    ``canaries`` were included independently with probability ½ each, then whatever the guesser does the returned
    value exceeds :math:`\varepsilon` with probability at most ``1 - confidence``: it is a lower bound on the
    mechanism's :math:`\varepsilon` with probability at least ``confidence``.

    **Test.** :math:`\varepsilon` is rejected when the p-value of :func:`one_run_p_value` (their Theorem 3.1, the
    computation of their Appendix D),

    .. math:: p(\varepsilon) = P[B \ge v] + 2m\delta\max_{1\le i\le v}\frac{P[v-i \le B < v]}{i},\qquad
              B \sim \mathrm{Binomial}\Bigl(r, \frac{e^{\varepsilon}}{1+e^{\varepsilon}}\Bigr),

    is below ``1 - confidence``; for :math:`\delta = 0` only the binomial upper tail remains. The bound is the
    largest rejected :math:`\varepsilon`, found by bisection to within :math:`10^{-6}` (the value returned is
    rejected; the paper's reference code searches the same way).

    Parameters
    ----------
    canaries : int
        :math:`m`, the number of canaries; 1 to 1,000,000.
    guesses : int
        :math:`r`, the guesses taken (abstentions excluded), at most ``canaries``.
    correct : int
        :math:`v`, the right guesses, at most ``guesses``.
    delta : float, default 0.0
        The :math:`\delta` of the claim audited, :math:`0 \le \delta < 1` (0 for pure DP).
    confidence : float, default 0.95
        The confidence level in :math:`(0, 1)`.

    Returns
    -------
    float
        The lower bound, :math:`\ge 0`; 0.0 when no :math:`\varepsilon > 0` is rejected.

    Examples
    --------
    >>> round(one_run_epsilon(1000, 100, 75, delta=1e-4), 3)  # their Appendix D's example
    0.673
    """
    _check_counts(canaries, guesses, correct)
    level = 1.0 - confidence

    p_value, tail = _p_values(canaries, guesses, correct, delta), _p_values(canaries, guesses, correct, 0.0)

    def rejected(epsilon: float) -> bool:
        # The p-value adds a non-negative term to the tail: where the tail alone is not below level, neither is it.
        return (delta == 0.0 or tail(epsilon) < level) and p_value(epsilon) < level

    if not rejected(0.0):
        return 0.0
    low, high = 0.0, 1.0
    while rejected(high):  # p(ε) -> P[Binomial(r, 1) >= v] = 1 as ε grows, so this stops (by ε = 64)
        low, high = high, 2.0 * high
    while high - low > _TOLERANCE:
        middle = 0.5 * (low + high)
        if rejected(middle):
            low = middle
        else:
            high = middle
    return low


def _pure_bounds(correct: np.ndarray, guesses: np.ndarray, level: float) -> np.ndarray:
    r"""The :math:`\delta = 0` bound of :func:`one_run_epsilon` in closed form, element-wise.

    :math:`P[B \ge v]` is the regularised incomplete Beta function :math:`I_q(v, r - v + 1)`, increasing in
    :math:`q`, so the largest rejected :math:`q` solves :math:`I_q(v, r-v+1) = \text{level}` (a one-sided
    Clopper–Pearson lower bound on the accuracy) and the bound is its logit, or 0 below ½. Each distinct
    ``(correct, guesses)`` pair is solved once.
    """
    correct, guesses = np.broadcast_arrays(np.asarray(correct, dtype=np.int64), np.asarray(guesses, dtype=np.int64))
    keys, inverse = np.unique(correct * (int(guesses.max(initial=0)) + 1) + guesses, return_inverse=True)
    v, r = np.divmod(keys, int(guesses.max(initial=0)) + 1)
    v, r = v.astype(float), r.astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        accuracy = np.where(v > 0, special.betaincinv(np.maximum(v, 1.0), r - v + 1, level), 0.0)
        bounds = np.where(accuracy > 0.5, special.logit(np.minimum(accuracy, 1.0)), 0.0)
    return bounds[inverse].reshape(correct.shape)


# ---------------------------------------------------------------------------------------------------- simulation

@dataclass(frozen=True)
class OneRunAudit:
    r"""One simulated one-run audit.

    Attributes
    ----------
    canaries : int
        :math:`m`.
    guesses : int
        :math:`r`, the guesses taken.
    correct : int
        :math:`v`, the right ones.
    epsilon_lower_bound : float
        :func:`one_run_epsilon` of these counts (:math:`\delta = 0`).
    confidence : float
        Its confidence level.
    included : numpy.ndarray of bool
        Which canaries were in, shape ``(m,)``.
    scores : numpy.ndarray of float
        The auditor's score of each canary (higher: more likely in).
    guessed : numpy.ndarray of int
        Each canary's guess: 1 "in", -1 "out", 0 abstained.
    """

    canaries: int
    guesses: int
    correct: int
    epsilon_lower_bound: float
    confidence: float
    included: np.ndarray
    scores: np.ndarray
    guessed: np.ndarray


MODES = ("isolated", "aggregate")  #: one release per canary, or one shared noisy sum
RELEASES = ("randomized-response", "laplace")  #: the release of each canary in the isolated mode


def _simulate(m: int, epsilon: float, mode: str, bug: bool, seed: int, release: str
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The one run of :func:`one_run_audit`: which canaries are in, their scores, and their ranking.

    The ranking is by score, ascending, ties in random order; the guesses take no part in the run.
    """
    rng = np.random.default_rng([seed, 43])
    included = rng.integers(0, 2, m, dtype=bool)
    spent = 2.0 * epsilon if bug else epsilon  # BROKEN when bug: calibrated for sensitivity 1/2
    if mode == "aggregate":
        values = rng.uniform(-1.0, 1.0, m)
        release_value = values[included].sum() + rng.laplace(0.0, 1.0 / spent)
        scores = values * (release_value - values.sum() / 2)
    elif release == "laplace":
        scores = included + rng.laplace(0.0, 1.0 / spent, m)
    else:
        kept = rng.random(m) < special.expit(spent)
        scores = np.where(kept, included, ~included).astype(float)
    return included, scores, np.lexsort((rng.random(m), scores))


@validated(m=Integer(low=1, high=100_000), guesses_in=Integer(low=0), guesses_out=Integer(low=0), epsilon=EPSILON,
           mode=Choice(MODES), bug=Choice((False, True)), seed=SEED, release=Choice(RELEASES),
           confidence=_CONFIDENCE)
def one_run_audit(m: int, guesses_in: int, guesses_out: int, epsilon: float, mode: str = "isolated",
                  bug: bool = False, seed: int = 0, release: str = "randomized-response",
                  confidence: float = 0.95) -> OneRunAudit:
    r"""Simulate a one-run audit of an :math:`\varepsilon`-DP mechanism on ``m`` canaries (seeded).

    Each canary is included with probability ½. The auditor scores each canary from the one output, guesses "in"
    for the ``guesses_in`` highest scores and "out" for the ``guesses_out`` lowest (ties broken at random), abstains
    on the rest, and bounds :math:`\varepsilon` with :func:`one_run_epsilon` (:math:`\delta = 0`).

    * ``"isolated"``: each canary gets its own :math:`\varepsilon`-DP release of its bit :math:`b_i` (in or out),
      and its score is that release: randomized response (the true bit with probability
      :math:`e^{\varepsilon}/(1+e^{\varepsilon})`, else the other) or :math:`b_i + \mathrm{Lap}(1/\varepsilon)`.
      Canaries do not interfere, and with every canary guessed under randomized response the number right is exactly
      :math:`\mathrm{Binomial}(m, e^{\varepsilon}/(1+e^{\varepsilon}))`: the audit is tight.
    * ``"aggregate"``: one release for all, :math:`y = \sum_i b_i c_i + \mathrm{Lap}(1/\varepsilon)` with public
      canary values :math:`c_i` drawn uniformly from :math:`[-1, 1]` (sensitivity 1, so :math:`\varepsilon`-DP for
      each canary), and canary :math:`i`'s score :math:`c_i\,(y - \sum_j c_j/2)`: informative (canary :math:`i`
      moves it by :math:`\pm c_i^2/2` on average) but shared, since every score is the same draw seen through
      :math:`c_i`, and the other canaries' bits act as noise (interference; Keinan, Shenfeld & Ligett 2025).

    ``bug=True`` plants a bug that breaks the claim: the noise is calibrated for sensitivity ½ instead of 1, so the
    mechanism spends :math:`2\varepsilon` (Laplace scale :math:`1/(2\varepsilon)`; randomized response keeps the bit
    with probability :math:`e^{2\varepsilon}/(1+e^{2\varepsilon})`).

    Parameters
    ----------
    m : int
        The number of canaries, 1 to 100,000.
    guesses_in, guesses_out : int
        :math:`k_+` and :math:`k_-`, non-negative, :math:`k_+ + k_- \le m`.
    epsilon : float
        The :math:`\varepsilon > 0` the mechanism claims.
    mode : {"isolated", "aggregate"}, default "isolated"
        One release per canary, or one shared noisy sum.
    bug : bool, default False
        Plant the bug described above.
    seed : int, default 0
        Seed of the simulation (non-negative).
    release : {"randomized-response", "laplace"}, default "randomized-response"
        The per-canary release of the isolated mode (the aggregate mode always adds Laplace noise).
    confidence : float, default 0.95
        The bound's confidence level in :math:`(0, 1)`.

    Returns
    -------
    OneRunAudit
        The counts :math:`r, v`, the bound, and the canaries' inclusion, scores and guesses.
    """
    if guesses_in + guesses_out > m:
        raise InvalidParameterError(f"guesses_in + guesses_out must be at most m={m}; got {guesses_in} + "
                                    f"{guesses_out}")
    included, scores, order = _simulate(m, epsilon, mode, bug, seed, release)
    guessed = np.zeros(m, dtype=np.int8)
    guessed[order[m - guesses_in:]] = 1
    guessed[order[:guesses_out]] = -1
    guesses = guesses_in + guesses_out
    correct = int(np.sum(guessed[included] == 1) + np.sum(guessed[~included] == -1))
    bound = one_run_epsilon(m, guesses, correct, 0.0, confidence)
    return OneRunAudit(m, guesses, correct, bound, confidence, included, scores, guessed)


@validated(m=Integer(low=1, high=100_000), epsilon=EPSILON, mode=Choice(MODES), bug=Choice((False, True)), seed=SEED,
           release=Choice(RELEASES))
def ranked_inclusion(m: int, epsilon: float, mode: str = "isolated", bug: bool = False, seed: int = 0,
                     release: str = "randomized-response") -> np.ndarray:
    r"""Which canaries were in, ranked as the auditor of :func:`one_run_audit` ranks them: the same simulated run.

    The run (canaries, noise, the random order of ties) depends on the arguments here, not on the guesses, so one
    ranking serves every :math:`(k_+, k_-)`: the audit of :func:`one_run_audit` with those guesses has
    :math:`v` = ``ranked[m - k_+:].sum() + (~ranked[:k_-]).sum()`` right guesses (its top :math:`k_+` said "in",
    its bottom :math:`k_-` said "out").

    Parameters
    ----------
    m : int
        The number of canaries, 1 to 100,000.
    epsilon : float
        The :math:`\varepsilon > 0` the mechanism claims.
    mode : {"isolated", "aggregate"}, default "isolated"
        One release per canary, or one shared noisy sum.
    bug : bool, default False
        Plant the bug of :func:`one_run_audit`.
    seed : int, default 0
        Seed of the simulation (non-negative).
    release : {"randomized-response", "laplace"}, default "randomized-response"
        The per-canary release of the isolated mode.

    Returns
    -------
    numpy.ndarray of bool
        Shape ``(m,)``: whether each canary was in, from the lowest score to the highest.

    Examples
    --------
    >>> ranked = ranked_inclusion(1000, 1.0, seed=0)
    >>> int(ranked[-100:].sum() + (~ranked[:100]).sum()) == one_run_audit(1000, 100, 100, 1.0, seed=0).correct
    True
    """
    included, _, order = _simulate(m, epsilon, mode, bug, seed, release)
    return included[order]


@dataclass(frozen=True)
class ThresholdHonesty:
    r"""How often repeated audits of a correct mechanism overstate its :math:`\varepsilon`, by choice of threshold.

    Attributes
    ----------
    epsilon : float
        The mechanism's true :math:`\varepsilon`.
    confidence : float
        The confidence each bound claims.
    thresholds : numpy.ndarray of int
        The thresholds tried: numbers :math:`k` of top scores guessed "in".
    naive, bonferroni, split : numpy.ndarray of float
        Each repetition's bound: the best over the thresholds on the same data at the uncorrected level; the best at
        level :math:`(1 - \text{confidence})/K` for :math:`K` thresholds; chosen on one half of the canaries and
        certified on the other.
    naive_rate, bonferroni_rate, split_rate : float
        The fraction of repetitions whose bound exceeds ``epsilon`` (a correct method: at most
        ``1 - confidence``, up to sampling error).
    """

    epsilon: float
    confidence: float
    thresholds: np.ndarray
    naive: np.ndarray
    bonferroni: np.ndarray
    split: np.ndarray
    naive_rate: float
    bonferroni_rate: float
    split_rate: float


def _top_correct(scores: np.ndarray, included: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each row, the scores sorted decreasing, and how many of the top ``k`` canaries are in.

    The second array has one column per ``k`` of ``counts``: shape ``(rows, counts.size)``.
    """
    order = np.argsort(-scores, axis=1)
    hits = np.cumsum(np.take_along_axis(included, order, axis=1), axis=1)
    return np.take_along_axis(scores, order, axis=1), hits[:, counts - 1]


@validated(epsilon=EPSILON, canaries=Integer(low=20, high=10_000), repetitions=Integer(low=1, high=10_000),
           thresholds=Integer(low=2, high=100), confidence=_CONFIDENCE, seed=SEED)
def threshold_honesty(epsilon: float, canaries: int = 500, repetitions: int = 200, thresholds: int = 30,
                      confidence: float = 0.95, seed: int = 0) -> ThresholdHonesty:
    r"""How often one-run audits of a **correct** mechanism overstate :math:`\varepsilon`, by choice of threshold.

    The audit is repeated ``repetitions`` times (vectorised, seeded) and its bound compared with the true
    :math:`\varepsilon`, for three ways of choosing the guessing threshold.

    Each repetition: ``canaries`` canaries, each in with probability ½, each released as
    :math:`b_i + \mathrm{Lap}(1/\varepsilon)` (isolated, exactly :math:`\varepsilon`-DP, and tight: above 1 a score's
    likelihood ratio is exactly :math:`e^{\varepsilon}`); the auditor guesses "in" for the :math:`k` highest scores,
    :math:`k` from a geometric grid of ``thresholds`` values between 10 and ``canaries``, and bounds
    :math:`\varepsilon` with :func:`one_run_epsilon` (:math:`\delta = 0`, computed in closed form: the logit of the
    one-sided Clopper–Pearson lower bound on the accuracy :math:`v/k`).

    * *naive*: the largest bound over the grid, each at level ``1 - confidence``: the threshold is picked on the
      same data and nothing pays for the choice, so the bound exceeds :math:`\varepsilon` far more often than
      ``1 - confidence``;
    * *bonferroni*: the largest bound over the grid, each at level :math:`(1 - \text{confidence})/K` (a union bound
      over the :math:`K` thresholds): valid;
    * *split*: the threshold (a score cut-off) chosen as the naive best on the first half of the canaries, then
      certified at level ``1 - confidence`` on the second half, whose scores played no part in the choice: valid.

    Parameters
    ----------
    epsilon : float
        The mechanism's (true) :math:`\varepsilon > 0`.
    canaries : int, default 500
        Canaries per audit, 20 to 10,000.
    repetitions : int, default 200
        Audits, 1 to 10,000.
    thresholds : int, default 30
        Grid points :math:`k` tried, 2 to 100 (fewer after rounding to distinct integers).
    confidence : float, default 0.95
        The confidence each bound claims, in :math:`(0, 1)`.
    seed : int, default 0
        Seed of the simulation (non-negative).

    Returns
    -------
    ThresholdHonesty
        The three bounds of every repetition and how often each exceeds ``epsilon``.
    """
    rng = np.random.default_rng([seed, 4343])
    level = 1.0 - confidence
    grid = np.unique(np.round(np.geomspace(10, canaries, thresholds)).astype(np.int64))
    included = rng.integers(0, 2, (repetitions, canaries), dtype=bool)
    scores = included + rng.laplace(0.0, 1.0 / epsilon, (repetitions, canaries))

    _, hits = _top_correct(scores, included, grid)
    naive = _pure_bounds(hits, grid, level).max(axis=1)
    bonferroni = _pure_bounds(hits, grid, level / grid.size).max(axis=1)

    half = canaries // 2
    first = grid[grid <= half]
    ranked, first_hits = _top_correct(scores[:, :half], included[:, :half], first)
    chosen = first[np.argmax(_pure_bounds(first_hits, first, level), axis=1)]
    cutoff = ranked[np.arange(repetitions), chosen - 1][:, None]
    guessed = scores[:, half:] >= cutoff
    split = _pure_bounds((guessed & included[:, half:]).sum(axis=1), guessed.sum(axis=1), level)

    def rate(bounds: np.ndarray) -> float:
        return float(np.mean(bounds > epsilon))

    return ThresholdHonesty(epsilon, confidence, grid, naive, bonferroni, split, rate(naive), rate(bonferroni),
                            rate(split))
