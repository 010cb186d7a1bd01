r"""Rate curves to overlay on simulations: exact error laws of the noise, and the papers' rate shapes.

Two kinds of curve, labelled as such on the pages:

* **exact** (a law of the noise or of the sample mean, with its true constant): the median or the
  root mean square of :math:`|\text{error}|` — :func:`nonprivate_mean_error`, :func:`laplace_mean_error`,
  :func:`gaussian_mean_error`, and the bias–noise optimum :func:`clipped_mean_private_error` (an upper
  bound with explicit constants);
* **shape** (a theorem's rate up to an unknown constant, drawn with ``constant=1``):
  :func:`heavy_tailed_rate`; and the high-probability bound :func:`exponential_mechanism_loss_bound`.

The statistics match :class:`dpcore.experiments.SweepResult`: ``"median"`` is the median of the
absolute error (the curve the engine's ``median`` should follow), ``"rmse"`` its root mean square.
Every function is vectorised: ``n`` and ``epsilon`` may be arrays (broadcast together); a scalar
input gives a float. Formulas: docs/algorithms.md §0.2, §0.6, §1.3, §1.8.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from .core.validation import POSITIVE, Array, Choice, Integer, Real, float_if_scalar, validated
from .mechanisms import gaussian_sigma

__all__ = [
    "nonprivate_mean_error",
    "laplace_mean_error",
    "gaussian_mean_error",
    "heavy_tailed_rate",
    "clipped_mean_private_error",
    "clipped_mean_optimal_radius",
    "exponential_mechanism_loss_bound",
]

#: Median of :math:`|Z|`, :math:`Z \sim \mathcal N(0, 1)`: :math:`\Phi^{-1}(3/4) = 0.6744897\ldots`
HALF_NORMAL_MEDIAN = float(special.ndtri(0.75))

_SIZE = Array(low=0, low_open=True)
_EPSILONS = Array(low=0, low_open=True)
_STATISTIC = Choice(("median", "rmse"))
_MOMENT = Real(low=1, low_open=True)


@validated(n=_SIZE, sd=POSITIVE, statistic=_STATISTIC)
def nonprivate_mean_error(n, sd: float = 1.0, statistic: str = "median") -> float | np.ndarray:
    r"""Error of the (non-private) sample mean of ``n`` points with standard deviation ``sd``.

    .. math:: \mathrm{rmse} = \mathrm{sd}/\sqrt n, \qquad
              \mathrm{median}\,|\bar X - \mu| \approx \Phi^{-1}(3/4)\,\mathrm{sd}/\sqrt n = 0.6745\,\mathrm{sd}/\sqrt n.

    The rmse is exact for any distribution; the median uses the Gaussian approximation (CLT), exact
    for Gaussian data. The baseline of every page (docs/algorithms.md §1.8).

    Examples
    --------
    >>> round(nonprivate_mean_error(100), 6), nonprivate_mean_error(100, sd=2.0, statistic="rmse")
    (0.067449, 0.2)
    """
    scale = sd / np.sqrt(n)
    return float_if_scalar(HALF_NORMAL_MEDIAN * scale if statistic == "median" else scale)


@validated(n=_SIZE, epsilon=_EPSILONS, width=POSITIVE, statistic=_STATISTIC)
def laplace_mean_error(n, epsilon, width: float, statistic: str = "median") -> float | np.ndarray:
    r"""Noise error of the Laplace mean of ``n`` values in a window of length ``width``.

    The mean of values in :math:`[a, b]` has :math:`\Delta_1 = (b-a)/n`, so the :math:`\varepsilon`-DP
    release adds :math:`\mathrm{Lap}(b_n)`, :math:`b_n = \mathrm{width}/(\varepsilon n)`
    (docs/algorithms.md §0.2, §1.3):

    .. math:: \mathrm{rmse} = \sqrt2\, b_n, \qquad \mathrm{median}\,|\mathrm{Lap}(b_n)| = b_n \ln 2.

    Only the privacy noise: sampling error and clipping bias come on top. With ``width = 2R`` it is
    the naive worst-case-range baseline, rmse :math:`2\sqrt2 R/(\varepsilon n)` (docs/algorithms.md §1.8).

    Examples
    --------
    >>> laplace_mean_error(100, 1.0, width=6.0, statistic="rmse") == math.sqrt(2) * 0.06
    True
    """
    scale = width / (epsilon * n)
    return float_if_scalar(scale * (math.log(2.0) if statistic == "median" else math.sqrt(2.0)))


@validated(n=_SIZE, epsilon=_EPSILONS, delta=Real(0, 1, low_open=True, high_open=True), l2_width=POSITIVE,
           dimension=Integer(low=1), statistic=_STATISTIC)
def gaussian_mean_error(n, epsilon, delta: float, l2_width: float, dimension: int = 1,
                        statistic: str = "rmse") -> float | np.ndarray:
    r"""Noise error (:math:`\ell_2`) of the analytic-Gaussian mean of ``n`` vectors in ``dimension`` dimensions.

    Vectors in a set of :math:`\ell_2` diameter ``l2_width`` (``2C`` for a ball of radius :math:`C`) have a
    mean with :math:`\Delta_2 = \mathrm{l2\_width}/n`; the analytic Gaussian mechanism (Balle & Wang 2018,
    :func:`dpcore.mechanisms.gaussian_sigma`) adds :math:`\mathcal N(0, \sigma^2 I_d)` with
    :math:`\sigma = \Delta_2/\mu^*_{\varepsilon,\delta}` (docs/algorithms.md §0.2, §2.2). The error norm is
    :math:`\sigma\chi_d`:

    .. math:: \mathrm{rmse} = \sigma\sqrt d, \qquad \mathrm{median} = \sigma\sqrt{F^{-1}_{\chi^2_d}(1/2)}
              \;(= 0.6745\,\sigma \text{ for } d = 1).

    Examples
    --------
    >>> round(gaussian_mean_error(1000, 1.0, 1e-5, l2_width=1000.0), 4)  # sigma for Delta_2 = 1
    3.7306
    """
    sigma_per_width = np.vectorize(lambda e: gaussian_sigma(1.0, e, delta), otypes=[float])(epsilon)
    sigma = sigma_per_width * l2_width / n
    quantile = dimension if statistic == "rmse" else special.chdtri(dimension, 0.5)
    return float_if_scalar(sigma * math.sqrt(quantile))


@validated(n=_SIZE, epsilon=_EPSILONS, moment_k=Real(low=2, allow_inf=True), constant=POSITIVE)
def heavy_tailed_rate(n, epsilon, moment_k: float, constant: float = 1.0) -> float | np.ndarray:
    r"""The rate shape of Kamath, Singhal & Ullman (2020) for the private mean of a distribution with bounded
    ``moment_k``-th moment.

    .. math:: c\,\Big(\frac{1}{\sqrt n} + (\varepsilon n)^{-(k-1)/k}\Big)

    Kamath, Singhal & Ullman 2020, Thms 1.1–1.2, log factors and the range term dropped;
    optimal up to constants (their Thm 1.7 lower bound). A shape, not a value: plot with
    ``constant=1`` (docs/algorithms.md §1.8) and label it "rate (constant 1)". ``moment_k=inf``
    (bounded data) gives :math:`c(1/\sqrt n + 1/(\varepsilon n))`; ``moment_k=2`` gives
    :math:`c(1/\sqrt n + 1/\sqrt{\varepsilon n})`.

    Examples
    --------
    >>> heavy_tailed_rate(100, 1.0, math.inf), heavy_tailed_rate(100, 1.0, 2)
    (0.11, 0.2)
    """
    private_exponent = 1.0 - 1.0 / moment_k
    return float_if_scalar(constant * (1.0 / np.sqrt(n) + (epsilon * n) ** -private_exponent))


def _bias_noise_coefficients(n, epsilon, moment_k: float, moment_bound: float):
    r""":math:`((k-1)A_kM_k,\ B)` of docs/algorithms.md §1.3, :math:`A_k = (k-1)^{k-1}/k^k` computed in logs."""
    a_k = math.exp((moment_k - 1.0) * math.log(moment_k - 1.0) - moment_k * math.log(moment_k))
    return (moment_k - 1.0) * a_k * moment_bound, 2.0 * math.sqrt(2.0) / (epsilon * n)


@validated(n=_SIZE, epsilon=_EPSILONS, moment_k=_MOMENT, moment_bound=POSITIVE)
def clipped_mean_private_error(n, epsilon, moment_k: float, moment_bound: float = 1.0) -> float | np.ndarray:
    r"""Bias + noise of the clipped Laplace mean at the best window radius (docs/algorithms.md §1.3).

    For a window :math:`\mu \pm t`, the clipping bias is at most :math:`A_kM_k t^{-(k-1)}` with
    :math:`A_k = (k-1)^{k-1}/k^k` (tight truncation lemma, docs/algorithms.md §1.2; :math:`\mathbb E|X-\mu|^k \le M_k`)
    and the noise sd is :math:`Bt`, :math:`B = 2\sqrt2/(\varepsilon n)`. Minimising over :math:`t`
    (at :func:`clipped_mean_optimal_radius`):

    .. math:: E_{\mathrm{priv}}(n) = \frac{k}{k-1}\big((k-1)A_kM_k\big)^{1/k} B^{(k-1)/k}
              \;\propto\; (\varepsilon n)^{-(k-1)/k}.

    An upper bound with exact constants (no sampling error): the private term of the rate of Kamath, Singhal & Ullman
    (2020), slope exactly :math:`-(k-1)/k` on log–log axes.

    Examples
    --------
    >>> round(clipped_mean_private_error(10**4, 1.0, moment_k=2), 6)  # sqrt(2 sqrt2 / 10^4)
    0.016818
    """
    coefficient, noise = _bias_noise_coefficients(n, epsilon, moment_k, moment_bound)
    value = moment_k / (moment_k - 1.0) * coefficient ** (1.0 / moment_k) * noise ** (1.0 - 1.0 / moment_k)
    return float_if_scalar(value)


@validated(n=_SIZE, epsilon=_EPSILONS, moment_k=_MOMENT, moment_bound=POSITIVE)
def clipped_mean_optimal_radius(n, epsilon, moment_k: float, moment_bound: float = 1.0) -> float | np.ndarray:
    r"""The window radius :math:`t^*` minimising bias bound + noise sd (docs/algorithms.md §1.3).

    .. math:: t^* = \big((k-1)A_kM_k / B\big)^{1/k}, \qquad B = \frac{2\sqrt2}{\varepsilon n},
              \; A_k = \frac{(k-1)^{k-1}}{k^k},

    growing like :math:`(\varepsilon n)^{1/k}`: more data, a wider window. See
    :func:`clipped_mean_private_error` for the value at :math:`t^*`.

    Examples
    --------
    >>> round(clipped_mean_optimal_radius(10**4, 1.0, moment_k=2), 4)  # sqrt(A_2 / B), A_2 = 1/4
    29.7302
    """
    coefficient, noise = _bias_noise_coefficients(n, epsilon, moment_k, moment_bound)
    return float_if_scalar((coefficient / noise) ** (1.0 / moment_k))


@validated(candidates=Array(low=1), epsilon=_EPSILONS, sensitivity=POSITIVE, t=Real(low=0))
def exponential_mechanism_loss_bound(candidates, epsilon, sensitivity: float = 1.0, t: float = math.log(10.0),
                                     monotonic: bool = False) -> float | np.ndarray:
    r"""Utility bound of the exponential mechanism: a loss exceeded with probability at most :math:`e^{-t}`.

    .. math:: P\Big[u(\hat h) \le \mathrm{OPT} - \tfrac{2\Delta}{\varepsilon}(\ln k + t)\Big] \le e^{-t}

    for :math:`k` candidates and scores of sensitivity :math:`\Delta` (McSherry & Talwar 2007; Dwork & Roth
    2014, Thm 3.11; Kamath, Singhal & Ullman 2020; docs/algorithms.md §0.6). With ``monotonic=True`` (selection
    :math:`\propto e^{\varepsilon u/\Delta}`) the factor is :math:`\Delta/\varepsilon`. For a continuous space
    pass ``candidates`` :math:`= \pi(\mathcal H)/\pi(G) \ge 1`. The default :math:`t = \ln 10` bounds the
    90 % quantile of the loss (the engine's upper band); :math:`t = \ln 2` bounds its median.

    Examples
    --------
    >>> round(exponential_mechanism_loss_bound(100, 1.0, t=0.0), 4)  # 2 ln 100
    9.2103
    """
    factor = sensitivity / epsilon if monotonic else 2.0 * sensitivity / epsilon
    return float_if_scalar(factor * (np.log(candidates) + t))
