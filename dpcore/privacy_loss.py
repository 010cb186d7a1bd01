r"""Numerical composition: privacy loss distributions on a grid, composed by convolution.

The privacy loss of a pair of output distributions :math:`(P, Q)` (a *dominating pair* of a mechanism: the worst
neighbours) is the random variable :math:`L = \ln\frac{p(Y)}{q(Y)}` with :math:`Y \sim P`. Its profile

.. math:: \delta(\varepsilon) = \mathbb E\big[(1 - e^{\varepsilon - L})_+\big] + P(L = \infty)

is the smallest :math:`\delta` at which the mechanism is :math:`(\varepsilon, \delta)`-DP, and the loss of a
composition is the *sum* of the independent losses, so its distribution is the convolution of theirs (Meiser &
Mohammadi 2018; Koskela, Jälkö & Honkela 2020; Sommer, Meiser & Mohammadi 2019).

Here each loss is put on the grid :math:`h\mathbb Z` by rounding every value *up* (its mass moved to the next grid
point above). :math:`(1 - e^{\varepsilon - \ell})_+` grows with :math:`\ell`, and a sum of rounded-up losses is at least
the sum of the losses, so the profile computed from the grid is an upper bound of the true one at every
:math:`\varepsilon`, for one mechanism and for any composition: the :math:`\varepsilon` it returns for a :math:`\delta`
is a valid guarantee, larger than the exact one by at most :math:`kh` for :math:`k` composed mechanisms. The
convolution's floating-point rounding (about :math:`10^{-16}` of the largest mass, either sign) is kept: only negative
masses are set to 0, so no tail is cut; below :math:`\delta \approx 10^{-13}` that rounding makes the bound
over-cautious, never too small in tests down to :math:`10^{-16}`.

Neighbouring relation: that of the mechanisms' dominating pairs, stated per constructor (replace-one throughout the
lab). The pairs used:

- Laplace noise of scale :math:`b` on a query of sensitivity :math:`\Delta`: :math:`(\mathrm{Lap}(0, b),
  \mathrm{Lap}(\Delta, b))`, exact (Dwork & Roth 2014, Thm 3.6; its profile is
  :func:`dpcore.accounting.laplace_delta`).
- Gaussian noise with :math:`\mu = \Delta_2/\sigma`: :math:`L \sim \mathcal N(\mu^2/2, \mu^2)`, exact
  (Balle & Wang 2018).
- Any :math:`\varepsilon`-DP mechanism (the exponential mechanism): randomized response's pair,
  :math:`L = \pm\varepsilon` with probabilities :math:`e^\varepsilon/(1+e^\varepsilon)` and
  :math:`1/(1+e^\varepsilon)`, which dominates every
  :math:`\varepsilon`-DP mechanism and every composition of them (Kairouz, Oh & Viswanath 2015; Dong, Roth & Su 2022,
  Thm 3.2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, signal, stats

from .core.validation import DELTA, POSITIVE, Array, InstanceOf, InvalidParameterError, Real, validated

__all__ = ["PrivacyLoss", "laplace_loss", "gaussian_loss", "pure_loss", "compose", "loss_delta", "loss_profile",
           "loss_epsilon"]

#: The grid step h used when none is given: a composition of k mechanisms overstates ε by at most k·h.
STEP = 1e-4
#: Gaussian losses are kept on [mean − TAILS·μ, mean + TAILS·μ]: below, mass is rounded up to the first point; above,
#: it is counted as an infinite loss (an upper bound); Φ(−12) ≈ 1.8e-33.
TAILS = 12.0


@dataclass(frozen=True)
class PrivacyLoss:
    r"""A privacy loss distribution on a grid.

    A privacy loss distribution on the grid :math:`h\mathbb Z`: ``masses[i]`` at loss ``(start + i)·step`` and
    ``infinite`` at :math:`+\infty` (outputs only one neighbour can produce).
    """

    step: float
    start: int
    masses: np.ndarray
    infinite: float = 0.0

    @property
    def losses(self) -> np.ndarray:
        """The grid's loss values, one per mass."""
        return (self.start + np.arange(self.masses.size)) * self.step


def _on_grid(cdf, low: float, high: float, step: float, infinite: float = 0.0) -> PrivacyLoss:
    """A loss given by its CDF, rounded up to the grid.

    The loss whose CDF is ``cdf`` on :math:`[low, high]` (all its finite mass), each value rounded up to the grid:
    the mass on grid point :math:`k h` is :math:`F(kh) - F((k-1)h)`.
    """
    first, last = math.floor(low / step), math.ceil(high / step)
    points = np.arange(first, last + 1) * step
    masses = np.diff(np.concatenate([[0.0], cdf(points)]))
    return PrivacyLoss(step, first, np.clip(masses, 0.0, None), infinite)


