"""Figures of the lesson "Real data" (:mod:`dpcore.lessons.real_data`): bias and noise of the clipped mean for the
student's bounds and the oracle's, the private histogram over the true one, the private quartiles beside the true
ones, Laplace against Gaussian noise on the clipped mean, and the releases against ε (animated).

Each builder takes the column (an array, or a bundled data set's key) plus only the public parameters its figure
depends on, and is pure (a few passes over the column, or one of the lesson's sweeps over ε), so the app caches each
figure on exactly what it shows: per session for an uploaded column, shared for a bundled one.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from ... import mechanisms
from ...core.validation import DELTA, EPSILON, POSITIVE, SEED, Integer, Real, validated
from ...datasets import COLUMN
from ...lessons import real_data as lesson
from ...lessons.methods import LABELS
from ...lessons.plain_words import number_text
from ..animation import FrameData, Series, animated_sweep, figure_height, line_figure
from ..charts import bar_figure
from ..constraints import FLAG, Text
from ..plotly_dict import figure
from ..style import METHOD_COLORS, OKABE_ITO, figure_title, template_dict

__all__ = ["clipping_bars", "histogram", "quantiles", "laplace_vs_gaussian", "means_vs_epsilon", "quantiles_vs_epsilon"]

_COLUMN = COLUMN  # an array, or a bundled data set's key (its results then shared by the key)
_UNIT = Text()
_RANGE = dict(public_low=Real(), public_high=Real())
_PUBLIC = dict(**_RANGE, lower=Real(), upper=Real(), epsilon=EPSILON, delta=DELTA, scale=POSITIVE,
               moment_k=Real(low=1, low_open=True, allow_inf=True))
BEST = "best bounds<br>(not private)"  #: the oracle's bars (bounds read off the data, hence not private)
TRUE = "true histogram (not private)"  #: the outline of the exact counts


def _in(unit: str) -> str:
    return f" ({unit})" if unit else ""


@validated(x=_COLUMN, lower=Real(), upper=Real(), epsilon=EPSILON, unit=_UNIT, presentation=FLAG)
def clipping_bars(x, lower: float, upper: float, epsilon: float, unit: str = "", presentation: bool = False
                  ) -> go.Figure:
    """The clipped Laplace mean's |bias| and expected |noise| (and the expected error, :math:`|c| + b e^{-|c|/b}`) as
    separate bars, for the student's bounds and for the oracle's best bounds
    (:func:`dpcore.lessons.real_data.best_bounds`, computed from the data: not private)."""
    yours = lesson.clipping_decomposition(x, lower, upper, epsilon)
    best = lesson.best_bounds(x, epsilon).decomposition
    categories = [f"your bounds<br>[{number_text(yours.lower)}, {number_text(yours.upper)}]",
                  f"{BEST}<br>[{number_text(best.lower)}, {number_text(best.upper)}]"]
    bars = {"|clipping bias|": [abs(yours.bias), abs(best.bias)],
            "expected |noise| b": [yours.noise_scale, best.noise_scale],
            "expected |error|": [yours.expected_error, best.expected_error]}
    return bar_figure(categories, bars, x_title="clipping bounds", y_title=f"|error|{_in(unit)}",
                      title=f"What clipping costs the mean at ε = {epsilon:g}, n = {x.size:,}",
                      colors=[OKABE_ITO["vermillion"], METHOD_COLORS["laplace"], METHOD_COLORS["non_private"]],
                      presentation=presentation)


@validated(x=_COLUMN, **_RANGE, epsilon=EPSILON, seed=SEED, bins=Integer(low=1, high=1000), unit=_UNIT,
           presentation=FLAG)
def histogram(x, public_low: float, public_high: float, epsilon: float, seed: int, bins: int = lesson.BINS,
              unit: str = "", presentation: bool = False) -> go.Figure:
    """The private histogram of :func:`dpcore.lessons.real_data.private_histogram` (the page's release: Laplace noise,
    ``bins`` bins over the public range) as bars, the true histogram as a faint outline."""
    release = lesson.private_histogram(x, public_low, public_high, epsilon, seed, bins)
    edges = np.linspace(public_low, public_high, bins + 1)
    centres, width = (edges[:-1] + edges[1:]) / 2, edges[1] - edges[0]
    data = [dict(type="bar", x=centres, y=release.value, width=width, name=f"private counts (Laplace, ε = {epsilon:g})",
                 marker=dict(color=METHOD_COLORS["laplace"]), opacity=0.75),
            dict(type="bar", x=centres, y=release.true_value, width=width, name=TRUE,
                 marker=dict(color="rgba(0,0,0,0)", line=dict(color=METHOD_COLORS["non_private"], width=1.5)))]
    return figure(data, dict(template=template_dict(presentation), uirevision="dplab", barmode="overlay",
                             title=figure_title(f"Private histogram, ε = {epsilon:g}, n = {x.size:,}"),
                             height=figure_height(presentation, animated=False), hovermode="closest",
                             xaxis=dict(title=dict(text=f"value{_in(unit)}, {bins} bins over the public range")),
                             yaxis=dict(title=dict(text="count (noisy: may be < 0)"))))


@validated(x=_COLUMN, **_RANGE, epsilon=EPSILON, seed=SEED, unit=_UNIT, presentation=FLAG)
def quantiles(x, public_low: float, public_high: float, epsilon: float, seed: int, unit: str = "",
              presentation: bool = False) -> go.Figure:
    """The private quartiles and median of :func:`dpcore.lessons.real_data.private_quantiles` (the page's releases:
    the exponential mechanism at ε/3 each) with the interval holding 80 % of their releases (10th to 90th percentile
    of the mechanism's exact law, :func:`dpcore.mechanisms.quantile_density`), beside the true quantiles."""
    released = lesson.private_quantiles(x, public_low, public_high, epsilon, seed)
    ordered = np.sort(x)  # sorted once for the three laws
    data = []
    for name, q in lesson.QUANTILES.items():
        release = released[name]
        law = mechanisms.quantile_density(ordered, q, epsilon / len(lesson.QUANTILES), public_low, public_high)
        low, high = _law_quantiles(law, (0.1, 0.9))
        data.append(dict(type="scatter", x=[100 * q], y=[release.value], mode="markers", name=LABELS[name],
                         marker=dict(color=METHOD_COLORS[name], size=12),
                         error_y=dict(type="data", symmetric=False, array=[high - release.value],
                                      arrayminus=[release.value - low], color=METHOD_COLORS[name], thickness=2)))
    data.append(dict(type="scatter", x=[100 * q for q in lesson.QUANTILES.values()],
                     y=[released[name].true_value for name in lesson.QUANTILES], mode="markers",
                     name="true quantiles (not private)",
                     marker=dict(color=METHOD_COLORS["non_private"], symbol="x", size=12)))
    return figure(data, dict(template=template_dict(presentation), uirevision="dplab", hovermode="closest",
                             title=figure_title(f"Private quartiles, ε = {epsilon:g} in all (ε/3 each)"),
                             height=figure_height(presentation, animated=False, legend_entries=len(data)),
                             xaxis=dict(title=dict(text="quantile level (%); bars: where 80 % of releases fall"),
                                        tickvals=[25, 50, 75],
                                        range=[10, 90]),
                             yaxis=dict(title=dict(text=f"value{_in(unit)}"))))


def _law_quantiles(law: dict, levels: tuple[float, ...]) -> list[float]:
    """Quantiles of the piecewise-uniform law of :func:`dpcore.mechanisms.quantile_density` (inverse CDF)."""
    cumulative = np.concatenate([[0.0], np.cumsum(law["probabilities"])])
    return [float(np.interp(level, cumulative, law["edges"])) for level in levels]


@validated(x=_COLUMN, lower=Real(), upper=Real(), epsilon=EPSILON, delta=DELTA, unit=_UNIT, presentation=FLAG)
def laplace_vs_gaussian(x, lower: float, upper: float, epsilon: float, delta: float, unit: str = "",
                        presentation: bool = False) -> go.Figure:
    """The exact densities of the clipped mean's error with Laplace noise (ε-DP) and with analytic Gaussian noise
    ((ε, δ)-DP, Balle & Wang 2018) at the same ε: both centred on the clipping bias, a vertical line at 0 (the true
    mean)."""
    split = lesson.clipping_decomposition(x, lower, upper, epsilon)
    b = split.noise_scale
    sigma = mechanisms.gaussian_sigma((upper - lower) / x.size, epsilon, delta)
    half = max(6.0 * b, 4.0 * sigma) + abs(split.bias)
    grid = np.linspace(split.bias - half, split.bias + half, 401)
    laplace = np.exp(-np.abs(grid - split.bias) / b) / (2 * b)
    gaussian = np.exp(-0.5 * ((grid - split.bias) / sigma) ** 2) / (sigma * math.sqrt(2 * math.pi))
    top = float(max(laplace.max(), gaussian.max()))
    series = [Series(f"Laplace, ε = {epsilon:g} (b = {b:.3g})", grid, laplace, kind="curve",
                     color=METHOD_COLORS["clipped_laplace"]),
              Series(f"Gaussian, δ = {delta:g} (σ = {sigma:.3g})", grid, gaussian, kind="curve",  # the same ε
                     color=METHOD_COLORS["gaussian_analytic"]),
              Series("no error (the true mean)", [0.0, 0.0], [0.0, top], kind="baseline",
                     color=METHOD_COLORS["non_private"])]
    return line_figure(series, x_title=f"error{_in(unit)}", y_title="probability density",
                       title=f"The private mean's error (clipping bias + noise): Laplace or Gaussian, n = {x.size:,}",
                       presentation=presentation)


_TRUTH = {"clipped_laplace": "true mean", "private_q1": "true 25th percentile", "private_median": "true median",
          "private_q3": "true 75th percentile"}


def _truth_name(method: str) -> str:
    """The legend name of the true value a release estimates: "true mean" (black, every mean's), or, in the
    quantile's own colour, "private median's true value" (named after its release, whose colour it shares)."""
    return _TRUTH[method] if method == "clipped_laplace" else f"{LABELS[method]}'s true value"


@validated(x=_COLUMN, **_PUBLIC, trials=Integer(2, 100_000), seed=SEED, unit=_UNIT, presentation=FLAG)
def means_vs_epsilon(x, public_low: float, public_high: float, lower: float, upper: float, epsilon: float,
                     delta: float, scale: float, moment_k: float, trials: int = 200, seed: int = 0, unit: str = "",
                     presentation: bool = False) -> go.Figure:
    """The four private means of :func:`dpcore.lessons.real_data.mean_error_vs_epsilon` against ε: each one's median
    release and its 10–90 % band over ``trials`` releases, the true mean as a horizontal line (animated, as
    :func:`_releases_vs_epsilon` draws it)."""
    sweep = lesson.mean_error_vs_epsilon(x, public_low, public_high, lower, upper, epsilon, delta, scale, moment_k,
                                         lesson.EPSILONS, trials, seed)
    return _releases_vs_epsilon(sweep, public_low, public_high, epsilon, unit, presentation,
                                title=f"Private means against ε, n = {x.size:,}")


@validated(x=_COLUMN, **_RANGE, epsilon=EPSILON, trials=Integer(2, 100_000), seed=SEED, unit=_UNIT,
           presentation=FLAG)
def quantiles_vs_epsilon(x, public_low: float, public_high: float, epsilon: float, trials: int = 200, seed: int = 0,
                         unit: str = "", presentation: bool = False) -> go.Figure:
    """The three private quantiles of :func:`dpcore.lessons.real_data.quantile_error_vs_epsilon` against ε: each one's
    median release and its 10–90 % band over ``trials`` releases, its true value as a horizontal line in its colour
    (animated, as :func:`_releases_vs_epsilon` draws it)."""
    sweep = lesson.quantile_error_vs_epsilon(x, public_low, public_high, epsilon, lesson.EPSILONS, trials, seed)
    return _releases_vs_epsilon(sweep, public_low, public_high, epsilon, unit, presentation,
                                title=f"Private quartiles against ε (ε/3 each), n = {x.size:,}")


def _releases_vs_epsilon(sweep: lesson.ErrorSweep, public_low: float, public_high: float, epsilon: float,
                         unit: str, presentation: bool, title: str) -> go.Figure:
    """The releases of ``sweep`` against ε: one frame per ε of its grid (:data:`dpcore.lessons.real_data.EPSILONS`
    and the page's ε), each showing the grid up to that ε, so Play sweeps the budget upward; it opens on
    ``epsilon``. Values are drawn within the public range (a release beyond it is drawn at its edge)."""
    methods = list(sweep.released)
    drawn = {name: np.clip(sweep.released[name], public_low, public_high) for name in methods}
    frames = []
    for shown, eps in enumerate(sweep.epsilons):
        hidden = np.arange(sweep.epsilons.size) > shown
        band = {name: np.where(hidden, np.nan, drawn[name]) for name in methods}  # the grid up to this ε
        series = [Series(LABELS[name], sweep.epsilons, band[name][1], band[name][0], band[name][2])
                  for name in methods]
        series += [Series(_truth_name(name), sweep.epsilons[[0, -1]], [sweep.true_values[name]] * 2, kind="baseline",
                          color=METHOD_COLORS["non_private"] if name == "clipped_laplace" else METHOD_COLORS[name])
                   for name in methods if name in _TRUTH]
        frames.append(FrameData(f"{eps:g}", series))
    return animated_sweep(frames, x_title="privacy budget ε",
                          y_title=f"released value{_in(unit)}", frame_title="ε", title=title, log_x=True,
                          log_y=False, presentation=presentation, start=f"{epsilon:g}")
