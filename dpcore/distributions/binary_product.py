r"""Binary product distributions :math:`P = \bigotimes_j \mathrm{Ber}(p_j)` and the distances between them.

The partitioning page's setting (docs/algorithms.md §3.1; Singhal 2023): rows :math:`X_i \in \{0,1\}^d` with independent
coordinates, :math:`p_j \le 1/2`. Accuracy is measured in total variation, which needs **every** marginal to *relative*
accuracy: for small errors

.. math::
    \chi^2(P\|Q) \approx \sum_j \frac{(q_j - p_j)^2}{p_j(1-p_j)}, \qquad d_{TV}(P, Q) \approx \sqrt{\chi^2/(2\pi)},

so a coordinate with :math:`p_j = 10^{-4}` must be estimated to about :math:`10^{-2}\sqrt{p_j}`, far finer than one
with :math:`p_j = 1/2`. KL, :math:`\chi^2` and Hellinger/Bhattacharyya factorise over coordinates and are exact here;
TV does not factorise: it is exact by enumeration of :math:`\{0,1\}^d` for :math:`d \le 16`, otherwise a Monte Carlo
estimate :math:`\mathbb E_{x\sim P}[(1 - Q(x)/P(x))_+]` (integrand in :math:`[0, 1]`, standard error
:math:`\le 1/(2\sqrt m)`) inside the exact Bhattacharyya sandwich :math:`1 - \mathrm{BC} \le d_{TV} \le
\sqrt{1 - \mathrm{BC}^2}`.

Every function takes ``q`` (and ``p`` where sensible) with leading axes, e.g. ``(trials, d)``, and returns one value
per row: Monte Carlo over trials needs no Python loop.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from ..core.randomness import RngLike, as_generator
from ..core.validation import Array, Choice, Integer, InvalidParameterError, Real, Seed, float_if_scalar, validated

__all__ = ["PROFILES", "marginal_profile", "sample_rows", "column_counts", "kl_divergence", "chi_squared",
           "bhattacharyya", "hellinger", "tv_bounds", "tv_exact", "TVMonteCarlo", "tv_monte_carlo", "TVEstimate",
           "tv_distance", "MAX_EXACT_DIMENSION"]

PROFILES = ("log-uniform", "two-level", "few heavy", "power law", "all 1/2", "all tiny")
MAX_EXACT_DIMENSION = 16

_DIMENSION = Integer(low=1, high=1_000_000)
_MARGINALS = Array(ndim=(1,), low=0, high=1, min_size=1)
_ESTIMATES = Array(ndim=(1, 2, 3), low=0, high=1, min_size=1)


@validated(profile=Choice(PROFILES), dimension=_DIMENSION, exponent=Real(low=0, low_open=True))
def marginal_profile(profile: str, dimension: int, exponent: float = 1.0) -> np.ndarray:
    r"""Marginals :math:`p_1 \ge \dots \ge p_d` in :math:`(0, 1/2]` for one of the page's profiles
    (docs/algorithms.md §3.1).

    * ``"log-uniform"`` (default of the page): :math:`d` geometrically spaced values from :math:`1/2` down to
      :math:`1/(4d)` (the quantiles of a log-uniform law; deterministic, so the same URL gives the same truth);
    * ``"two-level"``: half the coordinates :math:`1/2`, half :math:`1/d`;
    * ``"few heavy"``: :math:`\lceil\sqrt d\,\rceil` coordinates :math:`1/2`, the rest :math:`1/(4d)`;
    * ``"power law"``: :math:`p_j = \tfrac12 j^{-\gamma}` (``exponent`` :math:`\gamma`);
    * ``"all 1/2"``: every :math:`p_j = 1/2` (no partition can help: all coordinates are heavy);
    * ``"all tiny"``: every :math:`p_j = 1/d` (one row has about one 1).

    Returns
    -------
    numpy.ndarray of shape (d,), sorted in decreasing order.
    """
    d = dimension
    if profile == "log-uniform":
        return np.geomspace(0.5, 1.0 / (4 * d), d) if d > 1 else np.array([0.5])
    if profile == "two-level":
        return np.where(np.arange(d) < (d + 1) // 2, 0.5, 1.0 / max(d, 2))
    if profile == "few heavy":
        return np.where(np.arange(d) < math.ceil(math.sqrt(d)), 0.5, 1.0 / (4 * d))
    if profile == "power law":
        return 0.5 * np.arange(1, d + 1, dtype=float) ** -exponent
    if profile == "all 1/2":
        return np.full(d, 0.5)
    return np.full(d, 1.0 / max(d, 2))


@validated(p=_MARGINALS, n=Integer(low=1), rng=Seed(), trials=Integer(low=1))
def sample_rows(p, n: int, rng: RngLike = None, trials: int | None = None) -> np.ndarray:
    """``n`` rows from :math:`\\bigotimes_j\\mathrm{Ber}(p_j)` as booleans: shape ``(n, d)``, or ``(trials, n, d)``."""
    shape = (n, p.size) if trials is None else (trials, n, p.size)
    return as_generator(rng).random(shape) < p


@validated(p=_MARGINALS, n=Integer(low=0), rng=Seed(), trials=Integer(low=1))
def column_counts(p, n: int, rng: RngLike = None, trials: int | None = None) -> np.ndarray:
    r"""The column sums of ``n`` rows without materialising them: :math:`c_j \sim \mathrm{Binomial}(n, p_j)`,
    independent over :math:`j` (exact, since the coordinates are independent). Shape ``(d,)`` or ``(trials, d)``."""
    shape = (p.size,) if trials is None else (trials, p.size)
    return as_generator(rng).binomial(n, np.broadcast_to(p, shape))


def _bernoulli_terms(p, q, f):
    """Sum over coordinates of f(p_j, q_j) + f(1 - p_j, 1 - q_j)."""
    return float_if_scalar(np.sum(f(p, q) + f(1.0 - p, 1.0 - q), axis=-1))


@validated(p=_ESTIMATES, q=_ESTIMATES)
def kl_divergence(p, q) -> float | np.ndarray:
    r"""Exact :math:`\mathrm{KL}(P\|Q) = \sum_j p_j\ln\frac{p_j}{q_j} + (1-p_j)\ln\frac{1-p_j}{1-q_j}` (nats).

    Infinite when some :math:`q_j \in \{0, 1\}` where :math:`p_j \notin \{0, 1\}` (an estimate of exactly 0 for a
    marginal that is not 0: every row with a 1 there has probability 0 under Q).
    """
    def term(a, b):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(a > 0, a * (np.log(a) - np.log(b)), 0.0)
    return _bernoulli_terms(p, q, term)


@validated(p=_ESTIMATES, q=_ESTIMATES)
def chi_squared(p, q) -> float | np.ndarray:
    r"""Exact :math:`\chi^2(P\|Q) = \prod_j\Big(\frac{p_j^2}{q_j} + \frac{(1-p_j)^2}{1-q_j}\Big) - 1`
    (computed in log space; ``inf`` on overflow or when Q misses mass of P)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        factor = np.where(p > 0, p * p / q, 0.0) + np.where(p < 1, (1 - p) ** 2 / (1 - q), 0.0)
        return float_if_scalar(np.expm1(np.sum(np.log(factor), axis=-1)))