@validated(scale=POSITIVE, sensitivity=POSITIVE, step=POSITIVE)
def laplace_loss(scale: float, sensitivity: float = 1.0, step: float = STEP) -> PrivacyLoss:
    r"""The privacy loss of Laplace noise of scale :math:`b` on a query of sensitivity :math:`\Delta`.

    With :math:`\varepsilon_0 = \Delta/b` and :math:`Y \sim \mathrm{Lap}(0, b)`, :math:`L = (|Y - \Delta| - |Y|)/b`
    lies in :math:`[-\varepsilon_0, \varepsilon_0]` with CDF :math:`F(\ell) = \tfrac12 e^{-(\varepsilon_0 - \ell)/2}`
    below :math:`\varepsilon_0` (an atom of :math:`\tfrac12 e^{-\varepsilon_0}` at :math:`-\varepsilon_0`, one of
    :math:`\tfrac12` at :math:`\varepsilon_0`).

    Parameters
    ----------
    scale : float
        :math:`b > 0`.
    sensitivity : float, default 1.0
        :math:`\Delta > 0` (:math:`\ell_1`).
    step : float, default :data:`STEP`
        The grid step :math:`h > 0`.

    Returns
    -------
    PrivacyLoss
        Rounded up to the grid.

    Examples
    --------
    >>> round(loss_delta(laplace_loss(1.0), 0.3), 4)  # accounting.laplace_delta(0.3, 1.0) = 0.295312
    0.2953
    """
    epsilon0 = sensitivity / scale

    def cdf(loss):
        return np.where(loss >= epsilon0, 1.0, np.where(loss < -epsilon0, 0.0,
                                                        0.5 * np.exp(-(epsilon0 - np.minimum(loss, epsilon0)) / 2)))
    return _on_grid(cdf, -epsilon0, epsilon0, step)


@validated(mu=POSITIVE, step=POSITIVE)
def gaussian_loss(mu: float, step: float = STEP) -> PrivacyLoss:
    r"""The privacy loss of the Gaussian mechanism.

    The privacy loss of the Gaussian mechanism with :math:`\mu = \Delta_2/\sigma`: :math:`\mathcal N(\mu^2/2,
    \mu^2)`, on :math:`\mu^2/2 \pm` :data:`TAILS`:math:`\,\mu` (the upper tail counted as an infinite loss).

    Parameters
    ----------
    mu : float
        :math:`\mu > 0`.
    step : float, default :data:`STEP`
        The grid step :math:`h > 0`.

    Returns
    -------
    PrivacyLoss
        Rounded up to the grid.

    Examples
    --------
    >>> round(loss_delta(gaussian_loss(1.0), 1.0), 4)  # accounting.gaussian_delta(1.0, sigma=1.0) = 0.126936
    0.1269
    """
    mean = mu * mu / 2.0
    low, high = mean - TAILS * mu, mean + TAILS * mu

    def cdf(loss):
        return stats.norm.cdf(np.minimum(loss, high), loc=mean, scale=mu)
    return _on_grid(cdf, low, high, step, infinite=float(stats.norm.sf(TAILS)))


@validated(epsilon=POSITIVE, step=POSITIVE)
def pure_loss(epsilon: float, step: float = STEP) -> PrivacyLoss:
    r"""The privacy loss that dominates every ε-DP mechanism.

    The privacy loss that dominates every :math:`\varepsilon`-DP mechanism: randomized response's,
    :math:`+\varepsilon` with probability :math:`e^\varepsilon/(1+e^\varepsilon)`, :math:`-\varepsilon` otherwise.

    Parameters
    ----------
    epsilon : float
        :math:`\varepsilon > 0`.
    step : float, default :data:`STEP`
        The grid step :math:`h > 0`.

    Returns
    -------
    PrivacyLoss
        Rounded up to the grid.

    Examples
    --------
    >>> loss_delta(pure_loss(1.0), 1.0)  # pure 1-DP: no δ at ε = 1
    0.0
    """
    high = stats.logistic.cdf(epsilon)  # e^ε/(1+e^ε), without overflow

    def cdf(loss):
        return np.where(loss >= epsilon, 1.0, np.where(loss >= -epsilon, 1.0 - high, 0.0))
    return _on_grid(cdf, -epsilon, epsilon, step)


