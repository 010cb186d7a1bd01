"""Curves and animated sweeps: :class:`Series`, :class:`FrameData`, :func:`animated_sweep` (frames, slider,
Play/Pause, fixed axes), :func:`line_figure`, and :func:`sweep_frames` from a
:class:`~dpcore.experiments.SweepResult`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from ..core.validation import Array, Choice, InstanceOf, Integer, InvalidParameterError, check_same_length, validated
from ..experiments import SweepResult
from ..lessons.methods import LABELS
from .constraints import COORDINATE, FLAG, HEX_COLOR, NAME, SERIES_KIND, TITLE, VALUES, ItemsOf
from .plotly_dict import figure
from .style import figure_title, font_size, method_color, method_symbol, template_dict, wrapped

AXIS_TITLE_WIDTH = 22  # characters per line of a y-axis title: it must fit the plot's height on a phone
#: Characters of the swept parameter's name (``frame_title``), the slider's prefix ("ε = 1"): longer, the slider's
#: value ran out of a phone's screen; what the parameter means is said by the title or the prose.
FRAME_TITLE_WIDTH = 16

__all__ = ["Series", "FrameData", "MAX_LOG_DECADES", "FRAME_TITLE_WIDTH", "animated_sweep", "figure_height",
           "line_figure", "sweep_frames", "theory_series"]

# --------------------------------------------------------------------------------------- data


def _checked_arrays(label: str, x: Any, y: Any, lower: Any, upper: Any) -> dict[str, np.ndarray]:
    """A series' arrays as float numpy arrays, or ``InvalidParameterError`` naming the series and the field."""
    if (lower is None) != (upper is None):
        raise InvalidParameterError(f"{label}: give both lower and upper (a band) or neither")
    arrays = {"x": COORDINATE.check(f"{label} x", x)}
    for field, value in dict(y=y, lower=lower, upper=upper).items():
        if value is not None:
            arrays[field] = VALUES.check(f"{label} {field}", value)
            if np.any(np.isinf(arrays[field])):
                raise InvalidParameterError(f"{label} {field} must not contain ±inf (use NaN for a gap)")
    check_same_length([f"{label} {field}" for field in arrays], list(arrays.values()))
    if lower is not None and np.any(arrays["lower"] > arrays["upper"]):
        raise InvalidParameterError(f"{label}: the band's lower edge exceeds its upper edge")
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

    Arrays are converted to float ``numpy`` arrays and checked on construction (``InvalidParameterError``
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
        label = f"series {NAME.check('Series name', self.name)!r}"
        SERIES_KIND.check(f"{label} kind", self.kind)
        color = method_color(self.name) if self.color is None else HEX_COLOR.check(f"{label} color", self.color)
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
    title : str
        The figure's title while this frame is shown, when it depends on the frame (e.g. the distribution's name
        when the frames run over moment orders and the last one is the Gaussian); default the figure's title.
    """

    label: str
    series: Sequence[Series]
    title: str = ""

    def __post_init__(self) -> None:
        NAME.check("FrameData label", self.label)
        object.__setattr__(self, "series", ItemsOf(Series).check(f"frame {self.label!r} series", self.series))
        names = [s.name for s in self.series]
        if len(set(names)) < len(names):
            raise InvalidParameterError(f"frame {self.label!r} has duplicate series names {names}")

    def _layout_key(self) -> list[tuple[str, str, bool]]:
        """(name, kind, has band) of each series: what must agree across frames."""
        return [(s.name, s.kind, s.has_band) for s in self.series]


# --------------------------------------------------------------------------------------- traces

_DASH = {"simulation": "solid", "curve": "solid", "theory": "dash", "baseline": "dot", "points": "solid"}
_MODE = {"simulation": "lines+markers", "points": "markers"}
#: A band's fill: this opacity, or :data:`_MANY_BANDS_OPACITY` once :data:`MANY_BANDS` or more share the plot (three
#: user-level bands at 0.2 summed to one brown); its edges are 1 px lines of its colour at :data:`_BAND_EDGE_OPACITY`,
#: so each band's reach shows where bands overlap.
_BAND_OPACITY, _MANY_BANDS_OPACITY, _BAND_EDGE_OPACITY = 0.2, 0.12, 0.5
MANY_BANDS = 3


def _translucent(color: str, opacity: float = _BAND_OPACITY) -> str:
    red, green, blue = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red}, {green}, {blue}, {opacity})"


# Traces are plain dicts: Plotly validates them once, when the whole figure is built (building
# go.Scatter objects first validated every array two more times and tripled the build time).

def _band_traces(series: Series, opacity: float = _BAND_OPACITY) -> list[dict]:
    """The band as two traces: its lower edge and its upper edge (thin lines) filled down to it."""
    assert series.color is not None  # Series.__post_init__ sets the default colour
    edge = dict(type="scatter", x=series.x, mode="lines",
                line=dict(width=1, color=_translucent(series.color, _BAND_EDGE_OPACITY)),
                legendgroup=series.name, showlegend=False, hoverinfo="skip")
    return [dict(name=f"{series.name} (band lower)", y=series.lower, **edge),
            dict(name=f"{series.name} (band upper)", y=series.upper, fill="tonexty",
                 fillcolor=_translucent(series.color, opacity), **edge)]


def _line_trace(series: Series) -> dict:
    mode = _MODE.get(series.kind, "lines")
    marker = dict(color=series.color)
    if "markers" in mode and method_symbol(series.name) != "circle":  # Plotly's own symbol: left unsaid
        marker["symbol"] = method_symbol(series.name)
    return dict(type="scatter", name=series.name, x=series.x, y=series.y, mode=mode,
                legendgroup=series.group or series.name, showlegend=series.group is None,
                line=dict(color=series.color, dash=_DASH[series.kind]), marker=marker,
                hovertemplate="%{y:.3g}")


def _traces(series: Sequence[Series]) -> list[dict]:
    """All bands first (so no band covers a line), then the lines: a fixed layout for a fixed series list. Each
    method's markers take its symbol (:func:`~dpcore.viz.style.method_symbol`)."""
    banded = [s for s in series if s.has_band]
    opacity = _MANY_BANDS_OPACITY if len(banded) >= MANY_BANDS else _BAND_OPACITY
    return [trace for s in banded for trace in _band_traces(s, opacity)] + [_line_trace(s) for s in series]


