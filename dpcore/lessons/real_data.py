r"""Lesson "Real data" (the capstone, issue 30): the lab's private releases applied to one real column.

The column :math:`x_1, \dots, x_n` is fixed: here it *is* the population, so every error is measured against the
column's own (non-private) statistic, and every Monte Carlo trial redraws only the mechanisms' randomness. The
student sets every public parameter without looking at the data: the column's public range
:math:`[\ell_0, h_0]` = ``[public_low, public_high]`` (what such a column can be), the clipping bounds
:math:`[a, b]` = ``[lower, upper]`` of the clipped mean, a public scale :math:`s` and a moment order :math:`k` for the
private range of Kamath, Singhal & Ullman (2020), and the budget :math:`(\varepsilon, \delta)`.

Neighbouring columns are replace-one (same n, one value changed) throughout. Each release spends the whole budget
on its own: they are alternatives, compared side by side; publishing several of them would compose (their
:math:`\varepsilon`'s add, Dwork et al. 2006). The figures are in :mod:`dpcore.viz.figures.real_data`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlencode

import numpy as np

from .. import accounting, mechanisms, planning
from ..core.guarantees import diagnostic, public, released
from ..core.randomness import RngLike, child_generator, spawn
from ..core.validation import (
    DELTA,
    EPSILON,
    POSITIVE,
    SEED,
    Array,
    Choice,
    Constraint,
    Integer,
    InvalidParameterError,
    Real,
    Seed,
    validated,
)
from ..datasets import COLUMN, DATASETS
from ..estimators.heavy_tailed_mean import (
    MAX_HISTOGRAM_CELLS,
    private_mean_1d,
    private_mean_1d_zcdp,
    repeated_private_mean_1d,
    repeated_private_mean_1d_zcdp,
)
from ..mechanisms.quantile import quantile_densities, sample_quantile_density
from .methods import label
from .plain_words import number_text
from .questions import HELD_BACK, Question

__all__ = ["GLOSSARY", "QUANTILES", "BINS", "MEAN_METHODS", "QUANTILE_METHODS", "METHODS", "EPSILONS", "SHARE_WARNED",
           "ColumnFacts", "ClippingDecomposition", "BestBounds", "Release", "Releases", "ErrorSweep", "column_facts",
           "fact_rows", "bounds_warning", "coverage_warning", "clipping_decomposition", "best_bounds",
           "clipped_mean_draws", "private_quantiles", "private_histogram", "releases", "release_rows",
           "mean_error_vs_epsilon", "quantile_error_vs_epsilon", "error_vs_epsilon", "takeaways", "cost_question",
           "PLANNER", "PLAN_CONFIDENCE", "PagePlan", "page_plan", "plan_note"]

#: The glossary terms (:data:`dpcore.lessons.glossary.TERMS`) the page's words use
GLOSSARY = ("bias", "clipping", "composition", "differential privacy (DP)", "expected value (E)",
            "exponential mechanism", "Gaussian mechanism", "heavy tails", "Laplace mechanism",
            "median", "Monte Carlo trials", "neighbouring datasets", "parallel composition", "percentile",
            "post-processing", "pure and approximate DP", "score", "sensitivity (Δ)", "standard deviation (sd)",
            "truncation", "zCDP (ρ)", "δ (delta)", "ε (epsilon)")

#: The three private quantiles' levels, by release id
QUANTILES = {"private_q1": 0.25, "private_median": 0.5, "private_q3": 0.75}
BINS = 20  #: the private histogram's default number of bins over the public range
#: The releases of a mean, by id: the clipped mean with Laplace and with Gaussian noise, KSU20 pure and zCDP
MEAN_METHODS = ("clipped_laplace", "gaussian_analytic", "ksu20", "ksu20_zcdp")
QUANTILE_METHODS = tuple(QUANTILES)  #: the releases of a quantile, by id
METHODS = MEAN_METHODS + QUANTILE_METHODS  #: every scalar release, by id (the histogram is not a scalar)
EPSILONS = (0.03, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0, 3.0, 5.0)  #: the default ε grid of the sweep (1-2-3-5 steps)
#: The share of a column that bounds may leave out before the page warns (:func:`coverage_warning`)
SHARE_WARNED = 0.05

_COLUMN = COLUMN  # an array, or a bundled data set's key (its results then shared by the key)
_BOUND = Real()
_MOMENT_K = Real(low=1, low_open=True, allow_inf=True)
_BINS = Integer(low=1, high=1000)
_TRIALS = Integer(low=2, high=100_000)


# --------------------------------------------------------------------------------------- the column, non-private
@dataclass(frozen=True)
class ColumnFacts:
    """The column's plain statistics, computed without noise: NOT private, shown for comparison only.

    Attributes
    ----------
    n : int, diagnostic
    mean, median, q1, q3, minimum, maximum, sd : float, diagnostic
        Mean, median, quartiles (25 % and 75 %), smallest and largest value, standard deviation (divisor n).
    """

    n: int = diagnostic()
    mean: float = diagnostic()
    median: float = diagnostic()
    q1: float = diagnostic()
    q3: float = diagnostic()
    minimum: float = diagnostic()
    maximum: float = diagnostic()
    sd: float = diagnostic()


@validated(x=_COLUMN)
def column_facts(x) -> ColumnFacts:
    """The column's n, mean, median, quartiles, min, max and standard deviation: non-private (diagnostic).

    >>> column_facts([1.0, 2.0, 3.0, 10.0]).median
    2.5
    """
    q1, median, q3 = np.quantile(x, [0.25, 0.5, 0.75])
    return ColumnFacts(int(x.size), float(x.mean()), float(median), float(q1), float(q3), float(x.min()),
                       float(x.max()), float(x.std()))


def _typed(value: float) -> str:
    """A number the student typed, as typed: every digit kept (``100.5``, ``1,000,000``), a true minus sign."""
    return f"{value:,.15g}".replace("-", "−")


def _check_clipping(lower: float, upper: float) -> None:
    """Refuse clipping bounds [L, U] = [``lower``, ``upper``] that are crossed or equal, in the page's words."""
    if not lower < upper:
        raise InvalidParameterError(f"The clipping bound U ({_typed(upper)}) must be greater than the clipping bound L "
                                    f"({_typed(lower)}): values are moved into the window from L to U.")


def _check_range(public_low: float, public_high: float) -> None:
    """Refuse a public range [a, b] = [``public_low``, ``public_high``] that is crossed or empty, in the page's
    words."""
    if not public_low < public_high:
        raise InvalidParameterError(f"The public range's highest value b ({_typed(public_high)}) must be greater than "
                                    f"its lowest value a ({_typed(public_low)}): the range holds every value such a "
                                    "column can take.")


# --------------------------------------------------------------------------------------- bias and noise
@dataclass(frozen=True)
class ClippingDecomposition:
    r"""The error of the clipped Laplace mean with bounds :math:`[a, b]`, split into bias and noise, exactly.

    Attributes
    ----------
    lower, upper : float, public
        The clipping bounds :math:`a < b`.
    noise_scale : float, public
        The Laplace scale :math:`\beta = (b - a)/(\varepsilon n)`; also the expected absolute noise
        :math:`\mathbb E|\mathrm{Lap}(\beta)| = \beta`.
    clipped_mean : float, diagnostic
        :math:`\overline{\mathrm{clip}_{[a,b]}(x)}`, the value the mechanism adds noise to.
    bias : float, diagnostic
        The exact clipping bias :math:`c = \overline{\mathrm{clip}_{[a,b]}(x)} - \bar x`.
    expected_error : float, diagnostic
        :math:`\mathbb E|c + L| = |c| + \beta e^{-|c|/\beta}`, :math:`L \sim \mathrm{Lap}(\beta)`.
    clipped_fraction : float, diagnostic
        Share of the column outside :math:`[a, b]`.
    """

    lower: float = public()
    upper: float = public()
    noise_scale: float = public()
    clipped_mean: float = diagnostic()
    bias: float = diagnostic()
    expected_error: float = diagnostic()
    clipped_fraction: float = diagnostic()


