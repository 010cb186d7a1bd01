r"""Truncate to a survival set, then undo the truncation bias by truncated maximum likelihood (Zampetakis & Zhou 2025).

See docs/algorithms.md §1.7.

Model: :math:`X_1, \dots, X_n \sim \mathcal N(\mu^*, I_d)` with known identity covariance, a public warm start
:math:`c = \mu_0` with :math:`\|\mu^* - c\| \le D_K` (Zampetakis & Zhou 2025, Condition 3.3), the survival set
:math:`S = B(c, r_S)` and the projection set :math:`K = B(c, D_K)` (docs/algorithms.md §1.7).

1. **Preprocessing** (:func:`fixed_size`, their Lemma 2.1): keep the points in :math:`S` in their order, trim to
   :math:`N` or pad with copies of :math:`c`, shuffle. Replace-one neighbours become replace-one neighbours of
   size :math:`N` inside :math:`S`, so the fixed-size mean has :math:`\ell_2` sensitivity :math:`2r_S/N`, and
   an :math:`(\varepsilon, \delta)`-DP algorithm on the fixed-size data is :math:`(\varepsilon, \delta)`-DP on the
   raw data. With :math:`N = \lfloor 0.8\,a_{\min} n\rfloor` (:func:`target_size`) padding is exponentially rare.
2. **Naive** (:func:`naive_truncated_mean`): the Gaussian mechanism on that mean. Private, but it estimates
   the *truncated* mean :math:`\mathbb E_{\mu^*,S}[z]`, pulled towards :math:`c` (bias :math:`-0.38` on the
   1-D instance).
3. **Bias removal.** The truncated NLL has gradient :math:`\mathbb E_{\mu,S}[z] - \bar x`, so the truncated MLE
   solves :math:`\mathbb E_{\mu,S}[z] = \bar x` (:func:`truncated_mean_map`).
   *Moment matching* (:func:`truncated_mle_mean`, the fast path): release :math:`\bar x` once and solve the moment
   equation on the release (post-processing). *DP gradient descent* (:func:`truncated_dpgd_mean`) on
   the truncated NLL, the app's version of the paper's DP-SGD.

Neighbouring relation throughout: replace-one on the raw :math:`n` points. Shapes: a scalar ``warm_start``
means 1-D data, ``x`` of shape ``(n,)`` or ``(trials, n)``; a ``warm_start`` of shape ``(d,)`` means ``x`` of
shape ``(n, d)`` or ``(trials, n, d)``. Leading ``trials`` axes are independent datasets, run vectorised.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from .. import accounting, mechanisms
from ..core.guarantees import diagnostic, public, released
from ..core.randomness import RngLike, as_generator, spawn
from ..core.validation import DELTA, EPSILON, POSITIVE, Array, Integer, InvalidParameterError, Real, Seed, validated

__all__ = ["TruncatedEstimate", "survival_mass", "target_size", "fixed_size", "truncated_mean_map",
           "naive_truncated_mean", "truncated_mle_mean", "truncated_dpgd_mean"]


_DATA = Array(ndim=(1, 2, 3))


_CENTER = Array(ndim=(0, 1))


_BISECTION_STEPS = 60


_KEEP_FRACTION = 0.8  # N = floor(0.8 a_min n), Zampetakis & Zhou 2025, Lemma 2.1 (iii)


@dataclass(frozen=True)
class TruncatedEstimate:
    r"""One private estimate (or one per trial) and what it was built from.

    Each field's privacy role (:func:`dpcore.core.guarantees.privacy_roles`) is given after its type.

    Attributes
    ----------
    estimate : float or numpy.ndarray, released
        The estimate of :math:`\mu^*`: float / ``(d,)``, or ``(trials,)`` / ``(trials, d)`` when vectorised.
    naive : float or numpy.ndarray, released
        The private naive truncated mean from the same release (biased towards the warm start).
    kept : int or numpy.ndarray, diagnostic
        Points inside :math:`S` before trimming or padding to ``target_size``. Counted without noise: not private.
    target_size : int, public
        :math:`N`, the size of the preprocessed dataset.
    noise_sigma : float, public
        Standard deviation of the Gaussian noise per coordinate: of the released mean, or of each
        gradient release (DP-GD).
    guarantee : str, public
        The privacy statement, with its sensitivity and calibration.
    """

    estimate: np.ndarray | float = released()
    naive: np.ndarray | float = released()
    kept: int | np.ndarray = diagnostic()
    target_size: int = public()
    noise_sigma: float = public()
    guarantee: str = public()


def _batch(x: np.ndarray, warm_start: np.ndarray, name: str = "x"):
    """``x`` as ``(trials, n, d)``, the centre as ``(d,)``, and how to shape results back."""
    center = warm_start.reshape(-1)
    if warm_start.ndim == 0:
        if x.ndim not in (1, 2):
            raise InvalidParameterError(f"{name} must have shape (n,) or (trials, n) for a scalar warm_start; got "
                                        f"{x.shape}")
        x = x[..., None]
    elif x.ndim not in (2, 3) or x.shape[-1] != center.size:
        raise InvalidParameterError(f"{name} must have shape (n, d) or (trials, n, d) with d = {center.size} (the size "
                                    "of "
                                    f"warm_start); got an array of shape {x.shape}")
    single = x.ndim == 2
    return (x[None] if single else x), center, (warm_start.ndim == 0, single)


def _unbatch(values: np.ndarray, layout) -> float | np.ndarray:
    scalar, single = layout
    values = values[..., 0] if scalar else values
    values = values[0] if single else values
    return float(values) if np.ndim(values) == 0 else values


def _log_gauss_mass(a: np.ndarray | float, b: np.ndarray | float) -> np.ndarray:
    """``log(Phi(b) - Phi(a))`` for ``a < b``.

    Reflected so the interval leans left, then ``log Phi(b) + log(1 - Phi(a)/Phi(b))`` in log space (accurate in both
    tails and for narrow intervals).
    """
    a, b = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
    flip = a + b > 0
    a, b = np.where(flip, -b, a), np.where(flip, -a, b)
    log_b = special.log_ndtr(b)
    return log_b + np.log(-np.expm1(special.log_ndtr(a) - log_b))


def _standard_truncated_mean(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    r""":math:`\mathbb E[Z \mid a \le Z \le b] = (\varphi(a) - \varphi(b)) / (\Phi(b) - \Phi(a))`, in log space.

    The closed form behind ``scipy.stats.truncnorm.mean`` (agrees to ~1e-12, tested), at a small fraction
    of its cost: scipy's generic moment machinery takes ~30 s on :math:`2\cdot10^5` intervals.
    """
    log_mass = _log_gauss_mass(a, b)
    half_log_2pi = 0.5 * math.log(2.0 * math.pi)
    return np.exp(-0.5 * a**2 - half_log_2pi - log_mass) - np.exp(-0.5 * b**2 - half_log_2pi - log_mass)


@functools.lru_cache(maxsize=32)
def _radial_rule(dimension: int, radius: float) -> tuple[np.ndarray, np.ndarray]:
    r"""Nodes :math:`w_j = r\sin\theta_j` and log-weights for integrals over the ball :math:`\|W\| \le r`.

    For :math:`W \sim \mathcal N(s e_1, I_d)`: :math:`W_1 \sim \mathcal N(s, 1)` and, independently,
    :math:`\|W_{2:d}\|^2 \sim \chi^2_{d-1}`, so :math:`\mathbb E[h(W_1)\mathbf 1\{\|W\| \le r\}] =
    \int_{-r}^{r} h(w)\,\varphi(w - s)\,F_{\chi^2_{d-1}}(r^2 - w^2)\,dw`. The substitution :math:`w = r\sin\theta`
    removes the :math:`(r^2 - w^2)^{(d-1)/2}` endpoint behaviour; Gauss–Legendre in :math:`\theta` with
    :math:`64(\lceil r\rceil + 2)` nodes then matches ``scipy.stats.ncx2.cdf`` for the mass to ~1e-12 (tested).
    """
    count = 64 * (math.ceil(radius) + 2)
    theta, weights = np.polynomial.legendre.leggauss(count)
    theta = theta * (math.pi / 2.0)
    cosine = np.cos(theta)
    with np.errstate(divide="ignore"):
        log_weights = (np.log(weights * (math.pi / 2.0) * radius * cosine)
                       + stats.chi2.logcdf((radius * cosine) ** 2, dimension - 1) - 0.5 * math.log(2.0 * math.pi))
    return radius * np.sin(theta), log_weights


def _radial_mean(offset: np.ndarray, dimension: int, radius: float) -> np.ndarray:
    r""":math:`g(s) = \langle \mathbb E_{\mu,S}[z] - c,\, e\rangle` for :math:`\mu = c + s e`, :math:`\|e\| = 1`.

    By rotation symmetry :math:`\mathbb E_{\mu,S}[z] - c = g(\|\mu - c\|)\,(\mu - c)/\|\mu - c\|`
    (docs/algorithms.md §1.7, moment matching), and :math:`g` is increasing
    (:math:`g'(s) = \mathrm{Var}_{\mu,S}(\langle z, e\rangle) > 0`).
    1-D: the exact truncated-normal mean.
    :math:`d \ge 2`: the radial quadrature of :func:`_radial_rule`, a weighted average of its nodes.
    """
    offset = np.asarray(offset, dtype=float)
    if dimension == 1:
        return offset + _standard_truncated_mean(-radius - offset, radius - offset)
    nodes, log_weights = _radial_rule(dimension, radius)
    logits = log_weights - 0.5 * (nodes - offset[..., None]) ** 2
    weights = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return (weights @ nodes) / weights.sum(axis=-1)


def _directions(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Norms and unit directions of the rows (direction 0 for the zero vector)."""
    norms = np.linalg.norm(vectors, axis=-1)
    return norms, vectors / np.where(norms > 0, norms, 1.0)[..., None]


