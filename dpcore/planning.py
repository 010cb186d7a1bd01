r"""Choosing ε: from the accuracy each planned release needs to the budget, its total, its split and its risk.

A *plan* is a list of releases on one data set, each with a target: within :math:`\pm t` of the exact value with
probability :math:`c`. Four kinds, under replace-one neighbours (data sets of equal size differing in one person):

- *count*: sensitivity 1; Laplace noise (:math:`\varepsilon`-DP) or Gaussian noise (:math:`(\varepsilon, \delta)`-DP).
- *mean* of :math:`n` values clipped to the public range :math:`[a, b]` (:math:`n` public): sensitivity
  :math:`(b - a)/n`.
- *histogram* of ``bins`` counts: one person moves one count down and another up, :math:`\ell_1` sensitivity 2 and
  :math:`\ell_2` sensitivity :math:`\sqrt 2`; the target holds for every bin at once, so each bin is within
  :math:`\pm t` with probability :math:`c^{1/B}`.
- *quantile*: the exponential mechanism on ``grid`` public values of :math:`[a, b]` with the rank score
  :math:`-|\mathrm{rank}(y) - qn|` (sensitivity 1), :math:`\varepsilon`-DP (McSherry & Talwar 2007); its target is in
  ranks (people): the released value's rank error is at most :math:`t` more than the best grid value's, with
  probability at least :math:`c` (Dwork & Roth 2014, Thm 3.11: :math:`t = \frac{2}{\varepsilon}\ln\frac{G}{1-c}`).
  A bound, not an exact law: the release is at least as accurate as stated.

A plan's total is given three ways (:func:`plan_for`): *basic* composition (:math:`\sum\varepsilon_i,
\sum\delta_i`), *zCDP* (:math:`\rho_i` add: :math:`\varepsilon^2/2` for a pure release,
:math:`\Delta_2^2/2\sigma^2` for a Gaussian one, Bun & Steinke 2016; converted by Canonne, Kamath & Steinke 2020)
and the *numerical* composition of the releases' privacy loss distributions (:mod:`dpcore.privacy_loss`, an
upper bound within :math:`kh` of exact).
The Gaussian releases share the plan's :math:`\delta` equally, so every total is stated at the same :math:`\delta`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
from scipy import optimize, special, stats

from . import accounting, privacy_loss
from .core.randomness import child_generator
from .core.validation import EPSILON, Array, Choice, InstanceOf, Integer, InvalidParameterError, Real, Text, validated

__all__ = ["KINDS", "MECHANISMS", "Release", "Calibration", "calibrate", "at_epsilon", "coverage", "Total", "Plan",
           "plan_for", "split_budget", "Risk", "attacker_risk", "posterior", "roc", "parse_plan", "plan_text",
           "WORKED_EXAMPLE", "MAX_RELEASES"]

KINDS = ("count", "mean", "histogram", "quantile")
MECHANISMS = ("laplace", "gaussian")
#: At most this many releases in one plan (a page's plan stays one screen; each costs a simulation).
MAX_RELEASES = 8
MAX_BINS = 100
_CONFIDENCE = Real(0.5, 1, high_open=True)
_TARGET = Real(low=0, low_open=True, high=1e12)


@dataclass(frozen=True)
class Release:
    r"""One planned release and its target: within :math:`\pm` ``error`` with probability ``confidence``.

    kind: "count", "mean", "histogram" or "quantile"; mechanism: "laplace" (pure DP: Laplace noise, the exponential
    mechanism for a quantile) or "gaussian"; lower, upper: a mean's or quantile's public range; n: the number of people
    (public; a mean's divisor, a quantile's simulated data); bins: a histogram's; grid: a quantile's candidate values.
    Validated on construction (:class:`InvalidParameterError` naming the field).
    """

    kind: str
    error: float
    confidence: float = 0.95
    mechanism: str = "laplace"
    lower: float = 0.0
    upper: float = 1.0
    n: int = 1000
    bins: int = 10
    grid: int = 1000

    def __post_init__(self) -> None:
        checks = dict(kind=Choice(KINDS), error=_TARGET, confidence=_CONFIDENCE, mechanism=Choice(MECHANISMS),
                      lower=Real(-1e12, 1e12), upper=Real(-1e12, 1e12), n=Integer(1, 10**9),
                      bins=Integer(1, MAX_BINS), grid=Integer(2, 10**6))
        for name, constraint in checks.items():
            object.__setattr__(self, name, constraint.check(name, getattr(self, name)))
        if self.kind in ("mean", "quantile") and not self.upper > self.lower:
            raise InvalidParameterError(f"upper must be greater than lower={self.lower:g}; got {self.upper!r}")
        if self.kind == "quantile" and self.mechanism != "laplace":
            raise InvalidParameterError("mechanism must be 'laplace' for a quantile (the exponential mechanism is "
                                        f"pure DP; there is no Gaussian quantile here); got {self.mechanism!r}")
        if self.kind == "quantile" and self.error > self.n:
            raise InvalidParameterError(f"error must be at most n={self.n} for a quantile (it counts people); "
                                        f"got {self.error!r}")

    @property
    def sensitivity(self) -> float:
        r""":math:`\Delta_1`: 1 for a count and a quantile's score, :math:`(b-a)/n` for a mean, 2 for a histogram."""
        return {"count": 1.0, "mean": (self.upper - self.lower) / self.n, "histogram": 2.0, "quantile": 1.0}[self.kind]

    @property
    def l2_sensitivity(self) -> float:
        r""":math:`\Delta_2`: as :attr:`sensitivity`, but :math:`\sqrt 2` for a histogram."""
        return math.sqrt(2.0) if self.kind == "histogram" else self.sensitivity

    @property
    def per_value_confidence(self) -> float:
        """The probability each noisy value must reach: :math:`c^{1/B}` for a histogram's B bins, else :math:`c`."""
        return self.confidence ** (1.0 / self.bins) if self.kind == "histogram" else self.confidence

    def describe(self) -> str:
        """The release and its target in words, e.g. "a count within ±10 at 95 %"."""
        what = {"count": "a count", "mean": f"a mean of {self.n:,} values in [{self.lower:g}, {self.upper:g}]",
                "histogram": f"a histogram of {self.bins} bins (every bin)",
                "quantile": f"a median on {self.grid:,} values of [{self.lower:g}, {self.upper:g}]"}[self.kind]
        unit = " people in rank" if self.kind == "quantile" else ""
        return f"{what} within ±{self.error:g}{unit} at {self.confidence:.0%}".replace("%", " %")


