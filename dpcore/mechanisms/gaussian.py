"""The Gaussian mechanism: analytic and classical (ε, δ) calibrations, and the ρ-zCDP Gaussian.

Guarantees stated in each docstring; checked by statistical audits (``tests/test_privacy_audit.py``). Neighbouring
datasets are replace-one unless a docstring says otherwise; the caller passes a correct ℓ2 sensitivity.
"""

from __future__ import annotations

import math

import numpy as np

from .. import accounting
from ..core.randomness import RngLike, as_generator
from ..core.validation import (
    DELTA,
    EPSILON,
    SENSITIVITY,
    Array,
    Choice,
    InvalidParameterError,
    Real,
    Seed,
    float_if_scalar,
    validated,
)

__all__ = ["gaussian_sigma", "gaussian", "zcdp_gaussian"]


@validated(l2_sensitivity=SENSITIVITY, epsilon=EPSILON, delta=DELTA, calibration=Choice(("analytic", "classical")))
def gaussian_sigma(l2_sensitivity: float, epsilon: float, delta: float, calibration: str = "analytic") -> float:
    r"""Noise standard deviation that makes the Gaussian mechanism :math:`(\varepsilon, \delta)`-DP.

    ``calibration="analytic"`` (default): the smallest :math:`\sigma` with
    :math:`\delta_{\mathcal N}(\varepsilon; \Delta_2/\sigma) \le \delta` — the analytic Gaussian mechanism of
    Balle & Wang (2018, Thm 8 + Alg 1), exact and valid for every :math:`\varepsilon > 0`.

    ``calibration="classical"``: :math:`\sigma = \Delta_2\sqrt{2\ln(1.25/\delta)}/\varepsilon` (Dwork & Roth 2014, Thm
    A.1), proved for :math:`\varepsilon < 1`; accepted for :math:`\varepsilon \le 1` (at :math:`\varepsilon = 1` it
    still exceeds the analytic :math:`\sigma`) and rejected above, where it can be too small to be private.

    Parameters
    ----------
    l2_sensitivity : float
        :math:`\Delta_2 > 0`, the :math:`\ell_2` sensitivity of the query.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0` (at most 1 with ``calibration="classical"``).
    delta : float
        Privacy parameter :math:`0 < \delta < 1`.
    calibration : {"analytic", "classical"}, default "analytic"
        Which calibration (above).

    Returns
    -------
    float
        The noise standard deviation :math:`\sigma`.

    Raises
    ------
    InvalidParameterError
        With ``calibration="classical"`` and :math:`\varepsilon > 1`; with ``"analytic"`` when the noise would
        exceed what a float can hold (:func:`dpcore.accounting.gaussian_mu`).

    Examples
    --------
    >>> round(gaussian_sigma(1.0, 1.0, 1e-5), 4), round(gaussian_sigma(1.0, 1.0, 1e-5, "classical"), 4)
    (3.7306, 4.8448)
    """
    if calibration == "classical":
        if epsilon > 1.0:
            raise InvalidParameterError(f"epsilon must be a real number in (0, 1] for calibration='classical' "
                                        f"(Dwork & Roth 2014, Thm A.1); got {epsilon!r}. Use calibration='analytic'.")
        return l2_sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
    return l2_sensitivity / accounting.gaussian_mu(epsilon, delta)


@validated(value=Array(min_size=0), l2_sensitivity=SENSITIVITY, epsilon=EPSILON, delta=DELTA, rng=Seed(),
           calibration=Choice(("analytic", "classical")))
