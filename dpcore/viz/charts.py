"""Charts drawn from the arrays a caller gives: the one-run pictures of the pages, apart from the page builders of
:mod:`dpcore.viz.figures` that compute what they show (a lesson's run) and hand it to one of these.

Each takes arrays (and names, titles, colours), validates them, and returns a styled figure (Plotly's dictionary of
it inside :func:`~dpcore.viz.plotly_dict.dictionaries`): grouped bars; a Scheffé contest, a win matrix, scores with
selection probabilities and a score map (tournament selection); directions on a disk and an iterative path (the
sum-of-squares exponential mechanism); clouds of releases (pure versus approximate DP); a histogram clipped to a
window (truncation); the rounds of one partitioning run (binary product distributions).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from ..core.validation import Array, InvalidParameterError, Real, check_same_length, validated
from ..lessons.methods import LABELS
from .animation import FrameData, Series, animated_sweep, figure_height
from .constraints import FLAG, TITLE, ItemsOf
from .plotly_dict import figure
from .style import (
    DARK_GREY,
    DARK_YELLOW,
    GREY,
    OKABE_ITO,
    REFERENCE_COLORS,
    colorscale,
    figure_title,
    font_size,
    method_color,
    narrow_layout,
    slim_colorbar,
    template_dict,
)

__all__ = ["bar_figure", "scheffe_figure", "win_matrix_figure", "selection_figure", "grid_scores_figure",
           "direction_disk", "trajectory_figure", "release_clouds", "clipping_histogram", "partition_rounds_figure"]

# --------------------------------------------------------------------------------------------------------- grouped bars


@validated(categories=ItemsOf(str), x_title=TITLE, y_title=TITLE, title=TITLE, presentation=FLAG)
def bar_figure(categories: Sequence[str], bars: dict[str, Any], *, x_title: str, y_title: str, title: str = "",
               colors: Sequence[str] | None = None, presentation: bool = False) -> go.Figure:
    """Grouped bars: one group per category, one bar per entry of ``bars`` (legend name -> values).

    Colours: ``colors`` (one per entry of ``bars``), else :data:`REFERENCE_COLORS`, else :func:`method_color`.
    Used for single-run views such as an election's vote counts and its selection probabilities. Each bar is labelled
    with its value where the label fits over it; on a narrow screen (a phone) the labels that would overlap their
    neighbours are left out, and the values stay in the hover and the figure's summary.
    """
    if colors is not None and len(colors) != len(bars):
        raise InvalidParameterError(f"colors must give one colour per entry of bars ({len(bars)}); got {len(colors)}")
    data = []
    for index, (name, values) in enumerate(bars.items()):
        values = np.asarray(values, dtype=float)
        if values.shape != (len(categories),):
            raise InvalidParameterError(f"bars[{name!r}] must have one value per category ({len(categories)}); got "
                                        f"{values.shape}")
        data.append(dict(type="bar", x=list(categories), y=values, name=name, text=[f"{v:.3g}" for v in values],
                         textposition="outside", marker=dict(color=colors[index] if colors is not None else
                                                             REFERENCE_COLORS.get(name) or method_color(name))))
    return figure(data, dict(template=template_dict(presentation), title=figure_title(title), uirevision="dplab",
                             barmode="group", height=figure_height(presentation, animated=False), hovermode="closest",
                             xaxis=dict(title=dict(text=x_title)), yaxis=dict(title=dict(text=y_title)),
                             uniformtext=dict(mode="hide")))  # at the template's smallest readable size, or not at all


# --------------------------------------------------------- contests, win matrices, scores and probabilities, score maps


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
                             xaxis=dict(title=dict(text="data value x"), range=[lo, hi]),
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
                                  xaxis=dict(title=dict(text="opponent Hⱼ (its mean)"), type="category"),
                                  yaxis=dict(title=dict(text="hypothesis Hᵢ (its mean)"), type="category",
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
    return figure(data, dict(template=template_dict(presentation), uirevision="dplab",
                             height=figure_height(presentation, animated=False), hovermode="closest",
                             xaxis=dict(title=dict(text="first coordinate")),
                             yaxis=dict(title=dict(text="second coordinate"), scaleanchor="x"),
                             # the colour bar takes the bottom edge: the two or three marks' legend lies in one row
                             # right above the plot, the title above it (lifted by its pad: a legend row and a gap)
                             title=figure_title(title) | dict(pad=dict(b=round(2.6 * font_size(presentation)))),
                             legend=dict(orientation="h", xref="paper", yref="paper", x=0, xanchor="left", y=1,
                                         yanchor="bottom")))


# ------------------------------------------------------------------------------ directions on a disk, an iterative path


@validated(radius=Array(ndim=(1,)), angle=Array(ndim=(1,)), scores=Array(ndim=(1,)), title=TITLE,
           presentation=FLAG)
def direction_disk(radius, angle, scores, marks: dict[str, float], *, title: str = "",
                   presentation: bool = False) -> go.Figure:
    """A score over the unit disk of directions, as a polar heatmap of cells, with marked directions.

    ``radius``/``angle`` (radians) are the cell centres of a regular polar grid (as built by
    :func:`dpcore.estimators.sdp.polar_score_grid`); ``marks`` maps a legend name to a direction in radians, drawn as a
    ray from the centre to the rim.
    """
    rings, sectors = np.unique(radius), np.unique(angle)
    ring_width = 1.0 / rings.size
    data = [dict(type="barpolar", r=np.full(radius.size, ring_width), base=(radius - ring_width / 2).tolist(),
                 theta=np.degrees(angle), width=np.full(radius.size, 360.0 / sectors.size),
                 marker=dict(color=scores, colorscale=colorscale("Viridis"), showscale=True,
                             colorbar=dict(title=dict(text="score<br>(not private)"), thickness=12)),
                 name="SDP score", hovertemplate="%{theta:.0f}°: score %{marker.color:.2f}")]
    colors = (OKABE_ITO["vermillion"], OKABE_ITO["black"], OKABE_ITO["sky blue"])
    data += [dict(type="scatterpolar", r=[0, 1], theta=[np.degrees(direction)] * 2, mode="lines", name=name,
                  line=dict(color=color, width=4)) for (name, direction), color in zip(marks.items(), colors)]
    return figure(data, dict(template=template_dict(presentation), title=figure_title(title), uirevision="dplab",
                             height=figure_height(presentation, animated=False),
                             polar=dict(radialaxis=dict(range=[0, 1])),
                             legend=dict(orientation="h", x=0, y=-0.08, yanchor="top")))


@validated(points=Array(ndim=(2,), min_size=2), trajectory=Array(ndim=(2,), min_size=2),
           true_mean=Array(ndim=(1,), min_size=2), title=TITLE, presentation=FLAG)
def trajectory_figure(points, trajectory, true_mean, *, title: str = "", presentation: bool = False) -> go.Figure:
    """Points (e.g. bucket means), an estimator's path from its start to its estimate, and the true mean."""
    data = [dict(type="scatter", x=points[:, 0], y=points[:, 1], mode="markers", name="bucket means",
                 marker=dict(color=GREY, size=8)),
            dict(type="scatter", x=trajectory[:, 0], y=trajectory[:, 1], mode="lines+markers+text",
                 name="private estimate, step by step",
                 text=[f"μ̃{i + 1}" for i in range(len(trajectory))], textposition="top center",
                 line=dict(color=OKABE_ITO["vermillion"], width=3), marker=dict(size=10)),
            dict(type="scatter", x=[true_mean[0]], y=[true_mean[1]], mode="markers", name="true mean",
                 marker=dict(color=OKABE_ITO["black"], symbol="x", size=14, line=dict(width=2)))]
    return figure(data, dict(template=template_dict(presentation), title=figure_title(title), uirevision="dplab",
                             hovermode="closest", height=figure_height(presentation, animated=False),
                             yaxis=dict(scaleanchor="x")))