def _mean_map(mu: np.ndarray, center: np.ndarray, radius: float) -> np.ndarray:
    norms, directions = _directions(mu - center)
    return center + _radial_mean(norms, center.size, radius)[..., None] * directions


def _moment_match(released: np.ndarray, center: np.ndarray, radius: float, bound: float) -> np.ndarray:
    """Solve E_{mu,S}[z] = released over K along the ray from the centre: vectorised bisection on the monotone g."""
    target, directions = _directions(released - center)
    low, high = np.zeros_like(target), np.full_like(target, bound)
    for _ in range(_BISECTION_STEPS):  # released beyond g(D_K): converges to the boundary of K
        middle = 0.5 * (low + high)
        below = _radial_mean(middle, center.size, radius) < target
        low, high = np.where(below, middle, low), np.where(below, high, middle)
    return center + (0.5 * (low + high))[..., None] * directions


@validated(mean_offset=Real(low=0), survival_radius=POSITIVE, dimension=Integer(low=1))
def survival_mass(mean_offset: float, survival_radius: float, dimension: int = 1) -> float:
    r""":math:`P_{\mathcal N(\mu, I_d)}(\|X - c\| \le r)` when :math:`\|\mu - c\| =` ``mean_offset``.

    1-D: :math:`\Phi(r - o) - \Phi(-r - o)`; :math:`d`-dim: the noncentral :math:`\chi^2_d(o^2)` cdf at :math:`r^2`.
    Decreasing in the offset, so :math:`a_{\min} = \min_{\mu\in K} P_\mu(S)` is its value at :math:`o = D_K`.

    Parameters
    ----------
    mean_offset : float
        :math:`o = \|\mu - c\| \ge 0`.
    survival_radius : float
        :math:`r > 0`, the radius of :math:`S = B(c, r)`.
    dimension : int, default 1
        :math:`d \ge 1`.

    Returns
    -------
    float
        The probability that one point lands in :math:`S`.

    Examples
    --------
    >>> round(survival_mass(1.0, 1.5), 5)
    0.68525
    """
    if dimension == 1:
        return float(np.exp(_log_gauss_mass(-survival_radius - mean_offset, survival_radius - mean_offset)))
    return float(stats.ncx2.cdf(survival_radius**2, dimension, mean_offset**2))


