r"""Lesson "Exponential mechanism": choosing privately, from an election to the sum-of-squares score over directions.

The exponential mechanism (McSherry & Talwar 2007) outputs candidate :math:`h` with probability
:math:`\propto \exp(\varepsilon u(X, h)/2\Delta)`: :math:`\varepsilon`-DP whatever the candidates, and with
probability :math:`1 - e^{-t}` it loses at most :math:`(2\Delta/\varepsilon)(\ln k + t)` score among :math:`k`
candidates (Dwork & Roth 2014, Thm 3.11; Kamath, Singhal & Ullman 2020). The page shows it on the election of
Kamath's slides about Hopkins, Kamath & Majid (2022), on user-level thresholds (Ghazi et al. 2023, §4), on the ln k
price of selection, on the exact continuous private median, and on Hopkins, Kamath & Majid's (2022) SDP score over
directions.

The mechanisms live in :mod:`dpcore.mechanisms` (exponential, report-noisy-max, permute-and-flip, quantile), the
user-level scores in :mod:`dpcore.estimators.user_level` and the SDP score in :mod:`dpcore.estimators.sdp`; this module
holds the page's grids and constants, its sweeps (methods named by the ids of :mod:`dpcore.lessons.methods`), their
theory companions, the one-run computations, the captions and the takeaways.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from types import MappingProxyType
from typing import TypedDict

import numpy as np
from scipy import stats

from .. import mechanisms, theory
from ..core.validation import (
    EPSILON,
    POSITIVE,
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
from ..estimators import sdp
from ..estimators.user_level import GRID_SIZE, THRESHOLD, savings_factor, select_threshold, threshold_data
from ..experiments import SweepResult, run_now, run_sweep
from ..mechanisms import permute_and_flip, private_quantile
from .grids import nearest
from .plain_words import superscript
from .questions import HELD_BACK, Question, bucket

__all__ = ["GLOSSARY",
           "VOTES", "CANDIDATES", "ELECTION_DRAWS", "ELECTION_EPSILONS", "CANDIDATE_COUNTS", "SELECTION_EPSILONS",
           "MEDIAN_N", "MEDIAN_EPSILONS", "MEDIAN_LOCATION", "MEDIAN_SD", "PER_USER", "USER_EPSILONS", "USERS",
           "SAVINGS_ALPHA", "SAVINGS_PER_USER", "ITERATIVE_DEFAULTS", "ITERATIVE_DEFAULT_ERROR",
           "quantile_error_sweep", "SELECTION_METHODS", "selection_loss_sweep", "USER_SWEEP_METHODS",
           "user_level_sweep", "USER_PIECE_VALUES", "user_level_piece", "loss_vs_k", "loss_theory", "median_vs_n",
           "median_theory", "user_level_vs_m",
           "election_probabilities", "election", "median_run", "sum_of_squares", "savings_note", "median_note",
           "sdp_note", "takeaways",
           "election_question"]

#: The glossary terms (:data:`dpcore.lessons.glossary.TERMS`) the page's words use, checked against the page as
#: drawn by tests/app/test_plain_words.py
GLOSSARY = ("audit", "bias", "clipping", "differential privacy (DP)", "exponential mechanism", "group privacy",
            "k (the letter)", "Laplace mechanism", "median", "Monte Carlo trials", "neighbouring datasets",
            "percentile", "permute-and-flip", "pure and approximate DP", "report-noisy-max", "score",
            "semidefinite program (SDP)", "sensitivity (Δ)", "standard deviation (sd)", "truncation",
            "user-level privacy", "ε (epsilon)")

# --------------------------------------------------------------------------------------- the page's grids

VOTES = (15.0, 19.0, 20.0)  #: the election of Kamath's slides: the votes of A, B, C
CANDIDATES = ("A", "B", "C")
ELECTION_DRAWS = 1000  #: simulated announcements (election) and private medians (one run)
ELECTION_EPSILONS = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0)  #: frames of "selection probabilities as ε grows"

CANDIDATE_COUNTS = (2, 5, 10, 30, 100, 300, 1000)  #: k, the x axis of "the price of choosing among k candidates"
SELECTION_EPSILONS = (0.3, 1.0, 3.0)

MEDIAN_N = (10, 30, 100, 300, 1000, 3000)
MEDIAN_EPSILONS = (0.1, 0.3, 1.0, 3.0, 10.0)
MEDIAN_LOCATION, MEDIAN_SD = 0.3, 0.1  #: the private-median data: N(0.3, 0.1²) clipped to the public [0, 1]

PER_USER = (1, 2, 5, 10, 20, 50, 100)  #: m, examples per user
USER_EPSILONS = (0.05, 0.1, 0.2, 0.5)  #: user-level ε, the frames of "choosing a threshold from 200 users"
USERS = 200
#: Values per piece of the user-level sweep (run_sweep's ``piece``): a trial holds users × m examples and users ×
#: (k + 1) error counts (k = 101 thresholds), so a piece has trials × users × (m + k + 1) at most this many. 2,000
#: trials at once took the worker to 2.4 GB; in these pieces about 350 MB at every m. The stored runs (200 trials, up
#: to m = 100) fit in one piece, so they keep their numbers.
USER_PIECE_VALUES = 200 * USERS * (PER_USER[-1] + GRID_SIZE + 1)
SAVINGS_ALPHA, SAVINGS_PER_USER = 0.05, 20  #: where the caption quotes the bound on the users clipping saves


class _IterativeSettings(TypedDict):
    """The settings of :data:`ITERATIVE_DEFAULTS`, by name."""

    n: int
    true_offset: tuple[float, float]
    epsilon: float
    buckets: int
    steps: int
    radius: float
    max_step: float


ITERATIVE_DEFAULTS = _IterativeSettings(n=2000, true_offset=(2.0, 1.0), epsilon=10.0, buckets=20, steps=3, radius=2.0,
                                        max_step=4.0)
r"""The page's defaults for :func:`~dpcore.estimators.sdp.iterative_mean_2d`: data :math:`\mathcal N(\mu, I_2)` with
:math:`\mu - \tilde\mu_1` = ``true_offset``."""
ITERATIVE_DEFAULT_ERROR = 0.5
r"""The stated error at ``ITERATIVE_DEFAULTS``: :math:`\|\hat\mu - \mu\| \le 0.5` in about 90% of runs (from 2.24 at the
start). Calibrated over 32 seeds (SCS, 2-core VM, ≈6 s a run): median 0.14, 90th percentile 0.46–0.49 (two batches
of 16), max 2.08; the failures are bad direction draws. At ε = 5 the median is 0.87; at ε = 1 the estimate is no
better than the start (median 2.4 over 8 seeds): the scores range over :math:`B = 20`, so the total :math:`\varepsilon`
must be several units for :math:`2T` mechanisms."""


@validated(n_values=Array(ndim=(1,), low=1), epsilons=Array(ndim=(1,), low=0, low_open=True),
           trials=TRIALS, seed=SEED, q=Real(0, 1), lower=Real(), upper=Real())
def quantile_error_sweep(n_values, epsilons, trials: int, seed: int, q: float = 0.5, lower: float = 0.0,
                         upper: float = 1.0) -> SweepResult:
    r"""|error| of :func:`private_quantile` and of the sample quantile over :math:`n \times \varepsilon`.

    Data :math:`\mathcal N(0.3, 0.1^2)` clipped to :math:`[0, 1]`; the target is the population
    :math:`q`-quantile of that law, ``clip(norm.ppf(q, 0.3, 0.1), 0, 1)``. Runs
    :func:`dpcore.experiments.run_sweep` with data axis ``n`` (common random numbers across
    :math:`\varepsilon` and methods). Each private release is :math:`\varepsilon`-DP (replace-one) with public
    range ``[lower, upper]`` (Smith 2011's exact continuous exponential mechanism).

    Returns
    -------
    SweepResult
        Axes ``("n", "epsilon")``; methods ``"exponential_mechanism"``, ``"non_private"``.
    """
    if not upper > lower:
        raise InvalidParameterError(f"upper must be greater than lower={lower:g}; got {upper!r}")
    target = float(np.clip(stats.norm.ppf(q, MEDIAN_LOCATION, MEDIAN_SD), 0.0, 1.0))

    def sample(params: dict, count: int, rng: np.random.Generator) -> np.ndarray:
        return np.clip(rng.normal(MEDIAN_LOCATION, MEDIAN_SD, (count, params["n"])), 0.0, 1.0)

    estimators = {
        "exponential_mechanism": lambda x, p, rng: np.abs(private_quantile(x, q, p["epsilon"], lower, upper, rng)
                                                          - target),
        "non_private": lambda x, p, rng: np.abs(np.quantile(x, q, axis=1) - target),
    }
    grid: dict[str, Sequence[float]] = {"n": [int(n) for n in n_values], "epsilon": [float(e) for e in epsilons]}
    return run_sweep(sample, estimators, grid, data_parameters=("n",), trials=trials, seed=seed)


SELECTION_METHODS = ("exponential_mechanism", "report_noisy_max", "permute_and_flip")  #: the selectors' method ids


@validated(candidate_counts=Array(ndim=(1,), low=1), epsilons=Array(ndim=(1,), low=0, low_open=True),
           draws=TRIALS, seed=SEED, design=Choice(("random", "one good", "adversarial")), gap=POSITIVE)
def selection_loss_sweep(candidate_counts, epsilons, draws: int, seed: int, design: str = "random",
                         gap: float = 50.0) -> SweepResult:
    r"""Score loss :math:`\mathrm{OPT} - u(\hat h)` of three :math:`\varepsilon`-DP selectors versus the number k.

    For each :math:`k` one public score vector is drawn (data axis ``k``): ``design="random"`` gives i.i.d.
    integer scores uniform on :math:`\{0, \dots, \lfloor g\rfloor\}` (docs/algorithms.md §5.6.2 with :math:`g = 50`);
    ``"one good"`` gives :math:`k - 1` candidates at 0 and one at :math:`g` = ``gap`` (docs/algorithms.md §5.2, "many
    mediocre vs one good": :math:`P(\text{best}) = e^{\varepsilon g/2}/(e^{\varepsilon g/2} + k - 1)` for the EM);
    ``"adversarial"`` is "one good" with the gap :math:`g = (2/\varepsilon)\ln k` that makes the good candidate
    exactly as likely as all the others together, so the EM's expected loss is
    :math:`g(k-1)/(2k-1) \approx \ln k/\varepsilon`: the :math:`\ln k` price made visible (``gap`` unused). Each
    selector then runs ``draws`` times on it (sensitivity 1, standard convention): the exponential mechanism
    (Gumbel-max), report-noisy-max (Laplace scale :math:`2/\varepsilon`) and :func:`permute_and_flip` (McKenna &
    Sheldon 2020), all :math:`\varepsilon`-DP per draw. Compare with
    :func:`dpcore.theory.exponential_mechanism_loss_bound`, :math:`\tfrac{2}{\varepsilon}(\ln k + t)`.

    Returns
    -------
    SweepResult
        Axes ``("k", "epsilon")``; methods :data:`SELECTION_METHODS`; ``errors`` are the per-draw losses.
    """
    if np.any(candidate_counts != np.round(candidate_counts)):
        raise InvalidParameterError(f"candidate_counts must hold integers; got {candidate_counts}")

    def sample(params: dict, count: int, rng: np.random.Generator) -> np.ndarray:
        if design == "random":
            return rng.integers(0, math.floor(gap) + 1, params["k"]).astype(float)
        return np.r_[gap, np.zeros(params["k"] - 1)]

    def scores(u: np.ndarray, params: dict) -> np.ndarray:
        if design != "adversarial":
            return u
        return np.r_[2.0 * math.log(params["k"]) / params["epsilon"], u[1:]]

    selectors = {
        "exponential_mechanism": lambda u, e, rng, count: mechanisms.exponential(u, e, rng=rng, size=count,
                                                                                 method="gumbel"),
        "report_noisy_max": lambda u, e, rng, count: mechanisms.report_noisy_max(u, e, rng=rng, size=count),
        "permute_and_flip": lambda u, e, rng, count: permute_and_flip(u, e, rng=rng, size=count),
    }

    def loss_of(select):
        def losses(u: np.ndarray, p: dict, rng: np.random.Generator) -> np.ndarray:
            u = scores(u, p)
            return u.max() - u[select(u, p["epsilon"], rng, draws)]
        return losses

    grid: dict[str, Sequence[float]] = {"k": [int(k) for k in candidate_counts],
                                        "epsilon": [float(e) for e in epsilons]}
    return run_sweep(sample, {name: loss_of(selectors[name]) for name in SELECTION_METHODS}, grid,
                     data_parameters=("k",), trials=draws, seed=seed)


#: Method id -> (loss of :func:`select_threshold`, one example per user).
USER_SWEEP_METHODS = {"user_level_clipped": ("clipped", False), "group_privacy": ("group", False),
                      "one_per_user": ("clipped", True)}


def _threshold_sample(params: dict, trials: int, rng: np.random.Generator):
    return threshold_data(params["users"], params["per_user"], rng=rng, trials=trials)


@validated(per_user_values=Array(ndim=(1,), low=1), users=Array(ndim=(0, 1), low=1), epsilon=POSITIVE,
           trials=Integer(low=1), seed=SEED)
def user_level_sweep(per_user_values, users, epsilon: float, trials: int, seed: int) -> SweepResult:
    r""":math:`|\hat t - \theta^*|` of the clipped, group-privacy and one-example-per-user EMs over m (and users).

    Runs :func:`dpcore.experiments.run_sweep` with data axes ``("per_user", "users")``: every method sees the
    same datasets (common random numbers), one vectorised :func:`select_threshold` call per grid point and piece of
    at most :data:`USER_PIECE_VALUES` examples and error counts (a run with no more trials than one piece is the
    same without).
    Each method is :math:`\varepsilon`-user-level DP (Ghazi et al. 2023, §4). ``users`` may be one number (the
    "error vs m" figure) or several (read off "users needed vs m" as the smallest ``users`` whose error quantile is
    below α).

    Returns
    -------
    SweepResult
        Axes ``("per_user", "users")``; methods :data:`USER_SWEEP_METHODS` (ids).
    """
    levels = {"per_user": per_user_values, "users": np.atleast_1d(users)}
    for name, values in levels.items():
        if np.any(values != np.round(values)):
            raise InvalidParameterError(f"{'users' if name == 'users' else 'per_user_values'} must hold integers; "
                                        f"got {values.tolist()}")

    def estimator(kind: str, one_per_user: bool):
        def error(data, params, rng):
            x, y = data
            selected = select_threshold(x, y, epsilon, kind, rng=rng, one_per_user=one_per_user)
            return np.round(np.abs(selected - THRESHOLD), 12)  # grid steps, without float dust (0.020000000000000018)
        return error

    grid = {name: [int(v) for v in values] for name, values in levels.items()}
    return run_sweep(_threshold_sample, {name: estimator(*spec) for name, spec in USER_SWEEP_METHODS.items()}, grid,
                     data_parameters=("per_user", "users"), trials=trials, seed=seed,
                     piece=user_level_piece)


@validated(params=InstanceOf(dict, "a grid point's parameters, users and per_user"))
def user_level_piece(params: dict) -> int:
    r"""Trials per piece of :func:`user_level_sweep` at ``params`` (``users``, ``per_user``): the most trials whose
    :math:`\text{users}\,(m + k + 1)` values each fit in :data:`USER_PIECE_VALUES` (one at least).

    >>> user_level_piece({"users": 200, "per_user": 100}), user_level_piece({"users": 200, "per_user": 1})
    (200, 392)
    """
    return max(1, USER_PIECE_VALUES // (params["users"] * (params["per_user"] + GRID_SIZE + 1)))


# --------------------------------------------------------------------------------------- the page's sweeps

@validated(trials=Integer(low=1, high=10_000), seed=SEED)
def loss_vs_k(trials: int, seed: int, run=run_now) -> SweepResult:
    r"""The page's selection sweep: :func:`selection_loss_sweep` over :data:`CANDIDATE_COUNTS` ×
    :data:`SELECTION_EPSILONS`, adversarial design (one candidate :math:`(2/\varepsilon)\ln k` ahead), ``10 × trials``
    draws per point (one draw is cheap)."""
    return run(selection_loss_sweep, candidate_counts=list(CANDIDATE_COUNTS), epsilons=list(SELECTION_EPSILONS),
               draws=10 * trials, seed=seed, design="adversarial")


@validated(epsilon=EPSILON)
def loss_theory(epsilon: float) -> dict[str, np.ndarray]:
    r"""The selection figure's companions at ``epsilon``: the exponential mechanism's exact expected loss on the
    adversarial design, :math:`g(k-1)/(2k-1)` with :math:`g = (2/\varepsilon)\ln k`, and the 90 % bound
    :math:`(2/\varepsilon)(\ln k + \ln 10)` of :func:`dpcore.theory.exponential_mechanism_loss_bound`.

    >>> curves = loss_theory(1.0)
    >>> round(float(curves["exact"][0]), 4), round(float(curves["bound"][0]), 4)  # k = 2: (2 ln 2)/3, 2 ln 20
    (0.4621, 5.9915)
    """
    k = np.array(CANDIDATE_COUNTS, dtype=float)
    gap = 2 * np.log(k) / epsilon
    return {"k": k, "exact": gap * (k - 1) / (2 * k - 1),
            "bound": theory.exponential_mechanism_loss_bound(k, epsilon, t=math.log(10))}


@validated(trials=TRIALS, seed=SEED)
def median_vs_n(trials: int, seed: int, run=run_now) -> SweepResult:
    """The page's private-median sweep: :func:`quantile_error_sweep` over :data:`MEDIAN_N` × :data:`MEDIAN_EPSILONS`."""
    return run(quantile_error_sweep, n_values=list(MEDIAN_N), epsilons=list(MEDIAN_EPSILONS), trials=trials, seed=seed)


@validated(epsilon=EPSILON)
def median_theory(epsilon: float) -> dict[str, np.ndarray]:
    r"""The private-median figure's companions at ``epsilon``, over :data:`MEDIAN_N`.

    ``"private"``: the exponential mechanism's median rank loss :math:`(2/\varepsilon)(\ln(n+1) + \ln 2)` turned into
    a distance by the density :math:`f(\mathrm{median}) = 1/(\sigma\sqrt{2\pi})` of the data, divided by :math:`n`;
    ``"non_private"``: the sample median's median error :math:`z_{3/4}\,\sigma\sqrt{\pi/2}/\sqrt n` (its standard
    deviation :math:`\sigma\sqrt{\pi/2n}` times the half-normal median).
    """
    n = np.array(MEDIAN_N, dtype=float)
    density_at_median = 1.0 / (MEDIAN_SD * math.sqrt(2.0 * math.pi))
    rank_loss = theory.exponential_mechanism_loss_bound(n + 1, epsilon, t=math.log(2))  # median-level t
    return {"n": n, "private": rank_loss / (n * density_at_median),
            "non_private": theory.HALF_NORMAL_MEDIAN * math.sqrt(math.pi / 2) * MEDIAN_SD / np.sqrt(n)}


@validated(epsilon=POSITIVE, trials=TRIALS, seed=SEED)
def user_level_vs_m(epsilon: float, trials: int, seed: int, run=run_now) -> SweepResult:
    """The page's user-level sweep at one user-level ``epsilon``: :func:`user_level_sweep` over :data:`PER_USER`
    with :data:`USERS` users."""
    return run(user_level_sweep, per_user_values=list(PER_USER), users=USERS, epsilon=epsilon, trials=trials,
               seed=seed)


# --------------------------------------------------------------------------------------- one run

@validated(epsilon=EPSILON)
def election_probabilities(epsilon: float) -> dict[str, np.ndarray]:
    r"""The exact probabilities of the election of Kamath's slides (:data:`VOTES`, sensitivity 1) at ``epsilon``, under
    both conventions: ``"standard"`` :math:`\propto \exp(\varepsilon u/2)` (ε-DP for any score) and ``"monotone"``
    :math:`\propto \exp(\varepsilon u)` (ε-DP because vote counts under add/remove-one voter are monotone).

    >>> [round(float(p), 2) for p in election_probabilities(0.1)["monotone"]]  # the slides' 24 % / 36 % / 40 %
    [0.24, 0.36, 0.4]
    """
    votes = np.array(VOTES)
    return {"standard": mechanisms.exponential_probabilities(votes, epsilon, monotonic=False),
            "monotone": mechanisms.exponential_probabilities(votes, epsilon, monotonic=True)}


@validated(epsilon=EPSILON, seed=SEED)
def election(epsilon: float, seed: int) -> dict[str, np.ndarray]:
    r"""The election of Kamath's slides at ``epsilon``: :func:`election_probabilities` and ``"sampled"``, the
    frequencies of :data:`ELECTION_DRAWS` draws of the standard mechanism (seed ``seed``).

    >>> round(float(election(0.1, 0)["sampled"].sum()), 6)
    1.0
    """
    votes = np.array(VOTES)
    draws = mechanisms.exponential(votes, epsilon, rng=seed, size=ELECTION_DRAWS)
    return {**election_probabilities(epsilon), "sampled": np.bincount(draws, minlength=votes.size) / ELECTION_DRAWS}


@validated(n=Integer(low=1), epsilon=EPSILON, seed=SEED)
def median_run(n: int, epsilon: float, seed: int) -> MappingProxyType:
    r"""One dataset of ``n`` points (:math:`\mathcal N(0.3, 0.1^2)` clipped to [0, 1]), the exact law of its private
    median (:func:`dpcore.mechanisms.quantile_density`: ``edges``, rank ``scores``, ``density``), and
    :data:`ELECTION_DRAWS` private medians (``draws``) with their histogram (``centres``, ``histogram``: 40 bins over
    the draws' central 99 %, as a density). Data and draws come from two child streams of ``seed``.

    >>> run = median_run(100, 10.0, 0)
    >>> bool(abs(run["sample_median"] - 0.3) < 0.05), run["draws"].shape
    (True, (1000,))
    """
    return _median_run(n, epsilon, seed)


@functools.lru_cache(maxsize=16)
def _median_run(n: int, epsilon: float, seed: int) -> MappingProxyType:
    """:func:`median_run`, computed once per setting for the page's two figures and its note (read-only arrays)."""
    data_rng, draw_rng = np.random.default_rng(seed).spawn(2)
    x = np.clip(MEDIAN_LOCATION + MEDIAN_SD * data_rng.standard_normal(n), 0.0, 1.0)
    law = mechanisms.quantile_density(x, 0.5, epsilon, 0.0, 1.0)
    draws = mechanisms.private_quantile(np.broadcast_to(x, (ELECTION_DRAWS, n)), 0.5, epsilon, 0.0, 1.0, draw_rng)
    # Bins over the draws' own central range, fine enough to resolve the density's peak at large ε.
    counts, edges = np.histogram(draws, bins=40, range=tuple(np.quantile(draws, [0.005, 0.995])))
    run = {"edges": law["edges"], "scores": law["scores"], "density": law["density"], "draws": draws,
           "centres": (edges[:-1] + edges[1:]) / 2, "histogram": counts / (ELECTION_DRAWS * (edges[1] - edges[0])),
           "sample_median": float(np.median(x))}
    for value in run.values():
        if isinstance(value, np.ndarray):
            value.setflags(write=False)
    return MappingProxyType(run)


@functools.lru_cache(maxsize=8)
def _sum_of_squares(seed: int) -> dict:
    defaults = ITERATIVE_DEFAULTS
    data_rng, mechanism_rng = np.random.default_rng(seed).spawn(2)
    true_mean = np.asarray(defaults["true_offset"])
    points = true_mean + data_rng.standard_normal((defaults["n"], 2))
    result = sdp.iterative_mean_2d(points, defaults["epsilon"], buckets=defaults["buckets"], steps=defaults["steps"],
                                   radius=defaults["radius"], max_step=defaults["max_step"], rng=mechanism_rng)
    means = sdp.bucket_means(points, defaults["buckets"])
    return {"bucket_means": means, "true_mean": true_mean, "result": result,
            "grid": sdp.polar_score_grid(means, result.trajectory[0], defaults["radius"]),
            "error": float(np.linalg.norm(result.estimate - true_mean))}


@validated(seed=SEED)
def sum_of_squares(seed: int) -> dict:
    r"""The iterative estimator of docs/algorithms.md §5.4 (c) at :data:`ITERATIVE_DEFAULTS` (a teaching substitute for
    Hopkins, Kamath & Majid's (2022) sum-of-squares exponential mechanism, :math:`\varepsilon`-DP by basic composition).

    Returns ``bucket_means``, ``true_mean``, ``result`` (the :class:`~dpcore.estimators.sdp.IterativeResult`),
    ``grid`` (the polar cells of round 1, :func:`~dpcore.estimators.sdp.polar_score_grid`) and ``error``
    :math:`\|\hat\mu - \mu\|`. Solving ≈ 360 SDPs takes a few seconds, so results are kept (8 seeds).
    """
    return _sum_of_squares(seed)


# --------------------------------------------------------------------------------------- computed text

@validated(alpha=Real(0, 1, low_open=True, high_open=True), per_user=Integer(low=1))
def savings_note(alpha: float = SAVINGS_ALPHA, per_user: int = SAVINGS_PER_USER) -> str:
    """The user-level figure's caption: the bound on how many times fewer users clipping needs.

    >>> "12.83× at α = 0.05, m = 20" in savings_note()
    True
    """
    return (f"Bound (Ghazi et al. 2023): clipping needs about (1 − (1 − α)ᵐ)/α fewer users than group privacy — "
            f"{savings_factor(alpha, per_user):.2f}× at α = {alpha:g}, m = {per_user}. The simulation shows the "
            "direction; the bound is conservative.")


@validated(n=Integer(low=1), epsilon=EPSILON, seed=SEED)
def median_note(n: int, epsilon: float, seed: int) -> str:
    """The one-run caption: the sample median and the mean and spread of the private medians of :func:`median_run`."""
    run = median_run(n, epsilon, seed)
    return (f"Sample median {run['sample_median']:.4f}; the {ELECTION_DRAWS:,} private medians have mean "
            f"{run['draws'].mean():.4f} and standard deviation {run['draws'].std():.4f}.")


@validated(seed=SEED)
def sdp_note(seed: int) -> str:
    """The sum-of-squares caption: the error after the last round against the stated error, and the guarantee."""
    run = sum_of_squares(seed)
    return (f"Error after {len(run['result'].steps)} rounds: {run['error']:.2f} (stated: ≤ "
            f"{ITERATIVE_DEFAULT_ERROR:g} in about 90 % of runs at n = {ITERATIVE_DEFAULTS['n']:,}). "
            f"{run['result'].guarantee}")


@validated(epsilon=EPSILON, n=Integer(low=1), trials=TRIALS, seed=SEED, monte_carlo_seed=SEED,
           revealed=Choice((False, True)))
def takeaways(epsilon: float, n: int, trials: int, seed: int, run=run_now, monte_carlo_seed: int | None = None,
              revealed: bool = True) -> list[str]:
    """What to notice at the page's controls: the leader's probability in the election (both conventions and the
    draws), the ln k growth of the selection loss, clipping against group privacy at the largest m, and the spread
    of the private median (each quoted at the frame nearest to ``epsilon``).
    ``seed`` draws the one run; ``monte_carlo_seed`` (default ``seed``) the sweeps, so a page can redraw one without
    recomputing the other. Before the student's guess (``revealed`` false) the election's line, the answer of
    :func:`election_question`, says only that it comes after the guess."""
    frame_epsilon = nearest(SELECTION_EPSILONS, epsilon)
    sweep_seed = seed if monte_carlo_seed is None else monte_carlo_seed
    loss = loss_vs_k(trials, sweep_seed, run=run)
    em_loss = loss.curve("exponential_mechanism", "k", epsilon=frame_epsilon)["mean"]
    pf_loss = loss.curve("permute_and_flip", "k", epsilon=frame_epsilon)["mean"]
    user_epsilon = nearest(USER_EPSILONS, epsilon)
    users = user_level_vs_m(user_epsilon, trials, sweep_seed, run=run)
    clipped = users.curve("user_level_clipped", "per_user")["mean"]
    group = users.curve("group_privacy", "per_user")["mean"]
    median = median_run(n, epsilon, seed)
    return [
        _election_takeaway(epsilon, seed) if revealed else
        f"How often the leader C is announced at ε = {epsilon:g}, exactly and in {ELECTION_DRAWS:,} draws, appears "
        f"{HELD_BACK} (Predict first, above).",
        f"Going from k = {CANDIDATE_COUNTS[0]} to k = {CANDIDATE_COUNTS[-1]:,} candidates (ε = {frame_epsilon:g}) the "
        f"exponential mechanism's mean loss grows from {em_loss[0]:.2f} to {em_loss[-1]:.2f} — like ln k, not k; "
        f"permute-and-flip loses {pf_loss[-1]:.2f} at k = {CANDIDATE_COUNTS[-1]:,}.",
        f"With m = {PER_USER[-1]} examples per user (ε = {user_epsilon:g}), clipping each user's score gives mean "
        f"error {clipped[-1]:.3f} against {group[-1]:.3f} for group privacy: bounding each user's influence beats "
        "paying for it.",
        f"The private median's {ELECTION_DRAWS:,} draws spread {median['draws'].std():.3f} around the sample median "
        f"{median['sample_median']:.3f} at n = {n}, ε = {epsilon:g}.",
    ]


def _election_takeaway(epsilon: float, seed: int) -> str:
    """The election's line of :func:`takeaways`: the answer of :func:`election_question`, with the draws."""
    votes = election(epsilon, seed)
    return (f"At ε = {epsilon:g} the leader C is announced with probability {votes['standard'][2]:.3f} with the "
            f"factor 2 and {votes['monotone'][2]:.3f} without it; {ELECTION_DRAWS:,} draws gave "
            f"{votes['sampled'][2]:.3f}. As ε → 0 every candidate tends to 1/3: privacy hides who won.")


@validated(epsilon=EPSILON)
def election_question(epsilon: float) -> Question:
    r"""Predict, then reveal (before the election's bars): how often the exponential mechanism (factor 2) announces
    C, the true winner of :data:`VOTES`, at ``epsilon``; the answer is :func:`election_probabilities`.

    >>> question = election_question(0.1)
    >>> question.choices[question.answer]
    'Less than 40 % of the time: close to a fair three-sided die'
    """
    probability = float(election_probabilities(epsilon)["standard"][-1])
    weights = ", ".join(f"{name}: e{superscript(epsilon * votes / 2, '.3g')}" for name, votes in zip(CANDIDATES, VOTES))
    return Question(
        key="election",
        prompt=(f"Votes: A {VOTES[0]:g}, B {VOTES[1]:g}, C {VOTES[2]:g}. The exponential mechanism announces a "
                f"winner with probability ∝ exp(ε·votes/2) at ε = {epsilon:g}. How often does it announce C, the "
                "true winner?"),
        choices=("Less than 40 % of the time: close to a fair three-sided die", "40 % to 60 % of the time",
                 "60 % to 90 % of the time", "More than 90 % of the time"),
        answer=bucket(probability, (0.4, 0.6, 0.9)),
        explanation=(f"The weights are {weights}; C's share of their sum is {100 * probability:.1f} %. One voter "
                     "changes any candidate's votes by at most 1, which changes each weight by at most "
                     "×$e^{\\varepsilon/2}$: that is what makes the announcement ε-DP, and why a lead of one vote buys "
                     "so little at small ε."))