# --------------------------------------------------------------------------------------------------- clouds of releases


#: Below this width (px) the two panels of :func:`release_clouds` stack (``style.narrow_layout``).
STACK_BELOW_PX = 560
_CIRCLE = np.linspace(0.0, 2.0 * np.pi, 181)


def _circle(center: np.ndarray, radius: float) -> tuple[np.ndarray, np.ndarray]:
    return center[0] + radius * np.cos(_CIRCLE), center[1] + radius * np.sin(_CIRCLE)


@validated(points=Array(ndim=(2,), min_size=2), center=Array(ndim=(1,), min_size=2),
           radius=Real(low=0, low_open=True), title=TITLE, presentation=FLAG)
def release_clouds(points, center, radius: float, releases: dict[str, np.ndarray], *, title: str = "",
                   presentation: bool = False) -> go.Figure:
    """One 2-D dataset and many private releases of its clipped mean, side by side.

    Left: the data (grey), the public clipping circle of radius ``radius`` around ``center`` and the
    true mean. Right, zoomed on the releases (they scatter around the clipped sample mean, which sampling
    error has already moved off the true mean): every method's releases (one colour per method, the app-wide
    :func:`method_color`), so the shape of each noise distribution shows (Laplace: a diamond; Gaussian:
    round).

    Parameters
    ----------
    points : array of shape (n, 2)
    center : array of shape (2,)
        The true mean (also the public clipping centre).
    releases : dict of str to array of shape (m, 2)
        Method id (or name) -> m independent releases from the same dataset; the legend shows the method's label.
    """
    grey = OKABE_ITO["black"]
    left, right = dict(xaxis="x", yaxis="y"), dict(xaxis="x2", yaxis="y2")  # two panels side by side
    circle_x, circle_y = _circle(center, radius)
    data = [dict(type="scatter", x=points[:, 0], y=points[:, 1], mode="markers", name="data",
                 marker=dict(color=GREY, size=5), **left),
            dict(type="scatter", x=circle_x, y=circle_y, mode="lines", name=f"clipping ball, C = {radius:.2f}",
                 line=dict(color=grey, dash="dash"), **left)]
    clouds = {LABELS.get(name, name): np.asarray(cloud, dtype=float) for name, cloud in releases.items()}
    middle = np.mean([cloud.mean(axis=0) for cloud in clouds.values()], axis=0)  # ≈ the clipped sample mean
    spread = max(max(float(np.quantile(np.abs(cloud - middle), 0.99)) for cloud in clouds.values()),
                 float(np.max(np.abs(center - middle))))
    data += [dict(type="scatter", x=cloud[:, 0], y=cloud[:, 1], mode="markers", name=name, opacity=0.6,
                  marker=dict(color=method_color(name), size=5), **right)
             for name, cloud in sorted(clouds.items(), key=lambda item: -np.std(item[1]))]  # widest first: none hides
    data += [dict(type="scatter", x=[center[0]], y=[center[1]], mode="markers", name="true mean",
                  showlegend=panel is left, legendgroup="true mean",
                  marker=dict(color=grey, symbol="x", size=14, line=dict(width=2)), **panel) for panel in (left, right)]
    layout: dict[str, Any] = dict(template=template_dict(presentation),
                                  title=figure_title(title) | dict(pad=dict(b=28)),  # room for the panel titles
                                  uirevision="dplab", hovermode="closest", height=560 if presentation else 480,
                                  annotations=[])
    for suffix, domain, focus, half_width, panel_title in (
            ("", [0.0, 0.45], center, 1.1 * radius, "data and clipping ball"),
            ("2", [0.55, 1.0], middle, 1.15 * spread or 1.0, "private releases (zoomed on the mean)")):
        layout[f"xaxis{suffix}"] = dict(anchor=f"y{suffix}", domain=domain, constrain="domain",
                                        range=[focus[0] - half_width, focus[0] + half_width])
        layout[f"yaxis{suffix}"] = dict(anchor=f"x{suffix}", domain=[0.0, 1.0], constrain="domain",
                                        range=[focus[1] - half_width, focus[1] + half_width], scaleanchor=f"x{suffix}")
        layout["annotations"].append(dict(text=panel_title, font=dict(size=16), showarrow=False, x=sum(domain) / 2,
                                          xanchor="center", xref="paper", y=1.0, yanchor="bottom", yref="paper"))
    # On a phone the panels stack (side by side, their titles ran into each other and the right panel's ticks
    # into the left panel): the data on top, the releases below, each title over its own panel. Same height: the
    # browser cannot change a Streamlit chart's height, and each square panel is as large as side by side.
    wide = {"xaxis.domain": [0.0, 0.45], "xaxis2.domain": [0.55, 1.0],
            "yaxis.domain": [0.0, 1.0], "yaxis2.domain": [0.0, 1.0], "annotations[0].x": 0.225,
            "annotations[1].x": 0.775, "annotations[1].y": 1.0}
    stacked = {"xaxis.domain": [0.0, 1.0], "xaxis2.domain": [0.0, 1.0], "yaxis.domain": [0.62, 1.0],
               "yaxis2.domain": [0.0, 0.38], "annotations[0].x": 0.5, "annotations[1].x": 0.5,
               "annotations[1].y": 0.38}
    layout["meta"] = narrow_layout(STACK_BELOW_PX, stacked, wide)
    return figure(data, layout)


