"""A figure kept as what is drawn: Plotly's dictionary of it, made once per figure and setting.

:func:`ui.compute.described` keeps each figure as a :class:`Drawn` (``Figure.to_dict()``: its arrays already
base64-encoded), shared read-only by every session. The dictionary, not the figure object, is kept: a few times less
memory, so the server keeps every figure a class asks for instead of rebuilding the ones it forgot. ``st.plotly_chart``
would turn a dictionary back into a validated figure and a new dictionary on every draw (30–100 ms for an animated
figure); given :meth:`Drawn.chart` it takes the dictionary as it is, because Plotly's conversion treats a figure's
``to_dict()`` as already validated. That is exact: the dictionary is Plotly's own, never mutated after it is made, and
only read afterwards (serialised to JSON, its layout height looked up). Nothing of Plotly or Streamlit is replaced.
"""

from __future__ import annotations

import plotly.graph_objects as go

__all__ = ["Drawn"]


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

    def chart(self) -> go.Figure:
        """What to hand ``st.plotly_chart`` to draw this dictionary as it is (no validation, no copy)."""
        return _Chart(self)


class _Chart(go.Figure):
    """A :class:`Drawn` in a figure's clothes for ``st.plotly_chart``: Plotly's ``return_figure_from_figure_or_data``
    takes a figure's ``to_dict()`` as already validated, and this one's is the kept dictionary. Only that method is
    meant to be called: the figure's own initialiser (which would validate everything again) is skipped."""

    def __init__(self, drawn: Drawn) -> None:  # deliberately not go.Figure.__init__
        self._drawn = drawn

    def to_dict(self) -> dict:
        return self._drawn

