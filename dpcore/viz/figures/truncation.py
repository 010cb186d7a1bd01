"""Figures of the lesson "Truncation bias": the clipping window on a histogram."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ...core.validation import Array, Real, validated
from ..animation import _height
from ..style import _FLAG, _TITLE, OKABE_ITO, REFERENCE_COLORS, method_color, template

__all__ = ["clipping_histogram"]

# --------------------------------------------------------------------------------------- one run



#: Reference lines of single-run views (not methods, so not in METHOD_COLORS).



@validated(sample=Array(ndim=(1,), min_size=2), low=Real(), high=Real(), title=_TITLE, presentation=_FLAG)
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
        raise ValueError(f"low must be below high; got low={low!r}, high={high!r}")
    lo, hi = np.quantile(sample, [0.005, 0.995])
    lo, hi = min(lo, low), max(hi, high)
    pad = 0.05 * (hi - lo)
    edges = np.linspace(lo - pad, hi + pad, bins + 1)
    counts, _ = np.histogram(sample, bins=edges)
    centres, width = (edges[:-1] + edges[1:]) / 2, edges[1] - edges[0]
    inside = (centres >= low) & (centres <= high)
    shown = float(np.mean((sample >= edges[0]) & (sample <= edges[-1])))
    clipped = float(np.mean((sample < low) | (sample > high)))
    fig = go.Figure()
    for mask, name, color in ((inside, "inside the window", OKABE_ITO["blue"]),
                              (~inside, f"clipped ({100 * clipped:.1f} % of points)", OKABE_ITO["vermillion"])):
        fig.add_trace(go.Bar(x=centres[mask], y=counts[mask], width=width, name=name, marker_color=color,
                             opacity=0.75))
    top = float(counts.max()) * 1.08
    fig.add_vrect(x0=low, x1=high, fillcolor=OKABE_ITO["sky blue"], opacity=0.12, line_width=0, layer="below")
    for name, value in means.items():
        fig.add_trace(go.Scatter(x=[value, value], y=[0, top], mode="lines", name=f"{name} = {value:.3g}",
                                 line=dict(color=REFERENCE_COLORS.get(name) or method_color(name), width=3,
                                           dash="dash" if name == "true mean" else "solid")))
    fig.update_layout(template=template(presentation), title=dict(text=title), uirevision="dplab", barmode="overlay",
                      height=_height(presentation, animated=False), hovermode="closest",
                      xaxis=dict(title=dict(text=f"x  (window [{low:.3g}, {high:.3g}]; {100 * (1 - shown):.1f} % of the "
                                                 "sample lies beyond this axis)"), range=[edges[0], edges[-1]]),
                      yaxis=dict(title=dict(text="count"), range=[0, top]))
    return fig

