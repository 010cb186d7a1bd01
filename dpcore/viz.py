"""Plotly figure builders: one look, one colour per method, animated parameter sweeps.

This is the only dpcore module that imports plotly (``import dpcore`` does not import it). Pages pass
tidy arrays in and get a ``plotly.graph_objects.Figure`` back; nothing here knows about streamlit.

* :data:`METHOD_COLORS` / :func:`method_color` -- the app-wide method -> colour registry
  (Okabe & Ito's colour-blind-safe palette, so a method has the same colour on every page).
* :func:`template` -- the ``dplab`` Plotly template: large fonts for a projector, white background.
* :func:`animated_sweep` -- error curves over frames of one parameter, with a slider and Play/Pause.
  The initial data equals the first frame, every frame has the same traces in the same order, and
  the axis ranges are fixed across frames so only the curves move.
* :func:`line_figure` -- the same styling for a static, single-run view.
* :func:`figure_html`, :func:`figure_table_csv` -- downloads: self-contained HTML and tidy CSV.

A curve is a :class:`Series`; its ``kind`` sets its drawing: ``"simulation"`` (markers and lines,
with an optional translucent quantile band), ``"theory"`` (dashed) or ``"baseline"`` (dotted).
"""

from __future__ import annotations

import base64
import csv
import io
import re
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from plotly.subplots import make_subplots

from .experiments import SweepResult
from .validation import Array, Choice, Constraint, InstanceOf, Real, check_same_length, validated

__all__ = [
    "OKABE_ITO",
    "METHOD_COLORS",
    "method_color",
    "template",
    "Series",
    "FrameData",
    "animated_sweep",
    "line_figure",
    "figure_html",
    "figure_table_csv",
    "sweep_frames",
    "theory_series",
    "release_clouds",
    "clipping_histogram",
    "bar_figure",
    "direction_disk",
    "trajectory_figure",
    "partition_rounds_figure",
    "scheffe_figure",
    "win_matrix_figure",
    "selection_figure",
    "grid_scores_figure",
]

# --------------------------------------------------------------------------------------- colours

#: Okabe & Ito (2008), "Color Universal Design": distinguishable under the common colour-vision deficiencies.
OKABE_ITO: dict[str, str] = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky blue": "#56B4E9",
    "bluish green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
}

# The pure yellow is too light for a line on white (contrast 1.2:1), so lines use a darkened yellow;
# greys take the reference curves (theory, lower bound) so the methods keep the saturated hues.
_DARK_YELLOW = "#B09A00"
_GREY, _DARK_GREY = "#999999", "#555555"

#: The one method -> colour registry used by every page (legend names are these keys verbatim).
METHOD_COLORS: dict[str, str] = {
    "non-private": OKABE_ITO["black"],
    "Laplace": OKABE_ITO["blue"],
    "Gaussian (analytic)": OKABE_ITO["vermillion"],
    "Gaussian (classical)": OKABE_ITO["orange"],
    "zCDP Gaussian": OKABE_ITO["reddish purple"],
    "naive": OKABE_ITO["sky blue"],
    "clipped Laplace": OKABE_ITO["bluish green"],
    "exponential mechanism": _DARK_YELLOW,
    "theory": _DARK_GREY,
    "lower bound": _GREY,
    # Beyond Okabe-Ito's eight hues: Paul Tol's "muted" colour-blind-safe scheme.
    "KSU20 estimator": "#882255",
    "private part (bias + noise)": "#44AA99",
    "naive truncated mean": "#117733",
    "truncated MLE (moment matching)": "#332288",
    "truncated MLE (DP gradient descent)": "#AA4499",
    "clipped (user-level)": "#EE3377",
    "group privacy": "#999933",
    "one example per user": "#661100",
    "report noisy max": "#CC6677",
    "permute-and-flip": "#88CCEE",
    # Paul Tol's "vibrant" and "bright" schemes (colour-blind safe) for the product-distribution page.
    "partition rounds (pure)": "#0077BB",
    "naive Laplace": "#33BBEE",
    "partition + Gaussian (zCDP)": "#AA3377",
    "one-shot Gaussian (ε, δ)": "#CC3311",
    "one-shot Laplace (oracle radius)": "#CCBB44",
}

_FALLBACK = [c for name, c in OKABE_ITO.items() if name not in ("black", "yellow")] + [_DARK_YELLOW]


@dataclass(frozen=True)
class _Text(Constraint):
    """A string (non-empty if ``nonempty``)."""

    nonempty: bool = False

    def describe(self) -> str:
        return "a non-empty string" if self.nonempty else "a string"

    def check(self, name: str, value: Any) -> str:
        if not isinstance(value, str):
            self.fail(name, value, TypeError)
        if self.nonempty and not value:
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        return [None, 3] + ([""] if self.nonempty else [])


@dataclass(frozen=True)
class _ItemsOf(Constraint):
    """A non-empty list or tuple of instances of ``kind``; normalised to a tuple."""

    kind: type

    def describe(self) -> str:
        return f"a non-empty list of {self.kind.__name__}"

    def check(self, name: str, value: Any) -> tuple:
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, self.kind) for v in value):
            self.fail(name, value, TypeError)
        if not value:
            self.fail(name, value)
        return tuple(value)

    def bad_values(self) -> list[Any]:
        return [None, [], "abc", [1.0]]