@validated(p=_ESTIMATES, q=_ESTIMATES)
def bhattacharyya(p, q) -> float | np.ndarray:
    r"""Bhattacharyya coefficient :math:`\mathrm{BC} = \prod_j\big(\sqrt{p_jq_j} + \sqrt{(1-p_j)(1-q_j)}\big)`
    (0 when in some coordinate the two laws are disjoint point masses)."""
    with np.errstate(divide="ignore"):
        return float_if_scalar(np.exp(np.sum(np.log(np.sqrt(p * q) + np.sqrt((1 - p) * (1 - q))), axis=-1)))


@validated(p=_ESTIMATES, q=_ESTIMATES)
def hellinger(p, q) -> float | np.ndarray:
    r"""Hellinger distance :math:`H = \sqrt{1 - \mathrm{BC}}` (so :math:`H^2 \le d_{TV} \le \sqrt2\,H`)."""
    return float_if_scalar(np.sqrt(np.maximum(0.0, 1.0 - bhattacharyya(p, q))))


@validated(p=_ESTIMATES, q=_ESTIMATES)
def tv_bounds(p, q) -> tuple[float | np.ndarray, float | np.ndarray]:
    r"""The exact sandwich :math:`1 - \mathrm{BC} \le d_{TV}(P, Q) \le \sqrt{1 - \mathrm{BC}^2}` (any :math:`d`)."""
    coefficient = bhattacharyya(p, q)
    return float_if_scalar(1.0 - coefficient), float_if_scalar(np.sqrt(np.maximum(0.0, 1.0 - coefficient ** 2)))


