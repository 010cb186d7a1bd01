r"""User-level DP PAC learning of thresholds: clip each user's contribution to the exponential mechanism's score.

``n`` users each hold ``m`` labelled examples :math:`(x_{ij}, y_{ij})`, :math:`x \sim U[0,1]`,
:math:`y = \mathbf 1[x \ge \theta^*]`. A learner picks a threshold :math:`h_t(x) = \mathbf 1[x \ge t]` from a
public grid of :math:`k` points by the exponential mechanism (EM) minimising a loss built from the per-user
error counts :math:`e_i(t) = \sum_j \mathbf 1[h_t(x_{ij}) \ne y_{ij}]`. Neighbouring datasets replace **one user's
whole block** of ``m`` examples (user-level DP), so the loss's sensitivity is what one user can move it by:

* ``"group"``: :math:`\sum_i e_i(t)`, sensitivity :math:`m` (the item-level score, paid for by group privacy);
* ``"clipped"``: :math:`\sum_i \min(1, e_i(t))`, the number of users :math:`h_t` errs on, sensitivity 1
  (Ghazi et al. 2023, §4, proof of Theorem 4: "the sensitivity of [the score] is one ... a standard
  item-level step would sum up the error across all the samples, resulting in the sensitivity as large as
  :math:`m`, while our scoring function ... 'clips' the contribution of each user to just one");
* ``"tau"``: :math:`\sum_i \min(\tau, e_i(t))`, sensitivity :math:`\min(\tau, m)`.

Clipping costs nothing at the target (realizable data: every loss is 0 at :math:`\theta^*`) while a threshold
with error :math:`\alpha` is still caught by a :math:`1 - (1-\alpha)^m` fraction of users, so the clipped EM needs
about :math:`\min(m, 1/\alpha)` times fewer users than the group-privacy one (docs/algorithms.md §5.5).
"""

from __future__ import annotations

import math

import numpy as np

from .. import mechanisms
from ..core.randomness import RngLike, as_generator
from ..core.validation import POSITIVE, Array, Choice, Integer, InvalidParameterError, Real, Seed, validated

__all__ = ["THRESHOLD", "GRID_SIZE", "LOSSES", "default_grid", "threshold_data", "user_error_counts", "losses",
           "loss_sensitivity", "select_threshold", "users_needed", "savings_factor"]


THRESHOLD = 0.37


GRID_SIZE = 101


LOSSES = ("clipped", "tau", "group")


_KIND = Choice(LOSSES)


_DATA = Array(ndim=(2, 3))


_LABELS = Array(ndim=(2, 3), low=0, high=1)


_GRID = Array(ndim=(1,), min_size=1)


