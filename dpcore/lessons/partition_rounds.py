r"""Lesson "Partitioning rounds": learning a binary product distribution in total variation under pure DP.

The estimators are :mod:`dpcore.estimators.partition_rounds` (Singhal 2023: partition the coordinates by the
size of their marginals in rounds on disjoint row blocks, so the whole algorithm is ε-DP by parallel composition).
This module holds what the page shows of them: its grids, one simulated run with its trace and the tables drawn from
it, the sweeps over the grids (fast mode: exact binomial block counts, one Monte Carlo TV sample shared by every
method and trial), the rate shapes drawn next to the simulation, the sample complexities read off the sweeps and the
takeaways. Methods are named by their ids (:data:`dpcore.estimators.partition_rounds.METHODS`); their labels are
:data:`dpcore.lessons.methods.LABELS`.
"""

from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from ..core.randomness import child_generator
from ..core.validation import (
    DELTA,
    EPSILON,
    SEED,
    TRIALS,
    Array,
    Choice,
    InstanceOf,
    Integer,
    InvalidParameterError,
    Real,
    validated,
)
from ..distributions import binary_product as products
from ..estimators import partition_rounds as rounds
from ..experiments import SweepResult, fit_power_law, join_methods, run_now, run_sweep, samples_needed
from .grids import nearest
from .methods import label
from .questions import Question

__all__ = ["GLOSSARY", "DIMENSIONS", "N_GRID", "EPSILONS", "PROFILES", "TARGET_TV", "RATE_POWERS", "SAMPLING_CONSTANT",
           "ONE_RUN_TV_POINTS", "ONE_RUN_TV_ERROR", "ONE_RUN_TV_SEED", "error_sweep", "rate_curve", "fit_rate_constant",
           "nearest_n", "OneRun", "RunDistance", "one_run_tv_points", "one_run", "one_run_caption", "run_caption",
           "block_table", "block_summary", "distance_table", "sweep_vs_n", "sweep_vs_dimension", "sweep_by_profile",
           "RateCurves", "rate_curves", "Complexity", "sample_complexity", "complexity_table", "takeaways",
           "composition_question"]

#: The glossary terms (:data:`dpcore.lessons.glossary.TERMS`) the page's words use, checked against the page as
#: drawn by tests/app/test_plain_words.py
GLOSSARY = ("audit", "binary product distribution", "clipping", "composition", "differential privacy (DP)",
            "Gaussian mechanism", "Kullback–Leibler divergence (KL)", "Laplace mechanism", "log–log plot", "median",
            "Monte Carlo trials", "neighbouring datasets", "parallel composition", "percentile", "post-processing",
            "pure and approximate DP", "sensitivity (Δ)", "total variation (TV)", "zCDP (ρ)", "δ (delta)",
            "ε (epsilon)", "ℓ₁ and ℓ₂ norms")

DIMENSIONS = (16, 64, 256, 1024, 4096)  #: the dimensions d of the page (the "vs d" sweep)
N_GRID = (1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000, 3_000_000, 10_000_000)  #: the sweeps' n
EPSILONS = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0)  #: the ε of the page (the frames of the "vs n" figures)
PROFILES = products.PROFILES  #: the marginal profiles (:func:`dpcore.distributions.binary_product.marginal_profile`)
TARGET_TV = 0.1  #: the accuracy whose sample complexity the page measures
RATE_POWERS = {rounds.PARTITION_PURE: 1.5, rounds.NAIVE: 2.0}  #: noise exponents a of the fitted laws c·dᵃ/(εn)
SAMPLING_CONSTANT = 1.0 / math.sqrt(2.0 * math.pi)
ONE_RUN_TV_POINTS = 20_000  #: Monte Carlo points of the one run's TV (d > 16)
#: The Monte Carlo error the page quotes for the one run's TV: its standard error at ONE_RUN_TV_POINTS points is at
#: most 1/(2√20,000) ≈ 0.0035, about 0.002 or less for nine in ten estimates across the page's settings
ONE_RUN_TV_ERROR = 0.002
ONE_RUN_TV_SEED = 0  #: the entropy of the one run's TV points (:func:`one_run_tv_points`), whatever the run's seed

_PROFILE = Choice(PROFILES)
_DIMENSION = Integer(low=2, high=1_000_000)
_N = Integer(low=3)
_SWEEP = InstanceOf(SweepResult, "a dpcore.experiments.SweepResult")


# --------------------------------------------------------------------------------------- the sweep