# --------------------------------------------------------------------------------------- layout


def _check_same_layout(frames: Sequence[FrameData]) -> None:
    first = frames[0]
    labels = [f.label for f in frames]
    if len(set(labels)) < len(labels):
        raise InvalidParameterError(f"frame labels must be unique; got {labels}")
    for frame in frames[1:]:
        if frame._layout_key() != first._layout_key():
            raise InvalidParameterError(f"every frame must have the same series (name, kind, band) in the same order; "
                                        f"frame {frame.label!r} has {frame._layout_key()} but frame {first.label!r} "
                                        f"has {first._layout_key()}")


#: A log axis shows at most this many decades below its largest value; smaller values leave the chart.
MAX_LOG_DECADES = 12
#: A log axis labels at most this many powers of ten (every 2nd or 3rd beyond): a 13-decade axis labelled at every
#: power stacked its labels on top of each other in presentation mode.
MAX_LOG_LABELS = 7


def _fixed_range(frames: Sequence[FrameData], axis: str, log: bool) -> list[float]:
    """An axis range covering every value of every frame (in log10 units for a log axis), padded by 5 %."""
    values = []
    for frame in frames:
        for series in frame.series:
            for array in series._plotted(axis):
                if log and np.any(array <= 0):
                    raise InvalidParameterError(f"log_{axis} needs positive {axis} values; series {series.name!r} in "
                                                f"frame {frame.label!r} has {axis} <= 0")
                values.append(array[np.isfinite(array)])
    finite = np.concatenate(values)
    if finite.size == 0:
        raise InvalidParameterError(f"no finite {axis} values to plot")
    if log:
        finite = np.log10(finite)
    low, high = float(finite.min()), float(finite.max())
    if log:
        low = max(low, high - MAX_LOG_DECADES)  # exact zeros or 1e-300 underflow must not flatten the plot
    pad = 0.05 * (high - low) or (0.5 if log else 0.1 * abs(high) or 1.0)
    return [low - pad, high + pad]


