"""Figures shared by several lessons: grouped bars."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from ...core.validation import InvalidParameterError, validated
from ..animation import figure_height
from ..constraints import FLAG, TITLE, ItemsOf
from ..plotly_dict import figure
from ..style import REFERENCE_COLORS, figure_title, method_color, template_dict

__all__ = ["bar_figure"]

# --------------------------------------------------------------------------------------- one run


@validated(categories=ItemsOf(str), x_title=TITLE, y_title=TITLE, title=TITLE, presentation=FLAG)
def bar_figure(categories: Sequence[str], bars: dict[str, Any], *, x_title: str, y_title: str, title: str = "",
               colors: Sequence[str] | None = None, presentation: bool = False) -> go.Figure:
    """Grouped bars: one group per category, one bar per entry of ``bars`` (legend name -> values).

    Colours: ``colors`` (one per entry of ``bars``), else :data:`REFERENCE_COLORS`, else :func:`method_color`.
    Used for single-run views such as an election's vote counts and its selection probabilities. Each bar is labelled
    with its value where the label fits over it; on a narrow screen (a phone) the labels that would overlap their
    neighbours are left out, and the values stay in the hover and the figure's summary.
    """
    if colors is not None and len(colors) != len(bars):
        raise InvalidParameterError(f"colors must give one colour per entry of bars ({len(bars)}); got {len(colors)}")
    data = []
    for index, (name, values) in enumerate(bars.items()):
        values = np.asarray(values, dtype=float)
        if values.shape != (len(categories),):
            raise InvalidParameterError(f"bars[{name!r}] must have one value per category ({len(categories)}); got "
                                        f"{values.shape}")
        data.append(dict(type="bar", x=list(categories), y=values, name=name, text=[f"{v:.3g}" for v in values],
                         textposition="outside", marker=dict(color=colors[index] if colors is not None else
                                                             REFERENCE_COLORS.get(name) or method_color(name))))
    return figure(data, dict(template=template_dict(presentation), title=figure_title(title), uirevision="dplab",
                             barmode="group", height=figure_height(presentation, animated=False), hovermode="closest",
                             xaxis=dict(title=dict(text=x_title)), yaxis=dict(title=dict(text=y_title)),
                             uniformtext=dict(mode="hide")))  # at the template's smallest readable size, or not at all