def _sample(mc_samples: int, beta: float, seed: int):
    """The sweep's data at one (profile, dimension, n): the block counts, from the engine's data stream, and the TV
    Monte Carlo points of P, from their own stream keyed by (profile, dimension) only: every n shares them (common
    random numbers, and one draw of ``mc_samples`` × d points per P instead of one per n)."""
    # The TV points of the latest P: the engine visits the n of one P in a row.
    latest: dict[tuple[str, int], products.TVMonteCarlo] = {}

    def tv_points(p, key):
        if key not in latest:
            latest.clear()
            latest[key] = products.TVMonteCarlo(p, mc_samples, child_generator(seed, "tv points", *key))
        return latest[key]

    def sample(params: dict, trials: int, rng: np.random.Generator):
        p = products.marginal_profile(params["profile"], params["dimension"])
        layout = rounds.block_layout(params["n"], p.size, beta)
        counts = rounds.draw_block_counts(p, layout, trials, rng)
        tv = tv_points(p, (params["profile"], params["dimension"])) if mc_samples else None
        return p, layout, counts, tv
    return sample


def _distance(metric: str, p, q, tv, n):
    if metric == "kl":
        return products.kl_divergence(p, np.maximum(q, 1.0 / (2 * n)))
    return tv(q)


def _sweep_estimator(method: str, metric: str, delta: float, beta: float):
    def errors(data, params, rng):
        p, layout, counts, tv = data
        estimate = rounds.estimate_from_counts(method, counts, layout, p, params["epsilon"], rng, delta, beta)
        estimate = estimate.estimate if isinstance(estimate, rounds.PartitionResult) else estimate
        return _distance(metric, p, estimate, tv, layout.total)
    return errors


@validated(n_values=Array(ndim=(1,), low=3, min_size=1), dimensions=Array(ndim=(1,), low=2, min_size=1),
           epsilons=Array(ndim=(1,), low=0, low_open=True, min_size=1), trials=TRIALS, seed=SEED,
           metric=Choice(rounds.METRICS), delta=DELTA, beta=Real(0, 1, low_open=True, high_open=True),
           mc_samples=Integer(low=2))
def error_sweep(n_values, dimensions, epsilons, profiles, trials: int, seed: int, metric: str = "tv",
                delta: float = 1e-6, beta: float = 0.1, methods=rounds.METHODS, mc_samples: int = 2000) -> SweepResult:
    r"""Distance between the truth and every estimator's output over profile × dimension × n × ε (fast mode).

    ``metric="tv"``: Monte Carlo :math:`d_{TV}` over ``mc_samples`` points from P, shared by every method, trial,
    n and ε (common random numbers; standard error :math:`\le 1/(2\sqrt m)`, typically far smaller).
    ``metric="kl"``: exact :math:`\mathrm{KL}(P\|\hat Q)` with :math:`\hat q` floored at :math:`1/(2n)`
    (post-processing: KL is infinite for an estimate of exactly 0). Data axes ``("profile", "dimension", "n")``
    share the block counts across methods and ε; ``"one_shot_gaussian"`` is :math:`(\varepsilon, \delta)`-DP at
    ``delta``, the partition rounds (Singhal 2023) and the Laplace baselines are ε-DP.

    Returns
    -------
    SweepResult
        Axes ``("profile", "dimension", "n", "epsilon")``, methods ``methods`` (ids).

    Examples
    --------
    >>> result = error_sweep([10_000], [16], [1.0], ["two-level"], trials=3, seed=0)
    >>> result.methods == rounds.METHODS, result.mean.shape
    (True, (6, 1, 1, 1, 1))
    """
    unknown = sorted(set(profiles) - set(products.PROFILES)) + sorted(set(methods) - set(rounds.METHODS))
    if unknown or not len(profiles) or not len(methods):
        raise InvalidParameterError(f"profiles must be among {products.PROFILES} and methods among {rounds.METHODS}; "
                                    f"got {unknown}")
    grid = {"profile": list(profiles), "dimension": [int(d) for d in dimensions], "n": [int(n) for n in n_values],
            "epsilon": [float(e) for e in epsilons]}
    estimators = {method: _sweep_estimator(method, metric, delta, beta) for method in methods}
    sample = _sample(mc_samples if metric == "tv" else 0, beta, seed)
    return run_sweep(sample, estimators, grid, data_parameters=("profile", "dimension", "n"), trials=trials,
                     seed=seed)


# --------------------------------------------------------------------------------------- rate shapes


