r"""Private means of heavy-tailed data: clip to a window, then add noise (Kamath, Singhal & Ullman 2020).

See docs/algorithms.md §1.3–§1.6.
A clipped mean has bounded sensitivity, so the noise it needs scales with the window length; a window
that is too short biases the mean (the truncation bias), one that is too long drowns it in noise. The
estimators here, in the order the page teaches them:

* :func:`clipped_laplace_mean` — a fixed public window :math:`[\mathrm{low}, \mathrm{high}]`
  (docs/algorithms.md §1.3).
* :func:`private_range` — their Alg. 1 (PDPRE): a private window of length :math:`6r`,
  :math:`r = c_r/\alpha^{1/(k-1)}`, from the heaviest bucket of a private histogram.
* :func:`private_mean_1d` — their Alg. 2 (PDPODME): PDPRE on one half of the sample, the clipped
  Laplace mean on the other, median over :math:`G` disjoint groups; :func:`private_mean_1d_zcdp` and
  :func:`private_mean_1d_approx` are its Thm 3.7 variants.
* :func:`private_mean_nd_zcdp` — their Alg. 3 (CDPHDME): a coordinate-wise coarse centre, then the
  mean of the points in a ball around it plus Gaussian noise; :func:`private_mean_nd_pure` is the pure-DP
  practical counterpart (docs/algorithms.md §1.6).
* :func:`ksu20_tournament` — their Alg. 4 in the plane: the exponential mechanism over a public cover on the scores
  :func:`ksu20_scores` (how many points must change before a cover point loses a match), pure ε-DP.

Neighbours are replace-one throughout. All noise comes from the audited mechanisms of
:mod:`dpcore.mechanisms`; separate mechanisms of one pipeline draw from spawned child streams
(:func:`dpcore.core.randomness.spawn`). Every estimator takes one dataset, shape ``(n,)`` (``(n, d)``), or one
per trial, ``(trials, n)`` (``(trials, n, d)``), and is vectorised over trials and groups. The histogram has
:math:`\approx R/r` buckets per trial and group; calls needing more than ``MAX_HISTOGRAM_CELLS`` cells in
all are refused with an ``InvalidParameterError`` (use fewer trials, a smaller :math:`R`, or a larger ``alpha`` or
``bucket_constant``). The radius is computed in log space: for :math:`k` near 1 the exponent :math:`1/(k-1)` is huge,
and a radius or final noise scale beyond ``1e150`` (or below ``1e-150``) is refused with an ``InvalidParameterError``
naming ``moment_k`` and ``alpha`` rather than returning an overflowed or meaningless estimate.

Where the app departs from the paper (each estimator's docstring repeats what concerns it): the bucket
constant :math:`c_r` defaults to 2, not 10 (same privacy, tighter windows); :math:`G = 1` group by default,
not :math:`200\log(2/\beta)`; the Laplace histogram (or a Gaussian one for zCDP) stands in for the
pure-DP histogram of Balcer & Vadhan (2018); PDPRE and the mean step each spend the full budget on disjoint halves
(parallel composition, docs/algorithms.md §1.5) where the paper's proof splits it in two.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import accounting, mechanisms
from ..core.guarantees import diagnostic, public, released
from ..core.randomness import RngLike, spawn
from ..core.validation import (
    DELTA,
    EPSILON,
    POSITIVE,
    Array,
    Integer,
    InvalidParameterError,
    Real,
    Seed,
    float_if_scalar,
    validated,
)
from ..mechanisms import exponential, exponential_probabilities
from .selection import Selection

__all__ = ["MAX_HISTOGRAM_CELLS", "MeanEstimate", "clipped_laplace_mean", "private_range", "private_mean_1d",
           "private_mean_1d_zcdp", "private_mean_1d_approx",
           "repeated_private_mean_1d", "repeated_private_mean_1d_zcdp", "private_mean_nd_zcdp", "private_mean_nd_pure",
           "default_alpha", "ksu20_scores", "ksu20_tournament"]


#: The most histogram cells (trials x groups x buckets) one call may draw noise for (~160 MB per array).
MAX_HISTOGRAM_CELLS = 20_000_000


_MOMENT = Real(low=1, low_open=True, allow_inf=True)  # k = inf: every moment bounded (e.g. Gaussian data)


_ALPHA = POSITIVE  # alpha=None (the default) means default_alpha(n, epsilon, k)
_TOURNAMENT_ALPHA = Real(0, 0.25, low_open=True)  # the plane tournament's accuracy: pairs closer than 20 alpha tie


_GROUPS = Integer(low=1)


_SAMPLE = Array(ndim=(1, 2), min_size=4)


_SAMPLE_ND = Array(ndim=(2, 3), min_size=1)


Histogram = Callable[[np.ndarray, np.ndarray, RngLike], float | np.ndarray]


Noise = Callable[[np.ndarray, float, np.random.Generator], float | np.ndarray]


@dataclass(frozen=True)
class MeanEstimate:
    r"""A private 1-D mean and how it was made.

    Each field's privacy role (:func:`dpcore.core.guarantees.privacy_roles`) is given after its type.

    Attributes
    ----------
    estimate : float or numpy.ndarray, released
        The released mean: a float for one dataset, shape ``(trials,)`` for ``(trials, n)`` data.
    interval_low, interval_high : float or numpy.ndarray, released
        The clipping window used (:func:`clipped_laplace_mean`: the public one; :func:`private_mean_1d`: the private
        window of the median group).
    clipped_fraction : float or numpy.ndarray, diagnostic
        Fraction of the averaged points that fell outside the window (in the median group). Computed from the
        data without noise: not private.
    noise_scale : float, public
        Laplace scale :math:`b` (or Gaussian :math:`\sigma`) of the final noise. Public: it depends only on
        the parameters, since every private window has length :math:`6r`.
    guarantee : str, public
        The privacy guarantee, e.g. ``"1-DP (pure), replace-one"``.
    """

    estimate: float | np.ndarray = released()
    interval_low: float | np.ndarray = released()
    interval_high: float | np.ndarray = released()
    clipped_fraction: float | np.ndarray = diagnostic()
    noise_scale: float = public()
    guarantee: str = public()


def _private_exponent(moment_k: float) -> float:
    """(k - 1) / k, the exponent of 1/(εn) in the private error; 1 in the limit k = inf."""
    return 1.0 if math.isinf(moment_k) else (moment_k - 1.0) / moment_k


@validated(n=POSITIVE, epsilon=POSITIVE, moment_k=_MOMENT)
def default_alpha(n: float, epsilon: float, moment_k: float) -> float:
    r"""The target accuracy :math:`\alpha(n) = \max\{n^{-1/2}, (\varepsilon n)^{-(k-1)/k}\}`.

    See docs/algorithms.md §1.5. The rate of Kamath, Singhal & Ullman (2020, Thm 3.5), constants and logs dropped,
    solved for :math:`\alpha`: the sampling error :math:`n^{-1/2}` or the private term, whichever is larger. The 1-D
    estimators use it with :math:`n` = half the sample (the part the mean is taken over) to set the window radius
    :math:`r = c_r/\alpha^{1/(k-1)}`. No privacy cost: it depends only on public parameters.

    Parameters
    ----------
    n : float
        The sample size in the rate, a real number :math:`> 0`.
    epsilon : float
        The privacy parameter in the rate, :math:`\varepsilon > 0`.
    moment_k : float
        The moment order :math:`k > 1`, or ``inf`` (then the private term is :math:`(\varepsilon n)^{-1}`).

    Returns
    -------
    float
        :math:`\alpha(n)`.

    Examples
    --------
    >>> default_alpha(10**4, 1.0, 2)  # the private term (eps n)^(-1/2) = 1/100 ties the sampling term
    0.01
    """
    return max(n**-0.5, (epsilon * n) ** -_private_exponent(moment_k))


@validated(x=Array(ndim=(1, 2), min_size=1), epsilon=POSITIVE, low=Real(), high=Real(), rng=Seed())
def clipped_laplace_mean(x, epsilon: float, low: float, high: float, rng: RngLike = None) -> MeanEstimate:
    r"""The mean of ``x`` clipped to a public window plus Laplace noise of scale (high - low)/(epsilon n).

    Guarantee: :math:`\varepsilon`-DP (pure) under replace-one neighbours: each clipped point lies in
    :math:`[\mathrm{low}, \mathrm{high}]`, so replacing one moves the mean by at most
    :math:`\Delta_1 = (\mathrm{high}-\mathrm{low})/n` (Laplace mechanism; Kamath, Singhal & Ullman 2020,
    Lemma 2.7). The window must not depend on the data (use :func:`private_range` for a private one).
    docs/algorithms.md §1.3; the building block of their Alg. 2.

    Parameters
    ----------
    x : array of shape (n,) or (trials, n)
        One dataset, or one per row (each row gets independent noise); finite, at least one point per row.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    low, high : float
        The public clipping window, finite, ``low < high``.
    rng : None, int or numpy.random.Generator, optional
        Source of the noise: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).

    Returns
    -------
    MeanEstimate
        The released mean (a float, or shape ``(trials,)``), the window, the clipped fraction (a diagnostic), the
        noise scale :math:`(\mathrm{high}-\mathrm{low})/(\varepsilon n)` and the guarantee.

    Examples
    --------
    >>> result = clipped_laplace_mean(np.array([-5.0, -1.0, 0.0, 2.0, 9.0]), 1.0, -2.0, 3.0, rng=0)
    >>> result.clipped_fraction, result.noise_scale  # two of five points clipped; scale (3 + 2) / (1 · 5)
    (0.4, 1.0)
    >>> result.guarantee
    '1-DP (pure), replace-one'
    """
    if high <= low:
        raise InvalidParameterError(f"high must be greater than low={low!r}; got {high!r}")
    n = x.shape[-1]
    sensitivity = (high - low) / n
    estimate = mechanisms.laplace(np.clip(x, low, high).mean(axis=-1), sensitivity, epsilon, rng)
    fraction = float_if_scalar(((x < low) | (x > high)).mean(axis=-1))
    return MeanEstimate(estimate, low, high, fraction, sensitivity / epsilon, f"{epsilon:g}-DP (pure), replace-one")


@validated(x=Array(ndim=(1, 2), min_size=1), epsilon=POSITIVE, alpha=POSITIVE, moment_k=_MOMENT,
           mean_range=POSITIVE, bucket_constant=POSITIVE, rng=Seed())
def private_range(x, epsilon: float, alpha: float, moment_k: float, mean_range: float, bucket_constant: float = 2.0,
                  rng: RngLike = None) -> tuple[float | np.ndarray, float | np.ndarray]:
    r"""Kamath, Singhal & Ullman (2020), Alg. 1 (PDPRE): a private window of length :math:`6r` around the data's bulk.

    The window is :math:`[a - 2r, b + 2r]` (docs/algorithms.md §1.4):
    :math:`r = c_r/\alpha^{1/(k-1)}` (``bucket_constant`` :math:`c_r`); buckets of width :math:`2r` aligned at 0 tile
    :math:`[-R-2r, R+2r]` (``mean_range`` :math:`R`); :math:`[a, b)` is the bucket with the largest noisy count.

    Guarantee: :math:`\varepsilon`-DP (pure) under replace-one: the Laplace histogram
    (:func:`dpcore.mechanisms.laplace_histogram`, :math:`\mathrm{Lap}(2/\varepsilon)` per bucket, :math:`\ell_1`
    sensitivity 2) followed by post-processing. Their Thm 3.3: if :math:`\mu \in [-R, R]`,
    :math:`\mathbb E|X-\mu|^k \le 1` and :math:`n \gtrsim 1/\alpha + \log(R/r)/\varepsilon`, then w.p. 0.9 the window
    contains :math:`\mu` with both endpoints at least :math:`r` from it. Deviations from the paper: :math:`c_r = 2`
    by default (the paper: 10), and the Laplace histogram stands in for Balcer & Vadhan's (2018).

    Parameters
    ----------
    x : array of shape (n,) or (trials, n)
        One dataset, or one per row (each row gets its own window); finite, at least one point per row.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    alpha : float
        Target accuracy :math:`\alpha > 0`; smaller means a wider window.
    moment_k : float
        The moment order :math:`k > 1` assumed bounded, or ``inf`` (then :math:`r = c_r`).
    mean_range : float
        :math:`R > 0`: the mean is assumed to lie in :math:`[-R, R]`.
    bucket_constant : float, default 2.0
        :math:`c_r > 0`.
    rng : None, int or numpy.random.Generator, optional
        Source of the histogram's noise: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).

    Returns
    -------
    (low, high)
        Floats for one dataset, arrays of shape ``(trials,)`` otherwise.

    Examples
    --------
    >>> x = 3.0 + np.random.default_rng(1).standard_normal(10_000)
    >>> low, high = private_range(x, 1.0, alpha=0.05, moment_k=3, mean_range=100.0, rng=2)
    >>> round(high - low, 4), bool(low <= 3.0 <= high)  # length 6r, r = 2 / 0.05^(1/2)
    (53.6656, True)
    """
    rows = x.reshape(-1, x.shape[-1])
    r = _radius(bucket_constant, alpha, moment_k)
    low, high = _window(rows, r, mean_range, _laplace_histogram(epsilon), rng)
    return float_if_scalar(low.reshape(x.shape[:-1])), float_if_scalar(high.reshape(x.shape[:-1]))


@validated(x=_SAMPLE, epsilon=POSITIVE, moment_k=_MOMENT, mean_range=POSITIVE, rng=Seed(), alpha=_ALPHA,
           groups=_GROUPS, bucket_constant=POSITIVE)
def private_mean_1d(x, epsilon: float, moment_k: float, mean_range: float, rng: RngLike = None, *,
                    alpha: float | None = None, groups: int = 1, bucket_constant: float = 2.0) -> MeanEstimate:
    r"""Kamath, Singhal & Ullman (2020), Alg. 2 (PDPODME): the pure-DP mean of a heavy-tailed distribution.

    The distribution has a bounded :math:`k`-th moment (docs/algorithms.md §1.5).
    Split the sample into halves :math:`Z` (range) and :math:`W` (mean), each into ``groups`` :math:`G` equal
    groups of :math:`n_g` points. Per group: :math:`I_g = \mathrm{PDPRE}(Z^g)` (:func:`private_range`, length
    :math:`6r`), then :math:`\hat\mu_g = \mathrm{mean}(\mathrm{clip}_{I_g}(W^g)) + \mathrm{Lap}(6r/(\varepsilon n_g))`.
    Release the median of the :math:`\hat\mu_g` (the lower median for even :math:`G`).

    Guarantee: :math:`\varepsilon`-DP (pure) under replace-one. A replaced point lies in exactly one of the
    disjoint parts :math:`Z^g, W^g`, so each mechanism may spend the full :math:`\varepsilon` (parallel
    composition, docs/algorithms.md §0.5): the histogram on :math:`Z^g` (:math:`\ell_1` sensitivity 2) and the Laplace
    mean on :math:`W^g` (:math:`\Delta_1 = |I_g|/n_g`, with :math:`I_g` already private); the median is
    post-processing. The paper's proof budgets :math:`\varepsilon/2 + \varepsilon/2` (valid, conservative; its
    pseudocode noise is already the full-:math:`\varepsilon` scale).
    Accuracy: their Thm 3.5, :math:`|\hat\mu - \mu| \le \alpha` w.p. :math:`1-\beta` once
    :math:`n \gtrsim \log(1/\beta)(\alpha^{-2} + \varepsilon^{-1}\alpha^{-k/(k-1)} + \varepsilon^{-1}\log R)`.

    Deviations from the paper: :math:`G = 1` by default, not :math:`200\log(2/\beta)` (the paper's groups boost a
    0.7 success probability to :math:`1-\beta` in its proof; in practice each group's noise is :math:`G` times
    larger and the clipped group means are already light-tailed, so at the page's sizes :math:`G = 9` is *less*
    accurate, even in its 95 % quantile on the two-point adversary); :math:`c_r` = ``bucket_constant`` = 2, not 10;
    the Laplace histogram stands in for Balcer & Vadhan's (2018).

    Parameters
    ----------
    x : array of shape (n,) or (trials, n)
        At least :math:`4G` points per row (2 per half-group); an odd point and any remainder of the
        groups' split are left out. Finite.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    moment_k : float
        :math:`k > 1`, with :math:`\mathbb E|X-\mu|^k \le 1` assumed; ``inf`` for every moment bounded.
    mean_range : float
        :math:`R > 0`: the mean is assumed to lie in :math:`[-R, R]`.
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator; the
        range and the mean steps draw from two spawned child streams (:func:`dpcore.core.randomness.spawn`).
    alpha : float, optional
        Target accuracy :math:`\alpha > 0`; default :func:`default_alpha` of the half-sample size.
    groups : int, default 1
        :math:`G \ge 1`, the number of disjoint groups (median of means).
    bucket_constant : float, default 2.0
        :math:`c_r > 0` of the window radius :math:`r = c_r/\alpha^{1/(k-1)}`.

    Returns
    -------
    MeanEstimate
        The released median of the group means (a float, or shape ``(trials,)``), the median group's window and
        clipped fraction (a diagnostic), the noise scale :math:`6r/(\varepsilon n_g)` and the guarantee.

    Examples
    --------
    >>> x = 3.0 + np.random.default_rng(1).standard_normal(10_000)
    >>> result = private_mean_1d(x, 1.0, moment_k=3, mean_range=100.0, rng=3)
    >>> round(abs(result.estimate - 3.0), 2), result.guarantee
    (0.04, '1-DP (pure), replace-one')
    """
    return _two_stage(x, epsilon, moment_k, mean_range, alpha, groups, bucket_constant, rng,
                      _laplace_histogram(epsilon),
                      lambda value, sensitivity, stream: mechanisms.laplace(value, sensitivity, epsilon, stream),
                      f"{epsilon:g}-DP (pure), replace-one")


@validated(x=_SAMPLE, rho=POSITIVE, moment_k=_MOMENT, mean_range=POSITIVE, rng=Seed(), alpha=_ALPHA,
           groups=_GROUPS, bucket_constant=POSITIVE)
def private_mean_1d_zcdp(x, rho: float, moment_k: float, mean_range: float, rng: RngLike = None, *,
                         alpha: float | None = None, groups: int = 1, bucket_constant: float = 2.0) -> MeanEstimate:
    r"""Kamath, Singhal & Ullman (2020), Thm 3.7 (CDPODME): :func:`private_mean_1d` with Gaussian noise.

    The release is :math:`\rho`-zCDP.
    The histogram adds :math:`\mathcal N(0, 2/(2\rho))` to every bucket count (replace-one moves two counts by
    one: :math:`\ell_2` sensitivity :math:`\sqrt2`) and the clipped mean gets :math:`\mathcal N(0,\sigma^2)`,
    :math:`\sigma = (6r/n_g)/\sqrt{2\rho}` (:func:`dpcore.mechanisms.zcdp_gaussian`). Guarantee: :math:`\rho`-zCDP
    under replace-one — each mechanism is :math:`\rho`-zCDP (Bun & Steinke 2016, Prop 1.6) on a disjoint part of the
    sample (parallel composition), the median is post-processing. The default ``alpha`` is :func:`default_alpha`
    at :math:`\varepsilon = \sqrt{2\rho}`, where the Laplace scale equals this :math:`\sigma`.
    Deviations: as :func:`private_mean_1d`; the paper's zCDP histogram (its Lemma 2.9) is this Gaussian one.

    Parameters
    ----------
    x : array of shape (n,) or (trials, n)
        At least :math:`4G` points per row (2 per half-group), finite; as in :func:`private_mean_1d`.
    rho : float
        The zCDP parameter :math:`\rho > 0`.
    moment_k : float
        :math:`k > 1`, with :math:`\mathbb E|X-\mu|^k \le 1` assumed; ``inf`` for every moment bounded.
    mean_range : float
        :math:`R > 0`: the mean is assumed to lie in :math:`[-R, R]`.
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator; the
        range and the mean steps draw from two spawned child streams (:func:`dpcore.core.randomness.spawn`).
    alpha : float, optional
        Target accuracy :math:`\alpha > 0`; default :func:`default_alpha` of the half-sample size at
        :math:`\varepsilon = \sqrt{2\rho}`.
    groups : int, default 1
        :math:`G \ge 1`, the number of disjoint groups (median of means).
    bucket_constant : float, default 2.0
        :math:`c_r > 0` of the window radius :math:`r = c_r/\alpha^{1/(k-1)}`.

    Returns
    -------
    MeanEstimate
        As :func:`private_mean_1d`; ``noise_scale`` is the Gaussian :math:`\sigma`.

    Examples
    --------
    One hundred datasets of 2,000 points at once, one estimate per row:

    >>> rows = 3.0 + np.random.default_rng(1).standard_normal((100, 2000))
    >>> estimates = private_mean_1d_zcdp(rows, 0.5, moment_k=3, mean_range=100.0, rng=3).estimate
    >>> estimates.shape, round(float(np.median(np.abs(estimates - 3.0))), 2)
    ((100,), 0.05)
    """
    return _zcdp_two_stage(x, rho, moment_k, mean_range, alpha, groups, bucket_constant, rng,
                           f"{rho:g}-zCDP, replace-one", (f"rho={rho!r}", "rho"))


@validated(x=_SAMPLE, epsilon=POSITIVE, delta=DELTA, moment_k=_MOMENT, mean_range=POSITIVE, rng=Seed(),
           alpha=_ALPHA, groups=_GROUPS, bucket_constant=POSITIVE)
def private_mean_1d_approx(x, epsilon: float, delta: float, moment_k: float, mean_range: float, rng: RngLike = None,
                           *, alpha: float | None = None, groups: int = 1,
                           bucket_constant: float = 2.0) -> MeanEstimate:
    r"""Kamath, Singhal & Ullman (2020), Thm 3.7, :math:`(\varepsilon, \delta)` version.

    The zCDP estimator at :math:`\rho(\varepsilon, \delta)`:
    :math:`\rho = (\sqrt{\ln(1/\delta) + \varepsilon} - \sqrt{\ln(1/\delta)})^2`
    (:func:`dpcore.accounting.approx_to_zcdp`), so the release is :math:`\rho`-zCDP and hence
    :math:`(\varepsilon, \delta)`-DP under replace-one (Bun & Steinke 2016, Prop 1.3).
    Deviation: the paper's ADPODME uses a stability-based approximate-DP histogram (its range term
    :math:`\log(1/\delta)/\varepsilon` does not grow with :math:`R`) and Laplace noise on the mean; this version goes
    through zCDP, whose histogram still pays :math:`\sqrt{\log R}`.

    Parameters
    ----------
    x : array of shape (n,) or (trials, n)
        At least :math:`4G` points per row (2 per half-group), finite; as in :func:`private_mean_1d`.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    delta : float
        Privacy parameter :math:`0 < \delta < 1`.
    moment_k : float
        :math:`k > 1`, with :math:`\mathbb E|X-\mu|^k \le 1` assumed; ``inf`` for every moment bounded.
    mean_range : float
        :math:`R > 0`: the mean is assumed to lie in :math:`[-R, R]`.
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator; the
        range and the mean steps draw from two spawned child streams (:func:`dpcore.core.randomness.spawn`).
    alpha : float, optional
        Target accuracy :math:`\alpha > 0`; default :func:`default_alpha` of the half-sample size at the
        Laplace-equivalent :math:`\sqrt{2\rho}`, :math:`\rho = \rho(\varepsilon, \delta)`.
    groups : int, default 1
        :math:`G \ge 1`, the number of disjoint groups (median of means).
    bucket_constant : float, default 2.0
        :math:`c_r > 0` of the window radius :math:`r = c_r/\alpha^{1/(k-1)}`.

    Returns
    -------
    MeanEstimate
        As :func:`private_mean_1d_zcdp` at :math:`\rho(\varepsilon, \delta)`, with the :math:`(\varepsilon, \delta)`
        guarantee.

    Examples
    --------
    >>> x = 3.0 + np.random.default_rng(1).standard_normal(10_000)
    >>> result = private_mean_1d_approx(x, 1.0, 1e-6, moment_k=3, mean_range=100.0, rng=3)
    >>> round(abs(result.estimate - 3.0), 2), result.guarantee
    (0.15, '(1, 1e-06)-DP via 0.01747-zCDP (Bun & Steinke 2016, Prop 1.3), replace-one')
    """
    rho = accounting.approx_to_zcdp(epsilon, delta)
    budget = (f"epsilon={epsilon!r} and delta={delta!r} (rho = {rho:.4g}-zCDP)", "epsilon or delta")
    if not rho > 0.0:  # epsilon so small against ln(1/delta) that rho underflows: no noise would be enough
        raise InvalidParameterError(f"{budget[0]} is too small to compute with: use a larger epsilon or delta")
    guarantee = f"({epsilon:g}, {delta:g})-DP via {rho:.4g}-zCDP (Bun & Steinke 2016, Prop 1.3), replace-one"
    return _zcdp_two_stage(x, rho, moment_k, mean_range, alpha, groups, bucket_constant, rng, guarantee, budget)


_REPEATED = dict(x=Array(ndim=(1,), min_size=4), moment_k=_MOMENT, mean_range=POSITIVE, trials=Integer(low=1),
                 rng=Seed(), bucket_constant=POSITIVE)


@validated(epsilon=POSITIVE, **_REPEATED)
def repeated_private_mean_1d(x, epsilon: float, moment_k: float, mean_range: float, trials: int, rng: RngLike = None,
                             *, bucket_constant: float = 2.0) -> np.ndarray:
    r"""``trials`` independent releases of :func:`private_mean_1d` (one group, the default alpha) on ONE dataset.

    Draw for draw what ``private_mean_1d(np.broadcast_to(x, (trials, n)), epsilon, moment_k, mean_range, rng)``
    returns, hence the same law and the same guarantee (:math:`\varepsilon`-DP under replace-one for each release;
    Kamath, Singhal & Ullman 2020, Alg. 2), without its ``(trials, n)`` arrays: the bucket counts of the range half
    and the clipped mean of the mean half in each window the trials pick are computed once, and only the noise is
    drawn per trial (the same mechanisms, :func:`dpcore.mechanisms.laplace` on the counts, :math:`\ell_1`
    sensitivity 2, as :func:`dpcore.mechanisms.laplace_histogram` draws it, and on the means). For Monte Carlo over
    the mechanism's randomness with the data fixed.

    Parameters
    ----------
    x : array of shape (n,)
        One dataset, finite, at least 4 points.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0` of each release.
    moment_k : float
        :math:`k > 1`, with :math:`\mathbb E|X-\mu|^k \le 1` assumed; ``inf`` for every moment bounded.
    mean_range : float
        :math:`R > 0`: the mean is assumed to lie in :math:`[-R, R]`.
    trials : int
        How many independent releases, at least 1.
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness, as in :func:`private_mean_1d`.
    bucket_constant : float, default 2.0
        :math:`c_r > 0` of the window radius :math:`r = c_r/\alpha^{1/(k-1)}`.

    Returns
    -------
    numpy.ndarray
        Shape ``(trials,)``.

    Examples
    --------
    >>> x = 3.0 + np.random.default_rng(1).standard_normal(2_000)
    >>> fast = repeated_private_mean_1d(x, 1.0, 3, 100.0, 50, rng=3)
    >>> slow = private_mean_1d(np.broadcast_to(x, (50, x.size)), 1.0, 3, 100.0, rng=3).estimate
    >>> bool(np.allclose(fast, slow, rtol=0, atol=1e-12))
    True
    """
    return _repeated_two_stage(x, epsilon, moment_k, mean_range, trials, bucket_constant, rng,
                               lambda counts, stream: mechanisms.laplace(counts, 2.0, epsilon, stream),
                               lambda value, sensitivity, stream: mechanisms.laplace(value, sensitivity, epsilon,
                                                                                     stream),
                               (f"epsilon={epsilon!r}", "epsilon"))


@validated(rho=POSITIVE, **_REPEATED)
def repeated_private_mean_1d_zcdp(x, rho: float, moment_k: float, mean_range: float, trials: int,
                                  rng: RngLike = None, *, bucket_constant: float = 2.0) -> np.ndarray:
    r"""``trials`` independent releases of :func:`private_mean_1d_zcdp` (one group, the default alpha) on ONE dataset.

    Draw for draw what ``private_mean_1d_zcdp(np.broadcast_to(x, (trials, n)), rho, moment_k, mean_range, rng)``
    returns (:math:`\rho`-zCDP under replace-one for each release), computed as :func:`repeated_private_mean_1d`
    computes its pure counterpart: counts and clipped means once, the Gaussian noise
    (:func:`dpcore.mechanisms.zcdp_gaussian`, :math:`\ell_2` sensitivity :math:`\sqrt2` on the counts) per trial.

    Parameters
    ----------
    x : array of shape (n,)
        One dataset, finite, at least 4 points.
    rho : float
        The zCDP parameter :math:`\rho > 0` of each release.
    moment_k : float
        :math:`k > 1`, with :math:`\mathbb E|X-\mu|^k \le 1` assumed; ``inf`` for every moment bounded.
    mean_range : float
        :math:`R > 0`: the mean is assumed to lie in :math:`[-R, R]`.
    trials : int
        How many independent releases, at least 1.
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness, as in :func:`private_mean_1d_zcdp`.
    bucket_constant : float, default 2.0
        :math:`c_r > 0` of the window radius :math:`r = c_r/\alpha^{1/(k-1)}`.

    Returns
    -------
    numpy.ndarray
        Shape ``(trials,)``.

    Examples
    --------
    >>> x = 3.0 + np.random.default_rng(1).standard_normal(2_000)
    >>> fast = repeated_private_mean_1d_zcdp(x, 0.5, 3, 100.0, 50, rng=3)
    >>> slow = private_mean_1d_zcdp(np.broadcast_to(x, (50, x.size)), 0.5, 3, 100.0, rng=3).estimate
    >>> bool(np.allclose(fast, slow, rtol=0, atol=1e-12))
    True
    """
    sqrt2 = math.sqrt(2.0)
    return _repeated_two_stage(x, math.sqrt(2.0 * rho), moment_k, mean_range, trials, bucket_constant, rng,
                               lambda counts, stream: mechanisms.zcdp_gaussian(counts, sqrt2, rho, stream),
                               lambda value, sensitivity, stream: mechanisms.zcdp_gaussian(value, sensitivity, rho,
                                                                                           stream),
                               (f"rho={rho!r}", "rho"))


@validated(x=_SAMPLE_ND, rho=POSITIVE, moment_k=_MOMENT, mean_range=POSITIVE, rng=Seed(), alpha=_ALPHA)
def private_mean_nd_zcdp(x, rho: float, moment_k: float, mean_range: float, rng: RngLike = None, *,
                         alpha: float | None = None) -> np.ndarray:
    r"""Kamath, Singhal & Ullman (2020), Alg. 3 (CDPHDME): a :math:`\rho`-zCDP mean in :math:`\mathbb R^d`.

    See docs/algorithms.md §1.6.
    With halves :math:`Y, Z` of :math:`n` points each: coarse centre :math:`c_i` = :func:`private_mean_1d_zcdp` of
    coordinate :math:`i` of :math:`Y` at :math:`\rho/d`, :math:`\alpha = 1`; keep the :math:`z \in Z` with
    :math:`\|z - c\|_2 \le r = 4\sqrt d/\alpha^{1/(k-1)}`, :math:`\ell = \max\{\#\text{kept}, 3n/4\}`, and release
    :math:`c + \frac1\ell\sum_{\text{kept}}(z - c) + \mathcal N(0, \frac{32r^2}{9\rho n^2} I_d)`.

    Guarantee: :math:`\rho`-zCDP under replace-one. The :math:`d` coarse calls compose to :math:`\rho` on :math:`Y`;
    the truncated mean has :math:`\Delta_2 = 8r/(3n)` (the paper's case analysis; :math:`\ell \ge 3n/4`), so
    :math:`\sigma^2 = \Delta_2^2/(2\rho) = 32r^2/(9\rho n^2)` is :math:`\rho`-zCDP on :math:`Z`; :math:`Y` and :math:`Z`
    are disjoint, so the total is :math:`\rho`, not :math:`2\rho`. Their Thm 4.6: :math:`\|\hat\mu - \mu\|_2 \le \alpha`
    w.p. 0.7 once :math:`n \gtrsim d/\alpha^2 + d/(\sqrt\rho\,\alpha^{k/(k-1)}) + \sqrt{d\log R}\log d/\sqrt\rho`.
    Default ``alpha``: that rate solved for :math:`\alpha`, ``default_alpha(n / d, sqrt(2 rho), k)``.
    Deviations: one group per coordinate (the paper's :math:`\beta = 0.1/d` asks for :math:`200\log(20d)`) and the
    1-D defaults of :func:`private_mean_1d_zcdp`.

    Parameters
    ----------
    x : array of shape (n, d) or (trials, n, d)
        At least 8 points per dataset, finite.
    rho : float
        The zCDP parameter :math:`\rho > 0`.
    moment_k : float
        :math:`k > 1`, with :math:`\mathbb E|\langle v, X-\mu\rangle|^k \le 1` assumed for every unit direction
        :math:`v` (docs/algorithms.md §1.1); ``inf`` for every moment bounded.
    mean_range : float
        :math:`R > 0`: each coordinate of the mean is assumed to lie in :math:`[-R, R]`.
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator; the
        :math:`d` coarse calls and the final noise draw from :math:`d + 1` spawned child streams.
    alpha : float, optional
        Target accuracy :math:`\alpha > 0` (default above).

    Returns
    -------
    numpy.ndarray
        Shape ``(d,)`` or ``(trials, d)``.

    Examples
    --------
    >>> x = np.random.default_rng(4).standard_normal((20_000, 3)) + [1.0, -2.0, 0.5]
    >>> np.round(private_mean_nd_zcdp(x, 0.5, moment_k=4, mean_range=100.0, rng=5), 1)
    array([ 1. , -2. ,  0.5])
    """
    d = x.shape[-1]
    return _ball_mean(x, moment_k, math.sqrt(2.0 * rho), alpha, rng,
                      lambda column, stream: private_mean_1d_zcdp(column, rho / d, moment_k, mean_range, stream,
                                                                  alpha=1.0).estimate,
                      lambda value, sensitivity, stream: mechanisms.zcdp_gaussian(value, sensitivity, rho, stream),
                      (f"rho={rho!r}", "rho"))


@validated(x=_SAMPLE_ND, epsilon=POSITIVE, moment_k=_MOMENT, mean_range=POSITIVE, rng=Seed(), alpha=_ALPHA)
def private_mean_nd_pure(x, epsilon: float, moment_k: float, mean_range: float, rng: RngLike = None, *,
                         alpha: float | None = None) -> np.ndarray:
    r"""The pure-DP counterpart of :func:`private_mean_nd_zcdp`: an :math:`\varepsilon`-DP mean in R^d.

    See docs/algorithms.md §1.6, last paragraph.
    As :func:`private_mean_nd_zcdp`, with the coarse centre from :func:`private_mean_1d` at :math:`\varepsilon/d`
    per coordinate (:math:`\alpha = 1`) and :math:`\mathrm{Lap}(\sqrt d\cdot 8r/(3n\varepsilon))` on every coordinate of
    the truncated mean (:math:`\Delta_1 \le \sqrt d\,\Delta_2`). Guarantee: :math:`\varepsilon`-DP (pure) under
    replace-one: the :math:`d` coarse calls compose to :math:`\varepsilon` on :math:`Y`, the Laplace step is
    :math:`\varepsilon`-DP on the disjoint :math:`Z`. Error :math:`\approx \frac{8\sqrt2}{3}\frac{dr}{\varepsilon n}`: a
    factor :math:`\sqrt d` worse than the zCDP version (rate :math:`(d^{1.5}/(\varepsilon n))^{(k-1)/k}`); the
    default ``alpha``, ``default_alpha(n / d, epsilon / sqrt(d), k)``, follows that rate. Not an algorithm of
    Kamath, Singhal & Ullman (2020): their pure estimator with the linear-in-:math:`d` rate is the exponential-time
    tournament (their Alg. 4).

    Parameters
    ----------
    x : array of shape (n, d) or (trials, n, d)
        At least 8 points per dataset, finite.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    moment_k : float
        :math:`k > 1`, as in :func:`private_mean_nd_zcdp`; ``inf`` for every moment bounded.
    mean_range : float
        :math:`R > 0`: each coordinate of the mean is assumed to lie in :math:`[-R, R]`.
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator; the
        :math:`d` coarse calls and the final noise draw from :math:`d + 1` spawned child streams.
    alpha : float, optional
        Target accuracy :math:`\alpha > 0` (default above).

    Returns
    -------
    numpy.ndarray
        Shape ``(d,)`` or ``(trials, d)``.

    Examples
    --------
    Two dimensions, mean (−3, −3): each coordinate within 0.01 of it at n = 20,000, ε = 1.

    >>> estimate = private_mean_nd_pure(np.random.default_rng(6).standard_normal((20_000, 2)) - 3.0, 1.0, 4, 100.0,
    ...                                 rng=7)
    >>> estimate.shape, bool(np.all(np.abs(estimate + 3.0) < 0.01))
    ((2,), True)
    """
    d = x.shape[-1]
    return _ball_mean(x, moment_k, epsilon / math.sqrt(d), alpha, rng,
                      lambda column, stream: private_mean_1d(column, epsilon / d, moment_k, mean_range, stream,
                                                             alpha=1.0).estimate,
                      lambda value, sensitivity, stream: mechanisms.laplace(value, math.sqrt(d) * sensitivity,
                                                                            epsilon, stream),
                      (f"epsilon={epsilon!r}", "epsilon"))


#: The largest window radius and noise scale the estimators compute with: their squares (the Gaussian variance,
#: the squared norms of the nd ball) must stay finite in double precision, with room for n and the draws.
_MAX_SCALE = 1e150


def _radius(constant: float, alpha: float, moment_k: float, *, default_alpha_used: bool = False,
            budget: str = "epsilon") -> float:
    """The window radius constant / alpha^(1/(k-1)), in log space; an InvalidParameterError if not representable.

    For k near 1 the exponent 1/(k-1) is huge: alpha < 1 sends the radius to overflow, alpha > 1 to zero.
    ``budget`` names the privacy parameter(s) the default alpha was set from, for the message.
    """
    if math.isinf(moment_k):
        return constant
    log_r = math.log(constant) - math.log(alpha) / (moment_k - 1.0)
    source = f" (the default alpha, set from {budget} and n)" if default_alpha_used else ""
    if log_r > math.log(_MAX_SCALE):
        raise InvalidParameterError(f"moment_k={moment_k!r} and alpha={alpha!r}{source} give a clipping window of "
                                    "radius "
                                    f"r = c_r/alpha^(1/(k-1)) = 10^{log_r / math.log(10):.4g}, too large to compute "
                                    "with "
                                    f"(the limit is {_MAX_SCALE:g}): with k this close to 1 the window must be "
                                    "astronomically "
                                    f"wide. Use a larger moment_k or a larger alpha.")
    if log_r < -math.log(_MAX_SCALE):
        raise InvalidParameterError(f"moment_k={moment_k!r} and alpha={alpha!r}{source} give a clipping window of "
                                    "radius "
                                    f"r = c_r/alpha^(1/(k-1)) = 10^{log_r / math.log(10):.4g}, too small to compute "
                                    "with: "
                                    f"the bucket grid would need more than {MAX_HISTOGRAM_CELLS} buckets. Use a larger "
                                    f"moment_k or an alpha below 1.")
    try:  # the direct formula when it is safe, so that results stay bit-for-bit those of earlier versions
        r = constant / alpha ** (1.0 / (moment_k - 1.0))
    except (OverflowError, ZeroDivisionError):
        r = math.nan
    return r if math.isfinite(r) and r > 0.0 else math.exp(log_r)


def _check_noise_scale(scale: float, budget: tuple[str, str], moment_k: float, alpha: float) -> None:
    """A ValueError if the final noise scale (window length / (n epsilon)) is too large to compute with.

    ``budget`` is (the privacy parameters as the caller passed them, e.g. ``"rho=0.5"``; the ones to enlarge, e.g.
    ``"rho"``): the message names what the user can change, not the Laplace-equivalent epsilon of the zCDP estimators.
    """
    if not scale <= _MAX_SCALE:
        stated, larger = budget
        raise InvalidParameterError(f"{stated} with moment_k={moment_k!r} and alpha={alpha!r} needs noise of "
                                    f"scale {scale:.3g}, too large to compute with (the limit is {_MAX_SCALE:g}): the "
                                    "estimate "
                                    f"would be meaningless or not a finite number. Use a larger {larger}, moment_k or "
                                    f"alpha.")


def _laplace_histogram(epsilon: float) -> Histogram:
    return lambda data, edges, stream: mechanisms.laplace_histogram(data, edges, epsilon, stream)


def _window(rows: np.ndarray, r: float, mean_range: float, histogram: Histogram,
            rng: RngLike, cause: str = "") -> tuple[np.ndarray, np.ndarray]:
    """PDPRE on each row: the heaviest noisy bucket of width 2r tiling [-R-2r, R+2r], widened by 2r each side.

    ``cause`` is appended to the too-many-cells message (how a default alpha made the window this narrow).
    """
    buckets = mean_range / (2.0 * r)  # may be inf for a tiny r: compare before converting to an integer
    half = math.ceil(buckets) + 1 if buckets <= MAX_HISTOGRAM_CELLS else MAX_HISTOGRAM_CELLS
    if 2 * half * rows.shape[0] > MAX_HISTOGRAM_CELLS:
        raise InvalidParameterError(f"mean_range must span at most {MAX_HISTOGRAM_CELLS} histogram cells in all "
                                    f"({rows.shape[0]} rows x {2 * (buckets + 1):.4g} buckets of width "
                                    f"2r = {2 * r:g}); got {mean_range!r}{cause}. Use fewer trials, a smaller "
                                    "mean_range or a wider window (a smaller alpha, a larger moment_k or "
                                    "bucket_constant).")
    edges = 2.0 * r * np.arange(-half, half + 1)
    top = np.argmax(histogram(rows, edges, rng), axis=-1)
    return edges[top] - 2.0 * r, edges[top + 1] + 2.0 * r


def _bucket_counts(rows: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Exact counts per row in the buckets [edges[i], edges[i+1]) (last closed), as laplace_histogram counts them."""
    bins = edges.size - 1
    index = np.searchsorted(edges, rows, side="right") - 1
    index[rows == edges[-1]] = bins - 1
    inside = (index >= 0) & (index < bins)
    offsets = np.arange(rows.shape[0])[:, None] * bins
    return np.bincount((index + offsets)[inside], minlength=rows.shape[0] * bins).reshape(rows.shape[0], bins)


def _zcdp_two_stage(x: np.ndarray, rho: float, moment_k: float, mean_range: float, alpha: float | None, groups: int,
                    bucket_constant: float, rng: RngLike, guarantee: str, budget: tuple[str, str]) -> MeanEstimate:
    """CDPODME: :func:`_two_stage` with the Gaussian histogram (l2 sensitivity sqrt 2) and Gaussian mean, rho-zCDP."""
    sqrt2 = math.sqrt(2.0)
    return _two_stage(x, math.sqrt(2.0 * rho), moment_k, mean_range, alpha, groups, bucket_constant, rng,
                      lambda data, edges, stream: mechanisms.zcdp_gaussian(_bucket_counts(data, edges), sqrt2, rho,
                                                                           stream),
                      lambda value, sensitivity, stream: mechanisms.zcdp_gaussian(value, sensitivity, rho, stream),
                      guarantee, budget)


def _two_stage(x: np.ndarray, epsilon: float, moment_k: float, mean_range: float, alpha: float | None, groups: int,
               bucket_constant: float, rng: RngLike, histogram: Histogram, noise: Noise,
               guarantee: str, budget: tuple[str, str] | None = None) -> MeanEstimate:
    """PDPODME / CDPODME: range on one half, clipped noisy mean on the other, median over groups.

    ``epsilon`` is the Laplace-equivalent budget: the final noise scale is sensitivity / epsilon. ``budget`` names
    the privacy parameters as the caller passed them, for the messages (see :func:`_check_noise_scale`; default
    ``epsilon``).
    """
    budget = (f"epsilon={epsilon!r}", "epsilon") if budget is None else budget
    half = x.shape[-1] // 2
    size = half // groups
    if size < 2:
        raise InvalidParameterError(f"x must have at least 4 * groups = {4 * groups} points per row (2 per half-group) "
                                    f"for groups={groups}; got {x.shape[-1]}")
    defaulted = alpha is None
    if alpha is None:
        alpha = default_alpha(half, epsilon, moment_k)
    r = _radius(bucket_constant, alpha, moment_k, default_alpha_used=defaulted, budget=budget[0])
    _check_noise_scale(6.0 * r / (size * epsilon), budget, moment_k, alpha)
    # A default alpha above 1 (a small budget) narrows the window: say so if the histogram then gets too large.
    cause = (f" (the window 2r is this narrow because the default alpha={alpha:.4g} was set from {budget[0]} and "
             f"n={half}: use a larger {budget[1]} or pass an alpha)" if defaulted else "")
    rows = x.reshape(-1, x.shape[-1])
    ranges = rows[:, :groups * size].reshape(-1, size)
    values = rows[:, half:half + groups * size].reshape(-1, size)
    range_stream, noise_stream = spawn(rng, 2)
    low, high = _window(ranges, r, mean_range, histogram, range_stream, cause)
    low, high = low[:, None], high[:, None]
    sensitivity = 6.0 * r / size
    noisy_means = noise(np.clip(values, low, high).mean(axis=1), sensitivity, noise_stream)
    estimates = np.asarray(noisy_means).reshape(-1, groups)
    fraction = ((values < low) | (values > high)).mean(axis=1)
    median_group = np.argsort(estimates, axis=1)[:, (groups - 1) // 2, None]

    def of_median_group(per_group: np.ndarray) -> float | np.ndarray:
        chosen = np.take_along_axis(per_group.reshape(-1, groups), median_group, axis=1)
        return float_if_scalar(chosen.reshape(x.shape[:-1]))

    return MeanEstimate(of_median_group(estimates), of_median_group(low), of_median_group(high),
                        of_median_group(fraction), sensitivity / epsilon, guarantee)


def _repeated_two_stage(x: np.ndarray, epsilon: float, moment_k: float, mean_range: float, trials: int,
                        bucket_constant: float, rng: RngLike, histogram_noise: Callable, noise: Noise,
                        budget: tuple[str, str]) -> np.ndarray:
    """:func:`_two_stage` with one group on ``trials`` copies of one dataset: the same streams, calls and draws.

    The exact counts and clipped means are computed once; ``histogram_noise(counts, stream)`` privatises the counts.
    """
    half = x.shape[-1] // 2
    alpha = default_alpha(half, epsilon, moment_k)
    r = _radius(bucket_constant, alpha, moment_k, default_alpha_used=True, budget=budget[0])
    _check_noise_scale(6.0 * r / (half * epsilon), budget, moment_k, alpha)
    ranges, values = x[:half], x[half:2 * half]
    range_stream, noise_stream = spawn(rng, 2)

    def histogram(_: np.ndarray, edges: np.ndarray, stream: RngLike) -> float | np.ndarray:
        counts = _bucket_counts(ranges[None, :], edges)
        return histogram_noise(np.broadcast_to(counts, (trials, counts.shape[1])), stream)

    low, high = _window(np.empty((trials, 0)), r, mean_range, histogram, range_stream)
    windows, chosen = np.unique(np.stack([low, high], axis=1), axis=0, return_inverse=True)
    means = np.array([np.clip(values, low_end, high_end).mean() for low_end, high_end in windows])
    return np.asarray(noise(means[chosen.reshape(-1)], 6.0 * r / half, noise_stream))


def _ball_mean(x: np.ndarray, moment_k: float, epsilon: float, alpha: float | None, rng: RngLike,
               coarse: Callable[[np.ndarray, np.random.Generator], float | np.ndarray], noise: Noise,
               budget: tuple[str, str]) -> np.ndarray:
    """CDPHDME and its pure counterpart: coarse centre on Y, noisy mean of the Z points in a ball around it.

    ``epsilon`` is the effective budget that sets the default alpha via default_alpha(n / d, epsilon, k); ``budget``
    names the privacy parameter as the caller passed it, for the messages (see :func:`_check_noise_scale`).
    """
    half, d = x.shape[-2] // 2, x.shape[-1]
    if half < 4:
        raise InvalidParameterError(f"x must have at least 8 points (rows) per dataset; got {x.shape[-2]}")
    defaulted = alpha is None
    if alpha is None:
        alpha = default_alpha(half / d, epsilon, moment_k)
    r = _radius(4.0 * math.sqrt(d), alpha, moment_k, default_alpha_used=defaulted, budget=budget[0])
    _check_noise_scale(math.sqrt(d) * 8.0 * r / (3.0 * half * epsilon), budget, moment_k, alpha)
    streams = spawn(rng, d + 1)
    centre = np.stack([np.asarray(coarse(x[..., :half, i], streams[i])) for i in range(d)], axis=-1)
    offsets = x[..., half:2 * half, :] - centre[..., None, :]
    kept = np.linalg.norm(offsets, axis=-1) <= r
    total = np.einsum("...n,...nd->...d", kept.astype(float), offsets)
    ell = np.maximum(kept.sum(axis=-1), 0.75 * half)[..., None]
    return centre + noise(total / ell, 8.0 * r / (3.0 * half), streams[d])


# --------------------------------------------------------------------------------------- the plane tournament
# Kamath, Singhal & Ullman (2020), Alg. 4: a pure-DP mean in the plane by a tournament over a public cover.

@validated(points=Array(ndim=(2,), min_size=2), cover=Array(ndim=(2,), min_size=2), alpha=_TOURNAMENT_ALPHA,
           groups=Integer(low=1), clip=Real(low=0, low_open=True))
def ksu20_scores(points, cover, alpha: float = 0.05, groups: int = 5, clip: float = 4.0) -> np.ndarray:
    r"""The tournament scores of Kamath, Singhal & Ullman (2020, Alg. 4, steps 3–4).

    For each cover point p, the fewest data points to change before p loses a match to some cover point q.
    Match(p, q): project the points on the line through p and q, :math:`s = \langle x - p, e\rangle`,
    :math:`e = (q - p)/\|q - p\|`, clip s to :math:`[-\xi, \xi]` (``clip``), average in ``groups`` fixed consecutive
    groups, and let p lose if the median group mean reaches :math:`h = \|q - p\|/2`. Pairs closer than
    :math:`20\alpha` tie, pairs with :math:`h > \xi` cannot make p lose. A group with mean below h needs its smallest
    clipped values raised to ξ, greedily, until the mean reaches h; a match costs the sum of the :math:`(G+1)/2`
    cheapest groups. :math:`\mathrm{Score}(p) = \min(n, \min_q \mathrm{cost}(p, q))`: a distance to a set in Hamming
    metric, so **sensitivity 1** under replace-one (their Lemma 5.7). Points beyond the last full group are not used.

    Only the pairs that play are computed, each once for both directions: match(q, p) projects on :math:`-e`, and
    :math:`\langle x - q, -e\rangle = \langle q, e\rangle - \langle x, e\rangle` decreases where
    :math:`\langle x - p, e\rangle` increases, so one sort of each group's :math:`\langle x, e\rangle` (shared by the
    pairs of one direction) orders both matches' clipped values. The same floating-point numbers as projecting every
    ordered pair: the scores are exactly those of the all-pairs computation
    (tests/estimators/test_heavy_tailed_mean.py), in :math:`O(c^2 n)` time at worst.

    Parameters
    ----------
    points : array of shape (n, 2)
        The data, finite, of the cover's dimension (at least 2; the page uses the plane); at least ``groups``
        points.
    cover : array of shape (c, 2)
        Candidate means, fixed in advance (public), finite.
    alpha : float, default 0.05
        α in (0, 0.25]: pairs closer than :math:`20\alpha` tie.
    groups : int, default 5
        :math:`G \ge 1`, the number of groups.
    clip : float, default 4.0
        :math:`\xi > 0`.

    Returns
    -------
    numpy.ndarray of shape (c,)

    Examples
    --------
    600 Student-t(3) points around (0.2, −0.1) and a 3 × 3 cover of spacing 1.5: only its centre scores.

    >>> points = np.array([0.2, -0.1]) + np.random.default_rng(2).standard_t(3, (600, 2))
    >>> cover = np.array([(a, b) for b in (-1.5, 0.0, 1.5) for a in (-1.5, 0.0, 1.5)])
    >>> ksu20_scores(points, cover, alpha=0.05).tolist()
    [0.0, 0.0, 0.0, 0.0, 24.0, 0.0, 0.0, 0.0, 0.0]
    """
    if points.shape[1] != cover.shape[1]:
        raise InvalidParameterError(f"points and cover must have the same dimension; got {points.shape[1]} and "
                                    f"{cover.shape[1]}")
    size = points.shape[0] // groups
    if size < 1:
        raise InvalidParameterError(f"points must hold at least one point per group ({groups}); got {points.shape[0]}")
    used = points[:groups * size]
    offsets = cover[None, :, :] - cover[:, None, :]                      # q − p, shape (c, c, d)
    distance = np.linalg.norm(offsets, axis=-1)                          # symmetric, exactly
    half = distance / 2
    playable = (distance > 20 * alpha) & (half <= clip)
    cost = np.full(distance.shape, np.inf)                               # pairs that do not play cost ∞
    p, q = np.nonzero(np.triu(playable, 1))                              # each playable pair once, p < q
    if p.size:
        # e = (q − p)/‖q − p‖; pairs with equal offsets share it: ⟨x, e⟩ is computed and sorted once per direction.
        directions, which = np.unique(offsets[p, q] / distance[p, q, None], axis=0, return_inverse=True)
        which = which.ravel()
        e = directions[which]
        along = np.sort(np.einsum("nd,md->mn", used, directions).reshape(-1, groups, size), axis=-1)[which]
        # Match(p, q) projects on e: s = ⟨x, e⟩ − ⟨p, e⟩, increasing in ⟨x, e⟩; match(q, p) on −e:
        # s = ⟨q, e⟩ − ⟨x, e⟩, decreasing. Clipping keeps the order: each group's sorted ⟨x, e⟩, read forwards for p
        # and backwards for q, gives both matches' sorted clipped values with no further sort.
        values = np.empty((2 * p.size, groups, size))
        np.subtract(along, np.einsum("md,md->m", cover[p], e)[:, None, None], out=values[:p.size])
        np.subtract(np.einsum("md,md->m", cover[q], e)[:, None, None], along[..., ::-1], out=values[p.size:])
        np.clip(values, -clip, clip, out=values)
        deficit = np.tile(half[p, q], 2)[:, None] * size - values.sum(axis=-1)  # each group's sum below h·size
        needed = _raised_to_clip(values.reshape(-1, size), deficit.ravel(), clip).reshape(deficit.shape)
        pair_cost = np.sort(needed, axis=-1)[..., :(groups + 1) // 2].sum(axis=-1).astype(float)
        cost[p, q], cost[q, p] = pair_cost[:p.size], pair_cost[p.size:]
    return np.minimum(float(used.shape[0]), cost.min(axis=1))


def _raised_to_clip(values: np.ndarray, deficit: np.ndarray, clip: float, prefix: int = 16) -> np.ndarray:
    """Values to raise to ξ in each group: 0 if its ``deficit`` is <= 0, else 1 + the number of running gains below it.

    A row of ``values`` is one group's sorted clipped values (all <= ``clip``); its running gain after t + 1 values
    is the sum of ``clip - values`` over its t + 1 smallest, what raising them to ξ adds to the group's sum. The gains
    never decrease (every term is >= 0), so once one reaches the deficit the count is final: running sums over the
    first ``prefix`` values (the same numbers as the full ones) settle most rows, and only rows still short get all
    of theirs.
    """
    needed = np.zeros(deficit.shape, dtype=int)
    rows = np.flatnonzero(deficit > 0)
    targets = deficit[rows, None]
    below = (np.cumsum(clip - values[rows, :prefix], axis=-1) < targets).sum(axis=-1)
    unsettled = below == min(prefix, values.shape[-1])
    if unsettled.any():
        below[unsettled] = (np.cumsum(clip - values[rows[unsettled]], axis=-1) < targets[unsettled]).sum(axis=-1)
    needed[rows] = 1 + below
    return needed


@validated(points=Array(ndim=(2,), min_size=2), cover=Array(ndim=(2,), min_size=2), epsilon=EPSILON,
           alpha=_TOURNAMENT_ALPHA, groups=Integer(low=1), clip=Real(low=0, low_open=True), rng=Seed())
def ksu20_tournament(points, cover, epsilon: float, alpha: float = 0.05, groups: int = 5, clip: float = 4.0,
                     rng: RngLike = None) -> Selection:
    r"""The pure-DP tournament of Kamath, Singhal & Ullman (2020) over a public cover.

    The exponential mechanism :math:`P(p) \propto \exp(\varepsilon\,\mathrm{Score}(p)/2)` on :func:`ksu20_scores`.
    Guarantee: **ε-DP** for replace-one neighbours (score sensitivity 1). The paper first finds a coarse box with ε on a
    separate half of the data (a private range per coordinate) and covers it with a grid of :math:`(2\sqrt d + 1)^d`
    points; here the cover is fixed in advance instead (public), which keeps the guarantee and skips that step. Time is
    :math:`O(c^2 n)` for c cover points: exponential in d through the cover, hence the plane only.

    Parameters
    ----------
    points : array of shape (n, 2)
        The data, finite, of the cover's dimension; at least ``groups`` points.
    cover : array of shape (c, 2)
        Candidate means, fixed in advance (public), finite.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    alpha : float, default 0.05
        α in (0, 0.25] of :func:`ksu20_scores`.
    groups : int, default 5
        :math:`G \ge 1` of :func:`ksu20_scores`.
    clip : float, default 4.0
        :math:`\xi > 0` of :func:`ksu20_scores`.
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).

    Returns
    -------
    Selection
        The released cover index, the selection probabilities and scores (diagnostics), the sensitivity 1 and the
        guarantee.

    Examples
    --------
    >>> points = np.array([0.2, -0.1]) + np.random.default_rng(2).standard_t(3, (600, 2))
    >>> cover = np.array([(a, b) for b in (-1.5, 0.0, 1.5) for a in (-1.5, 0.0, 1.5)])
    >>> choice = ksu20_tournament(points, cover, epsilon=1.0, alpha=0.05, rng=0)
    >>> cover[choice.index].tolist(), choice.guarantee
    ([0.0, 0.0], '1-DP (pure), Δ = 1')
    """
    scores = ksu20_scores(points, cover, alpha, groups, clip)
    probabilities = exponential_probabilities(scores, epsilon, 1.0)
    return Selection(exponential(scores, epsilon, 1.0, rng=rng), probabilities, scores, 1.0,
                     f"{epsilon:g}-DP (pure), Δ = 1")