@dataclass(frozen=True)
class Calibration:
    r"""A release calibrated: its ε (and δ), its noise, the accuracy it reaches at its confidence, its guarantee.

    scale: the Laplace noise's :math:`b`, the Gaussian's :math:`\sigma`, or the exponential mechanism's
    :math:`2/\varepsilon` (score units); error: the :math:`\pm t` reached with probability ``release.confidence``.
    """

    release: Release
    epsilon: float
    delta: float
    scale: float
    error: float

    @property
    def gaussian(self) -> bool:
        """Whether the release adds Gaussian noise."""
        return self.release.mechanism == "gaussian"

    @property
    def mu(self) -> float:
        r""":math:`\mu = \Delta_2/\sigma` of a Gaussian release (Gaussian DP)."""
        return self.release.l2_sensitivity / self.scale

    @property
    def rho(self) -> float:
        r"""Its zCDP :math:`\rho`: :math:`\mu^2/2` for Gaussian noise, :math:`\varepsilon^2/2` for a pure release."""
        return self.mu ** 2 / 2.0 if self.gaussian else accounting.pure_to_zcdp(self.epsilon)

    @property
    def noise(self) -> str:
        """The noise in words."""
        if self.release.kind == "quantile":
            return f"exponential mechanism, weights exp(ε·score/2) with ε = {self.epsilon:.3g}"
        law = "Gaussian noise of standard deviation σ" if self.gaussian else "Laplace noise of scale b"
        return f"{law} = {self.scale:.3g}" + (" in every bin" if self.release.kind == "histogram" else "")

    @property
    def guarantee(self) -> str:
        """The guarantee in one sentence: ε or (ε, δ), the neighbours, the sensitivity."""
        release = self.release
        if self.gaussian:
            return (f"({self.epsilon:.3g}, {self.delta:.2g})-DP for data sets differing in one person "
                    f"(ℓ2 sensitivity Δ = {release.l2_sensitivity:.3g})")
        what = "the rank score's sensitivity" if release.kind == "quantile" else "ℓ1 sensitivity"
        return f"{self.epsilon:.3g}-DP for data sets differing in one person ({what} Δ = {release.sensitivity:.3g})"