@validated(dimension=Integer(low=1), n_values=Array(ndim=(0, 1), low=1),
           epsilon=Real(low=0, low_open=True, allow_inf=True), noise_power=Real(low=0), constant=Real(low=0))
def rate_curve(dimension: int, n_values, epsilon: float, noise_power: float = 1.0, constant: float = 1.0):
    r"""The shape of a TV error rate, capped at 1 (docs/algorithms.md §3.4 overlays, polylogs dropped):

    .. math:: \min\Big\{1,\ \tfrac{1}{\sqrt{2\pi}}\sqrt{d/n} + c\,\frac{d^{\,a}}{\varepsilon n}\Big\}

    :math:`\tfrac{1}{\sqrt{2\pi}}\sqrt{d/n} \approx 0.40\sqrt{d/n}` is the non-private TV of the empirical marginals
    (:math:`d_{TV} \approx \sqrt{\chi^2/(2\pi)}`, :math:`\chi^2 \approx d/n`). Noise terms: :math:`a = 1`,
    :math:`c = 1` is Singhal's (2023) rate with DPSGLearner (Thm 3.1, :math:`n = \tilde O(d/\alpha^2 + d/(\alpha
    \varepsilon))`); :math:`a = 1.5` the Laplace substitute (the Laplace heavy step); :math:`a = 2` naive Laplace.
    ``epsilon=inf`` gives the non-private curve.

    >>> round(float(rate_curve(100, 10_000, math.inf)), 4)  # 0.40 sqrt(d/n)
    0.0399
    """
    d, n = dimension, np.asarray(n_values, dtype=float)
    noise = 0.0 if math.isinf(epsilon) else constant * d ** noise_power / (epsilon * n)
    return np.minimum(1.0, SAMPLING_CONSTANT * np.sqrt(d / n) + noise)


@validated(dimension=Integer(low=1), n_values=Array(ndim=(1,), low=1, min_size=1), epsilon=EPSILON,
           errors=Array(ndim=(1,), low=0, min_size=1), noise_power=Real(low=0))
def fit_rate_constant(dimension: int, n_values, epsilon: float, errors, noise_power: float) -> float:
    r"""Least-squares :math:`c \ge 0` in :func:`rate_curve` for simulated ``errors`` (points above 0.8 — saturated
    TV — are left out; display only, as in docs/algorithms.md §3.4). ``nan`` when no point is below 0.8.

    >>> n = np.array([1e4, 1e5, 1e6])
    >>> round(fit_rate_constant(64, n, 1.0, rate_curve(64, n, 1.0, 1.5, 0.3), 1.5), 6)
    0.3
    """
    if errors.shape != n_values.shape:
        raise InvalidParameterError(f"errors must have one value per n; got shapes {errors.shape} and {n_values.shape}")
    keep = errors < 0.8
    if not keep.any():
        return math.nan
    n = n_values[keep]
    shape = dimension ** noise_power / (epsilon * n)
    residual = errors[keep] - SAMPLING_CONSTANT * np.sqrt(dimension / n)
    return float(max(0.0, shape @ residual / (shape @ shape)))


@validated(n=Real(low=0, low_open=True))
def nearest_n(n: float) -> int:
    """The value of :data:`N_GRID` nearest ``n`` on a log scale (the frame the "vs d" figure opens on).

    >>> nearest_n(1_500_000)
    1000000
    """
    return nearest(N_GRID, n)


# --------------------------------------------------------------------------------------- one run


@dataclass(frozen=True)
class RunDistance:
    """The total variation between the truth and one method's estimate in :func:`one_run`: ``value`` (exact by
    enumeration when ``exact``, else Monte Carlo with its ``standard_error``) and the exact Bhattacharyya bounds."""

    method: str
    value: float
    standard_error: float
    lower: float
    upper: float
    exact: bool


@dataclass(frozen=True)
class OneRun:
    """One simulated dataset and every estimator on it (:func:`one_run`): the setting, the true marginals
    ``truth``, the pure partition's full ``trace`` and each method's TV distance (``distances``, in the order of
    :data:`~dpcore.estimators.partition_rounds.METHODS`). Cached and shared: treat the arrays as read-only."""

    profile: str
    dimension: int
    n: int
    epsilon: float
    delta: float
    seed: int
    truth: np.ndarray
    trace: rounds.PartitionResult
    distances: tuple[RunDistance, ...]

    def distance(self, method: str) -> RunDistance:
        """The TV distance of method id ``method``."""
        return next(found for found in self.distances if found.method == method)


