"""The one cached-sweep layer of the app, and the figures built on it.

* :func:`sweep` runs a lesson's sweep through ``assets/precomputed`` (a stored result whose parameters match is
  served at once), else progressively (:mod:`ui.progressive`): the requested run if it is ready at once, else a quick
  pass (a stored run with another trial count or Monte Carlo run, or fewer trials computed now) while the requested
  run finishes in the background (:func:`previews` lists the quick passes of this script run). Lessons take it as
  their ``run`` argument, so a notebook calling the same lesson without it (:func:`dpcore.experiments.compute`) gets
  the same numbers.
* :func:`cached` calls any other lesson function through a bounded ``st.cache_data``.
* :func:`figure` builds a figure of :mod:`dpcore.viz.figures` from primitive arguments, cached whole (once all its
  sweeps are the requested runs) and shared read-only between sessions (figures are never mutated after building).
* :func:`snippet` is the notebook code that rebuilds such a figure: generated from the builder and its arguments,
  so the download always calls what the page calls.

Sweeps and figures are cached on their function's qualified name and JSON arguments, never on objects.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import math
import os
from collections.abc import Callable
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from dpcore.experiments import SweepResult, load_or_run, load_stored, stored_calls

from .chrome import ASSETS
from .progressive import QUICK_SECONDS, Bounded, Preview, Progressive

__all__ = ["PRECOMPUTED", "REPRODUCE_VARIABLE", "reproduction_mark", "reproduced_trials", "start_worker",
           "sweep", "previews", "cached", "figure", "snippet"]

PRECOMPUTED = ASSETS / "precomputed"


def _qualified(function: Callable) -> str:
    return f"{function.__module__}:{function.__qualname__}"


def _resolve(name: str) -> Callable:
    module, _, qualname = name.partition(":")
    return getattr(importlib.import_module(module), qualname)


def _arguments(values: dict[str, Any]) -> str:
    return json.dumps(values, sort_keys=True)


_PREVIEWS = "_sweep_previews"  # session-state key: the quick passes shown by this script run
_SUPERSEDED = "_sweep_previews_before"  # session-state key: those of the previous script run


@st.cache_resource(show_spinner=False)
def _progressive() -> Progressive:
    """One worker pool and one bounded result store for every session of the server. One worker process: the other
    core stays free for the pages (their quick passes and one-run pictures), on the 2-core machine the lab targets.
    With the quick pass off (the tests, ``./lab.sh precompute``) a thread: the runs are then computed in this process,
    exactly as the tests compute them."""
    return Progressive(workers=1, processes=not math.isinf(QUICK_SECONDS))


def start_worker() -> None:
    """Start the shared sweep worker and read the index of stored results (once per server: the app calls this on
    every visit), so that the first student who moves a control waits for neither."""
    _progressive()
    _stored_calls()


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
    result, preview = _progressive().run(f"{name}|{arguments}", functools.partial(load_or_run, PRECOMPUTED, function),
                                         params, lambda size: _stored_nearby(name, arguments, size))
    if preview is not None:
        st.session_state.setdefault(_PREVIEWS, []).append(preview)
    return result


@st.cache_resource(show_spinner=False)
def _stored_calls() -> list[tuple[str, dict, Any]]:
    return stored_calls(PRECOMPUTED)


def _stored_nearby(function: str, params: str, size: str | None) -> tuple[SweepResult, int, int | None] | None:
    """A quick pass at hand: the stored result of ``function`` with ``params`` but another Monte Carlo size ``size``
    (trials) or another Monte Carlo run (``seed``), as ``(result, its size, its seed or None if the requested)``.

    Preferred: the requested run before another one; then fewer trials before more; then the nearest count."""
    wanted = json.loads(params)
    varying = {size, "seed"}
    others = {key: value for key, value in wanted.items() if key not in varying}
    candidates = [(stored.get("seed") != wanted.get("seed"), stored.get(size, 0) > wanted.get(size, 0),
                   abs(math.log(stored.get(size, 1) / wanted.get(size, 1))), str(path), stored)
                  for name, stored, path in _stored_calls()
                  if name == function.replace(":", ".") and stored != wanted
                  and {key: value for key, value in stored.items() if key not in varying} == others]
    if not candidates:
        return None
    other_run, _, _, path, stored = min(candidates)
    return _stored_file(path), stored.get(size, 0), stored.get("seed") if other_run else None


@st.cache_data(max_entries=64, show_spinner=False)
def _stored_file(path: str) -> SweepResult:
    return SweepResult.load(path)


#: While ``./lab.sh sweep`` (:mod:`ui.reproduce`) runs, this environment variable holds its trial count.
REPRODUCE_VARIABLE = "DPLAB_REPRODUCE_TRIALS"


def reproduction_mark(url_path: str) -> str:
    """The ``stored_for`` mark of the reproductions of the page at ``url_path``."""
    return f"reproduction:{url_path}"


@st.cache_resource(show_spinner=False)
def _reproduced(url_path: str) -> tuple[int, ...]:
    return tuple(params["trials"] for _, params, _ in stored_calls(PRECOMPUTED, reproduction_mark(url_path))
                 if "trials" in params)


def reproduced_trials(url_path: str) -> tuple[int, ...]:
    """The trial counts of the stored reproductions of the page at ``url_path`` (read once per server), and the
    count of the reproduction running now, if any: the page's trial control offers them beyond its slider."""
    running = (int(os.environ[REPRODUCE_VARIABLE]),) if os.environ.get(REPRODUCE_VARIABLE) else ()
    return tuple(sorted({*_reproduced(url_path), *running}))


def previews(since: int = 0) -> list[Preview]:
    """The quick passes this script run has shown so far (from index ``since``); reset by :func:`start_run`."""
    return st.session_state.get(_PREVIEWS, [])[since:]


def start_run() -> None:
    """Begin a script run: its quick passes start empty, the previous run's are kept for :func:`release_superseded`
    (the page skeleton calls this first)."""
    st.session_state[_SUPERSEDED] = st.session_state.get(_PREVIEWS, [])
    st.session_state[_PREVIEWS] = []


def release_superseded() -> None:
    """Cancel the requested runs that the previous script run of this session waited for and this one does not (those
    not started yet): the page has moved on (the page skeleton calls this once its sweeps are drawn)."""
    current = {id(preview.future) for preview in previews()}
    _progressive().cancel([preview.future for preview in st.session_state.get(_SUPERSEDED, [])
                           if id(preview.future) not in current])
    st.session_state[_SUPERSEDED] = []


def queued_ahead(pending: list[Preview]) -> int:
    """How many requested runs, of any session, are queued ahead of those of ``pending`` on the shared worker."""
    return _progressive().ahead([preview.future for preview in pending])


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
