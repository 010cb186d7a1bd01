r"""Lesson "Truncation bias": clip to bound the sensitivity, pay in bias, and take the bias back.

A clipped mean needs noise of scale :math:`2t/(\varepsilon n)` for a window of radius :math:`t`, and clipping moves
the mean by a bias :math:`b(t)`; with a bounded :math:`k`-th moment the best window gives the error
:math:`n^{-1/2} + (\varepsilon n)^{-(k-1)/k}`, and no private algorithm does better (Kamath, Singhal & Ullman 2020,
Thms 3.5 and 3.8). Truncated maximum likelihood takes the bias back (Zampetakis & Zhou 2025).

This module holds the page's grids and constants, its one-run computations (one sample, its window, the exact
bias–noise tradeoff), its two sweeps (error versus n over the moment order k; the bias corrections versus n over ε)
with their theory companions, the measured slope and the takeaways. The estimators live in
:mod:`dpcore.estimators.heavy_tailed_mean` and :mod:`dpcore.estimators.truncated_mle`. Sweeps name their methods by
the ids of :mod:`dpcore.lessons.methods`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .. import mechanisms, theory
from ..core import validation
from ..core.validation import (
    EPSILON,
    POSITIVE,
    SEED,
    Array,
    Choice,
    InstanceOf,
    Integer,
    InvalidParameterError,
    Real,
    validated,
)
from ..distributions import heavy_tailed as distributions
from ..estimators.heavy_tailed_mean import clipped_laplace_mean, private_mean_1d
from ..estimators.truncated_mle import (
    naive_truncated_mean,
    target_size,
    truncated_dpgd_mean,
    truncated_mean_map,
    truncated_mle_mean,
)
from ..experiments import SweepResult, fit_power_law, run_now, run_sweep, trials_for_budget
from .plain_words import superscript
from .questions import HELD_BACK, Question, bucket

__all__ = ["FAMILIES", "FAMILY_NAMES", "MOMENT_NAMES", "GLOSSARY", "MOMENT_ORDERS", "MOMENTS", "N_GRID", "MEAN_RANGE",
           "BIAS_N_GRID", "BIAS_EPSILONS",
           "TRUE_MEAN", "WARM_START", "SURVIVAL_RADIUS", "DELTA", "TRUNCATED_MEAN", "SWEEP_BUDGET",
           "TRADEOFF_RADIUS_MAX", "SWEEP_METHODS",
           "BIAS_CORRECTION_METHODS", "OneRun", "moment_order", "law", "sweep_budget", "bias_frame", "one_run",
           "window_caption", "bias_noise_tradeoff", "error_sweep", "error_vs_n", "rate_companions", "theory_slope",
           "private_slope", "slope_note", "bias_correction_sweep", "bias_correction", "bias_companions", "takeaways",
           "radius_question"]

#: The glossary terms (:data:`dpcore.lessons.glossary.TERMS`) the page's words use, checked against the page as
#: drawn by tests/app/test_plain_words.py
GLOSSARY = ("bias", "clipping", "composition", "differential privacy (DP)", "expected value (E)",
            "exponential mechanism", "Gaussian differential privacy (μ-GDP)", "Gaussian mechanism", "gradient descent",
            "heavy tails", "k (the letter)", "Laplace mechanism", "log–log plot", "Lomax (Pareto II)",
            "maximum likelihood estimate (MLE)", "mean squared error (MSE)", "median", "moment", "moment matching",
            "Monte Carlo trials", "neighbouring datasets", "parallel composition", "percentile", "post-processing",
            "pure and approximate DP", "sensitivity (Δ)", "standard deviation (sd)", "Student's t", "survival set",
            "truncation", "two-point law", "warm start", "zCDP (ρ)", "δ (delta)", "ε (epsilon)")

FAMILIES = distributions.FAMILIES  #: the distributions the page offers
#: What the page calls each family (the URL and the library keep the ids of :data:`FAMILIES`)
FAMILY_NAMES = {"lomax": "Lomax (Pareto II)", "two-point": "two-point law", "student-t": "Student's t",
                "gaussian": "Gaussian"}
MOMENT_ORDERS = (2.0, 2.5, 3.0, 4.0, 6.0, 10.0, math.inf)  #: the moment orders k of the page (inf: the Gaussian)
MOMENTS = tuple(f"{k:g}" for k in MOMENT_ORDERS)  #: the same, as the page's control labels them ("2" … "inf")
MOMENT_NAMES = {"inf": "∞ (Gaussian)"}  #: how the control shows the moment orders that are not plain numbers
N_GRID = (100, 300, 1000, 3000, 10_000, 30_000, 100_000)  #: n of the error-vs-n sweep
MEAN_RANGE = 1000.0  #: public bound R on |μ|: the naive window is [−R, R]
BIAS_N_GRID = (1000, 2000, 4000, 8000, 16_000, 32_000)  #: n of the bias-correction sweep
#: Draws per piece of the bias-correction sweep (run_sweep's ``piece``: trials × n at most this): all 2,000 trials of
#: n = 32,000 at once took the worker to 2.6 GB; a piece is 250 trials there, and the stored 200-trial runs are one.
BIAS_PIECE_DRAWS = 8_000_000
BIAS_EPSILONS = (0.25, 0.5, 1.0, 2.0, 4.0)  #: ε frames of the bias-correction sweep
TRUE_MEAN, WARM_START, SURVIVAL_RADIUS, DELTA = 0.8, 0.0, 1.5, 1e-6  #: docs/algorithms.md §1.7, the 1-D instance
#: What the naive private truncated mean estimates: :math:`\mathbb E_{\mu^*,S}[z]`, 0.42 (not μ* = 0.8)
TRUNCATED_MEAN = truncated_mean_map(TRUE_MEAN, WARM_START, SURVIVAL_RADIUS)
SWEEP_BUDGET = 400_000  #: random draws per grid point at 200 trials: many trials at small n, at least 20 at large n
TRADEOFF_RADIUS_MAX = 100.0  #: the widest radius of the bias–noise tradeoff

#: The estimators of the error-vs-n sweep, by method id (see :func:`error_sweep`).
SWEEP_METHODS = ("non_private", "ksu20", "naive_window", "private_part")

#: The estimators compared by the bias-correction sweep, by method id.
BIAS_CORRECTION_METHODS = {
    "naive_truncated_mean": naive_truncated_mean,
    "truncated_mle_moments": truncated_mle_mean,
    "truncated_mle_dpgd": truncated_dpgd_mean,
}

_MOMENT = Choice(MOMENTS)
_MOMENT_K = Choice(MOMENT_ORDERS)
_FAMILY = Choice(FAMILIES)
_TRIALS = Integer(low=2, high=100_000)
_N = Integer(low=10)


# --------------------------------------------------------------------------------------- page constants
@validated(moment=_MOMENT)
def moment_order(moment: str) -> float:
    """The moment order k of the label ``moment`` ("inf" is ``math.inf``).

    >>> moment_order("2.5"), moment_order("inf")
    (2.5, inf)
    """
    return math.inf if moment == "inf" else float(moment)


@validated(family=_FAMILY, moment_k=_MOMENT_K)
def law(family: str, moment_k: float) -> distributions.HeavyTailed:
    """The page's distribution: ``family`` with :math:`\\mathbb E|X-\\mu|^k = 1`, mean 0; only the Gaussian has every
    moment, so k = inf always means the Gaussian.

    >>> law("lomax", float("inf")).family
    'gaussian'
    """
    return _sweep_law(family, moment_k)


def _sweep_law(family: str, moment_k: float) -> distributions.HeavyTailed:
    return distributions.heavy_tailed("gaussian" if math.isinf(moment_k) else family, moment_k)


@validated(trials=Integer(low=1))
def sweep_budget(trials: int) -> int:
    """Random draws per grid point of :func:`error_vs_n` for ``trials`` (the page's trials control):
    :data:`SWEEP_BUDGET` at 200, in proportion otherwise.

    >>> sweep_budget(200), sweep_budget(20)
    (400000, 40000)
    """
    return SWEEP_BUDGET * trials // 200


@validated(epsilon=EPSILON)
def bias_frame(epsilon: float) -> float:
    """The frame of :data:`BIAS_EPSILONS` nearest to ``epsilon`` on a log scale.

    >>> bias_frame(0.7), bias_frame(5.0)
    (0.5, 4.0)
    """
    return min(BIAS_EPSILONS, key=lambda frame: abs(math.log(frame / epsilon)))


# --------------------------------------------------------------------------------------- one run
@dataclass(frozen=True)
class OneRun:
    """One sample clipped to the window μ ± t and released with the clipped Laplace mean.

    Attributes
    ----------
    sample : numpy.ndarray
        The n draws.
    low, high : float
        The window μ − t, μ + t.
    means : dict of str to float
        "true mean", "clipped mean" (not private) and "private estimate".
    clipped_fraction : float
        Share of the sample outside the window.
    bias : float
        The exact clipping bias :math:`b(t) = \\mathbb E\\,\\mathrm{clip}(X) - \\mu`.
    noise_sd : float
        The Laplace noise's standard deviation :math:`\\sqrt2 \\cdot 2t/(\\varepsilon n)`.
    title : str
        "family, k = …, n = …, ε = …".
    """

    sample: np.ndarray
    low: float
    high: float
    means: dict
    clipped_fraction: float
    bias: float
    noise_sd: float
    title: str


_ONE_RUN = dict(family=_FAMILY, moment_k=_MOMENT_K, n=_N, radius=POSITIVE, epsilon=EPSILON, seed=SEED)


@validated(**_ONE_RUN)
def one_run(family: str, moment_k: float, n: int, radius: float, epsilon: float, seed: int) -> OneRun:
    r"""One sample of :func:`law` ``(family, moment_k)`` and its clipped Laplace mean (docs/algorithms.md §1.3,
    :func:`~dpcore.estimators.heavy_tailed_mean.clipped_laplace_mean`) with the window :math:`\mu \pm t` centred on the
    true mean, as if the private range step had found it exactly: :math:`\varepsilon`-DP for this public window.

    Sample and noise come from two child streams of ``seed``.

    >>> run = one_run("lomax", 3, 10_000, 2.0, 1.0, 0)
    >>> run.sample.size, run.low, run.high
    (10000, -2.0, 2.0)
    """
    dist = law(family, moment_k)
    sample_rng, noise_rng = np.random.default_rng(seed).spawn(2)
    sample = dist.sample(n, sample_rng)
    low, high = dist.mean - radius, dist.mean + radius
    released = clipped_laplace_mean(sample, epsilon, low, high, noise_rng)
    means = {"true mean": dist.mean, "clipped mean": float(np.clip(sample, low, high).mean()),
             "private estimate": float(released.estimate)}
    return OneRun(sample, low, high, means, float(released.clipped_fraction),
                  float(dist.clipping_bias(dist.mean, radius)), math.sqrt(2) * float(released.noise_scale),
                  f"{FAMILY_NAMES[dist.family]}, k = {'∞' if math.isinf(moment_k) else f'{moment_k:g}'}, "
                  f"n = {sample.size:,}, ε = {epsilon:g}")


@validated(family=_FAMILY, moment_k=_MOMENT_K, n=_N, epsilon=EPSILON)
def bias_noise_tradeoff(family: str, moment_k: float, n: int, epsilon: float) -> dict[str, np.ndarray | float]:
    r"""The exact squared-error terms of the clipped Laplace mean over window radii t (80 log-spaced, from
    :func:`~dpcore.distributions.heavy_tailed.bulk_radius` to :data:`TRADEOFF_RADIUS_MAX`), the bias bound of
    Kamath, Singhal & Ullman (2020, Lemma 3.1, tight form)
    :math:`A_k^2 t^{-2(k-1)}` (NaN for k = inf), and the best radius with its root MSE.

    Keys: ``radii``, ``bias_squared``, ``noise_variance``, ``sampling_variance``, ``mse``
    (:func:`~dpcore.distributions.heavy_tailed.bias_noise_curve`), ``bound``, ``best`` and ``best_rmse``
    (:func:`~dpcore.distributions.heavy_tailed.optimal_window`).

    >>> curve = bias_noise_tradeoff("lomax", 3, 10_000, 1.0)
    >>> round(curve["best"], 2)
    5.77
    """
    dist = law(family, moment_k)
    radii = np.geomspace(distributions.bulk_radius(dist.moment_k), TRADEOFF_RADIUS_MAX, 80)
    curve = distributions.bias_noise_curve(dist, n, epsilon, radii)
    best, best_mse = distributions.optimal_window(dist, n, epsilon, radii=radii)
    bound = (distributions.tail_bias_bound(dist.moment_k, radii) ** 2 if math.isfinite(dist.moment_k)
             else np.full(radii.size, np.nan))
    return {"radii": radii, **{key: curve[key] for key in ("bias_squared", "noise_variance", "sampling_variance",
                                                           "mse")},
            "bound": bound, "best": float(best), "best_rmse": math.sqrt(best_mse)}


@validated(**_ONE_RUN)
def window_caption(family: str, moment_k: float, n: int, radius: float, epsilon: float, seed: int) -> str:
    """The one-run caption: the share clipped, the bias and the noise at radius ``radius`` (the best radius is the
    answer of :func:`radius_question`, revealed with the trade-off figure).

    >>> window_caption("lomax", 3, 10_000, 2.0, 1.0, 0).split(":")[0]
    'Window radius t = 2'
    """
    run = one_run(family, moment_k, n, radius, epsilon, seed)
    return (f"Window radius t = {radius:g}: {100 * run.clipped_fraction:.2f} % of points clipped (counted "
            f"on the data without noise: not private), exact bias {run.bias:+.4f}, privacy noise sd "
            f"{run.noise_sd:.4f}.")


# --------------------------------------------------------------------------------------- error vs n
@validated(family=_FAMILY,
           moments=Array(ndim=(1,), low=1, low_open=True, finite=False), n_values=Array(ndim=(1,), low=10),
           epsilon=EPSILON, budget=Integer(low=1000), seed=SEED, mean_range=POSITIVE)
def error_sweep(family: str, moments, n_values, epsilon: float, budget: int, seed: int,
                mean_range: float = 1000.0) -> SweepResult:
    r"""|error| of the private means of heavy-tailed data over moment order k × n.

    Data: :func:`dpcore.distributions.heavy_tailed` ``(family, k)`` (the Gaussian for k = inf), mean 0,
    :math:`\mathbb E|X - \mu|^k = 1`. Methods, by id (all :math:`\varepsilon`-DP except the first):

    * ``"non_private"``: the sample mean;
    * ``"ksu20"``: :func:`~dpcore.estimators.heavy_tailed_mean.private_mean_1d` (Kamath, Singhal & Ullman 2020,
      Algorithms 1–2: private range, then clipped Laplace mean), knowing only :math:`|\mu| \le R` = ``mean_range``;
    * ``"naive_window"``: the Laplace mean with the worst-case window :math:`[-R, R]`;
    * ``"private_part"``: the clipped Laplace mean with the window :math:`\mu \pm t^*` (:math:`t^*` the bias–noise
      optimal radius for this distribution, :func:`dpcore.distributions.heavy_tailed.optimal_window`), measured as
      :math:`|\hat\mu - \overline{\mathrm{clip}(X)}| + |b(t^*)|`: the part of the error that privacy causes, whose
      log–log slope is :math:`-(k-1)/k` in the worst case over the class (Kamath, Singhal & Ullman 2020, Thm 3.5; lower
      bound Thm 3.8). Not an estimator: its window is centred on the unknown true mean.

    Trials per point: ``budget // n`` (at least 20, at most 1000) via
    :func:`dpcore.experiments.trials_for_budget`; common random numbers across methods.

    >>> result = error_sweep("lomax", [3.0], [1000], 1.0, 20_000, 0)
    >>> result.methods
    ('non_private', 'ksu20', 'naive_window', 'private_part')
    """
    if np.any(np.isnan(moments)):
        raise InvalidParameterError(f"moments must be real numbers > 1 or inf; got {moments.tolist()}")

    def sample(params: dict, count: int, rng: np.random.Generator) -> np.ndarray:
        return _sweep_law(family, params["moment_k"]).sample((count, params["n"]), rng)

    def private_part(x: np.ndarray, params: dict, rng: np.random.Generator) -> np.ndarray:
        dist = _sweep_law(family, params["moment_k"])
        radius, _ = distributions.optimal_window(dist, params["n"], params["epsilon"], include_sampling=False)
        low, high = dist.mean - radius, dist.mean + radius
        released = np.asarray(clipped_laplace_mean(x, params["epsilon"], low, high, rng).estimate)
        return np.abs(released - np.clip(x, low, high).mean(axis=1)) + abs(dist.clipping_bias(dist.mean, radius))

    def ksu20(x, params, rng):
        return np.abs(np.asarray(private_mean_1d(x, params["epsilon"], params["moment_k"], mean_range, rng).estimate))

    def naive(x, params, rng):
        return np.abs(np.asarray(clipped_laplace_mean(x, params["epsilon"], -mean_range, mean_range, rng).estimate))

    estimators = {"non_private": lambda x, params, rng: np.abs(x.mean(axis=1)), "ksu20": ksu20,
                  "naive_window": naive, "private_part": private_part}
    grid: dict[str, Sequence[float]] = {"moment_k": [float(k) for k in moments], "n": [int(n) for n in n_values],
                                        "epsilon": [float(epsilon)]}
    return run_sweep(sample, estimators, grid, data_parameters=("moment_k", "n"),
                     trials=trials_for_budget(budget, max_trials=1000, min_trials=20), seed=seed)


_SWEEP = dict(family=_FAMILY, epsilon=EPSILON, trials=_TRIALS, seed=SEED)


@validated(**_SWEEP)
def error_vs_n(family: str, epsilon: float, trials: int, seed: int, *, run=run_now) -> SweepResult:
    """The page's :func:`error_sweep`: every k of :data:`MOMENTS` × :data:`N_GRID`, :func:`sweep_budget` ``(trials)``
    draws per point, :data:`MEAN_RANGE`; run through ``run`` (the app passes its cached runner)."""
    return run(error_sweep, family=family, moments=list(MOMENT_ORDERS),
               n_values=list(N_GRID), epsilon=float(epsilon), budget=sweep_budget(trials), seed=seed,
               mean_range=MEAN_RANGE)


@validated(epsilon=EPSILON, moment_k=_MOMENT_K)
def rate_companions(epsilon: float, moment_k: float) -> dict[str, np.ndarray]:
    r"""Theory companions of one k frame over :data:`N_GRID` (constants omitted): ``"ksu20"`` the rate of Kamath,
    Singhal & Ullman (2020) :math:`n^{-1/2} + (\varepsilon n)^{-(k-1)/k}` (:func:`dpcore.theory.heavy_tailed_rate`),
    ``"non_private"`` the sample mean's median error, ``"lower_bound"`` the shape :math:`(\varepsilon n)^{-(k-1)/k}` of
    their lower bound (Thm 3.8); ``"n"`` the grid.

    >>> round(float(rate_companions(1.0, 2)["lower_bound"][0]), 3)  # (1 · 100)^(-1/2)
    0.1
    """
    n = np.array(N_GRID, dtype=float)
    exponent = 1.0 if math.isinf(moment_k) else (moment_k - 1) / moment_k
    return {"n": n, "ksu20": np.asarray(theory.heavy_tailed_rate(n, epsilon, moment_k)),
            "non_private": np.asarray(theory.nonprivate_mean_error(n)), "lower_bound": (epsilon * n) ** -exponent}


@validated(moment_k=_MOMENT_K)
def theory_slope(moment_k: float) -> float:
    """The worst-case log–log slope of the private part: −(k−1)/k (−1 for k = inf).

    >>> theory_slope(3), theory_slope(float("inf"))
    (-0.6666666666666666, -1.0)
    """
    return -1.0 if math.isinf(moment_k) else -(moment_k - 1) / moment_k


@validated(result=InstanceOf(SweepResult, "a SweepResult of error_sweep"), moment_k=_MOMENT_K)
def private_slope(result: SweepResult, moment_k: float) -> float:
    """The fitted log–log slope of the private part's median error over n at k = ``moment_k``
    (:func:`dpcore.experiments.fit_power_law`)."""
    curve = result.curve("private_part", "n", moment_k=moment_k)
    return fit_power_law(curve["x"].astype(float), curve["median"])[0]


@validated(**_SWEEP, moment_k=_MOMENT_K)
def slope_note(family: str, epsilon: float, trials: int, seed: int, moment_k: float, *, run=run_now) -> str:
    """The measured slope of the private part at k = ``moment_k`` next to the worst-case theory −(k−1)/k, and why a
    fixed law may fall faster (Markdown)."""
    slope, worst = private_slope(error_vs_n(family, epsilon, trials, seed, run=run), moment_k), theory_slope(moment_k)
    return (f"Measured log–log slope of the private part at k = {moment_k:g}: **{slope:.2f}**; theory −(k−1)/k = "
            f"**{worst:.2f}**, the worst case over all laws with this moment bound."
            + ("" if abs(slope - worst) <= 0.1 else
               " This law falls faster: a fixed distribution's tail is usually lighter than the worst case, which "
               "changes with n (Kamath, Singhal & Ullman's (2020) lower bound uses a two-point law whose far atom "
               "moves out as n grows; a fixed two-point law's bias vanishes once the window covers its atom)."))


# --------------------------------------------------------------------------------------- bias correction
@validated(n_values=Array(ndim=(1,), low=10), epsilons=Array(ndim=(1,), low=0, low_open=True),
           delta=validation.DELTA,
           true_mean=Real(), warm_start=Real(), survival_radius=POSITIVE, trials=_TRIALS, seed=SEED)
def bias_correction_sweep(n_values, epsilons, delta: float, true_mean: float, warm_start: float,
                          survival_radius: float, trials: int, seed: int) -> SweepResult:
    r"""|error| of the naive truncated mean and both bias-corrected estimators, over n × ε (1-D Gaussian).

    Data :math:`\mathcal N(\mu^*, 1)` with :math:`\mu^*` = ``true_mean``, warm start ``warm_start`` and
    projection radius :math:`D_K = \max(1, |\mu^* - c|)`. Methods, by id (:data:`BIAS_CORRECTION_METHODS`):
    ``"naive_truncated_mean"``, ``"truncated_mle_moments"`` (moment matching) and ``"truncated_mle_dpgd"`` (DP
    gradient descent) of :mod:`dpcore.estimators.truncated_mle` (Zampetakis & Zhou 2025). Every estimator is
    :math:`(\varepsilon, \delta)`-DP on the same data (common random numbers across ε and across estimators), so the
    figure compares equal privacy spending. Runs :func:`dpcore.experiments.run_sweep` with data axis ``n``, in pieces of
    at most :data:`BIAS_PIECE_DRAWS` draws (a run with no more trials than one piece is the same without pieces).

    >>> result = bias_correction_sweep([1000], [1.0], 1e-6, 0.8, 0.0, 1.5, 20, 0)
    >>> round(float(result.curve("naive_truncated_mean", "n", epsilon=1.0)["median"][0]), 1)  # the bias 0.38
    0.4
    """
    bound = max(1.0, abs(true_mean - warm_start))

    def sample(params: dict, count: int, rng: np.random.Generator) -> np.ndarray:
        return true_mean + rng.standard_normal((count, params["n"]))

    def error_of(estimator):
        def errors(x: np.ndarray, params: dict, rng: np.random.Generator) -> np.ndarray:
            result = estimator(x, params["epsilon"], delta, warm_start, survival_radius, rng,
                               mean_offset_bound=bound)
            return np.abs(np.asarray(result.estimate) - true_mean)
        return errors

    grid: dict[str, Sequence[float]] = {"n": [int(n) for n in n_values], "epsilon": [float(e) for e in epsilons]}
    return run_sweep(sample, {method: error_of(f) for method, f in BIAS_CORRECTION_METHODS.items()}, grid,
                     data_parameters=("n",), trials=trials, seed=seed,
                     piece=lambda params: max(1, BIAS_PIECE_DRAWS // params["n"]))


@validated(trials=_TRIALS, seed=SEED)
def bias_correction(trials: int, seed: int, *, run=run_now) -> SweepResult:
    """The page's :func:`bias_correction_sweep`: :data:`BIAS_N_GRID` × :data:`BIAS_EPSILONS` on the 1-D instance
    (:data:`TRUE_MEAN`, :data:`WARM_START`, :data:`SURVIVAL_RADIUS`, :data:`DELTA`), run through ``run``."""
    return run(bias_correction_sweep, n_values=list(BIAS_N_GRID), epsilons=list(BIAS_EPSILONS), delta=DELTA,
               true_mean=TRUE_MEAN, warm_start=WARM_START, survival_radius=SURVIVAL_RADIUS, trials=trials, seed=seed)


@validated(epsilon=EPSILON)
def bias_companions(epsilon: float) -> dict[str, np.ndarray]:
    r"""Theory companions over :data:`BIAS_N_GRID` (docs/algorithms.md §1.7): ``"naive_truncated_mean"`` the naive
    estimate's exact bias :math:`|\mathbb E_{\mu^*,S}[z] - \mu^*|`, and ``"truncated_mle_moments"`` the delta-method
    median error of moment matching, :math:`0.6745\sqrt{\lambda/N + \sigma^2}/\lambda` with :math:`\lambda` the slope
    of the truncated-mean map at :math:`\mu^*` and :math:`\sigma` the analytic Gaussian noise of the release
    (sensitivity :math:`2r_S/N`); ``"n"`` the grid.

    >>> round(float(bias_companions(1.0)["naive_truncated_mean"][0]), 5)
    0.37993
    """
    n = np.array(BIAS_N_GRID, dtype=float)
    naive_bias = abs(TRUNCATED_MEAN - TRUE_MEAN)
    step = 1e-5
    slope = (truncated_mean_map(TRUE_MEAN + step, WARM_START, SURVIVAL_RADIUS)
             - truncated_mean_map(TRUE_MEAN - step, WARM_START, SURVIVAL_RADIUS)) / (2 * step)
    bound = max(1.0, abs(TRUE_MEAN - WARM_START))
    sizes = np.array([target_size(int(m), bound, SURVIVAL_RADIUS) for m in n])
    sigma = np.array([mechanisms.gaussian_sigma(2 * SURVIVAL_RADIUS / size, epsilon, DELTA) for size in sizes])
    matching = theory.HALF_NORMAL_MEDIAN * np.sqrt(slope / sizes + sigma**2) / slope
    return {"n": n, "naive_truncated_mean": np.full(n.size, naive_bias), "truncated_mle_moments": matching}


# --------------------------------------------------------------------------------------- what to notice
def _naive_vs_ksu20(result: SweepResult, moment_k: float) -> str:
    ksu20, naive = (result.curve(method, "n", moment_k=moment_k)["median"]
                    for method in ("ksu20", "naive_window"))
    ratio = naive[0] / ksu20[0]
    head = (f"At n = {N_GRID[0]:,} and k = {moment_k:g} the naive window [−R, R]'s median error is {naive[0]:.2g}, "
            f"the private-range-then-clip estimator's {ksu20[0]:.2g}")
    if ratio >= 2:
        return (head + f" ({ratio:.0f}× smaller): finding the window privately is what makes clipping pay, because "
                f"the naive window's noise grows with the public bound R = {MEAN_RANGE:g}. "
                f"By n = {N_GRID[-1]:,} the gap is {naive[-1] / ksu20[-1]:.1f}×: the naive noise ∝ R/(εn) has shrunk "
                "to the size of the sampling error.")
    return (head + ": here the private window does not pay — its clipping bias (this law's far mass is cut) costs as "
            "much as the naive window's noise.")


def _times_smaller(ratio: float) -> str:
    """A ratio (larger / smaller) in words: "51× smaller", "1.4× smaller", "about the same" within 5 %, never "1×"."""
    if 1 / 1.05 < ratio < 1.05:
        return "about the same"
    factor, word = (ratio, "smaller") if ratio > 1 else (1 / ratio, "larger")
    return f"{factor:.2g}× {word}" if factor < 10 else f"{factor:,.0f}× {word}"


def _slope_takeaway(slope: float, worst: float, family: str) -> str:
    if family in ("gaussian", "student-t"):
        return (f"The private part falls like n{superscript(slope, '.2f')}: this law is symmetric, so a window centred "
                "on the mean has no bias and the private part is pure Laplace noise ∝ 1/(εn). Pick Lomax or the "
                f"two-point law to see the bias–noise rate (theory, worst case over the class: "
                f"n{superscript(worst, '.2f')}).")
    return (f"The private part falls like n{superscript(slope, '.2f')} (theory, worst case over the class: "
            f"n{superscript(worst, '.2f')}): "
            "heavier tails (smaller k) make privacy's share of the error fall more slowly, while the non-private "
            "error is 1/√n for every k.")


@validated(**_ONE_RUN, trials=_TRIALS, monte_carlo_seed=SEED, revealed=Choice((False, True)))
def takeaways(family: str, moment_k: float, n: int, radius: float, epsilon: float, seed: int, trials: int, *,
              run=run_now, monte_carlo_seed: int | None = None, revealed: bool = True) -> list[str]:
    """What to notice, from the numbers on the page: the naive window against Kamath, Singhal & Ullman's (2020)
    estimator at the smallest and largest n,
    the private part's slope, the best radius against the chosen one, and the bias correction at the largest n and
    the ε frame nearest ``epsilon`` (Markdown, one string per point).
    ``seed`` draws the one run; ``monte_carlo_seed`` (default ``seed``) the sweeps, so a page can redraw one without
    recomputing the other. Before the student's guess (``revealed`` false) the best radius, the answer of
    :func:`radius_question`, is left for after it."""
    sweep_seed = seed if monte_carlo_seed is None else monte_carlo_seed
    result = error_vs_n(family, epsilon, trials, sweep_seed, run=run)
    one = one_run(family, moment_k, n, radius, epsilon, seed)
    frame = bias_frame(epsilon)
    corrected = bias_correction(trials, sweep_seed, run=run)
    naive_error, matched_error = (corrected.curve(method, "n", epsilon=frame)["median"][-1]
                                  for method in ("naive_truncated_mean", "truncated_mle_moments"))
    return [
        _naive_vs_ksu20(result, moment_k),
        _slope_takeaway(private_slope(result, moment_k), theory_slope(moment_k), law(family, moment_k).family),
        (f"The best clipping radius for this sample size is t = "
         f"{bias_noise_tradeoff(family, moment_k, n, epsilon)['best']:.3g}; at t = {radius:g} the bias is "
         f"{one.bias:+.4f} and the noise's standard deviation {one.noise_sd:.4f}." if revealed else
         f"At t = {radius:g} the bias is {one.bias:+.4f} and the noise's standard deviation {one.noise_sd:.4f}; the "
         f"best clipping radius for this sample size appears {HELD_BACK} (Predict first, above)."),
        f"At n = {BIAS_N_GRID[-1]:,}, ε = {frame:g}: naive truncated mean error {naive_error:.3f}, moment matching "
        f"{matched_error:.4f} — {_times_smaller(naive_error / matched_error)} for the same privacy.",
    ]


@validated(family=Choice(FAMILIES), moment_k=_MOMENT_K, n=Integer(low=2), epsilon=EPSILON)
def radius_question(family: str, moment_k: float, n: int, epsilon: float) -> Question:
    r"""Predict, then reveal (before the bias-noise trade-off): which clipping radius t gives the smallest error of
    the clipped Laplace mean; the answer is the best radius of :func:`bias_noise_tradeoff`.

    >>> question = radius_question("lomax", 3, 10_000, 1.0)
    >>> question.choices[question.answer]
    '3 < t ≤ 10'
    """
    curve = bias_noise_tradeoff(family, moment_k, n, epsilon)
    tails = ("Gaussian tails" if math.isinf(moment_k) else
             f"tails with E|X − μ|{superscript(moment_k)} = 1: on average a point's distance from the mean μ, raised "
             f"to the power {moment_k:g}, is 1")
    return Question(
        key="radius",
        prompt=(f"n = {n:,} points from the {FAMILY_NAMES[family]} distribution ({tails}) are clipped to the window "
                f"[μ − t, μ + t], and their mean gets Laplace noise of scale 2t/(εn) at ε = {epsilon:g}. Which window "
                "radius t gives the smallest error?"),
        choices=("t ≤ 1: clip hard, the least noise", "1 < t ≤ 3", "3 < t ≤ 10", "10 < t ≤ 30",
                 "t > 30: barely clip, the least bias"),
        answer=bucket(float(curve["best"]), (1.0, 3.0, 10.0, 30.0)),
        explanation=(f"The noise grows like t (its standard deviation is √2·2t/(εn)) while the bias from the "
                     f"clipped tail shrinks as t grows; their sum is smallest at t = {curve['best']:.2f}, with a "
                     f"root mean squared error of {curve['best_rmse']:.3g}. The figure's total curve bottoms out "
                     "there."))
