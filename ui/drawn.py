"""A figure kept as what is drawn: Plotly's dictionary of it, made once per figure and setting.

:func:`ui.compute.described` keeps each figure as a :class:`Drawn` (``Figure.to_dict()``: its arrays already
base64-encoded), shared read-only by every session. The dictionary, not the figure object, is kept: a few times less
memory, so the server keeps every figure a class asks for instead of rebuilding the ones it forgot. ``st.plotly_chart``
would turn a dictionary back into a validated figure and a new dictionary on every draw (30–100 ms for an animated
figure); :func:`install` makes it draw a :class:`Drawn` as it is. That is exact: the dictionary is Plotly's own, never
mutated after it is made, and only read afterwards (serialised to JSON, its layout height looked up).
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import plotly.tools

__all__ = ["Drawn", "install"]

_PLOTLY_CONVERSION = plotly.tools.return_figure_from_figure_or_data


class Drawn(dict):
    """A figure's Plotly dictionary (:meth:`plotly.graph_objects.Figure.to_dict`), drawn as it is; never mutated.

    >>> import plotly.graph_objects as go
    >>> drawn = Drawn.of(go.Figure(go.Scatter(x=[0, 1], y=[2, 3]), layout=dict(title=dict(text="A<br>line"))))
    >>> drawn.title, drawn.figure().to_dict() == drawn
    ('A line', True)
    """

    @classmethod
    def of(cls, fig: go.Figure) -> Drawn:
        return cls(fig.to_dict())

    @property
    def title(self) -> str:
        """The figure's title on one line ("" if it has none)."""
        return (self.get("layout", {}).get("title", {}).get("text") or "").replace("<br>", " ")

    def figure(self) -> go.Figure:
        """The figure again (for a download: its data as CSV, its HTML), equal to the one it was made from."""
        return go.Figure(self)


def _conversion(figure_or_data: Any, validate_figure: bool) -> Any:
    """``plotly.tools.return_figure_from_figure_or_data``, except that a :class:`Drawn` is returned as it is."""
    return figure_or_data if isinstance(figure_or_data, Drawn) else _PLOTLY_CONVERSION(figure_or_data, validate_figure)


def install() -> None:
    """Make ``st.plotly_chart`` draw a :class:`Drawn` as it is (idempotent)."""
    plotly.tools.return_figure_from_figure_or_data = _conversion
