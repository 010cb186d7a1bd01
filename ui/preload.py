"""Everything the pages import, imported before any page runs: a module is never half-imported while a page runs.

Some libraries look a module up in ``sys.modules`` without importing it: Plotly's validators (and narwhals, which they
call) check ``sys.modules["pandas"]`` to recognise a DataFrame. If one session's thread is still importing pandas for
the first time (Streamlit imports it lazily, for a table) while another session draws a figure, the second finds a
partially initialised module and fails (``AttributeError: partially initialized module 'pandas' has no attribute
'Series'``; plotly.py issue #2433). A class opening a freshly started server hits exactly that.

:func:`preload` runs first in every session (``app.py``). The first session imports here; every other session's
``import`` of a module still being imported waits for it to finish (Python's per-module import lock), so no page code
runs beside a half-imported module. Building one figure of each trace type the pages draw also loads Plotly's lazily
imported trace classes and validators, and one table loads Streamlit's pandas and Arrow code.

Before anything else it makes ``ast.parse`` build one tree at a time (:func:`ui.ast_lock.serialise`): on CPython
3.11.7 two sessions' threads building syntax trees at once could raise ``SystemError`` in a page.

Then the warm heap is frozen (:func:`gc.freeze`): the hundreds of thousands of objects those libraries hold are never
scanned again by the garbage collector. Streamlit's full collection after every script run is off
(``runner.postScriptGC`` in ``.streamlit/config.toml``): it scanned that whole heap on every click, a quarter of the
server's CPU per interaction. Python's generational collector still frees the cycles a run leaves.
"""

from __future__ import annotations

import gc
import importlib
import threading

from . import ast_lock

__all__ = ["MODULES", "preload"]

#: Modules a page may load lazily, in dependency order (the pages' own modules last).
MODULES = ("numpy", "scipy.optimize", "scipy.sparse", "scipy.special", "scipy.stats", "pandas", "pyarrow",
           "narwhals", "plotly.graph_objects", "plotly.io", "plotly.subplots", "cvxpy", "segno",
           "streamlit.dataframe_util", "dpcore", "dpcore.lessons", "dpcore.viz", "dpcore.viz.figures")


_FROZEN = threading.Event()  # set once the warm heap is frozen


def preload() -> None:
    """Import :data:`MODULES`, touch the lazily loaded parts of Plotly and of Streamlit's tables, and freeze the heap
    once (idempotent: after the first call, a few dictionary look-ups)."""
    ast_lock.serialise()
    for name in MODULES:
        importlib.import_module(name)
    if not _FROZEN.is_set():
        _warm_plotly_and_tables()
        gc.collect()
        gc.freeze()
        _FROZEN.set()


def _warm_plotly_and_tables() -> None:
    import pandas as pd
    import plotly.graph_objects as go
    from streamlit import dataframe_util

    figure = go.Figure([go.Scatter(x=[0, 1], y=[0, 1]), go.Bar(x=[0], y=[1]), go.Heatmap(z=[[0, 1]])])
    figure.to_json()
    dataframe_util.convert_anything_to_arrow_bytes(pd.DataFrame({"a": [1.0], "b": ["x"]}))