_LOG_ZERO = -1e250  # stands for ln 0: finite, so that 0 · ln 0 = 0 in the matrix products below


def _point_products(points, a):
    """a · x for every row a of ``a`` and every point x (a row of ``points``, dense or ``scipy.sparse``): shape
    ``(*a.shape[:-1], m)``. Sparse points cost one multiply per nonzero coordinate, not one per coordinate."""
    if sparse.issparse(points):
        return (points @ a.reshape(-1, a.shape[-1]).T).T.reshape(*a.shape[:-1], points.shape[0])
    return a @ points.T


def _log_likelihoods(points, q):
    """log Q(x) for every point (rows of ``points``) and every row of ``q``: shape (*q.shape[:-1], m).

    log Q(x) = x·a + b with a_j = ln q_j − ln(1 − q_j) and b = Σ_j ln(1 − q_j): one matrix product. A marginal
    q_j = 0 enters as ln 0 ≈ −1e250 (so a point with x_j = 1 gets log-likelihood ≈ −1e250, i.e. probability 0);
    a marginal q_j = 1 is left out of a and b (ln 1 = 0) and the points with x_j = 0 are set to −inf separately.
    """
    certain = q >= 1
    with np.errstate(divide="ignore"):
        log_q = np.maximum(np.log(q), _LOG_ZERO)
        log_not_q = np.where(certain, 0.0, np.maximum(np.log1p(-q), _LOG_ZERO))
    a = np.where(certain, 0.0, log_q - log_not_q)
    values = _point_products(points, a) + np.sum(log_not_q, axis=-1)[..., None]
    if certain.any():
        values = np.where(_misses_certain(points, certain) > 0, -np.inf, values)
    return values


def _misses_certain(points, certain):
    """Number of coordinates with q_j = 1 where a point has x_j = 0: shape (*certain.shape[:-1], m)."""
    return np.sum(certain, axis=-1)[..., None] - _point_products(points, certain.astype(float))


@validated(p=_MARGINALS, q=_ESTIMATES)
def tv_exact(p, q) -> float | np.ndarray:
    r""":math:`d_{TV}(P, Q) = \sum_{x\in\{0,1\}^d}(P(x) - Q(x))_+` by enumeration of all :math:`2^d` points
    (:math:`d \le 16`)."""
    d = p.size
    if d > MAX_EXACT_DIMENSION or q.shape[-1] != d:
        raise InvalidParameterError(f"p must have at most {MAX_EXACT_DIMENSION} coordinates and q the same number; "
                                    f"got {d} and {q.shape[-1]}")
    points = ((np.arange(2 ** d)[:, None] >> np.arange(d)) & 1).astype(float)
    excess = np.exp(_log_likelihoods(points, p)) - np.exp(_log_likelihoods(points, q))
    return float_if_scalar(np.sum(np.maximum(excess, 0.0), axis=-1))


