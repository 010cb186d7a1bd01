"""The one cached-sweep layer of the app, and the figures built on it.

* :func:`sweep` runs a lesson's sweep through ``assets/precomputed`` (a stored result whose parameters match is
  served at once) and a bounded ``st.cache_data`` for everything else. Lessons take it as their ``run`` argument, so a
  notebook calling the same lesson without it (:func:`dpcore.experiments.compute`) gets the same numbers.
* :func:`cached` calls any other lesson function through a bounded ``st.cache_data``.
* :func:`figure` builds a figure of :mod:`dpcore.viz.figures` from primitive arguments, cached whole with
  ``st.cache_resource`` and shared read-only between sessions (figures are never mutated after building).
* :func:`snippet` is the notebook code that rebuilds such a figure: generated from the builder and its arguments,
  so the download always calls what the page calls.

Sweeps and figures are cached on their function's qualified name and JSON arguments, never on objects.
"""

from __future__ import annotations

import importlib
import inspect
import json
from collections.abc import Callable
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from dpcore.experiments import SweepResult, load_or_run

from .chrome import ASSETS

__all__ = ["PRECOMPUTED", "sweep", "cached", "figure", "snippet"]

PRECOMPUTED = ASSETS / "precomputed"


def _qualified(function: Callable) -> str:
    return f"{function.__module__}:{function.__qualname__}"


def _resolve(name: str) -> Callable:
    module, _, qualname = name.partition(":")
    return getattr(importlib.import_module(module), qualname)


def _arguments(values: dict[str, Any]) -> str:
    return json.dumps(values, sort_keys=True)


@st.cache_data(max_entries=128, show_spinner="Simulating…")
def _stored_or_run(function: str, params: str) -> SweepResult:
    return load_or_run(PRECOMPUTED, _resolve(function), **json.loads(params))


def sweep(function: Callable[..., SweepResult], **params: Any) -> SweepResult:
    """``function(**params)`` from ``assets/precomputed`` if stored, else from the bounded cache, else computed.

    ``params`` must be JSON values (numbers, strings, lists): they are the cache key and the stored file's name.
    """
    return _stored_or_run(_qualified(function), _arguments(params))


@st.cache_data(max_entries=128, show_spinner=False)
def _called(function: str, kwargs: str) -> Any:
    return _resolve(function)(**json.loads(kwargs))


def cached(function: Callable, **kwargs: Any) -> Any:
    """``function(**kwargs)`` through a bounded ``st.cache_data`` (``kwargs``: JSON values): a lesson's one-run
    computation or table that several reruns show."""
    return _called(_qualified(function), _arguments(kwargs))


@st.cache_resource(max_entries=128, show_spinner=False)
def _built(builder: str, kwargs: str, presentation: bool) -> go.Figure:
    function = _resolve(builder)
    runner = {"run": sweep} if "run" in inspect.signature(function).parameters else {}
    return function(**json.loads(kwargs), presentation=presentation, **runner)


def figure(builder: Callable[..., go.Figure], presentation: bool, **kwargs: Any) -> go.Figure:
    """``builder(**kwargs, presentation=presentation)``, cached whole (``kwargs``: JSON values). A builder that runs
    sweeps takes them through its ``run`` argument: here, :func:`sweep`."""
    return _built(_qualified(builder), _arguments(kwargs), presentation)


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
