"""A figure in words, computed from its data: for a screen reader, and for the back row of a lecture hall.

:func:`figure_summary` tells a figure in one short paragraph, written for the kind of chart it is (read from each
Plotly trace: its type, its mode, how it is used): lines (with their 10–90 % bands), histograms, point clouds, heat
maps, bars, and marker lines (a two-point vertical or horizontal segment such as "best t"). It says what is plotted
against what and the one thing to notice (where a curve is lowest, where a histogram's mass lies, where a map is
highest, which bar is tallest, where a marker stands), with numbers rounded as a person says them
(3 significant digits, no float noise). Each kind is told from where it matters: a density (or any bump whose tails
vanish) by its peak and the middle 80 % of its area, never by the 10⁻⁹⁴ at its axis's ends; lines that all share
both ends (trade-off curves from 1 at α = 0 to 0 at α = 1, ROC curves) by their ends once and each by its values at
5 % and 20 % of the way along; bars of a score or a probability on a numeric axis by their range, the tallest and where
they are at least half as tall (a histogram, whose y axis says count, density or share, also by its middle 80 %).
:func:`figure_name` is the chart's accessible name (its title, on one line); :func:`figure_table` its data as a table
of words and rounded numbers.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import plotly.graph_objects as go

from ..core.validation import validated
from .constraints import FIGURE_OR_DICT
from .plotly_dict import decode_array

__all__ = ["figure_summary", "figure_name", "figure_table"]

MAX_CURVES = 5  #: traces described; the paragraph says how many more there are
MAX_BARS = 6  #: bars of one trace listed by value
HISTOGRAM_BARS = 8  #: a bar trace with this many numeric positions or more is a histogram
CLOUD_POINTS = 5  #: a markers trace with this many points or more is a point cloud
TAILS = 0.05  #: a line whose ends are both below this share of its peak, inside its x range, is a bump (a density)
ALONG = (0.05, 0.2)  #: where lines sharing both ends are told, as shares of the way along their x range
_SAMPLE_AXIS = re.compile(r"\b(count|counts|density|share|frequency|proportion)\b", re.IGNORECASE)
_DENSITY_AXIS = re.compile(r"\b(density|likelihood)\b", re.IGNORECASE)
_SUPERSCRIPT = str.maketrans("-−0123456789.()+=εknd", "⁻⁻⁰¹²³⁴⁵⁶⁷⁸⁹·⁽⁾⁺⁼ᵋᵏⁿᵈ")
_BAND = re.compile(r" \(band (lower|upper)\)$")


def _plain(text: Any) -> str:
    """Plotly's text without its HTML (line breaks, sub/superscripts), on one line: a superscript in Unicode's
    superscript characters where each of its characters has one, else said as "to the power".

    >>> _plain("error ∝ n<sup>−0.5</sup><br>(log <i>scale</i>)"), _plain("e<sup>−ε</sup> × on X")
    ('error ∝ n⁻⁰·⁵ (log scale)', 'e⁻ᵋ × on X')
    >>> _plain("(εn)<sup>−(k−1)/k</sup>")
    '(εn) to the power −(k−1)/k'
    """
    def raised(match: re.Match) -> str:
        power = match.group(1)
        said = power.translate(_SUPERSCRIPT)
        return f" to the power {power}" if set(said) & set(power) else said
    text = re.sub(r"<sup>(.*?)</sup>", raised, re.sub(r"<br\s*/?>", " ", str(text or "")))
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text)).strip()


def _number(value: float) -> str:
    """A number as a person says it: 3 significant digits, thousands separators, a true minus sign, never "-0";
    whole numbers of up to 4 significant digits exact (a grid's 1,024 stays 1,024); below 0.0001 or from a billion
    on, in powers of ten.

    >>> [_number(v) for v in (-0.0, 2689.2, 1024, 0.000827, 4.41e-07, -2.5250000000000004, 1e-12, 12345)]
    ['0', '2,690', '1,024', '0.000827', '4.41 × 10⁻⁷', '−2.53', '10⁻¹²', '12,300']
    """
    value = float(value)
    if math.isnan(value):
        return "undefined"
    if math.isinf(value):
        return "infinity" if value > 0 else "minus infinity"
    if value == 0:
        return "0"
    if value.is_integer() and abs(value) < 1e9 and len(str(int(abs(value))).rstrip("0")) <= 4:
        return f"{int(value):,}".replace("-", "−")
    rounded = float(f"{value:.3g}")
    if abs(rounded) >= 1e9 or abs(rounded) < 1e-4:
        mantissa, exponent = f"{rounded:.2e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".")
        power = f"10{str(int(exponent)).translate(_SUPERSCRIPT)}"
        text = {"1": power, "-1": f"-{power}"}.get(mantissa, f"{mantissa} × {power}")
    elif abs(rounded) >= 1000:
        text = f"{rounded:,.0f}"
    else:
        text = f"{rounded:.3g}"
    return text.replace("-", "−")


def _axis_key(trace: dict, axis: str) -> str:
    """The layout key of a trace's ``axis`` ("x" or "y"): ``xaxis``, ``xaxis2``, …"""
    anchor = str(trace.get(f"{axis}axis") or axis)
    return f"{axis}axis{anchor[1:]}"


def _title(owner: dict | None) -> str:
    """The title text of a layout or an axis (Plotly's dictionary), "" without one."""
    title = (owner or {}).get("title") or {}
    return _plain(title.get("text") or "" if isinstance(title, dict) else title)


def _axis_title(layout: dict, trace: dict, axis: str) -> str:
    """The title of a trace's axis, else of any axis of that direction that has one."""
    own = _title(layout.get(_axis_key(trace, axis)))
    if own:
        return own
    return next((_title(value) for key, value in sorted(layout.items())
                 if key.startswith(f"{axis}axis") and _title(value)), "")


def _named(title: str) -> str:
    """An axis title as words: a lone letter becomes "the value x" (never "x is x")."""
    return f"the value {title}" if len(title) <= 2 else title


def _symbol(title: str) -> str:
    """The symbol an axis title ends with ("clipping radius t" → "t", "ε" → "ε"), "" when it ends with a word."""
    words = re.sub(r"\([^)]*\)", "", title).split()
    return words[-1] if words and len(words[-1]) <= 2 and words[-1].isalpha() else ""


def _at(symbol: str, value: float) -> str:
    return f"{symbol} = {_number(value)}" if symbol else _number(value)


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


def _xy(trace: dict) -> tuple[np.ndarray, np.ndarray]:
    """A trace's finite numeric points, in their order."""
    x, y = decode_array(trace.get("x")).ravel(), decode_array(trace.get("y")).ravel()
    if x.dtype.kind not in "fiu" or y.dtype.kind not in "fiu" or x.size != y.size:
        return np.empty(0), np.empty(0)
    keep = np.isfinite(x) & np.isfinite(y)
    return x[keep].astype(float), y[keep].astype(float)


def _kind(trace: dict, layout: dict | None = None) -> str:
    """What a trace is: "map", "histogram", "levels" (bars of a score or probability along a numeric axis), "bars",
    "band", "marker", "line", "cloud", "points" or "" (nothing to say: no data, e.g. a legend entry for a shaded
    region). Many bars along a numeric axis are a histogram when their y axis (in ``layout``) counts a sample (count,
    density, share), or has no title; otherwise they are the values of something at each x."""
    kind = trace.get("type", "scatter")
    if kind == "heatmap":
        return "map"
    if kind == "bar":
        x = decode_array(trace.get("x")).ravel()
        if x.dtype.kind not in "fiu" or x.size < HISTOGRAM_BARS:
            return "bars"
        y_title = _axis_title(layout or {}, trace, "y")
        return "histogram" if not y_title or _SAMPLE_AXIS.search(y_title) else "levels"
    if kind != "scatter":
        return ""
    name = str(trace.get("name") or "")
    if _BAND.search(name) or (trace.get("fill") == "tonexty" and trace.get("showlegend") is False):
        return "band"
    x, y = _xy(trace)
    if not x.size:
        return ""
    mode = str(trace.get("mode") or "lines")
    if "lines" in mode and x.size >= 2 and (np.ptp(x) == 0 or np.ptp(y) == 0):
        return "marker"
    if "lines" in mode:
        return "line"
    return "cloud" if x.size >= CLOUD_POINTS else "points"


def _sorted_xy(trace: dict) -> tuple[np.ndarray, np.ndarray]:
    x, y = _xy(trace)
    order = np.argsort(x, kind="stable")
    return x[order], y[order]


def _is_density(trace: dict, y_title: str) -> bool:
    """Whether a line is a density: never below 0, and its axis says density or likelihood, or it is a bump (its
    peak inside its x range, both ends below :data:`TAILS` of it)."""
    raw_x, raw_y = _xy(trace)
    if raw_x.size > 3 and np.isclose(raw_x[0], raw_x[-1]) and np.isclose(raw_y[0], raw_y[-1]):
        return False  # a closed curve
    x, y = _sorted_xy(trace)
    if x.size < 3 or np.ptp(x) == 0 or (y < 0).any() or not y.max() > 0:
        return False
    if _DENSITY_AXIS.search(y_title):
        return True
    peak = int(np.argmax(y))
    return 0 < peak < y.size - 1 and max(y[0], y[-1]) <= TAILS * y[peak]


def _density(trace: dict, symbol: str) -> str:
    """A density: where it peaks and how high, and where the middle 80 % of its area lies (its tails, however small,
    are not the message)."""
    x, y = _sorted_xy(trace)
    peak = int(np.argmax(y))
    area = np.concatenate([[0.0], np.cumsum(np.diff(x) * (y[1:] + y[:-1]) / 2)])
    said = f"{_plain(trace.get('name'))} peaks at {_number(y[peak])} at {_at(symbol, x[peak])}"
    if not area[-1] > 0:
        return said
    low, high = np.interp((0.1, 0.9), area / area[-1], x)
    return f"{said}, the middle 80 % of its area between {_at(symbol, low)} and {_number(high)}"


def _told_lines(traces: list[dict], layout: dict) -> list[dict]:
    """The traces the paragraph tells as lines (named, each name once)."""
    told, names = [], set()
    for trace in traces:
        name = _plain(trace.get("name"))
        if _kind(trace, layout) == "line" and name and trace.get("showlegend") is not False and name not in names:
            told.append(trace)
            names.add(name)
    return told


def _shared_ends(traces: list[dict], layout: dict, y_title: str) -> tuple[float, float, float, float] | None:
    """The two ends (x and y at the left, then at the right) that every line of the chart shares, as said, when
    there are two lines or more and none is a density or a closed curve; else None."""
    lines = _told_lines(traces, layout)
    ends = []
    for trace in lines:
        x, y = _sorted_xy(trace)
        if x.size < 3 or _is_density(trace, y_title) or np.ptp(x) == 0:
            return None
        ends.append((float(x[0]), float(y[0]), float(x[-1]), float(y[-1])))
    if len(ends) < 2 or len({tuple(map(_number, end)) for end in ends}) != 1:
        return None
    return ends[0]


def _along(x_span: tuple[float, float], log_x: bool) -> list[float]:
    """The x values :data:`ALONG` the way from one end of ``x_span`` to the other (evenly on a log axis)."""
    low, high = x_span
    if log_x and low > 0:
        return [low * (high / low) ** share for share in ALONG]
    return [low + share * (high - low) for share in ALONG]


def _values_along(trace: dict, x_symbol: str, y_symbol: str, xs: list[float]) -> str:
    """A line told by its values at ``xs`` (its ends are said once for all the lines that share them)."""
    x, y = _sorted_xy(trace)
    values = [f"{_number(float(np.interp(at, x, y)))} at {_at(x_symbol, at)}" for at in xs]
    return f"{_plain(trace.get('name'))}: {f'{y_symbol} = ' if y_symbol else ''}{' and '.join(values)}"


def _curve(trace: dict, symbol: str) -> str:
    """A line: its values at the ends of its x range, rising or falling, and its lowest or highest point when that
    lies inside the range (the bottom of a U-shaped error curve is often the message)."""
    x, y = _xy(trace)
    name = _plain(trace.get("name"))
    if x.size > 3 and np.isclose(x[0], x[-1]) and np.isclose(y[0], y[-1]):  # a closed curve: where it lies
        return (f"{name} — a closed curve around ({_number((x.min() + x.max()) / 2)}, "
                f"{_number((y.min() + y.max()) / 2)}), across from {_number(x.min())} to {_number(x.max())}")
    order = np.argsort(x, kind="stable")
    x, y = x[order], y[order]
    at = lambda i: f"{_number(float(y[i]))} at {_at(symbol, float(x[i]))}"  # noqa: E731
    spread = np.ptp(y)
    for inner, word, back in ((int(np.argmin(y)), "lowest", "rises"), (int(np.argmax(y)), "highest", "falls")):
        if 0 < inner < y.size - 1 and min(abs(y[inner] - y[0]), abs(y[inner] - y[-1])) > 0.05 * spread:
            move = "falls" if word == "lowest" else "rises"
            return f"{name} {move} from {at(0)} to its {word}, {at(inner)}, then {back} to {at(-1)}"
    move = "rises" if y[-1] > y[0] else "falls" if y[-1] < y[0] else "stays level"
    return f"{name} {move} from {at(0)} to {at(-1)}"


def _marker(trace: dict, x_symbol: str, y_symbol: str, x_span: tuple[float, float]) -> str:
    """A marker line: where it stands (the value, unless its name already says it), and its extent when it crosses
    only part of the chart (an interval)."""
    x, y = _xy(trace)
    name = _plain(trace.get("name"))
    vertical = np.ptp(x) == 0
    value, symbol, along = (x[0], x_symbol, y) if vertical else (y[0], y_symbol, x)
    bare = name.replace("= +", "= ")  # "selected μ = +0.5" says 0.5
    said = f"= {_number(value)}" in bare.replace("-", "−") or f"= {_number(value).replace('−', '-')}" in bare
    where = "" if said else f" at {_at(symbol, value)}"
    part = ""
    if not vertical and x_span[1] > x_span[0] and np.ptp(along) < 0.9 * (x_span[1] - x_span[0]):
        part = f", from {_number(along.min())} to {_number(along.max())}"
    return f"a {'vertical' if vertical else 'horizontal'} line marks {name}{where}{part}"


def _histogram(trace: dict, x_symbol: str) -> str:
    """A histogram: where its bars are, its tallest bar, and where the middle 80 % of its mass lies."""
    x, y = _xy(trace)
    name = _plain(trace.get("name"))
    order = np.argsort(x)
    x, y = x[order], y[order]
    filled = y > 0
    if not filled.any():
        return f"{name} — no bars above 0"
    total = y.sum()
    share = np.cumsum(y) / total
    low, high = x[int(np.searchsorted(share, 0.1))], x[min(int(np.searchsorted(share, 0.9)), x.size - 1)]
    tallest = int(np.argmax(y))
    return (f"{name} — bars from {_at(x_symbol, x[filled].min())} to {_number(x[filled].max())}, the tallest "
            f"({_number(y[tallest])}) at {_number(x[tallest])}, the middle 80 % between {_number(low)} and "
            f"{_number(high)}")


def _levels(trace: dict, x_symbol: str) -> str:
    """Bars of a score or a probability along a numeric axis: where they stand, the tallest, and where they are at
    least half as tall (no quantiles: they are no sample)."""
    x, y = _sorted_xy(trace)
    name = _plain(trace.get("name"))
    shown = y != 0
    if not shown.any():
        return f"{name} — every bar at 0"
    tallest = int(np.argmax(y))
    half = x[y >= y[tallest] / 2] if y[tallest] > 0 else x[tallest:tallest + 1]
    return (f"{name} — bars from {_at(x_symbol, x[shown].min())} to {_number(x[shown].max())}, the tallest "
            f"({_number(y[tallest])}) at {_number(x[tallest])}, at least half as tall from {_number(half.min())} to "
            f"{_number(half.max())}")


def _bars(trace: dict) -> str:
    """Bars by category: their values (the first :data:`MAX_BARS`) and the tallest."""
    x, y = decode_array(trace.get("x")).ravel(), decode_array(trace.get("y")).ravel().astype(float)
    if not y.size:
        return ""
    labels = [_plain(label) for label in x.tolist()]
    shown = ", ".join(f"{label} {_number(value)}" for label, value in zip(labels[:MAX_BARS], y[:MAX_BARS]))
    tallest = labels[int(np.nanargmax(y))] if np.isfinite(y).any() else ""
    more = ", …" if y.size > MAX_BARS else ""
    return f"{_plain(trace.get('name'))} — {shown}{more} (tallest: {tallest})"


def _cloud(trace: dict, x_title: str, y_title: str) -> str:
    """A point cloud: how many points, where its centre is and how far it spreads."""
    x, y = _xy(trace)
    name = _plain(trace.get("name"))
    return (f"{name} — a cloud of {x.size:,} points centred near ({_number(np.median(x))}, {_number(np.median(y))}), "
            f"{x_title or 'across'} from {_number(x.min())} to {_number(x.max())}, {y_title or 'up'} from "
            f"{_number(y.min())} to {_number(y.max())}")


def _points(trace: dict) -> str:
    x, y = _xy(trace)
    where = ", ".join(f"({_number(a)}, {_number(b)})" for a, b in zip(x, y))
    return f"{_plain(trace.get('name'))} at {where}"


def _map(trace: dict, x_title: str, y_title: str) -> str:
    """A heat map: what its colour means, its range, and where it is highest (or, for a map of labelled values
    such as wins, ties and losses, how many cells say each)."""
    z = np.asarray(decode_array(trace.get("z")), dtype=float)
    if z.ndim != 2 or not np.isfinite(z).any():
        return ""
    colorbar = trace.get("colorbar") or {}
    meaning = _title(colorbar) or _plain(trace.get("name")) or "value"
    labels = dict(zip(colorbar.get("tickvals") or [], colorbar.get("ticktext") or []))
    values = z[np.isfinite(z)]
    head = f"{meaning} by colour"
    if labels and set(np.unique(values)) <= set(labels):
        counts = ", ".join(f"{int((values == value).sum()):,} {labels[value]}" for value in sorted(labels, reverse=True)
                           if (values == value).any())
        return f"{head}, cell by cell: {counts}"
    xs, ys = decode_array(trace.get("x")).ravel(), decode_array(trace.get("y")).ravel()
    row, column = np.unravel_index(int(np.nanargmax(z)), z.shape)
    where = ""
    if xs.size == z.shape[1] and ys.size == z.shape[0]:
        x_at, y_at = (_number(v) if isinstance(v, (int, float)) else _plain(v) for v in (xs[column].item(),
                                                                                           ys[row].item()))
        where = f" at {x_title} {x_at}, {y_title} {y_at}"
    ties = int((values == values.max()).sum())
    tied = f" (and {ties - 1:,} more cells as high)" if ties > 1 else ""
    return (f"{head}, from {_number(values.min())} to {_number(values.max())}; highest, {_number(values.max())},"
            f"{where}{tied}")


def _band_note(bands: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]], log_y: bool, symbol: str) -> str:
    """The widest 10–90 % band (relative to its line on a log axis): where the runs vary most."""
    widest, best = None, -np.inf
    for name, (x, lower, upper) in bands.items():
        keep = np.isfinite(lower) & np.isfinite(upper) & np.isfinite(x)
        if log_y:
            keep &= (lower > 0) & (upper > 0)
        if not keep.any():
            continue
        width = np.log(upper[keep] / lower[keep]) if log_y else upper[keep] - lower[keep]
        i = int(np.argmax(width))
        if width[i] > best:
            best, widest = width[i], (name, x[keep][i], lower[keep][i], upper[keep][i])
    if widest is None:
        return ""
    name, x, lower, upper = widest
    return (f" Shaded bands hold the middle 80 % of the runs (10 % to 90 %); the widest is {name}'s at "
            f"{_at(symbol, x)}, from {_number(lower)} to {_number(upper)}.")