def _expected_error(bias, scale):
    """E|c + Lap(b)| = |c| + b exp(−|c|/b), elementwise."""
    return np.abs(bias) + scale * np.exp(-np.abs(bias) / scale)


@validated(x=_COLUMN, lower=_BOUND, upper=_BOUND, epsilon=EPSILON)
def clipping_decomposition(x, lower: float, upper: float, epsilon: float) -> ClippingDecomposition:
    r"""Bias and noise of the clipped Laplace mean of the column with bounds ``[lower, upper]`` at ``epsilon``.

    The release is :math:`\overline{\mathrm{clip}_{[a,b]}(x)} + L`, :math:`L \sim \mathrm{Lap}(\beta)`,
    :math:`\beta = (b - a)/(\varepsilon n)` (Dwork et al. 2006; the clipped mean of Kamath, Singhal & Ullman 2020).
    Its error against the column's mean is :math:`c + L` with the exact clipping bias
    :math:`c = \overline{\mathrm{clip}(x)} - \bar x`, and for a Laplace variable
    :math:`\mathbb E|c + L| = |c| + \beta e^{-|c|/\beta}` (integrate the density :math:`e^{-|z|/\beta}/(2\beta)`).
    The bias and the expected error are computed from the data without noise: diagnostics.

    >>> d = clipping_decomposition([0.0, 1.0, 2.0, 9.0], 0.0, 5.0, 1.0)
    >>> d.bias, d.noise_scale
    (-1.0, 1.25)
    """
    _check_clipping(lower, upper)
    clipped = float(np.clip(x, lower, upper).mean())
    bias = clipped - float(x.mean())
    scale = (upper - lower) / (epsilon * x.size)
    return ClippingDecomposition(lower, upper, scale, clipped, bias, float(_expected_error(bias, scale)),
                                 float(np.mean((x < lower) | (x > upper))))


@dataclass(frozen=True)
class BestBounds:
    """The clipping bounds with the least expected error, found by looking at the data: an oracle, NOT private.

    Attributes
    ----------
    decomposition : ClippingDecomposition, diagnostic
        Bias and noise at the best bounds (its bounds were chosen from the data).
    lower_level, upper_level : float, diagnostic
        The column's quantile levels the bounds sit at.
    note : str, public
        "best bounds (computed from the data: not private)".
    """

    decomposition: ClippingDecomposition = diagnostic()
    lower_level: float = diagnostic()
    upper_level: float = diagnostic()
    note: str = public()


#: Quantile levels the oracle tries for the lower bound (the upper bound tries one minus each)
_LEVELS = np.array([0.0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45])


@validated(x=_COLUMN, epsilon=EPSILON)
def best_bounds(x, epsilon: float) -> BestBounds:
    r"""The clipping bounds minimising the clipped Laplace mean's expected error
    :math:`|c| + \beta e^{-|c|/\beta}` (:func:`clipping_decomposition`) over pairs of the column's own quantiles
    (lower at levels 0 … 45 %, upper at 55 … 100 %, 225 pairs; pairs with lower = upper are skipped).

    Computed FROM THE DATA, hence not private: an oracle, for comparison. Releasing a mean clipped to these bounds
    would leak the column's quantiles; a private version would spend budget on choosing them (e.g. the private
    quartiles of :func:`releases`, or the private range of Kamath, Singhal & Ullman 2020).

    >>> x = np.random.default_rng(0).pareto(2.0, 1000)
    >>> best = best_bounds(x, 1.0)
    >>> best.decomposition.expected_error < clipping_decomposition(x, 0.0, float(x.max()), 1.0).expected_error
    True
    """
    ordered = np.sort(x)
    lows = np.quantile(ordered, _LEVELS)[:, None]
    highs = np.quantile(ordered, 1.0 - _LEVELS)[None, :]
    prefix = np.concatenate([[0.0], np.cumsum(ordered)])
    below, above = np.searchsorted(ordered, lows), np.searchsorted(ordered, highs, side="right")
    inner = prefix[np.maximum(above, below)] - prefix[below]
    clipped = (below * lows + inner + (x.size - np.maximum(above, below)) * highs) / x.size
    width = highs - lows
    with np.errstate(divide="ignore", invalid="ignore"):
        error = np.where(width > 0, _expected_error(clipped - x.mean(), width / (epsilon * x.size)), np.inf)
    i, j = np.unravel_index(int(np.argmin(error)), error.shape)
    if not np.isfinite(error[i, j]):
        raise InvalidParameterError("Every value of the column is the same: there are no bounds to choose, and nothing "
                                    "to estimate privately. Pick a column whose values differ.")
    decomposition = clipping_decomposition(x, float(lows[i, 0]), float(highs[0, j]), epsilon)
    return BestBounds(decomposition, float(_LEVELS[i]), float(1.0 - _LEVELS[j]),
                      "best bounds (computed from the data: not private)")


@validated(x=_COLUMN, lower=_BOUND, upper=_BOUND, epsilon=EPSILON, trials=Integer(low=1), rng=Seed())
def clipped_mean_draws(x, lower: float, upper: float, epsilon: float, trials: int = 1,
                       rng: RngLike = None) -> np.ndarray:
    r"""``trials`` independent releases of the page's clipped Laplace mean on the column ``x``.

    Each is :math:`\overline{\mathrm{clip}_{[a,b]}(x)} + \mathrm{Lap}(\Delta_1/\varepsilon)`,
    :math:`\Delta_1 = (b - a)/n` (:func:`dpcore.mechanisms.laplace`; Dwork et al. 2006): :math:`\varepsilon`-DP
    under replace-one, since replacing one value moves the clipped mean by at most :math:`(b - a)/n`. The clipped
    mean is computed once; only the noise is drawn per release. The same computation as
    :func:`~dpcore.estimators.heavy_tailed_mean.clipped_laplace_mean`, without its ``(trials, n)`` copies.

    >>> clipped_mean_draws([0.0, 1.0, 2.0, 9.0], 0.0, 5.0, 1.0, trials=3, rng=0).shape
    (3,)
    """
    _check_clipping(lower, upper)
    clipped = np.full(trials, float(np.clip(x, lower, upper).mean()))
    return np.asarray(mechanisms.laplace(clipped, (upper - lower) / x.size, epsilon, rng))


@validated(x=_COLUMN)
def fact_rows(x) -> list[dict[str, str]]:
    """The column's statistics as table rows (statistic, value), for comparison with the releases: NOT private.

    >>> fact_rows([1.0, 2.0, 3.0, 10.0])[:2]
    [{'statistic': 'number of values n', 'value (not private)': '4'}, {'statistic': 'mean', 'value (not private)': '4'}]
    """
    facts = column_facts(x)
    named = (("mean", facts.mean), ("median", facts.median), ("25th percentile", facts.q1),
             ("75th percentile", facts.q3), ("smallest value", facts.minimum), ("largest value", facts.maximum),
             ("standard deviation", facts.sd))
    return [{"statistic": "number of values n", "value (not private)": f"{facts.n:,}"},
            *({"statistic": name, "value (not private)": number_text(value)} for name, value in named)]


