"""A figure kept as what is drawn: Plotly's dictionary of it, made once per figure and setting.

:func:`ui.compute.described` keeps each figure as a :class:`Drawn` (``Figure.to_dict()``: its arrays already
base64-encoded), shared read-only by every session. The dictionary, not the figure object, is kept: a few times less
memory, so the server keeps every figure a class asks for instead of rebuilding the ones it forgot. ``st.plotly_chart``
would turn a dictionary back into a validated figure and a new dictionary on every draw (30–100 ms for an animated
figure); given :meth:`Drawn.chart` it takes the dictionary as it is, because Plotly's conversion treats a figure's
``to_dict()`` as already validated. That is exact: the dictionary is Plotly's own, never mutated after it is made, and
only read afterwards (serialised to JSON, its layout height looked up). Nothing of Plotly or Streamlit is replaced.

**At the precision it is drawn.** What goes to the browser (:attr:`Drawn.sent`) holds each array of 64-bit floats
as 32-bit floats (Plotly's typed array ``f4``): seven significant digits, a thousand times finer than a chart's
pixel or its hover label, and half the bytes of the largest part of a page's websocket traffic. An array with a value
float32 cannot hold (beyond 3.4e38, or a nonzero one below 1.2e-38) is sent as it is. The kept dictionary keeps full
precision for everything else: the downloads (CSV, HTML), the chart's words and its data table.

**Frames say what changes.** An animated figure's frames repeat each trace whole (its name, style, x, hover), though
plotly.js draws a frame as the trace at its position updated by what the frame names. What the figure's trace and
every frame's trace at that position hold alike is left out of the frames sent (their ``type`` kept): the same
picture at every frame, for a third of the bytes on the animated pages.
"""

from __future__ import annotations

import base64

import numpy as np
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

    @property
    def sent(self) -> dict:
        """The dictionary as sent to the browser: 64-bit float arrays as 32-bit ones (the module's note); made once,
        sharing every other part with this one.

        >>> import numpy as np
        >>> drawn = Drawn.of(go.Figure(go.Scatter(x=np.arange(3.0), y=np.array([0.1, 1e-300, 2.0]))))
        >>> [drawn.sent["data"][0][axis]["dtype"] for axis in ("x", "y")], drawn["data"][0]["x"]["dtype"]
        (['f4', 'f8'], 'f8')
        """
        sent = self.__dict__.get("_sent")
        if sent is None:
            sent = self.__dict__["_sent"] = _lean_frames(_as_drawn(self))
        return sent

    def with_layout(self, layout: dict) -> Drawn:
        """This figure with ``layout`` instead of its own (a new dictionary); what it sends is made from this one's
        (:attr:`sent`): its arrays and frames are not converted again at every run that marks a chart's layout."""
        changed = Drawn({**self, "layout": layout})
        changed.__dict__["_sent"] = {**self.sent, "layout": _as_drawn(layout)}
        return changed

    def chart(self) -> go.Figure:
        """What to hand ``st.plotly_chart`` to draw this figure as sent (:attr:`sent`: no validation, no copy)."""
        return _Chart(self.sent)


_FLOAT32_LARGEST, _FLOAT32_SMALLEST = float(np.finfo(np.float32).max), float(np.finfo(np.float32).tiny)


def _as_drawn(value):
    """``value`` with each typed array of 64-bit floats (``{"dtype": "f8", "bdata"}``) that float32 holds as 32-bit
    floats; any part without one is returned as it is (the same object)."""
    if isinstance(value, dict):
        if value.get("dtype") == "f8" and "bdata" in value:
            return _float32(value)
        items = {key: _as_drawn(item) for key, item in value.items()}
        return value if all(items[key] is value[key] for key in value) else items
    if isinstance(value, list):
        elements = [_as_drawn(item) for item in value]
        return value if all(new is old for new, old in zip(elements, value)) else elements
    return value


def _lean_frames(fig: dict) -> dict:
    """``fig`` with each frame's traces holding only what differs from the figure's trace at their position in the
    figure or in some frame (``type`` always kept); as it is when a frame names its traces (``traces``)."""
    frames, base = fig.get("frames") or [], fig.get("data") or []
    if not frames or any("traces" in frame or len(frame.get("data") or []) > len(base) for frame in frames):
        return fig
    shared = [{key for key in trace if key != "type" and all(
        position >= len(frame.get("data") or []) or frame["data"][position].get(key, _ABSENT) == trace[key]
        for frame in frames)} for position, trace in enumerate(base)]
    if not any(shared):
        return fig
    lean = [{**frame, "data": [{key: value for key, value in trace.items() if key not in shared[position]}
                               for position, trace in enumerate(frame.get("data") or [])]} for frame in frames]
    return {**fig, "frames": lean}


_ABSENT = object()


def _float32(typed: dict) -> dict:
    array = np.frombuffer(base64.b64decode(typed["bdata"]), dtype=np.float64)
    magnitude = np.abs(array[np.isfinite(array) & (array != 0)])
    if magnitude.size and (magnitude.max() > _FLOAT32_LARGEST or magnitude.min() < _FLOAT32_SMALLEST):
        return typed
    return {**typed, "dtype": "f4", "bdata": base64.b64encode(array.astype(np.float32).tobytes()).decode("ascii")}


class _Chart(go.Figure):
    """A figure's dictionary as sent (:attr:`Drawn.sent`) in a figure's clothes for ``st.plotly_chart``: Plotly's
    ``return_figure_from_figure_or_data`` takes a figure's ``to_dict()`` as already validated, and this one's is the
    kept dictionary. Only that method is meant to be called: the figure's own initialiser (which would validate
    everything again) is skipped."""

    def __init__(self, drawn: dict) -> None:  # deliberately not go.Figure.__init__
        self._drawn = drawn

    def to_dict(self) -> dict:
        return self._drawn

