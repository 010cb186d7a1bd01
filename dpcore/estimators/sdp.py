r"""The sum-of-squares / SDP score over directions (Hopkins, Kamath & Majid 2022), a 2-D teaching version.

From Kamath's slides. Cut the data into :math:`B` buckets by a fixed, data-independent partition, take the bucket means
:math:`Z_b` and write :math:`\bar Z_b = Z_b - \tilde\mu` for a public current estimate :math:`\tilde\mu`. The question
"how many buckets lie at least :math:`r` beyond :math:`\tilde\mu` along a unit direction :math:`v`" is the quadratic
program QUAD; its semidefinite relaxation (the slides' Def. 6.4) has one symmetric matrix variable of size
:math:`N = 1 + B + d`,

.. math::

    M = \begin{bmatrix}1 & b^\top & v^\top\\ b & \mathbf B & W\\ v & W^\top & V\end{bmatrix} \succeq 0,\qquad
    \max \operatorname{tr}\mathbf B \ \text{ s.t. }\ M_{00} = 1,\ \operatorname{diag}\mathbf B = b,\
    \operatorname{tr} V = 1,\ r\,\mathbf B_{bb} \le \langle \bar Z_b, W_b\rangle\ (\forall b).

SDP-VAL(:math:`y`) is the same program with :math:`v = y` for :math:`y` in the closed unit ball. Its properties
(docs/algorithms.md §5.4):

1. **Exact on the sphere**: for :math:`\|y\| = 1`,
   SDP-VAL(:math:`y`) :math:`= \#\{b : \langle\bar Z_b, y\rangle \ge r\}`.
2. **Sensitivity 1 under replace-one**: one sample changes one bucket mean :math:`Z_b`; zeroing row and column
   :math:`b` of an optimal :math:`M` is feasible for the neighbour and loses :math:`\mathbf B_{bb} \le 1`. It is *not*
   monotone, so the exponential mechanism needs the standard factor 2: :math:`P \propto \exp(\varepsilon u/2)`.
3. **Concave** in :math:`y` (the optimal value of a convex program as a function of a linear constraint's
   right-hand side); interior values may exceed every boundary count.

The relaxation is built once per (:math:`B`, :math:`d`, solver) with ``cvxpy.Parameter`` s (DPP), compiled on
first use and re-solved per grid point; ``import cvxpy`` (≈1.4 s) happens lazily inside. The exponential
mechanism over the score runs on a public polar grid of the disk (:func:`polar_score_grid`,
:func:`sample_direction`), and :func:`iterative_mean_2d` chains direction and step choices into a
private mean estimate. The scores come from a numerical solver: the privacy statements hold for the exact
SDP values and are exact here up to the solver tolerance (Clarabel: about :math:`10^{-7}`).
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import mechanisms
from ..core.guarantees import diagnostic, public, released
from ..core.randomness import RngLike, spawn
from ..core.validation import POSITIVE, Array, Choice, Integer, InvalidParameterError, Seed, validated
from ..mechanisms import private_quantile

__all__ = ["SOLVERS", "IterativeResult", "bucket_means",
           "exact_far_count", "sdp_direction_score", "free_sdp_value", "polar_score_grid", "sample_direction",
           "iterative_mean_2d"]

SOLVERS = ("CLARABEL", "SCS")

_MEANS = Array(ndim=(2,))
_SOLVER = Choice(SOLVERS)


# ---------------------------------------------------------------------------------------------------------
# The relaxation, compiled once per shape


@dataclass(frozen=True)
class _Relaxation:
    problem: Any
    centred: Any  # Parameter (B, d): Z_b - mu~
    radius: Any  # Parameter (): r
    direction: Any  # Parameter (d,): y (unused by the free relaxation)
    lock: threading.Lock  # the Parameters are shared state: one solve at a time (Streamlit runs threads)


@functools.lru_cache(maxsize=32)
def _relaxation(buckets: int, dimension: int, solver: str, free: bool = False) -> _Relaxation:
    """The SDP of docs/algorithms.md §5.4 in cvxpy-ready form (``symmetric=True`` + ``M >> 0``, DPP)."""
    import cvxpy as cp

    size = 1 + buckets + dimension
    M = cp.Variable((size, size), symmetric=True)
    centred = cp.Parameter((buckets, dimension))
    radius = cp.Parameter(nonneg=True)
    direction = cp.Parameter(dimension)
    b, v = M[0, 1:1 + buckets], M[0, 1 + buckets:]
    Bm, W, V = M[1:1 + buckets, 1:1 + buckets], M[1:1 + buckets, 1 + buckets:], M[1 + buckets:, 1 + buckets:]
    constraints = [M >> 0, M[0, 0] == 1, cp.diag(Bm) == b, cp.trace(V) == 1,
                   radius * cp.diag(Bm) <= cp.sum(cp.multiply(centred, W), axis=1)]
    if not free:
        constraints.append(v == direction)
    return _Relaxation(cp.Problem(cp.Maximize(cp.trace(Bm)), constraints), centred, radius, direction,
                       threading.Lock())


def _check_means(means: np.ndarray, center: np.ndarray) -> None:
    if means.shape[0] < 1:
        raise InvalidParameterError(f"bucket_means must hold at least one bucket; got shape {means.shape}")
    if center.shape != means.shape[1:]:
        raise InvalidParameterError(f"center must have the dimension of bucket_means ({means.shape[1]}); "
                                    f"got shape {center.shape}")


def _solve(means: np.ndarray, center: np.ndarray, radius: float, direction: np.ndarray | None,
           solver: str) -> float:
    relaxation = _relaxation(*means.shape, solver, direction is None)
    with relaxation.lock:
        relaxation.centred.value = means - center
        relaxation.radius.value = radius
        if direction is not None:
            relaxation.direction.value = direction
        try:
            value = relaxation.problem.solve(solver=solver)
        except Exception as error:  # cvxpy.SolverError and friends, without importing cvxpy here
            raise RuntimeError(f"the SDP solver {solver} failed: {error}") from error
        status = relaxation.problem.status
    if status != "optimal":
        raise RuntimeError(f"the SDP solver {solver} returned status {status!r} (expected 'optimal')")
    return float(value)


# ---------------------------------------------------------------------------------------------------------
# Scores


@validated(points=Array(ndim=(2,)), buckets=Integer(low=1))
def bucket_means(points, buckets: int) -> np.ndarray:
    r"""Means of a fixed, data-independent partition of the rows into ``buckets`` contiguous blocks.

    Rows :math:`1..n` are split in order into :math:`B` blocks of :math:`\lfloor n/B\rfloor` or
    :math:`\lceil n/B\rceil` rows (``numpy.array_split``; exactly :math:`n/B` when :math:`B` divides :math:`n`), and
    :math:`Z_b` is block :math:`b`'s mean.
    The partition depends only on :math:`n` and :math:`B`, so replacing one row changes exactly one :math:`Z_b`.

    Parameters
    ----------
    points : array of shape (n, d), n >= buckets
        The rows, finite, :math:`d \ge 1`.
    buckets : int
        :math:`B \ge 1`, at most :math:`n`.

    Returns
    -------
    numpy.ndarray
        Shape ``(buckets, d)``.

    Examples
    --------
    >>> bucket_means(np.arange(16.0).reshape(8, 2), 4).tolist()
    [[1.0, 2.0], [5.0, 6.0], [9.0, 10.0], [13.0, 14.0]]
    """
    if points.shape[0] < buckets:
        raise InvalidParameterError(f"points must have at least buckets={buckets} rows; got shape {points.shape}")
    return np.stack([block.mean(axis=0) for block in np.array_split(points, buckets)])


@validated(bucket_means=_MEANS, center=Array(ndim=(1,)), radius=POSITIVE, direction=Array(ndim=(1, 2)))
def exact_far_count(bucket_means, center, radius: float, direction) -> int | np.ndarray:
    r"""QUAD's value at a unit direction: :math:`\#\{b : \langle Z_b - \tilde\mu, v\rangle \ge r\}`.

    Sensitivity 1 under replace-one (one row moves one :math:`Z_b`). Equal to SDP-VAL on the unit sphere.

    Parameters
    ----------
    bucket_means : array of shape (B, d)
        The bucket means :math:`Z_b` (:func:`bucket_means`), finite, at least one bucket.
    center : array of shape (d,)
        :math:`\tilde\mu`.
    radius : float
        :math:`r > 0`.
    direction : array of shape (d,) or (m, d)
        Unit vector(s) :math:`v` (norm 1 within :math:`10^{-6}`).

    Returns
    -------
    int or numpy.ndarray
        One count, or shape ``(m,)`` for ``m`` directions.

    Examples
    --------
    Two of four bucket means lie at least 2 beyond the origin along the first axis:

    >>> means = np.array([[3.0, 0.0], [2.5, 0.5], [-1.0, 0.0], [0.0, -2.0]])
    >>> exact_far_count(means, np.zeros(2), 2.0, np.array([1.0, 0.0]))
    2
    """
    _check_means(bucket_means, center)
    directions = np.atleast_2d(direction)
    if directions.shape[1] != center.size or np.any(np.abs(np.linalg.norm(directions, axis=1) - 1.0) > 1e-6):
        raise InvalidParameterError(f"direction must hold unit vectors of dimension {center.size}; got shape "
                                    f"{direction.shape} with norms {np.linalg.norm(directions, axis=1)[:4]}")
    counts = ((bucket_means - center) @ directions.T >= radius).sum(axis=0)
    return int(counts[0]) if direction.ndim == 1 else counts


@validated(bucket_means=_MEANS, center=Array(ndim=(1,)), radius=POSITIVE, direction=Array(ndim=(1,)),
           solver=_SOLVER)
def sdp_direction_score(bucket_means, center, radius: float, direction, solver: str = "CLARABEL") -> float:
    r"""SDP-VAL(:math:`y`): the SDP relaxation of QUAD with :math:`v = y` fixed, :math:`\|y\| \le 1`.

    .. math::

        \mathrm{SDP\text{-}VAL}(y) = \max\big\{\operatorname{tr}\mathbf B :\ M \succeq 0,\ M_{00} = 1,\
        \operatorname{diag}\mathbf B = b,\ \operatorname{tr}V = 1,\
        r\,\mathbf B_{bb} \le \langle Z_b - \tilde\mu, W_b\rangle,\ v = y\big\}

    (block names as in the module docstring). On the sphere it equals :func:`exact_far_count`; inside the
    ball it is concave in :math:`y` and lies in :math:`[0, B]`.

    Guarantee (for the exponential mechanism built on it): sensitivity :math:`\Delta = 1` under replace-one.
    Replacing one row changes one :math:`Z_b`; zeroing row and column :math:`b` of an optimal :math:`M` keeps it
    PSD and feasible for the neighbour and loses :math:`\mathbf B_{bb} = b_b \le 1` (PSD of the
    :math:`\{0, b\}` minor gives :math:`b_b^2 \le b_b`); by symmetry :math:`|\Delta u| \le 1`. Not monotone: use
    :math:`\exp(\varepsilon u/2)`.

    Parameters
    ----------
    bucket_means : array of shape (B, d)
        The bucket means :math:`Z_b` (:func:`bucket_means`), finite, at least one bucket.
    center : array of shape (d,)
        The public current estimate :math:`\tilde\mu`.
    radius : float
        :math:`r > 0`.
    direction : array of shape (d,)
        :math:`y` with :math:`\|y\| \le 1 + 10^{-9}` (rescaled onto the ball if slightly outside).
    solver : {"CLARABEL", "SCS"}, default "CLARABEL"
        Clarabel is exact to :math:`10^{-4}` on the sphere (a degenerate case where SCS can be off by 0.3);
        SCS is about 2× faster at :math:`B = 20` for interior :math:`y`.

    Returns
    -------
    float
        SDP-VAL(:math:`y`), in :math:`[0, B]` up to the solver's tolerance.

    Raises
    ------
    InvalidParameterError
        If :math:`\|y\| > 1 + 10^{-9}` or the shapes disagree.
    RuntimeError
        If the solver fails or reports a status other than ``"optimal"``.

    Examples
    --------
    On the sphere the relaxation is exact (two far buckets); inside the ball it is larger (concave):

    >>> means = np.array([[3.0, 0.0], [2.5, 0.5], [-1.0, 0.0], [0.0, -2.0]])
    >>> round(sdp_direction_score(means, np.zeros(2), 2.0, np.array([1.0, 0.0])), 2)
    2.0
    >>> round(sdp_direction_score(means, np.zeros(2), 2.0, np.array([0.5, 0.0])), 2)
    2.12

    Notes
    -----
    The cvxpy problem (``symmetric=True`` variable, ``M >> 0``, Parameters for :math:`Z - \tilde\mu`, :math:`r`,
    :math:`y`) is compiled once per :math:`(B, d, \text{solver})` and cached; a solve costs about 0.01 s at
    :math:`B = 12` and 0.05 s at :math:`B = 20` (Clarabel, :math:`d = 2`).
    """
    _check_means(bucket_means, center)
    norm = float(np.linalg.norm(direction))
    if direction.shape != center.shape or norm > 1.0 + 1e-9:
        raise InvalidParameterError(f"direction must be a vector of dimension {center.size} in the closed unit ball; "
                                    f"got shape {direction.shape} with norm {norm:.6g}")
    return _solve(bucket_means, center, radius, direction / max(norm, 1.0), solver)


@validated(bucket_means=_MEANS, center=Array(ndim=(1,)), radius=POSITIVE, solver=_SOLVER)
def free_sdp_value(bucket_means, center, radius: float, solver: str = "CLARABEL") -> float:
    r"""The relaxation without :math:`v = y`: an upper bound on the best far-bucket count over all directions.

    Since SDP-VAL equals the count on the sphere and the free program only drops the constraint :math:`v = y`,

    .. math::

        \mathrm{SDP}_{\text{free}} \ge \max_{\|y\| \le 1}\mathrm{SDP\text{-}VAL}(y)
        \ge \max_{\|v\| = 1}\#\{b : \langle\bar Z_b, v\rangle \ge r\}.

    It can be strictly larger (docs/algorithms.md §5.4: 13.76 against a best count of 9); Hopkins, Kamath & Majid round
    it by reading off :math:`v`. Sensitivity 1 under replace-one by the same zeroing argument.

    Parameters
    ----------
    bucket_means : array of shape (B, d)
        The bucket means :math:`Z_b` (:func:`bucket_means`), finite, at least one bucket.
    center : array of shape (d,)
        The public current estimate :math:`\tilde\mu`.
    radius : float
        :math:`r > 0`.
    solver : {"CLARABEL", "SCS"}, default "CLARABEL"
        The cvxpy solver.

    Returns
    -------
    float
        :math:`\mathrm{SDP}_{\text{free}}`.

    Raises
    ------
    RuntimeError
        If the solver fails or reports a status other than ``"optimal"``.

    Examples
    --------
    >>> means = np.array([[3.0, 0.0], [2.5, 0.5], [-1.0, 0.0], [0.0, -2.0]])
    >>> round(free_sdp_value(means, np.zeros(2), 2.0), 1)  # >= the best count over directions, 2
    2.3
    """
    _check_means(bucket_means, center)
    return _solve(bucket_means, center, radius, None, solver)


@validated(bucket_means=_MEANS, center=Array(ndim=(1,)), radius=POSITIVE, radii_count=Integer(low=1),
           angles=Integer(low=3), solver=_SOLVER)
def polar_score_grid(bucket_means, center, radius: float, radii_count: int = 5, angles: int = 24,
                     solver: str = "SCS") -> dict[str, np.ndarray]:
    r"""SDP-VAL on the public polar grid of the unit disk (the cells of the grid sampler, docs/algorithms.md §5.3).

    Cells :math:`(a, j)`, :math:`a = 1..A`, :math:`j = 0..A_\theta - 1`: the annular sector of radial width
    :math:`1/A` around :math:`\rho_a = (a - \tfrac12)/A` and angle :math:`\theta_j = 2\pi j/A_\theta`, represented by
    :math:`y_{aj} = \rho_a(\cos\theta_j, \sin\theta_j)`; its area :math:`2\pi\rho_a/(A A_\theta)` makes the weights
    :math:`\pi_{aj} = \rho_a / \sum \rho` (they sum to 1). The :math:`A A_\theta` solves run one after another on the
    cached compiled problem. Every cell is interior (:math:`\rho_a \le 1 - 1/(2A)`), where SCS agrees with Clarabel
    to :math:`2\cdot10^{-4}` and is faster, hence the default (120 cells, 2-core VM: SCS ≈1.0 s at :math:`B = 12`,
    ≈2 s at :math:`B = 20`; Clarabel ≈1.2 s and ≈5 s).

    Parameters
    ----------
    bucket_means : array of shape (B, 2)
        The bucket means :math:`Z_b` (:func:`bucket_means`), finite, at least one bucket; 2-dimensional.
    center : array of shape (2,)
        The public current estimate :math:`\tilde\mu`.
    radius : float
        :math:`r > 0`.
    radii_count : int, default 5
        :math:`A \ge 1`, the number of rings.
    angles : int, default 24
        :math:`A_\theta \ge 3`, the number of sectors per ring.
    solver : {"CLARABEL", "SCS"}, default "SCS"
        The cvxpy solver (:func:`sdp_direction_score`).

    Returns
    -------
    dict
        ``radius``, ``angle``, ``weights``, ``scores`` of shape ``(A·A_θ,)`` (radius-major order) and
        ``points`` of shape ``(A·A_θ, 2)``.

    Examples
    --------
    One ring of four cells: the direction of the two far buckets (angle 0) scores highest.

    >>> means = np.array([[3.0, 0.0], [2.5, 0.5], [-1.0, 0.0], [0.0, -2.0]])
    >>> cells = polar_score_grid(means, np.zeros(2), 2.0, radii_count=1, angles=4)
    >>> cells["weights"].tolist(), cells["scores"].round(1).tolist()
    ([0.25, 0.25, 0.25, 0.25], [2.1, 1.4, 0.9, 1.6])
    """
    _check_means(bucket_means, center)
    if center.size != 2:
        raise InvalidParameterError("bucket_means must be 2-dimensional for the polar grid; got shape "
                                    f"{bucket_means.shape}")
    rho_grid, theta_grid = np.meshgrid((np.arange(1, radii_count + 1) - 0.5) / radii_count,
                                       2.0 * np.pi * np.arange(angles) / angles, indexing="ij")
    rho, theta = rho_grid.ravel(), theta_grid.ravel()
    points = np.column_stack([rho * np.cos(theta), rho * np.sin(theta)])
    scores = np.array([_solve(bucket_means, center, radius, y, solver) for y in points])
    return dict(radius=rho, angle=theta, points=points, weights=rho / rho.sum(), scores=scores)


@validated(scores=Array(ndim=(1,)), weights=Array(ndim=(1,), low=0, low_open=True), points=Array(ndim=(2,)),
           epsilon=POSITIVE, rng=Seed(), size=Integer(low=1))
def sample_direction(scores, weights, points, epsilon: float, rng: RngLike = None,
                     size: int | None = None) -> np.ndarray:
    r"""The exact grid exponential mechanism (docs/algorithms.md §5.3) over public cells.

    Returns the unit direction :math:`y/\|y\|` of the cell it selects with probability

    .. math:: P(c) \propto \pi_c \exp(\varepsilon u_c / 2),

    sampled by :func:`dpcore.mechanisms.exponential` (:math:`\Delta = 1`, not monotone) on the shifted scores
    :math:`u_c + (2/\varepsilon)\ln\pi_c`: since that mechanism draws :math:`\propto \exp(\varepsilon s/2)`, the law is
    exactly :math:`\propto \pi_c\exp(\varepsilon u_c/2)`.

    Guarantee: :math:`\varepsilon`-DP under replace-one when ``scores`` has sensitivity 1 and the cells,
    ``weights`` and ``points`` are public (SDP-VAL on :func:`polar_score_grid`). Exact EM on a finite public
    set; only resolution is lost. Utility:
    :math:`P[u(\hat c) \le \mathrm{OPT} - \tfrac2\varepsilon(\ln(1/\pi(G)) + t)] \le e^{-t}`
    for any set :math:`G` of cells with :math:`u \ge \mathrm{OPT}`.

    Parameters
    ----------
    scores, weights : arrays of shape (m,)
        Scores :math:`u_c` (finite) and positive base weights :math:`\pi_c` (need not sum to 1).
    points : array of shape (m, d)
        Nonzero representative points :math:`y_c`, finite.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).
    size : int, optional
        Number of independent draws, at least 1 (together :math:`\mathrm{size}\cdot\varepsilon`-DP); None for one.

    Returns
    -------
    numpy.ndarray
        Unit vector(s): shape ``(d,)``, or ``(size, d)``.

    Examples
    --------
    >>> sample_direction(np.array([0.0, 10.0]), np.ones(2), np.array([[1.0, 0.0], [0.0, 2.0]]), 5.0, rng=0).tolist()
    [0.0, 1.0]
    """
    if not scores.shape == weights.shape == points.shape[:1]:
        raise InvalidParameterError("scores, weights and points must describe the same cells; got shapes "
                                    f"{scores.shape}, "
                                    f"{weights.shape} and {points.shape}")
    norms = np.linalg.norm(points, axis=1)
    if np.any(norms == 0):
        raise InvalidParameterError("points must be nonzero (a direction is read off each cell's point)")
    index = mechanisms.exponential(scores + (2.0 / epsilon) * np.log(weights), epsilon, sensitivity=1.0, rng=rng,
                                   size=size or 1)
    directions = points[index] / norms[index, None]
    return directions if size else directions[0]


# ---------------------------------------------------------------------------------------------------------
# The iterative estimator


@dataclass(frozen=True)
class IterativeResult:
    r"""Output of :func:`iterative_mean_2d`.

    ``trajectory`` has shape ``(T+1, 2)`` (the initial point, then each :math:`\tilde\mu_t`); ``directions``
    ``(T, 2)``; ``steps`` and ``radii`` ``(T,)``; ``scores`` ``(T, A·A_θ)`` the polar SDP grid of each round
    (cells as in :func:`polar_score_grid`).

    Privacy roles (:func:`dpcore.core.guarantees.privacy_roles`): ``scores`` is a diagnostic (the SDP values are
    computed from the data without noise: not private); ``radii`` (the public schedule :math:`r/2^t`), ``epsilon``
    and ``guarantee`` are public; the estimate, the trajectory, the directions and the steps are released.
    """

    estimate: np.ndarray = released()
    trajectory: np.ndarray = released()
    directions: np.ndarray = released()
    steps: np.ndarray = released()
    radii: np.ndarray = public()
    scores: np.ndarray = diagnostic()
    epsilon: float = public()
    guarantee: str = public()


@validated(points=Array(ndim=(2,)), epsilon=POSITIVE, buckets=Integer(low=1), steps=Integer(low=1),
           initial=Array(ndim=(1,)), radius=POSITIVE, max_step=POSITIVE, rng=Seed(), radii_count=Integer(low=1),
           angles=Integer(low=3), solver=_SOLVER)
def iterative_mean_2d(points, epsilon: float, buckets: int = 20, steps: int = 3, initial=(0.0, 0.0),
                      radius: float = 2.0, max_step: float = 4.0, rng: RngLike = None, radii_count: int = 5,
                      angles: int = 24, solver: str = "SCS") -> IterativeResult:
    r"""A 2-D private mean by "find a direction, take a step, repeat" (docs/algorithms.md §5.4 (c)).

    With bucket means :math:`Z_b` (:func:`bucket_means`), :math:`\tilde\mu_1` = ``initial``, :math:`r_1` = ``radius``
    and :math:`\varepsilon_0 = \varepsilon/(2T)`, for :math:`t = 1..T`:

    1. direction :math:`\hat v_t` = :func:`sample_direction` over :func:`polar_score_grid` (score SDP-VAL at
       :math:`(\tilde\mu_t, r_t)`, :math:`\Delta = 1`) with :math:`\varepsilon_0`;
    2. step :math:`\hat s_t = \max(0, m_t)`, :math:`m_t` the private median of the projections
       :math:`a_b = \langle Z_b - \tilde\mu_t, \hat v_t\rangle` on :math:`[-s_{\max}, s_{\max}]` with
       :math:`\varepsilon_0`: :func:`dpcore.mechanisms.private_quantile` (the exact continuous EM with rank score
       :math:`-|\#\{b : a_b \le s\} - B/2|`, sensitivity 1 since one row moves one :math:`a_b`). Clipping the
       *output* to :math:`[0, s_{\max}]` is post-processing; clipping the data to :math:`[0, s_{\max}]` instead would
       make a direction with negative median (a poor draw) give a uniform step on :math:`[0, s_{\max}]`;
    3. :math:`\tilde\mu_{t+1} = \tilde\mu_t + \hat s_t\hat v_t`, :math:`r_{t+1} = r_t/2`.

    Guarantee: :math:`\varepsilon`-DP under replace-one, by basic composition of :math:`2T` adaptive
    :math:`\varepsilon/(2T)`-DP exponential mechanisms on the same data (each sees only public inputs and
    earlier private outputs). Each mechanism draws from its own child stream (:func:`dpcore.core.randomness.spawn`).

    How it differs from Hopkins, Kamath & Majid (2022) (docs/algorithms.md §5.4 (c), §6.3 doubt 6): a practical
    substitute that shows the mechanics only. They design their score and step rule for their analysis (rate
    :math:`\tilde O(d/(\alpha^2\varepsilon))` for covariance :math:`\preceq I`, with robustness) and sample the
    log-concave EM density exactly up to a multiplicative error; here the direction comes from a coarse public grid, the
    step from a 1-D private median, the radius simply halves, nothing is robust, and no rate is claimed. The scores'
    range is :math:`B`, so accuracy is governed by :math:`\varepsilon B` much more than by :math:`n`.

    Parameters
    ----------
    points : array of shape (n, 2), n >= buckets
        The data, finite.
    epsilon : float
        Total privacy budget, :math:`\varepsilon > 0`.
    buckets : int, default 20
        :math:`B \ge 1`.
    steps : int, default 3
        :math:`T \ge 1`.
    initial : array of shape (2,), default (0.0, 0.0)
        Public starting point :math:`\tilde\mu_1`, finite.
    radius : float, default 2.0
        :math:`r_1 > 0`.
    max_step : float, default 4.0
        The public step range :math:`s_{\max} > 0`.
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator; each of
        the :math:`2T` mechanisms draws from its own spawned child stream.
    radii_count : int, default 5
        :math:`A \ge 1` rings of the polar grid (:func:`polar_score_grid`).
    angles : int, default 24
        :math:`A_\theta \ge 3` sectors per ring.
    solver : {"CLARABEL", "SCS"}, default "SCS"
        The solver of :func:`polar_score_grid`.

    Returns
    -------
    IterativeResult

    Examples
    --------
    One round on a coarse grid (16 cells), ε = 10: the path has two points and the budget is split in two.

    >>> points = np.random.default_rng(0).standard_normal((200, 2)) + [2.0, 1.0]
    >>> run = iterative_mean_2d(points, 10.0, buckets=8, steps=1, rng=0, radii_count=2, angles=8)
    >>> run.trajectory.shape, run.guarantee[:54]
    ((2, 2), '10-DP (replace-one) by basic composition of 2 adaptive')
    """
    initial = np.asarray(initial, dtype=float)  # the default is not passed through the validator
    if points.shape[1] != 2 or initial.shape != (2,):
        raise InvalidParameterError(f"points must have shape (n, 2) and initial shape (2,); got {points.shape} and "
                                    f"{initial.shape}")
    means = bucket_means(points, buckets)
    share = epsilon / (2 * steps)
    streams = spawn(rng, 2 * steps)
    trajectory, directions, step_sizes, radii, score_grids = [initial], [], [], [], []
    center, r = initial, radius
    for t in range(steps):
        cells = polar_score_grid(means, center, r, radii_count, angles, solver)
        direction = sample_direction(cells["scores"], cells["weights"], cells["points"], share, streams[2 * t])
        projections = (means - center) @ direction
        step = max(0.0, private_quantile(projections, 0.5, share, -max_step, max_step, rng=streams[2 * t + 1]))
        center = center + step * direction
        trajectory.append(center)
        directions.append(direction)
        step_sizes.append(step)
        radii.append(r)
        score_grids.append(cells["scores"])
        r /= 2.0
    guarantee = (f"{epsilon:g}-DP (replace-one) by basic composition of {2 * steps} adaptive {share:g}-DP steps on "
                 f"the same data: {steps} direction draws (exact EM on a public polar grid, score SDP-VAL, "
                 f"sensitivity 1, not monotone, so exp(eps*u/2)) and {steps} step sizes (exact EM private median of "
                 f"the projections on [-{max_step:g}, {max_step:g}], rank score of sensitivity 1, then clipped at 0); "
                 "exact up to the SDP solver's tolerance. A teaching substitute for Hopkins, Kamath & Majid (2022), "
                 "not their algorithm.")
    return IterativeResult(estimate=center, trajectory=np.array(trajectory), directions=np.array(directions),
                           steps=np.array(step_sizes), radii=np.array(radii), scores=np.array(score_grids),
                           epsilon=epsilon, guarantee=guarantee)
