"""What the inputs of a figure may be: the constraints the builders of :mod:`dpcore.viz` declare with
:func:`~dpcore.core.validation.validated` (texts, colours, flags, coordinates, figures)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from ..core.validation import Array, Choice, Constraint, InstanceOf

__all__ = ["Text", "ItemsOf", "HexColor", "FigureOrDict", "TraceArray", "TRACE_ARRAY", "NAME", "HEX_COLOR", "TITLE",
           "FIGURE", "FIGURE_OR_DICT", "FLAG", "SERIES_KIND", "COORDINATE", "VALUES"]


@dataclass(frozen=True)
class Text(Constraint):
    """A string (non-empty if ``nonempty``)."""

    nonempty: bool = False

    def describe(self) -> str:
        return "a non-empty string" if self.nonempty else "a string"

    def check(self, name: str, value: Any) -> str:
        if not isinstance(value, str):
            self.fail(name, value)
        if self.nonempty and not value:
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        return [None, 3] + ([""] if self.nonempty else [])


@dataclass(frozen=True)
class ItemsOf(Constraint):
    """A non-empty list or tuple of instances of ``kind``; normalised to a tuple."""

    kind: type

    def describe(self) -> str:
        return f"a non-empty list of {self.kind.__name__}"

    def check(self, name: str, value: Any) -> tuple:
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, self.kind) for v in value):
            self.fail(name, value)
        if not value:
            self.fail(name, value)
        return tuple(value)

    def bad_values(self) -> list[Any]:
        return [None, [], "abc", [1.0]]


@dataclass(frozen=True)
class HexColor(Text):
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


@dataclass(frozen=True)
class FigureOrDict(Constraint):
    """A ``go.Figure``, or Plotly's dictionary of one (``data`` a list, ``layout`` a dict)."""

    def describe(self) -> str:
        return "a plotly.graph_objects.Figure or its dictionary"

    def check(self, name: str, value: Any) -> Any:
        if not (isinstance(value, go.Figure) or isinstance(value, dict) and isinstance(value.get("data"), list)
                and isinstance(value.get("layout"), dict)):
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        return [None, "text", {"data": []}]


NAME = Text(nonempty=True)  #: a series' or a method's name
HEX_COLOR = HexColor()
TITLE = Text()
FIGURE = InstanceOf(go.Figure, "a plotly.graph_objects.Figure")
FIGURE_OR_DICT = FigureOrDict()
FLAG = Choice((False, True))  #: a yes/no option (presentation mode, log axes)
SERIES_KIND = Choice(  # how a series is drawn: see dpcore.viz.animation.Series
    ("simulation", "curve", "theory", "baseline", "points"))
COORDINATE = Array(ndim=(1,), min_size=1)
VALUES = Array(ndim=(1,), min_size=1, finite=False)  # NaN allowed: a gap (e.g. where a theory curve is undefined)


@dataclass(frozen=True)
class TraceArray(Constraint):
    """A trace's coordinates as a figure holds them: ``None``, a list, tuple or numpy array, or Plotly's typed-array
    dictionary ``{"dtype", "bdata"[, "shape"]}``."""

    def describe(self) -> str:
        return "None, a list, a numpy array or Plotly's typed-array dict {dtype, bdata}"

    def check(self, name: str, value: Any) -> Any:
        typed = isinstance(value, dict) and {"dtype", "bdata"} <= set(value)
        if not (value is None or typed or isinstance(value, (list, tuple, np.ndarray))):
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        return ["text", 3.0, {"dtype": "f8"}]


TRACE_ARRAY = TraceArray()  #: what :func:`dpcore.viz.plotly_dict.decode_array` reads
