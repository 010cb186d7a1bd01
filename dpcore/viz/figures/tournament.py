"""Figures of the lesson "Tournament selection": a Scheffé contest, the win matrix, scores and probabilities, a 2-D
score map (one run), and the animated sweeps: error vs n, the price of k, users needed and error at user level.

The one-run primitives (:func:`scheffe_figure`, :func:`win_matrix_figure`, :func:`selection_figure`,
:func:`grid_scores_figure`) draw arrays; the page's builders below them take only primitive arguments, call
:mod:`dpcore.lessons.tournament` and draw what it returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from ...core.validation import (
    EPSILON,
    SEED,
    TRIALS,
    Array,
    Choice,
    Integer,
    InvalidParameterError,
    check_same_length,
    validated,
)
from ...experiments import compute
from ...lessons import tournament as lesson
from ...lessons.methods import label
from ..animation import FrameData, Series, animated_sweep, figure_height, sweep_frames
from ..constraints import FLAG, TITLE
from ..plotly_dict import figure
from ..style import (
    GREY,
    METHOD_COLORS,
    OKABE_ITO,
    REFERENCE_COLORS,
    colorscale,
    figure_title,
    slim_colorbar,
    template_dict,
)

__all__ = ["scheffe_figure", "win_matrix_figure", "selection_figure", "grid_scores_figure", "one_contest",
           "whole_tournament", "selection_scores", "plane_map", "tv_vs_n", "price_of_k", "users_needed", "user_tv"]

# --------------------------------------------------------------------------------------- one run



@validated(sample=Array(ndim=(1,), min_size=1), title=TITLE, presentation=FLAG)
def scheffe_figure(sample, curves: dict[str, tuple[Any, Any]], shaded: Sequence[tuple[float, float]], *,
                   shaded_name: str, bins: int = 50, title: str = "", presentation: bool = False) -> go.Figure:
    """A sample's density histogram, density curves, and a shaded set (e.g. a Scheffé set :math:`W_{ij}`).

    Parameters
    ----------
    curves : dict of str to (x, y)
        Legend name -> density curve; colours from :data:`REFERENCE_COLORS`, else :func:`method_color`.
    shaded : list of (low, high)
        Intervals of the set (infinite ends allowed; drawn within the axis range).
    shaded_name : str
        Legend name of the set, with its probabilities if wanted.
    """
    lo, hi = np.quantile(sample, [0.002, 0.998])
    xs = [np.asarray(x, dtype=float) for x, _ in curves.values()]
    lo, hi = min([lo] + [x.min() for x in xs]), max([hi] + [x.max() for x in xs])
    edges = np.linspace(lo, hi, bins + 1)
    density, _ = np.histogram(sample, bins=edges, density=True)
    centres, width = (edges[:-1] + edges[1:]) / 2, edges[1] - edges[0]
    top = max([float(density.max())] + [float(np.max(y)) for _, y in curves.values()]) * 1.1
    shapes = [dict(type="rect", x0=max(low, lo), x1=min(high, hi), xref="x", y0=0, y1=1, yref="y domain",
                   fillcolor=OKABE_ITO["yellow"], opacity=0.3, line=dict(width=0), layer="below")
              for low, high in shaded if max(low, lo) < min(high, hi)]
    data = [dict(type="bar", x=centres, y=density, width=width, name=f"data (n = {sample.size:,})",
                 marker=dict(color=GREY), opacity=0.55),
            dict(type="scatter", x=[None], y=[None], mode="markers", name=shaded_name,
                 marker=dict(symbol="square", size=14, color=_translucent_yellow()))]
    data += [dict(type="scatter", x=x, y=y, mode="lines", name=name,
                  line=dict(color=REFERENCE_COLORS.get(name) or _PAIR_COLORS[index % 2], width=3))
             for index, (name, (x, y)) in enumerate(curves.items())]
    return figure(data, dict(template=template_dict(presentation), title=figure_title(title), uirevision="dplab",
                             barmode="overlay", height=figure_height(presentation, animated=False), hovermode="closest",
                             xaxis=dict(title=dict(text="x"), range=[lo, hi]),
                             yaxis=dict(title=dict(text="density"), range=[0, top]),
                             **(dict(shapes=shapes) if shapes else {})))



_PAIR_COLORS = (OKABE_ITO["blue"], OKABE_ITO["vermillion"])



def _translucent_yellow() -> str:
    return "rgba(240, 228, 66, 0.5)"



@validated(matrix=Array(ndim=(2,), low=-1, high=1), title=TITLE, presentation=FLAG)
def win_matrix_figure(matrix, labels: Sequence[str], *, title: str = "", presentation: bool = False) -> go.Figure:
    """A tournament's k×k results as a heatmap: +1 (row beats column) blue, −1 (row loses) vermillion, 0 white."""
    if matrix.shape != (len(labels), len(labels)):
        raise InvalidParameterError(f"matrix must be square with one row per label ({len(labels)}); got shape "
                                    f"{matrix.shape}")
    scale = [[0.0, OKABE_ITO["vermillion"]], [0.5, "#FFFFFF"], [1.0, OKABE_ITO["blue"]]]
    heatmap = dict(type="heatmap", z=matrix, x=list(labels), y=list(labels), zmin=-1, zmax=1, colorscale=scale,
                   colorbar=slim_colorbar("row vs column", tickvals=[-1, 0, 1], ticktext=["loses", "tie", "wins"]),
                   hovertemplate="row %{y} vs column %{x}: %{z}<extra></extra>")
    return figure([heatmap], dict(template=template_dict(presentation), title=figure_title(title), uirevision="dplab",
                                  height=figure_height(presentation, animated=False) + 60, hovermode="closest",
                                  xaxis=dict(title=dict(text="opponent H_j (mean)"), type="category"),
                                  yaxis=dict(title=dict(text="hypothesis H_i (mean)"), type="category",
                                             autorange="reversed", scaleanchor="x")))