@validated(x=_COLUMN, public_low=_BOUND, public_high=_BOUND, lower=_BOUND, upper=_BOUND)
def bounds_warning(x, public_low: float, public_high: float, lower: float, upper: float) -> str:
    """A warning when clipping bounds look read off the column: ``lower`` equal to the column's smallest value or
    ``upper`` to its largest (to a relative 1e-9), unless the bound is the public range's own end (a count's public
    0 is also its minimum); "" otherwise. Bounds read off the data leak it, as diffprivlib's ``PrivacyLeakWarning``
    says.

    >>> bounds_warning([0.0, 3.0, 77.0], 0, 100, 0, 100), bounds_warning([0.0, 3.0, 77.0], 0, 100, 0, 77)[:28]
    ('', 'These bounds look read off t')
    """
    read = ((lower != public_low and math.isclose(lower, float(np.min(x)), rel_tol=1e-9))
            or (upper != public_high and math.isclose(upper, float(np.max(x)), rel_tol=1e-9)))
    if not read:
        return ""
    return ("These bounds look read off the column itself: one equals its smallest or largest value. Bounds taken "
            "from the data publish that value without noise, so the release is no longer private; choose them from "
            "what is known before seeing the data (an age lies between 0 and 120).")


@validated(x=_COLUMN, public_low=_BOUND, public_high=_BOUND, lower=_BOUND, upper=_BOUND)
def coverage_warning(x, public_low: float, public_high: float, lower: float, upper: float) -> str:
    """A warning when the public range [a, b] leaves out, or the clipping bounds [L, U] move, more than
    :data:`SHARE_WARNED` (5 %) of the column's values; "" otherwise, and for crossed bounds (their refusal says so).

    A value outside the public range is one the private median, quartiles and histogram cannot answer (they draw
    inside it), so they cannot come near the true ones; a value clipped biases the clipped means. The shares are
    counted on the column itself without noise: the page's comparison (diagnostic), which a real release would not
    see, and the warning says so.

    >>> x = np.arange(1.0, 101.0)
    >>> coverage_warning(x, 0, 100, 0, 100), coverage_warning(x, 0, 50, 0, 100)[:48]
    ('', 'The public range [0, 50] leaves out 50 % of this')
    """
    def share(low: float, high: float) -> float:
        return float(np.mean((x < low) | (x > high))) if low < high else 0.0

    left_out, moved = share(public_low, public_high), share(lower, upper)
    said = []
    if left_out > SHARE_WARNED:
        said.append(f"The public range [{_typed(public_low)}, {_typed(public_high)}] leaves out "
                    f"{100 * left_out:.3g} % of this column's values: the private median, quartiles and histogram "
                    "answer only inside it, so they cannot come near the true ones.")
    if moved > SHARE_WARNED:
        said.append(f"Clipping to [{_typed(lower)}, {_typed(upper)}] moves {100 * moved:.3g} % of the values to a "
                    "bound: the private means are biased towards it.")
    if not said:
        return ""
    return " ".join([*said, "(Counted on the column itself: the page's comparison, not private; a real release "
                             "would not see it.) Widen them from what you know about such a column."])


# --------------------------------------------------------------------------------------- one release of each
@dataclass(frozen=True)
class Release:
    """One private release beside the non-private value it estimates.

    Attributes
    ----------
    method : str, public
        The release's id (:data:`METHODS`, or ``"histogram"``).
    value : float or numpy.ndarray, released
        The private release (the histogram: one noisy count per bin).
    true_value : float or numpy.ndarray, diagnostic
        The same statistic computed without noise: NOT private.
    guarantee : str, public
        ε (and δ or ρ), the neighbouring relation and the sensitivity.
    """

    method: str = public()
    value: float | np.ndarray = released()
    true_value: float | np.ndarray = diagnostic()
    guarantee: str = public()


@dataclass(frozen=True)
class Releases:
    """One release of each method of the page on one column.

    Attributes
    ----------
    means : dict of str to Release, released
        By id of :data:`MEAN_METHODS`; every true value is the column's mean.
    quantiles : dict of str to Release, released
        By id of :data:`QUANTILE_METHODS` (the 25th percentile, the median, the 75th percentile).
    histogram : Release, released
        Noisy counts per bin, the true counts alongside.
    edges : numpy.ndarray, public
        The histogram's bin edges over the public range.
    budget : str, public
        How the budget is spent.
    """

    means: dict = released()
    quantiles: dict = released()
    histogram: Release = released()
    edges: np.ndarray = public()
    budget: str = public()


_RANGE = dict(public_low=_BOUND, public_high=_BOUND)
_PUBLIC = dict(**_RANGE, lower=_BOUND, upper=_BOUND, epsilon=EPSILON, delta=DELTA, scale=POSITIVE, moment_k=_MOMENT_K)


def _check_public(public_low: float, public_high: float, lower: float, upper: float) -> None:
    _check_range(public_low, public_high)
    _check_clipping(lower, upper)


def _standardised(x: np.ndarray, public_low: float, public_high: float,
                  scale: float) -> tuple[np.ndarray, float, float]:
    """z = (x − centre)/s with the public centre (ℓ₀ + h₀)/2, and the mean range R = (h₀ − ℓ₀)/(2s) of z."""
    centre = (public_low + public_high) / 2.0
    return (x - centre) / scale, centre, (public_high - public_low) / (2.0 * scale)


def _mean_guarantees(n: int, lower: float, upper: float, epsilon: float, delta: float) -> dict[str, str]:
    """The guarantee of each release of a mean, by id."""
    width, rho = upper - lower, accounting.approx_to_zcdp(epsilon, delta)
    sigma = mechanisms.gaussian_sigma(width / n, epsilon, delta)
    return {
        "clipped_laplace": f"{epsilon:g}-DP (pure), replace-one; Δ₁ = (upper − lower)/n = {width / n:.4g}",
        "gaussian_analytic": f"({epsilon:g}, {delta:g})-DP, replace-one; Δ₂ = (upper − lower)/n = {width / n:.4g}, "
                             f"analytic Gaussian σ = {sigma:.4g} (Balle & Wang 2018)",
        "ksu20": f"{epsilon:g}-DP (pure), replace-one (Kamath, Singhal & Ullman 2020, Alg. 2)",
        "ksu20_zcdp": f"{rho:.4g}-zCDP, replace-one, hence ({epsilon:g}, {delta:g})-DP (Bun & Steinke 2016, "
                      f"Prop 1.3; ρ = (√(ln(1/δ) + ε) − √ln(1/δ))²)",
    }


def _streams(seed: int, epsilon: float) -> dict[str, np.random.Generator]:
    """One independent stream per release, keyed by (``seed``, ε): an ε's draws depend neither on the ε grid nor on
    which other releases are drawn."""
    names = MEAN_METHODS + ("histogram",) + QUANTILE_METHODS
    return dict(zip(names, spawn(child_generator(seed, "epsilon", float(epsilon)), len(names)), strict=True))


