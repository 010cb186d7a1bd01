r"""Privacy accounting: privacy profiles, conversions between notions, and composition.

Neighbouring relation throughout: replace-one (datasets of equal size differing in one row), with the
sensitivity of the released query stated per function. Formulas follow docs/algorithms.md §0.3–0.5.

Privacy profile of a mechanism ``M``: the smallest :math:`\delta` for which ``M`` is
:math:`(\varepsilon, \delta)`-DP, i.e. the hockey-stick divergence
:math:`\delta(\varepsilon) = \sup_{X \sim X'} \int (p_X - e^\varepsilon p_{X'})_+`.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, special, stats

from .core.validation import DELTA, POSITIVE, Array, Choice, Integer, InvalidParameterError, Real, validated

__all__ = [
    "laplace_delta",
    "gaussian_delta",
    "gaussian_mu",
    "gaussian_epsilon",
    "pure_to_zcdp",
    "zcdp_to_approx",
    "zcdp_to_approx_optimal",
    "approx_to_zcdp",
    "gaussian_zcdp",
    "basic_composition",
    "advanced_composition",
    "zcdp_composition",
    "gaussian_composition",
    "laplace_tradeoff",
    "gaussian_tradeoff",
    "dp_tradeoff",
    "epsilon_for_error",
]

_NONNEGATIVE = Real(low=0)


@validated(epsilon=_NONNEGATIVE, scale=POSITIVE, sensitivity=POSITIVE)
def laplace_delta(epsilon: float, scale: float, sensitivity: float = 1.0) -> float:
    r"""Privacy profile of the Laplace mechanism with noise scale ``scale``.

    With :math:`\varepsilon_0 = \Delta_1 / b`,

    .. math:: \delta(\varepsilon) = 1 - e^{(\varepsilon - \varepsilon_0)/2} \text{ for } \varepsilon < \varepsilon_0,
              \quad 0 \text{ otherwise}.

    Exact for a scalar query whose neighbours differ by ``sensitivity`` (the worst case of a
    one-coordinate change). Zero at :math:`\varepsilon_0`: the Laplace mechanism is pure
    :math:`\varepsilon_0`-DP (Dwork & Roth 2014, Thm 3.6).

    Parameters
    ----------
    epsilon : float
        The :math:`\varepsilon \ge 0` at which the profile is evaluated.
    scale : float
        The Laplace noise scale :math:`b > 0`.
    sensitivity : float, default 1.0
        :math:`\Delta_1 > 0`, the distance between the neighbours' query values.

    Returns
    -------
    float
        :math:`\delta(\varepsilon)`, in :math:`[0, 1)`.

    Examples
    --------
    >>> round(laplace_delta(0.3, scale=1.0), 6)
    0.295312
    """
    epsilon0 = sensitivity / scale
    if epsilon >= epsilon0:
        return 0.0
    return float(-math.expm1((epsilon - epsilon0) / 2.0))


@validated(epsilon=_NONNEGATIVE, sigma=POSITIVE, l2_sensitivity=POSITIVE)
def gaussian_delta(epsilon: float, sigma: float, l2_sensitivity: float = 1.0) -> float:
    r"""Privacy profile of the Gaussian mechanism (Balle & Wang 2018, Thm 8).

    With :math:`\mu = \Delta_2 / \sigma`,

    .. math:: \delta(\varepsilon) = \Phi\!\left(\tfrac{\mu}{2} - \tfrac{\varepsilon}{\mu}\right)
              - e^{\varepsilon}\,\Phi\!\left(-\tfrac{\mu}{2} - \tfrac{\varepsilon}{\mu}\right).

    Exact for neighbours whose query values are ``l2_sensitivity`` apart. Positive for every
    :math:`\varepsilon`: the Gaussian mechanism is never pure DP. Evaluated in log space so that the
    second term does not overflow for large :math:`\varepsilon`.

    Parameters
    ----------
    epsilon : float
        The :math:`\varepsilon \ge 0` at which the profile is evaluated.
    sigma : float
        The Gaussian noise standard deviation :math:`\sigma > 0`.
    l2_sensitivity : float, default 1.0
        :math:`\Delta_2 > 0`, the :math:`\ell_2` distance between the neighbours' query values.

    Returns
    -------
    float
        :math:`\delta(\varepsilon)`, in :math:`[0, 1)`.

    Examples
    --------
    >>> round(gaussian_delta(0.0, sigma=2.0), 6)
    0.197413
    """
    mu = l2_sensitivity / sigma
    return _gaussian_delta_mu(epsilon, mu)


def _gaussian_delta_mu(epsilon: float, mu: float) -> float:
    r""":math:`\delta_{\mathcal N}(\varepsilon; \mu)`, the Gaussian mechanism's privacy profile at :math:`\mu`.

    :math:`\delta_{\mathcal N}(\varepsilon; \mu) = \Phi(a) - e^{\varepsilon}\Phi(b)
    = \Phi(a)\,(1 - e^{\varepsilon - L})`,
    :math:`a = \mu/2 - \varepsilon/\mu`, :math:`b = a - \mu`, :math:`L = \ln\Phi(a) - \ln\Phi(b)`.

    For :math:`\mu < 1` the difference :math:`L` of two nearly equal logarithms is computed as the integral of the
    inverse Mills ratio :math:`\varphi/\Phi` over :math:`[b, a]` (16-point Gauss–Legendre), not by subtraction: at
    tiny :math:`\mu` the subtraction loses every digit and made the analytic Gaussian under-noised.
    """
    a = mu / 2.0 - epsilon / mu
    b = -mu / 2.0 - epsilon / mu
    if mu < 1.0:  # nodes around the midpoint -ε/μ with half-width μ/2 exactly (a − b would round away μ's digits)
        t = -epsilon / mu + mu / 2.0 * _GAUSS_NODES
        mills = _SQRT_2_OVER_PI / special.erfcx(-t / math.sqrt(2.0))  # φ/Φ, stable at any t
        log_ratio = mu / 2.0 * float(np.dot(_GAUSS_WEIGHTS, mills))
    else:
        log_ratio = special.log_ndtr(a) - special.log_ndtr(b)
    if epsilon >= log_ratio:  # delta is 0 to machine precision
        return 0.0
    return float(math.exp(special.log_ndtr(a)) * -math.expm1(epsilon - log_ratio))


_GAUSS_NODES, _GAUSS_WEIGHTS = np.polynomial.legendre.leggauss(16)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


@validated(epsilon=POSITIVE, delta=DELTA)
def gaussian_mu(epsilon: float, delta: float) -> float:
    r"""The largest :math:`\mu = \Delta_2/\sigma` with :math:`\delta_{\mathcal N}(\varepsilon; \mu) \le \delta`.

    Solves the analytic-Gaussian equation of Balle & Wang (2018) by Brent's method in :math:`\ln\mu`
    (:math:`\delta_{\mathcal N}` is increasing in :math:`\mu`), over every :math:`\mu` a float can hold: down to
    :math:`10^{-280}` (tiny :math:`\varepsilon` and :math:`\delta` need tiny :math:`\mu`, i.e. huge noise), up to
    100 (more is never needed by a teaching page; a smaller :math:`\mu` only adds noise). The result is nudged down
    until :math:`\delta_{\mathcal N}(\varepsilon; \mu) \le \delta` holds as computed, so the noise
    :math:`\sigma = \Delta_2/\mu` never promises less than asked.

    Parameters
    ----------
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    delta : float
        Privacy parameter :math:`0 < \delta < 1`.

    Returns
    -------
    float
        :math:`\mu`, in :math:`(0, 100]`.

    Raises
    ------
    InvalidParameterError
        When even :math:`\mu = 10^{-280}` misses :math:`\delta`: the noise cannot be represented.

    Examples
    --------
    >>> round(1 / gaussian_mu(1.0, 1e-5), 4)  # the analytic Gaussian's sigma for unit sensitivity
    3.7306
    >>> f"{1 / gaussian_mu(1e-7, 1e-9):.3g}"  # tiny epsilon, tiny delta: huge noise, but never too little
    '1.72e+07'
    """
    high = 100.0
    if _gaussian_delta_mu(epsilon, high) <= delta:
        return high
    low = 1e-6
    while _gaussian_delta_mu(epsilon, low) > delta:
        low *= 1e-4
        if low < _SMALLEST_MU:
            raise InvalidParameterError(f"epsilon={epsilon!r} with delta={delta!r} needs Gaussian noise above 1e280 "
                                        "times the "
                                        "sensitivity, which a float cannot hold: choose a larger epsilon or delta")
    log_mu = optimize.brentq(lambda t: _gaussian_delta_mu(epsilon, math.exp(t)) - delta, math.log(low),
                             math.log(high), xtol=1e-13, rtol=1e-15)
    mu = math.exp(log_mu)
    while _gaussian_delta_mu(epsilon, mu) > delta:  # rounding in the root: step to the safe side
        mu *= 1.0 - 1e-12
    return mu


_SMALLEST_MU = 1e-280


@validated(mu=POSITIVE, delta=DELTA)
def gaussian_epsilon(mu: float, delta: float) -> float:
    r"""The smallest :math:`\varepsilon \ge 0` with :math:`\delta_{\mathcal N}(\varepsilon; \mu) \le \delta`.

    Because a composition of Gaussian mechanisms is exactly a Gaussian mechanism with
    :math:`\mu = \sqrt{\sum_i \mu_i^2}` (Gaussian DP, Dong, Roth & Su 2022), this gives the exact
    :math:`\varepsilon` of any number of composed Gaussian releases.

    Parameters
    ----------
    mu : float
        :math:`\mu = \Delta_2/\sigma > 0`.
    delta : float
        Privacy parameter :math:`0 < \delta < 1`.

    Returns
    -------
    float
        :math:`\varepsilon \ge 0` (0 when :math:`\delta_{\mathcal N}(0; \mu) \le \delta` already).
    """
    if _gaussian_delta_mu(0.0, mu) <= delta:
        return 0.0
    high = 1.0
    while _gaussian_delta_mu(high, mu) > delta:
        high *= 2.0
    return float(optimize.brentq(lambda eps: _gaussian_delta_mu(eps, mu) - delta, 0.0, high,
                                 xtol=1e-13, rtol=1e-13))


@validated(epsilon=_NONNEGATIVE)
def pure_to_zcdp(epsilon: float) -> float:
    r""":math:`\varepsilon`-DP implies :math:`\rho = \varepsilon^2/2`-zCDP (Bun & Steinke 2016, Prop 3.3).

    Parameters
    ----------
    epsilon : float
        The pure-DP parameter :math:`\varepsilon \ge 0`.

    Returns
    -------
    float
        :math:`\rho = \varepsilon^2/2`.
    """
    return epsilon**2 / 2.0


@validated(rho=_NONNEGATIVE, delta=DELTA)
def zcdp_to_approx(rho: float, delta: float) -> float:
    r""":math:`\rho`-zCDP implies :math:`(\rho + 2\sqrt{\rho \ln(1/\delta)}, \delta)`-DP (Bun & Steinke 2016, Prop 1.3).

    Parameters
    ----------
    rho : float
        The zCDP parameter :math:`\rho \ge 0`.
    delta : float
        The target :math:`0 < \delta < 1`.

    Returns
    -------
    float
        :math:`\varepsilon = \rho + 2\sqrt{\rho \ln(1/\delta)}`.

    Examples
    --------
    >>> round(zcdp_to_approx(0.5, 1e-6), 4)
    5.7565
    """
    return rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta))


@validated(rho=POSITIVE, delta=DELTA)
def zcdp_to_approx_optimal(rho: float, delta: float) -> float:
    r"""The tighter zCDP to :math:`(\varepsilon, \delta)`-DP conversion of Canonne, Kamath & Steinke (2020), Prop 12.

    The smallest :math:`\varepsilon` with

    .. math:: \delta \ge \inf_{\alpha > 1} \frac{\exp((\alpha-1)(\alpha\rho - \varepsilon))}{\alpha}
              \left(1 - \tfrac{1}{\alpha}\right)^{\alpha - 1}.

    Equivalently :math:`\varepsilon = \inf_{\alpha>1} \alpha\rho + (\ln(1/\delta) + (\alpha-1)\ln(1-1/\alpha)
    - \ln\alpha)/(\alpha-1)`, minimised numerically over :math:`\alpha`. For a tiny :math:`\rho` that infimum can be
    negative: then :math:`(0, \delta)`-DP holds (the total variation between neighbours is already below
    :math:`\delta`), and 0 is returned; never a negative :math:`\varepsilon`.

    Parameters
    ----------
    rho : float
        The zCDP parameter :math:`\rho > 0`.
    delta : float
        The target :math:`0 < \delta < 1`.

    Returns
    -------
    float
        :math:`\varepsilon \ge 0`, never above :func:`zcdp_to_approx`'s.

    Examples
    --------
    >>> round(zcdp_to_approx_optimal(0.5, 1e-6), 4)
    5.2215
    >>> zcdp_to_approx_optimal(1e-12, 1e-6)
    0.0
    """
    log_inv_delta = math.log(1.0 / delta)

    def epsilon_at(alpha: float) -> float:
        return alpha * rho + (log_inv_delta + (alpha - 1) * math.log1p(-1 / alpha) - math.log(alpha)) / (alpha - 1)

    upper = max(10.0, 10.0 * (1.0 + math.sqrt(log_inv_delta / rho)))
    result = optimize.minimize_scalar(epsilon_at, bounds=(1.0 + 1e-9, upper), method="bounded",
                                      options={"xatol": 1e-10})
    # Below 0 the bound says (0, δ)-DP already holds (δ(ε) falls with ε, and ε < 0 is no guarantee): clamp.
    return max(0.0, float(min(result.fun, zcdp_to_approx(rho, delta))))


@validated(epsilon=_NONNEGATIVE, delta=DELTA)
def approx_to_zcdp(epsilon: float, delta: float) -> float:
    r"""The largest :math:`\rho` whose simple conversion (:func:`zcdp_to_approx`) fits in :math:`(\varepsilon, \delta)`.

    .. math:: \rho(\varepsilon, \delta) = \left(\sqrt{\ln(1/\delta) + \varepsilon} - \sqrt{\ln(1/\delta)}\right)^2.

    Parameters
    ----------
    epsilon : float
        Privacy parameter :math:`\varepsilon \ge 0`.
    delta : float
        Privacy parameter :math:`0 < \delta < 1`.

    Returns
    -------
    float
        :math:`\rho(\varepsilon, \delta) \ge 0`.

    Examples
    --------
    >>> round(approx_to_zcdp(1.0, 1e-6), 6)
    0.017469
    """
    log_inv_delta = math.log(1.0 / delta)
    # (√(L + ε) − √L)² written without the subtraction, which loses every digit at tiny ε
    return (epsilon / (math.sqrt(log_inv_delta + epsilon) + math.sqrt(log_inv_delta))) ** 2


@validated(sigma=POSITIVE, l2_sensitivity=POSITIVE)
def gaussian_zcdp(sigma: float, l2_sensitivity: float = 1.0) -> float:
    r"""The Gaussian mechanism with noise :math:`\sigma` is :math:`\Delta_2^2/(2\sigma^2)`-zCDP.

    Bun & Steinke (2016), Prop 1.6.

    Parameters
    ----------
    sigma : float
        The noise standard deviation :math:`\sigma > 0`.
    l2_sensitivity : float, default 1.0
        :math:`\Delta_2 > 0`.

    Returns
    -------
    float
        :math:`\rho = \Delta_2^2/(2\sigma^2)`.
    """
    return l2_sensitivity**2 / (2.0 * sigma**2)


@validated(epsilon=_NONNEGATIVE, delta=Real(0, 1, high_open=True), releases=Integer(low=1))
def basic_composition(epsilon: float, delta: float, releases: int) -> tuple[float, float]:
    r"""``releases`` adaptive :math:`(\varepsilon, \delta)`-DP mechanisms are :math:`(k\varepsilon, k\delta)`-DP.

    Basic composition (Kamath, Singhal & Ullman 2020, Lemma 2.5).

    Parameters
    ----------
    epsilon : float
        The :math:`\varepsilon \ge 0` of each release.
    delta : float
        The :math:`\delta` of each release, :math:`0 \le \delta < 1`.
    releases : int
        :math:`k \ge 1`.

    Returns
    -------
    (float, float)
        :math:`(k\varepsilon, \min(1, k\delta))`.
    """
    return releases * epsilon, min(1.0, releases * delta)


@validated(epsilon=_NONNEGATIVE, delta=Real(0, 1, high_open=True), releases=Integer(low=1), delta_prime=DELTA)
def advanced_composition(epsilon: float, delta: float, releases: int, delta_prime: float) -> tuple[float, float]:
    r"""Advanced composition (Dwork, Rothblum & Vadhan 2010; Dwork & Roth 2014, Thm 3.20).

    :math:`k` adaptive :math:`(\varepsilon_0, \delta_0)`-DP mechanisms are
    :math:`(\varepsilon_0\sqrt{2k\ln(1/\delta')} + k\varepsilon_0(e^{\varepsilon_0} - 1),\; k\delta_0 + \delta')`-DP.

    Parameters
    ----------
    epsilon : float
        :math:`\varepsilon_0 \ge 0`, the :math:`\varepsilon` of each release (at most 690, beyond which the bound
        exceeds 1e300).
    delta : float
        :math:`\delta_0`, the :math:`\delta` of each release, :math:`0 \le \delta_0 < 1`.
    releases : int
        :math:`k \ge 1`.
    delta_prime : float
        The slack :math:`0 < \delta' < 1`.

    Returns
    -------
    (float, float)
        The total :math:`\varepsilon` and :math:`\min(1, k\delta_0 + \delta')`.

    Examples
    --------
    >>> round(advanced_composition(0.1, 0.0, 100, 1e-6)[0], 4)
    6.3082
    """
    if epsilon > _LARGEST_EXPONENT:
        raise InvalidParameterError(f"epsilon={epsilon!r} per release makes the advanced composition bound exceed "
                                    "1e300 (it "
                                    f"grows like e^epsilon); use basic composition, {releases} x epsilon, which is "
                                    "smaller")
    total = epsilon * math.sqrt(2.0 * releases * math.log(1.0 / delta_prime)) + releases * epsilon * math.expm1(epsilon)
    return total, min(1.0, releases * delta + delta_prime)


_LARGEST_EXPONENT = 690.0  # e^690 ≈ 1e300: beyond it a bound with an e^ε term cannot be a float


@validated(rho=_NONNEGATIVE, releases=Integer(low=1))
def zcdp_composition(rho: float, releases: int) -> float:
    r"""Composition of zCDP: ``releases`` adaptive :math:`\rho`-zCDP mechanisms are :math:`k\rho`-zCDP.

    zCDP composes additively (Bun & Steinke 2016).

    Parameters
    ----------
    rho : float
        The :math:`\rho \ge 0` of each release.
    releases : int
        :math:`k \ge 1`.

    Returns
    -------
    float
        :math:`k\rho`.
    """
    return releases * rho


@validated(mu=POSITIVE, releases=Integer(low=1))
def gaussian_composition(mu: float, releases: int) -> float:
    r"""Exact composition of Gaussian mechanisms (Dong, Roth & Su 2022, Cor 3.3).

    ``releases`` adaptive releases with :math:`\mu = \Delta_2/\sigma` each are exactly one Gaussian mechanism with
    :math:`\mu\sqrt{k}`. Pass the result to :func:`gaussian_epsilon` for the exact total :math:`\varepsilon` at a
    given :math:`\delta`.

    Parameters
    ----------
    mu : float
        :math:`\mu = \Delta_2/\sigma > 0` of each release.
    releases : int
        :math:`k \ge 1`.

    Returns
    -------
    float
        :math:`\mu\sqrt{k}`.
    """
    return mu * math.sqrt(releases)


# ------------------------------------------------------------------------------------------- trade-off functions
#: Type-I errors: probabilities in [0, 1].
_ALPHA = Array(low=0, high=1)


@validated(alpha=_ALPHA, epsilon=_NONNEGATIVE)
def laplace_tradeoff(alpha, epsilon: float) -> np.ndarray:
    r"""The Laplace mechanism's trade-off function (f-DP; Dong, Roth & Su 2022).

    The smallest type-II error of any test between :math:`M(X)` and :math:`M(X')` whose type-I error is at most
    :math:`\alpha`, for noise of scale :math:`\Delta/\varepsilon` (the test of :math:`\mathrm{Lap}(0, 1)` against
    :math:`\mathrm{Lap}(\varepsilon, 1)`):

    .. math:: f_\varepsilon(\alpha) = \begin{cases} 1 - e^{\varepsilon}\alpha & \alpha < e^{-\varepsilon}/2 \\
              e^{-\varepsilon}/(4\alpha) & e^{-\varepsilon}/2 \le \alpha \le 1/2 \\
              e^{-\varepsilon}(1 - \alpha) & \alpha > 1/2 \end{cases}

    (the likelihood-ratio tests "output above t"; the three pieces are t above ε, between 0 and ε, below 0).

    Parameters
    ----------
    alpha : float or array
        Type-I errors, every entry in :math:`[0, 1]`.
    epsilon : float
        :math:`\varepsilon \ge 0`.

    Returns
    -------
    numpy.ndarray
        :math:`f_\varepsilon(\alpha)`, of ``alpha``'s shape.

    Examples
    --------
    >>> [round(float(v), 4) for v in laplace_tradeoff([0.0, 0.1, 0.5, 1.0], 1.0)]
    [1.0, 0.7282, 0.1839, 0.0]
    """
    a = np.asarray(alpha, dtype=float)
    tail = math.exp(-epsilon)
    with np.errstate(divide="ignore"):
        middle = tail / (4 * np.maximum(a, tail / 2))
    return np.where(a < tail / 2, 1 - a / tail, np.where(a <= 0.5, middle, tail * (1 - a)))


@validated(alpha=_ALPHA, mu=_NONNEGATIVE)
def gaussian_tradeoff(alpha, mu: float) -> np.ndarray:
    r"""The trade-off function of :math:`\mu`-Gaussian DP (Dong, Roth & Su 2022).

    That of the Gaussian mechanism with :math:`\mu = \Delta_2/\sigma`:
    :math:`G_\mu(\alpha) = \Phi(\Phi^{-1}(1 - \alpha) - \mu)`.

    Parameters
    ----------
    alpha : float or array
        Type-I errors, every entry in :math:`[0, 1]`.
    mu : float
        :math:`\mu \ge 0`.

    Returns
    -------
    numpy.ndarray
        :math:`G_\mu(\alpha)`, of ``alpha``'s shape (a NumPy float for a scalar ``alpha``).

    Examples
    --------
    >>> round(float(gaussian_tradeoff(0.05, 1.0)), 4)
    0.7405
    """
    return stats.norm.cdf(stats.norm.ppf(1 - np.asarray(alpha, dtype=float)) - mu)


@validated(alpha=_ALPHA, epsilon=_NONNEGATIVE, delta=Real(0, 1, high_open=True))
def dp_tradeoff(alpha, epsilon: float, delta: float = 0.0) -> np.ndarray:
    r"""The least trade-off :math:`(\varepsilon, \delta)`-DP allows.

    Wasserman & Zhou (2010); Kairouz, Oh & Viswanath (2015): a mechanism is :math:`(\varepsilon, \delta)`-DP exactly
    when its trade-off function lies above

    .. math:: f_{\varepsilon,\delta}(\alpha) = \max\{0,\; 1 - \delta - e^{\varepsilon}\alpha,\;
              e^{-\varepsilon}(1 - \delta - \alpha)\}.

    Parameters
    ----------
    alpha : float or array
        Type-I errors, every entry in :math:`[0, 1]`.
    epsilon : float
        :math:`\varepsilon \ge 0`.
    delta : float, default 0.0
        :math:`0 \le \delta < 1`.

    Returns
    -------
    numpy.ndarray
        :math:`f_{\varepsilon,\delta}(\alpha)`, of ``alpha``'s shape (a NumPy float for a scalar ``alpha``).

    Examples
    --------
    >>> [round(float(v), 4) for v in dp_tradeoff([0.0, 0.2, 1.0], 1.0, 0.01)]
    [0.99, 0.4463, 0.0]
    """
    a = np.asarray(alpha, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):  # e^ε overflows past ε ≈ 709: 1 − δ − e^ε·α is then −∞ (α > 0)
        steep = np.where(a > 0, 1 - delta - np.exp(epsilon) * a, 1 - delta)
    return np.maximum.reduce([np.zeros_like(a), steep, math.exp(-epsilon) * (1 - delta - a)])


# ------------------------------------------------------------------------------------- from an accuracy to an ε
@validated(error=POSITIVE, sensitivity=POSITIVE, confidence=Real(0, 1, low_open=True, high_open=True),
           mechanism=Choice(("laplace", "gaussian")), delta=Real(0, 1, high_open=True))
def epsilon_for_error(error: float, sensitivity: float = 1.0, confidence: float = 0.95, mechanism: str = "laplace",
                      delta: float = 0.0) -> float:
    r"""The smallest ε meeting an accuracy target: the inverse of a noisy release's error law.

    The smallest :math:`\varepsilon` at which a noisy release is within :math:`\pm t` of its value with
    probability :math:`c`: the inverse of the release's error law.

    *Laplace* (noise :math:`\mathrm{Lap}(b)`, :math:`\varepsilon_0 = \Delta_1/b`-DP; Dwork & Roth 2014, Thm 3.6):
    :math:`P(|\mathrm{Lap}(b)| \le t) = 1 - e^{-t/b} = c` gives :math:`b = t/\ln\frac{1}{1-c}`, so

    .. math:: \varepsilon = \frac{\Delta_1 \ln(1/(1-c))}{t}

    at :math:`\delta = 0`; at :math:`\delta > 0` the smallest :math:`\varepsilon` of that noise's exact profile
    (:func:`laplace_delta`): :math:`\max(0,\; \varepsilon_0 + 2\ln(1-\delta))`.

    *Gaussian* (noise :math:`\mathcal N(0, \sigma^2)`): :math:`P(|\mathcal N(0,\sigma^2)| \le t) = 2\Phi(t/\sigma) - 1
    = c` gives :math:`\sigma = t/\Phi^{-1}(\tfrac{1+c}{2})`; :math:`\varepsilon` is then the root of the analytic
    Gaussian mechanism's exact profile :math:`\delta_{\mathcal N}(\varepsilon; \Delta_2/\sigma) = \delta`
    (Balle & Wang 2018, Thm 8; :func:`gaussian_epsilon`).

    Guarantee of the release so calibrated: :math:`\varepsilon`-DP (Laplace at :math:`\delta = 0`) or
    :math:`(\varepsilon, \delta)`-DP, for neighbours (replace-one unless the caller's sensitivity says otherwise) whose
    query values are ``sensitivity`` apart (:math:`\ell_1` for Laplace, :math:`\ell_2` for Gaussian).

    Parameters
    ----------
    error : float
        The target :math:`t > 0`: the release within :math:`\pm t` of the exact value.
    sensitivity : float, default 1.0
        :math:`\Delta > 0` of the query (1 for a count).
    confidence : float, default 0.95
        :math:`c \in (0, 1)`: the probability of being within :math:`\pm t`.
    mechanism : {"laplace", "gaussian"}, default "laplace"
        The noise.
    delta : float, default 0.0
        :math:`\delta \in [0, 1)`; the Gaussian mechanism needs :math:`\delta > 0`.

    Returns
    -------
    float
        :math:`\varepsilon \ge 0` (0 when the noise the target allows is already :math:`(0, \delta)`-DP).

    Raises
    ------
    InvalidParameterError
        A bad parameter, or ``mechanism="gaussian"`` with ``delta=0``.

    Examples
    --------
    >>> round(epsilon_for_error(10.0), 4)  # a count within ±10 for 95 % of releases: ln(20)/10
    0.2996
    >>> round(epsilon_for_error(10.0, mechanism="gaussian", delta=1e-6), 4)
    0.8162
    """
    if mechanism == "laplace":
        epsilon0 = sensitivity * -math.log1p(-confidence) / error
        return max(0.0, epsilon0 + 2.0 * math.log1p(-delta)) if delta > 0 else epsilon0
    if delta == 0:
        raise InvalidParameterError(f"delta must be in (0, 1) for the Gaussian mechanism (it is never pure DP); "
                                    f"got {delta!r}")
    sigma = error / special.ndtri((1.0 + confidence) / 2.0)
    return gaussian_epsilon(sensitivity / sigma, delta)