@validated(positions=Array(ndim=(1,), min_size=1), scores=Array(ndim=(1,), min_size=1),
           probabilities=Array(ndim=(1,), low=0, high=1, min_size=1), title=TITLE, presentation=FLAG)
def selection_figure(positions, scores, probabilities, marks: dict[str, float], *, x_title: str, title: str = "",
                     presentation: bool = False) -> go.Figure:
    """Scores (top) and the exponential mechanism's selection probabilities (bottom) per candidate, sharing the x
    axis (the candidates' positions, e.g. hypothesis means), with vertical lines at ``marks`` (name -> x)."""
    check_same_length(("positions", "scores", "probabilities"), (positions, scores, probabilities))
    width = float(np.min(np.diff(np.sort(positions)))) * 0.8 if positions.size > 1 else 1.0
    panels = ((dict(xaxis="x", yaxis="y"), float(scores.max()) or 1.0),  # scores on top, sharing the x axis
              (dict(xaxis="x2", yaxis="y2"), float(probabilities.max()) or 1.0))
    data = [dict(type="bar", x=positions, y=scores, width=width, name="score S(H)",
                 marker=dict(color=OKABE_ITO["blue"]), **panels[0][0]),
            dict(type="bar", x=positions, y=probabilities, width=width, name="P(select H)",
                 marker=dict(color=OKABE_ITO["orange"]), **panels[1][0])]
    for index, (name, value) in enumerate(marks.items()):
        color = REFERENCE_COLORS.get(name) or (OKABE_ITO["black"], OKABE_ITO["reddish purple"])[index % 2]
        data += [dict(type="scatter", x=[value, value], y=[0, top * 1.05], mode="lines", name=name, legendgroup=name,
                      showlegend=axes["xaxis"] == "x", line=dict(color=color, width=3,
                                                                 dash="dash" if index == 0 else "solid"), **axes)
                 for axes, top in panels]
    return figure(data, dict(template=template_dict(presentation), title=figure_title(title), uirevision="dplab",
                             height=figure_height(presentation, animated=False) + 80, hovermode="closest", bargap=0,
                             xaxis=dict(anchor="y", domain=[0.0, 1.0], matches="x2", showticklabels=False),
                             yaxis=dict(anchor="x", domain=[0.54, 1.0], title=dict(text="score<br>(not private)")),
                             xaxis2=dict(anchor="y2", domain=[0.0, 1.0], title=dict(text=x_title)),
                             yaxis2=dict(anchor="x2", domain=[0.0, 0.46],
                                         title=dict(text="probability<br>(not private)"))))



