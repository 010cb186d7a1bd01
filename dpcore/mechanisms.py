r"""The basic privacy mechanisms: Laplace, Gaussian, exponential, report-noisy-max, the Laplace histogram.

Each mechanism states its guarantee: the privacy notion, the neighbouring relation and the
sensitivity it assumes. Unless a docstring says otherwise the neighbouring relation is replace-one
(datasets of equal size that differ in one row) and the caller is responsible for passing a correct
sensitivity of the query it privatises; the mechanism's guarantee holds for that sensitivity.
Formulas: ``algorithms.md`` §0.2 and §0.6. Every mechanism is checked by a statistical privacy audit
(:mod:`dpcore.audit`, ``tests/test_privacy_audit.py``).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from . import accounting
from .randomness import RngLike, as_generator
from .validation import Array, Choice, Integer, Real, Seed, float_if_scalar, validated

__all__ = [
    "laplace",
    "gaussian",
    "gaussian_sigma",
    "zcdp_gaussian",
    "exponential_probabilities",
    "exponential",
    "report_noisy_max",
    "laplace_histogram",
]

_EPSILON = Real(low=0, low_open=True)
_DELTA = Real(0, 1, low_open=True, high_open=True)
_SENSITIVITY = Real(low=0, low_open=True)
_SCORES = Array(ndim=(1,), min_size=1)


@validated(value=Array(min_size=0), sensitivity=Array(low=0, low_open=True), epsilon=_EPSILON, rng=Seed())
def laplace(value, sensitivity, epsilon: float, rng: RngLike = None) -> float | np.ndarray:
    r"""The Laplace mechanism: ``value + Lap(sensitivity / epsilon)`` in every coordinate.

    Guarantee: :math:`\varepsilon`-DP (pure) when ``sensitivity`` bounds the :math:`\ell_1` distance
    :math:`\|f(X) - f(X')\|_1` between the query's values on neighbouring datasets
    (Dwork, McSherry, Nissim & Smith 2006; Dwork–Roth Thm 3.6; used by seeds 000, 001, 004).

    Parameters
    ----------
    value : float or array
        The exact query value(s). An array of shape ``(trials,)`` privatises many independent
        releases at once (one per trial, vectorised Monte Carlo).
    sensitivity : float or array
        :math:`\Delta_1 > 0`; an array broadcast against ``value`` gives each release its own
        sensitivity (e.g. a data-dependent but already private clipping window).
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    rng : None, int or numpy.random.Generator

    Returns
    -------
    float or numpy.ndarray
        A float for a scalar ``value``, otherwise an array of ``value``'s shape.

    Notes
    -----
    Noise :math:`\mathrm{Lap}(b)`, :math:`b = \Delta_1/\varepsilon`: density :math:`e^{-|z|/b}/(2b)`,
    variance :math:`2b^2`.
    """
    generator = as_generator(rng)
    scale = np.broadcast_to(sensitivity / epsilon, np.broadcast_shapes(np.shape(value), np.shape(sensitivity)))
    return float_if_scalar(value + generator.laplace(0.0, scale))


@validated(l2_sensitivity=_SENSITIVITY, epsilon=_EPSILON, delta=_DELTA, calibration=Choice(("analytic", "classical")))
def gaussian_sigma(l2_sensitivity: float, epsilon: float, delta: float, calibration: str = "analytic") -> float:
    r"""Noise standard deviation that makes the Gaussian mechanism :math:`(\varepsilon, \delta)`-DP.

    ``calibration="analytic"`` (default): the smallest :math:`\sigma` with
    :math:`\delta_{\mathcal N}(\varepsilon; \Delta_2/\sigma) \le \delta` — the analytic Gaussian mechanism of
    Balle & Wang (2018, Thm 8 + Alg 1), exact and valid for every :math:`\varepsilon > 0`.

    ``calibration="classical"``: :math:`\sigma = \Delta_2\sqrt{2\ln(1.25/\delta)}/\varepsilon` (Dwork–Roth Thm A.1),
    proved for :math:`\varepsilon < 1`; accepted for :math:`\varepsilon \le 1` (at :math:`\varepsilon = 1` it still exceeds the
    analytic :math:`\sigma`) and rejected above, where it can be too small to be private.

    Examples
    --------
    >>> round(gaussian_sigma(1.0, 1.0, 1e-5), 4), round(gaussian_sigma(1.0, 1.0, 1e-5, "classical"), 4)
    (3.7306, 4.8448)
    """
    if calibration == "classical":
        if epsilon > 1.0:
            raise ValueError(f"epsilon must be a real number in (0, 1] for calibration='classical' "
                             f"(Dwork-Roth Thm A.1); got {epsilon!r}. Use calibration='analytic'.")
        return l2_sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
    return l2_sensitivity / accounting.gaussian_mu(epsilon, delta)


@validated(value=Array(min_size=0), l2_sensitivity=_SENSITIVITY, epsilon=_EPSILON, delta=_DELTA, rng=Seed(),
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
    """
    sigma = gaussian_sigma(l2_sensitivity, epsilon, delta, calibration)
    generator = as_generator(rng)
    return float_if_scalar(value + generator.normal(0.0, sigma, size=np.shape(value)))


