"""Figures of the lesson "Pure vs approximate DP": the 2-D release clouds."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ...core.validation import Array, Real, validated
from ..style import _FLAG, _TITLE, OKABE_ITO, method_color, template

__all__ = ["release_clouds"]

# --------------------------------------------------------------------------------------- one run



_CIRCLE = np.linspace(0.0, 2.0 * np.pi, 181)



def _circle(center: np.ndarray, radius: float) -> tuple[np.ndarray, np.ndarray]:
    return center[0] + radius * np.cos(_CIRCLE), center[1] + radius * np.sin(_CIRCLE)



@validated(points=Array(ndim=(2,), min_size=2), center=Array(ndim=(1,), min_size=2),
           radius=Real(low=0, low_open=True), title=_TITLE, presentation=_FLAG)
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
        Method name -> m independent releases from the same dataset.
    """
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.1,
                        subplot_titles=("data and clipping ball", "private releases (zoomed on the mean)"))
    grey = OKABE_ITO["black"]
    fig.add_trace(go.Scatter(x=points[:, 0], y=points[:, 1], mode="markers", name="data",
                             marker=dict(color="#BBBBBB", size=5)), row=1, col=1)
    circle_x, circle_y = _circle(center, radius)
    fig.add_trace(go.Scatter(x=circle_x, y=circle_y, mode="lines", name=f"clipping ball, C = {radius:.2f}",
                             line=dict(color=grey, dash="dash")), row=1, col=1)
    clouds = {name: np.asarray(cloud, dtype=float) for name, cloud in releases.items()}
    middle = np.mean([cloud.mean(axis=0) for cloud in clouds.values()], axis=0)  # ≈ the clipped sample mean
    spread = max(max(float(np.quantile(np.abs(cloud - middle), 0.99)) for cloud in clouds.values()),
                 float(np.max(np.abs(center - middle))))
    for name, cloud in sorted(clouds.items(), key=lambda item: -np.std(item[1])):  # widest first, so none hides
        fig.add_trace(go.Scatter(x=cloud[:, 0], y=cloud[:, 1], mode="markers", name=name, opacity=0.6,
                                 marker=dict(color=method_color(name), size=5)), row=1, col=2)
    for col in (1, 2):
        fig.add_trace(go.Scatter(x=[center[0]], y=[center[1]], mode="markers", name="true mean",
                                 showlegend=col == 1, legendgroup="true mean",
                                 marker=dict(color=grey, symbol="x", size=14, line=dict(width=2))), row=1, col=col)
    for col, focus, half_width in ((1, center, 1.1 * radius), (2, middle, 1.15 * spread or 1.0)):
        fig.update_xaxes(range=[focus[0] - half_width, focus[0] + half_width], constrain="domain", row=1, col=col)
        fig.update_yaxes(range=[focus[1] - half_width, focus[1] + half_width], constrain="domain",
                         scaleanchor=f"x{col if col > 1 else ''}", row=1, col=col)
    fig.update_layout(template=template(presentation), title=dict(text=title), uirevision="dplab",
                      hovermode="closest", height=560 if presentation else 480)
    return fig