@validated(n=Integer(low=1), mean_offset_bound=POSITIVE, survival_radius=POSITIVE, dimension=Integer(low=1))
def target_size(n: int, mean_offset_bound: float, survival_radius: float, dimension: int = 1) -> int:
    r"""The preprocessed size :math:`N = \lfloor 0.8\, a_{\min}\, n\rfloor`.

    :math:`a_{\min}` = :func:`survival_mass` at :math:`D_K`.
    Public (a function of :math:`n` and the public parameters only). With this :math:`N`, padding happens with
    probability at most :math:`e^{-0.02\,a_{\min} n}` (Chernoff; docs/algorithms.md §1.7).

    Parameters
    ----------
    n : int
        Number of raw points, :math:`\ge 1`.
    mean_offset_bound : float
        :math:`D_K > 0`, the bound on :math:`\|\mu^* - c\|`.
    survival_radius : float
        :math:`r_S > 0`.
    dimension : int, default 1
        :math:`d \ge 1`.

    Returns
    -------
    int
        :math:`N \ge 1`.

    Raises
    ------
    InvalidParameterError
        If :math:`N` would be 0 (``n`` too small for this survival mass).

    Examples
    --------
    >>> target_size(4000, 1.0, 1.5)
    2192
    """
    size = math.floor(_KEEP_FRACTION * survival_mass(mean_offset_bound, survival_radius, dimension) * n)
    if size < 1:
        raise InvalidParameterError(f"n must be large enough that N = floor(0.8 a_min n) >= 1 for survival_radius="
                                    f"{survival_radius:g}, mean_offset_bound={mean_offset_bound:g}; got {n}")
    return size


