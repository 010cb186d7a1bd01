"""Figures of the lesson "Partitioning rounds": the rounds of one run as an animation, and the error sweeps (TV and
KL vs n one frame per ε, TV vs d one frame per n, TV vs n one frame per marginal profile) with their theory."""

from __future__ import annotations

import plotly.graph_objects as go

from ...core.validation import DELTA, EPSILON, SEED, TRIALS, Choice, Integer, validated
from ...experiments import SweepResult, run_now
from ...lessons import partition_rounds as lesson
from ...lessons.methods import label
from ...lessons.plain_words import superscript
from ..animation import Series, animated_sweep, sweep_frames
from ..charts import partition_rounds_figure
from ..constraints import FLAG
from ..style import method_color

__all__ = ["rounds", "error_vs_n", "error_vs_dimension", "error_by_profile"]

# --------------------------------------------------------------------------------------- one run


_PROFILE = Choice(lesson.PROFILES)
_DIMENSION = Integer(low=2, high=1_000_000)
_TV_TITLE = "TV distance between P and Q̂ (median)"
_Y_TITLES = {"tv": _TV_TITLE, "kl": "KL(P ‖ Q̂) (median)"}


@validated(profile=_PROFILE, dimension=_DIMENSION, n=Integer(low=3), epsilon=EPSILON, delta=DELTA, seed=SEED,
           presentation=FLAG)
def rounds(profile: str, dimension: int, n: int, epsilon: float, delta: float = 1e-6, seed: int = 0,
           presentation: bool = False) -> go.Figure:
    """The rounds of :func:`dpcore.lessons.partition_rounds.one_run` (:func:`partition_rounds_figure`), titled by
    its setting."""
    single = lesson.one_run(profile, dimension, n, epsilon, delta, seed)
    return partition_rounds_figure(single.truth, single.trace, presentation=presentation,
                                   title=f"{profile}, d = {dimension}, n = {n:,}, ε = {epsilon:g}")


def _rate_series(result: SweepResult, profile: str, dimension: int, epsilon: float) -> list[Series]:
    """Theory shapes next to the simulation: non-private and Singhal's (2023) rate, and the fitted d^1.5 / d² laws."""
    curves = lesson.rate_curves(result, profile, dimension, epsilon)
    non_private = "non_private"
    series = [Series("non-private rate 0.40√(d/n)", curves.n, curves.non_private, kind="theory",
                     color=method_color(non_private), group=label(non_private)),
              Series("Singhal (2023) rate", curves.n, curves.singhal_rate, kind="theory",
                     color=method_color("theory"))]
    for method, (power, curve) in curves.fitted.items():
        power_of_d = {1.0: "d", 1.5: "d√d", 2.0: "d²"}.get(float(power), f"d{superscript(power)}")  # no caret
        series.append(Series(f"{label(method)}: fitted c·{power_of_d}/(εn)", curves.n, curve, kind="theory",
                             color=method_color(method), group=label(method)))
    return series


@validated(profile=_PROFILE, dimension=_DIMENSION, delta=DELTA, trials=TRIALS, seed=SEED,
           metric=Choice(("tv", "kl")), epsilon=Choice(lesson.EPSILONS), presentation=FLAG)
def error_vs_n(profile: str, dimension: int, delta: float, trials: int, seed: int, metric: str = "tv",
               epsilon: float = 1.0, presentation: bool = False, run=run_now) -> go.Figure:
    """Median TV (``metric="tv"``, with the rate shapes of :func:`dpcore.lessons.partition_rounds.rate_curves`) or
    KL of every method vs n, one frame per ε of :func:`dpcore.lessons.partition_rounds.sweep_vs_n`, opening on
    ``epsilon``."""
    result = lesson.sweep_vs_n(profile, dimension, delta, trials, seed, metric, run=run)

    def theory(value: float) -> list[Series]:
        return _rate_series(result, profile, dimension, value)
    frames = sweep_frames(result, x="n", frame="epsilon", fixed={"profile": profile, "dimension": dimension},
                          theory=theory if metric == "tv" else None)
    return animated_sweep(frames, x_title="sample size n", y_title=_Y_TITLES[metric], frame_title="ε",
                          title=f"{metric.upper()} error vs n ({profile}, d = {dimension})",
                          presentation=presentation, start=f"{epsilon:g}")


@validated(profile=_PROFILE, epsilon=EPSILON, delta=DELTA, trials=TRIALS, seed=SEED, n=Integer(low=1),
           presentation=FLAG)
def error_vs_dimension(profile: str, epsilon: float, delta: float, trials: int, seed: int, n: int = 1_000_000,
                       presentation: bool = False, run=run_now) -> go.Figure:
    """Median TV of every method vs d, one frame per n of :func:`dpcore.lessons.partition_rounds.sweep_vs_dimension`,
    opening on the grid n nearest ``n``."""
    result = lesson.sweep_vs_dimension(profile, epsilon, delta, trials, seed, run=run)
    frames = sweep_frames(result, x="dimension", frame="n", fixed={"profile": profile, "epsilon": epsilon},
                          label="{:,}".format)
    return animated_sweep(frames, x_title="dimension d", y_title=_TV_TITLE, frame_title="n",
                          title=f"TV error vs d ({profile}, ε = {epsilon:g})", presentation=presentation,
                          start=f"{lesson.nearest_n(n):,}")


@validated(dimension=_DIMENSION, epsilon=EPSILON, delta=DELTA, trials=TRIALS, seed=SEED, profile=_PROFILE,
           presentation=FLAG)
def error_by_profile(dimension: int, epsilon: float, delta: float, trials: int, seed: int,
                     profile: str = "log-uniform", presentation: bool = False, run=run_now) -> go.Figure:
    """Median TV of every method vs n, one frame per marginal profile of
    :func:`dpcore.lessons.partition_rounds.sweep_by_profile`, opening on ``profile``."""
    result = lesson.sweep_by_profile(dimension, epsilon, delta, trials, seed, run=run)
    frames = sweep_frames(result, x="n", frame="profile", fixed={"dimension": dimension, "epsilon": epsilon},
                          label=str)
    return animated_sweep(frames, x_title="sample size n", y_title=_TV_TITLE, frame_title="profile",
                          title=f"TV error vs n by marginal profile (d = {dimension}, ε = {epsilon:g})",
                          presentation=presentation, start=profile)
