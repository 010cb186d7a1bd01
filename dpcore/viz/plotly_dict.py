"""A figure as Plotly's dictionary, made without Plotly's figure objects.

Constructing a :class:`plotly.graph_objects.Figure` validates every property of every trace and frame, and
``Figure.to_dict()`` then copies it all again: for an animated sweep of five frames that was 27 of its 38 ms. A server
drawing figures for a class only needs the dictionary. So the builders of :mod:`dpcore.viz` describe each figure as
plain data (traces, layout and frames as dicts, lists and numpy arrays, the template as Plotly's template object) and
hand it to :func:`figure`:

- outside :func:`dictionaries` it returns the validated ``go.Figure`` (the library's contract, for notebooks and
  downloads);
- inside it returns the same figure's dictionary, made here: containers copied, the template as its own dictionary,
  numpy arrays encoded as Plotly's typed arrays (``{"dtype", "bdata"}``, Plotly's own encoder). That is what
  ``go.Figure(...).to_dict()`` returns for the property values the builders use (properties spelled out as nested
  dicts, never Plotly's ``magic_underscore`` names); the tests compare the two, JSON against JSON, for every builder.
"""

from __future__ import annotations

import base64
import contextlib
import contextvars
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go
from _plotly_utils.utils import to_typed_array_spec
from plotly.basedatatypes import BasePlotlyType

from ..core.validation import InstanceOf, InvalidParameterError, validated
from .constraints import TRACE_ARRAY, ItemsOf

__all__ = ["decode_array", "dictionaries", "figure", "plotly_dict"]

_DICTIONARIES = contextvars.ContextVar("dpcore_viz_plotly_dictionaries", default=False)
_TRACES = ItemsOf(dict)
_LAYOUT = InstanceOf(dict, "a dict of layout properties")


@contextlib.contextmanager
def dictionaries() -> Iterator[None]:
    """Within this block (this thread or task only), the builders of :mod:`dpcore.viz` return Plotly's dictionary of
    each figure (:func:`plotly_dict`) instead of a ``go.Figure``.

    >>> from dpcore.viz import Series, line_figure
    >>> with dictionaries():
    ...     drawn = line_figure([Series("Laplace", [10, 1000], [0.5, 0.005])], x_title="n", y_title="error")
    >>> sorted(drawn), drawn["data"][0]["y"]["dtype"]
    (['data', 'layout'], 'f8')
    """
    token = _DICTIONARIES.set(True)
    try:
        yield
    finally:
        _DICTIONARIES.reset(token)


@validated(data=_TRACES, layout=_LAYOUT, frames=_TRACES)
def figure(data: Sequence[dict], layout: dict, frames: Sequence[dict] | None = None) -> go.Figure | dict:
    """``go.Figure(data=data, layout=layout, frames=frames)``, validated by Plotly; inside :func:`dictionaries`,
    :func:`plotly_dict` of the same."""
    if _DICTIONARIES.get():
        return plotly_dict(data, layout, frames)
    return go.Figure(data=list(data), layout=layout, frames=list(frames or ()) or None)


@validated(data=_TRACES, layout=_LAYOUT, frames=_TRACES)
def plotly_dict(data: Sequence[dict], layout: dict, frames: Sequence[dict] | None = None) -> dict:
    """What ``go.Figure(data=data, layout=layout, frames=frames).to_dict()`` returns, without Plotly's objects.

    Parameters
    ----------
    data : list of dict
        Traces (at least one), each with its ``type``.
    layout : dict
        The layout, with its ``template`` (a ``go.layout.Template`` or a dict): a figure built by Plotly without one
        gets Plotly's default template, which this does not add.
    frames : list of dict, optional
        Animation frames (``name``, ``data``, optionally ``layout``), at least one if given.

    Returns
    -------
    dict
        ``{"data", "layout"}`` (and ``"frames"`` when there are any); every container new, numpy arrays as Plotly's
        typed-array dicts, so the result shares nothing mutable with the arguments.
    """
    if "template" not in layout:
        raise InvalidParameterError("layout must set its template (Plotly would add its default one)")
    spec = {"data": _plain(data), "layout": _plain(layout)}
    if frames:
        spec["frames"] = _plain(frames)
    return spec


#: Keys whose arrays Plotly leaves as they are (``_plotly_utils.utils.is_skipped_key``).
_UNENCODED = frozenset({"geojson", "layer", "layers", "range"})
#: Plotly.js's typed-array names of the numpy types it reads (``_plotly_utils.utils.plotlyjsShortTypes``).
_TYPED = {"int8": "i1", "uint8": "u1", "int16": "i2", "uint16": "u2", "int32": "i4", "uint32": "u4", "float32": "f4",
          "float64": "f8"}
_NARROWER = {"i": (np.int8, np.int16, np.int32), "u": (np.uint8, np.uint16, np.uint32)}


def _plain(value: Any) -> Any:
    """``value`` with new dicts and lists (tuples as lists) all the way down, Plotly objects as their dictionaries, and
    each numpy array that is a dict's value as Plotly's typed array (:func:`_typed_array`), as Plotly's
    ``convert_to_base64`` does it (an array under a :data:`_UNENCODED` key, or an item of a list, stays an array)."""
    if isinstance(value, dict):
        return {key: _typed_array(item) if isinstance(item, np.ndarray) and key not in _UNENCODED else _plain(item)
                for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, BasePlotlyType):
        return value.to_plotly_json()
    return value


def _typed_array(array: np.ndarray) -> dict | np.ndarray:
    """Plotly's ``to_typed_array_spec``: ``{"dtype", "bdata"[, "shape"]}``, the array's bytes in base64, 64-bit integers
    narrowed to the smallest type that holds them (Plotly.js reads no 64-bit integers). Arrays of other types go
    through Plotly's own function (this one only saves its generic conversion of the common ones)."""
    if array.size and array.dtype.kind in _NARROWER and array.dtype.itemsize == 8:
        low, high = array.min(), array.max()
        fits = [kind for kind in _NARROWER[array.dtype.kind] if np.iinfo(kind).min <= low <= high <= np.iinfo(kind).max]
        array = array.astype(fits[0]) if fits else array
    name = _TYPED.get(str(array.dtype)) if array.size else None
    if name is None:
        return to_typed_array_spec(array)
    typed = {"dtype": name, "bdata": base64.b64encode(np.ascontiguousarray(array).data).decode("ascii")}
    if array.ndim > 1:
        typed["shape"] = str(array.shape)[1:-1]
    return typed


@validated(values=TRACE_ARRAY)
def decode_array(values: Any) -> np.ndarray:
    """A trace's coordinate array as numpy: plain sequences, or Plotly's typed-array dict ``{dtype, bdata}`` (the
    inverse of the encoding :func:`plotly_dict` applies; ``None``, an absent coordinate, gives an empty array).

    >>> decode_array(plotly_dict([{"type": "scatter", "y": np.arange(3.0)}], {"template": {}})["data"][0]["y"])
    array([0., 1., 2.])
    """
    if values is None:
        return np.empty(0)
    if isinstance(values, dict) and "bdata" in values:
        array = np.frombuffer(base64.b64decode(values["bdata"]), dtype=np.dtype(values["dtype"]))
        return array.reshape([int(s) for s in str(values["shape"]).split(",")]) if "shape" in values else array
    return np.asarray(values)