@validated(xs=Array(ndim=(1,), min_size=1), ys=Array(ndim=(1,), min_size=1), values=Array(ndim=(2,)),
           title=TITLE, presentation=FLAG)
def grid_scores_figure(xs, ys, values, marks: dict[str, tuple[float, float]], *, value_title: str,
                       title: str = "", presentation: bool = False) -> go.Figure:
    """Values on a 2-D grid of candidates (``values[i, j]`` at ``(xs[j], ys[i])``) as a heatmap, with marked points
    (name -> (x, y)), e.g. a tournament's scores over a cover with the true and the selected mean."""
    if values.shape != (ys.size, xs.size):
        raise InvalidParameterError(f"values must have shape (len(ys), len(xs)) = ({ys.size}, {xs.size}); got "
                                    f"{values.shape}")
    symbols = ("x", "circle-open", "diamond-open")
    colors = (OKABE_ITO["vermillion"], OKABE_ITO["orange"], OKABE_ITO["reddish purple"])
    data = [dict(type="heatmap", x=xs, y=ys, z=values, colorscale=colorscale("Blues"),
                 colorbar=slim_colorbar(value_title), hovertemplate="(%{x:.2f}, %{y:.2f}): %{z:.3g}<extra></extra>")]
    data += [dict(type="scatter", x=[x], y=[y], mode="markers", name=name,
                  marker=dict(symbol=symbols[index % 3], size=18, line=dict(width=3),
                              color=REFERENCE_COLORS.get(name) or colors[index % 3]))
             for index, (name, (x, y)) in enumerate(marks.items())]
    return figure(data, dict(template=template_dict(presentation), title=figure_title(title), uirevision="dplab",
                             height=figure_height(presentation, animated=False), hovermode="closest",
                             xaxis=dict(title=dict(text="first coordinate")),
                             yaxis=dict(title=dict(text="second coordinate"), scaleanchor="x"),
                             # the colour bar takes the bottom edge; the two or three marks fit in the plot's corner
                             legend=dict(orientation="v", x=0.01, xanchor="left", y=0.99, yanchor="top")))



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
    return scheffe_figure(duel.data, {f"H_i = N({a:g}, 1)": (duel.grid, duel.density_i),
                                      f"H_j = N({b:g}, 1)": (duel.grid, duel.density_j)},
                          duel.shaded, shaded_name="Scheffé set W = {h_i > h_j}", title=title,
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
def tv_vs_n(trials: int, seed: int, epsilon: float, start: str, presentation: bool = False, run=compute) -> go.Figure:
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
def price_of_k(trials: int, seed: int, start: str, presentation: bool = False, run=compute) -> go.Figure:
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
def users_needed(seed: int, start: str, presentation: bool = False, run=compute) -> go.Figure:
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
def user_tv(seed: int, epsilon: float, start: str, presentation: bool = False, run=compute) -> go.Figure:
    """Mean TV of the user-level selections vs the number of users at ``epsilon``, one frame per m (opening on
    ``start``), from :func:`dpcore.lessons.tournament.user_sweep`."""
    frames = sweep_frames(lesson.user_sweep(seed, run=run), x="n", frame="m", fixed={"epsilon": epsilon},
                          statistic="mean")
    return animated_sweep(frames, x_title="number of users n", y_title="TV of the selected hypothesis (mean)",
                          frame_title="m", title=f"Item-level vs user-level, ε = {epsilon:g}",
                          presentation=presentation, start=start)