def _z(confidence: float) -> float:
    r""":math:`\Phi^{-1}((1+c)/2)`: the half-width of a normal interval of probability c, in standard deviations."""
    return float(special.ndtri((1.0 + confidence) / 2.0))


def _laplace_width(confidence: float) -> float:
    r""":math:`\ln(1/(1-c))`: the half-width of a Laplace interval of probability c, in scales b."""
    return -math.log1p(-confidence)


@validated(release=InstanceOf(Release, "a Release"), delta=Real(0, 1, high_open=True))
def calibrate(release: Release, delta: float = 0.0) -> Calibration:
    """The smallest ε at which ``release`` meets its target.

    The smallest ε at which ``release`` meets its target (a Gaussian one at δ: the analytic Gaussian mechanism,
    Balle & Wang 2018). See :func:`dpcore.accounting.epsilon_for_error` for the laws inverted.

    Parameters
    ----------
    release : Release
    delta : float, default 0.0
        The release's δ; needed (> 0) by a Gaussian release, ignored by a pure one.

    Returns
    -------
    Calibration

    Examples
    --------
    >>> round(calibrate(Release("count", 10.0)).epsilon, 4)  # ln(20)/10
    0.2996
    >>> round(calibrate(Release("mean", 1.0, lower=0, upper=120, n=1000)).epsilon, 4)  # 0.12·ln(20)
    0.3595
    """
    confidence = release.per_value_confidence
    if release.kind == "quantile":
        epsilon = 2.0 * (math.log(release.grid) + _laplace_width(release.confidence)) / release.error
        return Calibration(release, epsilon, 0.0, 2.0 / epsilon, release.error)
    if release.mechanism == "gaussian":
        epsilon = accounting.epsilon_for_error(release.error, release.l2_sensitivity, confidence, "gaussian", delta)
        return Calibration(release, epsilon, delta, release.error / _z(confidence), release.error)
    epsilon = accounting.epsilon_for_error(release.error, release.sensitivity, confidence)
    return Calibration(release, epsilon, 0.0, release.error / _laplace_width(confidence), release.error)


@validated(release=InstanceOf(Release, "a Release"), epsilon=EPSILON, delta=Real(0, 1, high_open=True))
def at_epsilon(release: Release, epsilon: float, delta: float = 0.0) -> Calibration:
    r"""The accuracy ``release`` reaches at a given ε.

    The accuracy ``release`` reaches at a given ε (and δ for a Gaussian one): the error laws of :func:`calibrate`
    solved for t.

    Parameters
    ----------
    release : Release
    epsilon : float
        :math:`\varepsilon > 0`.
    delta : float, default 0.0
        A Gaussian release's δ (> 0).

    Returns
    -------
    Calibration
        Its ``error``: the ±t reached with probability ``release.confidence``.

    Examples
    --------
    >>> round(at_epsilon(Release("count", 10.0), math.log(20) / 10).error, 9)
    10.0
    """
    confidence = release.per_value_confidence
    if release.kind == "quantile":
        error = 2.0 * (math.log(release.grid) + _laplace_width(release.confidence)) / epsilon
        return Calibration(release, epsilon, 0.0, 2.0 / epsilon, error)
    if release.mechanism == "gaussian":
        if delta == 0:
            raise InvalidParameterError(f"delta must be in (0, 1) for Gaussian noise; got {delta!r}")
        sigma = release.l2_sensitivity / accounting.gaussian_mu(epsilon, delta)
        return Calibration(release, epsilon, delta, sigma, sigma * _z(confidence))
    scale = release.sensitivity / epsilon
    return Calibration(release, epsilon, 0.0, scale, scale * _laplace_width(confidence))


def _gaussian_at(release: Release, sigma: float, delta: float) -> Calibration:
    """A Gaussian release with noise σ: its ε at δ (the analytic Gaussian's exact profile) and its accuracy."""
    return Calibration(release, accounting.gaussian_epsilon(release.l2_sensitivity / sigma, delta), delta, sigma,
                       sigma * _z(release.per_value_confidence))