@contextmanager
def _private_range(x: np.ndarray, public_low: float, public_high: float, scale: float,
                   trials: int = 1) -> Iterator[None]:
    """Kamath, Singhal & Ullman's private range and mean run inside: its refusals said in the page's words.

    It needs 4 values (it splits the column into halves); and its noisy histogram covers the public range in bins
    proportional to the scale s, at most :data:`~dpcore.estimators.heavy_tailed_mean.MAX_HISTOGRAM_CELLS`
    cells for all ``trials`` together: with the page's checked controls that is the one refusal left, so any refusal
    of the estimator is said as such (the estimator's own message is chained, for a notebook's traceback).
    """
    if x.size < 4:
        raise InvalidParameterError(f"The private range needs at least 4 values (it splits the column into halves); "
                                    f"this column has {x.size}.")
    try:
        yield
    except InvalidParameterError as refused:
        together = f" for the {trials:,} trials together" if trials > 1 else ""
        fewer = ", or use fewer trials" if trials > 1 else ""
        raise InvalidParameterError(
            "The private range cannot run with this public range and scale: it counts the column in a noisy "
            f"histogram over the whole public range, in bins proportional to the scale s, and [{_typed(public_low)}, "
            f"{_typed(public_high)}] at s = {_typed(scale)} needs more bins than the lab counts at once "
            f"({MAX_HISTOGRAM_CELLS:,}{together}). Narrow the public range, make the scale s larger{fewer}."
        ) from refused


def _ksu20_column(x: np.ndarray, public_low: float, public_high: float, scale: float,
                  seed: int) -> tuple[np.ndarray, float, float]:
    """The column standardised with public quantities (:func:`_standardised`), in a random order drawn from
    ``seed`` alone (independent of the data)."""
    z, centre, mean_range = _standardised(x, public_low, public_high, scale)
    return z[child_generator(seed, "permutation").permutation(z.size)], centre, mean_range


@validated(x=_COLUMN, **_RANGE, epsilon=EPSILON, seed=SEED)
def private_quantiles(x, public_low: float, public_high: float, epsilon: float, seed: int) -> dict[str, Release]:
    r"""The 25th percentile, the median and the 75th percentile of the column, each released by
    :func:`~dpcore.mechanisms.private_quantile`: the exponential mechanism (McSherry & Talwar 2007; Smith 2011) over
    the public range :math:`[\ell_0, h_0]` with the rank score of sensitivity 1, at :math:`\varepsilon/3` each, so
    together :math:`\varepsilon`-DP under replace-one (basic composition). By id of :data:`QUANTILE_METHODS`; the
    true quantiles (``numpy.quantile``) are diagnostics. The releases of :func:`releases` at the same ``seed``.

    >>> got = private_quantiles(np.arange(100.0), 0.0, 100.0, 1.0, seed=0)
    >>> list(got), got["private_median"].true_value
    (['private_q1', 'private_median', 'private_q3'], 49.5)
    """
    _check_range(public_low, public_high)
    streams, third = _streams(seed, epsilon), epsilon / len(QUANTILES)
    guarantee = (f"{third:.4g}-DP (pure), replace-one; rank score of sensitivity 1 (exponential mechanism); the "
                 f"three quantiles together {epsilon:g}-DP (basic composition)")
    ordered = np.sort(x)  # sorted once: the three mechanisms skip their own sort of the same values
    true_quantiles = np.quantile(ordered, list(QUANTILES.values()))
    return {name: Release(name, float(mechanisms.private_quantile(ordered, q, third, public_low, public_high,
                                                                  streams[name])), float(true), guarantee)
            for (name, q), true in zip(QUANTILES.items(), true_quantiles, strict=True)}


@validated(x=_COLUMN, **_RANGE, epsilon=EPSILON, seed=SEED, bins=_BINS)
def private_histogram(x, public_low: float, public_high: float, epsilon: float, seed: int,
                      bins: int = BINS) -> Release:
    r"""The column's histogram released by :func:`~dpcore.mechanisms.laplace_histogram`: ``bins`` equal bins over
    the public range :math:`[\ell_0, h_0]` (edges ``numpy.linspace(public_low, public_high, bins + 1)``; the column
    is clipped to the range first, so every value is counted), :math:`\mathrm{Lap}(2/\varepsilon)` per bin:
    :math:`\varepsilon`-DP under replace-one (one changed value moves two counts by 1, :math:`\Delta_1 = 2`). The
    release of :func:`releases` at the same ``seed``; the exact counts are a diagnostic.

    >>> private_histogram(np.arange(100.0), 0.0, 100.0, 1.0, seed=0, bins=4).true_value.tolist()
    [25.0, 25.0, 25.0, 25.0]
    """
    _check_range(public_low, public_high)
    edges = np.linspace(public_low, public_high, bins + 1)
    inside = np.clip(x, public_low, public_high)
    noisy = mechanisms.laplace_histogram(inside, edges, epsilon, _streams(seed, epsilon)["histogram"])
    return Release("histogram", noisy, np.histogram(inside, edges)[0].astype(float),
                   f"{epsilon:g}-DP (pure), replace-one; Δ₁ = 2 (one changed value moves two counts by 1)")


@validated(x=_COLUMN, **_PUBLIC, seed=SEED, bins=_BINS)
def releases(x, public_low: float, public_high: float, lower: float, upper: float, epsilon: float, delta: float,
             scale: float, moment_k: float, seed: int, bins: int = BINS) -> Releases:
    r"""One release of each of the page's methods on the column ``x``, each spending the whole budget on its own.

    Neighbours: replace-one (same n, one value changed). The releases:

    * ``"clipped_laplace"``: :math:`\overline{\mathrm{clip}_{[a,b]}(x)} + \mathrm{Lap}(\Delta_1/\varepsilon)`,
      :math:`\Delta_1 = (b - a)/n` (:func:`~dpcore.estimators.heavy_tailed_mean.clipped_laplace_mean`; Dwork et al.
      2006): :math:`\varepsilon`-DP.
    * ``"gaussian_analytic"``: the same clipped mean plus :math:`\mathcal N(0, \sigma^2)`, :math:`\sigma` the analytic
      Gaussian calibration for :math:`\Delta_2 = (b - a)/n` (:func:`~dpcore.mechanisms.gaussian`; Balle & Wang 2018):
      :math:`(\varepsilon, \delta)`-DP.
    * ``"ksu20"``: :func:`~dpcore.estimators.heavy_tailed_mean.private_mean_1d` (Kamath, Singhal & Ullman 2020,
      Alg. 2: a private range from half the column, then the clipped Laplace mean of the other half), pure
      :math:`\varepsilon`-DP. It needs a scale: the column is standardised with PUBLIC quantities only,
      :math:`z = (x - c)/s` with :math:`c = (\ell_0 + h_0)/2` and the student's ``scale`` :math:`s`, under the
      moment assumption :math:`\mathbb E|X - \mu|^k \le s^k` (:math:`k` = ``moment_k``), i.e.
      :math:`\mathbb E|Z - \mu_Z|^k \le 1`, and the mean range :math:`R = (h_0 - \ell_0)/(2s)` (the mean lies in
      the public range); the release is :math:`c + s\hat\mu_Z`. The map is the same fixed bijection for every
      column, so neighbours stay neighbours and the guarantee is unchanged (post-processing); the assumption
      matters for accuracy only. Before the split the rows are put in a random order (a permutation drawn
      independently of the data, which keeps neighbours neighbours), so a column stored sorted is split fairly.
    * ``"ksu20_zcdp"``: :func:`~dpcore.estimators.heavy_tailed_mean.private_mean_1d_zcdp` on the same standardised,
      permuted column at :math:`\rho = (\sqrt{\ln(1/\delta) + \varepsilon} - \sqrt{\ln(1/\delta)})^2`
      (:func:`dpcore.accounting.approx_to_zcdp`): :math:`\rho`-zCDP (Bun & Steinke 2016), which converts to exactly
      :math:`(\varepsilon, \delta)`-DP by their Prop 1.3, the same budget as the Gaussian release.
    * ``"private_q1"``, ``"private_median"``, ``"private_q3"``: :func:`private_quantiles`, the exponential mechanism
      over :math:`[\ell_0, h_0]` at :math:`\varepsilon/3` each: together :math:`\varepsilon`-DP.
    * the histogram: :func:`private_histogram`, ``bins`` bins over :math:`[\ell_0, h_0]`,
      :math:`\mathrm{Lap}(2/\varepsilon)` per bin: :math:`\varepsilon`-DP.

    The true values (the column's mean, quantiles, counts) are diagnostics. Each method draws from its own child
    stream of ``seed`` (:func:`private_quantiles` and :func:`private_histogram` alone give the same releases).

    >>> x = np.random.default_rng(0).lognormal(6.0, 0.6, 500)
    >>> r = releases(x, 0.0, 10_000.0, 0.0, 2_000.0, 1.0, 1e-6, 1_000.0, 2.0, seed=0)
    >>> sorted(r.means), r.means["clipped_laplace"].guarantee.split(";")[0]
    (['clipped_laplace', 'gaussian_analytic', 'ksu20', 'ksu20_zcdp'], '1-DP (pure), replace-one')
    """
    _check_public(public_low, public_high, lower, upper)
    return Releases(_mean_releases(x, public_low, public_high, lower, upper, epsilon, delta, scale, moment_k, seed),
                    private_quantiles(x, public_low, public_high, epsilon, seed),
                    private_histogram(x, public_low, public_high, epsilon, seed, bins),
                    np.linspace(public_low, public_high, bins + 1),
                    f"each release spends the whole budget (ε = {epsilon:g}, δ = {delta:g}) on its own; publishing "
                    "them all would add their ε's (basic composition)")