# -------------------------------------------------------------------------------------- a histogram clipped to a window


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
                             xaxis=dict(title=dict(text=f"data value x; window [{low:.3g}, {high:.3g}]<br>"
                                                        f"({100 * (1 - shown):.1f} % of points lie beyond the axis)"),
                                        range=[edges[0], edges[-1]]),
                             yaxis=dict(title=dict(text="count"), range=[0, top]), shapes=[window]))


# ----------------------------------------------------------------------------------- the partitioning rounds of one run


_GROUP_COLORS = [OKABE_ITO["vermillion"], OKABE_ITO["orange"], DARK_YELLOW, OKABE_ITO["bluish green"],
                 OKABE_ITO["sky blue"], OKABE_ITO["blue"], OKABE_ITO["reddish purple"]]


def _points(name, x, y, color, fallback_x):
    """A scatter series; an empty one is a single invisible point (every frame keeps every series)."""
    if len(x) == 0:
        return Series(name, [fallback_x], [np.nan], kind="points", color=color)
    return Series(name, x, y, kind="points", color=color)


@validated(truth=Array(ndim=(1,), low=0, low_open=True, min_size=1), title=TITLE, presentation=FLAG)
def partition_rounds_figure(truth, result, *, title: str = "", presentation: bool = False) -> go.Figure:
    r"""The partitioning rounds of :func:`dpcore.estimators.partition_rounds.partition_rounds` as an animation, one
    frame per round, then a last frame with the final estimates.

    x: each coordinate's true marginal :math:`p_j` (log); y: its noisy round mean (log; values at or below
    :math:`\min_j p_j/4`, negative ones included, are drawn on that floor). Round frames show the coordinates
    still to place (grey), each group :math:`H_r` in its colour at the value that selected it, the round's
    threshold :math:`\tfrac38u_r` (dotted) and bound :math:`u_r` (dashed); the last frame shows every
    coordinate's final estimate :math:`\hat q_j`, coloured by its group. The diagonal is the truth.

    Parameters
    ----------
    truth : array of shape (d,)
        The true marginals.
    result : dpcore.estimators.partition_rounds.PartitionResult
        A single-dataset run (no trial axis).
    """
    floor = float(truth.min()) / 4
    low, high = float(truth.min()), float(truth.max())

    def shown(values):
        return np.maximum(values, floor)
    group = np.full(truth.size, -1)
    for r, step in enumerate(result.rounds):
        group[step.selected] = r
    names = [f"H{r + 1} (u = 1/{2 ** (r + 1)})" for r in range(len(result.rounds))]
    colors = [_GROUP_COLORS[r % len(_GROUP_COLORS)] for r in range(len(result.rounds))]
    truth_line = Series("truth (q = p)", [low, high], [low, high], kind="curve", color=OKABE_ITO["black"])
    selection_value = np.full(truth.size, np.nan)
    frames = []
    for r, step in enumerate(result.rounds):
        selection_value[step.selected] = step.noisy_means[step.selected]
        waiting = step.candidates & ~step.selected
        series = [_points("still to place", truth[waiting], shown(step.noisy_means[waiting]), GREY, high)]
        series += [_points(names[g], truth[(group == g) & (g <= r)], shown(selection_value[(group == g) & (g <= r)]),
                           colors[g], high) for g in range(len(names))]
        series += [_points("light (final round)", [], [], DARK_GREY, high),
                   Series("threshold 3u/8", [low, high], [step.threshold] * 2, kind="baseline", color=DARK_GREY),
                   Series("bound u", [low, high], [step.bound] * 2, kind="theory", color=GREY), truth_line]
        frames.append(FrameData(f"round {r + 1}", series))
    estimate = result.estimate
    series = [_points("still to place", [], [], GREY, high)]
    series += [_points(names[g], truth[group == g], shown(estimate[group == g]), colors[g], high)
               for g in range(len(names))]
    light = group < 0
    series += [_points("light (final round)", truth[light], shown(estimate[light]), DARK_GREY, high),
               Series("threshold 3u/8", [high], [np.nan], kind="baseline", color=DARK_GREY),
               Series("bound u", [high], [np.nan], kind="theory", color=GREY), truth_line]
    frames.append(FrameData("final estimates", series))
    return animated_sweep(frames, x_title="true marginal pⱼ", y_title="noisy mean or estimate (floor: min p/4)",
                          frame_title="step", title=title, presentation=presentation,
                          layout=dict(hovermode="closest"))