@validated(size=Integer(low=2))
def default_grid(size: int = GRID_SIZE) -> np.ndarray:
    r"""The public threshold grid :math:`\{0, 1/(k-1), \dots, 1\}` (exact: 37/100 is the float 0.37).

    Parameters
    ----------
    size : int, default 101
        :math:`k \ge 2`, the number of thresholds.

    Returns
    -------
    numpy.ndarray
        The :math:`k` thresholds, increasing from 0 to 1.

    Examples
    --------
    >>> default_grid(5).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    return np.arange(size) / (size - 1)


def _checked_grid(grid) -> np.ndarray:
    grid = default_grid() if grid is None else grid
    if np.any(np.diff(grid) <= 0):
        raise InvalidParameterError(f"grid must be strictly increasing; got {grid!r}")
    return grid


@validated(users=Integer(low=1), per_user=Integer(low=1), threshold=Real(0, 1), rng=Seed(),
           trials=Integer(low=1))
def threshold_data(users: int, per_user: int, threshold: float = THRESHOLD, rng: RngLike = None,
                   trials: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    r"""Realizable threshold data: :math:`x \sim U[0,1]` i.i.d., :math:`y = \mathbf 1[x \ge \theta^*]`.

    Parameters
    ----------
    users : int
        Number of users, :math:`\ge 1`.
    per_user : int
        Examples per user :math:`m \ge 1`.
    threshold : float, default 0.37
        :math:`\theta^* \in [0, 1]`.
    rng : None, int or numpy.random.Generator, optional
        Source of the data: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).
    trials : int, optional
        Number of independent datasets, :math:`\ge 1`; None for one dataset without a trial axis.

    Returns
    -------
    x, y : numpy.ndarray
        Shape ``(users, per_user)``, or ``(trials, users, per_user)`` for ``trials`` independent datasets;
        ``y`` holds 0.0/1.0.

    Examples
    --------
    >>> x, y = threshold_data(users=3, per_user=2, rng=0)
    >>> x.shape, bool(np.all(y == (x >= THRESHOLD)))
    ((3, 2), True)
    """
    shape = (users, per_user) if trials is None else (trials, users, per_user)
    x = as_generator(rng).random(shape)
    return x, (x >= threshold).astype(float)


def _checked_pair(x: np.ndarray, y: np.ndarray) -> None:
    if x.shape != y.shape:
        raise InvalidParameterError(f"x and y must have the same shape; got x: {x.shape}, y: {y.shape}")
    if np.any((y != 0) & (y != 1)):
        raise InvalidParameterError("y must hold binary labels 0 or 1; got other values")


@validated(x=_DATA, y=_LABELS, grid=_GRID)
def user_error_counts(x, y, grid=None) -> np.ndarray:
    r"""Per-user error counts :math:`e_i(t) = \sum_j \mathbf 1[h_t(x_{ij}) \ne y_{ij}]` at every grid threshold.

    :math:`h_t(x) = \mathbf 1[x \ge t]`. A positive example errs for :math:`t > x`, a negative one for :math:`t \le x`,
    so one histogram of each user's examples over the grid cells and two cumulative sums give every count:
    :math:`O(\text{users}\cdot(m + k))` work, no ``(users, m, k)`` array.

    Parameters
    ----------
    x, y : arrays of shape (users, m) or (trials, users, m)
        Features and binary labels.
    grid : array of shape (k,), optional
        Public, strictly increasing thresholds (default :func:`default_grid`, 101 points on [0, 1]).

    Returns
    -------
    numpy.ndarray of int
        Shape ``(users, k)`` or ``(trials, users, k)``.

    Examples
    --------
    One user with a negative example at 0.2 and a positive one at 0.5: only thresholds in (0.2, 0.5] fit both.

    >>> user_error_counts(np.array([[0.2, 0.5]]), np.array([[0.0, 1.0]]), grid=np.array([0.0, 0.3, 0.6, 1.0]))
    array([[1, 0, 1, 1]])
    """
    _checked_pair(x, y)
    grid = _checked_grid(grid)
    k = grid.size
    rows = x.shape[:-1]
    cell = np.searchsorted(grid, x, side="right")  # grid points <= x: index i errs on a positive iff i >= cell
    flat = np.arange(math.prod(rows)).reshape(*rows, 1) * (k + 1) + cell
    positive = y == 1
    size = math.prod(rows) * (k + 1)
    pos, neg = (np.bincount(flat[side], minlength=size).reshape(*rows, k + 1) for side in (positive, ~positive))
    np.cumsum(pos, axis=-1, out=pos)  # in place: these tables are trials × users × (k + 1) integers
    np.cumsum(neg, axis=-1, out=neg)
    errors = pos[..., :k]
    errors += neg[..., -1:]
    errors -= neg[..., :k]
    return errors


@validated(counts=Array(ndim=(2, 3), low=0), kind=_KIND, tau=POSITIVE)
def losses(counts, kind: str = "clipped", tau: float = 1.0) -> np.ndarray:
    r"""The loss of every threshold from per-user error counts (summing over the users axis, ``-2``).

    ``"group"``: :math:`\sum_i e_i(t)`; ``"clipped"``: :math:`\sum_i \min(1, e_i(t))`;
    ``"tau"``: :math:`\sum_i \min(\tau, e_i(t))`. Sensitivities: :func:`loss_sensitivity`.

    Parameters
    ----------
    counts : array of shape (users, k) or (trials, users, k)
        Per-user error counts (:func:`user_error_counts`), each :math:`\ge 0`.
    kind : {"clipped", "tau", "group"}, default "clipped"
        The loss.
    tau : float, default 1.0
        :math:`\tau > 0`, the clipping level of ``kind="tau"`` (unused otherwise).

    Returns
    -------
    numpy.ndarray of float
        One loss per threshold: shape ``(k,)``, or ``(trials, k)`` for one dataset per trial.

    Examples
    --------
    Two users, three thresholds: the group loss counts every error, the clipped one every user with an error.

    >>> counts = np.array([[0, 2, 1], [1, 0, 3]])
    >>> losses(counts, "group").tolist(), losses(counts, "clipped").tolist()
    ([1.0, 2.0, 4.0], [1.0, 1.0, 2.0])
    """
    cap = {"group": np.inf, "clipped": 1.0, "tau": tau}[kind]
    return np.minimum(counts, cap).sum(axis=-2)


@validated(kind=_KIND, per_user=Integer(low=1), tau=POSITIVE)
def loss_sensitivity(kind: str, per_user: int, tau: float = 1.0) -> float:
    r"""User-level sensitivity of :func:`losses`: the most one user's block of ``per_user`` examples can move it.

    Replacing user :math:`i` changes only :math:`e_i(t) \in [0, m]`, so ``"group"``: :math:`m`, ``"clipped"``: 1,
    ``"tau"``: :math:`\min(\tau, m)` — each attained (a block of :math:`m` copies of one example, relabelled).

    Parameters
    ----------
    kind : {"clipped", "tau", "group"}
        The loss.
    per_user : int
        :math:`m \ge 1`, examples per user.
    tau : float, default 1.0
        :math:`\tau > 0`, the clipping level of ``kind="tau"`` (unused otherwise).

    Returns
    -------
    float
        :math:`\Delta`.

    Examples
    --------
    >>> loss_sensitivity("group", 20), loss_sensitivity("clipped", 20), loss_sensitivity("tau", 20, 3)
    (20.0, 1.0, 3.0)
    """
    return float({"group": per_user, "clipped": 1.0, "tau": min(tau, per_user)}[kind])


@validated(x=_DATA, y=_LABELS, epsilon=POSITIVE, kind=_KIND, tau=POSITIVE, grid=_GRID, rng=Seed())
def select_threshold(x, y, epsilon: float, kind: str = "clipped", tau: float = 1.0, grid=None, rng: RngLike = None,
                     one_per_user: bool = False) -> float | np.ndarray:
    r"""Learn a threshold with user-level pure DP: the exponential mechanism over the grid, minimising a loss.

    .. math:: P(t) \propto \exp\!\big(-\varepsilon L(t) / (2\Delta)\big),

    with :math:`L` from :func:`losses` and :math:`\Delta` = :func:`loss_sensitivity` (``kind``, :math:`m`,
    :math:`\tau`), sampled by :func:`dpcore.mechanisms.exponential` with scores :math:`-L` (one draw per dataset).

    Guarantee: :math:`\varepsilon`-user-level DP, neighbours replacing one user's whole block of :math:`m`
    examples. ``kind="clipped"`` is the score of Ghazi et al. (2023), Theorem 4 / §4 (sensitivity one,
    user complexity :func:`users_needed`); ``"group"`` is the item-level score made user-level by group privacy
    (:math:`\Delta = m`). The factor 2 is needed under replacement, where one user's new block can lower the loss
    at some thresholds and raise it at others; under add/remove-a-user neighbours every clipped loss moves in
    the same direction, so :math:`\exp(-\varepsilon L/\Delta)` would suffice there (docs/algorithms.md §0.6, §5.5).

    Parameters
    ----------
    x, y : arrays of shape (users, m) or (trials, users, m)
        One dataset, or one per trial (vectorised: one independent draw per trial).
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    kind : {"clipped", "tau", "group"}, default "clipped"
        The loss (:func:`losses`).
    tau : float, default 1.0
        Clipping level :math:`\tau > 0` of ``kind="tau"`` (unused otherwise).
    grid : array of shape (k,), optional
        Public candidate thresholds, finite and strictly increasing (default :func:`default_grid`).
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).
    one_per_user : bool, default False
        Item-level baseline: keep only each user's first example (then every loss has :math:`\Delta \le 1`).

    Returns
    -------
    float or numpy.ndarray
        The selected threshold, or one per trial.

    Examples
    --------
    200 users with 10 examples each, ε = 5: the clipped score finds the true threshold θ* = 0.37.

    >>> x, y = threshold_data(users=200, per_user=10, rng=0)
    >>> select_threshold(x, y, 5.0, rng=0)
    0.37
    """
    if one_per_user:
        x, y = x[..., :1], y[..., :1]
    grid = _checked_grid(grid)
    loss = losses(user_error_counts(x, y, grid), kind, tau)
    index = mechanisms.exponential(-loss, epsilon, loss_sensitivity(kind, x.shape[-1], tau), rng=rng)
    return float(grid[index]) if x.ndim == 2 else grid[index]


@validated(alpha=Real(0, 1, low_open=True, high_open=True), per_user=Integer(low=1), epsilon=POSITIVE,
           candidates=Integer(low=2), beta=Real(0, 1, low_open=True, high_open=True),
           kind=Choice(("clipped", "group", "one_per_user")))
def users_needed(alpha: float, per_user: int, epsilon: float, candidates: int = GRID_SIZE, beta: float = 0.1,
                 kind: str = "clipped") -> float:
    r"""Approximate number of users for error :math:`\le\alpha` with probability :math:`\ge 1-\beta`.

    See docs/algorithms.md §5.5.

    .. math:: n_{\mathrm{clip}} \approx \frac{4\ln(k/\beta)}{\varepsilon\,(1-(1-\alpha)^m)}, \qquad
              n_{\mathrm{group}} \approx n_{\mathrm{one}} \approx \frac{4\ln(k/\beta)}{\varepsilon\,\alpha}.

    From the EM bound (no threshold with loss :math:`\ge 2\Delta\ln(k/\beta)/\varepsilon` is picked w.p.
    :math:`\ge 1-\beta`; the target has loss 0) and a Chernoff factor 2: a threshold with error :math:`\ge\alpha` has
    expected clipped loss :math:`\ge n(1-(1-\alpha)^m)` (:math:`\Delta = 1`) and expected group loss
    :math:`nm\alpha` (:math:`\Delta = m`).
    Derived, not Ghazi et al.'s (2023) constants (their Theorem 4 states the user complexity up to constants).

    Parameters
    ----------
    alpha : float
        The target error, :math:`0 < \alpha < 1`.
    per_user : int
        :math:`m \ge 1`, examples per user.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    candidates : int, default 101
        :math:`k \ge 2`, the grid size.
    beta : float, default 0.1
        :math:`0 < \beta < 1`.
    kind : {"clipped", "group", "one_per_user"}, default "clipped"
        The learner: the clipped score, or one of the two baselines (group privacy, one example per user), which
        share :math:`n_{\mathrm{group}} \approx n_{\mathrm{one}}`.

    Returns
    -------
    float
        The approximate number of users (not rounded).

    Raises
    ------
    InvalidParameterError
        If the number exceeds what a float can hold.

    Examples
    --------
    >>> round(users_needed(0.05, 20, 1.0) / users_needed(0.05, 20, 1.0, kind="group"), 4)
    0.0779
    """
    caught = _wrong_user_share(alpha, per_user) if kind == "clipped" else alpha
    numerator = 4.0 * math.log(candidates / beta)
    log_users = math.log(numerator) - math.log(epsilon) - math.log(caught)
    double = np.finfo(float)
    if log_users > math.log(double.max):
        raise InvalidParameterError(f"epsilon={epsilon!r} and alpha={alpha!r} need about "
                                    f"10^{log_users / math.log(10.0):.4g} users, more than a float can hold: "
                                    "use a larger epsilon or alpha")
    product = epsilon * caught
    return numerator / product if product >= double.tiny else math.exp(log_users)  # no subnormal product


@validated(alpha=Real(0, 1, low_open=True, high_open=True), per_user=Integer(low=1))
def savings_factor(alpha: float, per_user: int) -> float:
    r"""How many times fewer users clipping needs than group privacy.

    The factor is :math:`(1-(1-\alpha)^m)/\alpha \approx \min(m, 1/\alpha)`.

    Parameters
    ----------
    alpha : float
        The target error, :math:`0 < \alpha < 1`.
    per_user : int
        :math:`m \ge 1`, examples per user.

    Returns
    -------
    float
        :math:`(1-(1-\alpha)^m)/\alpha`.

    Examples
    --------
    >>> round(savings_factor(0.05, 20), 2)
    12.83
    """
    return _wrong_user_share(alpha, per_user) / alpha


def _wrong_user_share(alpha: float, per_user: int) -> float:
    """1 - (1 - alpha)^m, the share of users with at least one of m examples wrong.

    Computed as -expm1(m log1p(-alpha)): the direct form rounds to 0 (then a division by zero) for alpha < 1e-16.
    """
    return -math.expm1(per_user * math.log1p(-alpha))