def _mean_releases(x: np.ndarray, public_low: float, public_high: float, lower: float, upper: float, epsilon: float,
                   delta: float, scale: float, moment_k: float, seed: int) -> dict[str, Release]:
    """The releases of a mean of :func:`releases`, by id of :data:`MEAN_METHODS`."""
    n, truth = x.size, float(x.mean())
    guarantee = _mean_guarantees(n, lower, upper, epsilon, delta)
    streams = _streams(seed, epsilon)
    clipped = float(np.clip(x, lower, upper).mean())
    z, centre, mean_range = _ksu20_column(x, public_low, public_high, scale, seed)
    rho = accounting.approx_to_zcdp(epsilon, delta)
    values = {
        "clipped_laplace": clipped_mean_draws(x, lower, upper, epsilon, 1, streams["clipped_laplace"])[0],
        "gaussian_analytic": mechanisms.gaussian(clipped, (upper - lower) / n, epsilon, delta,
                                                 streams["gaussian_analytic"]),
    }
    with _private_range(x, public_low, public_high, scale):
        values["ksu20"] = centre + scale * private_mean_1d(z, epsilon, moment_k, mean_range, streams["ksu20"]).estimate
        values["ksu20_zcdp"] = centre + scale * private_mean_1d_zcdp(z, rho, moment_k, mean_range,
                                                                     streams["ksu20_zcdp"]).estimate
    return {name: Release(name, float(value), truth, guarantee[name]) for name, value in values.items()}


@validated(x=_COLUMN, **_PUBLIC, seed=SEED)
def release_rows(x, public_low: float, public_high: float, lower: float, upper: float, epsilon: float, delta: float,
                 scale: float, moment_k: float, seed: int) -> list[dict[str, str]]:
    """One row per scalar release of :func:`releases` (same arguments): what is released, its value, the true value
    beside it (NOT private) and the guarantee.

    >>> rows = release_rows(np.arange(100.0), 0, 100, 0, 100, 1.0, 1e-6, 30.0, 2.0, seed=0)
    >>> [row["release"] for row in rows][:2], rows[0]["true value (not private)"]
    (['clipped Laplace', 'Gaussian (analytic)'], '49.5')
    """
    _check_public(public_low, public_high, lower, upper)
    means = _mean_releases(x, public_low, public_high, lower, upper, epsilon, delta, scale, moment_k, seed)
    quantiles = private_quantiles(x, public_low, public_high, epsilon, seed)
    return [{"release": label(release.method), "released": number_text(float(release.value)),
             "true value (not private)": number_text(float(release.true_value)), "guarantee": release.guarantee}
            for release in (*means.values(), *quantiles.values())]


# --------------------------------------------------------------------------------------- error versus ε
@dataclass(frozen=True)
class ErrorSweep:
    """Many releases of each method at each ε on the same column: how far they land from the true values.

    The releases vary only through the mechanisms' randomness (the column is fixed). Together the ``trials``
    releases are NOT private (each is; their ε's would add): every statistic here is a diagnostic for teaching.

    Attributes
    ----------
    epsilons : numpy.ndarray, public
        The ε grid, shape (m,).
    trials : int, public
        Releases per method and ε.
    true_values : dict of str to float, diagnostic
        The non-private value each method estimates, by id of the methods swept (of :data:`METHODS`).
    released : dict of str to numpy.ndarray, diagnostic
        By id: shape (3, m), the 10 %, 50 % and 90 % percentiles of the released values at each ε.
    errors : dict of str to numpy.ndarray, diagnostic
        By id: shape (3, m), the same percentiles of the absolute error |release − true value|.
    """

    epsilons: np.ndarray = public()
    trials: int = public()
    true_values: dict = diagnostic()
    released: dict = diagnostic()
    errors: dict = diagnostic()


_PERCENTILES = (10.0, 50.0, 90.0)
_EPSILONS = Array(ndim=(1,), low=0, low_open=True, min_size=1)


@dataclass(frozen=True)
class _Methods(Constraint):
    """A non-empty list or tuple of distinct release ids among ``options``; normalised to a tuple."""

    options: tuple[str, ...]

    def describe(self) -> str:
        return "a non-empty list of distinct ids among " + ", ".join(repr(name) for name in self.options)

    def check(self, name: str, value: Any) -> tuple[str, ...]:
        if (not isinstance(value, (list, tuple)) or not value or len(set(value)) != len(value)
                or not all(isinstance(item, str) and item in self.options for item in value)):
            self.fail(name, value)
        return tuple(value)

    def bad_values(self) -> list[Any]:
        return [None, (), self.options[0], ("no-such-release",), (self.options[0],) * 2]


def _sweep(grid: np.ndarray, trials: int, seed: int, truth: dict[str, float],
           draws_at: Callable[[float, dict], dict[str, np.ndarray]]) -> ErrorSweep:
    """The percentiles of ``draws_at(ε, streams)`` (``trials`` releases by id) and of their errors against ``truth``,
    at each ε of ``grid``, the streams keyed by (``seed``, ε)."""
    released_values = {name: np.empty((3, grid.size)) for name in truth}
    errors = {name: np.empty((3, grid.size)) for name in truth}
    for column, eps in enumerate(grid):
        for name, draws in draws_at(float(eps), _streams(seed, float(eps))).items():
            released_values[name][:, column] = np.percentile(draws, _PERCENTILES)
            errors[name][:, column] = np.percentile(np.abs(draws - truth[name]), _PERCENTILES)
    return ErrorSweep(grid, trials, truth, released_values, errors)