# The one run's TV points (d > 16), keyed by (profile, dimension) and kept across seeds while all of them hold at most
# _TV_POINTS_BYTES (32 MiB), the least recently used dropped first: the default setting's set holds 21 MB; a larger
# set (two-level at d = 1024: 78 MB; every pⱼ = 1/2 at d ≥ 1024: 160–630 MB) is drawn for its run and not kept.
_TV_POINTS_BYTES = 2**25
_tv_point_sets: OrderedDict[tuple[str, int], products.TVMonteCarlo] = OrderedDict()
_tv_points_lock = threading.Lock()


@validated(profile=_PROFILE, dimension=_DIMENSION)
def one_run_tv_points(profile: str, dimension: int) -> products.TVMonteCarlo:
    """The Monte Carlo points that integrate the TV distance of every :func:`one_run` at this profile and dimension
    (:data:`ONE_RUN_TV_POINTS` draws from P, stream ``(ONE_RUN_TV_SEED, "one run tv points", profile, dimension)``):
    the same points for every seed, n, ε and method (common random numbers, as the sweeps share theirs across n), so
    a fresh seed draws no new points. Cached; treat as read-only."""
    key = (profile, dimension)
    with _tv_points_lock:
        if key in _tv_point_sets:
            _tv_point_sets.move_to_end(key)
            return _tv_point_sets[key]
    drawn = products.TVMonteCarlo(products.marginal_profile(profile, dimension), ONE_RUN_TV_POINTS,
                                  child_generator(ONE_RUN_TV_SEED, "one run tv points", profile, dimension))
    with _tv_points_lock:
        found = _tv_point_sets.setdefault(key, drawn)  # another session may have drawn the same points meanwhile
        _tv_point_sets.move_to_end(key)
        while _tv_point_sets and sum(points.nbytes for points in _tv_point_sets.values()) > _TV_POINTS_BYTES:
            _tv_point_sets.popitem(last=False)
    return found


def _run_tv(truth, estimates, profile: str, dimension: int) -> products.TVEstimate:
    """TV of each row of ``estimates``: exact for d <= 16, else over :func:`one_run_tv_points`."""
    if dimension <= products.MAX_EXACT_DIMENSION:
        return products.tv_distance(truth, estimates)
    lower, upper = products.tv_bounds(truth, estimates)
    value, standard_error = one_run_tv_points(profile, dimension).estimate(estimates)
    return products.TVEstimate(value, standard_error, lower, upper, False)


@functools.lru_cache(maxsize=32)
def _one_run(profile: str, dimension: int, n: int, epsilon: float, delta: float, seed: int) -> OneRun:
    truth = products.marginal_profile(profile, dimension)
    truth.setflags(write=False)
    trace, estimates = rounds.simulate_estimators(truth, n, epsilon, rng=seed, delta=delta)
    tv = _run_tv(truth, np.array(list(estimates.values())), profile, dimension)  # one set of points for all
    value, standard_error, lower, upper = (np.atleast_1d(getattr(tv, field))
                                           for field in ("value", "standard_error", "lower", "upper"))
    distances = tuple(RunDistance(method, float(value[i]), float(standard_error[i]), float(lower[i]),
                                  float(upper[i]), exact=tv.exact) for i, method in enumerate(estimates))
    return OneRun(profile, dimension, n, epsilon, delta, seed, truth, trace, distances)


@validated(profile=_PROFILE, dimension=_DIMENSION, n=_N, epsilon=EPSILON, delta=DELTA, seed=SEED)
def one_run(profile: str, dimension: int, n: int, epsilon: float, delta: float = 1e-6, seed: int = 0) -> OneRun:
    r"""One dataset of ``n`` rows from the profile's :math:`\bigotimes_j\mathrm{Ber}(p_j)` (fast mode) and every
    estimator on it (:func:`dpcore.estimators.partition_rounds.simulate_estimators`, stream ``seed``), with each
    estimate's TV distance to the truth: exact for :math:`d \le 16`, else Monte Carlo over 20,000 points from P
    (:func:`one_run_tv_points`: the same points for every method and every seed at this profile and dimension, common
    random numbers; standard error about 0.002, :data:`ONE_RUN_TV_ERROR`).

    The partition rounds are ε-DP (Singhal 2023, Prop 3.2: disjoint blocks, parallel composition), the one-shot Gaussian
    (ε, ``delta``)-DP. Results are cached (32 settings), so the page's figure and tables share one run.

    Examples
    --------
    >>> single = one_run("two-level", 16, 100_000, 1.0, seed=0)
    >>> partition = single.distance("partition_pure")  # d <= 16: exact, inside the Bhattacharyya bounds
    >>> partition.exact, partition.lower <= partition.value <= partition.upper, single.trace.guarantee
    (True, True, '1-DP (pure)')
    """
    return _one_run(profile, dimension, n, epsilon, delta, seed)


