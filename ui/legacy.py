"""The page helpers of the pages not yet written into :class:`ui.page.Page` (removed once every page is)."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from dpcore import viz

from .chrome import presentation_mode

__all__ = ["prose", "formula", "plotly", "animated", "downloads"]


def prose(markdown_text: str) -> None:
    """Explanatory markdown, hidden in presentation mode."""
    if not presentation_mode():
        st.markdown(markdown_text)


def formula(latex: str) -> None:
    """A displayed formula, shown in every mode."""
    st.latex(latex)


def plotly(fig: go.Figure | dict, key: str) -> None:
    """Show a figure built by :mod:`dpcore.viz` (already styled, presentation-aware) under a stable key.

    The figure is not copied or restyled here: build it with ``presentation=ui.presentation_mode()``.
    Figures shared through ``st.cache_resource`` are therefore never mutated.
    """
    st.plotly_chart(fig, key=key, width="stretch", theme=None, config={"displaylogo": False})


def animated(fig: go.Figure, key: str) -> None:
    """Show an animated figure (frames, slider, Play/Pause) in its own fragment.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        Built by :func:`dpcore.viz.animated_sweep` (pass its ``start`` to open on the sidebar's value).
    key : str
        Stable element key.
    """
    st.fragment(plotly, key=f"fragment_{key}")(fig, key)


def downloads(fig: go.Figure, *, name: str, snippet: str) -> None:
    """Three downloads: the figure's data (CSV), the figure (self-contained HTML), a dpcore snippet.

    The files are generated on click and clicking does not rerun the page (no animation restart).
    """
    files = [
        ("Data (CSV)", lambda: viz.figure_table_csv(fig), f"{name}.csv", "text/csv"),
        ("Figure (HTML)", lambda: viz.figure_html(fig), f"{name}.html", "text/html"),
        ("Python snippet", snippet, f"{name}.py", "text/x-python"),
    ]
    for column, (label, data, file_name, mime) in zip(st.columns(len(files)), files):
        column.download_button(label, data, file_name=file_name, mime=mime, key=f"download_{file_name}",
                               on_click="ignore", icon=":material/download:")