@validated(x=_COLUMN, **_PUBLIC, epsilons=_EPSILONS, trials=_TRIALS, seed=SEED, methods=_Methods(MEAN_METHODS))
def mean_error_vs_epsilon(x, public_low: float, public_high: float, lower: float, upper: float, epsilon: float,
                          delta: float, scale: float, moment_k: float, epsilons=EPSILONS, trials: int = 200,
                          seed: int = 0, methods=MEAN_METHODS) -> ErrorSweep:
    r"""``trials`` releases of each mean of ``methods`` (ids of :data:`MEAN_METHODS`, the releases of :func:`releases`)
    at each ε of ``epsilons`` (``epsilon``, the page's ε, is added to the grid if missing), with the column fixed:
    Monte Carlo over the mechanisms' randomness only.

    The clipped mean is computed once per ε and only the noise is drawn per trial, through the same mechanisms
    (:func:`dpcore.mechanisms.laplace`, :func:`dpcore.mechanisms.gaussian`); KSU20 by
    :func:`~dpcore.estimators.heavy_tailed_mean.repeated_private_mean_1d` (and its zCDP twin), draw for draw the
    vectorised :func:`~dpcore.estimators.heavy_tailed_mean.private_mean_1d`. Each method draws from its own stream,
    keyed by (``seed``, ε, the method): its numbers at an ε depend neither on the rest of the grid nor on the other
    methods swept with it. Cost per ε: :math:`O(n)` per method, plus :math:`O(\mathrm{trials})` noise.

    >>> x = np.random.default_rng(0).lognormal(6.0, 0.6, 500)
    >>> sweep = mean_error_vs_epsilon(x, 0.0, 10_000.0, 0.0, 2_000.0, 1.0, 1e-6, 1_000.0, 2.0, [0.5, 1.0], trials=20)
    >>> sweep.errors["ksu20"].shape
    (3, 2)
    """
    _check_public(public_low, public_high, lower, upper)
    clipped = float(np.clip(x, lower, upper).mean())
    ksu20 = bool({"ksu20", "ksu20_zcdp"} & set(methods))
    if ksu20:  # the standardised, permuted column only when KSU20 is swept
        z, centre, mean_range = _ksu20_column(x, public_low, public_high, scale, seed)

    def draws_at(eps: float, streams: dict) -> dict[str, np.ndarray]:
        draw = {
            "clipped_laplace": lambda: clipped_mean_draws(x, lower, upper, eps, trials, streams["clipped_laplace"]),
            "gaussian_analytic": lambda: np.asarray(mechanisms.gaussian(np.full(trials, clipped), (upper - lower)
                                                                        / x.size, eps, delta,
                                                                        streams["gaussian_analytic"])),
            "ksu20": lambda: centre + scale * repeated_private_mean_1d(z, eps, moment_k, mean_range, trials,
                                                                       streams["ksu20"]),
            "ksu20_zcdp": lambda: centre + scale * repeated_private_mean_1d_zcdp(
                z, accounting.approx_to_zcdp(eps, delta), moment_k, mean_range, trials, streams["ksu20_zcdp"]),
        }
        return {name: draw[name]() for name in methods}

    grid = np.unique(np.append(epsilons, epsilon))
    with _private_range(x, public_low, public_high, scale, trials) if ksu20 else nullcontext():
        return _sweep(grid, trials, seed, dict.fromkeys(methods, float(x.mean())), draws_at)


@validated(x=_COLUMN, **_RANGE, epsilon=EPSILON, epsilons=_EPSILONS, trials=_TRIALS, seed=SEED,
           methods=_Methods(QUANTILE_METHODS))
def quantile_error_vs_epsilon(x, public_low: float, public_high: float, epsilon: float, epsilons=EPSILONS,
                              trials: int = 200, seed: int = 0, methods=QUANTILE_METHODS) -> ErrorSweep:
    r"""``trials`` releases of each quantile of ``methods`` (ids of :data:`QUANTILE_METHODS`, the releases of
    :func:`private_quantiles`) at each ε of ``epsilons`` (``epsilon`` added to the grid if missing), the column fixed.

    Each release is drawn by :func:`~dpcore.mechanisms.sample_quantile_density` from its exact law
    (:func:`~dpcore.mechanisms.quantile_densities`, every ε of the grid at once), the law of
    :func:`~dpcore.mechanisms.private_quantile` at :math:`\varepsilon/3`; streams keyed by (``seed``, ε, the method),
    as in :func:`mean_error_vs_epsilon`. Cost :math:`O(n \log n)` (one sort), plus :math:`O(n + \mathrm{trials} \log n)`
    per quantile and ε.

    >>> x = np.random.default_rng(0).lognormal(6.0, 0.6, 500)
    >>> sweep = quantile_error_vs_epsilon(x, 0.0, 10_000.0, 1.0, [0.5, 1.0], trials=20, methods=["private_median"])
    >>> list(sweep.errors), sweep.errors["private_median"].shape
    (['private_median'], (3, 2))
    """
    _check_range(public_low, public_high)
    ordered = np.sort(x)
    true_quantiles = dict(zip(QUANTILES, np.quantile(ordered, list(QUANTILES.values())).tolist(), strict=True))

    grid = np.unique(np.append(epsilons, epsilon))
    laws = {name: dict(zip(grid.tolist(), quantile_densities(ordered, QUANTILES[name], grid / len(QUANTILES),
                                                             public_low, public_high), strict=True))
            for name in methods}  # each quantile's intervals once, its law at every ε of the grid

    def draws_at(eps: float, streams: dict) -> dict[str, np.ndarray]:
        return {name: sample_quantile_density(laws[name][eps], trials, streams[name]) for name in methods}

    return _sweep(grid, trials, seed, {name: true_quantiles[name] for name in methods}, draws_at)


@validated(x=_COLUMN, **_PUBLIC, epsilons=_EPSILONS, trials=_TRIALS, seed=SEED)
def error_vs_epsilon(x, public_low: float, public_high: float, lower: float, upper: float, epsilon: float,
                     delta: float, scale: float, moment_k: float, epsilons=EPSILONS, trials: int = 200,
                     seed: int = 0) -> ErrorSweep:
    """Every scalar release of :func:`releases` swept over ε: :func:`mean_error_vs_epsilon` and
    :func:`quantile_error_vs_epsilon` (same arguments) joined into one :class:`ErrorSweep`, by id of :data:`METHODS`.

    >>> x = np.random.default_rng(0).lognormal(6.0, 0.6, 500)
    >>> sweep = error_vs_epsilon(x, 0.0, 10_000.0, 0.0, 2_000.0, 1.0, 1e-6, 1_000.0, 2.0, [0.5, 1.0], trials=20)
    >>> list(sweep.errors) == list(METHODS), sweep.errors["private_median"].shape
    (True, (3, 2))
    """
    means = mean_error_vs_epsilon(x, public_low, public_high, lower, upper, epsilon, delta, scale, moment_k,
                                  epsilons, trials, seed)
    return _joined(means, quantile_error_vs_epsilon(x, public_low, public_high, epsilon, epsilons, trials, seed))


def _joined(means: ErrorSweep, quantiles: ErrorSweep) -> ErrorSweep:
    """Two sweeps over the same grid and trials as one."""
    return ErrorSweep(means.epsilons, means.trials, {**means.true_values, **quantiles.true_values},
                      {**means.released, **quantiles.released}, {**means.errors, **quantiles.errors})


