r"""The exponential mechanism over a public grid cover: a pure-DP mean in dimension 1 or 2.

Score every point of a public grid :math:`\{-R, \dots, R\}^d` by its halfspace (Tukey) depth in the data
and select one by the exponential mechanism (McSherry & Talwar 2007). The depth has sensitivity 1 whatever
the data, so the release is :math:`\varepsilon`-DP with no clipping; the sample complexity is linear in
:math:`d`, but the grid has :math:`(2R/s)^d` points: exponential time. This is the "EM over a cover,
:math:`\tilde O(d)` samples, pure, exponential time" row of the table on Kamath's slides about Hopkins, Kamath & Majid
(2022) (docs/algorithms.md §2.7), run here only for :math:`d \le 2`.
"""

from __future__ import annotations

import math

import numpy as np

from .. import mechanisms
from ..core.randomness import RngLike
from ..core.validation import POSITIVE, Array, Integer, InvalidParameterError, Seed, validated

__all__ = ["MAX_COVER_SIZE", "halfspace_depth", "grid_cover", "cover_mean"]


MAX_COVER_SIZE = 200_000


_DIRECTIONS = Integer(low=3)  # equally spaced directions positively span the plane from 3 on


def _check_dimension(name: str, array: np.ndarray) -> None:
    if array.shape[-1] not in (1, 2):
        raise InvalidParameterError(f"{name} must hold points of dimension 1 or 2 (last axis); got shape {array.shape}")


def _unit_vectors(dimension: int, directions: int) -> np.ndarray:
    if dimension == 1:
        return np.array([[1.0], [-1.0]])
    theta = 2.0 * np.pi * np.arange(directions) / directions
    return np.column_stack([np.cos(theta), np.sin(theta)])


@validated(points=Array(ndim=(2, 3)), candidates=Array(ndim=(2,)), directions=_DIRECTIONS)
def halfspace_depth(points, candidates, directions: int = 64) -> np.ndarray:
    r"""Discretised halfspace (Tukey) depth of each candidate in the data.

    .. math:: D(c; X) = \min_j \#\{i : \langle x_i - c, v_j\rangle \ge 0\},

    with :math:`v_j = (\cos\theta_j, \sin\theta_j)`, :math:`\theta_j = 2\pi j/\mathrm{directions}` in
    :math:`d = 2`, and :math:`v \in \{+1, -1\}` in :math:`d = 1`, where the depth is exactly
    :math:`\min(\#\{x_i \le c\}, \#\{x_i \ge c\})` (``directions`` is then unused).

    Sensitivity 1 under replace-one: each halfspace count moves by at most 1 when one point is
    replaced, and a minimum of sensitivity-1 functions has sensitivity 1. The data enter only through
    these counts, so the bound holds for every input, however far out. Under add/remove-one the depth
    is moreover monotone (adding a point never lowers a count); under replace-one it is not.

    Parameters
    ----------
    points : array of shape (n, d) or (trials, n, d)
        One dataset, or one per trial (vectorised), :math:`d \in \{1, 2\}`; finite.
    candidates : array of shape (m, d)
        The points whose depth is computed (finite), of the dimension of ``points``.
    directions : int, default 64
        Number of equally spaced directions in :math:`d = 2`, at least 3.

    Returns
    -------
    numpy.ndarray
        Integer depths, shape ``(m,)`` or ``(trials, m)``.

    Notes
    -----
    Per direction the candidates' projections are sorted once and every point is located among them
    with one ``searchsorted``; a point lying above exactly ``k`` sorted candidates is in the halfspace
    of each of those ``k``, so a per-trial histogram of ``k`` and a cumulative sum give all counts
    exactly, in :math:`O(\mathrm{trials}\cdot(n \log m + m))` per direction.

    Examples
    --------
    >>> points = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> halfspace_depth(points, np.array([[-1.0], [1.5], [2.0], [5.0]]))  # min(#{x <= c}, #{x >= c})
    array([0, 2, 2, 0])
    """
    _check_dimension("points", points)
    if candidates.shape[-1] != points.shape[-1]:
        raise InvalidParameterError(f"candidates must have the dimension of points ({points.shape[-1]}); "
                                    f"got shape {candidates.shape}")
    rows = points.reshape(-1, *points.shape[-2:])
    trials, n = rows.shape[:2]
    m = candidates.shape[0]
    offsets = (m + 1) * np.arange(trials)[:, None]
    depth = np.full((trials, m), n)
    for v in _unit_vectors(points.shape[-1], directions):
        projected = candidates @ v
        order = np.argsort(projected)
        above = np.searchsorted(projected[order], rows @ v, side="right")  # sorted candidates each point is above
        histogram = np.bincount((above + offsets).ravel(), minlength=trials * (m + 1)).reshape(trials, m + 1)
        counts = n - np.cumsum(histogram, axis=1)[:, :m]  # #{i : above_i > j}, j-th smallest candidate
        depth[:, order] = np.minimum(depth[:, order], counts)
    return depth if points.ndim == 3 else depth[0]