@dataclass(frozen=True)
class _HexColor(_Text):
    """A ``"#RRGGBB"`` colour (hex, so the band can be drawn as its translucent version)."""

    def describe(self) -> str:
        return "a colour '#RRGGBB'"

    def check(self, name: str, value: Any) -> str:
        super().check(name, value)
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        return [None, "red", "#12345"]


_NAME = _Text(nonempty=True)
_HEX_COLOR = _HexColor()
_TITLE = _Text()
_FIGURE = InstanceOf(go.Figure, "a plotly.graph_objects.Figure")
_FLAG = Choice((False, True))
_KIND = Choice(("simulation", "curve", "theory", "baseline", "points"))
_COORDINATE = Array(ndim=(1,), min_size=1)
_VALUES = Array(ndim=(1,), min_size=1, finite=False)  # NaN allowed: a gap (e.g. where a theory curve is undefined)


@validated(name=_NAME)
def method_color(name: str) -> str:
    """The colour of a method: its :data:`METHOD_COLORS` entry, else a stable pick from the palette.

    Parameters
    ----------
    name : str
        The method's legend name.

    Returns
    -------
    str
        A ``"#RRGGBB"`` colour. Names outside the registry get a palette colour chosen by a CRC-32
        hash of the name, so the same name has the same colour in every session and process.
    """
    return METHOD_COLORS.get(name) or _FALLBACK[zlib.crc32(name.encode()) % len(_FALLBACK)]


# --------------------------------------------------------------------------------------- template

_FONT_FAMILY = "Inter, 'Helvetica Neue', Helvetica, Arial, sans-serif"


def _font_size(presentation: bool) -> int:
    return 22 if presentation else 16


@validated(presentation=_FLAG)
def template(presentation: bool = False) -> go.layout.Template:
    """The app's Plotly template: projector-sized fonts, white background, light grid.

    Parameters
    ----------
    presentation : bool
        Presentation mode: base font 22 px instead of 16 px, thicker lines, bigger markers.

    Returns
    -------
    plotly.graph_objects.layout.Template
        Also registered as ``plotly.io.templates["dplab"]`` (normal) and ``["dplab_presentation"]``.
        The legend sits right of the plot area, so it never overlaps the data, slider or buttons;
        axes use ``automargin`` so tick labels and axis titles are never clipped.
    """
    size = _font_size(presentation)
    axis = dict(showgrid=True, gridcolor="#E5E5E5", zeroline=False, showline=True, linecolor="#444444",
                ticks="outside", tickcolor="#444444", automargin=True,
                title=dict(standoff=12, font=dict(size=round(1.1 * size))))
    layout = dict(
        font=dict(family=_FONT_FAMILY, size=size, color="#222222"),
        title=dict(font=dict(size=round(1.3 * size)), x=0, xanchor="left", xref="paper"),
        paper_bgcolor="white",
        plot_bgcolor="white",
        colorway=_FALLBACK,
        xaxis=axis,
        yaxis=axis,
        legend=dict(x=1.02, xanchor="left", y=1, yanchor="top", font=dict(size=size),
                    bgcolor="rgba(255,255,255,0.9)", itemwidth=40),
        hoverlabel=dict(font=dict(size=size)),
        hovermode="x unified",
        margin=dict(l=20, r=20, t=round(3.5 * size), b=20),
    )
    scatter = dict(line=dict(width=3.5 if presentation else 2.5), marker=dict(size=10 if presentation else 7))
    return go.layout.Template(layout=layout, data=dict(scatter=[scatter]))


pio.templates["dplab"] = template()
pio.templates["dplab_presentation"] = template(presentation=True)


# --------------------------------------------------------------------------------------- data


def _checked_arrays(label: str, x: Any, y: Any, lower: Any, upper: Any) -> dict[str, np.ndarray]:
    """A series' arrays as float numpy arrays, or ``ValueError`` naming the series and the field."""
    if (lower is None) != (upper is None):
        raise ValueError(f"{label}: give both lower and upper (a band) or neither")
    arrays = {"x": _COORDINATE.check(f"{label} x", x)}
    for field, value in dict(y=y, lower=lower, upper=upper).items():
        if value is not None:
            arrays[field] = _VALUES.check(f"{label} {field}", value)
            if np.any(np.isinf(arrays[field])):
                raise ValueError(f"{label} {field} must not contain ±inf (use NaN for a gap)")
    check_same_length([f"{label} {field}" for field in arrays], list(arrays.values()))
    if lower is not None and np.any(arrays["lower"] > arrays["upper"]):
        raise ValueError(f"{label}: the band's lower edge exceeds its upper edge")
    return arrays