@validated(value=Array(min_size=0), l2_sensitivity=Array(low=0, low_open=True), rho=Real(low=0, low_open=True),
           rng=Seed())
def zcdp_gaussian(value, l2_sensitivity, rho: float, rng: RngLike = None) -> float | np.ndarray:
    r"""The Gaussian mechanism calibrated to zero-concentrated DP: noise :math:`\sigma = \Delta_2/\sqrt{2\rho}`.

    Guarantee: :math:`\rho`-zCDP (Bun & Steinke 2016, Prop 1.6; seed 004) when ``l2_sensitivity`` bounds
    :math:`\|f(X) - f(X')\|_2` over neighbours; hence :math:`(\rho + 2\sqrt{\rho\ln(1/\delta)}, \delta)`-DP for
    every :math:`\delta > 0` (:func:`dpcore.accounting.zcdp_to_approx`). With :math:`\rho = \varepsilon^2/2` it
    matches the zCDP that :math:`\varepsilon`-DP implies, the fair comparison with the Laplace mechanism.
    An array ``l2_sensitivity`` broadcast against ``value`` gives each release its own :math:`\Delta_2`
    (e.g. one per trial, from an already private clipping radius).
    """
    sigma = l2_sensitivity / math.sqrt(2.0 * rho)
    generator = as_generator(rng)
    shape = np.broadcast_shapes(np.shape(value), np.shape(sigma))
    return float_if_scalar(value + generator.normal(0.0, 1.0, size=shape) * sigma)


def _exponent_scale(epsilon: float, sensitivity: float, monotonic: bool) -> float:
    return epsilon / sensitivity if monotonic else epsilon / (2.0 * sensitivity)


@validated(scores=Array(ndim=(1, 2), min_size=1), epsilon=_EPSILON, sensitivity=_SENSITIVITY)
def exponential_probabilities(scores, epsilon: float, sensitivity: float = 1.0, monotonic: bool = False) -> np.ndarray:
    r"""Selection probabilities of the exponential mechanism (McSherry & Talwar 2007).

    .. math:: P(h) \propto \exp\!\big(\varepsilon\,u(X, h) / (2\Delta)\big) \quad (\text{monotonic=False}),
              \qquad P(h) \propto \exp\!\big(\varepsilon\,u(X, h) / \Delta\big) \quad (\text{monotonic=True}).

    Guarantee: :math:`\varepsilon`-DP when every score has sensitivity :math:`\le \Delta` under the
    neighbouring relation in use. ``monotonic=True`` is valid only if, between any two neighbours,
    all scores move in the same direction (e.g. vote counts under add/remove-one); otherwise that
    choice is only :math:`2\varepsilon`-DP. Utility (finite candidates, seed 004):
    :math:`P[u(\hat h) \le \mathrm{OPT} - \tfrac{2\Delta}{\varepsilon}(\ln k + t)] \le e^{-t}`.

    Computed in log space (log-sum-exp), so scores in the millions and :math:`10^6` candidates
    neither overflow nor underflow to all-zero.

    Examples
    --------
    Seed 001's election, scores (15, 19, 20), :math:`\varepsilon = 0.1`, :math:`\propto e^{\varepsilon u}`:

    >>> exponential_probabilities([15, 19, 20], 0.1, monotonic=True).round(4)
    array([0.2415, 0.3603, 0.3982])
    """
    logits = _exponent_scale(epsilon, sensitivity, monotonic) * scores
    return np.exp(logits - special.logsumexp(logits, axis=-1, keepdims=True))


@validated(scores=Array(ndim=(1, 2), min_size=1), epsilon=_EPSILON, sensitivity=_SENSITIVITY, rng=Seed(),
           size=Integer(low=1), method=Choice(("inverse_cdf", "gumbel")))