@validated(calibration=InstanceOf(Calibration, "a Calibration"), trials=Integer(1, 100_000), seed=Integer(low=0))
def coverage(calibration: Calibration, trials: int = 10_000, seed: int = 0) -> float:
    r"""The share of simulated releases within the calibrated accuracy.

    The share of ``trials`` simulated releases within :math:`\pm` ``calibration.error`` (seeded): close to the
    confidence for noise (an exact law), at least it for a quantile (a bound).

    A count or mean: the noise alone (the error does not depend on the data). A histogram: every bin's noise. A
    quantile: the median of ``n`` values spread evenly over the range, released by the exponential mechanism on the
    grid; its rank error beyond the best grid value's.

    Parameters
    ----------
    calibration : Calibration
    trials : int, default 10,000
    seed : int, default 0

    Returns
    -------
    float
        In [0, 1].
    """
    release = calibration.release
    rng = child_generator(seed, "planning.coverage", release.kind)
    if release.kind == "quantile":
        return _quantile_coverage(calibration, trials, rng)
    shape = (trials, release.bins if release.kind == "histogram" else 1)
    noise = (rng.normal(0.0, calibration.scale, shape) if calibration.gaussian
             else rng.laplace(0.0, calibration.scale, shape))
    return float(np.mean(np.all(np.abs(noise) <= calibration.error, axis=1)))


def _quantile_coverage(calibration: Calibration, trials: int, rng: np.random.Generator) -> float:
    release = calibration.release
    data = np.linspace(release.lower, release.upper, release.n + 2)[1:-1]
    grid = np.linspace(release.lower, release.upper, release.grid)
    scores = -np.abs(np.searchsorted(data, grid, side="right") - 0.5 * release.n)
    logits = calibration.epsilon * scores / 2.0
    chosen = rng.choice(grid.size, size=trials, p=special.softmax(logits))
    return float(np.mean(scores[chosen] >= scores.max() - calibration.error))


# --------------------------------------------------------------------------------------------------- the plan
@dataclass(frozen=True)
class Total:
    """A plan's total guarantee by one accounting method.

    A plan's total guarantee by one accounting method: ``method`` ("basic", "zcdp", "numerical"), in words
    ``title``, and the total (ε, δ).
    """

    method: str
    title: str
    epsilon: float
    delta: float


@dataclass(frozen=True)
class Plan:
    """Calibrated releases, the plan's total δ, the totals by every method that applies, and the best (smallest ε)."""

    items: tuple[Calibration, ...]
    delta: float
    totals: tuple[Total, ...]

    @property
    def best(self) -> Total:
        """The total with the smallest ε (the first of equals: basic before zCDP before numerical)."""
        return min(self.totals, key=lambda total: total.epsilon)

    @property
    def worst_ratio(self) -> float:
        """The largest error-to-target ratio of the releases (1 when each meets its target exactly)."""
        return max(item.error / item.release.error for item in self.items)


_RELEASES = InstanceOf((list, tuple), "a list of 1 to 8 Release")
_PLAN_DELTA = Real(0, 1, high_open=True)


def _checked(releases, delta: float) -> tuple[Release, ...]:
    if not 1 <= len(releases) <= MAX_RELEASES or not all(isinstance(r, Release) for r in releases):
        raise InvalidParameterError(f"releases must be a list of 1 to {MAX_RELEASES} Release; got {releases!r}")
    if delta == 0 and any(release.mechanism == "gaussian" for release in releases):
        raise InvalidParameterError("delta must be in (0, 1) when a release adds Gaussian noise; got 0")
    return tuple(releases)


def _gaussian_share(releases, delta: float) -> float:
    """Each Gaussian release's δ: the plan's δ shared equally (0 when there is none)."""
    count = sum(release.mechanism == "gaussian" for release in releases)
    return delta / count if count else 0.0


def _step(items) -> float:
    """The numerical composition's grid step: :data:`privacy_loss.STEP`, coarser when the losses' range is wide."""
    spread = sum(2 * item.epsilon if not item.gaussian else 2 * privacy_loss.TAILS * item.mu + item.mu ** 2
                 for item in items)
    return max(privacy_loss.STEP, spread / 50_000)


def _losses(items, step: float) -> list[privacy_loss.PrivacyLoss]:
    losses = []
    for item in items:
        release = item.release
        if item.gaussian:
            losses.append(privacy_loss.gaussian_loss(item.mu, step))
        elif release.kind == "quantile":
            losses.append(privacy_loss.pure_loss(item.epsilon, step))
        elif release.kind == "histogram":  # replace-one moves two bins by 1: two Laplace losses of sensitivity 1
            losses += [privacy_loss.laplace_loss(item.scale, 1.0, step)] * 2
        else:
            losses.append(privacy_loss.laplace_loss(item.scale, release.sensitivity, step))
    return losses