def _sparse_rows(p, samples: int, rng: RngLike, chunk_bytes: int = 2**25):
    """:func:`sample_rows` as a sparse matrix of floats, drawn a few rows at a time (the same uniforms, in the same
    order, as one call: at most ``chunk_bytes`` of them in memory, not ``8 · samples · d`` bytes)."""
    generator = as_generator(rng)
    rows = max(1, chunk_bytes // (8 * p.size))
    uniforms = np.empty((min(rows, samples), p.size))  # one buffer for every chunk: no new pages to fault in
    chunk_columns, row_ends = [], [np.zeros(1, dtype=np.int64)]
    for start in range(0, samples, rows):
        ones = generator.random(out=uniforms[:min(rows, samples - start)]) < p
        chunk_columns.append(np.flatnonzero(ones) % p.size)  # row by row, columns ascending: CSR order
        row_ends.append(row_ends[-1][-1] + np.cumsum(np.count_nonzero(ones, axis=1)))
    columns = np.concatenate(chunk_columns)
    return sparse.csr_array((np.ones(columns.size), columns, np.concatenate(row_ends)), shape=(samples, p.size))


class TVMonteCarlo:
    r"""Monte Carlo total variation from a fixed P: :math:`m` points :math:`x_i \sim P` drawn once, then
    :math:`\widehat{d_{TV}}(P, Q) = \frac1m\sum_i\big(1 - Q(x_i)/P(x_i)\big)_+` for any Q (unbiased; the integrand
    lies in :math:`[0, 1]`, so its standard error is :math:`\le 1/(2\sqrt m)`).

    Reusing the points for every Q (estimators, trials, ε) gives common random numbers and costs one matrix
    product per call. The points are kept sparse (``scipy.sparse``, one entry per coordinate equal to 1), so a call
    costs :math:`m\sum_j p_j` multiplications per row of Q rather than :math:`md`: small marginals make it cheap.
    """

    def __init__(self, p, samples: int, rng: RngLike = None):
        self.points = _sparse_rows(p, samples, rng)
        self.log_p = _log_likelihoods(self.points, p)

    def integrand(self, q) -> np.ndarray:
        """:math:`(1 - Q(x_i)/P(x_i))_+` for every point: shape ``(*q.shape[:-1], m)``."""
        log_ratio = _log_likelihoods(self.points, q) - self.log_p
        return np.maximum(0.0, -np.expm1(np.minimum(log_ratio, 0.0)))

    def __call__(self, q) -> np.ndarray:
        return self.integrand(q).mean(axis=-1)

    def estimate(self, q) -> tuple[float | np.ndarray, float | np.ndarray]:
        """The estimate and its standard error ``std(integrand, ddof=1) / sqrt(m)``: floats, or arrays of
        ``q.shape[:-1]``."""
        integrand = self.integrand(q)
        return (float_if_scalar(integrand.mean(axis=-1)),
                float_if_scalar(integrand.std(axis=-1, ddof=1) / math.sqrt(integrand.shape[-1])))

    @property
    def nbytes(self) -> int:
        """The memory the points and their log-likelihoods hold (bytes): what a cache of point sets counts."""
        return self.points.data.nbytes + self.points.indices.nbytes + self.points.indptr.nbytes + self.log_p.nbytes


@validated(p=_MARGINALS, q=_ESTIMATES, samples=Integer(low=2), rng=Seed())
def tv_monte_carlo(p, q, samples: int = 20_000, rng: RngLike = None):
    r"""Unbiased Monte Carlo :math:`d_{TV}(P, Q)` over ``samples`` points from P, with its standard error
    (:class:`TVMonteCarlo`; the same points serve every row of ``q``).

    Returns
    -------
    (estimate, standard_error): floats, or arrays of ``q.shape[:-1]``.
    """
    return TVMonteCarlo(p, samples, rng).estimate(q)


@dataclass(frozen=True)
class TVEstimate:
    """Total variation distance: ``value`` (exact when ``exact``), its Monte Carlo standard error (0 when exact)
    and the exact Bhattacharyya bounds ``lower <= TV <= upper``."""

    value: float | np.ndarray
    standard_error: float | np.ndarray
    lower: float | np.ndarray
    upper: float | np.ndarray
    exact: bool


@validated(p=_MARGINALS, q=_ESTIMATES, samples=Integer(low=2), rng=Seed())
def tv_distance(p, q, samples: int = 20_000, rng: RngLike = None) -> TVEstimate:
    """:math:`d_{TV}(P, Q)`: exact by enumeration for ``d <= 16``, otherwise Monte Carlo over ``samples`` draws
    from P, with the Bhattacharyya sandwich either way (docs/algorithms.md §3.1)."""
    lower, upper = tv_bounds(p, q)
    if p.size <= MAX_EXACT_DIMENSION:
        value = tv_exact(p, q)
        return TVEstimate(value, float_if_scalar(np.zeros_like(value)), lower, upper, True)
    value, error = tv_monte_carlo(p, q, samples, rng)
    return TVEstimate(value, error, lower, upper, False)