def gaussian(value, l2_sensitivity: float, epsilon: float, delta: float, rng: RngLike = None,
             calibration: str = "analytic") -> float | np.ndarray:
    r"""The Gaussian mechanism: ``value + N(0, sigma^2 I)`` with ``sigma = gaussian_sigma(...)``.

    Guarantee: :math:`(\varepsilon, \delta)`-DP when ``l2_sensitivity`` bounds
    :math:`\|f(X) - f(X')\|_2` over neighbouring datasets; never pure DP for any :math:`\sigma`
    (its privacy profile, :func:`dpcore.accounting.gaussian_delta`, is positive everywhere).
    Equivalently :math:`\Delta_2^2/(2\sigma^2)`-zCDP.

    An array ``value`` is treated as one vector release; for many independent releases (trials)
    pass shape ``(trials, d)`` — each row is privatised independently with the same :math:`\sigma`.

    Parameters
    ----------
    value : float or array
        The exact query value(s), finite, of any shape.
    l2_sensitivity : float
        :math:`\Delta_2 > 0`, a bound on :math:`\|f(X) - f(X')\|_2` over neighbouring datasets.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0` (at most 1 with ``calibration="classical"``).
    delta : float
        Privacy parameter :math:`0 < \delta < 1`.
    rng : None, int or numpy.random.Generator, optional
        Source of the noise: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).
    calibration : {"analytic", "classical"}, default "analytic"
        How :math:`\sigma` is calibrated (:func:`gaussian_sigma`).

    Returns
    -------
    float or numpy.ndarray
        A float for a scalar ``value``, otherwise an array of ``value``'s shape.

    Examples
    --------
    The noise sd is the calibrated σ (:func:`gaussian_sigma`: 3.7306 for Δ₂ = 1, ε = 1, δ = 1e-5):

    >>> draws = gaussian(np.zeros(100_000), 1.0, 1.0, 1e-5, rng=0)
    >>> round(float(np.std(draws)), 2)
    3.73
    """
    sigma = gaussian_sigma(l2_sensitivity, epsilon, delta, calibration)
    generator = as_generator(rng)
    return float_if_scalar(value + generator.normal(0.0, sigma, size=np.shape(value)))


@validated(value=Array(min_size=0), l2_sensitivity=Array(low=0, low_open=True), rho=Real(low=0, low_open=True),
           rng=Seed())
def zcdp_gaussian(value, l2_sensitivity, rho: float, rng: RngLike = None) -> float | np.ndarray:
    r"""The Gaussian mechanism calibrated to zero-concentrated DP: noise :math:`\sigma = \Delta_2/\sqrt{2\rho}`.

    Guarantee: :math:`\rho`-zCDP (Bun & Steinke 2016, Prop 1.6) when ``l2_sensitivity`` bounds
    :math:`\|f(X) - f(X')\|_2` over neighbours; hence :math:`(\rho + 2\sqrt{\rho\ln(1/\delta)}, \delta)`-DP for
    every :math:`\delta > 0` (:func:`dpcore.accounting.zcdp_to_approx`). With :math:`\rho = \varepsilon^2/2` it
    matches the zCDP that :math:`\varepsilon`-DP implies, the fair comparison with the Laplace mechanism.
    An array ``l2_sensitivity`` broadcast against ``value`` gives each release its own :math:`\Delta_2`
    (e.g. one per trial, from an already private clipping radius).

    Parameters
    ----------
    value : float or array
        The exact query value(s), finite, of any shape.
    l2_sensitivity : float or array
        :math:`\Delta_2 > 0` (every entry finite and positive), broadcast against ``value``.
    rho : float
        The zCDP parameter :math:`\rho > 0`.
    rng : None, int or numpy.random.Generator, optional
        Source of the noise: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).

    Returns
    -------
    float or numpy.ndarray
        A float for a scalar result, otherwise an array of the broadcast shape of ``value`` and
        ``l2_sensitivity``.

    Examples
    --------
    ρ-zCDP for sensitivity Δ₂ takes σ = Δ₂/√(2ρ): σ = 1 at ρ = 1/2.

    >>> draws = zcdp_gaussian(np.zeros(100_000), 1.0, 0.5, rng=0)
    >>> round(float(np.std(draws)), 2)
    1.0
    """
    sigma = l2_sensitivity / math.sqrt(2.0 * rho)
    generator = as_generator(rng)
    shape = np.broadcast_shapes(np.shape(value), np.shape(sigma))
    return float_if_scalar(value + generator.normal(0.0, 1.0, size=shape) * sigma)

