r"""Lesson "Tournament selection": private hypothesis selection by pairwise Scheffé contests, item- and user-level.

The contests, scores and private selection are :mod:`dpcore.estimators.selection` (Scheffé tournaments, Bun, Kamath,
Steinke & Wu 2019; the user-level scores of Ghazi et al. 2023; the 2-D tournament of Kamath, Singhal & Ullman 2020);
this module holds the page's grids and constants, one seeded run of each algorithm, the sweeps over the page's grids,
the theory companions (our guarantee :math:`5\alpha(n) + \mathrm{OPT}`, the privacy term
:math:`2\ln(k/\beta)/(\varepsilon\alpha)`, Ghazi et al.'s (2023) users-needed shape) and the numbers the page quotes.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from ..core.validation import EPSILON, SEED, Array, Choice, InstanceOf, Integer, InvalidParameterError, Real, validated
from ..estimators.heavy_tailed_mean import ksu20_tournament
from ..estimators.selection import (
    GaussianFamily,
    gaussian_grid,
    guarantee_alpha,
    minimum_distance,
    private_select,
    scheffe_scores,
    tournament_winner,
    user_scheffe_scores,
    users_needed_theory,
    win_matrix,
)
from ..experiments import SweepResult, run_now, run_sweep, samples_needed
from ..mechanisms import exponential
from .grids import nearest
from .questions import HELD_BACK, Question, bucket

__all__ = ["GLOSSARY", "PRIVATE", "TOURNAMENT", "MINIMUM_DISTANCE", "METHODS", "USER_CLIPPED", "GROUP", "ONE_PER_USER",
           "ITEM_LEVEL", "USER_METHODS", "SPACING", "N_GRID", "K_GRID", "EPSILON_FRAMES", "USER_N", "PER_USER",
           "USER_EPSILONS", "USER_TRIALS", "USER_HYPOTHESES", "TRUTH", "TARGET_TV", "ALPHA", "BETA", "MEANS",
           "COVER_AXIS", "PLANE_MEAN", "PLANE_N", "OPT", "OneRun", "Contest", "PlaneRun", "spaced_grid",
           "selection_sweep", "user_level_sweep", "frame_epsilon", "one_run", "contest", "run_caption", "guarantee",
           "item_sweep", "user_sweep", "needed_by_k", "users_needed", "privacy_term", "price_of_k", "k_growth",
           "users_needed_curves", "plane_run", "takeaways",
           "price_question"]

#: The glossary terms (:data:`dpcore.lessons.glossary.TERMS`) the page's words use, checked against the page as
#: drawn by tests/app/test_plain_words.py
GLOSSARY = ("clipping", "composition", "differential privacy (DP)", "exponential mechanism", "group privacy",
            "heavy tails", "hypothesis", "k (the letter)", "Laplace mechanism", "median", "Monte Carlo trials",
            "neighbouring datasets", "percentile", "pure and approximate DP", "Scheffé set", "score", "sensitivity (Δ)",
            "Student's t", "total variation (TV)", "user-level privacy", "ε (epsilon)")

_ALPHA = Real(0, 0.25, low_open=True)
_RESULT = InstanceOf(SweepResult, "a dpcore.experiments.SweepResult")
PRIVATE = "private_selection"
TOURNAMENT = "scheffe_tournament"
MINIMUM_DISTANCE = "minimum_distance"
METHODS = (PRIVATE, TOURNAMENT, MINIMUM_DISTANCE)
USER_CLIPPED = "user_level_clipped"  #: clipped user-level scores, τ = √m
GROUP = "group_privacy"
ONE_PER_USER = "one_per_user"
ITEM_LEVEL = "item_level"
USER_METHODS = (USER_CLIPPED, GROUP, ONE_PER_USER, ITEM_LEVEL)

SPACING = 0.1  #: the distance between neighbouring hypothesis means of :func:`spaced_grid`

# The page's grids and constants.
N_GRID = (30, 100, 300, 1000, 3000, 10_000)  #: sample sizes of the item-level sweep
K_GRID = (21, 41, 81, 161, 321)  #: numbers of hypotheses (the k control and the frames of "error vs n")
EPSILON_FRAMES = (0.03, 0.1, 0.3, 1.0)  #: ε of the item-level sweep
USER_N = (10, 30, 100, 300, 1000)  #: numbers of users of the user-level sweep
PER_USER = (1, 4, 16, 64, 256)  #: examples per user m (the m control)
USER_EPSILONS = (0.05, 0.1, 0.2, 0.5)  #: ε of the user-level sweep
USER_TRIALS = 40  #: datasets per point of the user-level sweep
USER_HYPOTHESES = 41  #: k of the user-level sweep
TRUTH = (0.33, 1.0)  #: the data's distribution P = N(0.33, 1)
TARGET_TV = 0.1  #: the accuracy whose sample cost the page measures
ALPHA = 0.05  #: the scores' accuracy parameter α
BETA = 0.1  #: the guarantee's failure probability β
MEANS = tuple(round(SPACING * i, 1) for i in range(-20, 21))  #: the means the contest controls offer, −2 … 2
COVER_AXIS = tuple(0.25 * i for i in range(-3, 4))  #: the plane section: a public 7 × 7 cover, spacing 0.25
PLANE_MEAN = (0.2, -0.1)  #: the plane section: the mean of the Student-t(3) points
PLANE_N = 600  #: the plane section: the number of points


@validated(k=Integer(low=2, high=2001))
@functools.lru_cache(maxsize=32)
def spaced_grid(k: int) -> GaussianFamily:
    """k unit-variance Gaussians with means 0.1 apart, centred on 0: more hypotheses, same OPT for a truth inside.
    Cached: a family is immutable and its Scheffé quantities are computed once.

    >>> spaced_grid(41).means[[0, -1]].tolist()
    [-2.0, 2.0]
    """
    half = SPACING * (k - 1) / 2
    return gaussian_grid(k, -half, half)


#: Trials per piece of the selection sweep (run_sweep's ``piece``): its tournaments' k × k contests made 500 trials at
#: once take the worker to 1.8 GB; the stored 100-trial runs are one piece.
SELECTION_PIECE = 100
OPT = float(spaced_grid(41).tv_from(TRUTH).min())  #: TV from P to the closest hypothesis, 2Φ(0.015) − 1 ≈ 0.012


# --------------------------------------------------------------------------------------- sweeps

def _cached_scores(data, key, make):
    """Scores depend on the data and the family, not on ε: computed once per dataset (the data tuple's cache)."""
    cache = data[1]
    if key not in cache:
        cache[key] = make()
    return cache[key]


def _sweep(truth_mean: float, data_axes: tuple[str, ...], estimator, methods: tuple[str, ...], grid: dict,
           trials: int, seed: int, piece: int | None = None) -> SweepResult:
    r"""Datasets of :math:`\mathcal N(\mu, 1)` points shaped by the ``data_axes`` (n, or n users × m), shared by every
    method at every other grid value; at most ``piece`` of them at once (run_sweep's ``piece``)."""
    def sample(params, count, rng):
        return rng.normal(truth_mean, 1.0, (count, *(params[axis] for axis in data_axes))), {}
    return run_sweep(sample, {method: estimator(method) for method in methods}, grid, data_parameters=data_axes,
                     trials=trials, seed=seed, piece=piece)


def _selection_estimator(method: str, alpha: float, truth):
    distances = {}

    def errors(data, params, rng):
        x = data[0]
        family = spaced_grid(params["k"])
        if family.size not in distances:
            distances[family.size] = family.tv_from(truth)
        if method == PRIVATE:
            scores = _cached_scores(data, ("item", family.size), lambda: scheffe_scores(family, x, alpha))
            chosen = exponential(scores, params["epsilon"], 1.0, rng=rng)
        elif method == TOURNAMENT:
            chosen = _cached_scores(data, ("tournament", family.size), lambda: tournament_winner(family, x))
        else:
            chosen = _cached_scores(data, ("distance", family.size), lambda: minimum_distance(family, x))
        return distances[family.size][chosen]
    return errors


@validated(n_values=Array(ndim=(1,), low=2, min_size=1), ks=Array(ndim=(1,), low=21, high=2001, min_size=1),
           epsilons=Array(ndim=(1,), low=0, low_open=True, min_size=1), trials=Integer(low=1), seed=SEED,
           alpha=_ALPHA, truth_mean=Real(low=-0.5, high=0.5))
def selection_sweep(n_values, ks, epsilons, trials: int, seed: int, alpha: float = 0.05,
                    truth_mean: float = 0.33) -> SweepResult:
    r"""TV error :math:`d_{TV}(P, \hat H)` of the private selection and the two non-private tournaments over n × k × ε.

    Hypotheses: :func:`spaced_grid` (k unit Gaussians 0.1 apart around 0), so adding hypotheses adds far-away
    candidates while OPT stays :math:`2\Phi(0.015) - 1 \approx 0.012` for the default truth :math:`\mathcal N(0.33, 1)`.
    k >= 21: in a smaller grid (span <= 1) the central member is within :math:`\kappa = 4\alpha` of every other, ties
    all its contests, gets the cap score n and wins whatever the data. Data :math:`\mathcal N(\mu, 1)`, shared by
    every k, ε and method (common random numbers); scores are computed once per dataset and k.

    Returns
    -------
    SweepResult
        Axes ``("n", "k", "epsilon")``, methods :data:`METHODS`.
    """
    grid = {"n": [int(n) for n in n_values], "k": [int(k) for k in ks], "epsilon": [float(e) for e in epsilons]}
    return _sweep(truth_mean, ("n",), lambda method: _selection_estimator(method, alpha, (truth_mean, 1.0)), METHODS,
                  grid, trials, seed, piece=SELECTION_PIECE)


def _user_estimator(method: str, alpha: float, truth, hypotheses: int):
    family = spaced_grid(hypotheses)
    distance = family.tv_from(truth)

    def errors(data, params, rng):
        x, m = data[0], params["m"]
        if method in (USER_CLIPPED, GROUP):
            tau = math.sqrt(m) if method == USER_CLIPPED else math.inf
            scores, sensitivity = _cached_scores(data, method, lambda: user_scheffe_scores(family, x, alpha, tau))
        else:
            items = x[..., 0] if method == ONE_PER_USER else x.reshape(x.shape[0], -1)
            scores, sensitivity = _cached_scores(data, method, lambda: (scheffe_scores(family, items, alpha), 1.0))
        return distance[exponential(scores, params["epsilon"], sensitivity, rng=rng)]
    return errors


@validated(user_counts=Array(ndim=(1,), low=2, min_size=1), per_user=Array(ndim=(1,), low=1, min_size=1),
           epsilons=Array(ndim=(1,), low=0, low_open=True, min_size=1), trials=Integer(low=1), seed=SEED,
           alpha=_ALPHA, hypotheses=Integer(low=21, high=401), truth_mean=Real(low=-0.5, high=0.5))
def user_level_sweep(user_counts, per_user, epsilons, trials: int, seed: int, alpha: float = 0.05,
                     hypotheses: int = 41, truth_mean: float = 0.33) -> SweepResult:
    r"""TV error of user-level selection over users n × examples per user m × ε (docs/algorithms.md §4.3).

    Methods: clipped user-level scores with :math:`\tau = \sqrt m` (:math:`\Delta_u = \min(m, 2\sqrt m)`), group privacy
    (:math:`\tau = \infty`, :math:`\Delta = m`), item-level selection on one example per user (user-level ε-DP), and
    item-level selection on all :math:`nm` examples (only item-level ε-DP: the weaker guarantee, for contrast).
    Hypotheses: :func:`spaced_grid` (``hypotheses`` unit Gaussians 0.1 apart; 41 = [−2, 2]); truth
    :math:`\mathcal N(0.33, 1)`.

    Returns
    -------
    SweepResult
        Axes ``("n", "m", "epsilon")``, methods :data:`USER_METHODS`.
    """
    grid = {"n": [int(n) for n in user_counts], "m": [int(m) for m in per_user],
            "epsilon": [float(e) for e in epsilons]}
    return _sweep(truth_mean, ("n", "m"), lambda method: _user_estimator(method, alpha, (truth_mean, 1.0), hypotheses),
                  USER_METHODS, grid, trials, seed)


@validated(trials=Integer(low=1), seed=SEED)
def item_sweep(trials: int, seed: int, run=run_now) -> SweepResult:
    """:func:`selection_sweep` over the page's grids (:data:`N_GRID` × :data:`K_GRID` × :data:`EPSILON_FRAMES`),
    through ``run`` (the app passes its cached runner; default: :func:`~dpcore.experiments.run_now`)."""
    return run(selection_sweep, n_values=list(N_GRID), ks=list(K_GRID), epsilons=list(EPSILON_FRAMES), trials=trials,
               seed=seed, alpha=ALPHA, truth_mean=TRUTH[0])


@validated(seed=SEED)
def user_sweep(seed: int, run=run_now) -> SweepResult:
    """:func:`user_level_sweep` over the page's grids (:data:`USER_N` × :data:`PER_USER` × :data:`USER_EPSILONS`,
    :data:`USER_TRIALS` datasets per point, :data:`USER_HYPOTHESES` hypotheses), through ``run``."""
    return run(user_level_sweep, user_counts=list(USER_N), per_user=list(PER_USER), epsilons=list(USER_EPSILONS),
               trials=USER_TRIALS, seed=seed, alpha=ALPHA, hypotheses=USER_HYPOTHESES, truth_mean=TRUTH[0])


# --------------------------------------------------------------------------------------- one run

@validated(epsilon=EPSILON, user_level=Choice((False, True)))
def frame_epsilon(epsilon: float, user_level: bool = False) -> float:
    """The ε of the sweep (:data:`EPSILON_FRAMES`, or :data:`USER_EPSILONS` if ``user_level``) nearest ``epsilon`` on a
    log scale: the frame the page's animations open on for the sidebar's ε.

    >>> frame_epsilon(0.2), frame_epsilon(0.2, user_level=True)
    (0.3, 0.2)
    """
    frames = USER_EPSILONS if user_level else EPSILON_FRAMES
    return nearest(frames, epsilon)


@dataclass(frozen=True)
class OneRun:
    """One dataset of n points from :data:`TRUTH` and what each selection makes of it among :func:`spaced_grid` (k).

    ``wins`` is the tournament's k × k win matrix; ``scores`` and ``probabilities`` the private selection's pairwise
    scores and exponential-mechanism probabilities; ``chosen``, ``winner``, ``closest`` the indices picked by the
    private selection, the tournament and the minimum-distance estimate; ``distances`` every hypothesis's TV from P.
    """

    data: np.ndarray
    means: np.ndarray
    distances: np.ndarray
    wins: np.ndarray
    scores: np.ndarray
    probabilities: np.ndarray
    chosen: int
    winner: int
    closest: int


_K = Integer(low=2, high=2001)
_N = Integer(low=2, high=1_000_000)


@validated(k=_K, n=_N, epsilon=EPSILON, seed=SEED)
@functools.lru_cache(maxsize=16)
def one_run(k: int, n: int, epsilon: float, seed: int) -> OneRun:
    r"""One seeded run (cached: the caption, three figures and the takeaways read the same run): data
    :math:`\mathcal N(0.33, 1)` from the first of two streams spawned from ``seed``, the
    private selection (:func:`~dpcore.estimators.selection.private_select`, ε-DP, α = :data:`ALPHA`) drawing from the
    second; the non-private tournament and minimum-distance estimate on the same data.

    >>> run = one_run(41, 300, 0.1, 0)
    >>> round(float(run.probabilities.sum()), 12), run.wins.shape
    (1.0, (41, 41))
    """
    family = spaced_grid(k)
    data_rng, noise_rng = np.random.default_rng(seed).spawn(2)
    x = family.sample(TRUTH, (n,), data_rng)
    chosen = private_select(family, x, epsilon, ALPHA, noise_rng)
    return OneRun(x, family.means, family.tv_from(TRUTH), win_matrix(family, x), chosen.scores, chosen.probabilities,
                  int(chosen.index), int(tournament_winner(family, x)), int(minimum_distance(family, x)))


@dataclass(frozen=True)
class Contest:
    r"""One Scheffé contest between :math:`H_i = \mathcal N(a, 1)` and :math:`H_j = \mathcal N(b, 1)` on one run's data:
    the Scheffé set :math:`W = \{h_i > h_j\}` (``shaded``: intervals, infinite ends allowed), :math:`p_1 = H_i(W)`,
    :math:`p_2 = H_j(W)`, the data's share :math:`\hat\tau` in W, and both densities on ``grid``."""

    data: np.ndarray
    p1: float
    p2: float
    tau: float
    grid: np.ndarray
    density_i: np.ndarray
    density_j: np.ndarray
    shaded: list[tuple[float, float]]


@validated(a=Choice(MEANS), b=Choice(MEANS), k=_K, n=_N, epsilon=EPSILON, seed=SEED)
def contest(a: float, b: float, k: int, n: int, epsilon: float, seed: int) -> Contest:
    r"""The contest :math:`\mathcal N(a, 1)` vs :math:`\mathcal N(b, 1)` on the data of :func:`one_run`: for equal
    variances W is the half-line beyond the midpoint, :math:`p_1 = \Phi(D/2)`, :math:`p_2 = \Phi(-D/2)`,
    :math:`D = |a - b|`.

    >>> duel = contest(0.3, 0.8, 41, 300, 0.1, 0)
    >>> round(duel.p1, 3), round(duel.p2, 3), duel.shaded
    (0.599, 0.401, [(-inf, 0.55)])
    """
    if a == b:
        raise InvalidParameterError("a and b must be two different hypotheses (pick two different means for the "
                                    "contest)")
    x = one_run(k, n, epsilon, seed).data
    pair = GaussianFamily(np.array([a, b]), np.ones(2))
    p1, p2 = pair.probabilities()
    grid = np.linspace(min(a, b) - 3.5, max(a, b) + 3.5, 400)

    def density(mu):
        return np.exp(-(grid - mu) ** 2 / 2) / math.sqrt(2 * math.pi)
    midpoint = (a + b) / 2
    shaded = [(midpoint, math.inf)] if a > b else [(-math.inf, midpoint)]
    return Contest(x, float(p1[0, 1]), float(p2[0, 1]), float(pair.set_counts(x)[0, 1] / n), grid, density(a),
                   density(b), shaded)


@validated(k=_K, n=_N, epsilon=EPSILON, seed=SEED)
def run_caption(k: int, n: int, epsilon: float, seed: int) -> str:
    """The caption under the page's formulas: the data, the hypotheses, OPT and what this run selected."""
    run = one_run(k, n, epsilon, seed)
    means, distances = run.means, run.distances
    return (f"Data: n = {n:,} points from P = N(0.33, 1); k = {k} hypotheses N(μ, 1), μ from {means[0]:+.1f} to "
            f"{means[-1]:+.1f}; OPT = {OPT:.3f}. This run: private choice μ = **{means[run.chosen]:+.1f}** (TV "
            f"{distances[run.chosen]:.3f}), tournament winner μ = {means[run.winner]:+.1f} (TV "
            f"{distances[run.winner]:.3f}).")


@dataclass(frozen=True)
class PlaneRun:
    """Kamath, Singhal & Ullman's (2020) tournament in the plane: the cover's scores and selection probabilities as
    grids (``[i, j]`` at ``(COVER_AXIS[j], COVER_AXIS[i])``) and the selected cover point."""

    scores: np.ndarray
    probabilities: np.ndarray
    selected: tuple[float, float]


@validated(epsilon=EPSILON, seed=SEED)
@functools.lru_cache(maxsize=16)
def plane_run(epsilon: float, seed: int) -> PlaneRun:
    r"""(Cached: two figures read it.) :data:`PLANE_N` Student-t(3) points around :data:`PLANE_MEAN` (first stream
    spawned from ``seed``) and
    :func:`~dpcore.estimators.heavy_tailed_mean.ksu20_tournament` over the public 7 × 7 cover (ε-DP, second stream).

    >>> round(float(plane_run(0.1, 0).probabilities.sum()), 12)
    1.0
    """
    data_rng, noise_rng = np.random.default_rng(seed).spawn(2)
    points = np.array(PLANE_MEAN) + data_rng.standard_t(3, (PLANE_N, 2))
    cover = np.array([(x, y) for y in COVER_AXIS for x in COVER_AXIS])
    chosen = ksu20_tournament(points, cover, epsilon, ALPHA, rng=noise_rng)
    shape = (len(COVER_AXIS), len(COVER_AXIS))
    x, y = cover[chosen.index]
    return PlaneRun(chosen.scores.reshape(shape), chosen.probabilities.reshape(shape), (float(x), float(y)))


# --------------------------------------------------------------------------------------- theory and read-offs

@validated(n_values=Array(ndim=(1,), low=1), k=Integer(low=2), epsilon=EPSILON)
def guarantee(n_values, k: int, epsilon: float) -> np.ndarray:
    r"""Our guarantee on the selected hypothesis's TV, :math:`\min\{1, 5\alpha(n) + \mathrm{OPT}\}` with
    :math:`\alpha(n) = \max\{\sqrt{2\ln(k^2/\beta)/n}, 2\ln(k/\beta)/(\varepsilon n)\}` (β = :data:`BETA`;
    :func:`~dpcore.estimators.selection.guarantee_alpha`); it holds w.p. :math:`\ge 1 - 2\beta` when
    :math:`\mathrm{OPT} \le \alpha(n)` (the theorem's condition), not otherwise.

    >>> guarantee([30, 10_000], 41, 0.1).round(3).tolist()
    [1.0, 0.233]
    """
    return np.minimum(1.0, 5 * guarantee_alpha(n_values, k, epsilon, BETA) + OPT)


@validated(ks=Array(ndim=(1,), low=2), epsilon=EPSILON)
def privacy_term(ks, epsilon: float) -> np.ndarray:
    r"""The privacy term of our guarantee as samples needed for TV :data:`TARGET_TV`:
    :math:`2\ln(k/\beta)/(\varepsilon\alpha)` with :math:`\alpha = \mathrm{TV}/5`.

    >>> privacy_term([21], 1.0).round(1).tolist()
    [534.7]
    """
    return 2 * np.log(ks / BETA) / (epsilon * TARGET_TV / 5)


@validated(result=_RESULT, epsilon=EPSILON, method=Choice(METHODS))
def needed_by_k(result: SweepResult, epsilon: float, method: str = PRIVATE) -> np.ndarray:
    """Samples ``method`` needs for mean TV ≤ :data:`TARGET_TV` at each k of :data:`K_GRID` (log-log interpolation
    between the n of :data:`N_GRID`; NaN where it never gets there), read off an :func:`item_sweep` result."""
    n_values = np.array(N_GRID, dtype=float)
    return np.array([samples_needed(n_values, result.curve(method, "n", k=k, epsilon=epsilon)["mean"], TARGET_TV)
                     for k in K_GRID])


@validated(result=_RESULT, method=Choice(USER_METHODS), epsilon=EPSILON)
def users_needed(result: SweepResult, method: str, epsilon: float) -> np.ndarray:
    """Users ``method`` needs for mean TV ≤ :data:`TARGET_TV` at each m of :data:`PER_USER` (interpolated between the
    user counts of :data:`USER_N`; NaN where it never gets there), read off a :func:`user_sweep` result."""
    user_counts = np.array(USER_N, dtype=float)
    return np.array([samples_needed(user_counts, result.curve(method, "n", m=m, epsilon=epsilon)["mean"], TARGET_TV)
                     for m in PER_USER])


@validated(trials=Integer(low=1), seed=SEED, epsilon=Choice(EPSILON_FRAMES))
def price_of_k(trials: int, seed: int, epsilon: float, run=run_now) -> dict[str, np.ndarray]:
    """The price of k at ``epsilon``: ``"k"`` (:data:`K_GRID`), ``"needed"`` (:func:`needed_by_k` for the private
    selection) and ``"theory"`` (:func:`privacy_term`)."""
    k = np.array(K_GRID, dtype=float)
    needed = needed_by_k(item_sweep(trials, seed, run=run), epsilon)
    return {"k": k, "needed": needed, "theory": privacy_term(k, epsilon)}


@validated(trials=Integer(low=1), seed=SEED, epsilon=Choice(EPSILON_FRAMES))
def k_growth(trials: int, seed: int, epsilon: float, run=run_now) -> tuple[float, float]:
    r"""How the private selection's sample cost grows with k at ``epsilon``: (extra samples per unit of
    :math:`\ln k`, extra samples per doubling of k), from the least-squares line of n needed on :math:`\ln k` over
    the k that reach the target (NaN, NaN if fewer than two do). The second is the first times :math:`\ln 2`: the
    rise of that line per doubling, the straight line of :func:`dpcore.viz.figures.tournament.price_of_k`."""
    curve = price_of_k(trials, seed, epsilon, run=run)
    found = np.isfinite(curve["needed"])
    if found.sum() < 2:
        return math.nan, math.nan
    k, needed = curve["k"][found], curve["needed"][found]
    slope = float(np.polyfit(np.log(k), needed, 1)[0])
    return slope, slope * math.log(2.0)


@validated(seed=SEED, epsilon=Choice(USER_EPSILONS))
def users_needed_curves(seed: int, epsilon: float, run=run_now) -> dict:
    r"""Users needed vs m at ``epsilon``: ``"m"`` (:data:`PER_USER`), ``"needed"`` ({method id: :func:`users_needed`})
    and ``"theory"``: Ghazi et al.'s (2023) shape (:func:`~dpcore.estimators.selection.users_needed_theory`, α = TV/5)
    times the constant fitted to the clipped method's measurements (geometric mean of the ratios; 1 if none reaches the
    target)."""
    result = user_sweep(seed, run=run)
    m = np.array(PER_USER, dtype=float)
    needed = {method: users_needed(result, method, epsilon) for method in USER_METHODS}
    shape = users_needed_theory(m, USER_HYPOTHESES, TARGET_TV / 5, epsilon, BETA)
    measured = needed[USER_CLIPPED]
    found = np.isfinite(measured)
    constant = float(np.exp(np.mean(np.log(measured[found] / shape[found])))) if found.any() else 1.0
    return {"m": m, "needed": needed, "theory": constant * shape}


# --------------------------------------------------------------------------------------- takeaways

@validated(k=_K, n=_N, epsilon=EPSILON, per_user=Choice(PER_USER), trials=Integer(low=1), seed=SEED,
           monte_carlo_seed=SEED, revealed=Choice((False, True)))
def takeaways(k: int, n: int, epsilon: float, per_user: int, trials: int, seed: int, run=run_now,
              monte_carlo_seed: int | None = None, revealed: bool = True) -> list[str]:
    """What to notice: this run's three choices, the private selection's extra samples per unit of ln k
    (:func:`k_growth` at the sweep's ε nearest ``epsilon``), and the users the clipped and group-privacy selections
    need at m = ``per_user`` (:func:`users_needed_curves`).
    ``seed`` draws the one run; ``monte_carlo_seed`` (default ``seed``) the sweeps, so a page can redraw one without
    recomputing the other. Before the student's guess (``revealed`` false) the growth with k, from which the answer
    of :func:`price_question` follows, is left for after it."""
    one = one_run(k, n, epsilon, seed)
    means = one.means
    item_epsilon, user_epsilon = frame_epsilon(epsilon), frame_epsilon(epsilon, user_level=True)
    sweep_seed = seed if monte_carlo_seed is None else monte_carlo_seed
    slope, per_doubling = k_growth(trials, sweep_seed, item_epsilon, run=run) if revealed else (math.nan, math.nan)
    needed = users_needed_curves(sweep_seed, user_epsilon, run=run)["needed"]
    at_m = PER_USER.index(per_user)
    clipped, group = needed[USER_CLIPPED][at_m], needed[GROUP][at_m]
    return [
        f"This run: the non-private tournament picks μ = {means[one.winner]:+.1f}, the minimum-distance estimate "
        f"μ = {means[one.closest]:+.1f}, the private selection μ = {means[one.chosen]:+.1f} (truth {TRUTH[0]:g}, "
        f"OPT {OPT:.3f}).",
        (f"How many more samples the private selection needs as k grows at ε = {item_epsilon:g} appears "
         f"{HELD_BACK} (Predict first, above)." if not revealed else
         f"The private selection needs about **{per_doubling:,.0f} more samples per doubling of k** at "
         f"ε = {item_epsilon:g} ({slope:,.0f} per unit of ln k): growth like ln k, far from linear in k."
         if np.isfinite(slope) else
         "Too few k reach the target TV at this ε to fit the growth."),
        (f"At m = {per_user}, ε = {user_epsilon:g}: clipped user-level scores need about **{clipped:,.0f}** users, "
         f"group privacy {group:,.0f}." if np.isfinite(clipped) and np.isfinite(group) else
         f"At m = {per_user}, ε = {user_epsilon:g} not every method reaches TV ≤ {TARGET_TV:g} with ≤ "
         f"{USER_N[-1]:,} users."),
    ]


@validated(trials=Integer(low=1), seed=SEED, epsilon=Choice(EPSILON_FRAMES))
def price_question(trials: int, seed: int, epsilon: float, run=run_now) -> Question:
    r"""Predict, then reveal (before "the price of k"): by how much the samples the private selection needs grow from
    the fewest to the most hypotheses of :data:`K_GRID`; the answer is the ratio of the Monte Carlo curve
    (:func:`price_of_k`) the figure draws, and the privacy term of the guarantee,
    :math:`\ln(k_{\max}/\beta)/\ln(k_{\min}/\beta)`, falls in the same choice.

    >>> from dpcore.experiments import run_now
    >>> question = price_question(20, 0, 1.0, run=run_now)
    >>> question.choices[question.answer]
    'More, but far less than k: between ×1.1 and ×6'
    """
    fewest, most = K_GRID[0], K_GRID[-1]
    curve = price_of_k(trials, seed, epsilon, run=run)
    needed, theory = curve["needed"][[0, -1]], curve["theory"][[0, -1]]
    measured = bool(np.all(np.isfinite(needed)))
    growth = float(needed[1] / needed[0]) if measured else float(theory[1] / theory[0])
    source = (f"The Monte Carlo run needs {needed[0]:,.0f} samples at k = {fewest} and {needed[1]:,.0f} at k = {most}: "
              f"×{growth:.1f}." if measured else
              f"The Monte Carlo run does not reach the target at every k here; the guarantee's privacy term grows "
              f"×{growth:.2f}.")
    return Question(
        key="price",
        prompt=(f"A private tournament picks among k hypotheses at ε = {epsilon:g}. From k = {fewest} to k = {most} "
                f"(×{most / fewest:.0f} more hypotheses, ×{most * (most - 1) / (fewest * (fewest - 1)):.0f} more "
                "contests), how much do the samples it needs grow?"),
        choices=("Not at all (less than ×1.1)", "More, but far less than k: between ×1.1 and ×6",
                 f"About ×{most / fewest:.0f}: in proportion to k", "Like the number of contests: ×50 or more"),
        answer=bucket(growth, (1.1, 6.0, 50.0)),
        explanation=(f"{source} The exponential mechanism pays about ln(k/β)/ε in score to choose among k "
                     f"candidates, whatever the number of contests: the guarantee's privacy term grows "
                     f"×{theory[1] / theory[0]:.2f} (the dashed line). On the figure's logarithmic k axis that is a "
                     "straight line: the same number of extra samples for every doubling of k."))