# --------------------------------------------------------------------------------------- words
@dataclass(frozen=True)
class _Unit(Constraint):
    """The column's unit for the words: a short one-line string, possibly empty."""

    def describe(self) -> str:
        return "a one-line string of at most 20 characters, e.g. 'francs' (may be empty)"

    def check(self, name: str, value: Any) -> str:
        if not isinstance(value, str) or "\n" in value or len(value) > 20:
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        return [None, 3.0, "two\nlines", "x" * 21]


_UNIT = _Unit()


def _at(sweep: ErrorSweep, epsilon: float) -> int:
    return int(np.argmin(np.abs(sweep.epsilons - epsilon)))


def _useful_from(sweep: ErrorSweep, method: str, spread: float) -> float | None:
    """The smallest ε of the grid from which the median error stays below 10 % of ``spread`` (None: never)."""
    good = sweep.errors[method][1] <= 0.1 * spread
    tail = np.flatnonzero(~good)
    start = 0 if tail.size == 0 else tail[-1] + 1
    return float(sweep.epsilons[start]) if start < good.size else None


@validated(x=_COLUMN, **_PUBLIC, trials=_TRIALS, seed=SEED, unit=_UNIT, revealed=Choice((False, True)))
def takeaways(x, public_low: float, public_high: float, lower: float, upper: float, epsilon: float, delta: float,
              scale: float, moment_k: float, trials: int = 200, seed: int = 0, unit: str = "",
              revealed: bool = True) -> list[str]:
    """Four sentences for a first-year student, computed from the page's numbers at ``epsilon``: the clipped mean's
    error against the private median's, bias against noise, the oracle bounds, and from which ε each estimate is
    useful (median error under 10 % of the column's interquartile range). Before the student's guess (``revealed``
    false) bias against noise, the answer of :func:`cost_question`, is left for after it.

    The numbers are those of :func:`error_vs_epsilon` (same ``seed`` and ``trials``; an ε's draws do not depend on
    the grid), :func:`clipping_decomposition` and :func:`best_bounds`.

    >>> x = np.random.default_rng(0).lognormal(6.0, 0.6, 500)
    >>> words = takeaways(x, 0.0, 10_000.0, 0.0, 2_000.0, 1.0, 1e-6, 1_000.0, 2.0, trials=50, unit="francs")
    >>> len(words), words[0].startswith("At ε = 1")
    (4, True)
    """
    sweep = _joined(mean_error_vs_epsilon(x, public_low, public_high, lower, upper, epsilon, delta, scale, moment_k,
                                          EPSILONS, trials, seed, methods=["clipped_laplace"]),
                    quantile_error_vs_epsilon(x, public_low, public_high, epsilon, EPSILONS, trials, seed,
                                              methods=["private_median"]))
    column = _at(sweep, epsilon)
    split, best = clipping_decomposition(x, lower, upper, epsilon), best_bounds(x, epsilon).decomposition
    facts = column_facts(x)
    units = f" {unit}" if unit else ""

    def amount(value: float) -> str:
        return f"{number_text(value)}{units}"

    mean_error, median_error = sweep.errors["clipped_laplace"][1, column], sweep.errors["private_median"][1, column]
    ratio = mean_error / median_error if median_error > 0 else math.inf
    compare = ("about the same as the median's" if 1 / 1.05 < ratio < 1.05  # never "1× smaller"
               else f"{number_text(ratio)}× the median's" if ratio >= 1
               else f"{number_text(1 / ratio)}× smaller than the median's")
    bigger = "the clipping bias" if abs(split.bias) > split.noise_scale else "the noise"
    spread = facts.q3 - facts.q1
    useful = ({name: _useful_from(sweep, name, spread) for name in ("clipped_laplace", "private_median")}
              if spread > 0 else {})
    words = [
        f"At ε = {epsilon:g} (ε: the privacy budget; smaller is more private) the clipped mean's typical error "
        f"(≈ {amount(mean_error)}, the median over {trials} releases) is {compare} (≈ {amount(median_error)}).",
        (f"Clipping to [{number_text(lower)}, {number_text(upper)}] moves {100 * split.clipped_fraction:.3g} % of "
         f"the values and shifts the mean by the bias {amount(split.bias)}; the Laplace noise adds "
         f"{amount(split.noise_scale)} on average: here {bigger} costs more." if revealed else
         f"Which costs the mean more with the bounds [{number_text(lower)}, {number_text(upper)}], the clipping bias "
         f"or the noise, and by how much, appears {HELD_BACK} (Predict first, above)."),
        f"Bounds chosen by looking at the data ([{number_text(best.lower)}, {number_text(best.upper)}]) would cut "
        f"the expected error from {amount(split.expected_error)} to {amount(best.expected_error)}, but choosing "
        "them from the data is not private: the quartiles or the private range must be released privately first.",
    ]
    if useful:
        said = {name: (f"from ε ≈ {value:g}" if value is not None else "at no ε of the grid")
                for name, value in useful.items()}
        words.append(f"Counting an estimate useful when its typical error is under 10 % of the middle half of the "
                     f"data (the interquartile range, {amount(spread)}): the clipped mean is useful "
                     f"{said['clipped_laplace']}, the private median {said['private_median']}.")
    return words


@validated(x=_COLUMN, lower=_BOUND, upper=_BOUND, epsilon=EPSILON)
def cost_question(x, lower: float, upper: float, epsilon: float) -> Question:
    """Predict, then reveal: which costs the clipped mean of this column more at ``epsilon``, the clipping bias or
    the noise? Answered from :func:`clipping_decomposition` (|bias| against the expected absolute noise b).

    >>> question = cost_question([0.0, 1.0, 2.0, 90.0], 0.0, 5.0, 1.0)
    >>> question.choices[question.answer]
    'the clipping bias'
    """
    split = clipping_decomposition(x, lower, upper, epsilon)
    bias, noise = abs(split.bias), split.noise_scale
    answer = 2 if max(bias, noise) <= 1.25 * min(bias, noise) else int(noise > bias)
    return Question(
        key="real_data_cost",
        prompt=f"At ε = {epsilon:g}, with the clipping bounds [{number_text(lower)}, {number_text(upper)}], which "
               "costs this column's private mean more: the clipping bias or the noise?",
        choices=("the clipping bias", "the noise", "about the same (within 25 %)"),
        answer=answer,
        explanation=f"Clipping moves {100 * split.clipped_fraction:.3g} % of the values and shifts the mean by "
                    f"{number_text(split.bias)} (the bias); the Laplace noise adds {number_text(noise)} on average "
                    f"(its scale b = (U − L)/(εn), U and L the clipping bounds, n the number of values). Expected "
                    f"error: {number_text(split.expected_error)}.",
    )


# --------------------------------------------------------------------------------------- the releases as a plan
PLANNER = "choosing-epsilon"  #: the address of the page "Choosing ε", which plans releases from their accuracy
PLAN_CONFIDENCE = 0.95  #: the confidence c of the targets the plan gives each release (within ±t for 95 % of them)