_ONE_RUN = InstanceOf(OneRun, "a dpcore.lessons.partition_rounds.OneRun")


@validated(profile=_PROFILE, dimension=_DIMENSION, n=_N, epsilon=EPSILON, delta=DELTA, seed=SEED)
def one_run_caption(profile: str, dimension: int, n: int, epsilon: float, delta: float = 1e-6, seed: int = 0) -> str:
    """:func:`run_caption` of :func:`one_run` at these settings."""
    return run_caption(one_run(profile, dimension, n, epsilon, delta, seed))


@validated(single=_ONE_RUN)
def run_caption(single: OneRun) -> str:
    """The line above the one-run figure: the run's TV for the partition, naive Laplace and the non-private
    estimate, where its rounds placed the coordinates, and (d > 16) the Monte Carlo error of those TVs."""
    trace = single.trace
    tv = {method: single.distance(method).value for method in rounds.METHODS}
    caption = (f"This run ({single.profile}, d = {single.dimension}, n = {single.n:,}, ε = {single.epsilon:g}): TV "
               f"of the partition estimate **{tv[rounds.PARTITION_PURE]:.3f}**, naive Laplace "
               f"**{tv[rounds.NAIVE]:.3f}**, non-private {tv[rounds.NON_PRIVATE]:.3f}; {len(trace.rounds)} rounds "
               f"placed {int(trace.heavy.coordinates.sum())} heavy coordinates, "
               f"{int(trace.final.coordinates.sum())} went to the final round.")
    if single.distances[0].exact:
        return caption
    return (f"{caption} Each TV distance is estimated from {ONE_RUN_TV_POINTS:,} random points drawn from P (the same "
            f"points for every seed), so it carries a Monte Carlo error of about ± {ONE_RUN_TV_ERROR:g} (the table "
            "below gives each one's).")


def _block_row(block, samples, coordinates, radius, scale, selected, spent) -> dict:
    return {"block": block, "rows": f"{samples:,}", "coordinates": coordinates,
            "clip radius T (ℓ₁)": "—" if radius is None else f"{float(radius):.1f}",
            "Laplace scale": "—" if scale is None else f"{float(scale):.2e}", "moved to a group": selected,
            "ε on these rows": f"{spent:g}"}


@validated(single=_ONE_RUN)
def block_table(single: OneRun) -> list[dict]:
    """Where the rows of the run go: one row per block (each partition round, the rounds the stopping rule left
    unused, the heavy and the final block) with its rows, coordinates, clip radius, Laplace scale, the coordinates
    it moved to a group and the ε it spends on its rows."""
    trace, epsilon = single.trace, single.epsilon
    rows = [_block_row(f"round {r + 1}", step.samples, int(step.candidates.sum()), step.radius, step.noise_scale,
                       str(int(step.selected.sum())), epsilon) for r, step in enumerate(trace.rounds)]
    unused = trace.layout.rounds - len(trace.rounds)
    if unused:
        rows.append(_block_row(f"{unused} unused (stopped early)", unused * trace.layout.round_size, 0, None, None,
                               "—", 0))
    rows += [_block_row(name, release.samples, int(release.coordinates.sum()), release.radius, release.noise_scale,
                        "—", epsilon) for name, release in (("heavy (rescaled)", trace.heavy),
                                                           ("final (light)", trace.final))]
    return rows


@validated(single=_ONE_RUN)
def block_summary(single: OneRun) -> dict[str, str]:
    """The numbers the text under the block table quotes: rows of all rounds (``round_rows``) and of each
    (``round_size``), the heavy and final blocks' rows, and the number of releases a composition would charge
    (``releases``: the rounds run + 2)."""
    layout = single.trace.layout
    return {"round_rows": f"{layout.rounds * layout.round_size:,}", "round_size": f"{layout.round_size:,}",
            "heavy_size": f"{layout.heavy_size:,}", "final_size": f"{layout.final_size:,}",
            "releases": f"{len(single.trace.rounds) + 2}"}