@dataclass(frozen=True, eq=False)
class Series:
    """One curve of a figure: its points, an optional quantile band, and how to draw it.

    Attributes
    ----------
    name : str
        Legend name; use the :data:`METHOD_COLORS` keys for methods so every page agrees.
    x, y : array of shape (m,)
        The points. ``x`` must be finite; ``y`` may hold NaN (drawn as a gap), not ±inf.
    lower, upper : array of shape (m,), optional
        A band around ``y`` (e.g. the Monte Carlo 10 % and 90 % quantiles), both or neither.
    kind : {"simulation", "curve", "theory", "baseline", "points"}
        Markers and lines (with the band), a solid line (an exact curve, e.g. a density), a dashed line,
        a dotted line, or markers only (a scatter of single-run values).
    color : str, optional
        A ``"#RRGGBB"`` colour; default :func:`method_color` of ``name``.
    group : str, optional
        Name of another series whose legend entry this one joins (it gets no entry of its own, and
        clicking that entry hides both): e.g. a method's theory curve grouped with the method.

    Arrays are converted to float ``numpy`` arrays and checked on construction (``ValueError``
    naming the series and the field). Equality is identity (the fields are arrays).
    """

    name: str
    x: Any
    y: Any
    lower: Any = None
    upper: Any = None
    kind: str = "simulation"
    color: str | None = None
    group: str | None = None

    def __post_init__(self) -> None:
        label = f"series {_NAME.check('Series name', self.name)!r}"
        _KIND.check(f"{label} kind", self.kind)
        color = method_color(self.name) if self.color is None else _HEX_COLOR.check(f"{label} color", self.color)
        arrays = _checked_arrays(label, x=self.x, y=self.y, lower=self.lower, upper=self.upper)
        for field, value in (arrays | {"color": color}).items():
            object.__setattr__(self, field, value)

    @property
    def has_band(self) -> bool:
        """Whether the series carries a quantile band."""
        return self.lower is not None

    def _plotted(self, axis: str) -> list[np.ndarray]:
        """The arrays plotted along ``axis`` (``"x"``: x; ``"y"``: y and the band edges)."""
        if axis == "x":
            return [self.x]
        return [self.y] + ([self.lower, self.upper] if self.has_band else [])


@dataclass(frozen=True, eq=False)
class FrameData:
    """One frame of an animated sweep: a slider label and the curves shown at that parameter value.

    Attributes
    ----------
    label : str
        Shown on the slider (e.g. ``"0.5"`` for ε = 0.5) and used as the Plotly frame name, so it must be
        unique within a figure.
    series : list of Series
        The curves, with distinct names. Every frame of a figure must list the same series (name,
        kind, band or not) in the same order, so the animation has a fixed trace layout.
    """

    label: str
    series: Sequence[Series]

    def __post_init__(self) -> None:
        _NAME.check("FrameData label", self.label)
        object.__setattr__(self, "series", _ItemsOf(Series).check(f"frame {self.label!r} series", self.series))
        names = [s.name for s in self.series]
        if len(set(names)) < len(names):
            raise ValueError(f"frame {self.label!r} has duplicate series names {names}")

    def _layout_key(self) -> list[tuple[str, str, bool]]:
        """(name, kind, has band) of each series: what must agree across frames."""
        return [(s.name, s.kind, s.has_band) for s in self.series]


# --------------------------------------------------------------------------------------- traces

_DASH = {"simulation": "solid", "curve": "solid", "theory": "dash", "baseline": "dot", "points": "solid"}
_MODE = {"simulation": "lines+markers", "points": "markers"}
_BAND_OPACITY = 0.2


def _translucent(color: str) -> str:
    red, green, blue = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red}, {green}, {blue}, {_BAND_OPACITY})"


# Traces are plain dicts: Plotly validates them once, when the whole figure is built (building
# go.Scatter objects first validated every array two more times and tripled the build time).

def _band_traces(series: Series) -> list[dict]:
    """The band as two traces: its lower edge (invisible) and its upper edge filled down to it."""
    edge = dict(type="scatter", x=series.x, mode="lines", line=dict(width=0, color=series.color),
                legendgroup=series.name, showlegend=False, hoverinfo="skip")
    return [dict(name=f"{series.name} (band lower)", y=series.lower, **edge),
            dict(name=f"{series.name} (band upper)", y=series.upper, fill="tonexty",
                 fillcolor=_translucent(series.color), **edge)]


def _line_trace(series: Series) -> dict:
    mode = _MODE.get(series.kind, "lines")
    return dict(type="scatter", name=series.name, x=series.x, y=series.y, mode=mode,
                legendgroup=series.group or series.name, showlegend=series.group is None,
                line=dict(color=series.color, dash=_DASH[series.kind]), marker=dict(color=series.color),
                hovertemplate="%{y:.3g}")


def _traces(series: Sequence[Series]) -> list[dict]:
    """All bands first (so no band covers a line), then the lines: a fixed layout for a fixed series list."""
    bands = [trace for s in series if s.has_band for trace in _band_traces(s)]
    return bands + [_line_trace(s) for s in series]


# --------------------------------------------------------------------------------------- layout


def _check_same_layout(frames: Sequence[FrameData]) -> None:
    first = frames[0]
    labels = [f.label for f in frames]
    if len(set(labels)) < len(labels):
        raise ValueError(f"frame labels must be unique; got {labels}")
    for frame in frames[1:]:
        if frame._layout_key() != first._layout_key():
            raise ValueError(f"every frame must have the same series (name, kind, band) in the same order; "
                             f"frame {frame.label!r} has {frame._layout_key()} but frame {first.label!r} "
                             f"has {first._layout_key()}")


#: A log axis shows at most this many decades below its largest value; smaller values leave the chart.
MAX_LOG_DECADES = 12