def _composed(items) -> privacy_loss.PrivacyLoss:
    step = _step(items)
    return privacy_loss.compose(_losses(items, step))


def _totals(items: tuple[Calibration, ...], delta: float) -> tuple[Total, ...]:
    basic = Total("basic", "basic composition (the ε add up)", sum(item.epsilon for item in items),
                  sum(item.delta for item in items))
    if delta == 0:
        return (basic,)
    rho = sum(item.rho for item in items)
    zcdp = Total("zcdp", "zero-concentrated DP (the ρ add up)",
                 accounting.zcdp_to_approx_optimal(rho, delta) if rho > 0 else 0.0, delta)
    numerical = Total("numerical", "numerical composition of the privacy loss distributions",
                      privacy_loss.loss_epsilon(_composed(items), delta), delta)
    return basic, zcdp, numerical


@validated(releases=_RELEASES, delta=_PLAN_DELTA)
def plan_for(releases, delta: float = 0.0) -> Plan:
    """Calibrate every release of a plan to its target, and total the plan.

    Each release at the smallest ε meeting its target (the Gaussian ones at an equal share of ``delta``), and the
    plan's total by basic composition, zCDP and numerical composition (the last two at ``delta``, when it is > 0).

    Parameters
    ----------
    releases : list of Release
        1 to :data:`MAX_RELEASES`.
    delta : float, default 0.0
        The plan's total δ in [0, 1); > 0 when a release is Gaussian.

    Returns
    -------
    Plan

    Examples
    --------
    >>> round(plan_for(WORKED_EXAMPLE).best.epsilon, 4)  # ln(20)/10 + 0.12·ln(20)
    0.6591
    """
    releases = _checked(releases, delta)
    share = _gaussian_share(releases, delta)
    items = tuple(calibrate(release, share if release.mechanism == "gaussian" else 0.0) for release in releases)
    return Plan(items, delta, _totals(items, delta))


# ------------------------------------------------------------------------------------------- a fixed budget
def _zcdp_budget(epsilon: float, delta: float) -> float:
    """The largest ρ whose conversion (Canonne, Kamath & Steinke 2020) is at most ``epsilon`` at ``delta``."""
    high = accounting.approx_to_zcdp(epsilon, delta) * 4 + 1e-12
    while accounting.zcdp_to_approx_optimal(high, delta) <= epsilon:
        high *= 2
    return float(optimize.brentq(lambda rho: accounting.zcdp_to_approx_optimal(rho, delta) - epsilon, 1e-300, high,
                                 xtol=1e-300, rtol=1e-13))


def _solve_split(needed: np.ndarray, gaussian: np.ndarray, epsilon: float, delta: float) -> float:
    r"""The budget split's scale w, by cvxpy, under a convex accounting.

    The largest w such that every release can reach w × its target accuracy's inverse within the budget (the worst
    error-to-target ratio is 1/w), by cvxpy.

    Pure releases get :math:`\varepsilon_i \ge w\,\varepsilon_i^*` (error ∝ 1/ε), Gaussian ones
    :math:`\rho_j \ge w^2 \rho_j^*` (error ∝ σ ∝ 1/√ρ). Budget: :math:`\sum_i \varepsilon_i \le \varepsilon` (basic
    composition) for a pure plan; :math:`\sum_i \varepsilon_i^2/2 + \sum_j \rho_j \le \rho(\varepsilon, \delta)`
    (zCDP) when a release is Gaussian. A linear, resp. second-order cone, program.
    """
    import cvxpy as cp
    w = cp.Variable(nonneg=True)
    pure, gauss = needed[~gaussian], needed[gaussian]
    eps = cp.Variable(pure.size, nonneg=True) if pure.size else None
    constraints = [eps >= w * pure] if pure.size else []
    if not gaussian.any():
        constraints.append(cp.sum(eps) <= epsilon)
    else:
        rho = cp.Variable(gauss.size, nonneg=True)
        constraints.append(rho >= gauss * cp.square(w))
        spent = cp.sum(rho) + (cp.sum_squares(eps) / 2 if pure.size else 0)
        constraints.append(spent <= _zcdp_budget(epsilon, delta))
    cp.Problem(cp.Maximize(w), constraints).solve(solver=cp.CLARABEL)
    if w.value is None:
        raise InvalidParameterError(f"epsilon={epsilon!r} cannot be split over these releases (the solver failed)")
    return float(w.value)