def exponential(scores, epsilon: float, sensitivity: float = 1.0, monotonic: bool = False, rng: RngLike = None,
                size: int | None = None, method: str = "inverse_cdf") -> int | np.ndarray:
    r"""Sample candidate indices from the exponential mechanism.

    Same law and guarantee as :func:`exponential_probabilities`; ``size`` independent draws share
    nothing but the scores (each draw alone is :math:`\varepsilon`-DP; ``size`` draws together are
    :math:`\mathrm{size}\cdot\varepsilon`-DP by composition).

    Parameters
    ----------
    scores : array of shape (k,) or (trials, k)
        One score vector, or one per independent dataset (vectorised Monte Carlo): a 2-D array gives
        one draw per row (``size`` must then be None).
    method : {"inverse_cdf", "gumbel"}
        ``"inverse_cdf"``: normalise in log space, then invert the CDF with uniforms.
        ``"gumbel"``: Gumbel-max, :math:`\arg\max_h [\varepsilon u_h/(2\Delta) + G_h]` with i.i.d. standard
        Gumbel :math:`G_h` — exact and never exponentiates a score. Both give the same law.

    Returns
    -------
    int or numpy.ndarray
        One index if ``size`` is None and ``scores`` is 1-D; an array of ``size`` indices; or one
        index per row of a 2-D ``scores``.
    """
    if scores.ndim == 2 and size is not None:
        raise ValueError(f"size must be None when scores has one row per dataset; got size={size}")
    generator = as_generator(rng)
    count = 1 if size is None else size
    logits = _exponent_scale(epsilon, sensitivity, monotonic) * scores
    if method == "gumbel":
        shape = logits.shape if scores.ndim == 2 else (count, scores.size)
        choice = np.argmax(logits + generator.gumbel(size=shape), axis=-1)
    else:
        # Unnormalised CDF of exp(logits - max): the same law, no overflow, one exp and one cumsum.
        cdf = np.cumsum(np.exp(logits - logits.max(axis=-1, keepdims=True)), axis=-1)
        if scores.ndim == 1:
            choice = np.searchsorted(cdf, generator.random(count) * cdf[-1], side="right")
        else:
            choice = (cdf <= generator.random((cdf.shape[0], 1)) * cdf[:, -1:]).sum(axis=1)
        choice = np.minimum(choice, scores.shape[-1] - 1)
    return int(choice[0]) if scores.ndim == 1 and size is None else choice


@validated(scores=_SCORES, epsilon=_EPSILON, sensitivity=_SENSITIVITY, rng=Seed(), size=Integer(low=1))
def report_noisy_max(scores, epsilon: float, sensitivity: float = 1.0, monotonic: bool = False,
                     rng: RngLike = None, size: int | None = None) -> int | np.ndarray:
    r"""Report noisy max: :math:`\arg\max_h\, u_h + \mathrm{Lap}(b)`, releasing only the index.

    :math:`b = 2\Delta/\varepsilon` in general; :math:`b = \Delta/\varepsilon` when ``monotonic`` (all scores move in
    the same direction between neighbours, e.g. counts under add/remove-one; Dwork–Roth Claim 3.9).
    Guarantee: :math:`\varepsilon`-DP for scores of sensitivity :math:`\le \Delta`. ``size`` independent
    draws are returned as an array (each alone :math:`\varepsilon`-DP).
    """
    generator = as_generator(rng)
    scale = sensitivity / epsilon if monotonic else 2.0 * sensitivity / epsilon
    count = 1 if size is None else size
    choice = np.argmax(scores + generator.laplace(0.0, scale, size=(count, scores.size)), axis=1)
    return int(choice[0]) if size is None else choice


@validated(data=Array(ndim=(1, 2), min_size=1), edges=Array(ndim=(1,), min_size=2), epsilon=_EPSILON, rng=Seed())
def laplace_histogram(data, edges, epsilon: float, rng: RngLike = None) -> np.ndarray:
    r"""Pure-DP histogram: exact bin counts plus independent :math:`\mathrm{Lap}(2/\varepsilon)` noise per bin.

    Bins are ``[edges[i], edges[i+1])`` (the last one closed); points outside ``[edges[0], edges[-1]]``
    are not counted. Replacing one point changes at most two counts by one, so the count vector has
    :math:`\ell_1` sensitivity 2 and the release is :math:`\varepsilon`-DP under replace-one
    (algorithms.md §0.2; the stand-in for the pure-DP histogram used by seed 004's range estimator).
    With probability :math:`1-\beta` every bin's error is at most :math:`(2/\varepsilon)\ln(\#\text{bins}/\beta)`.

    Parameters
    ----------
    data : array of shape (n,) or (trials, n)
        One dataset, or one dataset per row (vectorised over trials).
    edges : array of shape (bins + 1,)
        Strictly increasing, public (data-independent) bin edges.

    Returns
    -------
    numpy.ndarray
        Noisy counts, shape ``(bins,)`` or ``(trials, bins)``.
    """
    if np.any(np.diff(edges) <= 0):
        raise ValueError(f"edges must be strictly increasing; got {edges!r}")
    generator = as_generator(rng)
    rows = np.atleast_2d(data)
    bins = edges.size - 1
    index = np.searchsorted(edges, rows, side="right") - 1
    index[rows == edges[-1]] = bins - 1
    inside = (index >= 0) & (index < bins)
    offsets = np.arange(rows.shape[0])[:, None] * bins
    counts = np.bincount((index + offsets)[inside], minlength=rows.shape[0] * bins).reshape(rows.shape[0], bins)
    noisy = counts + generator.laplace(0.0, 2.0 / epsilon, size=counts.shape)
    return noisy[0] if data.ndim == 1 else noisy
