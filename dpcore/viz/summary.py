"""A figure in one sentence, computed from its data: for a screen reader, and for the back row of a lecture hall.

The sentence names the figure, the frame an animation opens on, the axes, and what each named curve does between
the ends of its x range (or, for bars, its values; for maps, their range), so that a reader who cannot see the chart
still gets its message.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import plotly.graph_objects as go

from ..core.validation import validated
from .constraints import FIGURE_OR_DICT
from .plotly_dict import decode_array

__all__ = ["figure_summary"]

MAX_CURVES = 5  #: curves described; the sentence says how many more there are
MAX_BARS = 6  #: bars of one trace listed by value


def _plain(text: Any) -> str:
    """Plotly's title text without its HTML (line breaks, sub/superscripts)."""
    return re.sub(r"<[^>]+>", "", re.sub(r"<br\s*/?>", " ", str(text or ""))).strip()


def _number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 1000 and float(value).is_integer() else f"{value:.3g}"


def _opening(fig: dict) -> tuple[list[dict], str]:
    """The traces shown when the figure opens (an animation: the active slider step's frame) and that frame's label."""
    frames, sliders = fig.get("frames"), fig["layout"].get("sliders")
    if not frames or not sliders:
        return fig["data"], ""
    slider = sliders[0]
    step = slider["steps"][slider.get("active") or 0]
    args = step.get("args")
    frame = next((f for f in frames if f.get("name") == args[0][0]), frames[0]) if args else frames[0]
    prefix = slider.get("currentvalue", {}).get("prefix") or ""
    return frame["data"], f" ({prefix}{step.get('label')}, the frame it opens on)"


def _curve(trace: dict) -> str | None:
    """One named curve's sentence part: its values at the ends of its x range, rising or falling, and its lowest or
    highest point when that lies inside the range (the bottom of a U-shaped error curve is often the message)."""
    x, y = decode_array(trace.get("x")).ravel(), decode_array(trace.get("y")).ravel()
    if x.dtype.kind not in "fiu" or y.dtype.kind not in "fiu":
        return None
    keep = np.isfinite(x) & np.isfinite(y)
    if keep.sum() < 2:
        return None
    order = np.argsort(x[keep], kind="stable")
    x, y = x[keep][order], y[keep][order]
    at = lambda i: f"{_number(y[i])} at {_number(x[i])}"  # noqa: E731
    name = _plain(trace.get("name"))
    spread = np.ptp(y)
    for inner, word, back in ((np.argmin(y), "lowest", "rises"), (np.argmax(y), "highest", "falls")):
        if 0 < inner < y.size - 1 and min(abs(y[inner] - y[0]), abs(y[inner] - y[-1])) > 0.05 * spread:
            move = "falls" if word == "lowest" else "rises"
            return f"{name} {move} from {at(0)} to its {word}, {at(inner)}, then {back} to {at(-1)}"
    move = "rises" if y[-1] > y[0] else "falls" if y[-1] < y[0] else "stays"
    middle = y.size // 2  # grids are evenly spaced on their axis' scale: the middle point is the middle of the chart
    through = f" through {at(middle)}" if 0 < middle < y.size - 1 else ""
    return f"{name} {move} from {at(0)}{through} to {at(-1)}"


def _bars(trace: dict) -> str | None:
    x, y = decode_array(trace.get("x")).ravel(), decode_array(trace.get("y")).ravel()
    if y.dtype.kind not in "fiu" or not y.size:
        return None
    shown = ", ".join(f"{label} {_number(value)}" for label, value in zip(x.tolist()[:MAX_BARS], y[:MAX_BARS]))
    return f"{_plain(trace.get('name'))}: {shown}{', …' if y.size > MAX_BARS else ''}"


def _map(trace: dict) -> str | None:
    z = np.asarray(decode_array(trace.get("z")), dtype=float)
    if z.ndim != 2 or not np.isfinite(z).any():
        return None
    name = f"{_plain(trace['name'])}: a" if trace.get("name") else "A"
    return f"{name} {z.shape[0]} × {z.shape[1]} map of values from {_number(np.nanmin(z))} to {_number(np.nanmax(z))}"


def _part(trace: dict) -> str | None:
    kind = trace.get("type", "scatter")
    if kind == "heatmap":
        return _map(trace)
    if not trace.get("name") or trace.get("showlegend") is False:  # band edges and helpers say nothing of their own
        return None
    return _bars(trace) if kind == "bar" else _curve(trace) if kind == "scatter" else None


@validated(fig=FIGURE_OR_DICT)
def figure_summary(fig: go.Figure | dict) -> str:
    """The figure in one sentence, from the data it opens on.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure or dict
        A figure of :mod:`dpcore.viz` (static, or animated with a frame slider), or Plotly's dictionary of one
        (``Figure.to_dict()``, :func:`dpcore.viz.plotly_dict.plotly_dict`).

    Returns
    -------
    str
        "<title> (<frame>): x is <x axis>, y is <y axis>; <curve> falls from … at … through … at … (its middle
        point) to … at …; …".

    Examples
    --------
    >>> from dpcore.viz import Series, line_figure
    >>> fig = line_figure([Series("Laplace", [10, 1000], [0.5, 0.005])], x_title="n", y_title="error",
    ...                   title="Error vs n")
    >>> figure_summary(fig)
    'Error vs n: x is n, y is error; Laplace falls from 0.5 at 10 to 0.005 at 1,000.'
    """
    fig = fig.to_dict() if isinstance(fig, go.Figure) else fig
    traces, frame = _opening(fig)
    parts = [part for part in map(_part, traces) if part]
    layout = fig["layout"]
    axes = [f"{axis} is {_plain(title)}" for axis, title in (("x", _title(layout.get("xaxis"))),
                                                              ("y", _title(layout.get("yaxis")))) if _plain(title)]
    described = parts[:MAX_CURVES] + ([f"and {len(parts) - MAX_CURVES} more"] if len(parts) > MAX_CURVES else [])
    title = _plain(_title(layout)) or "The figure"
    head = f"{title}{frame}"
    opening = f"{head}{' ' if head.endswith('?') else ': '}{', '.join(axes)}" if axes else head
    return "; ".join([opening, *described]) + "."


def _title(owner: dict | None) -> str:
    """The title text of a layout or an axis (Plotly's dictionary), "" without one."""
    title = (owner or {}).get("title") or {}
    return title.get("text") or "" if isinstance(title, dict) else str(title)
