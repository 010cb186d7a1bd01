r"""Lesson "Pure vs approximate DP": what δ buys when a d-dimensional mean is released privately.

The release itself (clip to an ℓ2 ball, add calibrated Laplace / Gaussian / zCDP-Gaussian noise) is
:mod:`dpcore.estimators.mean_release`; the cover mechanism is :mod:`dpcore.estimators.cover`. Here: the page's grids
and constants, its Monte Carlo sweeps (error versus n, one frame per dimension; error versus d, one frame per ε) with
their exact-RMSE companions, the one-run release clouds, privacy profiles, compositions, the δ and sample-complexity
tables and the computed takeaways (Hopkins, Kamath & Majid 2022's table; Kamath, Singhal & Ullman 2020;
docs/algorithms.md §2). Methods are named by their ids (:data:`dpcore.lessons.methods.LABELS`).

Sweeps take a ``run`` argument (default :func:`dpcore.experiments.run_now`): the app passes its cached runner, a
notebook calling the same function gets the same numbers.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .. import accounting, mechanisms
from ..core.validation import (
    DELTA,
    EPSILON,
    SEED,
    TRIALS,
    Array,
    Choice,
    Integer,
    InvalidParameterError,
    Real,
    validated,
)
from ..estimators import cover, mean_release
from ..estimators.mean_release import MECHANISMS, NON_PRIVATE, calibrate, clip_radius, expected_error
from ..experiments import SweepResult, fit_power_law, run_now, run_sweep
from .grids import nearest
from .methods import LABELS
from .plain_words import superscript
from .questions import HELD_BACK, Question, bucket

__all__ = ["GLOSSARY",
           "DIMENSIONS", "N_GRID", "EPSILON_FRAMES", "NOISE_FRAMES", "RELEASE_EPSILON_FRAMES", "RELEASES", "DELTAS",
           "TARGET_ERROR", "COMPOSITION_EPSILON", "CLOUD_RELEASES", "CLOUD_MAX_N", "CLOUD_MECHANISMS",
           "PROFILE_FLOOR", "PROFILE_EPSILONS", "COVER_RADIUS",
           "TRADEOFF_FRAMES", "TRADEOFF_ALPHA", "TINY_ALPHA", "tradeoff_curves", "tradeoff_caption",
           "error_sweep", "mechanisms_for", "nearest_frame", "error_vs_n", "error_vs_dimension", "theory_vs_n",
           "theory_vs_dimension", "error_ratio_exponent", "release_cloud", "crossover_dimension", "privacy_profiles",
           "profile_curves", "composition_epsilons", "composition_curves", "advanced_beats_basic_from",
           "samples_needed", "ComplexityRow", "cover_samples_needed", "sample_complexity_table", "complexity_rows",
           "delta_table", "accuracy_caption", "takeaways",
           "zcdp_gaussian_epsilon", "crossover_question"]

#: The glossary terms (:data:`dpcore.lessons.glossary.TERMS`) the page's words use, checked against the page as
#: drawn by tests/app/test_plain_words.py
GLOSSARY = ("audit", "binary product distribution", "clipping", "composition", "differential privacy (DP)",
            "exponential mechanism", "Gaussian differential privacy (μ-GDP)", "Gaussian mechanism", "heavy tails",
            "hypothesis", "k (the letter)", "Laplace mechanism", "mean squared error (MSE)", "Monte Carlo trials",
            "neighbouring datasets", "percentile", "privacy profile", "pure and approximate DP", "score",
            "semidefinite program (SDP)", "sensitivity (Δ)", "standard deviation (sd)", "trade-off curve",
            "type I and type II errors", "zCDP (ρ)", "δ (delta)", "ε (epsilon)", "ℓ₁ and ℓ₂ norms")

# ---------------------------------------------------------------------------------------------------- page grids
DIMENSIONS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)  #: the dimension axis (frames of "error vs n")
N_GRID = (100, 300, 1000, 3000, 10_000, 30_000, 100_000, 300_000, 1_000_000)  #: the sample-size axis
EPSILON_FRAMES = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)  #: the ε frames of "error vs d"
NOISE_FRAMES = (0.25, 0.5, 1.0, 2.0, 4.0)  #: the noise levels ε₀ of the privacy-profile frames
RELEASE_EPSILON_FRAMES = (0.01, 0.03, 0.1, 0.3, 1.0)  #: the per-release ε₀ frames of the composition figure
RELEASES = (1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000)  #: numbers of releases k
DELTAS = tuple(10.0**-e for e in range(3, 13))  #: the rows of the δ table
TARGET_ERROR = 0.1  #: the ℓ2 error α of the sample-complexity table
COMPOSITION_EPSILON = 0.1  #: the per-release ε₀ the composition takeaway quotes
CLOUD_RELEASES = 400  #: releases per mechanism in the one-run picture (and data points shown)
CLOUD_MAX_N = 20_000  #: the one-run picture draws at most this many points
CLOUD_CENTER = (1.0, -0.5)  #: the true mean (and public clipping centre) of the one-run dataset
CLOUD_MECHANISMS = ("laplace", "gaussian_analytic")  #: the mechanisms of the one-run picture
PROFILE_FLOOR = 1e-12  #: δ below this leaves the profile chart (the Laplace profile's exact 0 included)
PROFILE_EPSILONS = np.linspace(0.0, 6.0, 121)  #: the ε axis of the privacy profiles
COVER_RADIUS = 2.0  #: public box [-R, R]^d known to contain the mean, for the cover mechanism
TRADEOFF_FRAMES = (0.25, 0.5, 1.0, 2.0, 4.0)  #: the ε frames of the trade-off-curve figure
TRADEOFF_ALPHA = np.linspace(0.0, 1.0, 401)  #: the type-I error axis of the trade-off curves
TINY_ALPHA = 1e-9  #: the type-I error at which the trade-off caption shows what δ allows

_DIMENSION = Integer(low=1, high=100_000)
_SAMPLES = Integer(low=2)
_BETA = Real(0, 1, low_open=True, high_open=True)
_METHOD = Choice((*MECHANISMS, NON_PRIVATE))
_PAGE_DIMENSION = Choice(DIMENSIONS)
_RUN = Callable[..., SweepResult]


def _sample_mean_errors(params: dict, trials: int, rng: np.random.Generator) -> np.ndarray:
    """The sufficient statistic: sample mean minus the true mean, exactly N(0, I_d / n), per trial."""
    return rng.standard_normal((trials, params["dimension"])) / math.sqrt(params["n"])


def _estimator(mechanism: str, delta: float, beta: float):
    """Per-trial ℓ2 error of ``mechanism`` applied to the (unclipped, w.p. ≥ 1 − β) sample means."""
    def errors(mean_errors: np.ndarray, params: dict, rng: np.random.Generator) -> np.ndarray:
        if mechanism == NON_PRIVATE:
            return np.linalg.norm(mean_errors, axis=1)
        dimension, n, epsilon = params["dimension"], params["n"], params["epsilon"]
        calibration = calibrate(mechanism, dimension, n, epsilon, delta,
                                clip_radius(dimension, n, beta))
        released = mean_release.release_means(mechanism, mean_errors, calibration, epsilon, delta, rng)
        return np.linalg.norm(released, axis=1)
    return errors


@validated(n_values=Array(ndim=(1,), low=2), dimensions=Array(ndim=(1,), low=1), epsilons=Array(ndim=(1,), low=0,
           low_open=True), delta=DELTA, trials=Integer(low=1, high=100_000), seed=Integer(low=0), beta=_BETA)
def error_sweep(n_values, dimensions, epsilons, delta: float, trials: int, seed: int,
                mechanisms_used=MECHANISMS, beta: float = 0.1) -> SweepResult:
    r""":math:`\ell_2` error of every mechanism (and the non-private mean) over dimension × n × ε.

    Runs :func:`dpcore.experiments.run_sweep` with the data axes (dimension, n): the same sample means
    and the same standard noise draws serve every ε (common random numbers). Mechanisms not defined
    at some grid point (the classical Gaussian above ε = 1) must be left out of ``mechanisms_used``.

    Returns
    -------
    SweepResult
        Axes ``("dimension", "n", "epsilon")``; methods ``mechanisms_used`` then ``"non_private"`` (ids).
    """
    unknown = set(mechanisms_used) - set(MECHANISMS)
    if unknown:
        raise InvalidParameterError(f"mechanisms_used must be a subset of {MECHANISMS}; got {sorted(unknown)}")
    if "gaussian_classical" in mechanisms_used and epsilons.max() > 1.0:
        raise InvalidParameterError("epsilons must be <= 1 when 'gaussian_classical' is used; got max "
                                    f"{epsilons.max():g}")
    estimators = {name: _estimator(name, delta, beta) for name in (*mechanisms_used, NON_PRIVATE)}
    grid: dict[str, Sequence[float]] = {"dimension": [int(d) for d in dimensions], "n": [int(n) for n in n_values],
                                        "epsilon": [float(e) for e in epsilons]}
    return run_sweep(_sample_mean_errors, estimators, grid, data_parameters=("dimension", "n"),
                     trials=trials, seed=seed)


@validated(epsilons=Array(ndim=(1,), min_size=1, low=0, low_open=True))
def mechanisms_for(epsilons) -> list[str]:
    """The mechanisms a sweep over ``epsilons`` shows: all of :data:`MECHANISMS`, except the classical Gaussian when
    some ε exceeds 1 (its proof holds only for ε ≤ 1; Dwork & Roth 2014 Thm A.1).

    >>> mechanisms_for([1.0])
    ['laplace', 'gaussian_classical', 'gaussian_analytic', 'zcdp_gaussian']
    >>> mechanisms_for([0.5, 2.0])
    ['laplace', 'gaussian_analytic', 'zcdp_gaussian']
    """
    return [m for m in MECHANISMS if m != "gaussian_classical" or float(np.max(epsilons)) <= 1.0]


@validated(epsilon=EPSILON)
def nearest_frame(epsilon: float) -> float:
    """The frame of :data:`EPSILON_FRAMES` nearest to ``epsilon`` on a log scale (where "error vs d" opens).

    >>> nearest_frame(0.3), nearest_frame(1.5)
    (0.2, 2.0)
    """
    return nearest(EPSILON_FRAMES, epsilon)


@validated(epsilon=EPSILON, delta=DELTA, trials=TRIALS, seed=SEED)
def error_vs_n(epsilon: float, delta: float, trials: int, seed: int, *, run: _RUN = run_now) -> SweepResult:
    """The page's "error vs n" sweep: :func:`error_sweep` over :data:`N_GRID` × :data:`DIMENSIONS` at one ε, with the
    mechanisms of :func:`mechanisms_for` (``run`` runs it: :func:`dpcore.experiments.run_now`, or the app's cache)."""
    return run(error_sweep, n_values=list(N_GRID), dimensions=list(DIMENSIONS), epsilons=[float(epsilon)],
               delta=float(delta), trials=int(trials), seed=int(seed), mechanisms_used=mechanisms_for([epsilon]))


@validated(n=_SAMPLES, delta=DELTA, trials=TRIALS, seed=SEED)
def error_vs_dimension(n: int, delta: float, trials: int, seed: int, *, run: _RUN = run_now) -> SweepResult:
    """The page's "error vs d" sweep: :func:`error_sweep` over :data:`DIMENSIONS` × :data:`EPSILON_FRAMES` at one n
    (ε runs up to 10, so the classical Gaussian is left out)."""
    return run(error_sweep, n_values=[int(n)], dimensions=list(DIMENSIONS), epsilons=list(EPSILON_FRAMES),
               delta=float(delta), trials=int(trials), seed=int(seed), mechanisms_used=mechanisms_for(EPSILON_FRAMES))


@validated(method=_METHOD, dimension=_DIMENSION, epsilon=EPSILON, delta=DELTA)
def theory_vs_n(method: str, dimension: int, epsilon: float, delta: float) -> np.ndarray:
    r"""The exact RMSE :math:`\sqrt{d/n + \mathrm{RMSE}^2_{\text{noise}}}` (:func:`expected_error`) of ``method`` at
    every n of :data:`N_GRID`: the dashed companion of the "error vs n" curves. Remembered (read-only): the analytic
    Gaussian's calibration solves for σ at every point."""
    return _exact_errors(method, ((dimension, n) for n in N_GRID), epsilon, delta)


@validated(method=_METHOD, n=_SAMPLES, epsilon=EPSILON, delta=DELTA)
def theory_vs_dimension(method: str, n: int, epsilon: float, delta: float) -> np.ndarray:
    """The exact RMSE (:func:`expected_error`) of ``method`` at every d of :data:`DIMENSIONS` (remembered,
    read-only)."""
    return _exact_errors(method, ((d, n) for d in DIMENSIONS), epsilon, delta)


def _exact_errors(method: str, points, epsilon: float, delta: float) -> np.ndarray:
    return _exact_error_tuple(method, tuple((int(d), int(n)) for d, n in points), float(epsilon), float(delta))


@functools.lru_cache(maxsize=1024)
def _exact_error_tuple(method: str, points: tuple[tuple[int, int], ...], epsilon: float, delta: float) -> np.ndarray:
    errors = np.array([expected_error(method, d, n, epsilon, delta) for d, n in points])
    errors.setflags(write=False)
    return errors


@validated(n=_SAMPLES, delta=DELTA, trials=TRIALS, seed=SEED, epsilon=Choice(EPSILON_FRAMES))
def error_ratio_exponent(n: int, delta: float, trials: int, seed: int, epsilon: float, *,
                         run: _RUN = run_now) -> float:
    r"""The fitted exponent :math:`a` of (Laplace RMSE / analytic-Gaussian RMSE) :math:`\propto d^a` over
    :data:`DIMENSIONS`, measured in :func:`error_vs_dimension` at ``epsilon`` (a frame of :data:`EPSILON_FRAMES`).

    Theory: :math:`a = 1/2` where the noise dominates (the ratio is :math:`\sqrt{2d}/(\varepsilon\sigma_1)`); the
    sampling error :math:`\sqrt{d/n}`, common to both, pulls it towards 0 at large n.
    """
    result = error_vs_dimension(n, delta, trials, seed, run=run)
    laplace, gauss = (result.curve(m, "dimension", n=n, epsilon=epsilon)["rmse"] for m in CLOUD_MECHANISMS)
    return float(fit_power_law(np.array(DIMENSIONS, dtype=float), laplace / gauss)[0])


@validated(n=_SAMPLES, epsilon=EPSILON, delta=DELTA, seed=SEED)
def release_cloud(n: int, epsilon: float, delta: float, seed: int) -> dict:
    r"""One run, seen whole: one 2-D dataset :math:`\mathcal N(\mu, I_2)` (at most :data:`CLOUD_MAX_N` points) and
    :data:`CLOUD_RELEASES` releases of its clipped mean by each of :data:`CLOUD_MECHANISMS`
    (:func:`dpcore.estimators.mean_release.repeated_releases`; independent child streams of ``seed``).

    Returns
    -------
    dict
        ``n`` (points drawn), ``points`` (a random subset of at most :data:`CLOUD_RELEASES`, for display),
        ``center`` (:math:`\mu`, the public clipping centre), ``radius`` (:func:`clip_radius`) and ``releases``
        (method id -> array of shape (releases, 2)).
    """
    n = min(n, CLOUD_MAX_N)
    rng = np.random.default_rng(seed)
    center = np.array(CLOUD_CENTER)
    points = center + rng.standard_normal((n, 2))
    radius = clip_radius(2, n)
    data_rng, *streams = rng.spawn(1 + len(CLOUD_MECHANISMS))
    releases = {method: mean_release.repeated_releases(points, epsilon, delta, method, radius, CLOUD_RELEASES,
                                                       center, stream)
                for method, stream in zip(CLOUD_MECHANISMS, streams)}
    shown = points[data_rng.choice(n, size=min(n, CLOUD_RELEASES), replace=False)]
    return {"n": n, "points": shown, "center": center, "radius": radius, "releases": releases}


@validated(epsilon=EPSILON, delta=DELTA, calibration=Choice(("analytic", "classical")))
def crossover_dimension(epsilon: float, delta: float, calibration: str = "analytic") -> float:
    r"""The dimension :math:`d^* = (\varepsilon\sigma_1)^2/2` above which the Gaussian's noise is below Laplace's.

    From the ratio of the exact noise RMSEs, :math:`\mathrm{RMSE}_{\mathrm{Lap}}/\mathrm{RMSE}_{\mathcal N} =
    \sqrt{2d}/(\varepsilon\sigma_1)`, with :math:`\sigma_1` = ``gaussian_sigma(1, epsilon, delta, calibration)``
    (docs/algorithms.md §2.2: classical at δ = 1e-5 gives :math:`\ln(1.25\cdot10^5) = 11.74`).
    """
    return (epsilon * mechanisms.gaussian_sigma(1.0, epsilon, delta, calibration)) ** 2 / 2.0


@validated(epsilons=Array(ndim=(1,), low=0), noise_epsilon=EPSILON)
def privacy_profiles(epsilons, noise_epsilon: float) -> dict[str, np.ndarray]:
    r"""δ(ε) of the Laplace mechanism with :math:`b = \Delta/\varepsilon_0` and of the Gaussian with
    :math:`\mu = \varepsilon_0`, by method id (``"laplace"``, ``"gaussian_analytic"``).

    Both have the same zCDP, :math:`\varepsilon_0^2/2` (docs/algorithms.md §2.3): Laplace's profile reaches 0 at
    :math:`\varepsilon_0` (pure DP), the Gaussian's never does.
    """
    return {
        "laplace": np.array([accounting.laplace_delta(e, scale=1.0 / noise_epsilon) for e in epsilons]),
        "gaussian_analytic": np.array([accounting.gaussian_delta(e, sigma=1.0 / noise_epsilon) for e in epsilons]),
    }


@validated(noise_epsilon=EPSILON)
def profile_curves(noise_epsilon: float) -> dict[str, np.ndarray]:
    """:func:`privacy_profiles` over :data:`PROFILE_EPSILONS` as the page plots them: ``epsilon`` (the axis) and one
    curve per method id, NaN where δ(ε) < :data:`PROFILE_FLOOR` (off the log axis; Laplace's exact 0 included)."""
    curves = privacy_profiles(PROFILE_EPSILONS, noise_epsilon)
    return {"epsilon": PROFILE_EPSILONS,
            **{method: np.where(values >= PROFILE_FLOOR, values, np.nan) for method, values in curves.items()}}


@validated(releases=Array(ndim=(1,), low=1), release_epsilon=EPSILON, delta=DELTA)
def composition_epsilons(releases, release_epsilon: float, delta: float) -> dict[str, np.ndarray]:
    r"""Total ε at total failure probability δ after :math:`k` releases, by four accountings (docs/algorithms.md §2.4).

    Per release: Laplace with :math:`\varepsilon_0` (pure), or the Gaussian with :math:`\mu_0 = \varepsilon_0`
    (same zCDP).

    * ``"basic"``: :math:`k\varepsilon_0` (δ unused: pure DP composes exactly like this);
    * ``"advanced"``: :math:`\varepsilon_0\sqrt{2k\ln(1/\delta)} + k\varepsilon_0(e^{\varepsilon_0}-1)` with
      :math:`\delta' = \delta`;
    * ``"zCDP"``: :math:`\rho = k\varepsilon_0^2/2`, then :math:`\rho + 2\sqrt{\rho\ln(1/\delta)}`;
    * ``"exact Gaussian"``: one Gaussian with :math:`\mu = \sqrt k\,\varepsilon_0`, inverted exactly.

    Check (k = 100, ε0 = 0.1, δ = 1e-6): 10.000, 6.308, 5.757, 4.887.
    """
    ks = releases.astype(int)
    try:
        advanced = np.array([accounting.advanced_composition(release_epsilon, 0.0, k, delta)[0] for k in ks])
    except InvalidParameterError as refused:  # its e^ε0 term overflows: refuse in this function's own terms
        raise InvalidParameterError(f"release_epsilon={release_epsilon!r} is too large for advanced composition: "
                                    f"{refused}") from refused
    return {
        "basic": np.array([accounting.basic_composition(release_epsilon, 0.0, k)[0] for k in ks]),
        "advanced": advanced,
        "zCDP": np.array([accounting.zcdp_to_approx(accounting.zcdp_composition(
            accounting.pure_to_zcdp(release_epsilon), k), delta) for k in ks]),
        "exact Gaussian": np.array([accounting.gaussian_epsilon(accounting.gaussian_composition(
            release_epsilon, k), delta) for k in ks]),
    }


@validated(release_epsilon=EPSILON, delta=DELTA)
def composition_curves(release_epsilon: float, delta: float) -> dict[str, np.ndarray]:
    """:func:`composition_epsilons` at every k of :data:`RELEASES` (one frame of the composition figure)."""
    return composition_epsilons(np.array(RELEASES, dtype=float), release_epsilon, delta)


@validated(release_epsilon=EPSILON, delta=DELTA)
def advanced_beats_basic_from(release_epsilon: float, delta: float) -> int | None:
    r"""The smallest number of releases :math:`k` for which advanced composition gives a smaller ε than basic.

    :math:`\varepsilon_0\sqrt{2k\ln(1/\delta)} + k\varepsilon_0(e^{\varepsilon_0}-1) < k\varepsilon_0 \iff
    k > 2\ln(1/\delta)/(2 - e^{\varepsilon_0})^2`; ``None`` when :math:`e^{\varepsilon_0} \ge 2` (never).
    """
    if release_epsilon >= math.log(2.0):  # before the exponential, which overflows above ε0 ≈ 709
        return None
    margin = 2.0 - math.exp(release_epsilon)
    if margin <= 0:
        return None
    return math.floor(2.0 * math.log(1.0 / delta) / margin**2) + 1


@validated(mechanism=Choice((*MECHANISMS, NON_PRIVATE)), dimension=_DIMENSION, target_error=EPSILON,
           epsilon=EPSILON, delta=DELTA, beta=_BETA)
def samples_needed(mechanism: str, dimension: int, target_error: float, epsilon: float, delta: float,
                   beta: float = 0.1) -> int:
    r"""The smallest :math:`n` with :func:`expected_error` :math:`\le` ``target_error`` (bisection on :math:`\log n`).

    The sample complexities of the table on Kamath's slides about Hopkins, Kamath & Majid (2022), computed exactly for
    this model rather than up to constants: the empirical mean needs :math:`\lceil d/\alpha^2\rceil`; with
    :math:`C \approx \sqrt d` Laplace needs :math:`\Theta(d/\alpha^2 + d^{1.5}/(\alpha\varepsilon))` and the Gaussian
    :math:`\Theta(d/\alpha^2 + d\sqrt{\log(1/\delta)}/(\alpha\varepsilon))` (up to the :math:`\log n` in :math:`C`).
    """
    def error(n: int) -> float:
        return expected_error(mechanism, dimension, n, epsilon, delta, beta)

    if error(2) <= target_error:
        return 2
    low, high = 2, 4
    while error(high) > target_error:
        low, high = high, high * 2
        if high > 10**15:
            raise InvalidParameterError(f"target_error={target_error:g} needs more than 1e15 samples for {mechanism} "
                                        "at "
                                        f"epsilon={epsilon:g}, delta={delta:g}, dimension={dimension}: use a larger "
                                        "epsilon, "
                                        "delta or target_error")
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if error(middle) > target_error else (low, middle)
    return high


@dataclass(frozen=True)
class ComplexityRow:
    """One row of the table on Kamath's slides about Hopkins, Kamath & Majid (2022): a mean estimator, its guarantee,
    cost, and the n it needs here.

    ``samples`` is None where the estimator is not run; ``how`` says how ``samples`` was obtained
    (``"exact"``: from the exact RMSE of the simulation model; ``"Monte Carlo"``: measured).
    """

    method: str
    guarantee: str
    sample_complexity: str
    running_time: str
    samples: int | None
    how: str


@validated(dimension=Integer(low=1, high=2), target_error=EPSILON, epsilon=EPSILON, trials=Integer(low=2),
           seed=Integer(low=0))
def cover_samples_needed(dimension: int, target_error: float, epsilon: float, trials: int = 20,
                         seed: int = 0) -> int:
    r"""Measured n at which :func:`dpcore.estimators.cover.cover_mean` reaches RMSE :math:`\le` ``target_error``.

    Data :math:`\mathcal N(\mu, I_d)` with :math:`\mu = (0.3, -0.2)_{1..d}`; cover of
    :math:`[-2, 2]^d` with spacing ``target_error / 3``; :math:`n = 25\cdot 2^{j/2}`, :math:`j = 0, 1, \dots`, until the
    Monte Carlo RMSE over ``trials`` datasets is at most the target (cap :math:`25\cdot 2^{12} = 102{,}400`; a
    ``InvalidParameterError`` naming ``epsilon`` beyond it): the answer is resolved to a factor :math:`\sqrt2`.
    """
    mean = np.array([0.3, -0.2])[:dimension]
    rng = np.random.default_rng(seed)
    for step in range(2 * 12 + 1):
        n = round(25 * 2 ** (step / 2))
        data = mean + rng.standard_normal((trials, n, dimension))
        estimates = cover.cover_mean(data, epsilon, COVER_RADIUS, target_error / 3.0, rng=rng)
        if math.sqrt(np.mean(np.sum((estimates - mean) ** 2, axis=1))) <= target_error:
            return n
    raise InvalidParameterError(f"target_error={target_error:g} needs more than {n:,} samples for the cover mechanism "
                                "at "
                                f"epsilon={epsilon:g}, dimension={dimension}: use a larger epsilon or target_error")


@validated(dimension=_DIMENSION, target_error=EPSILON, epsilon=EPSILON, delta=DELTA)
def sample_complexity_table(dimension: int, target_error: float, epsilon: float, delta: float,
                            cover_samples: int | None = None) -> list[ComplexityRow]:
    r"""The comparison of mean estimators on Kamath's slides about Hopkins, Kamath & Majid (2022), with the n each
    needs here (docs/algorithms.md §2.7).

    Rates are for constant failure probability and covariance :math:`\preceq I` (:math:`\tilde O` hides logs).
    The first three rows are computed exactly with :func:`samples_needed`; pass ``cover_samples`` (from
    :func:`cover_samples_needed`, only feasible for :math:`d \le 2`) to fill the cover row.
    """
    points_per_axis = round(2 * COVER_RADIUS / (target_error / 3.0)) + 1
    exact = "exact"
    return [
        ComplexityRow("Empirical mean", "none (not private)", "O(d/α²)", "O(nd)",
                      samples_needed(NON_PRIVATE, dimension, target_error, epsilon, delta), exact),
        ComplexityRow(LABELS["laplace"], "ε-DP (pure)", "O(d/α² + d¹·⁵/(αε))", "O(nd)",
                      samples_needed("laplace", dimension, target_error, epsilon, delta), exact),
        ComplexityRow(LABELS["gaussian_analytic"], "(ε, δ)-DP", "O(d/α² + d·√log(1/δ)/(αε))", "O(nd)",
                      samples_needed("gaussian_analytic", dimension, target_error, epsilon, delta), exact),
        ComplexityRow("Exponential mechanism over a cover", "ε-DP (pure)", "Õ(d/α² + d/(αε))",
                      f"exponential in d ({points_per_axis}{superscript(dimension)} candidates)", cover_samples,
                      "Monte Carlo" if cover_samples else "not run (d > 2)"),
        ComplexityRow("Sum-of-squares exponential mechanism (Hopkins, Kamath & Majid 2022)", "ε-DP (pure)",
                      "Õ(d/α² + d/(αε))",
                      "polynomial (SDP scores)", None, "not run here"),
    ]


@validated(dimension=_DIMENSION, epsilon=EPSILON, delta=DELTA, seed=SEED, revealed=Choice((False, True)))
def complexity_rows(dimension: int, epsilon: float, delta: float, seed: int, revealed: bool = True) -> list[dict]:
    """The page's sample-complexity table at :data:`TARGET_ERROR`: :func:`sample_complexity_table` as rows of a data
    frame, the cover row measured by :func:`cover_samples_needed` when ``dimension`` ≤ 2 (about a second in d = 2).
    Before the student's guess (``revealed`` false) the n that Laplace and the Gaussian need, which say which of the
    two wins at this d (part of the answer of :func:`crossover_question`), say :data:`HELD_BACK`."""
    cover = cover_samples_needed(dimension, TARGET_ERROR, epsilon, seed=seed) if dimension <= 2 else None
    held = () if revealed else (LABELS["laplace"], LABELS["gaussian_analytic"])
    return [{"method": row.method, "privacy": row.guarantee, "samples for error α": row.sample_complexity,
             "running time": row.running_time,
             f"n for RMSE ≤ {TARGET_ERROR:g}": (HELD_BACK if row.method in held else
                                                "—" if row.samples is None else f"{row.samples:,}"), "how": row.how}
            for row in sample_complexity_table(dimension, TARGET_ERROR, epsilon, delta, cover)]


@validated(epsilon=EPSILON, dimension=_DIMENSION, n=_SAMPLES, revealed=Choice((False, True)))
def delta_table(epsilon: float, dimension: int, n: int, revealed: bool = True) -> list[dict]:
    r"""What each δ of :data:`DELTAS` costs the Gaussian: its σ for :math:`\Delta_2 = 1`, Laplace's noise RMSE over the
    analytic Gaussian's (:func:`calibrate`), the crossover dimension (:func:`crossover_dimension`) and δ·n. Before
    the student's guess (``revealed`` false) the ratio and the crossover, which answer :func:`crossover_question`,
    say :data:`HELD_BACK`."""
    radius = clip_radius(dimension, n)
    l2_sensitivity = 2 * radius / n
    rows = []
    for delta in DELTAS:
        laplace, gauss = (calibrate(m, dimension, n, epsilon, delta, radius).rmse for m in CLOUD_MECHANISMS)
        sigma = gauss / l2_sensitivity / math.sqrt(dimension)
        rows.append({"δ": f"{delta:.0e}", "Gaussian σ for Δ₂ = 1": round(sigma, 3),
                     "Laplace noise ÷ Gaussian noise": round(laplace / gauss, 2) if revealed else HELD_BACK,
                     "crossover d*": round(crossover_dimension(epsilon, delta), 1) if revealed else HELD_BACK,
                     "δ × n": f"{delta * n:.0e}"})
    return rows


@validated(epsilon=EPSILON, delta=DELTA, dimension=_DIMENSION, n=_SAMPLES, revealed=Choice((False, True)))
def accuracy_caption(epsilon: float, delta: float, dimension: int, n: int, revealed: bool = True) -> str:
    """The accuracy-first caption: the exact RMSE (:func:`expected_error`) of the released mean with Laplace, the
    analytic Gaussian and without privacy at the chosen ε, δ, d, n. Before the student's guess (``revealed`` false)
    without the two private errors: which is smaller at d answers part of :func:`crossover_question`."""
    plain = expected_error(NON_PRIVATE, dimension, n, epsilon, delta)
    said = f"At ε = {epsilon:g}, δ = {delta:g}, d = {dimension}, n = {n:,}: typical error of the released mean "
    if not revealed:
        return (said + f"{plain:.3g} without privacy; with Laplace and with the Gaussian, it appears {HELD_BACK} "
                "(Predict first, in \"Error vs d\" below).")
    laplace, gauss = (expected_error(m, dimension, n, epsilon, delta) for m in CLOUD_MECHANISMS)
    return said + f"{laplace:.3g} with Laplace, {gauss:.3g} with the Gaussian, {plain:.3g} without privacy."


def _times_below(delta: float, n: int) -> str:
    """1/(δn) as text: in full up to 1e12 ("100"), in scientific notation beyond (δ = 1e-300 would print 300 digits),
    from logarithms so that it never overflows."""
    if delta * n > 1e-12:
        return f"{1 / (delta * n):,.0f}"
    decimal = -math.log10(delta) - math.log10(n)
    power = math.floor(decimal)
    mantissa = 10.0 ** (decimal - power)
    if round(mantissa, 1) >= 10.0:
        mantissa, power = mantissa / 10.0, power + 1
    return f"{mantissa:.1f}e+{power}"


@validated(epsilon=EPSILON, delta=DELTA, dimension=_DIMENSION, n=_SAMPLES, releases=Integer(low=1), trials=TRIALS,
           seed=SEED, revealed=Choice((False, True)))
def takeaways(epsilon: float, delta: float, dimension: int, n: int, releases: int, trials: int, seed: int, *,
              run: _RUN = run_now, revealed: bool = True) -> list[str]:
    """What to notice, computed from the numbers on the page: the crossover dimension and the noise ratio at d
    (:func:`crossover_dimension`, :func:`calibrate`), the measured growth exponent of the error ratio
    (:func:`error_ratio_exponent` at the ε frame nearest ``epsilon``), the total ε after ``releases`` releases at
    :data:`COMPOSITION_EPSILON` (:func:`composition_epsilons`, :func:`advanced_beats_basic_from`) and δ·n. Before the
    student's guess (``revealed`` false) the crossover and the ratio at d, the answer of :func:`crossover_question`,
    are left for after it."""
    frame = nearest_frame(epsilon)
    exponent = error_ratio_exponent(n, delta, trials, seed, frame, run=run)
    totals = {key: float(values[0]) for key, values in
              composition_epsilons(np.array([float(releases)]), COMPOSITION_EPSILON, delta).items()}
    beats_at = advanced_beats_basic_from(COMPOSITION_EPSILON, delta)
    return [
        _crossover_takeaway(epsilon, delta, dimension, n) if revealed else
        f"From which d on the Gaussian's noise is smaller than Laplace's at ε = {epsilon:g}, δ = {delta:g}, and by how "
        f"much at d = {dimension}, appears {HELD_BACK} (Predict first, in \"Error vs d\" above).",
        f"At n = {n:,}, ε = {frame:g} the measured Laplace/Gaussian error ratio grows like "
        f"**d{superscript(exponent, '.2f')}** over d = {DIMENSIONS[0]}…{DIMENSIONS[-1]} (theory: d⁰·⁵ where the noise "
        "dominates; the sampling error √(d/n), common to both, pulls the ratio towards 1 at large n).",
        f"After k = {releases} releases at ε₀ = {COMPOSITION_EPSILON:g}: basic {totals['basic']:.2f}, advanced "
        f"{totals['advanced']:.2f}, zCDP {totals['zCDP']:.2f}, exact Gaussian {totals['exact Gaussian']:.2f} (total ε "
        f"at δ = {delta:g}). " + (f"Advanced composition beats basic from **k = {beats_at}** on." if beats_at else ""),
        f"δ × n = {delta * n:.0e}: " + (f"δ is {_times_below(delta, n)}× below 1/n — comfortably small."
                                         if delta * n <= 0.01 else
                                         "**too large** — δ should be far below 1/n (δ × n ≪ 1)."),
    ]


def _crossover_takeaway(epsilon: float, delta: float, dimension: int, n: int) -> str:
    """The first line of :func:`takeaways`: the crossover dimension and the noise ratio at d."""
    radius = clip_radius(dimension, n)
    laplace, gauss = (calibrate(m, dimension, n, epsilon, delta, radius).rmse for m in CLOUD_MECHANISMS)
    return (f"At ε = {epsilon:g}, δ = {delta:g} the Gaussian's noise is smaller than Laplace's once d > "
            f"**{crossover_dimension(epsilon, delta):.1f}**; at d = {dimension} Laplace's noise is "
            f"**{laplace / gauss:.2f}×** the Gaussian's.")


@validated(epsilon=EPSILON, delta=DELTA)
def tradeoff_curves(epsilon: float, delta: float) -> dict[str, np.ndarray | float]:
    r"""The hypothesis-testing view of one release (f-DP; Dong, Roth & Su 2022): over type-I errors
    :data:`TRADEOFF_ALPHA` (``"alpha"``), the least type-II error of any test of "X" against "X′" for the Laplace
    mechanism at ε (``"laplace"``) and for the analytic Gaussian calibrated to (ε, δ) (``"gaussian"``, μ-GDP with
    ``"mu"``), and the least that ε-DP (``"pure"``) and (ε, δ)-DP (``"approximate"``) allow. Laplace stays above
    the pure curve; the Gaussian dips below it (by up to δ) only near α = 0, and stays above the (ε, δ) curve.

    ``"tiny_power"``: the power 1 − β of the best test against the Gaussian at α = :data:`TINY_ALPHA`, and
    ``"tiny_pure"``: the most ε-DP allows there, e^ε·α: the excess is what δ permits.
    """
    mu = accounting.gaussian_mu(epsilon, delta)
    alpha = TRADEOFF_ALPHA
    return {"alpha": alpha, "laplace": accounting.laplace_tradeoff(alpha, epsilon),
            "gaussian": accounting.gaussian_tradeoff(alpha, mu), "pure": accounting.dp_tradeoff(alpha, epsilon),
            "approximate": accounting.dp_tradeoff(alpha, epsilon, delta), "mu": mu,
            "tiny_power": 1.0 - float(accounting.gaussian_tradeoff(TINY_ALPHA, mu)),
            "tiny_pure": math.exp(epsilon) * TINY_ALPHA}


@validated(epsilon=EPSILON, delta=DELTA)
def tradeoff_caption(epsilon: float, delta: float) -> str:
    """What the trade-off figure shows at the sidebar's ε and δ, in numbers."""
    curves = tradeoff_curves(epsilon, delta)
    return (f"At ε = {epsilon:g}, δ = {delta:.0e}: the analytic Gaussian is μ-GDP with μ = {curves['mu']:.3g}. A test "
            f"that wrongly says \"X′\" only {TINY_ALPHA:.0e} of the time (type-I error α) can still detect X′ with "
            f"probability {curves['tiny_power']:.2g} against the Gaussian, where ε-DP would allow at most "
            f"$e^{{\\varepsilon}}\\alpha$ = {curves['tiny_pure']:.2g}: the excess, never more than δ, is what δ buys.")


@validated(epsilon=EPSILON, delta=DELTA)
def zcdp_gaussian_epsilon(epsilon: float, delta: float) -> float:
    r"""What the "zCDP Gaussian" curve (noise :math:`\sigma = \Delta_2/\varepsilon`) promises, as (ε′, δ)-DP: it is
    :math:`\rho`-zCDP with :math:`\rho = \varepsilon^2/2` (Bun & Steinke 2016), worth
    :math:`\varepsilon' = \rho + 2\sqrt{\rho\ln(1/\delta)}` (:func:`dpcore.accounting.zcdp_to_approx`), more
    than ε: the curve is lower because it promises less.

    >>> round(zcdp_gaussian_epsilon(1.0, 1e-6), 2)
    5.76
    """
    return accounting.zcdp_to_approx(accounting.pure_to_zcdp(epsilon), delta)


@validated(epsilon=EPSILON, delta=DELTA)
def crossover_question(epsilon: float, delta: float) -> Question:
    r"""Predict, then reveal (before "error vs d"): from which dimension on the Gaussian's error is below Laplace's,
    at the figure's opening frame (the ε of :data:`EPSILON_FRAMES` nearest ``epsilon``) and ``delta``; the answer is
    :func:`crossover_dimension` :math:`d^* = (\varepsilon\sigma_1)^2/2`, where the exact-RMSE curves cross.

    >>> question = crossover_question(1.0, 1e-6)
    >>> question.choices[question.answer]
    'From about ten to a few tens of dimensions (5 ≤ d ≤ 64)'
    """
    frame = nearest_frame(epsilon)
    crossover = crossover_dimension(frame, delta)
    sigma = mechanisms.gaussian_sigma(1.0, frame, delta, "analytic")
    return Question(
        key="crossover",
        prompt=(f"At ε = {frame:g} and δ = {delta:.0e}, a d-dimensional mean is released with Laplace noise (ε-DP) or "
                "with Gaussian noise ((ε, δ)-DP). From which dimension d on does the Gaussian give the smaller "
                "error?"),
        choices=("Already at d = 1", "From a few dimensions (2 ≤ d ≤ 4)",
                 "From about ten to a few tens of dimensions (5 ≤ d ≤ 64)", "Only above d = 64",
                 "Never: Laplace always wins"),
        answer=bucket(crossover, (1.0, 4.0, 64.0)),
        explanation=(f"Laplace's noise grows like d/ε (its ℓ1 sensitivity grows with d), the Gaussian's like "
                     f"√d·σ₁ with σ₁ = {sigma:.3g} here (its ℓ2 sensitivity grows like √d). The two cross at "
                     f"d* = (ε·σ₁)²/2 = {crossover:.1f}: below it Laplace wins, above it the Gaussian, and the gap "
                     "keeps growing like √d. The figure's exact curves cross there."))