@validated(single=_ONE_RUN)
def distance_table(single: OneRun) -> list[dict]:
    """Every method's TV in the run (by label), how it was computed, and its Bhattacharyya bounds."""
    return [{"method": label(found.method), "TV (this run)": round(found.value, 4),
             "computed": "exact (enumeration)" if found.exact else
             f"Monte Carlo, s.e. {found.standard_error:.4f}",
             "TV bounds (Bhattacharyya)": f"[{found.lower:.3f}, {found.upper:.3f}]"} for found in single.distances]


# --------------------------------------------------------------------------------------- the page's sweeps
_DELTA_FREE = [method for method in rounds.METHODS if method != rounds.ONE_SHOT_GAUSSIAN]


def _by_delta_use(run, delta: float, **params) -> SweepResult:
    """:func:`error_sweep` of every method, run as two sweeps joined (:func:`dpcore.experiments.join_methods`): the
    ε-DP methods without δ, the (ε, δ)-DP Gaussian with it, so a new δ recomputes only that one method. Equal,
    number for number, to one sweep of all the methods (streams keyed by method id and by grid values)."""
    pure = run(error_sweep, **params, methods=_DELTA_FREE)
    approximate = run(error_sweep, **params, methods=[rounds.ONE_SHOT_GAUSSIAN], delta=delta)
    return join_methods([pure, approximate], rounds.METHODS)


@validated(profile=_PROFILE, dimension=_DIMENSION, delta=DELTA, trials=TRIALS, seed=SEED,
           metric=Choice(rounds.METRICS))
def sweep_vs_n(profile: str, dimension: int, delta: float, trials: int, seed: int, metric: str = "tv", *,
               run=run_now) -> SweepResult:
    """:func:`error_sweep` over n × ε (:data:`N_GRID` × :data:`EPSILONS`) at one profile and dimension: the
    "error vs n" figures (TV, or KL with ``metric="kl"``), one frame per ε. ``run`` runs the sweep (the app passes
    its cached runner)."""
    return _by_delta_use(run, delta, n_values=list(N_GRID), dimensions=[dimension], epsilons=list(EPSILONS),
                         profiles=[profile], trials=trials, seed=seed, metric=metric)


@validated(profile=_PROFILE, epsilon=EPSILON, delta=DELTA, trials=TRIALS, seed=SEED)
def sweep_vs_dimension(profile: str, epsilon: float, delta: float, trials: int, seed: int, *,
                       run=run_now) -> SweepResult:
    """:func:`error_sweep` of TV over n × d (:data:`N_GRID` × :data:`DIMENSIONS`) at one profile and ε: the
    "TV vs d" figure, the sample complexities and the takeaways."""
    return _by_delta_use(run, delta, n_values=list(N_GRID), dimensions=list(DIMENSIONS), epsilons=[epsilon],
                         profiles=[profile], trials=trials, seed=seed)


@validated(dimension=_DIMENSION, epsilon=EPSILON, delta=DELTA, trials=TRIALS, seed=SEED)
def sweep_by_profile(dimension: int, epsilon: float, delta: float, trials: int, seed: int, *,
                     run=run_now) -> SweepResult:
    """:func:`error_sweep` of TV over n × every profile of :data:`PROFILES` at one dimension and ε."""
    return _by_delta_use(run, delta, n_values=list(N_GRID), dimensions=[dimension], epsilons=[epsilon],
                         profiles=list(PROFILES), trials=trials, seed=seed)


@dataclass(frozen=True)
class RateCurves:
    """The theory drawn next to a TV-vs-n frame (:func:`rate_curves`), at each ``n``: ``non_private``, the
    non-private rate :math:`0.40\\sqrt{d/n}`; ``singhal_rate``, the rate of Singhal (2023, Theorem 3.1;
    docs/papers.md §1.4) with the heavy block learned by DPSGLearner (Hopkins, Kamath, Majid & Narayanan 2023), that is
    :func:`rate_curve` with :math:`a = c = 1`; and ``fitted``, per method id of :data:`RATE_POWERS`, ``(a, curve)``:
    the law :math:`c\\,d^a/(\\varepsilon n)` fitted to its simulated medians (all ``nan`` when there is nothing to
    fit, every median saturated: the curve is then a gap, never missing, so that every ε frame of the figure draws the
    same series)."""

    n: np.ndarray
    non_private: np.ndarray
    singhal_rate: np.ndarray
    fitted: dict[str, tuple[float, np.ndarray]]


