"""Plotly figure builders: one look, one colour per method, animated parameter sweeps.

The only part of dpcore that imports plotly (``import dpcore`` does not import it; ``dpcore.viz`` is loaded on first
use). Lessons pass tidy arrays in and get a ``plotly.graph_objects.Figure`` back; nothing here knows about Streamlit.

===============  =====================================================================================
``style``        the Okabe–Ito palette, :data:`METHOD_COLORS` / :func:`method_color`, the projector template
``animation``    :class:`Series`, :class:`FrameData`, :func:`animated_sweep`, :func:`line_figure`, :func:`sweep_frames`
``export``       :func:`figure_html` (self-contained) and :func:`figure_table_csv`
``summary``      :func:`~dpcore.viz.summary.figure_summary`: a figure in one sentence
``plotly_dict``  inside :func:`~dpcore.viz.plotly_dict.dictionaries`, every builder returns Plotly's dictionary of its
                 figure, made without Plotly's objects (what a server sends); outside, the validated ``go.Figure``
``constraints``  what a figure's inputs may be (texts, colours, flags, coordinates): the builders' declared constraints
``charts``       one-run charts drawn from given arrays (bars, win matrices, scores, clouds, a clipped histogram, …)
``figures``      one module per lesson with its page builders (``figures.truncation``, …): run the lesson, draw it
===============  =====================================================================================

A builder's figure is always the same: ``builder(...).to_dict()`` outside :func:`~dpcore.viz.plotly_dict.dictionaries`
and ``builder(...)`` inside give the same JSON (the tests check it for every builder).
"""

from . import charts, constraints, figures
from .animation import MAX_LOG_DECADES, FrameData, Series, animated_sweep, line_figure, sweep_frames, theory_series
from .export import figure_html, figure_table_csv
from .style import METHOD_COLORS, OKABE_ITO, REFERENCE_COLORS, method_color, template

__all__ = ["METHOD_COLORS", "OKABE_ITO", "REFERENCE_COLORS", "method_color", "template", "Series", "FrameData",
           "MAX_LOG_DECADES", "animated_sweep", "line_figure", "sweep_frames", "theory_series", "figure_html",
           "figure_table_csv", "charts", "constraints", "figures"]