def _fixed_range(frames: Sequence[FrameData], axis: str, log: bool) -> list[float]:
    """An axis range covering every value of every frame (in log10 units for a log axis), padded by 5 %."""
    values = []
    for frame in frames:
        for series in frame.series:
            for array in series._plotted(axis):
                if log and np.any(array <= 0):
                    raise ValueError(f"log_{axis} needs positive {axis} values; series {series.name!r} in "
                                     f"frame {frame.label!r} has {axis} <= 0")
                values.append(array[np.isfinite(array)])
    finite = np.concatenate(values)
    if finite.size == 0:
        raise ValueError(f"no finite {axis} values to plot")
    if log:
        finite = np.log10(finite)
    low, high = float(finite.min()), float(finite.max())
    if log:
        low = max(low, high - MAX_LOG_DECADES)  # exact zeros or 1e-300 underflow must not flatten the plot
    pad = 0.05 * (high - low) or (0.5 if log else 0.1 * abs(high) or 1.0)
    return [low - pad, high + pad]


def _axis(title: str, frames: Sequence[FrameData], axis: str, log: bool) -> dict:
    """A fixed-range axis; a log axis spanning two decades or more labels only the powers of ten, a shorter one
    the 1s, 2s and 5s."""
    low, high = _fixed_range(frames, axis, log)
    spec = dict(title=dict(text=title), range=[low, high], autorange=False, type="log" if log else "linear")
    if log:
        spec["exponentformat"] = "power"
    if log and high - low >= 2:
        spec |= dict(dtick=1, minor=dict(dtick="D1", showgrid=True, gridcolor="#F2F2F2"))
    elif log:  # under two decades: label the 1s, 2s and 5s in full (20, 50, 100), not every digit
        def nice(mantissas):
            return [m * 10.0 ** e for e in range(int(np.floor(low)), int(np.ceil(high)) + 1) for m in mantissas
                    if low <= np.log10(m) + e <= high]
        ticks = nice((1, 2, 5)) if len(nice((1, 2, 5))) >= 3 else nice((1, 1.5, 2, 3, 5, 7))
        spec |= dict(tickmode="array", tickvals=ticks, ticktext=[f"{v:g}" for v in ticks])
    return spec


def _height(presentation: bool, animated: bool) -> int:
    """Figure height in pixels: set on the figure itself (Streamlit ignores a template's height); an
    animated figure adds room for its slider and buttons."""
    return (640 if presentation else 480) + (120 if animated and presentation else 90 if animated else 0)


def _figure(frames: Sequence[FrameData], x_title: str, y_title: str, title: str, log_x: bool, log_y: bool,
            presentation: bool, frame_title: str | None = None, shown: int = 0) -> go.Figure:
    """Both builders' figure, validated by Plotly once: frame ``shown``'s traces and the styled layout,
    plus (when ``frame_title`` is given) every frame with the slider (positioned on ``shown``) and
    Play/Pause buttons."""
    layout = dict(template=template(presentation), title=dict(text=title), uirevision="dplab",
                  height=_height(presentation, animated=frame_title is not None),
                  xaxis=_axis(x_title, frames, "x", log_x), yaxis=_axis(y_title, frames, "y", log_y))
    if frame_title is None:
        return go.Figure(data=_traces(frames[shown].series), layout=layout)
    controls = _controls(frames, frame_title, presentation)
    controls["sliders"][0]["active"] = shown
    return go.Figure(data=_traces(frames[shown].series), layout=layout | controls,
                     frames=[dict(name=f.label, data=_traces(f.series)) for f in frames])


# --------------------------------------------------------------------------------------- animation

_PLAY_FRAME_MS = 800


def _animate(duration_ms: int, redraw: bool = True, **extra: Any) -> dict:
    """The animation options of a slider step or a button."""
    return dict(mode="immediate", frame=dict(duration=duration_ms, redraw=redraw), transition=dict(duration=0),
                **extra)


def _controls(frames: Sequence[FrameData], frame_title: str, presentation: bool) -> dict:
    """Slider (one step per frame) and Play/Pause buttons, on one row below the x-axis title."""
    size = _font_size(presentation)
    below_axis = round(4.5 * size)  # clears the tick labels and the x-axis title
    steps = [dict(method="animate", label=f.label, args=[[f.label], _animate(0)]) for f in frames]
    slider = dict(active=0, steps=steps, x=0.16, len=0.84, y=0, yanchor="top", pad=dict(t=below_axis, b=10),
                  currentvalue=dict(prefix=f"{frame_title} = ", xanchor="left", font=dict(size=size)),
                  transition=dict(duration=0))
    play = dict(label="Play", method="animate", args=[None, _animate(_PLAY_FRAME_MS, fromcurrent=True)])
    pause = dict(label="Pause", method="animate", args=[[None], _animate(0, redraw=False)])
    buttons = dict(type="buttons", direction="left", buttons=[play, pause], showactive=False, x=0.16,
                   xanchor="right", y=0, yanchor="top", pad=dict(t=below_axis + round(2 * size), r=10))
    return dict(sliders=[slider], updatemenus=[buttons])


@validated(frames=_ItemsOf(FrameData), x_title=_TITLE, y_title=_TITLE, frame_title=_TITLE, title=_TITLE,
           log_x=_FLAG, log_y=_FLAG, presentation=_FLAG)