def _end_note(lines: list[dict], symbol: str) -> str:
    """Which line is lowest and which highest at the right end, when several lines share it."""
    ends = []
    for trace in lines:
        x, y = _xy(trace)
        if x.size:
            i = int(np.argmax(x))
            ends.append((x[i], y[i], _plain(trace.get("name"))))
    if len(ends) < 2 or len({end[0] for end in ends}) != 1 or len({end[1] for end in ends}) == 1:
        return ""
    low, high = min(ends, key=lambda end: end[1]), max(ends, key=lambda end: end[1])
    return (f" At {_at(symbol, ends[0][0])} the lowest is {low[2]} ({_number(low[1])}) and the highest "
            f"{high[2]} ({_number(high[1])}).")


_KIND_WORDS = {"histogram": "a histogram", "map": "a heat map", "bars": "bars", "levels": "bars",
               "cloud": "point clouds", "line": "lines", "points": "points", "marker": "marker lines"}


def _shaded(layout: dict, traces: list[dict]) -> str:
    """A shaded region (a layout rectangle across the chart's height), named by the legend entry that stands for
    it, if any."""
    rects = [shape for shape in layout.get("shapes") or [] if shape.get("type") == "rect"
             and str(shape.get("yref", "")).endswith("domain")]
    if not rects:
        return ""
    legend = next((_plain(trace.get("name")) for trace in traces if trace.get("name") and not _kind(trace, layout)
                   and trace.get("type", "scatter") == "scatter"), "")
    spans = " and ".join(f"{_number(rect['x0'])} to {_number(rect['x1'])}" for rect in rects)
    return f" The shaded region{' (' + legend + ')' if legend else ''} runs from {spans}."