def _axis(title: str, frames: Sequence[FrameData], axis: str, log: bool) -> dict:
    """A fixed-range axis; a log axis spanning two decades or more labels only the powers of ten (every one, or every
    2nd, 3rd, … to keep at most :data:`MAX_LOG_LABELS` labels), a shorter one the 1s, 2s and 5s (in thousands, "20k",
    when they reach 10,000)."""
    low, high = _fixed_range(frames, axis, log)
    spec = dict(title=dict(text=wrapped(title, AXIS_TITLE_WIDTH if axis == "y" else 2 * AXIS_TITLE_WIDTH)),
                range=[low, high], autorange=False, type="log" if log else "linear")
    if log:
        spec["exponentformat"] = "power"
    if log and high - low >= 2:
        step = int(np.ceil((high - low) / MAX_LOG_LABELS))
        spec |= dict(dtick=step, minor=dict(dtick=1 if step > 1 else "D1", showgrid=True, gridcolor="#F2F2F2"))
    elif log:  # under two decades: label the 1s, 2s and 5s in full (20, 50, 100), not every digit
        def nice(mantissas):
            return [m * 10.0 ** e for e in range(int(np.floor(low)), int(np.ceil(high)) + 1) for m in mantissas
                    if low <= np.log10(m) + e <= high]
        ticks = nice((1, 2, 5)) if len(nice((1, 2, 5))) >= 3 else nice((1, 1.5, 2, 3, 5, 7))
        thousands = bool(ticks) and ticks[-1] >= 10_000  # "10000" and "20000" overlapped on a phone: "10k", "20k"
        spec |= dict(tickmode="array", tickvals=ticks,
                     ticktext=[f"{v / 1000:g}k" if thousands and v >= 1000 else f"{v:g}" for v in ticks])
    return spec


#: Legend entries a figure holds at its base height; each further entry adds LEGEND_ENTRY_PX (not when presenting).
FEW_LEGEND_ENTRIES = 4
LEGEND_ENTRY_PX = 24
#: A legend name longer than this wraps onto a second line on a phone (assets/fit_formulas.js): it counts as two
#: entries in the figure's height.
LEGEND_NAME_CHARS = 30


def _legend_lines(series: Sequence[Series]) -> int:
    """The lines the legend of ``series`` takes on a phone: one per entry (a series grouped with another has none),
    two for a name longer than :data:`LEGEND_NAME_CHARS`."""
    return sum(1 + (len(s.name) > LEGEND_NAME_CHARS) for s in series if s.group is None)


@validated(presentation=FLAG, animated=FLAG, legend_entries=Integer(low=0))
def figure_height(presentation: bool, animated: bool, legend_entries: int = 0) -> int:
    """Figure height in pixels: set on the figure itself (Streamlit ignores a template's height). An animated
    figure adds room for its buttons and slider; in presentation mode it still fits a 720 px projector with its
    Play button (680 px). A long legend adds :data:`LEGEND_ENTRY_PX` per entry beyond :data:`FEW_LEGEND_ENTRIES`: on
    a phone the legend under the figure wraps to about one entry per row and, at a fixed height, squeezed a
    ten-entry figure's plot to 39 px (on a wide screen the room goes to the plot; a projector's legend fits in two
    rows, so presentation mode keeps its height). The builders count a long name as two entries (it wraps on a
    phone: :data:`LEGEND_NAME_CHARS`)."""
    extra = 0 if presentation else LEGEND_ENTRY_PX * max(0, legend_entries - FEW_LEGEND_ENTRIES)
    return (530 if presentation else 460) + (150 if animated and presentation else 140 if animated else 0) + extra