def animated_sweep(frames: Sequence[FrameData], *, x_title: str, y_title: str, frame_title: str, title: str = "",
                   log_x: bool = True, log_y: bool = True, presentation: bool = False,
                   start: str | None = None) -> go.Figure:
    """An animated figure over frames of one parameter, with a slider and Play/Pause buttons.

    Typical use: error vs ``n`` (x) for each method, one frame per ε; the Monte Carlo median with
    its quantile band, the theory curve and the non-private baseline.

    Parameters
    ----------
    frames : list of FrameData
        At least one frame; all frames list the same series in the same order.
    x_title, y_title : str
        Axis titles, with symbols and units (e.g. ``"sample size n"``, ``"|error| (median)"``).
    frame_title : str
        The swept parameter; the slider shows ``frame_title + " = " + label``.
    title : str
        Figure title (may be empty).
    log_x, log_y : bool
        Logarithmic axes (the default: error rates are power laws). Plotted values must be positive.
    presentation : bool
        Use the presentation template (larger fonts and lines).
    start : str, optional
        Label of the frame to open on (e.g. the ε chosen in the sidebar); default the first frame.

    Returns
    -------
    plotly.graph_objects.Figure
        ``data`` equals the ``start`` frame and the slider sits on it; ``frames`` are named by the labels; both axis ranges are
        fixed over all frames (padded, in log10 units on log axes) so only the curves move;
        ``layout.uirevision`` is constant so a rerun keeps the user's zoom.

    Raises
    ------
    ValueError
        No frames, duplicate labels, frames whose series differ (names, kinds, bands or order),
        or non-positive values on a log axis.
    """
    _check_same_layout(frames)
    labels = [f.label for f in frames]
    if start is not None and start not in labels:
        raise ValueError(f"start must be one of the frame labels {labels}; got {start!r}")
    return _figure(frames, x_title, y_title, title, log_x, log_y, presentation, frame_title,
                   labels.index(start) if start is not None else 0)


@validated(series=_ItemsOf(Series), x_title=_TITLE, y_title=_TITLE, title=_TITLE, log_x=_FLAG, log_y=_FLAG,
           presentation=_FLAG)
def line_figure(series: Sequence[Series], *, x_title: str, y_title: str, title: str = "", log_x: bool = False,
                log_y: bool = False, presentation: bool = False) -> go.Figure:
    """A static figure (one run, no animation) with the same styling as :func:`animated_sweep`.

    Parameters
    ----------
    series : list of Series
        The curves, with distinct names.
    x_title, y_title, title : str
        Axis titles (with symbols and units) and the figure title (may be empty).
    log_x, log_y : bool
        Logarithmic axes; plotted values must then be positive.
    presentation : bool
        Use the presentation template.

    Returns
    -------
    plotly.graph_objects.Figure

    Raises
    ------
    ValueError
        Duplicate series names or non-positive values on a log axis.
    """
    return _figure([FrameData("line_figure", series)], x_title, y_title, title, log_x, log_y, presentation)


# --------------------------------------------------------------------------------------- downloads


@validated(fig=_FIGURE)
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


def _decode(values: Any) -> np.ndarray:
    """A trace's coordinate array as numpy: plain sequences, or Plotly's typed-array dict ``{dtype, bdata}``."""
    if values is None:
        return np.empty(0)
    if isinstance(values, dict) and "bdata" in values:
        array = np.frombuffer(base64.b64decode(values["bdata"]), dtype=np.dtype(values["dtype"]))
        return array.reshape([int(s) for s in str(values["shape"]).split(",")]) if "shape" in values else array
    return np.asarray(values)


def _rows(frame: str, traces: Sequence[Any]) -> Iterator[list]:
    for trace in traces:
        x, y = _decode(trace.x).ravel(), _decode(trace.y).ravel()
        for xi, yi in zip(x.tolist(), y.tolist()):
            yield [frame, trace.name or "", xi, yi]


@validated(fig=_FIGURE)
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


# --------------------------------------------------------------------------------------- sweeps

_STATISTIC = Choice(("median", "mean", "rmse"))


@validated(result=InstanceOf(SweepResult, "a dpcore.experiments.SweepResult"), x=_NAME, frame=_NAME, statistic=_STATISTIC)
def sweep_frames(result: SweepResult, *, x: str, frame: str, fixed: dict | None = None, statistic: str = "median",
                 theory: Callable[[Any], list[Series]] | None = None,
                 label: Callable[[Any], str] = "{:g}".format) -> list[FrameData]:
    """Turn a Monte Carlo sweep into animation frames: one frame per value of axis ``frame``.

    Each frame holds, for every method of ``result``, its ``statistic`` along axis ``x`` (markers and
    lines) with the sweep's quantile band, then the series ``theory(frame_value)`` returns (theory
    curves, baselines), so simulation and theory move together.

    Parameters
    ----------
    result : dpcore.experiments.SweepResult
    x, frame : str
        Grid axes: the horizontal axis and the animated one.
    fixed : dict, optional
        Values for the remaining axes (axes with one value may be omitted).
    statistic : {"median", "mean", "rmse"}
        The simulated curve. The band is always the quantile band of the per-trial errors.
    theory : callable, optional
        ``theory(frame_value) -> list[Series]`` added after the methods.
    label : callable
        Frame label from the frame value (default ``"{:g}".format``).
    """
    fixed = dict(fixed or {})
    frames = []
    for value in result.grid[frame].tolist():
        series = []
        for method in result.methods:
            curve = result.curve(method, x, **fixed, **{frame: value})
            series.append(Series(method, curve["x"], curve[statistic], curve["lower"], curve["upper"]))
        frames.append(FrameData(label(value), series + (theory(value) if theory else [])))
    return frames


