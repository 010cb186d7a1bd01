"""Each figure turned into its Plotly dictionary once, not once per visitor.

``st.plotly_chart`` turns the figure it is given into a dictionary (``plotly.tools.return_figure_from_figure_or_data``,
a deep copy through ``Figure.to_dict``) every time it is drawn: 30–100 ms per page for the animated figures, paid
again by every session that opens the page, although :func:`ui.compute.figure` shares one figure object between them.
:func:`install` makes that conversion remember its answer per figure object (weakly, so a figure no longer cached is
forgotten). It is exact because the lab's figures are never mutated after they are built, and the dictionary is only
read afterwards (serialised to JSON, its layout width and height looked up).
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

import plotly.tools
from plotly.basedatatypes import BaseFigure

__all__ = ["install", "figure_dict"]

_DICTS: dict[int, dict] = {}  # id(figure) -> its dictionary, while the figure lives (figures are unhashable)
_LOCK = threading.Lock()
_ORIGINAL = plotly.tools.return_figure_from_figure_or_data


def figure_dict(figure_or_data: Any, validate_figure: bool) -> Any:
    """``plotly.tools.return_figure_from_figure_or_data``, remembered per figure object (a figure is already
    validated; anything else is passed through unchanged)."""
    if not isinstance(figure_or_data, BaseFigure):
        return _ORIGINAL(figure_or_data, validate_figure)
    key = id(figure_or_data)
    with _LOCK:
        known = _DICTS.get(key)
    if known is None:
        known = _ORIGINAL(figure_or_data, validate_figure)
        with _LOCK:
            if key not in _DICTS:
                _DICTS[key] = known
                weakref.finalize(figure_or_data, _DICTS.pop, key, None)
    return known


def install() -> None:
    """Route Streamlit's figure conversion through :func:`figure_dict` (idempotent)."""
    plotly.tools.return_figure_from_figure_or_data = figure_dict