@validated(releases=_RELEASES, epsilon=EPSILON, delta=_PLAN_DELTA)
def split_budget(releases, epsilon: float, delta: float = 0.0) -> Plan:
    r"""Split a fixed total ε over the releases, the worst error-to-target ratio as small as possible.

    Split a total ``epsilon`` (and ``delta``) over the releases so that the worst error-to-target ratio is as small
    as possible; each release's resulting accuracy is its item's ``error``.

    The optimum makes every ratio equal, to :math:`1/w` (a larger share for one would leave another worse). First the
    convex problem under a convex accounting, solved with cvxpy (:func:`_solve_split`): basic composition for a pure
    plan (the shares' ε add up to at most ``epsilon``), zCDP when a release is Gaussian (the Gaussian ones sharing
    ``delta`` equally); its closed forms :math:`w = \varepsilon/\sum_i\varepsilon_i^*` and :math:`w =
    \sqrt{\rho(\varepsilon,\delta) / (\sum_i \varepsilon_i^{*2}/2 + \sum_j \rho_j^*)}`. Then, as the
    plan's best total (:func:`plan_for`: numerical composition is often tighter) may leave budget unspent, the largest
    :math:`w` whose best total is at most ``epsilon`` (Brent's method; the total is monotone in :math:`w`). Never over
    the budget: the result is stepped down until its best total is at most ``epsilon``.

    Parameters
    ----------
    releases : list of Release
    epsilon : float
        The total :math:`\varepsilon > 0`.
    delta : float, default 0.0
        The total δ; > 0 when a release is Gaussian.

    Returns
    -------
    Plan
        The releases at their shares, with the totals of :func:`plan_for`.

    Examples
    --------
    >>> plan = split_budget(WORKED_EXAMPLE, 1.0)
    >>> [round(item.error, 3) for item in plan.items], round(plan.totals[0].epsilon, 6)
    ([6.591, 0.659], 1.0)
    """
    releases = _checked(releases, delta)
    share = _gaussian_share(releases, delta)
    targets = [calibrate(release, share) for release in releases]
    gaussian = np.array([item.gaussian for item in targets])
    needed = np.array([item.rho if item.gaussian else item.epsilon for item in targets])

    def items_at(w: float) -> tuple[Calibration, ...]:  # every release at 1/w times its target (all ratios equal)
        return tuple(_gaussian_at(item.release, item.scale / w, share) if item.gaussian
                     else at_epsilon(item.release, item.epsilon * w) for item in targets)

    def over(w: float) -> float:  # the best total's ε minus the budget
        items = items_at(w)
        return min(total.epsilon for total in _totals(items, delta)) - epsilon

    low = _solve_split(needed, gaussian, epsilon, delta)
    while over(low) > 0:  # the solver's last digits: step to the safe side
        low *= 1 - 1e-7
    high = low * 1.25
    while over(high) <= 0:  # the numerical accountant may spend less than the solver's: take what it allows
        low, high = high, high * 1.25
    w = optimize.brentq(over, low, high, xtol=1e-7 * low, rtol=1e-7)
    while over(w) > 0:
        w *= 1 - 1e-7
    items = items_at(w)
    return Plan(items, delta, _totals(items, delta))


# ---------------------------------------------------------------------------------------------------- the risk
#: False-positive rates at which the attacker's best true-positive rate is reported (and the ROC drawn).
FPR = np.unique(np.concatenate([np.geomspace(1e-4, 1.0, 121), [0.01, 0.05]]))


@dataclass(frozen=True)
class Risk:
    """What the plan's total lets a membership attacker reach.

    What the plan's total lets a membership attacker reach: the best true-positive rate at each false-positive
    rate ``fpr`` (``tpr``), at 1 % and 5 % (``tpr_1``, ``tpr_5``), the largest advantage TPR − FPR; ``exact``: from
    the exact trade-off curve (Gaussian DP), else an upper bound from the composed privacy profile.
    """

    epsilon: float
    delta: float
    fpr: np.ndarray
    tpr: np.ndarray
    advantage: float
    exact: bool

    @property
    def tpr_1(self) -> float:
        """The attacker's best true-positive rate at 1 % false positives."""
        return float(self.tpr[np.flatnonzero(self.fpr == 0.01)[0]])

    @property
    def tpr_5(self) -> float:
        """At 5 % false positives."""
        return float(self.tpr[np.flatnonzero(self.fpr == 0.05)[0]])