@validated(method=_NAME, x=Array(ndim=(1,)), y=Array(ndim=(1,), finite=False))
def theory_series(method: str, x, y) -> Series:
    """A method's theory companion: a dashed curve named ``"<method> (theory)"`` in the method's colour,
    sharing the method's legend entry (clicking the method hides both)."""
    return Series(f"{method} (theory)", x, y, kind="theory", color=method_color(method), group=method)


# --------------------------------------------------------------------------------------- one run

_CIRCLE = np.linspace(0.0, 2.0 * np.pi, 181)
#: Reference lines of single-run views (not methods, so not in METHOD_COLORS).
REFERENCE_COLORS = {"true mean": OKABE_ITO["black"], "clipped mean": OKABE_ITO["bluish green"],
                    "private estimate": OKABE_ITO["reddish purple"], "naive truncated mean": OKABE_ITO["orange"]}


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


@validated(categories=_ItemsOf(str), x_title=_TITLE, y_title=_TITLE, title=_TITLE, presentation=_FLAG)
def bar_figure(categories: Sequence[str], bars: dict[str, Any], *, x_title: str, y_title: str, title: str = "",
               colors: Sequence[str] | None = None, presentation: bool = False) -> go.Figure:
    """Grouped bars: one group per category, one bar per entry of ``bars`` (legend name -> values).

    Colours: ``colors`` (one per entry of ``bars``), else :data:`REFERENCE_COLORS`, else :func:`method_color`.
    Used for single-run views such as an election's vote counts and its selection probabilities.
    """
    if colors is not None and len(colors) != len(bars):
        raise ValueError(f"colors must give one colour per entry of bars ({len(bars)}); got {len(colors)}")
    fig = go.Figure()
    for index, (name, values) in enumerate(bars.items()):
        values = np.asarray(values, dtype=float)
        if values.shape != (len(categories),):
            raise ValueError(f"bars[{name!r}] must have one value per category ({len(categories)}); got {values.shape}")
        fig.add_trace(go.Bar(x=list(categories), y=values, name=name, text=[f"{v:.3g}" for v in values],
                             textposition="outside", marker_color=colors[index] if colors is not None else
                             REFERENCE_COLORS.get(name) or method_color(name)))
    fig.update_layout(template=template(presentation), title=dict(text=title), uirevision="dplab", barmode="group",
                      height=_height(presentation, animated=False), hovermode="closest",
                      xaxis=dict(title=dict(text=x_title)), yaxis=dict(title=dict(text=y_title)))
    return fig


@validated(radius=Array(ndim=(1,)), angle=Array(ndim=(1,)), scores=Array(ndim=(1,)), title=_TITLE,
           presentation=_FLAG)
