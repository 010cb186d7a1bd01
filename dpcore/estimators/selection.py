r"""Hypothesis selection by pairwise Scheffé contests, non-private and private.

See docs/algorithms.md §4; Ghazi et al. 2023; Kamath, Singhal & Ullman 2020.

**Scheffé contests.** For two hypotheses :math:`H_i, H_j` the Scheffé set is :math:`W_{ij} = \{x : h_i(x) > h_j(x)\}`,
where :math:`H_i` puts :math:`p_1 = H_i(W_{ij})` and :math:`H_j` puts :math:`p_2 = H_j(W_{ij})` (so
:math:`d_{TV}(H_i, H_j) = p_1 - p_2`). The data put the empirical mass :math:`\hat\tau_{ij}` there. :math:`H_i` wins the
contest if it predicts :math:`\hat\tau_{ij}` better: :math:`|p_1 - \hat\tau| < |p_2 - \hat\tau|`. The tournament winner
has the most wins; the minimum-distance estimate minimises :math:`\max_j |H_i(W_{ij}) - \hat\tau_{ij}|`.

**Privately (the score of Bun, Kamath, Steinke & Wu 2019, item level; docs/algorithms.md §4.2).** With tolerance
:math:`\zeta = 1.5\alpha` and tie threshold :math:`\kappa = 4\alpha`,

.. math:: \Gamma(H_i, H_j, X) = \begin{cases} n & p_1 - p_2 \le \kappa \\
          n\max\{0, \hat\tau_{ij} - p_2 - \zeta\} & \text{otherwise} \end{cases}, \qquad
          S(H_i, X) = \min_{j \ne i}\Gamma(H_i, H_j, X),

:math:`\Gamma` being the number of points that must change before :math:`H_i` loses to :math:`H_j`. Replacing one point
moves every :math:`\hat\tau` by at most :math:`1/n`, so every :math:`\Gamma` and :math:`S` by at most 1: the exponential
mechanism :math:`P(H_i) \propto \exp(\varepsilon S(H_i)/2)` is ε-DP. If :math:`\mathrm{OPT} = \min_j d_{TV}(P, H_j) \le
\alpha` and :math:`n \ge \max\{2\ln(k^2/\beta)/\alpha^2, 2\ln(k/\beta)/(\varepsilon\alpha)\}`, the output is within
:math:`5\alpha` of P in TV w.p. :math:`\ge 1 - 2\beta` (our constants; Bun, Kamath, Steinke & Wu's (2019) rate is
:math:`O(\log k/\alpha^2 + \log k/(\alpha\varepsilon))`).

**User level (Ghazi et al. 2023, App. E; docs/algorithms.md §4.3).** n users with m examples each; user i's contribution
to a contest, :math:`c_i = \#\{\text{its points in } W_{ij}\} - m(p_2 + \zeta)`, is clipped to :math:`[-\tau, \tau]`;
:math:`\Gamma^u = \max\{0, \sum_i \mathrm{clip}_\tau(c_i)\}` (:math:`n\min(\tau, m)` for tie pairs). Replacing one
user moves :math:`\Gamma^u` by at most :math:`\Delta_u = \min(m, 2\tau)`; :math:`\tau = \infty` is plain group privacy
(:math:`\Delta = m`). With :math:`m = \tau = 1` the scores are the item-level ones.

**Vectorisation.** Families whose Scheffé sets are intervals (1-D Gaussians) count every contest's points with
one sort of the data and binary searches at the interval ends; datasets (trials, users) are stacked rows searched
together. Discrete families use one histogram per row.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np
from scipy import special

from ..core.guarantees import diagnostic, public, released
from ..core.randomness import RngLike, as_generator
from ..core.validation import EPSILON, Array, Choice, InstanceOf, Integer, InvalidParameterError, Real, Seed, validated
from ..mechanisms import exponential, exponential_probabilities

__all__ = ["HypothesisClass", "GaussianFamily", "DiscreteFamily", "GaussianMeans2D", "gaussian_grid",
           "gaussian_mean_scale_grid", "simplex_cover", "contest_parameters", "win_matrix", "tournament_winner",
           "minimum_distance", "scheffe_scores", "user_scheffe_scores", "Selection", "private_select",
           "guarantee_alpha", "users_needed_theory"]


_ALPHA = Real(0, 0.25, low_open=True)


_CHUNK_ENTRIES = 20_000_000  # per-user contest counts held at once (memory bound of user_scheffe_scores)


def _normal_cdf(z):
    return special.ndtr(z)


def _rank_counts(x, queries):
    """For every row of ``x`` (shape (..., points)) and every query t: (#points < t, #points <= t).

    Rows are sorted once and searched together: row r's values are shifted into (r·span, (r+1)·span), so one
    ``searchsorted`` per side answers every row's queries. Infinite queries are answered without searching.
    Returns two arrays of shape (rows, q) with rows = prod(x.shape[:-1]).
    """
    points = x.shape[-1]
    finite = np.isfinite(queries)
    below = np.where(queries > 0, points, 0) * np.ones((int(np.prod(x.shape[:-1], dtype=int)), 1), dtype=int)
    below_or_at = below.copy()
    if finite.any():
        values = queries[finite]
        # A frame fixed by the queries alone: clipping the data to [bottom, top] changes no comparison with a
        # query, and each point's shifted value then depends on that point (and its row) only, so a count stays a
        # sum of per-point indicators — one point moves it by at most 1 whatever its value (no precision leak).
        bottom, top = float(values.min()) - 1.0, float(values.max()) + 1.0
        span = top - bottom + 1.0
        rows = np.sort(np.clip(x.reshape(-1, points), bottom, top), axis=1)
        shift = np.arange(rows.shape[0])[:, None] * span
        flat = (rows - bottom + shift).ravel()
        targets = values[None, :] - bottom + shift
        start = np.arange(rows.shape[0])[:, None] * points
        below[:, finite] = np.searchsorted(flat, targets, side="left") - start
        below_or_at[:, finite] = np.searchsorted(flat, targets, side="right") - start
    return below, below_or_at


def _finite_points(x) -> np.ndarray:
    """Data as a float array, rejecting NaN/inf and empty input (a count must be a sum of per-point indicators)."""
    data = np.asarray(x, dtype=float)
    if data.ndim < 1 or data.size == 0 or not np.all(np.isfinite(data)):
        raise InvalidParameterError(f"x must be a non-empty array of finite points; got shape {data.shape}"
                         + (" with NaN or inf" if data.size and not np.all(np.isfinite(data)) else ""))
    return data


class HypothesisClass(ABC):
    """k hypotheses with exact Scheffé sets.

    ``probabilities`` gives :math:`P_1[i, j] = H_i(W_{ij})` and :math:`P_2[i, j] = H_j(W_{ij})`; ``set_counts``
    counts data points in every :math:`W_{ij}`.
    """

    size: int

    def probabilities(self) -> tuple[np.ndarray, np.ndarray]:
        """(P1, P2), each (k, k), read-only; the diagonal is 0. Computed once per family (data-independent)."""
        cached = self.__dict__.get("_probabilities")
        if cached is None:
            cached = tuple(np.asarray(a, dtype=float) for a in self._scheffe_probabilities())
            for array in cached:
                array.flags.writeable = False
            self.__dict__["_probabilities"] = cached
        return cached

    @abstractmethod
    def _scheffe_probabilities(self) -> tuple[np.ndarray, np.ndarray]:
        """(P1, P2) computed exactly."""

    @abstractmethod
    def set_counts(self, x) -> np.ndarray:
        """Number of points of each row of ``x`` in every :math:`W_{ij}`: shape (*rows, k, k)."""

    @abstractmethod
    def tv_from(self, truth) -> np.ndarray:
        """:math:`d_{TV}(P, H_j)` for every j, with P = ``truth`` (a distribution of the same kind)."""

    @abstractmethod
    def sample(self, truth, shape, rng) -> np.ndarray:
        """Points from ``truth`` with leading shape ``shape``."""


@dataclass(frozen=True, eq=False)
class GaussianFamily(HypothesisClass):
    r"""1-D Gaussians :math:`H_j = \mathcal N(\mu_j, \sigma_j^2)`; ``truth`` is a pair :math:`(\mu, \sigma)`.

    Scheffé sets are intervals or complements of intervals: :math:`\ln h_i - \ln h_j` is quadratic in x (linear when
    :math:`\sigma_i = \sigma_j`, giving the half-line beyond the midpoint), and their probabilities are differences
    of normal CDFs.
    """

    means: np.ndarray
    scales: np.ndarray

    def __post_init__(self):
        means = np.asarray(self.means, dtype=float)
        scales = np.broadcast_to(np.asarray(self.scales, dtype=float), means.shape).copy()
        if means.ndim != 1 or means.size < 2 or not np.all(np.isfinite(means)):
            raise InvalidParameterError("means must be a vector of at least 2 finite values")
        if not np.all(np.isfinite(scales) & (scales > 0)):
            raise InvalidParameterError("scales must be finite and positive")
        object.__setattr__(self, "means", means)
        object.__setattr__(self, "scales", scales)
        object.__setattr__(self, "size", means.size)
        low, high, inside = (np.round(a, 12) if a.dtype == float else a for a in _gaussian_scheffe_sets(means, scales))
        endpoints, index = np.unique(np.concatenate([low.ravel(), high.ravel()]), return_inverse=True)
        # Not fields (set here, out of the constructor and repr): declared for the type checker.
        self._sets: tuple[np.ndarray, np.ndarray, np.ndarray]
        self._endpoints: np.ndarray
        self._ends: np.ndarray
        object.__setattr__(self, "_sets", (low, high, inside))
        object.__setattr__(self, "_endpoints", endpoints)  # the distinct interval ends: one search each
        object.__setattr__(self, "_ends", index.reshape(2, *low.shape))

    def _scheffe_probabilities(self):
        low, high, inside = self._sets
        mass = _interval_mass(self.means[:, None], self.scales[:, None], low, high, inside)
        other = _interval_mass(self.means[None, :], self.scales[None, :], low, high, inside)
        np.fill_diagonal(mass, 0.0)
        np.fill_diagonal(other, 0.0)
        return mass, other

    def set_counts(self, x):
        r"""Counts in every :math:`W_{ij}` from one sort and one search per distinct interval end.

        The open interval :math:`(r_1, r_2)` holds :math:`F_<(r_2) - F_\le(r_1)` points, the complement of
        :math:`[r_1, r_2]` holds :math:`F_<(r_1) + n - F_\le(r_2)`.
        """
        data = _finite_points(x)
        points = data.shape[-1]
        below, at_most = (counts.astype(np.int32) for counts in _rank_counts(data, self._endpoints))
        low, high = self._ends
        inside = self._sets[2]
        counts = np.where(inside, below[:, high] - at_most[:, low], below[:, low] + points - at_most[:, high])
        return counts.reshape(*data.shape[:-1], self.size, self.size)

    def tv_from(self, truth):
        r""":math:`d_{TV}(\mathcal N(\mu, \sigma^2), H_j)` for every j, ``truth`` = (μ, σ), from Scheffé sets."""
        mu, sigma = truth
        low, high, inside = _gaussian_scheffe_sets(np.array([mu, *self.means]), np.array([sigma, *self.scales]))
        mass = _interval_mass(mu, sigma, low[0, 1:], high[0, 1:], inside[0, 1:])
        other = _interval_mass(self.means, self.scales, low[0, 1:], high[0, 1:], inside[0, 1:])
        return mass - other

    def sample(self, truth, shape, rng):
        r"""Points of :math:`\mathcal N(\mu, \sigma^2)`, ``truth`` = (μ, σ), of shape ``shape``."""
        mu, sigma = truth
        return mu + sigma * as_generator(rng).standard_normal(shape)


def _gaussian_scheffe_sets(means, scales):
    r"""(low, high, inside) per ordered pair: :math:`W_{ij} = (low, high)` if ``inside`` else its complement."""
    mi, mj = means[:, None], means[None, :]
    si, sj = scales[:, None], scales[None, :]
    # ln h_i - ln h_j = a x² + b x + c
    a = 0.5 / sj ** 2 - 0.5 / si ** 2
    b = mi / si ** 2 - mj / sj ** 2
    c = mj ** 2 / (2 * sj ** 2) - mi ** 2 / (2 * si ** 2) + np.log(sj / si)
    linear = np.isclose(a, 0.0, atol=1e-12)
    with np.errstate(divide="ignore", invalid="ignore"):
        root = -c / b                                       # b x + c > 0
        low = np.where(linear, np.where(b > 0, root, -np.inf), 0.0)
        high = np.where(linear, np.where(b > 0, np.inf, root), 0.0)
        disc = np.sqrt(np.maximum(b * b - 4 * a * c, 0.0))
        r1, r2 = (-b - disc) / (2 * a), (-b + disc) / (2 * a)
    quad_low, quad_high = np.minimum(r1, r2), np.maximum(r1, r2)
    low = np.where(linear, low, quad_low)
    high = np.where(linear, high, quad_high)
    inside = np.where(linear, True, a < 0)                  # a < 0: h_i wins between the roots
    same = (mi == mj) & (si == sj)
    low, high = np.where(same, np.inf, low), np.where(same, np.inf, high)  # identical: the empty set
    inside = np.where(same, True, inside)
    return low, high, inside


def _interval_mass(mu, sigma, low, high, inside):
    mass = _normal_cdf((high - mu) / sigma) - _normal_cdf((low - mu) / sigma)
    return np.where(inside, mass, 1.0 - mass)


@validated(k=Integer(low=2, high=2000), low=Real(), high=Real(), scale=Real(low=0, low_open=True))
def gaussian_grid(k: int, low: float = -2.0, high: float = 2.0, scale: float = 1.0) -> GaussianFamily:
    r""":math:`k` unit-variance (``scale``) Gaussians with means equally spaced on ``[low, high]``.

    See docs/algorithms.md §4.1; default :math:`k = 41`, spacing 0.1.

    Parameters
    ----------
    k : int
        Number of hypotheses, in :math:`[2, 2000]`.
    low, high : float, default -2.0 and 2.0
        The smallest and largest mean, finite, ``low < high``.
    scale : float, default 1.0
        The standard deviation of every hypothesis, :math:`> 0`.

    Returns
    -------
    GaussianFamily
        The :math:`k` hypotheses.

    Examples
    --------
    >>> gaussian_grid(5).means.tolist()
    [-2.0, -1.0, 0.0, 1.0, 2.0]
    """
    if not low < high:
        raise InvalidParameterError(f"low must be below high; got low={low}, high={high}")
    return GaussianFamily(np.linspace(low, high, k), np.full(k, scale))


@validated(means=Array(ndim=(1,), min_size=1), scales=Array(ndim=(1,), low=0, low_open=True, min_size=1))
def gaussian_mean_scale_grid(means, scales) -> GaussianFamily:
    r"""Every Gaussian :math:`\mathcal N(\mu, \sigma^2)` with μ in ``means`` and σ in ``scales`` (means vary fastest).

    A class whose Scheffé sets are intervals or their complements.

    Parameters
    ----------
    means : array of shape (a,)
        The means, finite.
    scales : array of shape (b,)
        The standard deviations, each :math:`> 0`; :math:`ab \ge 2` (a family holds at least two hypotheses).

    Returns
    -------
    GaussianFamily
        The :math:`ab` hypotheses.

    Examples
    --------
    Every mean with every scale:

    >>> family = gaussian_mean_scale_grid(np.array([0.0, 1.0]), np.array([1.0, 2.0]))
    >>> family.size, family.means.tolist(), family.scales.tolist()
    (4, [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 2.0, 2.0])
    """
    mu, sigma = np.meshgrid(means, scales)
    return GaussianFamily(mu.ravel(), sigma.ravel())


@dataclass(frozen=True, eq=False)
class DiscreteFamily(HypothesisClass):
    """Distributions on ``{0, …, D-1}`` (rows of ``table``, e.g. a cover).

    ``truth`` is a probability vector and data are integer codes. Scheffé sets and their probabilities are exact
    finite sums.
    """

    table: np.ndarray

    def __post_init__(self):
        table = np.asarray(self.table, dtype=float)
        if table.ndim != 2 or table.shape[0] < 2 or np.any(table < 0) or not np.allclose(table.sum(axis=1), 1.0):
            raise InvalidParameterError("table must be a (k, D) array of probability vectors with k >= 2")
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "size", table.shape[0])
        self._sets: np.ndarray  # not a field (set here, out of the constructor and repr): declared for the type checker
        object.__setattr__(self, "_sets", table[:, None, :] > table[None, :, :])

    def _scheffe_probabilities(self):
        return (np.einsum("ijd,id->ij", self._sets, self.table), np.einsum("ijd,jd->ij", self._sets, self.table))

    def set_counts(self, x):
        r"""Counts in every :math:`W_{ij}` from one histogram per row of integer codes in ``[0, D-1]``."""
        domain = self.table.shape[1]
        codes = np.asarray(x, dtype=float)
        integral = codes.ndim >= 1 and codes.size > 0 and np.all(np.isfinite(codes)) and np.all(codes % 1 == 0)
        if not integral or codes.min() < 0 or codes.max() >= domain:
            raise InvalidParameterError(f"x must hold integer codes in [0, {domain - 1}], one per point; got shape "
                                        f"{codes.shape}"
                             + (f" with values in [{codes.min():g}, {codes.max():g}]" if codes.size else ""))
        codes = codes.astype(int)
        rows = codes.reshape(-1, codes.shape[-1])
        offsets = rows + (np.arange(rows.shape[0]) * domain)[:, None]
        histogram = np.bincount(offsets.ravel(), minlength=rows.shape[0] * domain).reshape(rows.shape[0], domain)
        counts = np.einsum("ijd,rd->rij", self._sets, histogram)
        return counts.reshape(*codes.shape[:-1], self.size, self.size)

    def tv_from(self, truth):
        """Half the ℓ1 distance between ``truth`` (a probability vector) and every row of ``table``."""
        return 0.5 * np.abs(self.table - np.asarray(truth, dtype=float)).sum(axis=1)

    def sample(self, truth, shape, rng):
        """Integer codes drawn from the probability vector ``truth``, of shape ``shape``."""
        return as_generator(rng).choice(self.table.shape[1], size=shape, p=np.asarray(truth, dtype=float))


@validated(domain=Integer(low=2, high=10), resolution=Integer(low=1, high=50))
def simplex_cover(domain: int, resolution: int) -> DiscreteFamily:
    """Every distribution on ``{0, …, domain-1}`` whose probabilities are multiples of ``1/resolution``.

    A cover of the simplex in which every distribution is within TV ``(domain - 1)/(2·resolution)`` of a member.

    Parameters
    ----------
    domain : int
        :math:`D`, the number of outcomes, in :math:`[2, 10]`.
    resolution : int
        The denominator of the probabilities, in :math:`[1, 50]`.

    Returns
    -------
    DiscreteFamily
        The cover, its members in lexicographic order of their first :math:`D - 1` probabilities.

    Examples
    --------
    The distributions on 3 outcomes with probabilities in multiples of 1/2:

    >>> cover = simplex_cover(3, 2)
    >>> cover.size, cover.table.tolist()[:2]
    (6, [[0.0, 0.0, 1.0], [0.0, 0.5, 0.5]])
    """
    grid = np.stack(np.meshgrid(*[np.arange(resolution + 1)] * (domain - 1), indexing="ij"), -1).reshape(-1, domain - 1)
    grid = grid[grid.sum(axis=1) <= resolution]
    table = np.column_stack([grid, resolution - grid.sum(axis=1)]) / resolution
    return DiscreteFamily(table)


@dataclass(frozen=True, eq=False)
class GaussianMeans2D(HypothesisClass):
    r""":math:`H_j = \mathcal N(\mu_j, I_2)` for a grid of means (rows of ``means``).

    ``truth`` is a mean in :math:`\mathbb R^2`. :math:`W_{ij}` is the half-plane
    :math:`\langle x - \tfrac{\mu_i+\mu_j}2, \mu_i - \mu_j\rangle > 0`, :math:`p_1 = \Phi(D/2)`,
    :math:`p_2 = \Phi(-D/2)`, :math:`D = \|\mu_i - \mu_j\|`. Counting costs :math:`O(k^2 n)` (a projection per pair).
    """

    means: np.ndarray

    def __post_init__(self):
        means = np.asarray(self.means, dtype=float)
        if means.ndim != 2 or means.shape[1] != 2 or means.shape[0] < 2:
            raise InvalidParameterError("means must have shape (k, 2) with k >= 2")
        object.__setattr__(self, "means", means)
        object.__setattr__(self, "size", means.shape[0])

    def _distances(self):
        return np.linalg.norm(self.means[:, None, :] - self.means[None, :, :], axis=-1)

    def _scheffe_probabilities(self):
        distance = self._distances()
        off = ~np.eye(self.size, dtype=bool)
        return _normal_cdf(distance / 2) * off, _normal_cdf(-distance / 2) * off

    def set_counts(self, x):
        r"""Counts in every half-plane :math:`W_{ij}`, projecting every point on every pair's direction."""
        points = _finite_points(x)
        if points.ndim < 2 or points.shape[-1] != 2:
            raise InvalidParameterError("x must hold points of the plane (last axis of length 2); got shape "
                                        f"{points.shape}")
        direction = self.means[:, None, :] - self.means[None, :, :]
        offset = 0.5 * (np.sum(self.means ** 2, axis=1)[:, None] - np.sum(self.means ** 2, axis=1)[None, :])
        projections = np.einsum("...pc,ijc->...ijp", points, direction) - offset[..., None]
        return (projections > 0).sum(axis=-1)

    def tv_from(self, truth):
        r""":math:`d_{TV}(\mathcal N(\mu, I_2), H_j) = 2\Phi(\|\mu_j - \mu\|/2) - 1` for every j, ``truth`` = μ."""
        return 2 * _normal_cdf(np.linalg.norm(self.means - np.asarray(truth, dtype=float), axis=1) / 2) - 1

    def sample(self, truth, shape, rng):
        r"""Points of :math:`\mathcal N(\mu, I_2)`, ``truth`` = μ, of shape ``(*shape, 2)``."""
        return np.asarray(truth, dtype=float) + as_generator(rng).standard_normal((*shape, 2))


@validated(alpha=_ALPHA)
def contest_parameters(alpha: float) -> tuple[float, float]:
    r"""(:math:`\zeta`, :math:`\kappa`) = (1.5α, 4α): the score's tolerance and tie threshold (docs/algorithms.md §4.2).

    Parameters
    ----------
    alpha : float
        Target accuracy α in :math:`(0, 0.25]`.

    Returns
    -------
    (float, float)
        :math:`(\zeta, \kappa)`.

    Examples
    --------
    >>> [round(v, 3) for v in contest_parameters(0.05)]
    [0.075, 0.2]
    """
    return 1.5 * alpha, 4.0 * alpha


_FAMILY = InstanceOf(HypothesisClass, "a HypothesisClass (GaussianFamily, DiscreteFamily, GaussianMeans2D)")


def _masses(family, x):
    points = np.asarray(x).shape[-2 if isinstance(family, GaussianMeans2D) else -1]
    return family.set_counts(x) / points


@validated(family=_FAMILY)
def win_matrix(family: HypothesisClass, x) -> np.ndarray:
    r"""The Scheffé tournament's results: :math:`+1` where :math:`H_i` beats :math:`H_j`, :math:`-1` where it loses.

    :math:`H_i` beats :math:`H_j` when :math:`|P_1 - \hat\tau| < |P_2 - \hat\tau|`; 0 on ties and the diagonal.
    Antisymmetric by construction (each pair is decided once, on :math:`W_{ij}` with :math:`i < j`). Not private.

    Parameters
    ----------
    family : HypothesisClass
        The hypotheses (:class:`GaussianFamily`, :class:`DiscreteFamily`, :class:`GaussianMeans2D`).
    x : array
        Data as ``family.set_counts`` takes them: shape (n,) (or (n, 2) for :class:`GaussianMeans2D`; integer codes
        for :class:`DiscreteFamily`), or with leading trial axes; finite.

    Returns
    -------
    numpy.ndarray
        Shape ``(*trials, k, k)``.

    Examples
    --------
    500 points from N(1, 1); the row of the hypothesis N(1, 1) among means −2, −1, 0, 1, 2 beats every other:

    >>> x = np.random.default_rng(0).normal(1.0, 1.0, 500)
    >>> win_matrix(gaussian_grid(5), x)[3].tolist()
    [1.0, 1.0, 1.0, 0.0, 1.0]
    """
    p1, p2 = family.probabilities()
    tau = _masses(family, x)
    upper = np.sign(np.abs(p2 - tau) - np.abs(p1 - tau)) * np.triu(np.ones((family.size,) * 2), 1)
    return upper - np.swapaxes(upper, -1, -2)


@validated(family=_FAMILY)
def tournament_winner(family: HypothesisClass, x) -> int | np.ndarray:
    """The non-private tournament's choice: the hypothesis with the most wins (lowest index on ties).

    Parameters
    ----------
    family : HypothesisClass
        The hypotheses (:class:`GaussianFamily`, :class:`DiscreteFamily`, :class:`GaussianMeans2D`).
    x : array
        Data as for :func:`win_matrix`, with optional leading trial axes.

    Returns
    -------
    int or numpy.ndarray
        The winner's index, or one per dataset.

    Examples
    --------
    One choice per dataset (rows): data from N(1, 1) pick the mean 1 (index 3), data from N(−1, 1) the mean −1:

    >>> x = np.random.default_rng(0).normal(1.0, 1.0, 500)
    >>> tournament_winner(gaussian_grid(5), np.stack([x, x - 2])).tolist()
    [3, 1]
    """
    wins = (win_matrix(family, x) > 0).sum(axis=-1)
    return np.argmax(wins, axis=-1) if wins.ndim > 1 else int(np.argmax(wins))


@validated(family=_FAMILY)
def minimum_distance(family: HypothesisClass, x) -> int | np.ndarray:
    r"""The minimum-distance estimate (Devroye & Lugosi): :math:`\arg\min_i\max_{j\ne i}|H_i(W_{ij}) - \hat\tau_{ij}|`.

    Not private.

    Parameters
    ----------
    family : HypothesisClass
        The hypotheses (:class:`GaussianFamily`, :class:`DiscreteFamily`, :class:`GaussianMeans2D`).
    x : array
        Data as for :func:`win_matrix`, with optional leading trial axes.

    Returns
    -------
    int or numpy.ndarray
        The estimate's index (lowest on ties), or one per dataset.

    Examples
    --------
    >>> minimum_distance(gaussian_grid(5), np.random.default_rng(0).normal(1.0, 1.0, 500))
    3
    """
    p1, _ = family.probabilities()
    gap = np.abs(p1 - _masses(family, x))
    gap = np.where(np.eye(family.size, dtype=bool), -np.inf, gap).max(axis=-1)
    return np.argmin(gap, axis=-1) if gap.ndim > 1 else int(np.argmin(gap))


def _lowest_contest(contest, size):
    """S(H_i) = min over j ≠ i of the contest values (the diagonal is excluded)."""
    return np.where(np.eye(size, dtype=bool), np.inf, contest).min(axis=-1)


@validated(family=_FAMILY, alpha=_ALPHA)
def scheffe_scores(family: HypothesisClass, x, alpha: float = 0.05) -> np.ndarray:
    r"""The sensitivity-1 pairwise scores :math:`S(H_i, X) = \min_{j\ne i}\Gamma(H_i, H_j, X)` (item level).

    See docs/algorithms.md §4.2.
    :math:`\Gamma = n` for pairs closer than :math:`\kappa = 4\alpha` in TV, else
    :math:`n\max\{0, \hat\tau_{ij} - P_2[i,j] - \zeta\}` with :math:`\zeta = 1.5\alpha`: the number of points to change
    before :math:`H_i` loses to :math:`H_j`. Sensitivity 1 under replace-one neighbours (each :math:`\hat\tau` moves
    by :math:`\le 1/n`; a minimum of sensitivity-1 functions has sensitivity 1); not monotone.

    Parameters
    ----------
    family : HypothesisClass
        The hypotheses (:class:`GaussianFamily`, :class:`DiscreteFamily`, :class:`GaussianMeans2D`).
    x : array
        Data: shape (n,) (or (n, 2) for :class:`GaussianMeans2D`), or with leading trial axes.
    alpha : float, default 0.05
        Target accuracy α in (0, 0.25].

    Returns
    -------
    numpy.ndarray of shape (*trials, k)
        The score of every hypothesis.

    Examples
    --------
    Only the hypothesis next to the data (N(1, 1)) survives every contest with points to spare:

    >>> x = np.random.default_rng(0).normal(1.0, 1.0, 500)
    >>> scheffe_scores(gaussian_grid(5), x, alpha=0.05).round(1).tolist()
    [0.0, 0.0, 0.0, 148.2, 0.0]
    """
    data = np.asarray(x)
    n = data.shape[-2] if isinstance(family, GaussianMeans2D) else data.shape[-1]
    zeta, kappa = contest_parameters(alpha)
    p1, p2 = family.probabilities()
    contest = np.where(p1 - p2 <= kappa, float(n), np.maximum(0.0, family.set_counts(data) - n * (p2 + zeta)))
    return _lowest_contest(contest, family.size)


@validated(family=_FAMILY, alpha=_ALPHA, tau=Real(low=0, low_open=True, allow_inf=True))
def user_scheffe_scores(family: HypothesisClass, x, alpha: float = 0.05,
                        tau: float = math.inf) -> tuple[np.ndarray, float]:
    r"""User-level scores :math:`S^u(H_i) = \min_{j\ne i}\Gamma^u(H_i, H_j)` with per-user clipping.

    Ghazi et al. (2023), App. E; docs/algorithms.md §4.3.
    :math:`c_u = \#\{\text{user } u\text{'s points in } W_{ij}\} - m(P_2[i,j] + \zeta)`, :math:`\Gamma^u = \max\{0,
    \sum_u \mathrm{clip}_{[-\tau,\tau]}(c_u)\}`, and :math:`n\min(\tau, m)` for pairs closer than :math:`\kappa`.
    Sensitivity under replacing one user's m points: :math:`\Delta_u = \min(m, 2\tau)` (``tau=inf``: group privacy,
    :math:`\Delta = m`). Any data-independent τ keeps the guarantee.

    Parameters
    ----------
    family : HypothesisClass
        The hypotheses (:class:`GaussianFamily`, :class:`DiscreteFamily`, :class:`GaussianMeans2D`).
    x : array of shape (*trials, n, m)
        n users with m examples each (1-D families; (*trials, n, m, 2) for :class:`GaussianMeans2D`).
    alpha : float, default 0.05
        Target accuracy α in (0, 0.25].
    tau : float, default inf
        The clipping level :math:`\tau > 0` (``inf``: no clipping, group privacy); fixed in advance.

    Returns
    -------
    (scores of shape (*trials, k), sensitivity :math:`\Delta_u`)
        The score of every hypothesis, and :math:`\Delta_u = \min(m, 2\tau)` as a float.

    Examples
    --------
    200 users with 4 examples each from N(1, 1), contributions clipped to ±2 (sensitivity min(4, 2·2) = 4):

    >>> users = np.random.default_rng(1).normal(1.0, 1.0, (200, 4))
    >>> scores, sensitivity = user_scheffe_scores(gaussian_grid(5), users, alpha=0.05, tau=2.0)
    >>> scores.round(1).tolist(), sensitivity
    ([0.0, 0.0, 0.0, 208.0, 0.0], 4.0)
    """
    data = np.asarray(x)
    user_axis = data.ndim - (3 if isinstance(family, GaussianMeans2D) else 2)
    users, per_user = data.shape[user_axis], data.shape[user_axis + 1]
    zeta, kappa = contest_parameters(alpha)
    p1, p2 = family.probabilities()
    threshold = per_user * (p2 + zeta)
    # Sum the clipped contributions over chunks of users: the per-user counts (users × k × k) never all exist at once.
    datasets = int(np.prod(data.shape[:user_axis], dtype=int))
    chunk = max(1, _CHUNK_ENTRIES // max(1, datasets * family.size ** 2))
    total = 0.0
    for start in range(0, users, chunk):
        part = np.take(data, np.arange(start, min(users, start + chunk)), axis=user_axis)
        total = total + np.clip(family.set_counts(part) - threshold, -tau, tau).sum(axis=user_axis)
    contest = np.where(p1 - p2 <= kappa, users * min(tau, per_user), np.maximum(0.0, total))
    return _lowest_contest(contest, family.size), float(min(per_user, 2 * tau))


@dataclass(frozen=True)
class Selection:
    r"""A private selection.

    Attributes
    ----------
    index : int or numpy.ndarray, released
        The chosen hypothesis: the only private output.
    probabilities : numpy.ndarray, diagnostic
        The exponential mechanism's selection probabilities. Computed from the data: not private.
    scores : numpy.ndarray, diagnostic
        The scores behind them (e.g. Scheffé wins). Computed from the data without noise: not private.
    sensitivity : float, public
        The scores' sensitivity :math:`\Delta`.
    guarantee : str, public
        The privacy statement.
    """

    index: int | np.ndarray = released()
    probabilities: np.ndarray = diagnostic()
    scores: np.ndarray = diagnostic()
    sensitivity: float = public()
    guarantee: str = public()


@validated(family=_FAMILY, epsilon=EPSILON, alpha=_ALPHA, rng=Seed(), level=Choice(("item", "user")),
           tau=Real(low=0, low_open=True, allow_inf=True))
def private_select(family: HypothesisClass, x, epsilon: float, alpha: float = 0.05, rng: RngLike = None,
                   level: str = "item", tau: float | None = None) -> Selection:
    r"""Select a hypothesis privately: the exponential mechanism over the pairwise scores.

    It draws :math:`H_i` with probability :math:`P(H_i) \propto \exp(\varepsilon S(H_i)/(2\Delta))`.
    Guarantee: ``level="item"`` — **ε-DP** for replace-one neighbouring datasets (:math:`\Delta = 1`,
    :func:`scheffe_scores`); ``level="user"`` — **ε user-level DP** for datasets differing in one user's m examples
    (:math:`\Delta_u = \min(m, 2\tau)`, :func:`user_scheffe_scores`; default :math:`\tau = \sqrt m`, Ghazi et al.'s
    (2023) clipping; ``tau=inf`` is group privacy). Utility (item level, our constants): TV :math:`\le 5\alpha` w.p.
    :math:`\ge 1 - 2\beta` when OPT :math:`\le\alpha` and :math:`n \ge \max\{2\ln(k^2/\beta)/\alpha^2,
    2\ln(k/\beta)/(\varepsilon\alpha)\}` (:func:`guarantee_alpha`).

    Parameters
    ----------
    family : HypothesisClass
        The hypotheses (:class:`GaussianFamily`, :class:`DiscreteFamily`, :class:`GaussianMeans2D`), fixed in
        advance.
    x : array
        ``level="item"``: (n,) points (or (n, 2)); ``level="user"``: (n, m) — n users, m examples each. Leading trial
        axes give one independent selection per dataset.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    alpha : float, default 0.05
        Target accuracy α in (0, 0.25] of the scores (:func:`contest_parameters`).
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).
    level : {"item", "user"}, default "item"
        The neighbouring relation the guarantee is for.
    tau : float, optional
        User level: the clipping level :math:`\tau > 0` or ``inf`` (default :math:`\sqrt m`); unused at item level.

    Returns
    -------
    Selection
        The released index (or one per dataset), the selection probabilities and scores (diagnostics), the
        sensitivity and the guarantee.

    Examples
    --------
    >>> x = np.random.default_rng(0).normal(1.0, 1.0, 500)
    >>> choice = private_select(gaussian_grid(5), x, epsilon=1.0, alpha=0.05, rng=0)
    >>> int(choice.index), choice.guarantee
    (3, '1-DP (pure), Δ = 1')
    """
    if level == "item":
        scores, sensitivity = scheffe_scores(family, x, alpha), 1.0
    else:
        data = np.asarray(x)
        per_user = data.shape[-2] if isinstance(family, GaussianMeans2D) else data.shape[-1]
        scores, sensitivity = user_scheffe_scores(family, data, alpha, math.sqrt(per_user) if tau is None else tau)
    probabilities = exponential_probabilities(scores, epsilon, sensitivity)
    index = exponential(scores, epsilon, sensitivity, rng=rng)
    unit = "user-level " if level == "user" else ""
    return Selection(index, probabilities, scores, sensitivity, f"{epsilon:g}-{unit}DP (pure), Δ = {sensitivity:g}")


@validated(n=Array(ndim=(0, 1), low=1), k=Integer(low=2), epsilon=Real(low=0, low_open=True, allow_inf=True),
           beta=Real(0, 1, low_open=True, high_open=True))
def guarantee_alpha(n, k: int, epsilon: float, beta: float = 0.1):
    r"""The α our item-level guarantee reaches with n samples.

    :math:`\alpha(n) = \max\{\sqrt{2\ln(k^2/\beta)/n},\
    2\ln(k/\beta)/(\varepsilon n)\}` (docs/algorithms.md §4.2). *If* :math:`\mathrm{OPT} \le \alpha`, the selected
    hypothesis has TV :math:`\le 5\alpha` (so also :math:`\le 5\alpha + \mathrm{OPT}`) w.p. :math:`\ge 1 - 2\beta`.
    The condition is needed: when OPT exceeds α the bound is not guaranteed (e.g. OPT 0.319 with a selected TV of
    0.588 > 5α + OPT = 0.569). ``epsilon=inf`` drops the privacy term.

    Parameters
    ----------
    n : float or array of shape (m,)
        Sample sizes, each :math:`\ge 1`.
    k : int
        Number of hypotheses, :math:`\ge 2`.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`, or ``inf``.
    beta : float, default 0.1
        :math:`0 < \beta < 1`.

    Returns
    -------
    numpy.ndarray
        :math:`\alpha(n)`, of ``n``'s shape (a NumPy float for a scalar ``n``).

    Examples
    --------
    >>> round(float(guarantee_alpha(1000, 41, 1.0)), 4)  # the statistical term binds: sqrt(2 ln(41²/0.1)/1000)
    0.1395
    """
    n = np.asarray(n, dtype=float)
    statistical = np.sqrt(2 * math.log(k * k / beta) / n)
    private = 0.0 if math.isinf(epsilon) else 2 * math.log(k / beta) / (epsilon * n)
    return np.maximum(statistical, private)


@validated(per_user=Array(ndim=(0, 1), low=1), k=Integer(low=2), alpha=_ALPHA, epsilon=EPSILON,
           beta=Real(0, 1, low_open=True, high_open=True))
def users_needed_theory(per_user, k: int, alpha: float, epsilon: float, beta: float = 0.1):
    r"""Display curve for the users user-level selection needs.

    The form of Ghazi et al. 2023, Thm 41, constants ours, :math:`\tau = \sqrt m`:
    :math:`n(\alpha) = \frac{2\ln(k^2/\beta)}{m\alpha^2}
    + \frac{4\ln(k/\beta)}{\varepsilon}\max\{\frac{1}{\alpha\sqrt m}, 1\}`.

    Parameters
    ----------
    per_user : float or array of shape (p,)
        :math:`m`, examples per user, each :math:`\ge 1`.
    k : int
        Number of hypotheses, :math:`\ge 2`.
    alpha : float
        Target accuracy α in (0, 0.25].
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    beta : float, default 0.1
        :math:`0 < \beta < 1`.

    Returns
    -------
    numpy.ndarray
        :math:`n(\alpha)`, of ``per_user``'s shape (a NumPy float for a scalar ``per_user``).

    Examples
    --------
    >>> round(float(users_needed_theory(100, 41, 0.05, 1.0)), 2)
    125.97
    """
    m = np.asarray(per_user, dtype=float)
    return 2 * math.log(k * k / beta) / (m * alpha ** 2) + 4 * math.log(k / beta) / epsilon * np.maximum(
        1 / (alpha * np.sqrt(m)), 1.0)