def _profile_tpr(loss: privacy_loss.PrivacyLoss, fpr: np.ndarray) -> np.ndarray:
    r"""The attacker's best true-positive rates implied by a whole privacy profile.

    :math:`1 - \sup_\varepsilon f_{\varepsilon, \delta(\varepsilon)}(\alpha)`: the trade-off curve implied by
    the whole privacy profile (Dong, Roth & Su 2022, Prop 2.12), on a grid of ε from 0 to the largest finite loss.
    """
    top = max(float(loss.losses[-1]), 1e-9)
    epsilons = np.linspace(0.0, top, 801)
    deltas = privacy_loss.loss_profile(loss, epsilons)
    with np.errstate(over="ignore"):  # e^ε = inf past ε ≈ 709: that line is then −∞ (every fpr here is > 0)
        steep = 1 - deltas[:, None] - np.exp(epsilons)[:, None] * fpr[None, :]
    curves = np.maximum.reduce([np.zeros((epsilons.size, fpr.size)), steep,
                                np.exp(-epsilons)[:, None] * (1 - deltas[:, None] - fpr[None, :])])
    return np.clip(1.0 - curves.max(axis=0), fpr, 1.0)


@validated(plan=InstanceOf(Plan, "a Plan"))
def attacker_risk(plan: Plan) -> Risk:
    r"""The most a membership attacker can reach against the plan's releases together.

    The most a membership attacker can reach against the plan's releases together (one person in or out of the
    data: the neighbours of the releases' guarantees).

    All releases Gaussian: exactly :math:`\mu`-Gaussian DP with :math:`\mu = \sqrt{\sum_j\mu_j^2}` (Dong, Roth & Su
    2022, Cor 3.3): TPR :math:`= 1 - G_\mu(\alpha)`, advantage :math:`2\Phi(\mu/2) - 1`. Otherwise the curve implied
    by the numerical composition's profile (an upper bound on every attacker, at most that of the best total's
    :math:`(\varepsilon, \delta)` curve); its advantage is :math:`\delta(0)`, the total variation between neighbours.

    Parameters
    ----------
    plan : Plan

    Returns
    -------
    Risk

    Examples
    --------
    >>> risk = attacker_risk(plan_for(WORKED_EXAMPLE))
    >>> round(risk.tpr_1, 4), round(risk.advantage, 4)
    (0.0193, 0.173)
    """
    best = plan.best
    if all(item.gaussian for item in plan.items):
        mu = math.sqrt(sum(item.mu ** 2 for item in plan.items))
        tpr = 1.0 - accounting.gaussian_tradeoff(FPR, mu)
        return Risk(best.epsilon, best.delta, FPR, tpr, float(2 * stats.norm.cdf(mu / 2) - 1), True)
    loss = _composed(plan.items)
    tpr = np.minimum(_profile_tpr(loss, FPR), 1.0 - accounting.dp_tradeoff(FPR, best.epsilon, best.delta))
    advantage = min(privacy_loss.loss_delta(loss, 0.0), best.delta + (1 - best.delta) * math.tanh(best.epsilon / 2))
    return Risk(best.epsilon, best.delta, FPR, tpr, advantage, False)


@validated(plan=InstanceOf(Plan, "a Plan"), fpr=Array(ndim=(0, 1), low=0, high=1, low_open=True))
def roc(plan: Plan, fpr) -> np.ndarray:
    """The attacker's best true-positive rate at each false-positive rate in ``fpr`` (see :func:`attacker_risk`)."""
    fpr = np.atleast_1d(np.asarray(fpr, dtype=float))
    risk = attacker_risk(plan)
    return np.interp(fpr, risk.fpr, risk.tpr)


@validated(risk=InstanceOf(Risk, "a Risk"), prior=Real(0, 1, low_open=True, high_open=True),
           fpr=Choice((0.01, 0.05)))
def posterior(risk: Risk, prior: float = 0.01, fpr: float = 0.01) -> float:
    r"""How far a flag can move an attacker's belief that one person is in the data.

    How far a flag can move an attacker's belief that one person is in the data: the posterior after the best
    test at false-positive rate ``fpr`` says "in", from a ``prior``.

    Bayes: posterior odds = prior odds × TPR/FPR. For a pure ε plan TPR/FPR ≤ :math:`e^\varepsilon` for every test,
    the classic bound; with δ a rarer flag (smaller FPR) can move it further.

    Examples
    --------
    >>> round(posterior(attacker_risk(plan_for(WORKED_EXAMPLE))), 4)  # 1 % → at most 1.9 % (e^0.659 = 1.93)
    0.0192
    """
    tpr = risk.tpr_1 if fpr == 0.01 else risk.tpr_5
    return prior * tpr / (prior * tpr + (1 - prior) * fpr)