def direction_disk(radius, angle, scores, marks: dict[str, float], *, title: str = "",
                   presentation: bool = False) -> go.Figure:
    """A score over the unit disk of directions, as a polar heatmap of cells, with marked directions.

    ``radius``/``angle`` (radians) are the cell centres of a regular polar grid (as built by
    :func:`dpcore.sdp.polar_score_grid`); ``marks`` maps a legend name to a direction in radians, drawn as a
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


_GROUP_COLORS = [OKABE_ITO["vermillion"], OKABE_ITO["orange"], _DARK_YELLOW, OKABE_ITO["bluish green"],
                 OKABE_ITO["sky blue"], OKABE_ITO["blue"], OKABE_ITO["reddish purple"]]


def _points(name, x, y, color, fallback_x):
    """A scatter series; an empty one is a single invisible point (every frame keeps every series)."""
    if len(x) == 0:
        return Series(name, [fallback_x], [np.nan], kind="points", color=color)
    return Series(name, x, y, kind="points", color=color)


@validated(truth=Array(ndim=(1,), low=0, low_open=True, min_size=1), title=_TITLE, presentation=_FLAG)
def partition_rounds_figure(truth, result, *, title: str = "", presentation: bool = False) -> go.Figure:
    r"""The partitioning rounds of :func:`dpcore.product.partition_rounds` as an animation, one frame per round,
    then a last frame with the final estimates.

    x: each coordinate's true marginal :math:`p_j` (log); y: its noisy round mean (log; values at or below
    :math:`\min_j p_j/4`, negative ones included, are drawn on that floor). Round frames show the coordinates
    still to place (grey), each group :math:`H_r` in its colour at the value that selected it, the round's
    threshold :math:`\tfrac38u_r` (dotted) and bound :math:`u_r` (dashed); the last frame shows every
    coordinate's final estimate :math:`\hat q_j`, coloured by its group. The diagonal is the truth.

    Parameters
    ----------
    truth : array of shape (d,)
        The true marginals.
    result : dpcore.product.PartitionResult
        A single-dataset run (no trial axis).
    """
    floor = float(truth.min()) / 4
    low, high = float(truth.min()), float(truth.max())
    def shown(values):
        return np.maximum(values, floor)
    group = np.full(truth.size, -1)
    for r, step in enumerate(result.rounds):
        group[step.selected] = r
    names = [f"H{r + 1} (u = 1/{2 ** (r + 1)})" for r in range(len(result.rounds))]
    colors = [_GROUP_COLORS[r % len(_GROUP_COLORS)] for r in range(len(result.rounds))]
    truth_line = Series("truth (q = p)", [low, high], [low, high], kind="curve", color=OKABE_ITO["black"])
    selection_value = np.full(truth.size, np.nan)
    frames = []
    for r, step in enumerate(result.rounds):
        selection_value[step.selected] = step.noisy_means[step.selected]
        waiting = step.candidates & ~step.selected
        series = [_points("still to place", truth[waiting], shown(step.noisy_means[waiting]), _GREY, high)]
        series += [_points(names[g], truth[(group == g) & (g <= r)], shown(selection_value[(group == g) & (g <= r)]),
                           colors[g], high) for g in range(len(names))]
        series += [_points("light (final round)", [], [], OKABE_ITO["black"], high),
                   Series("threshold 3u/8", [low, high], [step.threshold] * 2, kind="baseline", color=_DARK_GREY),
                   Series("bound u", [low, high], [step.bound] * 2, kind="theory", color=_GREY), truth_line]
        frames.append(FrameData(f"round {r + 1}", series))
    estimate = result.estimate
    series = [_points("still to place", [], [], _GREY, high)]
    series += [_points(names[g], truth[group == g], shown(estimate[group == g]), colors[g], high)
               for g in range(len(names))]
    light = group < 0
    series += [_points("light (final round)", truth[light], shown(estimate[light]), OKABE_ITO["black"], high),
               Series("threshold 3u/8", [high], [np.nan], kind="baseline", color=_DARK_GREY),
               Series("bound u", [high], [np.nan], kind="theory", color=_GREY), truth_line]
    frames.append(FrameData("final estimates", series))
    fig = animated_sweep(frames, x_title="true marginal pⱼ", y_title="noisy mean or estimate (floor: min p/4)",
                         frame_title="step", title=title, presentation=presentation)
    fig.update_layout(hovermode="closest")
    return fig


@validated(sample=Array(ndim=(1,), min_size=1), title=_TITLE, presentation=_FLAG)
def scheffe_figure(sample, curves: dict[str, tuple[Any, Any]], shaded: Sequence[tuple[float, float]], *,
                   shaded_name: str, bins: int = 50, title: str = "", presentation: bool = False) -> go.Figure:
    """A sample's density histogram, density curves, and a shaded set (e.g. a Scheffé set :math:`W_{ij}`).

    Parameters
    ----------
    curves : dict of str to (x, y)
        Legend name -> density curve; colours from :data:`REFERENCE_COLORS`, else :func:`method_color`.
    shaded : list of (low, high)
        Intervals of the set (infinite ends allowed; drawn within the axis range).
    shaded_name : str
        Legend name of the set, with its probabilities if wanted.
    """
    lo, hi = np.quantile(sample, [0.002, 0.998])
    xs = [np.asarray(x, dtype=float) for x, _ in curves.values()]
    lo, hi = min([lo] + [x.min() for x in xs]), max([hi] + [x.max() for x in xs])
    edges = np.linspace(lo, hi, bins + 1)
    density, _ = np.histogram(sample, bins=edges, density=True)
    centres, width = (edges[:-1] + edges[1:]) / 2, edges[1] - edges[0]
    fig = go.Figure(go.Bar(x=centres, y=density, width=width, name=f"data (n = {sample.size:,})",
                           marker_color=_GREY, opacity=0.55))
    top = max([float(density.max())] + [float(np.max(y)) for _, y in curves.values()]) * 1.1
    for low, high in shaded:
        left, right = max(low, lo), min(high, hi)
        if left < right:
            fig.add_vrect(x0=left, x1=right, fillcolor=OKABE_ITO["yellow"], opacity=0.3, line_width=0, layer="below")
    fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=shaded_name,
                             marker=dict(symbol="square", size=14, color=_translucent_yellow())))
    for index, (name, (x, y)) in enumerate(curves.items()):
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines", name=name,
                                 line=dict(color=REFERENCE_COLORS.get(name) or _PAIR_COLORS[index % 2], width=3)))
    fig.update_layout(template=template(presentation), title=dict(text=title), uirevision="dplab", barmode="overlay",
                      height=_height(presentation, animated=False), hovermode="closest",
                      xaxis=dict(title=dict(text="x"), range=[lo, hi]),
                      yaxis=dict(title=dict(text="density"), range=[0, top]))
    return fig


_PAIR_COLORS = (OKABE_ITO["blue"], OKABE_ITO["vermillion"])


def _translucent_yellow() -> str:
    return "rgba(240, 228, 66, 0.5)"


@validated(matrix=Array(ndim=(2,), low=-1, high=1), title=_TITLE, presentation=_FLAG)
def win_matrix_figure(matrix, labels: Sequence[str], *, title: str = "", presentation: bool = False) -> go.Figure:
    """A tournament's k×k results as a heatmap: +1 (row beats column) blue, −1 (row loses) vermillion, 0 white."""
    if matrix.shape != (len(labels), len(labels)):
        raise ValueError(f"matrix must be square with one row per label ({len(labels)}); got shape {matrix.shape}")
    scale = [[0.0, OKABE_ITO["vermillion"]], [0.5, "#FFFFFF"], [1.0, OKABE_ITO["blue"]]]
    fig = go.Figure(go.Heatmap(z=matrix, x=list(labels), y=list(labels), zmin=-1, zmax=1, colorscale=scale,
                               colorbar=dict(title=dict(text="row vs column"), tickvals=[-1, 0, 1],
                                             ticktext=["loses", "tie", "wins"]),
                               hovertemplate="row %{y} vs column %{x}: %{z}<extra></extra>"))
    fig.update_layout(template=template(presentation), title=dict(text=title), uirevision="dplab",
                      height=_height(presentation, animated=False) + 60, hovermode="closest",
                      xaxis=dict(title=dict(text="opponent H_j (mean)"), type="category"),
                      yaxis=dict(title=dict(text="hypothesis H_i (mean)"), type="category", autorange="reversed",
                                 scaleanchor="x"))
    return fig


