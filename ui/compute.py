"""The one cached-sweep layer of the app, and the figures built on it.

* :func:`sweep` runs a lesson's sweep through ``assets/precomputed`` (a stored result whose parameters match is
  served at once), else progressively (:mod:`ui.progressive`): the requested run if it is ready at once, else a quick
  pass with fewer trials while the requested run finishes in the background (:func:`previews` lists the quick passes
  of this script run). Lessons take it as their ``run`` argument, so a notebook calling the
  same lesson without it (:func:`dpcore.experiments.compute`) gets the same numbers.
* :func:`cached` calls any other lesson function through a bounded ``st.cache_data``.
* :func:`figure` builds a figure of :mod:`dpcore.viz.figures` from primitive arguments, cached whole (once all its
  sweeps are the requested runs) and shared read-only between sessions (figures are never mutated after building).
* :func:`snippet` is the notebook code that rebuilds such a figure: generated from the builder and its arguments,
  so the download always calls what the page calls.

Sweeps and figures are cached on their function's qualified name and JSON arguments, never on objects.
"""

from __future__ import annotations

import importlib
import inspect
import json
import math
from collections.abc import Callable
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from dpcore.experiments import SweepResult, load_or_run, load_stored, stored_calls

from .chrome import ASSETS
from .progressive import Bounded, Preview, Progressive

__all__ = ["PRECOMPUTED", "sweep", "previews", "cached", "figure", "snippet"]

PRECOMPUTED = ASSETS / "precomputed"


def _qualified(function: Callable) -> str:
    return f"{function.__module__}:{function.__qualname__}"


def _resolve(name: str) -> Callable:
    module, _, qualname = name.partition(":")
    return getattr(importlib.import_module(module), qualname)


def _arguments(values: dict[str, Any]) -> str:
    return json.dumps(values, sort_keys=True)


_PREVIEWS = "_sweep_previews"  # session-state key: the quick passes shown by this script run


@st.cache_resource(show_spinner=False)
def _progressive() -> Progressive:
    """One worker pool and one bounded result store for every session of the server. One worker: the other core
    stays free for the pages (their quick passes and one-run pictures), on the 2-core machine the lab targets."""
    return Progressive(workers=1)


@st.cache_data(max_entries=64, show_spinner=False)
def _stored(function: str, params: str) -> SweepResult | None:
    return load_stored(PRECOMPUTED, _resolve(function), **json.loads(params))


def sweep(function: Callable[..., SweepResult], **params: Any) -> SweepResult:
    """``function(**params)``: stored, or the requested run once ready, or meanwhile a quick pass (recorded for
    :func:`previews`).

    ``params`` must be JSON values (numbers, strings, lists): they are the cache key and the stored file's name.
    """
    name, arguments = _qualified(function), _arguments(params)
    stored = _stored(name, arguments)
    if stored is not None:
        return stored
    result, preview = _progressive().run(f"{name}|{arguments}",
                                         lambda **values: load_or_run(PRECOMPUTED, function, **values), params,
                                         lambda size: _stored_with_fewer(name, arguments, size))
    if preview is not None:
        st.session_state.setdefault(_PREVIEWS, []).append(preview)
    return result


@st.cache_resource(show_spinner=False)
def _stored_calls() -> list[tuple[str, dict, Any]]:
    return stored_calls(PRECOMPUTED)


def _stored_with_fewer(function: str, params: str, size: str) -> tuple[SweepResult, int] | None:
    """The stored result of ``function`` with ``params`` but the most ``size`` (trials) below the requested: a quick
    pass at hand."""
    wanted = json.loads(params)
    others = {key: value for key, value in wanted.items() if key != size}
    fewer = [(stored[size], path) for name, stored, path in _stored_calls()
             if name == function.replace(":", ".") and stored.get(size, math.inf) < wanted[size]
             and {key: value for key, value in stored.items() if key != size} == others]
    if not fewer:
        return None
    trials, path = max(fewer)
    return _stored_file(str(path)), trials


@st.cache_data(max_entries=64, show_spinner=False)
def _stored_file(path: str) -> SweepResult:
    return SweepResult.load(path)


def previews(since: int = 0) -> list[Preview]:
    """The quick passes this script run has shown so far (from index ``since``); reset by :func:`start_run`."""
    return st.session_state.get(_PREVIEWS, [])[since:]


def start_run() -> None:
    """Forget the previous script run's quick passes (the page skeleton calls this first)."""
    st.session_state[_PREVIEWS] = []


@st.cache_data(max_entries=128, show_spinner=False)
def _called(function: str, kwargs: str) -> Any:
    return _resolve(function)(**json.loads(kwargs))


def cached(function: Callable, **kwargs: Any) -> Any:
    """``function(**kwargs)`` through a bounded ``st.cache_data`` (``kwargs``: JSON values): a lesson's one-run
    computation or table that several reruns show."""
    return _called(_qualified(function), _arguments(kwargs))


@st.cache_resource(show_spinner=False)
def _figures() -> Bounded:
    return Bounded(128)


def figure(builder: Callable[..., go.Figure], presentation: bool, **kwargs: Any) -> go.Figure:
    """``builder(**kwargs, presentation=presentation)``, cached whole once complete (``kwargs``: JSON values). A
    builder that runs sweeps takes them through its ``run`` argument: here, :func:`sweep`; a figure drawn from a quick
    pass is not cached, so the next run draws the requested one."""
    key = (_qualified(builder), _arguments(kwargs), presentation)
    fig = _figures().get(key)
    if fig is None:
        shown = len(previews())
        runner = {"run": sweep} if "run" in inspect.signature(builder).parameters else {}
        fig = builder(**json.loads(key[1]), presentation=presentation, **runner)
        if len(previews()) == shown:
            _figures().put(key, fig)
    return fig


def snippet(builder: Callable[..., go.Figure], **kwargs: Any) -> str:
    """Python that rebuilds ``builder(**kwargs)`` in a notebook and prints its data (the page's CSV download).

    >>> from dpcore.viz.figures import home
    >>> print(snippet(home.neighbouring_densities, start="1").splitlines()[4])
    fig = home.neighbouring_densities(start='1')
    """
    package, _, module = builder.__module__.rpartition(".")
    arguments = ", ".join(f"{name}={value!r}" for name, value in kwargs.items())
    return (f'"""Rebuild a figure of Private Estimation Lab in a notebook: the same numbers as the page."""\n'
            f"from dpcore import viz\nfrom {package} import {module}\n\n"
            f"fig = {module}.{builder.__name__}({arguments})\n"
            "print(viz.figure_table_csv(fig))  # the plotted numbers: the page's 'Data (CSV)' download\n"
            'if __name__ == "__main__":  # a notebook cell or `python snippet.py`: open the interactive figure\n'
            "    fig.show()\n")
