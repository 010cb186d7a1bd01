"""Figures of the lesson "Truncation bias": the clipping window on a histogram, the exact bias–noise tradeoff, error
versus n animated over the moment order k, and the bias corrections animated over ε.

The page-level builders take only primitive arguments (and ``run`` for the sweeps), so the app caches them and a
notebook rebuilds them with the same call; they draw the numbers of :mod:`dpcore.lessons.truncation`.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from ...core.validation import EPSILON, POSITIVE, Array, Choice, Integer, InvalidParameterError, Real, validated
from ...experiments import compute
from ...lessons import truncation
from ..animation import Series, animated_sweep, figure_height, line_figure, sweep_frames, theory_series
from ..constraints import FLAG, TITLE
from ..plotly_dict import figure
from ..style import METHOD_COLORS, OKABE_ITO, REFERENCE_COLORS, figure_title, method_color, template_dict

__all__ = ["clipping_histogram", "clipping_window", "bias_noise_tradeoff", "error_vs_n", "bias_correction"]

_FAMILY = Choice(truncation.FAMILIES)
_MOMENT = Choice(truncation.MOMENTS)
_ONE_RUN = dict(family=_FAMILY, moment=_MOMENT, n=Integer(low=10), radius=POSITIVE, epsilon=EPSILON,
                seed=Integer(low=0), presentation=FLAG)
_SWEEP = dict(trials=Integer(low=2, high=100_000), seed=Integer(low=0), presentation=FLAG)

# --------------------------------------------------------------------------------------- one run


@validated(sample=Array(ndim=(1,), min_size=2), low=Real(), high=Real(), title=TITLE, presentation=FLAG)
def clipping_histogram(sample, low: float, high: float, means: dict[str, float], *, bins: int = 60,
                       title: str = "", presentation: bool = False) -> go.Figure:
    """One sample's histogram with a clipping window ``[low, high]`` and vertical lines at ``means``.

    Bars inside the window are blue; the mass outside (what clipping moves to the window's edges) is
    vermillion. The x-range covers the window and the sample's 0.5–99.5 % quantiles; the share of the
    sample beyond it (heavy tails) is stated in the legend.

    Parameters
    ----------
    means : dict of str to float
        Legend name -> value, e.g. ``{"true mean": 0.0, "clipped mean": -0.03, "private estimate": 0.01}``;
        each drawn as a vertical line in its :data:`REFERENCE_COLORS` colour, else :func:`method_color`
        (dashed for the true mean).
    """
    if not low < high:
        raise InvalidParameterError(f"low must be below high; got low={low!r}, high={high!r}")
    lo, hi = np.quantile(sample, [0.005, 0.995])
    lo, hi = min(lo, low), max(hi, high)
    pad = 0.05 * (hi - lo)
    edges = np.linspace(lo - pad, hi + pad, bins + 1)
    counts, _ = np.histogram(sample, bins=edges)
    centres, width = (edges[:-1] + edges[1:]) / 2, edges[1] - edges[0]
    inside = (centres >= low) & (centres <= high)
    shown = float(np.mean((sample >= edges[0]) & (sample <= edges[-1])))
    clipped = float(np.mean((sample < low) | (sample > high)))
    top = float(counts.max()) * 1.08
    data = [dict(type="bar", x=centres[mask], y=counts[mask], width=width, name=name, marker=dict(color=color),
                 opacity=0.75)
            for mask, name, color in ((inside, "inside the window", OKABE_ITO["blue"]),
                                      (~inside, f"clipped ({100 * clipped:.1f} % of points)", OKABE_ITO["vermillion"]))]
    data += [dict(type="scatter", x=[value, value], y=[0, top], mode="lines", name=f"{name} = {value:.3g}",
                  line=dict(color=REFERENCE_COLORS.get(name) or method_color(name), width=3,
                            dash="dash" if name == "true mean" else "solid")) for name, value in means.items()]
    window = dict(type="rect", x0=low, x1=high, xref="x", y0=0, y1=1, yref="y domain",
                  fillcolor=OKABE_ITO["sky blue"], opacity=0.12, line=dict(width=0), layer="below")
    return figure(data, dict(template=template_dict(presentation), title=figure_title(title), uirevision="dplab",
                             barmode="overlay", height=figure_height(presentation, animated=False), hovermode="closest",
                             xaxis=dict(title=dict(text=f"x  (window [{low:.3g}, {high:.3g}]; {100 * (1 - shown):.1f} "
                                                        "% of the sample lies beyond this axis)"),
                                        range=[edges[0], edges[-1]]),
                             yaxis=dict(title=dict(text="count"), range=[0, top]), shapes=[window]))



@validated(**_ONE_RUN)
def clipping_window(family: str, moment: str, n: int, radius: float, epsilon: float, seed: int,
                    presentation: bool = False) -> go.Figure:
    """:func:`clipping_histogram` of :func:`dpcore.lessons.truncation.one_run`: the sample, its window μ ± t and the
    true, clipped and private means."""
    run = truncation.one_run(family, moment, n, radius, epsilon, seed)
    return clipping_histogram(run.sample, run.low, run.high, run.means, title=run.title, presentation=presentation)


@validated(**{key: _ONE_RUN[key] for key in ("family", "moment", "n", "radius", "epsilon", "presentation")})
def bias_noise_tradeoff(family: str, moment: str, n: int, radius: float, epsilon: float,
                        presentation: bool = False) -> go.Figure:
    """The exact squared-error terms of :func:`dpcore.lessons.truncation.bias_noise_tradeoff` over the radius t on
    log–log axes, the bias bound of Kamath, Singhal & Ullman (2020, Lemma 3.1, tight form; docs/algorithms.md §1.2), and
    markers at the best radius and at ``radius``."""
    curve = truncation.bias_noise_tradeoff(family, moment, n, epsilon)
    radii, top = curve["radii"], float(np.max(curve["mse"]))
    terms = [Series(name, radii, np.where(curve[key] > 0, curve[key], np.nan), kind="curve", color=color)
             for name, key, color in (("bias²", "bias_squared", OKABE_ITO["vermillion"]),
                                      ("noise variance", "noise_variance", OKABE_ITO["blue"]),
                                      ("sampling variance", "sampling_variance", OKABE_ITO["sky blue"]),
                                      ("total MSE", "mse", OKABE_ITO["black"]))]
    bound = Series("bias² bound A_k² t^−2(k−1) (Kamath, Singhal & Ullman 2020)", radii, curve["bound"], kind="theory",
                   color=OKABE_ITO["vermillion"])
    markers = [Series(f"best t = {curve['best']:.3g}", [curve["best"]] * 2, [top * 1e-6, top], kind="baseline",
                      color=OKABE_ITO["bluish green"]),
               Series(f"your t = {radius:g}", [radius, radius], [top * 1e-6, top], kind="baseline",
                      color=OKABE_ITO["reddish purple"])]
    return line_figure(terms + [bound] + markers, x_title="clipping radius t", y_title="squared error (exact)",
                       title="Narrow window: less noise, more bias", log_x=True, log_y=True, presentation=presentation)


# --------------------------------------------------------------------------------------- sweeps
def _moment_label(moment_k: float) -> str:
    return "inf" if math.isinf(moment_k) else f"{moment_k:g}"


def _rate_series(epsilon: float):
    """Theory companions of one k frame: the rate of Kamath, Singhal & Ullman (2020), the non-private error, the lower
    bound's shape."""
    def series(moment_k: float) -> list[Series]:
        rates = truncation.rate_companions(epsilon, _moment_label(moment_k))
        return [theory_series("ksu20", rates["n"], rates["ksu20"]),
                theory_series("non_private", rates["n"], rates["non_private"]),
                Series("lower bound (εn)^−(k−1)/k, shape", rates["n"], rates["lower_bound"], kind="baseline",
                       color=METHOD_COLORS["lower_bound"])]
    return series


def _bias_series(epsilon: float) -> list[Series]:
    """Theory companions of one ε frame: the naive estimate's exact bias, moment matching's delta-method error."""
    companions = truncation.bias_companions(epsilon)
    return [theory_series(method, companions["n"], companions[method])
            for method in ("naive_truncated_mean", "truncated_mle_moments")]


@validated(family=_FAMILY, epsilon=EPSILON, **_SWEEP, start=Choice((None, *truncation.MOMENTS)))
def error_vs_n(family: str, epsilon: float, trials: int, seed: int, start: str | None = None,
               presentation: bool = False, run=compute) -> go.Figure:
    """|error| versus n of :func:`dpcore.lessons.truncation.error_vs_n` (median and 10–90 % band), one frame per
    moment order k with its rates, opening on frame ``start``."""
    result = truncation.error_vs_n(family, epsilon, trials, seed, run=run)
    def title(moment_k: float) -> str:  # at k = inf the data are Gaussian, whatever the family
        law = "Gaussian" if math.isinf(moment_k) else family
        return f"Error vs n, {law}, ε = {epsilon:g}"
    frames = sweep_frames(result, x="n", frame="moment_k", fixed={"epsilon": epsilon}, theory=_rate_series(epsilon),
                          label=_moment_label, title=title)
    return animated_sweep(frames, x_title="sample size n", y_title="|μ̂ − μ| (median, 10–90 % band)",
                          frame_title="moment order k", title=f"Error vs n, {family}, ε = {epsilon:g}",
                          presentation=presentation, start=start)


@validated(**_SWEEP, start=Choice((None, *(f"{epsilon:g}" for epsilon in truncation.BIAS_EPSILONS))))
def bias_correction(trials: int, seed: int, start: str | None = None, presentation: bool = False,
                    run=compute) -> go.Figure:
    """|μ̂ − μ*| versus n of :func:`dpcore.lessons.truncation.bias_correction`: the naive truncated mean and the two
    truncated MLEs with their theory, one frame per ε, opening on frame ``start``."""
    frames = sweep_frames(truncation.bias_correction(trials, seed, run=run), x="n", frame="epsilon",
                          theory=_bias_series)
    return animated_sweep(frames, x_title="sample size n", y_title="|μ̂ − μ*| (median, 10–90 % band)",
                          frame_title="ε (each estimator is (ε, 10⁻⁶)-DP)", title="Removing the truncation bias",
                          presentation=presentation, start=start)