def _figure(frames: Sequence[FrameData], x_title: str, y_title: str, title: str, log_x: bool, log_y: bool,
            presentation: bool, frame_title: str | None = None, shown: int = 0, extra: dict | None = None
            ) -> go.Figure | dict:
    """Both builders' figure (:func:`~dpcore.viz.plotly_dict.figure`: validated by Plotly once, or its dictionary):
    frame ``shown``'s traces and the styled layout, plus (when ``frame_title`` is given) every frame with the slider
    (positioned on ``shown``) and Play/Pause buttons."""
    titled = any(f.title for f in frames)
    layout = dict(template=template_dict(presentation), title=figure_title(frames[shown].title or title),
                  uirevision="dplab",
                  height=figure_height(presentation, animated=frame_title is not None,
                                 legend_entries=_legend_lines(frames[shown].series)),
                  xaxis=_axis(x_title, frames, "x", log_x), yaxis=_axis(y_title, frames, "y", log_y)) | (extra or {})
    if frame_title is None:
        return figure(_traces(frames[shown].series), layout)
    controls = _controls(frames, frame_title, presentation, shown, layout["xaxis"]["title"]["text"].count("<br>") + 1)
    return figure(_traces(frames[shown].series), layout | controls,
                  [dict(name=f.label, data=_traces(f.series),
                        **(dict(layout=dict(title=figure_title(f.title or title))) if titled else {})) for f in frames])


# --------------------------------------------------------------------------------------- animation

_PLAY_FRAME_MS = 800
_X_TITLE_LINE = 1.45  # a line of the x-axis title (its font is 1.1 × the figure's), in units of the figure's font


def _animate(duration_ms: int, redraw: bool = True, **extra: Any) -> dict:
    """The animation options of a slider step or a button."""
    return dict(mode="immediate", frame=dict(duration=duration_ms, redraw=redraw), transition=dict(duration=0),
                **extra)


def _controls(frames: Sequence[FrameData], frame_title: str, presentation: bool, shown: int, x_lines: int = 1
              ) -> dict:
    """Play/Pause buttons on a row below the x-axis title (of ``x_lines`` lines), then the slider (one step per frame,
    on ``shown``) over the whole width: both usable on a phone. Where the x title wraps again in the browser, the
    browser moves both below it (assets/fit_formulas.js); the legend lies below the slider (its room reserved by
    Plotly under the room the slider takes).

    Play runs from the frame on screen: the frames from ``shown`` on, and once the slider has moved, from its frame
    (Plotly's ``fromcurrent``; a figure opened on a later frame than the first would otherwise restart at the
    first). A figure opened on its last frame plays them all from the first."""
    size = font_size(presentation)
    below_axis = round((4.5 + _X_TITLE_LINE * (x_lines - 1)) * size)  # clears the tick labels and the x-axis title
    button_row = round(2.6 * size)
    labels = [f.label for f in frames]
    steps = [dict(method="animate", label=label, args=[[label], _animate(0)]) for label in labels]
    slider = dict(active=shown, steps=steps, x=0, len=1, y=0, yanchor="top",
                  pad=dict(t=below_axis + button_row, b=10, r=size),  # r: room for the last step's label
                  currentvalue=dict(prefix=f"{frame_title} = ", xanchor="left", font=dict(size=size)),
                  transition=dict(duration=0))
    replay = shown in (0, len(labels) - 1)  # from the first frame (or the last, which has nothing after it)
    play = dict(label="Play", method="animate", args=[None if replay else labels[shown:],
                                                       _animate(_PLAY_FRAME_MS, fromcurrent=True)])
    pause = dict(label="Pause", method="animate", args=[[None], _animate(0, redraw=False)])
    buttons = dict(type="buttons", direction="left", buttons=[play, pause], showactive=False, x=0,
                   xanchor="left", y=0, yanchor="top", pad=dict(t=below_axis, r=10))
    return dict(sliders=[slider], updatemenus=[buttons])


@validated(frames=ItemsOf(FrameData), x_title=TITLE, y_title=TITLE, frame_title=TITLE, title=TITLE,
           log_x=FLAG, log_y=FLAG, presentation=FLAG, layout=InstanceOf(dict, "a dict of layout properties"))
