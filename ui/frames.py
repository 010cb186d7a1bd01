"""An animated chart's frame in the page's link: ``?frame_<chart key>=<frame>`` opens the chart on that frame.

A teacher drags a chart's frame slider (to ε = 0.2, say) and copies the address: ``assets/a11y.js`` has written the
frame into it (``history.replaceState``: no rerun, nothing during Play, only once the chart rests on a frame other
than the one the page opens it on), so the class opens the chart on ε = 0.2 too. The key is checked like every other key
of a link (:mod:`ui.params`): a frame the chart does not have gets a message and the chart opens where
the page opens it. The chart says that the link chose its frame, since the sidebar and the rest of the page keep
their own settings. Moving a control that changes where the page opens the chart wins over the link's frame (the key
is then dropped), and a key naming the frame the page would open on anyway is dropped too, keeping links short.

Each animated chart carries ``layout.meta.dplab_frame`` = ``{"key": its URL key, "start": the frame the page opens it
on without the key}``, which is all the browser script needs.
"""

from __future__ import annotations

import streamlit as st

from .drawn import Drawn
from .params import as_typed

__all__ = ["FRAME_KEY", "frame_key", "frame_labels", "opening_frame", "on_frame", "from_link"]

FRAME_KEY = "frame_"  #: URL key prefix: ``frame_<chart key>`` is the frame the chart opens on
_STARTS = "_frame_starts"  # session-state key: {chart key: the frame the page opened it on, at the last run}


def frame_key(chart: str) -> str:
    """The URL key of the chart keyed ``chart``.

    >>> frame_key("home_densities")
    'frame_home_densities'
    """
    return f"{FRAME_KEY}{chart}"


def frame_labels(fig: dict) -> list[str]:
    """The names of the figure's frames, in order (none for a still figure)."""
    return [str(frame.get("name")) for frame in fig.get("frames") or []]


def _slider(fig: dict) -> dict:
    return ((fig.get("layout") or {}).get("sliders") or [{}])[0]


def opening_frame(fig: dict) -> str | None:
    """The frame the figure opens on (its slider's active step), ``None`` for a still figure."""
    labels = frame_labels(fig)
    if not labels:
        return None
    active = _slider(fig).get("active") or 0
    return labels[active] if 0 <= active < len(labels) else labels[0]


def on_frame(fig: dict, label: str) -> Drawn:
    """The animated figure ``fig`` opening on its frame ``label`` instead (a new dictionary; ``fig`` is not changed):
    that frame's traces and title shown, the slider on it, Play running from it (from the first frame when it is the
    first or the last, as :func:`dpcore.viz.animation.animated_sweep` does)."""
    labels = frame_labels(fig)
    index = labels.index(label)
    frame = fig["frames"][index]
    base, framed = list(fig.get("data") or []), list(frame.get("data") or [])
    positions = frame.get("traces") or range(len(framed))
    data = [dict(trace) for trace in base]
    for position, trace in zip(positions, framed):
        if position < len(data):
            data[position] = {**data[position], **trace}
    layout = dict(fig.get("layout") or {})
    sliders = list(layout.get("sliders") or [])
    if sliders:
        sliders[0] = {**sliders[0], "active": index}
        layout["sliders"] = sliders
    if (frame.get("layout") or {}).get("title"):
        layout["title"] = {**(layout.get("title") or {}), **frame["layout"]["title"]}
    menus = list(layout.get("updatemenus") or [])
    if menus and (menus[0].get("buttons") or [{}])[0].get("label") == "Play":
        play, *others = menus[0]["buttons"]
        replay = index in (0, len(labels) - 1)
        play = {**play, "args": [None if replay else labels[index:], *play["args"][1:]]}
        menus[0] = {**menus[0], "buttons": [play, *others]}
        layout["updatemenus"] = menus
    return Drawn({**fig, "data": data, "layout": layout})


def _with_meta(fig: dict, chart: str, start: str) -> Drawn:
    layout = dict(fig.get("layout") or {})
    layout["meta"] = {**(layout.get("meta") or {}), "dplab_frame": {"key": frame_key(chart), "start": start}}
    return (fig if isinstance(fig, Drawn) else Drawn(fig)).with_layout(layout)


def from_link(fig: dict, chart: str) -> tuple[Drawn | dict, str | None]:
    """The animated figure ``fig`` of the chart keyed ``chart`` as this run shows it: on the frame the link's
    ``frame_<chart>`` names, else where the page opens it; marked for the browser script (``layout.meta``). Also the
    sentence to show under it when the link chose the frame (else ``None``). A frame the chart does not have gets a
    message (an error naming the key, the value as typed) and leaves the link."""
    start = opening_frame(fig)
    if start is None:
        return fig, None
    key = frame_key(chart)
    starts = st.session_state.setdefault(_STARTS, {})
    moved = starts.get(chart, start) != start  # a control moved the chart's opening frame since the last run
    starts[chart] = start
    raw = st.query_params.get(key)
    if raw is None:
        return _with_meta(fig, chart, start), None
    labels = frame_labels(fig)
    prefix = str((_slider(fig).get("currentvalue") or {}).get("prefix") or "frame: ")
    known = raw in labels
    if not known:
        st.error(f"Invalid {key} in the link: {as_typed(raw)} is not one of this chart's frames "
                 f"({', '.join(labels)}). The chart opens on {prefix}{start}.")
    if moved or not known or raw == start:
        st.query_params.pop(key, None)
        return _with_meta(fig, chart, start), None
    label = raw
    shown = _with_meta(on_frame(fig, label), chart, start)
    return shown, (f"This chart opens on {prefix}{label}, as the link asks (it would open on {prefix}{start}); the "
                   "sidebar and the rest of the page keep their own settings.")