@validated(fig=FIGURE_OR_DICT)
def figure_summary(fig: go.Figure | dict) -> str:
    """The figure in one short paragraph, from the data it opens on, written for the kind of chart it is.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure or dict
        A figure of :mod:`dpcore.viz` (static, or animated with a frame slider), or Plotly's dictionary of one
        (``Figure.to_dict()``, :func:`dpcore.viz.plotly_dict.plotly_dict`).

    Returns
    -------
    str
        "<title> (<frame>). <Kinds>: <y axis> against <x axis>. <trace>; <trace>; …." then, where they apply, the
        widest 10–90 % band, which line ends lowest and highest, and the shaded region.

    Examples
    --------
    >>> from dpcore.viz import Series, line_figure
    >>> fig = line_figure([Series("Laplace", [10, 1000], [0.5, 0.005])], x_title="sample size n", y_title="error",
    ...                   title="Error vs n")
    >>> figure_summary(fig)
    'Error vs n. Lines of error against sample size n: Laplace falls from 0.5 at n = 10 to 0.005 at n = 1,000.'
    """
    fig = fig.to_dict() if isinstance(fig, go.Figure) else fig
    traces, frame = _opening(fig)
    layout = fig["layout"]
    first = next((trace for trace in traces if _kind(trace, layout) not in ("", "band")), traces[0] if traces else {})
    x_title, y_title = _axis_title(layout, first, "x"), _axis_title(layout, first, "y")
    x_symbol, y_symbol = _symbol(x_title), _symbol(y_title)
    spans = [_xy(trace)[0] for trace in traces if _kind(trace, layout) in ("line", "cloud", "histogram", "levels")]
    x_values = np.concatenate(spans) if spans else np.empty(0)
    x_span = (float(x_values.min()), float(x_values.max())) if x_values.size else (0.0, 0.0)
    parts, kinds, seen, lines = [], [], set(), []
    bands: dict[str, list] = {}
    shared = _shared_ends(traces, layout, y_title)  # lines that all run between the same two ends: said once
    log_x = (layout.get(_axis_key(first, "x")) or {}).get("type") == "log"
    along = _along((shared[0], shared[2]), log_x) if shared else []
    for trace in traces:
        kind, name = _kind(trace, layout), _plain(trace.get("name"))
        if kind == "band":
            x, y = _xy(trace)
            entry = bands.setdefault(_BAND.sub("", name), [x, None, None])
            entry[1 if name.endswith("(band lower)") else 2] = y
            continue
        if not kind or (kind != "map" and (name in seen or trace.get("showlegend") is False and name in seen)):
            continue
        if kind in ("line", "cloud", "points", "marker") and (not name or trace.get("showlegend") is False
                                                               and kind == "line"):
            continue
        seen.add(name)
        if kind not in kinds:
            kinds.append(kind)
        if kind == "line":
            lines.append(trace)
        parts.append(_map(trace, _named(x_title), _named(y_title)) if kind == "map"
                     else _histogram(trace, x_symbol) if kind == "histogram"
                     else _levels(trace, x_symbol) if kind == "levels"
                     else _bars(trace) if kind == "bars"
                     else _cloud(trace, x_title, y_title) if kind == "cloud"
                     else _points(trace) if kind == "points"
                     else _marker(trace, x_symbol, y_symbol, x_span) if kind == "marker"
                     else _values_along(trace, x_symbol, y_symbol, along) if shared
                     else _density(trace, x_symbol) if _is_density(trace, y_title)
                     else _curve(trace, x_symbol))
    parts = [part for part in parts if part]
    described = parts[:MAX_CURVES] + ([f"and {len(parts) - MAX_CURVES} more"] if len(parts) > MAX_CURVES else [])
    title = _plain(_title(layout)) or "The figure"
    chart_kinds = [kind for kind in kinds if kind != "marker"] or kinds
    words = " with ".join(dict.fromkeys(_KIND_WORDS[kind] for kind in chart_kinds[:2])) or "a chart"
    if chart_kinds[:1] == ["map"]:
        axes = f" over {_named(x_title) or 'across'} (across) and {_named(y_title) or 'up'} (up)"
    else:
        axes = f" of {y_title or 'values'} against {_named(x_title)}" if x_title else ""
    if shared:
        axes += (f", each from {_number(shared[1])} at {_at(x_symbol, shared[0])} to {_number(shared[3])} at "
                 f"{_at(x_symbol, shared[2])}")
    banded = {name: tuple(value) for name, value in bands.items() if value[1] is not None and value[2] is not None}
    log_y = (layout.get(_axis_key(first, "y")) or {}).get("type") == "log"
    simulated = banded or any("markers" in str(trace.get("mode")) for trace in lines)
    notes = ((_band_note(banded, log_y, x_symbol) if banded else "") + (_end_note(lines, x_symbol) if simulated else "")
             + _shaded(layout, traces))
    head = f"{title}{frame}"
    head += "" if head.endswith(("?", ".")) else "."
    body = f" {words[0].upper()}{words[1:]}{axes}"
    return f"{head}{body}" + (f": {'; '.join(described)}." if described else ".") + notes