@validated(points=_DATA, warm_start=_CENTER, survival_radius=POSITIVE, target_size=Integer(low=1), rng=Seed())
def fixed_size(points, warm_start, survival_radius: float, target_size: int, rng: RngLike = None) -> np.ndarray:
    r"""The preprocessing of Zampetakis & Zhou (2025, Lemma 2.1): exactly ``target_size`` points, all in :math:`S`.

    Here :math:`S = B(c, r_S)`.

    1. keep the points in :math:`S` in their original order; 2. keep the first :math:`N`, or append copies of
    the warm start :math:`c` (public, inside :math:`S`) up to :math:`N`; 3. shuffle uniformly.

    Guarantee: replace-one neighbours map to replace-one neighbours of size :math:`N` (after coupling the
    shuffles): a changed point inside :math:`S` is replaced in place; one that leaves (enters) :math:`S`
    removes (adds) one point, and the trim/pad step restores the size by adding or removing, never both.
    So an :math:`(\varepsilon,\delta)`-DP algorithm for size-:math:`N` datasets in :math:`S` stays
    :math:`(\varepsilon,\delta)`-DP on the raw data.

    Parameters
    ----------
    points : array of shape (n,) / (trials, n) with a scalar ``warm_start``, or (n, d) / (trials, n, d)
        The raw points, finite.
    warm_start : float or array of shape (d,)
        The centre :math:`c` of :math:`S` and the padding point; must not depend on the data. Finite.
    survival_radius : float
        :math:`r_S > 0`.
    target_size : int
        :math:`N \ge 1` (:func:`target_size`).
    rng : None, int or numpy.random.Generator, optional
        Source of the shuffle: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).

    Returns
    -------
    numpy.ndarray
        ``points``' shape with ``n`` replaced by ``N``. Vectorised over trials: a stable sort on the
        "outside" flag keeps the order, padding is a mask.

    Examples
    --------
    Two of five points lie outside :math:`S = [-1.5, 1.5]`; the three inside are padded with the centre up to
    :math:`N = 4` (shuffled):

    >>> np.sort(fixed_size(np.array([-3.0, -1.0, 0.2, 0.5, 4.0]), 0.0, 1.5, 4, rng=0))
    array([-1. ,  0. ,  0.2,  0.5])
    """
    batch, center, layout = _batch(points, warm_start, "points")
    result = _fixed_size(batch, center, survival_radius, target_size, as_generator(rng))[0]
    result = result[..., 0] if layout[0] else result
    return result[0] if layout[1] else result