@validated(positions=Array(ndim=(1,), min_size=1), scores=Array(ndim=(1,), min_size=1),
           probabilities=Array(ndim=(1,), low=0, high=1, min_size=1), title=_TITLE, presentation=_FLAG)
def selection_figure(positions, scores, probabilities, marks: dict[str, float], *, x_title: str, title: str = "",
                     presentation: bool = False) -> go.Figure:
    """Scores (top) and the exponential mechanism's selection probabilities (bottom) per candidate, sharing the x
    axis (the candidates' positions, e.g. hypothesis means), with vertical lines at ``marks`` (name -> x)."""
    check_same_length(("positions", "scores", "probabilities"), (positions, scores, probabilities))
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08)
    width = float(np.min(np.diff(np.sort(positions)))) * 0.8 if positions.size > 1 else 1.0
    fig.add_trace(go.Bar(x=positions, y=scores, width=width, name="score S(H)", marker_color=OKABE_ITO["blue"]),
                  row=1, col=1)
    fig.add_trace(go.Bar(x=positions, y=probabilities, width=width, name="P(select H)",
                         marker_color=OKABE_ITO["orange"]), row=2, col=1)
    for index, (name, value) in enumerate(marks.items()):
        color = REFERENCE_COLORS.get(name) or (OKABE_ITO["black"], OKABE_ITO["reddish purple"])[index % 2]
        for row, top in ((1, float(scores.max()) or 1.0), (2, float(probabilities.max()) or 1.0)):
            fig.add_trace(go.Scatter(x=[value, value], y=[0, top * 1.05], mode="lines", name=name, legendgroup=name,
                                     showlegend=row == 1, line=dict(color=color, width=3,
                                                                    dash="dash" if index == 0 else "solid")),
                          row=row, col=1)
    fig.update_layout(template=template(presentation), title=dict(text=title), uirevision="dplab",
                      height=_height(presentation, animated=False) + 80, hovermode="closest", bargap=0)
    fig.update_yaxes(title_text="score", row=1, col=1)
    fig.update_yaxes(title_text="probability", row=2, col=1)
    fig.update_xaxes(title_text=x_title, row=2, col=1)
    return fig


@validated(xs=Array(ndim=(1,), min_size=1), ys=Array(ndim=(1,), min_size=1), values=Array(ndim=(2,)),
           title=_TITLE, presentation=_FLAG)
def grid_scores_figure(xs, ys, values, marks: dict[str, tuple[float, float]], *, value_title: str,
                       title: str = "", presentation: bool = False) -> go.Figure:
    """Values on a 2-D grid of candidates (``values[i, j]`` at ``(xs[j], ys[i])``) as a heatmap, with marked points
    (name -> (x, y)), e.g. a tournament's scores over a cover with the true and the selected mean."""
    if values.shape != (ys.size, xs.size):
        raise ValueError(f"values must have shape (len(ys), len(xs)) = ({ys.size}, {xs.size}); got {values.shape}")
    fig = go.Figure(go.Heatmap(x=xs, y=ys, z=values, colorscale="Blues", colorbar=dict(title=dict(text=value_title)),
                               hovertemplate="(%{x:.2f}, %{y:.2f}): %{z:.3g}<extra></extra>"))
    symbols = ("x", "circle-open", "diamond-open")
    for index, (name, (x, y)) in enumerate(marks.items()):
        fig.add_trace(go.Scatter(x=[x], y=[y], mode="markers", name=name,
                                 marker=dict(symbol=symbols[index % 3], size=18, line=dict(width=3),
                                             color=(OKABE_ITO["vermillion"], OKABE_ITO["orange"],
                                                    OKABE_ITO["reddish purple"])[index % 3])))
    fig.update_layout(template=template(presentation), title=dict(text=title), uirevision="dplab",
                      height=_height(presentation, animated=False), hovermode="closest",
                      xaxis=dict(title=dict(text="first coordinate")),
                      yaxis=dict(title=dict(text="second coordinate"), scaleanchor="x"),
                      legend=dict(orientation="h", x=0, xanchor="left", y=-0.22, yanchor="top"))
    return fig