@validated(losses=InstanceOf((list, tuple), "a non-empty list of PrivacyLoss"))
def compose(losses) -> PrivacyLoss:
    r"""The privacy loss of the composition: the convolution of the losses (all on one grid step).

    Parameters
    ----------
    losses : list or tuple of PrivacyLoss
        At least one, with the same ``step``.

    Returns
    -------
    PrivacyLoss
        Its masses the convolution of theirs, its infinite mass :math:`1 - \prod_i (1 - P_i(L = \infty))`.

    Examples
    --------
    >>> two = compose([pure_loss(0.5), pure_loss(0.5)])
    >>> loss_delta(two, 1.0), round(loss_epsilon(two, 1e-9), 6)  # two 0.5-DP releases are 1-DP: no better at tiny δ
    (0.0, 1.0)
    """
    if not losses or not all(isinstance(loss, PrivacyLoss) for loss in losses):
        raise InvalidParameterError(f"losses must be a non-empty list of PrivacyLoss; got {losses!r}")
    if len({loss.step for loss in losses}) > 1:
        raise InvalidParameterError("losses must share one grid step; got steps "
                                    + ", ".join(f"{loss.step:g}" for loss in losses))
    masses, start, finite = np.ones(1), 0, 1.0
    for loss in losses:
        masses = signal.oaconvolve(masses, loss.masses) if min(masses.size, loss.masses.size) > 64 \
            else np.convolve(masses, loss.masses)
        masses[masses < 0.0] = 0.0  # the FFT's rounding below 0; tiny positive masses are the tail δ comes from
        start += loss.start
        finite *= 1.0 - loss.infinite
    return PrivacyLoss(losses[0].step, start, masses, 1.0 - finite)


@validated(loss=InstanceOf(PrivacyLoss, "a PrivacyLoss"), epsilon=Real(low=0))
def loss_delta(loss: PrivacyLoss, epsilon: float) -> float:
    r""":math:`\delta(\varepsilon) = \sum_i m_i (1 - e^{\varepsilon - \ell_i})_+ + m_\infty`, the profile of ``loss``.

    Parameters
    ----------
    loss : PrivacyLoss
    epsilon : float
        :math:`\varepsilon \ge 0`.

    Returns
    -------
    float
        :math:`\delta(\varepsilon) \in [0, 1]`.
    """
    values = loss.losses
    above = values > epsilon
    return float(np.dot(loss.masses[above], -np.expm1(epsilon - values[above])) + loss.infinite)


@validated(loss=InstanceOf(PrivacyLoss, "a PrivacyLoss"), epsilons=Array(ndim=(1,), low=0))
def loss_profile(loss: PrivacyLoss, epsilons) -> np.ndarray:
    r"""The profile δ(ε) at many ε at once.

    :math:`\delta(\varepsilon)` at many :math:`\varepsilon` at once: :math:`S_1(\varepsilon) - e^{\varepsilon}
    S_2(\varepsilon) + m_\infty` with the tail sums :math:`S_1 = \sum_{\ell_i > \varepsilon} m_i` and
    :math:`S_2 = \sum_{\ell_i > \varepsilon} m_i e^{-\ell_i}` (one pass over the grid, then a search per
    :math:`\varepsilon`). The subtraction loses about :math:`10^{-16}/\delta` of relative precision: for curves, not
    for the root of a tiny :math:`\delta` (:func:`loss_epsilon` uses :func:`loss_delta`).

    Parameters
    ----------
    loss : PrivacyLoss
    epsilons : array of float
        Every entry :math:`\ge 0`.

    Returns
    -------
    numpy.ndarray
        :math:`\delta(\varepsilon)` per entry, clipped to [0, 1].
    """
    values = loss.losses
    positive = values > 0
    masses, values = loss.masses[positive], values[positive]
    tail_mass = np.concatenate([np.cumsum(masses[::-1])[::-1], [0.0]])
    tail_weighted = np.concatenate([np.cumsum((masses * np.exp(-values))[::-1])[::-1], [0.0]])
    first = np.searchsorted(values, np.asarray(epsilons, dtype=float), side="right")
    # e^ε·S₂ is at most S₁; past ε = 700 (e^ε overflows) S₂ has underflowed to 0 and δ(ε) ≤ S₁ is kept (an upper bound)
    profile = tail_mass[first] - np.exp(np.minimum(epsilons, 700.0)) * tail_weighted[first] + loss.infinite
    return np.clip(profile, 0.0, 1.0)


@validated(loss=InstanceOf(PrivacyLoss, "a PrivacyLoss"), delta=DELTA)
def loss_epsilon(loss: PrivacyLoss, delta: float) -> float:
    r"""The smallest ε whose profile δ(ε) is at most δ.

    The smallest :math:`\varepsilon \ge 0` with :math:`\delta(\varepsilon) \le \delta` (bisection: the profile
    decreases).

    Parameters
    ----------
    loss : PrivacyLoss
    delta : float
        :math:`0 < \delta < 1`.

    Returns
    -------
    float
        :math:`\varepsilon`; ``inf`` when the infinite loss alone exceeds :math:`\delta`.
    """
    if loss.infinite > delta:
        return math.inf
    if loss_delta(loss, 0.0) <= delta:
        return 0.0
    top = float(loss.losses[-1])
    if loss_delta(loss, top) > delta:
        return math.inf
    return float(optimize.brentq(lambda eps: loss_delta(loss, eps) - delta, 0.0, top, xtol=1e-12, rtol=1e-12))