@validated(radius=POSITIVE, spacing=POSITIVE, dimension=Integer(low=1))
def grid_cover(radius: float, spacing: float, dimension: int) -> np.ndarray:
    r"""The public grid :math:`\{-R, -R+s, \dots, R\}^d` as an array of shape ``(m, d)``.

    Each axis has :math:`k = \lceil 2R/s\rceil + 1` equally spaced points from :math:`-R` to :math:`R`
    (spacing :math:`2R/(k-1) \le s`, equal to :math:`s` when :math:`2R/s` is an integer), so
    :math:`m = k^d`. Rows are in lexicographic order (first coordinate slowest).

    Raises ``InvalidParameterError`` when :math:`m` exceeds ``MAX_COVER_SIZE`` (200,000). That is the exponential-time
    wall of the cover mechanism: its cost grows like :math:`(2R/s)^d`, e.g. 61 points per axis give
    3,721 candidates in :math:`d = 2` but 226,981 in :math:`d = 3`.

    Parameters
    ----------
    radius : float
        :math:`R > 0`, the half-width of the grid.
    spacing : float
        :math:`s > 0`, the largest spacing allowed between neighbouring points of an axis.
    dimension : int
        :math:`d \ge 1`.

    Returns
    -------
    numpy.ndarray
        The grid, shape ``(m, d)``.

    Examples
    --------
    >>> grid_cover(1.0, 1.0, 1).ravel()
    array([-1.,  0.,  1.])
    >>> grid_cover(1.0, 0.5, 2).shape  # 5 points per axis
    (25, 2)
    """
    per_axis = max(1, math.ceil(min(2.0 * radius / spacing, MAX_COVER_SIZE) - 1e-9)) + 1
    # per_axis >= 2, so no dimension of MAX_COVER_SIZE.bit_length() or more can fit
    if dimension >= MAX_COVER_SIZE.bit_length() or per_axis ** dimension > MAX_COVER_SIZE:
        raise InvalidParameterError(f"the grid cover is too large: radius={radius:g}, spacing={spacing:g}, dimension="
                                    f"{dimension} give {per_axis}^{dimension} points, above {MAX_COVER_SIZE:,}. This "
                                    "is the "
                                    "exponential-time wall of the exponential mechanism over a cover ((2R/s)^d "
                                    "candidates): "
                                    "increase spacing, shrink radius or lower the dimension.")
    axis = np.linspace(-radius, radius, per_axis)
    return np.stack(np.meshgrid(*[axis] * dimension, indexing="ij"), axis=-1).reshape(-1, dimension)


@validated(x=Array(ndim=(2, 3)), epsilon=POSITIVE, radius=POSITIVE, spacing=POSITIVE, directions=_DIRECTIONS,
           rng=Seed())
def cover_mean(x, epsilon: float, radius: float, spacing: float, directions: int = 64,
               rng: RngLike = None) -> np.ndarray:
    r"""Pure-DP mean (Tukey-median) estimate: the exponential mechanism over a public grid cover.

    Select a point of ``grid_cover(radius, spacing, d)`` with probability

    .. math:: P(c) \propto \exp\!\big(\varepsilon\, D(c; X) / 2\big),

    :math:`D` the :func:`halfspace_depth` (sensitivity :math:`\Delta = 1`), by Gumbel-max:
    :math:`\arg\max_c [\varepsilon D(c; X)/2 + G_c]`, :math:`G_c` i.i.d. standard Gumbel.

    Guarantee: :math:`\varepsilon`-DP under replace-one (McSherry & Talwar 2007; docs/algorithms.md §0.6, standard
    convention: the depth is not monotone under replace-one, so the factor 2 is needed). The cover is
    public and the depth has sensitivity 1 for every input, so data far outside :math:`[-R, R]^d` need no
    clipping: they only lower the cover's depths (at worst the output is near-uniform on the cover, a
    utility failure, never a privacy one).

    Utility: with :math:`m` candidates,
    :math:`P[D(\hat c) \le \max_c D(c) - \tfrac{2}{\varepsilon}(\ln m + t)] \le e^{-t}`.
    For :math:`\mathcal N(\mu, I_d)` data the depth of :math:`c` is about :math:`n\,\Phi(-\|c - \mu\|)`, so a
    depth loss :math:`L \ll n` costs about :math:`\sqrt{2\pi}\,L/n` in distance, on top of the grid spacing and
    the sampling error of the Tukey median. Since :math:`\ln m = d \ln(2R/s + 1)`, the sample
    complexity is linear in :math:`d`, :math:`\tilde O(d)` (Kamath's slides on Hopkins, Kamath & Majid 2022: exponential
    mechanism over a cover, :math:`\tilde O(d)` samples, pure DP, exponential time), while the time is :math:`(2R/s)^d`.

    Parameters
    ----------
    x : array of shape (n, d) or (trials, n, d)
        One dataset, or one per trial (vectorised), :math:`d \in \{1, 2\}`; finite (no bound on the values).
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    radius, spacing : float
        The public cover :math:`\{-R, \dots, R\}^d` (see :func:`grid_cover`), both positive.
    directions : int, default 64
        Directions of the depth in :math:`d = 2`, at least 3.
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).

    Returns
    -------
    numpy.ndarray
        The selected cover point(s), shape ``(d,)`` or ``(trials, d)``; each trial is an independent
        :math:`\varepsilon`-DP release.

    Examples
    --------
    >>> x = np.random.default_rng(0).normal(0.3, 1.0, size=(2000, 1))
    >>> cover_mean(x, 1.0, radius=2.0, spacing=0.1, rng=0)  # the grid point nearest the median, 0.3
    array([0.3])
    """
    _check_dimension("x", x)
    cover = grid_cover(radius, spacing, x.shape[-1])
    depth = halfspace_depth(x, cover, directions)
    return cover[mechanisms.exponential(depth, epsilon, sensitivity=1.0, rng=rng, method="gumbel")]