def animated_sweep(frames: Sequence[FrameData], *, x_title: str, y_title: str, frame_title: str, title: str = "",
                   log_x: bool = True, log_y: bool = True, presentation: bool = False,
                   start: str | None = None, layout: dict | None = None) -> go.Figure:
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
        The swept parameter, at most :data:`FRAME_TITLE_WIDTH` characters (e.g. ``"ε"``, ``"moment order k"``); the
        slider shows ``frame_title + " = " + label``.
    title : str
        Figure title (may be empty).
    log_x, log_y : bool
        Logarithmic axes (the default: error rates are power laws). Plotted values must be positive.
    presentation : bool
        Use the presentation template (larger fonts and lines).
    start : str, optional
        Label of the frame to open on (e.g. the ε chosen in the sidebar); default the first frame.
    layout : dict, optional
        Further layout properties, spelled out as nested dicts (e.g. ``hovermode``, or ``shapes``: a vertical line
        is ``dict(type="line", x0=k, x1=k, xref="x", y0=0, y1=1, yref="y domain", line=…)``).

    Returns
    -------
    plotly.graph_objects.Figure
        (Inside :func:`~dpcore.viz.plotly_dict.dictionaries`, its dictionary.) ``data`` equals the ``start`` frame
        and the slider sits on it; ``frames`` are named by the labels; both axis ranges are fixed over all frames
        (padded, in log10 units on log axes) so only the curves move; ``layout.uirevision`` is constant so a rerun
        keeps the user's zoom.

    Raises
    ------
    InvalidParameterError
        No frames, duplicate labels, frames whose series differ (names, kinds, bands or order),
        non-positive values on a log axis, or a ``frame_title`` longer than :data:`FRAME_TITLE_WIDTH`.
    """
    _check_same_layout(frames)
    if len(frame_title) > FRAME_TITLE_WIDTH:
        raise InvalidParameterError(f"frame_title is the slider's prefix and must be at most {FRAME_TITLE_WIDTH} "
                                    f"characters (say the rest in the title); got {frame_title!r}")
    labels = [f.label for f in frames]
    if start is not None and start not in labels:
        raise InvalidParameterError(f"start must be one of the frame labels {labels}; got {start!r}")
    return _figure(frames, x_title, y_title, title, log_x, log_y, presentation, frame_title,
                   labels.index(start) if start is not None else 0, layout)


@validated(series=ItemsOf(Series), x_title=TITLE, y_title=TITLE, title=TITLE, log_x=FLAG, log_y=FLAG,
           presentation=FLAG)
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
        (Inside :func:`~dpcore.viz.plotly_dict.dictionaries`, its dictionary.)

    Raises
    ------
    InvalidParameterError
        Duplicate series names or non-positive values on a log axis.
    """
    return _figure([FrameData("line_figure", series)], x_title, y_title, title, log_x, log_y, presentation)


# --------------------------------------------------------------------------------------- sweeps

_STATISTIC = Choice(("median", "mean", "rmse"))


@validated(result=InstanceOf(SweepResult, "a dpcore.experiments.SweepResult"), x=NAME, frame=NAME,
           statistic=_STATISTIC)
def sweep_frames(result: SweepResult, *, x: str, frame: str, fixed: dict | None = None, statistic: str = "median",
                 theory: Callable[[Any], list[Series]] | None = None,
                 label: Callable[[Any], str] = "{:g}".format,
                 title: Callable[[Any], str] | None = None) -> list[FrameData]:
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
    title : callable, optional
        The figure's title at a frame value, when it depends on the frame (:attr:`FrameData.title`).
    """
    fixed = dict(fixed or {})
    frames = []
    for value in result.grid[frame].tolist():
        series = []
        for method in result.methods:
            curve = result.curve(method, x, **fixed, **{frame: value})
            series.append(Series(_label(method), curve["x"], curve[statistic], curve["lower"], curve["upper"],
                                 color=method_color(method)))
        frames.append(FrameData(label(value), series + (theory(value) if theory else []),
                                title(value) if title else ""))
    return frames


@validated(method=NAME, x=Array(ndim=(1,)), y=Array(ndim=(1,), finite=False))
def theory_series(method: str, x, y) -> Series:
    """A method's theory companion (``method`` an id, or a label): a dashed curve named ``"<label> (theory)"`` in the
    method's colour, sharing the method's legend entry (clicking the method hides both)."""
    name = _label(method)
    return Series(f"{name} (theory)", x, y, kind="theory", color=method_color(method), group=name)


def _label(method: str) -> str:
    """The label of a method id (a name that is not an id is already a label)."""
    return LABELS.get(method, method)