def _fixed_size(batch: np.ndarray, center: np.ndarray, radius: float, size: int,
                rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """:func:`fixed_size` on ``(trials, n, d)``; also returns the per-trial count of points inside S."""
    inside = np.linalg.norm(batch - center, axis=-1) <= radius
    kept = inside.sum(axis=-1)
    chosen = np.take_along_axis(batch, np.argsort(~inside, axis=-1, kind="stable")[:, :size, None], axis=1)
    if chosen.shape[1] < size:
        chosen = np.concatenate([chosen, np.broadcast_to(center, (len(batch), size - chosen.shape[1], center.size))],
                                axis=1)
    real = np.arange(size) < kept[:, None]
    chosen = np.where(real[..., None], chosen, center)
    shuffle = rng.permuted(np.broadcast_to(np.arange(size), real.shape), axis=-1)
    return np.take_along_axis(chosen, shuffle[..., None], axis=1), kept


@validated(mu=Array(min_size=1), warm_start=_CENTER, survival_radius=POSITIVE)
def truncated_mean_map(mu, warm_start, survival_radius: float) -> float | np.ndarray:
    r"""The truncated mean :math:`\mathbb E_{z\sim\mathcal N(\mu, I),\, z\in S}[z]` for :math:`S = B(c, r_S)`.

    The truncated MLE solves :math:`\mathbb E_{\mu,S}[z] = \bar x` (the NLL's gradient is their difference);
    its Jacobian is :math:`\mathrm{Cov}_{\mu,S}[z]`, so the map is increasing along every ray from :math:`c`.

    * 1-D: exact, :math:`\mu + (\varphi(a) - \varphi(b))/(\Phi(b) - \Phi(a))` with :math:`a, b = c \mp r_S - \mu`
      (``scipy.stats.truncnorm``'s mean, in log space).
    * :math:`d`-dim: rotation symmetry (docs/algorithms.md §1.7, moment matching) reduces it to :math:`g(\|\mu - c\|)`,
      a 1-D integral in the radial coordinate (:math:`W_1` against the :math:`\chi^2_{d-1}` cdf of the other
      coordinates) computed by Gauss–Legendre quadrature, cached per :math:`(d, r_S)`: deterministic, no Monte Carlo;
      accurate to ~1e-12.

    Parameters
    ----------
    mu : float or array
        Any shape with a scalar ``warm_start``; shape (..., d) otherwise. Finite.
    warm_start : float or array of shape (d,)
        The centre :math:`c` of :math:`S`, finite.
    survival_radius : float
        :math:`r_S > 0`.

    Returns
    -------
    float or numpy.ndarray
        :math:`\mathbb E_{\mu,S}[z]` for every :math:`\mu`: a float for a scalar ``mu`` (1-D), otherwise of
        ``mu``'s shape.

    Examples
    --------
    >>> round(truncated_mean_map(0.8, 0.0, 1.5), 6)
    0.420069
    """
    batch = mu[..., None] if warm_start.ndim == 0 else mu
    center = warm_start.reshape(-1)
    if batch.shape[-1] != center.size:
        raise InvalidParameterError(f"mu must have shape (..., {center.size}) to match warm_start; got {mu.shape}")
    result = _mean_map(batch, center, survival_radius)
    result = result[..., 0] if warm_start.ndim == 0 else result
    return float(result) if np.ndim(result) == 0 else result


_ESTIMATOR = dict(x=_DATA, epsilon=EPSILON, delta=DELTA, warm_start=_CENTER, survival_radius=POSITIVE, rng=Seed(),
                  mean_offset_bound=POSITIVE)


@dataclass(frozen=True)
class _Prepared:
    mean: np.ndarray          # (trials, d): the fixed-size truncated mean (not private)
    center: np.ndarray
    kept: np.ndarray
    size: int
    sensitivity: float
    layout: tuple


def _fixed_size_mean(batch: np.ndarray, center: np.ndarray, radius: float,
                     size: int) -> tuple[np.ndarray, np.ndarray]:
    """The mean of :func:`fixed_size`'s output without building it, and the count inside S, per trial.

    The first ``size`` points inside S (in order) plus copies of the centre up to ``size``; the shuffle
    does not change a mean. O(n) per trial, no sort.
    """
    inside = np.linalg.norm(batch - center, axis=-1) <= radius
    chosen = inside & (np.cumsum(inside, axis=-1) <= size)
    padding = size - chosen.sum(axis=-1)
    total = np.einsum("tn,tnd->td", chosen.astype(float), batch) + padding[:, None] * center
    return total / size, inside.sum(axis=-1)


def _prepare(x, warm_start, radius: float, bound: float) -> _Prepared:
    batch, center, layout = _batch(x, warm_start)
    size = target_size(batch.shape[1], bound, radius, center.size)
    mean, kept = _fixed_size_mean(batch, center, radius, size)
    return _Prepared(mean, center, kept, size, 2.0 * radius / size, layout)


def _release_guarantee(epsilon: float, delta: float, data: _Prepared, sigma: float) -> str:
    return (f"({epsilon:g}, {delta:g})-DP, replace-one: one Gaussian release (analytic calibration, sigma = "
            f"{sigma:.4g}) of the fixed-size truncated mean, l2 sensitivity 2 r_S / N = {data.sensitivity:.4g} "
            f"(N = {data.size}); the preprocessing maps neighbours to neighbours")


def _release(x, epsilon, delta, warm_start, radius, rng, bound):
    data = _prepare(x, warm_start, radius, bound)
    released = mechanisms.gaussian(data.mean, data.sensitivity, epsilon, delta, rng=rng)
    sigma = mechanisms.gaussian_sigma(data.sensitivity, epsilon, delta)
    return data, np.asarray(released), sigma


def _kept(data: _Prepared) -> int | np.ndarray:
    return int(data.kept[0]) if data.layout[1] else data.kept


@validated(**_ESTIMATOR)
def naive_truncated_mean(x, epsilon: float, delta: float, warm_start, survival_radius: float, rng: RngLike = None, *,
                         mean_offset_bound: float = 1.0) -> TruncatedEstimate:
    r"""Private but biased: the Gaussian mechanism on the mean of the fixed-size truncated data.

    Guarantee: :math:`(\varepsilon, \delta)`-DP under replace-one. The :math:`N` preprocessed points lie in
    :math:`S`, so replacing one moves their mean by at most :math:`\Delta_2 = 2r_S/N`; the analytic Gaussian
    mechanism (:func:`dpcore.mechanisms.gaussian`) is calibrated to it, and :func:`fixed_size` maps raw
    neighbours to neighbours. It estimates :math:`\mathbb E_{\mu^*,S}[z]`, not :math:`\mu^*`: truncation pulls it
    towards the warm start (1-D instance: :math:`0.420` instead of :math:`0.8`).

    Parameters
    ----------
    x : array, see the module docstring for shapes
        The raw points, finite: (n,) or (trials, n) with a scalar ``warm_start``, (n, d) or (trials, n, d) with
        one of shape (d,).
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    delta : float
        Privacy parameter :math:`0 < \delta < 1`.
    warm_start : float or array of shape (d,)
        :math:`c = \mu_0`, public, with :math:`\|\mu^* - c\| \le` ``mean_offset_bound``.
    survival_radius : float
        :math:`r_S > 0`.
    rng : None, int or numpy.random.Generator, optional
        Source of the noise: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).
    mean_offset_bound : float, default 1.0
        :math:`D_K > 0`; only used here to fix :math:`N` (:func:`target_size`).

    Returns
    -------
    TruncatedEstimate
        ``estimate`` and ``naive`` both the released noisy mean (a float / ``(d,)``, or one per trial), the count
        kept inside :math:`S` (a diagnostic), :math:`N`, the noise :math:`\sigma` and the guarantee.

    Examples
    --------
    >>> x = 0.8 + np.random.default_rng(0).standard_normal(4000)
    >>> naive = naive_truncated_mean(x, 1.0, 1e-6, 0.0, 1.5, rng=1)
    >>> round(naive.estimate, 2), naive.target_size  # the truncated mean 0.42, not mu* = 0.8
    (0.4, 2192)
    """
    data, released, sigma = _release(x, epsilon, delta, warm_start, survival_radius, rng, mean_offset_bound)
    naive = _unbatch(released, data.layout)
    return TruncatedEstimate(naive, naive, _kept(data), data.size, sigma,
                             _release_guarantee(epsilon, delta, data, sigma))


@validated(**_ESTIMATOR)
def truncated_mle_mean(x, epsilon: float, delta: float, warm_start, survival_radius: float, rng: RngLike = None, *,
                       mean_offset_bound: float = 1.0) -> TruncatedEstimate:
    r"""Moment matching: one private release of the truncated mean, then the truncated MLE by moment matching.

    Release :math:`\tilde x = \bar x_N + \mathcal N(0, \sigma^2 I)` exactly as :func:`naive_truncated_mean`, then
    solve :math:`\mathbb E_{\mu,S}[z] = \tilde x` over :math:`K = B(c, D_K)`: along the ray from :math:`c` through
    :math:`\tilde x`, vectorised bisection (60 steps) on the increasing radial map; if :math:`\tilde x` is beyond the
    map's range the boundary of :math:`K` is returned.

    Guarantee: :math:`(\varepsilon, \delta)`-DP under replace-one, the same as the naive release (sensitivity
    :math:`2r_S/N` of the fixed-size truncated mean, preprocessing maps neighbours to neighbours); the solve is
    post-processing. Accuracy (1-D, delta method): RMSE :math:`\approx\lambda^{-1}\sqrt{\lambda/N + \sigma^2}`,
    :math:`\lambda = \mathrm{Var}_{\mu^*,S}(z)` (0.0333 on the 1-D instance).

    Loss of generality against Zampetakis & Zhou (2025): it needs a moment-matching oracle for the *truncated* family
    (their assumption C3; here the closed form / radial quadrature of :func:`truncated_mean_map`) and a
    loss whose data dependence is a mean of sufficient statistics. Their DP-SGD
    (:func:`truncated_dpgd_mean`) needs only a sampler.

    Parameters
    ----------
    x : array, see the module docstring for shapes
        The raw points, finite, as in :func:`naive_truncated_mean`.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    delta : float
        Privacy parameter :math:`0 < \delta < 1`.
    warm_start : float or array of shape (d,)
        :math:`c = \mu_0`, public, with :math:`\|\mu^* - c\| \le` ``mean_offset_bound``.
    survival_radius : float
        :math:`r_S > 0`.
    rng : None, int or numpy.random.Generator, optional
        Source of the noise: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).
    mean_offset_bound : float, default 1.0
        :math:`D_K > 0`: the radius of :math:`K` the solve is restricted to, and what fixes :math:`N`.

    Returns
    -------
    TruncatedEstimate
        ``estimate`` the moment-matching solution and ``naive`` the same release read naively (a float / ``(d,)``,
        or one per trial), the count kept inside :math:`S` (a diagnostic), :math:`N`, the noise :math:`\sigma` and
        the guarantee.

    Examples
    --------
    >>> x = 0.8 + np.random.default_rng(0).standard_normal(4000)
    >>> result = truncated_mle_mean(x, 1.0, 1e-6, 0.0, 1.5, rng=1)
    >>> round(result.estimate, 2), round(result.naive, 2)  # mu* = 0.8; the same release read naively
    (0.75, 0.4)
    """
    data, released, sigma = _release(x, epsilon, delta, warm_start, survival_radius, rng, mean_offset_bound)
    released = released.reshape(data.mean.shape)
    estimate = _moment_match(released, data.center, survival_radius, mean_offset_bound)
    guarantee = _release_guarantee(epsilon, delta, data, sigma) + "; the moment-matching solve is post-processing"
    return TruncatedEstimate(_unbatch(estimate, data.layout), _unbatch(released, data.layout), _kept(data), data.size,
                             sigma, guarantee)


def _rejection_mean(mu: np.ndarray, center: np.ndarray, radius: float, draws: int, floor_mass: float,
                    rng: np.random.Generator) -> np.ndarray:
    """Mean of ``draws`` accepted samples of N(mu_t, I) restricted to S, for each row mu_t.

    Zampetakis & Zhou (2025), Lemma 3.7.
    Proposals come in memory-bounded batches (about 4M numbers), all trials at once; at most
    1000 * draws / floor_mass proposals per trial (the cap only affects accuracy).
    """
    trials, dimension = mu.shape
    total, count, proposed = np.zeros_like(mu), np.zeros(trials, dtype=int), 0
    cap = math.ceil(1000 * draws / floor_mass)
    while (count < draws).any() and proposed < cap:
        need = draws - count
        size = min(math.ceil(1.1 * need.max() / floor_mass) + 16, max(1, 2**22 // (trials * dimension)), cap - proposed)
        z = mu[:, None, :] + rng.standard_normal((trials, size, dimension))
        accepted = np.linalg.norm(z - center, axis=-1) <= radius
        take = accepted & (np.cumsum(accepted, axis=1) <= need[:, None])
        total += np.einsum("tk,tkd->td", take, z)
        count += take.sum(axis=1)
        proposed += size
    return np.where(count[:, None] > 0, total / np.maximum(count, 1)[:, None], mu)


def _project(mu: np.ndarray, center: np.ndarray, bound: float) -> np.ndarray:
    norms, directions = _directions(mu - center)
    return center + np.minimum(norms, bound)[..., None] * directions


@validated(**_ESTIMATOR, steps=Integer(low=1), learning_rate=POSITIVE, monte_carlo=Integer(low=1))
def truncated_dpgd_mean(x, epsilon: float, delta: float, warm_start, survival_radius: float, rng: RngLike = None, *,
                        mean_offset_bound: float = 1.0, steps: int = 10, learning_rate: float = 1.0,
                        monte_carlo: int = 20000) -> TruncatedEstimate:
    r"""DP gradient descent on the truncated NLL (the app's version of the DP-SGD of Zampetakis & Zhou 2025).

    From :math:`\mu = c`, for :math:`t = 1..T`: :math:`g_t = \hat m(\mu) - \bar x_N + \mathcal N(0, \sigma_g^2 I)`,
    :math:`\mu \leftarrow \Pi_K(\mu - \eta g_t)`; output the average of the last :math:`\lceil T/2\rceil` iterates.
    :math:`\hat m(\mu)` estimates :math:`\mathbb E_{\mu,S}[z]`: the exact truncated-normal mean in 1-D, the mean of
    ``monte_carlo`` rejection-sampled draws of :math:`\mathcal N(\mu, I)` restricted to :math:`S` for :math:`d \ge 2`.

    Guarantee: :math:`(\varepsilon, \delta)`-DP under replace-one. Each gradient depends on the data only
    through the fixed-size truncated mean, sensitivity :math:`\Delta_g = 2r_S/N` (preprocessing maps neighbours
    to neighbours). Each step is a Gaussian mechanism with :math:`\sigma_g = \sqrt T\,\Delta_g/\mu_{\mathrm{tot}}`,
    :math:`\mu_{\mathrm{tot}}` = :func:`dpcore.accounting.gaussian_mu` :math:`(\varepsilon, \delta)`; :math:`T` adaptive
    releases compose exactly to one Gaussian mechanism with :math:`\mu_{\mathrm{tot}}` (Gaussian DP,
    :func:`dpcore.accounting.gaussian_composition`). The rejection sampler's draws depend only on the
    already-private iterate, never on the data, so they cost no privacy; averaging is post-processing.

    What differs from their DP-SGD (Bassily, Smith & Thakurta 2014: one sample per step, :math:`\sim N^2` steps,
    step size :math:`1/(\lambda t)`): full-batch gradient descent with few steps and exact GDP accounting;
    no privacy amplification by subsampling is claimed.

    ``naive`` is :math:`\hat m(c) - g_1 = \bar x_N - \xi_1`, the first release read as a noisy truncated mean
    (noise :math:`\sigma_g`, larger than the one-shot release's). ``noise_sigma`` is :math:`\sigma_g`.

    Parameters
    ----------
    x : array, see the module docstring for shapes
        The raw points, finite, as in :func:`naive_truncated_mean`.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0` of the whole descent.
    delta : float
        Privacy parameter :math:`0 < \delta < 1` of the whole descent.
    warm_start : float or array of shape (d,)
        :math:`c = \mu_0`, public, with :math:`\|\mu^* - c\| \le` ``mean_offset_bound``; the starting point.
    survival_radius : float
        :math:`r_S > 0`.
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator; the
        gradient noise and the rejection sampler draw from two spawned child streams.
    mean_offset_bound : float, default 1.0
        :math:`D_K > 0`: the radius of :math:`K` the iterates are projected onto, and what fixes :math:`N`.
    steps : int, default 10
        :math:`T \ge 1`.
    learning_rate : float, default 1.0
        :math:`\eta > 0`.
    monte_carlo : int, default 20000
        Accepted draws per step of the rejection sampler (:math:`d \ge 2` only), :math:`\ge 1`.

    Returns
    -------
    TruncatedEstimate
        ``estimate`` the averaged iterate and ``naive`` the first release read as a noisy truncated mean (a float /
        ``(d,)``, or one per trial), the count kept inside :math:`S` (a diagnostic), :math:`N`,
        :math:`\sigma_g` and the guarantee.

    Examples
    --------
    >>> x = 0.8 + np.random.default_rng(0).standard_normal(4000)
    >>> result = truncated_dpgd_mean(x, 1.0, 1e-6, 0.0, 1.5, rng=1)
    >>> round(result.estimate, 2), round(result.noise_sigma, 4)  # mu* = 0.8
    (0.74, 0.0183)
    """
    noise_stream, sampler_stream = spawn(rng, 2)
    data = _prepare(x, warm_start, survival_radius, mean_offset_bound)
    center, dimension = data.center, data.center.size
    per_step = math.sqrt(steps) * data.sensitivity  # sigma = per_step / mu_tot: mu_tot / sqrt(T) per release
    sigma = mechanisms.gaussian_sigma(per_step, epsilon, delta)
    floor_mass = survival_mass(mean_offset_bound, survival_radius, dimension)
    mu = np.broadcast_to(center, data.mean.shape)
    iterates = []
    for step in range(steps):
        if dimension == 1:
            moment = _mean_map(mu, center, survival_radius)
        else:
            moment = _rejection_mean(mu, center, survival_radius, monte_carlo, floor_mass, sampler_stream)
        gradient = np.asarray(mechanisms.gaussian(moment - data.mean, per_step, epsilon, delta, rng=noise_stream))
        if step == 0:
            naive = moment - gradient
        mu = _project(mu - learning_rate * gradient, center, mean_offset_bound)
        iterates.append(mu)
    estimate = np.mean(iterates[steps - math.ceil(steps / 2):], axis=0)
    mu_step = data.sensitivity / sigma
    guarantee = (f"({epsilon:g}, {delta:g})-DP, replace-one: {steps} adaptive Gaussian gradient releases, each of l2 "
                 f"sensitivity 2 r_S / N = {data.sensitivity:.4g} (N = {data.size}) with sigma_g = sqrt(T) * Delta_g / "
                 f"mu_tot = {sigma:.4g}; exact GDP composition mu_tot = "
                 f"{accounting.gaussian_composition(mu_step, steps):.4g}; the preprocessing maps neighbours to "
                 f"neighbours, the rejection draws depend only on private iterates, averaging is post-processing")
    return TruncatedEstimate(_unbatch(estimate, data.layout), _unbatch(naive, data.layout), _kept(data), data.size,
                             sigma, guarantee)