@validated(result=_SWEEP, profile=_PROFILE, dimension=_DIMENSION, epsilon=EPSILON)
def rate_curves(result: SweepResult, profile: str, dimension: int, epsilon: float) -> RateCurves:
    """The theory companions of the TV-vs-n sweep ``result`` (:func:`sweep_vs_n`) at one ``epsilon``: the rate shapes
    of :func:`rate_curve` and the constants :func:`fit_rate_constant` finds for the pure substitute (a = 1.5) and
    naive Laplace (a = 2)."""
    n = np.asarray(result.grid["n"], dtype=float)
    fixed = {"profile": profile, "dimension": dimension, "epsilon": epsilon}
    fitted = {}
    for method, power in RATE_POWERS.items():
        constant = fit_rate_constant(dimension, n, epsilon, result.curve(method, "n", **fixed)["median"], power)
        gap = np.full(n.shape, np.nan)
        fitted[method] = (power, rate_curve(dimension, n, epsilon, power, constant) if np.isfinite(constant) else gap)
    return RateCurves(n, rate_curve(dimension, n, math.inf), rate_curve(dimension, n, epsilon), fitted)


# --------------------------------------------------------------------------------------- sample complexity


@dataclass(frozen=True)
class Complexity:
    """Samples needed for TV ≤ :data:`TARGET_TV` (:func:`sample_complexity`): per method id, ``needed`` at each
    dimension of the sweep (``nan`` beyond its n grid) and the fitted exponent b of :math:`n^* \\propto d^b`
    (``exponents``, ``nan`` when fewer than two dimensions are measured)."""

    dimensions: np.ndarray
    needed: dict[str, np.ndarray]
    exponents: dict[str, float]


@validated(result=_SWEEP, epsilon=EPSILON)
def sample_complexity(result: SweepResult, epsilon: float) -> Complexity:
    """Read the sample complexity off a TV sweep over n and d at one profile (:func:`sweep_vs_dimension`): log-log
    interpolation of each method's median TV curve at :data:`TARGET_TV` (:func:`dpcore.experiments.samples_needed`)
    at each dimension, and the power law :math:`n^* \\propto d^b` fitted over the dimensions where it is measured
    (reached inside the n grid, above its first point: below it the grid cannot tell).

    >>> result = error_sweep([1_000, 10_000, 100_000], [16, 64], [1.0], ["log-uniform"], trials=2, seed=0)
    >>> complexity = sample_complexity(result, 1.0)
    >>> complexity.dimensions.tolist(), bool(complexity.needed["non_private"][0] <= 1_000)
    ([16, 64], True)
    """
    n_values = np.asarray(result.grid["n"], dtype=float)
    dimensions = np.asarray(result.grid["dimension"])
    needed, exponents = {}, {}
    for method in result.methods:
        needed[method] = np.array([samples_needed(n_values, result.curve(method, "n", dimension=d, epsilon=epsilon)
                                                  ["median"], TARGET_TV) for d in dimensions.tolist()])
        found = np.isfinite(needed[method]) & (needed[method] > n_values[0])  # below the grid: not measured
        exponents[method] = (fit_power_law(dimensions[found].astype(float), needed[method][found])[0]
                             if found.sum() >= 2 else math.nan)
    return Complexity(dimensions, needed, exponents)


@validated(profile=_PROFILE, epsilon=EPSILON, delta=DELTA, trials=TRIALS, seed=SEED)
def complexity_table(profile: str, epsilon: float, delta: float, trials: int, seed: int, *,
                     run=run_now) -> list[dict]:
    """The page's table of :func:`sample_complexity` on :func:`sweep_vs_dimension`: one row per method (by label),
    the samples needed at each d of :data:`DIMENSIONS` ("> 10⁷" beyond :data:`N_GRID`, "≤ 10³" at or below its first
    point) and the fitted exponent."""
    complexity = sample_complexity(sweep_vs_dimension(profile, epsilon, delta, trials, seed, run=run), epsilon)

    def shown(value: float) -> str:
        return "> 10⁷" if np.isnan(value) else ("≤ 10³" if value <= N_GRID[0] else f"{value:,.0f}")
    return [{"method": label(method), **{f"d = {d}": shown(v) for d, v in zip(DIMENSIONS, needed)},
             "fitted exponent b (n* ∝ dᵇ)": "—" if np.isnan(complexity.exponents[method]) else
             round(float(complexity.exponents[method]), 2)} for method, needed in complexity.needed.items()]