@validated(fig=FIGURE_OR_DICT)
def figure_name(fig: go.Figure | dict) -> str:
    """The chart's accessible name: its title on one line, without markup ("Chart" without a title).

    >>> figure_name({"data": [{"type": "bar", "y": [1]}], "layout": {"title": {"text": "Who<br>wins"}}})
    'Who wins'
    """
    fig = fig.to_dict() if isinstance(fig, go.Figure) else fig
    return _title(fig.get("layout")) or "Chart"


@validated(fig=FIGURE_OR_DICT)
def figure_table(fig: go.Figure | dict, frame: str | None = None) -> tuple[list[str], list[list[str]]]:
    """The figure's data as a table of words: column names, and rows of numbers rounded as the summary says them.

    One row per plotted point: which trace it belongs to (in words), its x and y (named after the axes), and for a
    line with a 10–90 % band the band; a heat map's cells as x, y and value (a labelled value in its word). An
    animated figure gives the frame ``frame`` (default: the frame it opens on). Legend-only entries give no row;
    a marker line gives one, where it stands.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure or dict
        A figure of :mod:`dpcore.viz` or its Plotly dictionary.
    frame : str, optional
        The name of an animated figure's frame.

    Returns
    -------
    (list of str, list of list of str)
        Column names, rows.

    Examples
    --------
    >>> from dpcore.viz import Series, line_figure
    >>> columns, rows = figure_table(line_figure([Series("Laplace", [10, 1000], [0.5, 0.005])],
    ...                                          x_title="sample size n", y_title="error"))
    >>> columns, rows
    (['shown', 'sample size n', 'error'], [['Laplace', '10', '0.5'], ['Laplace', '1,000', '0.005']])
    """
    fig = fig.to_dict() if isinstance(fig, go.Figure) else fig
    traces, _ = _opening(fig)
    if frame is not None:
        traces = next((f["data"] for f in fig.get("frames") or [] if f.get("name") == frame), traces)
    layout = fig["layout"]
    first = next((trace for trace in traces if _kind(trace) not in ("", "band")), traces[0] if traces else {})
    x_title = _axis_title(layout, first, "x") or "x"
    y_title = _axis_title(layout, first, "y") or "y"
    bands: dict[str, dict[bool, dict[float, float]]] = {}
    for trace in traces:
        if _kind(trace) == "band":
            name = _plain(trace.get("name"))
            x, y = _xy(trace)
            bands.setdefault(_BAND.sub("", name), {})[name.endswith("(band upper)")] = dict(zip(x.tolist(), y))
    has_band = bool(bands)
    maps = [trace for trace in traces if _kind(trace) == "map"]
    if maps:
        trace = maps[0]
        colorbar = trace.get("colorbar") or {}
        labels = dict(zip(colorbar.get("tickvals") or [], colorbar.get("ticktext") or []))
        z = np.asarray(decode_array(trace.get("z")), dtype=float)
        xs, ys = decode_array(trace.get("x")).ravel(), decode_array(trace.get("y")).ravel()
        word = lambda v: _plain(v) if not isinstance(v, (int, float)) else _number(v)  # noqa: E731
        rows = [[word(ys[i].item()) if ys.size == z.shape[0] else str(i + 1),
                 word(xs[j].item()) if xs.size == z.shape[1] else str(j + 1),
                 labels.get(z[i, j], _number(z[i, j]))] for i in range(z.shape[0]) for j in range(z.shape[1])]
        return [y_title, x_title, _title(colorbar) or "value"], rows
    columns = ["shown", x_title, y_title] + (["10–90 % band"] if has_band else [])
    rows = []
    for trace in traces:
        kind = _kind(trace)
        if kind in ("", "band") or not trace.get("name"):
            continue
        name = _plain(trace.get("name"))
        if kind == "bars":
            x, y = decode_array(trace.get("x")).ravel(), decode_array(trace.get("y")).ravel().astype(float)
            pairs = [(_plain(a), _number(b)) for a, b in zip(x.tolist(), y)]
        else:
            x, y = _xy(trace)
            if kind == "marker":
                vertical = np.ptp(x) == 0
                pairs = [(_number(x[0]), "(vertical line)") if vertical else ("(horizontal line)", _number(y[0]))]
            else:
                pairs = [(_number(a), _number(b)) for a, b in zip(x, y)]
        band = bands.get(name, {})
        for (a, b), raw in zip(pairs, x.tolist() if kind != "marker" else [None]):
            low, high = band.get(False, {}).get(raw), band.get(True, {}).get(raw)
            cell = [f"{_number(low)} to {_number(high)}"] if low is not None and high is not None else [""]
            rows.append([name, a, b] + (cell if has_band else []))
    return columns, rows

