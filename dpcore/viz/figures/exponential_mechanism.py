"""Figures of the lesson "Exponential mechanism": scores over directions, the iterative estimator's path."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ...core.validation import Array, validated
from ..animation import _height
from ..style import _FLAG, _TITLE, OKABE_ITO, template

__all__ = ["direction_disk", "trajectory_figure"]

# --------------------------------------------------------------------------------------- one run



@validated(radius=Array(ndim=(1,)), angle=Array(ndim=(1,)), scores=Array(ndim=(1,)), title=_TITLE,
           presentation=_FLAG)
def direction_disk(radius, angle, scores, marks: dict[str, float], *, title: str = "",
                   presentation: bool = False) -> go.Figure:
    """A score over the unit disk of directions, as a polar heatmap of cells, with marked directions.

    ``radius``/``angle`` (radians) are the cell centres of a regular polar grid (as built by
    :func:`dpcore.estimators.sdp.polar_score_grid`); ``marks`` maps a legend name to a direction in radians, drawn as a
    ray from the centre to the rim.
    """
    rings, sectors = np.unique(radius), np.unique(angle)
    ring_width = 1.0 / rings.size
    fig = go.Figure(go.Barpolar(r=np.full(radius.size, ring_width), base=radius - ring_width / 2,
                                theta=np.degrees(angle), width=np.full(radius.size, 360.0 / sectors.size),
                                marker=dict(color=scores, colorscale="Viridis", showscale=True,
                                            colorbar=dict(title=dict(text="score"))),
                                name="SDP score", hovertemplate="%{theta:.0f}°: score %{marker.color:.2f}"))
    colors = (OKABE_ITO["vermillion"], OKABE_ITO["black"], OKABE_ITO["sky blue"])
    for (name, direction), color in zip(marks.items(), colors):
        fig.add_trace(go.Scatterpolar(r=[0, 1], theta=[np.degrees(direction)] * 2, mode="lines", name=name,
                                      line=dict(color=color, width=4)))
    fig.update_layout(template=template(presentation), title=dict(text=title), uirevision="dplab",
                      height=_height(presentation, animated=False), polar=dict(radialaxis=dict(range=[0, 1])),
                      legend=dict(orientation="h", x=0, y=-0.08, yanchor="top"))
    return fig



@validated(points=Array(ndim=(2,), min_size=2), trajectory=Array(ndim=(2,), min_size=2),
           true_mean=Array(ndim=(1,), min_size=2), title=_TITLE, presentation=_FLAG)
def trajectory_figure(points, trajectory, true_mean, *, title: str = "", presentation: bool = False) -> go.Figure:
    """Points (e.g. bucket means), an estimator's path from its start to its estimate, and the true mean."""
    fig = go.Figure([
        go.Scatter(x=points[:, 0], y=points[:, 1], mode="markers", name="bucket means",
                   marker=dict(color="#BBBBBB", size=8)),
        go.Scatter(x=trajectory[:, 0], y=trajectory[:, 1], mode="lines+markers+text", name="private estimate, step by step",
                   text=[f"μ̃{i + 1}" for i in range(len(trajectory))], textposition="top center",
                   line=dict(color=OKABE_ITO["vermillion"], width=3), marker=dict(size=10)),
        go.Scatter(x=[true_mean[0]], y=[true_mean[1]], mode="markers", name="true mean",
                   marker=dict(color=OKABE_ITO["black"], symbol="x", size=14, line=dict(width=2))),
    ])
    fig.update_yaxes(scaleanchor="x")
    fig.update_layout(template=template(presentation), title=dict(text=title), uirevision="dplab", hovermode="closest",
                      height=_height(presentation, animated=False))
    return fig