# --------------------------------------------------------------------------------------- what to notice


def _exponent_text(exponent: float) -> str:
    """A fitted exponent of :class:`Complexity` as text; NaN (fewer than two dimensions measured): "not measured"."""
    return f"{exponent:.2f}" if np.isfinite(exponent) else "not measured"


@validated(profile=_PROFILE, n=_N, epsilon=EPSILON, delta=DELTA, trials=TRIALS, seed=SEED)
def takeaways(profile: str, n: int, epsilon: float, delta: float, trials: int, seed: int, *,
              run=run_now) -> list[str]:
    """What to notice, from the "vs d" sweep at ``epsilon`` (:func:`sweep_vs_dimension`) at the grid n nearest
    ``n``: naive Laplace's median TV over the partition's at each d, the dimensions where the pure substitute does
    not win, the fitted sample-complexity exponents, and the approximate-DP comparison at ``delta``."""
    result = sweep_vs_dimension(profile, epsilon, delta, trials, seed, run=run)
    near_n = nearest_n(n)
    at = N_GRID.index(near_n)
    ratio = {d: float(result.curve(rounds.NAIVE, "n", dimension=d, epsilon=epsilon)["median"][at]
                      / result.curve(rounds.PARTITION_PURE, "n", dimension=d, epsilon=epsilon)["median"][at])
             for d in DIMENSIONS}
    losing = [d for d in DIMENSIONS if ratio[d] < 1.0]
    exponents = sample_complexity(result, epsilon).exponents
    return [
        f"Naive Laplace's median TV divided by the partition's, at n = {near_n:,}, ε = {epsilon:g}: "
        + ", ".join(f"**{ratio[d]:.1f}** (d = {d})" for d in DIMENSIONS) + ". Above 1 the partition wins.",
        (f"**Where the pure substitute does not win:** at n = {near_n:,} it is no better than naive Laplace for "
         f"d = {', '.join(map(str, losing))} — its constants (Bernstein radii, 30 % of the rows spent on rounds, the "
         "Laplace heavy step) only pay off once d is large. Singhal's (2023) guarantee is asymptotic."
         if losing else f"At n = {near_n:,} the partition beats naive Laplace at every d shown."),
        (f"Fitted sample-complexity exponents (TV ≤ {TARGET_TV:g}): partition "
         f"**{exponents[rounds.PARTITION_PURE]:.2f}**, naive **{_exponent_text(exponents[rounds.NAIVE])}**, "
         f"non-private {_exponent_text(exponents[rounds.NON_PRIVATE])}."
         if np.isfinite(exponents[rounds.PARTITION_PURE]) else
         "Too few dimensions reach the target TV to fit exponents here."),
        f"Under approximate DP the one-shot Gaussian (δ = {delta:g}) is already as good as partition + Gaussian at "
        "these sizes: the partition's approximate-DP advantage (Kamath, Li, Singhal & Ullman 2019) is asymptotic, and "
        "its pure final round dominates its error.",
    ]


@validated(single=_ONE_RUN)
def composition_question(single: OneRun) -> Question:
    r"""Predict, then reveal (before the run's rounds): the privacy of the whole run, whose releases each spend ε on
    their own block of rows; the answer is the largest ε any row is charged in :func:`block_table` (parallel
    composition), against the sum a sequential composition would charge.

    >>> question = composition_question(one_run("two-level", 16, 10_000, 1.0))
    >>> question.choices[question.answer]
    'ε = 1 in total'
    """
    releases = len(single.trace.rounds) + 2
    charged = max(float(row["ε on these rows"]) for row in block_table(single))
    epsilon = single.epsilon
    return Question(
        key="composition",
        prompt=(f"This run makes {releases} Laplace releases, each ε = {epsilon:g}-DP, but each release reads its "
                "own block of rows and no row is read twice. How private is the whole run?"),
        choices=(f"ε = {epsilon:g} in total", f"√{releases}·ε = {math.sqrt(releases) * epsilon:.3g} in total",
                 f"{releases}·ε = {releases * epsilon:g} in total",
                 f"ε/{releases} = {epsilon / releases:.3g} in total"),
        answer=0 if charged == epsilon else 2,
        explanation=(f"Changing one person changes one row, and that row sits in one block only: the other "
                     f"{releases - 1} releases do not depend on it at all. So the whole run is as private as one "
                     f"release, ε = {charged:g} (parallel composition); {releases} releases reading the same rows "
                     f"would cost up to {releases}·ε."))
