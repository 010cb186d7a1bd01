"""Downloads: a figure as one self-contained HTML file (plotly.js inlined) and its data as a tidy CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from typing import Any

import plotly.graph_objects as go

from ..core.validation import validated
from .constraints import FIGURE
from .plotly_dict import decode_array

__all__ = ["figure_html", "figure_table_csv"]

# --------------------------------------------------------------------------------------- downloads


@validated(fig=FIGURE)
def figure_html(fig: go.Figure) -> str:
    """The figure as a self-contained HTML document, for download.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure

    Returns
    -------
    str
        A full HTML page with plotly.js embedded (no CDN: it opens offline). An animation starts
        paused at its first frame.
    """
    return fig.to_html(include_plotlyjs=True, full_html=True, auto_play=False,
                       config={"displaylogo": False, "responsive": True})


def _rows(frame: str, traces: Sequence[Any]) -> Iterator[list]:
    for trace in traces:
        x, y = decode_array(trace.x).ravel(), decode_array(trace.y).ravel()
        for xi, yi in zip(x.tolist(), y.tolist()):
            yield [frame, trace.name or "", xi, yi]


@validated(fig=FIGURE)
def figure_table_csv(fig: go.Figure) -> str:
    """The figure's plotted data as tidy CSV with columns ``frame, trace, x, y``.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        An animated figure (its frames are exported, ``frame`` = frame name) or a static one
        (its data, ``frame`` = ``""``). Typed arrays (figures read back from JSON) are decoded.

    Returns
    -------
    str
        CSV text, one row per plotted point; band edges appear as the traces
        ``"<method> (band lower)"`` and ``"<method> (band upper)"``. Floats are written in full
        precision (they parse back exactly).
    """
    sources = [(f.name, f.data) for f in fig.frames] or [("", fig.data)]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["frame", "trace", "x", "y"])
    for frame, traces in sources:
        writer.writerows(_rows(frame, traces))
    return buffer.getvalue()