@dataclass(frozen=True)
class PagePlan:
    """The page's releases as a plan for the page "Choosing ε" (:mod:`dpcore.planning`), built from public values
    only: the bounds typed, the page's settings, and the size n of a bundled data set (never a student's file's).

    Attributes
    ----------
    releases : tuple of dpcore.planning.Release, public
        Each release the planner can hold, its target the accuracy it reaches at the page's ε (and δ).
    names : tuple of str, public
        What each release is on this page, in the same order.
    epsilons : tuple of float, public
        The ε each release spends on this page (ε, or ε/3 for a quartile).
    left_out : tuple of str, public
        The releases of the page the plan does not hold, each with why.
    delta : float, public
        The plan's δ: the page's, for its Gaussian release.
    link : str, public
        The planner's address with the plan (``/choosing-epsilon?plan=…&delta=…``).
    """

    releases: tuple = public()
    names: tuple = public()
    epsilons: tuple = public()
    left_out: tuple = public()
    delta: float = public()
    link: str = public()


_DATA = Choice((*DATASETS, None))


@validated(**_RANGE, lower=_BOUND, upper=_BOUND, epsilon=EPSILON, delta=DELTA, data=_DATA, bins=_BINS)
def page_plan(public_low: float, public_high: float, lower: float, upper: float, epsilon: float, delta: float,
              data: str | None = None, bins: int = BINS) -> PagePlan:
    r"""The page's releases as a plan for the page "Choosing ε", each with the target it reaches at this page's ε.

    The plan: the clipped mean on :math:`[L, U]` with Laplace noise and with Gaussian noise (:math:`\Delta = (U -
    L)/n`), the three quartiles (the exponential mechanism on the public range :math:`[a, b]` at :math:`\varepsilon/3`
    each; the planner's bound on its rank error, Dwork & Roth 2014, Thm 3.11, on 1,000 values of the range) and the
    histogram of ``bins`` bins (Laplace noise of scale :math:`2/\varepsilon`, every bin within :math:`\pm t` at
    once). Each target is :func:`dpcore.planning.at_epsilon` at its ε (the Gaussian one at ``delta``), at
    :data:`PLAN_CONFIDENCE`, so the planner's :func:`~dpcore.planning.calibrate` finds this page's ε again. The
    private range of Kamath, Singhal & Ullman (2020) has no kind in the planner: left out, and said.

    **No data go in.** The arguments are the bounds the student typed and the page's settings; ``data`` is the key of
    a bundled public data set, whose size n (:data:`dpcore.datasets.DATASETS`) the plan then holds, or None for a
    student's own file: its n stays the planner's default (1,000), and nothing computed from the file is an argument.

    >>> plan = page_plan(0.0, 120.0, 0.0, 120.0, 1.0, 1e-6, data="anes96")
    >>> [release.kind for release in plan.releases], plan.releases[0].n
    (['mean', 'mean', 'quantile', 'quantile', 'quantile', 'histogram'], 944)
    >>> round(planning.calibrate(plan.releases[0]).epsilon, 9), plan.link[:29]
    (1.0, '/choosing-epsilon?plan=mean:t')
    """
    _check_public(public_low, public_high, lower, upper)
    size = {} if data is None else {"n": DATASETS[data].rows}
    third = epsilon / len(QUANTILES)
    quartile = planning.Release("quantile", 1.0, PLAN_CONFIDENCE, "laplace", public_low, public_high, **size)
    groups = [  # (what the words call them, the ε each spends, the releases as the planner starts them)
        ("the clipped mean with Laplace noise", epsilon,
         (planning.Release("mean", 1.0, PLAN_CONFIDENCE, "laplace", lower, upper, **size),)),
        ("the clipped mean with Gaussian noise", epsilon,
         (planning.Release("mean", 1.0, PLAN_CONFIDENCE, "gaussian", lower, upper, **size),)),
        ("the three private quartiles", third, (quartile,) * len(QUANTILES)),
        (f"the histogram of {bins} bins", epsilon, (planning.Release("histogram", 1.0, PLAN_CONFIDENCE, bins=bins),)),
    ]
    kept, left_out = [], []
    for name, spent, starts in groups:
        reached = planning.at_epsilon(starts[0], spent, delta if starts[0].mechanism == "gaussian" else 0.0).error
        try:
            kept += [(name, spent, replace(start, error=reached)) for start in starts]
        except InvalidParameterError:  # beyond what the planner takes: a quartile off by more than n people
            whose = "the planner's " if data is None else ""
            beyond = (f"more than {whose}n = {starts[0].n:,}" if starts[0].kind == "quantile"
                      else "more than the planner takes")
            unit = " people in rank" if starts[0].kind == "quantile" else ""
            left_out.append(f"{name} (at ε = {spent:.4g} each is within ±{number_text(reached)}{unit} only, "
                            f"{beyond})")
    left_out.append("the private range of Kamath, Singhal & Ullman (2020) and its clipped mean (the planner has no "
                    "release of its kind)")
    releases = tuple(release for _, _, release in kept)
    query = {"plan": planning.plan_text(releases)} if releases else {}
    if any(release.mechanism == "gaussian" for release in releases):
        query["delta"] = f"{delta:.12g}"
    return PagePlan(releases, tuple(name for name, _, _ in kept), tuple(spent for _, spent, _ in kept),
                    tuple(left_out), delta, f"/{PLANNER}" + (f"?{urlencode(query, safe=',:')}" if query else ""))


@validated(**_RANGE, lower=_BOUND, upper=_BOUND, epsilon=EPSILON, delta=DELTA, data=_DATA, bins=_BINS, unit=_UNIT)
def plan_note(public_low: float, public_high: float, lower: float, upper: float, epsilon: float, delta: float,
              data: str | None = None, bins: int = BINS, unit: str = "") -> str:
    """What the page says under "Plan these releases": the link to the planner with the page's releases as a plan
    (:func:`page_plan`, same arguments), the target each holds (``unit``: the column's), what the plan leaves out,
    and, for a student's own file, that its n is not in the link and is theirs to type there.

    >>> plan_note(0.0, 120.0, 0.0, 120.0, 1.0, 1e-6, data="anes96")[:56]
    '[Open these releases as a plan on the page Choosing ε](/'
    """
    plan = page_plan(public_low, public_high, lower, upper, epsilon, delta, data, bins)
    units = {"mean": f" {unit}" if unit else "", "quantile": " people in rank", "histogram": " people in every bin"}
    held: dict[str, str] = {}
    for name, release in zip(plan.names, plan.releases, strict=True):
        held.setdefault(name, f"{name} within ±{number_text(release.error)}{units[release.kind]}"
                        + (" each" if release.kind == "quantile" else ""))
    gaussian = any(release.mechanism == "gaussian" for release in plan.releases)
    words = [f"[Open these releases as a plan on the page Choosing ε]({plan.link}): " + "; ".join(held.values())
             + f", each for {100 * PLAN_CONFIDENCE:g} % of releases: the accuracy it reaches here at ε = {epsilon:g}"
             + (" (ε/3 for each quartile)" if any(release.kind == "quantile" for release in plan.releases) else "")
             + (f", δ = {delta:g} for the Gaussian one" if gaussian else "")
             + ". The planner finds each one's ε again from its target and adds them up: what publishing them all "
               "together would cost.",
             "Not in the plan: " + "; ".join(plan.left_out) + "."]
    if data is None:
        words.append("The link holds only what you typed and the page's settings, nothing computed from your file, "
                     "not even its number of values n: the planner's mean starts at n = 1,000. Type your column's n "
                     "there (the column's table above gives it): the mean's ε then changes with it, as one person "
                     "moves a mean of n values by at most (U − L)/n.")
    return " ".join(words)
