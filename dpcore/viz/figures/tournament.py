"""Figures of the lesson "Tournament selection": a Scheffé contest, the win matrix, scores and probabilities, a 2-D
score map (one run), and the animated sweeps: error vs n, the price of k, users needed and error at user level.

The page's builders take only primitive arguments, call :mod:`dpcore.lessons.tournament` and draw what it returns
with the charts of :mod:`dpcore.viz.charts` (a contest, the win matrix, scores and probabilities, a score map).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ...core.validation import (
    EPSILON,
    SEED,
    TRIALS,
    Choice,
    Integer,
    validated,
)
from ...experiments import run_now
from ...lessons import tournament as lesson
from ...lessons.methods import label
from ..animation import FrameData, Series, animated_sweep, sweep_frames
from ..charts import grid_scores_figure, scheffe_figure, selection_figure, win_matrix_figure
from ..constraints import FLAG
from ..style import (
    METHOD_COLORS,
)

__all__ = ["one_contest", "whole_tournament", "selection_scores", "plane_map", "tv_vs_n", "price_of_k", "users_needed",
           "user_tv"]

# --------------------------------------------------------------------------------------- one run


# --------------------------------------------------------------------------------------- the page's figures

_K = Integer(low=2, high=2001)
_N = Integer(low=2, high=1_000_000)
GUARANTEE_LABEL = "guarantee 5α(n) + OPT (when OPT ≤ α)"


@validated(k=_K, n=_N, epsilon=EPSILON, seed=SEED, presentation=FLAG)
def one_contest(a: float, b: float, k: int, n: int, epsilon: float, seed: int, presentation: bool = False) -> go.Figure:
    """The contest N(a, 1) vs N(b, 1) of :func:`dpcore.lessons.tournament.contest`: the run's data, both densities and
    the Scheffé set, titled with p₁, p₂ and τ̂."""
    duel = lesson.contest(a, b, k, n, epsilon, seed)
    title = f"N({a:g}, 1) vs N({b:g}, 1): p₁ = {duel.p1:.3f}, p₂ = {duel.p2:.3f}, τ̂ = {duel.tau:.3f}"
    return scheffe_figure(duel.data, {f"Hᵢ = N({a:g}, 1)": (duel.grid, duel.density_i),
                                      f"Hⱼ = N({b:g}, 1)": (duel.grid, duel.density_j)},
                          duel.shaded, shaded_name="Scheffé set W = {hᵢ > hⱼ}", title=title,
                          presentation=presentation)


@validated(k=_K, n=_N, epsilon=EPSILON, seed=SEED, presentation=FLAG)
def whole_tournament(k: int, n: int, epsilon: float, seed: int, presentation: bool = False) -> go.Figure:
    """Who beats whom: the win matrix of :func:`dpcore.lessons.tournament.one_run`, hypotheses labelled by mean."""
    run = lesson.one_run(k, n, epsilon, seed)
    return win_matrix_figure(run.wins, [f"{mu:+.1f}" for mu in run.means],
                             title=f"Who beats whom: k = {k} hypotheses, n = {n:,}", presentation=presentation)


@validated(k=_K, n=_N, epsilon=EPSILON, seed=SEED, presentation=FLAG)
def selection_scores(k: int, n: int, epsilon: float, seed: int, presentation: bool = False) -> go.Figure:
    """The private selection of :func:`dpcore.lessons.tournament.one_run`: scores and selection probabilities per
    hypothesis mean, with the truth and the selected mean marked."""
    run = lesson.one_run(k, n, epsilon, seed)
    selected = float(run.means[run.chosen])
    marks = {f"truth μ = {lesson.TRUTH[0]:g}": lesson.TRUTH[0], f"selected μ = {selected:+.1f}": selected}
    return selection_figure(run.means, run.scores, run.probabilities, marks, x_title="hypothesis mean μ",
                            title=f"Scores and selection probabilities, ε = {epsilon:g}", presentation=presentation)


@validated(shown=Choice(("score", "P(select)")), epsilon=EPSILON, seed=SEED, presentation=FLAG)
def plane_map(shown: str, epsilon: float, seed: int, presentation: bool = False) -> go.Figure:
    """Kamath, Singhal & Ullman's (2020) tournament in the plane (:func:`dpcore.lessons.tournament.plane_run`): the
    ``shown`` values ("score" or "P(select)") over the cover, with the true and the selected mean."""
    plane = lesson.plane_run(epsilon, seed)
    axis = np.array(lesson.COVER_AXIS)
    values = plane.scores if shown == "score" else plane.probabilities
    return grid_scores_figure(axis, axis, values, {"true mean": lesson.PLANE_MEAN, "selected": plane.selected},
                              value_title=f"{shown}<br>(not private)",
                              title=f"{shown}, n = {lesson.PLANE_N}, ε = {epsilon:g}",
                              presentation=presentation)


@validated(trials=TRIALS, seed=SEED, epsilon=Choice(lesson.EPSILON_FRAMES), presentation=FLAG)
def tv_vs_n(trials: int, seed: int, epsilon: float, start: str, presentation: bool = False, run=run_now) -> go.Figure:
    """Mean TV of the three selections vs n at ``epsilon``, one frame per k (opening on frame ``start``), with our
    guarantee 5α(n) + OPT, valid when OPT ≤ α (:func:`dpcore.lessons.tournament.guarantee`) and OPT."""
    n = np.array(lesson.N_GRID, dtype=float)

    def references(k):
        return [Series(GUARANTEE_LABEL, n, lesson.guarantee(n, k, epsilon), kind="theory",
                       color=METHOD_COLORS["theory"]),
                Series("OPT (best hypothesis)", n, np.full(n.size, lesson.OPT), kind="baseline",
                       color=METHOD_COLORS["lower_bound"])]
    frames = sweep_frames(lesson.item_sweep(trials, seed, run=run), x="n", frame="k", fixed={"epsilon": epsilon},
                          statistic="mean", theory=references)
    return animated_sweep(frames, x_title="sample size n", y_title="TV of the selected hypothesis (mean)",
                          frame_title="k", title=f"Selection error vs n at ε = {epsilon:g}", presentation=presentation,
                          start=start)


@validated(trials=TRIALS, seed=SEED, presentation=FLAG)
def price_of_k(trials: int, seed: int, start: str, presentation: bool = False, run=run_now) -> go.Figure:
    """Samples the private selection needs for mean TV ≤ 0.1 vs k, one frame per ε (opening on ``start``), with the
    privacy term of our guarantee (:func:`dpcore.lessons.tournament.price_of_k`). Log x, linear y: growth like
    ln k is a straight line."""
    frames = []
    for epsilon in lesson.EPSILON_FRAMES:
        curve = lesson.price_of_k(trials, seed, epsilon, run=run)
        frames.append(FrameData(f"{epsilon:g}", [
            Series(label(lesson.PRIVATE), curve["k"], curve["needed"]),
            Series("privacy term 2 ln(k/β)/(εα), α = TV/5", curve["k"], curve["theory"], kind="theory",
                   color=METHOD_COLORS["theory"]),
        ]))
    return animated_sweep(frames, x_title="number of hypotheses k",
                          y_title=f"n needed for mean TV ≤ {lesson.TARGET_TV:g}", frame_title="ε",
                          title="The price of k: samples needed grow like ln k", log_y=False,
                          presentation=presentation, start=start)


@validated(seed=SEED, presentation=FLAG)
def users_needed(seed: int, start: str, presentation: bool = False, run=run_now) -> go.Figure:
    """Users each user-level selection needs for mean TV ≤ 0.1 vs m, one frame per ε (opening on ``start``), with
    Ghazi et al.'s (2023) shape times a fitted constant (:func:`dpcore.lessons.tournament.users_needed_curves`)."""
    frames = []
    for epsilon in lesson.USER_EPSILONS:
        curves = lesson.users_needed_curves(seed, epsilon, run=run)
        frames.append(FrameData(f"{epsilon:g}", [Series(label(method), curves["m"], values)
                                                  for method, values in curves["needed"].items()]
                                + [Series("Ghazi et al.'s shape × fitted constant", curves["m"], curves["theory"],
                                          kind="theory", color=METHOD_COLORS["theory"])]))
    return animated_sweep(frames, x_title="examples per user m",
                          y_title=f"users needed for mean TV ≤ {lesson.TARGET_TV:g}", frame_title="ε",
                          title="User-level selection: users needed vs m", presentation=presentation, start=start)


@validated(seed=SEED, epsilon=Choice(lesson.USER_EPSILONS), presentation=FLAG)
def user_tv(seed: int, epsilon: float, start: str, presentation: bool = False, run=run_now) -> go.Figure:
    """Mean TV of the user-level selections vs the number of users at ``epsilon``, one frame per m (opening on
    ``start``), from :func:`dpcore.lessons.tournament.user_sweep`."""
    frames = sweep_frames(lesson.user_sweep(seed, run=run), x="n", frame="m", fixed={"epsilon": epsilon},
                          statistic="mean")
    return animated_sweep(frames, x_title="number of users n", y_title="TV of the selected hypothesis (mean)",
                          frame_title="m", title=f"Item-level vs user-level, ε = {epsilon:g}",
                          presentation=presentation, start=start)
