"""Figures of the lesson "Truncation bias": the clipping window on a histogram, the exact bias–noise tradeoff, error
versus n animated over the moment order k, and the bias corrections animated over ε.

The page-level builders take only primitive arguments (and ``run`` for the sweeps), so the app caches them and a
notebook rebuilds them with the same call; they draw the numbers of :mod:`dpcore.lessons.truncation`.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from ...core.validation import EPSILON, POSITIVE, Choice, Integer, validated
from ...experiments import run_now
from ...lessons import truncation
from ..animation import Series, animated_sweep, line_figure, sweep_frames, theory_series
from ..charts import clipping_histogram
from ..constraints import FLAG
from ..style import METHOD_COLORS, OKABE_ITO

__all__ = ["clipping_window", "bias_noise_tradeoff", "error_vs_n", "bias_correction"]

_FAMILY = Choice(truncation.FAMILIES)
_MOMENT_K = Choice(truncation.MOMENT_ORDERS)
_ONE_RUN = dict(family=_FAMILY, moment_k=_MOMENT_K, n=Integer(low=10), radius=POSITIVE, epsilon=EPSILON,
                seed=Integer(low=0), presentation=FLAG)
_SWEEP = dict(trials=Integer(low=2, high=100_000), seed=Integer(low=0), presentation=FLAG)

# --------------------------------------------------------------------------------------- one run


@validated(**_ONE_RUN)
def clipping_window(family: str, moment_k: float, n: int, radius: float, epsilon: float, seed: int,
                    presentation: bool = False) -> go.Figure:
    """:func:`clipping_histogram` of :func:`dpcore.lessons.truncation.one_run`: the sample, its window μ ± t and the
    true, clipped and private means."""
    run = truncation.one_run(family, moment_k, n, radius, epsilon, seed)
    return clipping_histogram(run.sample, run.low, run.high, run.means, title=run.title, presentation=presentation)


@validated(**{key: _ONE_RUN[key] for key in ("family", "moment_k", "n", "radius", "epsilon", "presentation")})
def bias_noise_tradeoff(family: str, moment_k: float, n: int, radius: float, epsilon: float,
                        presentation: bool = False) -> go.Figure:
    """The exact squared-error terms of :func:`dpcore.lessons.truncation.bias_noise_tradeoff` over the radius t on
    log–log axes, the bias bound of Kamath, Singhal & Ullman (2020, Lemma 3.1, tight form; docs/algorithms.md §1.2), and
    markers at the best radius and at ``radius``."""
    curve = truncation.bias_noise_tradeoff(family, moment_k, n, epsilon)
    radii, top = curve["radii"], float(np.max(curve["mse"]))
    terms = [Series(name, radii, np.where(curve[key] > 0, curve[key], np.nan), kind="curve", color=color)
             for name, key, color in (("bias²", "bias_squared", OKABE_ITO["vermillion"]),
                                      ("noise variance", "noise_variance", OKABE_ITO["blue"]),
                                      ("sampling variance", "sampling_variance", OKABE_ITO["sky blue"]),
                                      ("total: mean squared error", "mse", OKABE_ITO["black"]))]
    bound = Series("bias² bound (Kamath et al. 2020)", radii, curve["bound"], kind="theory",
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
        rates = truncation.rate_companions(epsilon, moment_k)
        return [theory_series("ksu20", rates["n"], rates["ksu20"]),
                theory_series("non_private", rates["n"], rates["non_private"]),
                Series("lower bound (εn)<sup>−(k−1)/k</sup>, shape", rates["n"], rates["lower_bound"], kind="baseline",
                       color=METHOD_COLORS["lower_bound"])]
    return series


def _bias_series(epsilon: float) -> list[Series]:
    """Theory companions of one ε frame: the naive estimate's exact bias, moment matching's delta-method error."""
    companions = truncation.bias_companions(epsilon)
    return [theory_series(method, companions["n"], companions[method])
            for method in ("naive_truncated_mean", "truncated_mle_moments")]


@validated(family=_FAMILY, epsilon=EPSILON, **_SWEEP, start=Choice((None, *truncation.MOMENTS)))
def error_vs_n(family: str, epsilon: float, trials: int, seed: int, start: str | None = None,
               presentation: bool = False, run=run_now) -> go.Figure:
    """|error| versus n of :func:`dpcore.lessons.truncation.error_vs_n` (median and 10–90 % band), one frame per
    moment order k with its rates, opening on frame ``start``."""
    result = truncation.error_vs_n(family, epsilon, trials, seed, run=run)

    def title(moment_k: float) -> str:  # at k = inf the data are Gaussian, whatever the family
        law = "Gaussian" if math.isinf(moment_k) else truncation.FAMILY_NAMES[family]
        return f"Error vs n, {law}, ε = {epsilon:g}"
    frames = sweep_frames(result, x="n", frame="moment_k", fixed={"epsilon": epsilon}, theory=_rate_series(epsilon),
                          label=_moment_label, title=title)
    return animated_sweep(frames, x_title="sample size n", y_title="|μ̂ − μ| (median, 10–90 % band)",
                          frame_title="moment order k", title=f"Error vs n, {truncation.FAMILY_NAMES[family]}, "
                          f"ε = {epsilon:g}",
                          presentation=presentation, start=start)


@validated(**_SWEEP, start=Choice((None, *(f"{epsilon:g}" for epsilon in truncation.BIAS_EPSILONS))))
def bias_correction(trials: int, seed: int, start: str | None = None, presentation: bool = False,
                    run=run_now) -> go.Figure:
    """|μ̂ − μ*| versus n of :func:`dpcore.lessons.truncation.bias_correction`: the naive truncated mean and the two
    truncated MLEs with their theory, one frame per ε, opening on frame ``start``."""
    frames = sweep_frames(truncation.bias_correction(trials, seed, run=run), x="n", frame="epsilon",
                          theory=_bias_series)
    return animated_sweep(frames, x_title="sample size n", y_title="|μ̂ − μ*| (median, 10–90 % band)",
                          frame_title="ε", title="Removing the truncation bias, each estimator (ε, 10⁻⁶)-DP",
                          presentation=presentation, start=start)