# ----------------------------------------------------------------------------------------- the plan as text
_KEYS = {"t": "error", "c": "confidence", "m": "mechanism", "lo": "lower", "hi": "upper", "n": "n", "bins": "bins",
         "grid": "grid"}
_USED = {"count": ("t", "c", "m"), "mean": ("t", "c", "m", "lo", "hi", "n"), "histogram": ("t", "c", "m", "bins"),
         "quantile": ("t", "c", "lo", "hi", "n", "grid")}
_PAIRS = r"(:[a-z]+=[-+.0-9a-zA-Z]{1,24}(,[a-z]+=[-+.0-9a-zA-Z]{1,24}){0,7})?"
_PLAN_TEXT = Text(rf"[a-z]{{1,12}}{_PAIRS}(;[a-z]{{1,12}}{_PAIRS}){{0,{MAX_RELEASES - 1}}}",
                  "releases separated by ';', each 'kind:key=value,…' (e.g. 'count:t=10,c=0.95'), at most 8")


@validated(text=_PLAN_TEXT)
def parse_plan(text: str) -> tuple[Release, ...]:
    """The releases of a plan written by :func:`plan_text` (a page's URL): ``kind:key=value,…`` joined by ``;``.

    Keys: t (the target ±t), c (confidence), m (l: Laplace, g: Gaussian), lo and hi (the range), n, bins, grid.

    Examples
    --------
    >>> parse_plan("count:t=10,c=0.95") == (Release("count", 10.0),)
    True
    """
    releases = []
    for part in text.split(";"):
        kind, _, rest = part.partition(":")
        values: dict[str, Any] = {}
        for pair in filter(None, rest.split(",")):
            key, _, raw = pair.partition("=")
            if key not in _USED.get(kind, ()) or _KEYS[key] in values:
                raise InvalidParameterError(f"plan has {key!r} twice or where a {kind} has no such setting; "
                                            f"a {kind} takes {', '.join(_USED.get(kind, ())) or 'nothing'}")
            values[_KEYS[key]] = _value(key, raw)
        if "error" not in values:
            raise InvalidParameterError(f"plan's {kind} needs its target t (e.g. {kind}:t=10)")
        releases.append(Release(kind, **values))
    return tuple(releases)


def _value(key: str, raw: str) -> object:
    if key == "m":
        return {"l": "laplace", "g": "gaussian"}.get(raw, raw)
    try:
        number = float(raw)
    except ValueError:
        raise InvalidParameterError(f"plan's {key} must be a number; got {raw!r}") from None
    return int(number) if key in ("n", "bins", "grid") and number.is_integer() else number


@validated(releases=_RELEASES)
def plan_text(releases) -> str:
    """A plan as text (:func:`parse_plan` reads it back): only the settings each kind uses, defaults left out.

    Examples
    --------
    >>> plan_text(WORKED_EXAMPLE)
    'count:t=10;mean:t=1,hi=120'
    """
    default = {field.name: field.default for field in fields(Release)}
    parts = []
    for release in releases:
        pairs = [f"{key}={_short(key, getattr(release, _KEYS[key]))}" for key in _USED[release.kind]
                 if key == "t" or getattr(release, _KEYS[key]) != default[_KEYS[key]]]
        parts.append(f"{release.kind}:" + ",".join(pairs))
    return ";".join(parts)


def _short(key: str, value) -> str:
    if key == "m":
        return {"laplace": "l", "gaussian": "g"}.get(value, value)
    return f"{value:g}" if float(f"{value:g}") == value else repr(value)  # repr: the shortest text that reads back


#: The page's worked example: a count over a class within ±10 at 95 % (ε = ln(20)/10 ≈ 0.300), and a mean age over
#: 1,000 people in [0, 120] within ±1 year at 95 % (ε = 0.12·ln 20 ≈ 0.359).
WORKED_EXAMPLE = (Release("count", 10.0), Release("mean", 1.0, lower=0.0, upper=120.0, n=1000))
