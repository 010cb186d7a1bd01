"""The one cached-sweep layer of the app, and the figures built on it.

* :func:`sweep` runs a lesson's sweep through ``assets/precomputed`` (a stored result whose parameters match is
  served at once), else progressively (:mod:`ui.progressive`): the requested run if it is ready at once, else a quick
  pass (a stored run with another trial count or Monte Carlo run, or fewer trials computed now) while the requested
  run finishes in the background (:func:`previews` lists the quick passes of this script run). Lessons take it as
  their ``run`` argument, so a notebook calling the same lesson without it (:func:`dpcore.experiments.run_now`) gets
  the same numbers.
* :func:`figure` builds a figure of :mod:`dpcore.viz.figures` from primitive arguments and keeps what is drawn (a
  :class:`ui.drawn.Drawn`, once all its sweeps are the requested runs), shared read-only between sessions;
  :func:`described` adds the sentence that says what it shows. Sessions asking for one figure (or text) at once wait
  for the one that builds it: a class opening a page on a fresh server builds each figure once.
* :func:`shared` is any other lesson result (a text, a table, a question, a one-run computation), computed once per
  setting for every session.
* :func:`snippet` is the notebook code that rebuilds such a figure: generated from the builder and its arguments,
  so the download always calls what the page calls.

Sweeps and figures are cached on their function's qualified name and JSON arguments, never on objects. A call with
an argument that is no JSON value (a student's uploaded column, an array) is **private**: it is computed in this
session and kept only in this session's memory (:func:`in_session`), keyed by a digest of its arguments; it never
enters a cache shared by sessions, the sweep worker or the stored results.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import inspect
import json
import math
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import plotly.graph_objects as go
import streamlit as st
from streamlit import runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx

from dpcore.experiments import SweepResult, load_or_run, load_stored, stored_index
from dpcore.viz.plotly_dict import dictionaries
from dpcore.viz.summary import figure_summary

from .chrome import ASSETS
from .drawn import Drawn
from .progressive import ANY_RUN, QUICK_SECONDS, LruMap, Preview, Progressive

__all__ = ["PRECOMPUTED", "reproduction_mark", "reproduced_trials", "start_worker",
           "sweep", "previews", "shared", "in_session", "forget_private", "figure", "described", "snippet", "INSTALL"]

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
_VISITOR = "_visitor"  # session-state key: the visitor's id (their line in the shared worker's queue)
_PREVIEW_RUNS = "_sweep_preview_runs"  # session-state key: this script run's {requested seed: the run previewing it}


@functools.cache
def _progressive() -> Progressive:
    """One worker pool and one bounded result store for every session of the server. One worker process: the other
    core stays free for the pages (their quick passes and one-run pictures), on the 2-core machine the lab targets.
    With the quick pass off (the tests, ``./lab.sh precompute``) a thread: the runs are then computed in this process,
    exactly as the tests compute them."""
    return Progressive(workers=1, processes=not math.isinf(QUICK_SECONDS), alive=_open)


def _tab() -> str:
    """This browser tab's id (Streamlit's session), "" outside a server's script run."""
    context = get_script_run_ctx()
    return context.session_id if context is not None else ""


def _open(tab: str) -> bool:
    """Whether the browser tab ``tab`` is still connected (a run nobody waits for any more is dropped)."""
    return not tab or not runtime.exists() or runtime.get_instance().is_active_session(tab)


def start_worker() -> None:
    """Start the shared sweep worker and read the index of stored results (once per server: the app calls this on
    every visit), so that the first student who moves a control waits for neither."""
    _progressive()
    _stored_calls()


@functools.cache
def _loaded() -> LruMap:
    return LruMap(64)


def _stored(function: str, params: str) -> SweepResult | None:
    """The stored result of ``function(**params)`` or ``None``, read from disk once per server (the last 64 results
    looked up are kept, shared read-only by every session)."""
    known = _loaded().get((function, params))
    if known is None:
        known = _loaded().put((function, params), (load_stored(PRECOMPUTED, _resolve(function), **json.loads(params)),))
    return known[0]


def sweep(function: Callable[..., SweepResult], **params: Any) -> SweepResult:
    """``function(**params)``: stored, or the requested run once ready, or meanwhile a quick pass (recorded for
    :func:`previews`). In one script run, every answer for a Monte Carlo run (``seed``) comes from the same run as the
    first one (the requested run, or the other run previewing it): a lesson may join sweeps into one result
    (:func:`dpcore.experiments.join_methods`), which needs them to share their run.

    ``params`` must be JSON values (numbers, strings, lists): they are the cache key and the stored file's name.
    """
    name, arguments = _qualified(function), _arguments(params)
    runs = st.session_state.setdefault(_PREVIEW_RUNS, {})
    quick_run = runs.get(params.get("seed"), ANY_RUN)
    stored = None if isinstance(quick_run, int) else _stored(name, arguments)
    if stored is not None:
        runs.setdefault(params.get("seed"), None)
        return stored
    run = functools.partial(load_or_run, PRECOMPUTED, function)
    result, preview = _progressive().run(f"{name}|{arguments}", run,
                                         params, lambda size: _stored_nearby(name, arguments, size, quick_run),
                                         session=_visitor(), quick_run=quick_run, tab=_tab())
    runs.setdefault(params.get("seed"), None if preview is None else preview.run)
    if preview is not None:
        st.session_state.setdefault(_PREVIEWS, []).append(preview)
    return result


def _visitor() -> str:
    """This visitor's line in the shared worker's queue: one per browser, shared by its tabs (a digest of the random
    token in Streamlit's XSRF cookie; nothing personal), else one per tab (a random id, e.g. a client without
    cookies)."""
    if _VISITOR not in st.session_state:
        cookie = st.context.cookies.get(XSRF_COOKIE)
        token = browser_token(cookie) if isinstance(cookie, str) else ""  # none outside a browser (AppTest)
        st.session_state[_VISITOR] = token or uuid.uuid4().hex
    return st.session_state[_VISITOR]


XSRF_COOKIE = "_streamlit_xsrf"  #: Streamlit's XSRF cookie: one random token per browser, masked anew per answer


def browser_token(cookie: str) -> str:
    """A digest of the token in a Streamlit XSRF cookie ``"2|mask|masked token|time"`` (the token is the masked token
    XOR the repeated mask), the same for every tab of the browser; ``""`` when the cookie is absent or malformed.

    >>> browser_token("2|01020304|0b0a0908|1") == browser_token("2|00000000|0a080a0c|2") != ""
    True
    >>> browser_token(""), browser_token("2|zz|00|1")
    ('', '')
    """
    parts = cookie.strip("\"'").split("|")
    try:
        mask, masked = bytes.fromhex(parts[1]), bytes.fromhex(parts[2])
    except (IndexError, ValueError):
        return ""
    if len(parts) != 4 or parts[0] != "2" or not mask or not masked:
        return ""
    token = bytes(byte ^ mask[i % len(mask)] for i, byte in enumerate(masked))
    return hashlib.sha256(token).hexdigest()[:16]


_INDEX_LOCK = threading.Lock()


@functools.cache
def _read_index(directory: Any) -> list[tuple[str, dict, Any, str | None]]:
    return stored_index(directory)


def _index() -> list[tuple[str, dict, Any, str | None]]:
    """The index of the stored results (function, parameters, file, what they were stored for), read once per
    server: the first session reads it, the others wait for it (a class opening a fresh server reads it once)."""
    with _INDEX_LOCK:
        return _read_index(PRECOMPUTED)


def _stored_calls() -> list[tuple[str, dict, Any]]:
    return [(function, params, path) for function, params, path, _ in _index()]


def _stored_nearby(function: str, params: str, size: str | None, run: int | str | None = ANY_RUN
                   ) -> tuple[SweepResult, int, int | None] | None:
    """A quick pass at hand: the stored result of ``function`` with ``params`` but another Monte Carlo size ``size``
    (trials) or another Monte Carlo run (``seed``), as ``(result, its size, its seed or None if the requested)``;
    from the run ``run`` only, unless it is :data:`ANY_RUN` (``None``: the requested run).

    Preferred: the requested run before another one; then fewer trials before more; then the nearest count."""
    wanted = json.loads(params)
    wanted_seed = run if isinstance(run, int) else wanted.get("seed")
    varying = {size, "seed"}
    others = {key: value for key, value in wanted.items() if key not in varying}
    candidates = [(stored.get("seed") != wanted.get("seed"), stored.get(size, 0) > wanted.get(size, 0),
                   abs(math.log(stored.get(size, 1) / wanted.get(size, 1))), str(path), stored)
                  for name, stored, path in _stored_calls()
                  if name == function.replace(":", ".") and stored != wanted
                  and {key: value for key, value in stored.items() if key not in varying} == others
                  and (run == ANY_RUN or stored.get("seed") == wanted_seed)]
    if not candidates:
        return None
    other_run, _, _, path, stored = min(candidates)
    return _stored_file(path), stored.get(size, 0), stored.get("seed") if other_run else None


def _stored_file(path: str) -> SweepResult:
    known = _loaded().get(path)
    return known[0] if known is not None else _loaded().put(path, (SweepResult.load(path),))[0]


def reproduction_mark(url_path: str) -> str:
    """The ``stored_for`` mark of the reproductions of the page at ``url_path``."""
    return f"reproduction:{url_path}"


def _reproduced(url_path: str) -> tuple[int, ...]:
    mark = reproduction_mark(url_path)
    return tuple(params["trials"] for _, params, _, stored_for in _index() if stored_for == mark and "trials" in params)


def reproduced_trials(url_path: str) -> tuple[int, ...]:
    """The trial counts of the stored reproductions of the page at ``url_path`` (read once per server): the page's
    trial control offers them beyond its slider."""
    return tuple(sorted(set(_reproduced(url_path))))


def previews(since: int = 0) -> list[Preview]:
    """The quick passes this script run has shown so far (from index ``since``); reset by :func:`start_run`."""
    return st.session_state.get(_PREVIEWS, [])[since:]


def start_run() -> None:
    """Begin a script run: its quick passes start empty, the previous run's are kept for :func:`release_superseded`
    (the page skeleton calls this first)."""
    st.session_state[_SUPERSEDED] = st.session_state.get(_PREVIEWS, [])
    st.session_state[_PREVIEWS] = []
    st.session_state[_PREVIEW_RUNS] = {}


def release_superseded() -> None:
    """Release the requested runs that the previous script run of this tab waited for and this one does not: the page
    has moved on (the page skeleton calls this once its sweeps are drawn). Those no other tab waits for are cancelled
    unless started."""
    current = {id(preview.future) for preview in previews()}
    _progressive().cancel([preview.future for preview in st.session_state.get(_SUPERSEDED, [])
                           if id(preview.future) not in current], _tab())
    st.session_state[_SUPERSEDED] = []


def queued_ahead(pending: list[Preview]) -> int:
    """How many requested runs, of any session, are queued ahead of those of ``pending`` on the shared worker."""
    return _progressive().ahead([preview.future for preview in pending])


def line_full() -> bool:
    """Whether the shared worker's line is full (:data:`ui.progressive.MAX_QUEUED` runs waiting)."""
    return _progressive().full()


def _complete(compute: Callable[[], Any], store: Callable[[Any], Any]) -> Any:
    """``compute()``, passed to ``store`` unless a sweep it ran was a quick pass (the next run shows the requested
    one, so a quick pass is never kept)."""
    shown = len(previews())
    value = compute()
    if len(previews()) == shown:
        store(value)
    return value


class _InFlight:
    """One lock per key being computed, held while one session computes it: the sessions asking for the same key
    meanwhile wait for that result instead of computing it too (a class opening one page on a fresh server)."""

    def __init__(self) -> None:
        self._locks: dict[Any, tuple[threading.Lock, int]] = {}  # key -> its lock, the sessions using it
        self._guard = threading.Lock()

    @contextlib.contextmanager
    def one(self, key: Any) -> Iterator[None]:
        with self._guard:
            lock, users = self._locks.get(key, (threading.Lock(), 0))
            self._locks[key] = lock, users + 1
        try:
            with lock:
                yield
        finally:
            with self._guard:
                lock, users = self._locks[key]
                if users == 1:
                    del self._locks[key]
                else:
                    self._locks[key] = lock, users - 1


_IN_FLIGHT = _InFlight()


def _once(cache: LruMap, key: Any, compute: Callable[[], Any]) -> Any:
    """``cache``'s value for ``key``, else ``compute()``, computed by one session at a time and kept (unless drawn from
    a quick pass: :func:`_complete`)."""
    known = cache.get(key)
    if known is not None:
        return known
    with _IN_FLIGHT.one(key):
        known = cache.get(key)
        return known if known is not None else _complete(compute, lambda value: cache.put(key, value))


@functools.cache
def _shared() -> LruMap:
    return LruMap(512)


def _shared_argument(value: Any) -> Any:
    return _qualified(value) if callable(value) else value


_PRIVATE = "_private_results"  # session-state key: this session's results computed from private arguments
PRIVATE_KEPT = 32  #: how many results of private arguments a session keeps (a few settings of one column)


def _digest(value: Any) -> str:
    """A digest of an argument for a session's own cache: bytes (an uploaded file) and arrays by their content, a
    function by its name, a JSON value by its JSON; anything else raises ``TypeError`` (no ``repr``, which
    abbreviates a long array)."""
    if isinstance(value, bytes):
        data = value
    elif hasattr(value, "tobytes") and hasattr(value, "dtype"):
        data = f"{value.dtype.str}{getattr(value, 'shape', ())}".encode() + value.tobytes()
    else:
        data = json.dumps(_shared_argument(value), sort_keys=True).encode()
    return hashlib.sha256(data).hexdigest()


def in_session(function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)`` computed in this session and kept in this session's memory only (the last
    :data:`PRIVATE_KEPT` results), keyed by a digest of the arguments (:func:`_digest`; with an argument it cannot
    digest, computed and not kept): for arguments that must not leave the session, such as a student's uploaded
    column. Never a cache shared by sessions, never the sweep worker."""
    try:
        key = (_qualified(function), tuple(_digest(value) for value in args),
               tuple((name, _digest(value)) for name, value in sorted(kwargs.items())))
    except TypeError:  # an argument with no digest: computed, not kept
        return function(*args, **kwargs)
    kept = st.session_state.setdefault(_PRIVATE, LruMap(PRIVATE_KEPT))
    known = kept.get(key)
    return known if known is not None else kept.put(key, function(*args, **kwargs))


def forget_private() -> None:
    """Drop every result this session computed from private arguments (:func:`in_session`): when a student's file is
    replaced or removed, nothing computed from it stays in the session."""
    st.session_state.pop(_PRIVATE, None)


def shared(function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)``: a lesson's computed text, table rows or question, computed once per setting and
    shared read-only by every session (never mutate it). Arguments are JSON values, or functions (such as
    ``run=ui.sweep``), keyed by their qualified name; with any other argument (an array: private data) the call is
    kept in this session only (:func:`in_session`); a value drawn from a quick pass is not kept, nor a call of a
    lambda or a nested function (their names are not unique)."""
    if "<" in _qualified(function):  # <lambda>, <locals>
        return function(*args, **kwargs)
    try:
        key = (_qualified(function), _arguments({"args": [_shared_argument(value) for value in args], "kwargs": {
            name: _shared_argument(value) for name, value in kwargs.items()}}))
    except TypeError:  # an argument that is no JSON value: private, kept in this session only
        return in_session(function, *args, **kwargs)
    return _once(_shared(), key, lambda: function(*args, **kwargs))


@functools.cache
def _figures() -> LruMap:
    """The figures drawn lately. A 50-session wave over every page, each student moving four controls, draws about
    300 figures (at 128 the second wave rebuilt most of them); as dictionaries 512 take a few tens of megabytes."""
    return LruMap(512)


def described(builder: Callable[..., go.Figure], presentation: bool, **kwargs: Any) -> tuple[Drawn, str]:
    """``builder(**kwargs, presentation=presentation)`` as drawn, and the one sentence that says what it shows
    (:func:`dpcore.viz.summary.figure_summary`), built once (``kwargs``: JSON values) and shared read-only by every
    session. A builder that runs sweeps takes them through its ``run`` argument: here, :func:`sweep`; a figure drawn
    from a quick pass is not kept, so the next run draws the requested one."""
    try:
        key = (_qualified(builder), _arguments(kwargs), presentation)
    except TypeError:  # an argument that is no JSON value (an uploaded column): private, built in this session only
        return in_session(_drawn, builder, presentation, **kwargs)
    runner = {"run": sweep} if "run" in inspect.signature(builder).parameters else {}
    return _once(_figures(), key, lambda: _drawn(builder, presentation, **json.loads(key[1]), **runner))


def _drawn(builder: Callable[..., go.Figure], presentation: bool, **kwargs: Any) -> tuple[Drawn, str]:
    """``builder(**kwargs, presentation=presentation)`` as drawn (Plotly's dictionary, made without Plotly's figure
    objects) and its sentence. Without ``run`` among ``kwargs`` a builder's sweeps run here, in this process (private
    data never goes to the shared worker)."""
    with dictionaries():
        fig = builder(**kwargs, presentation=presentation)
    drawn = Drawn(fig) if isinstance(fig, dict) else Drawn.of(fig)
    return drawn, figure_summary(drawn)


def figure(builder: Callable[..., go.Figure], presentation: bool, **kwargs: Any) -> Drawn:
    """The figure of :func:`described`."""
    return described(builder, presentation, **kwargs)[0]


def _literal(value: Any) -> str:
    """``value`` as Python source: its ``repr``, but ``float("inf")`` for an infinite float (``repr`` gives ``inf``,
    not a Python name)."""
    return f'float("{value}")' if isinstance(value, float) and math.isinf(value) else repr(value)


#: How to get ``dpcore`` (not on PyPI: it comes with the lab), said by every download (README, "dpcore in a notebook").
INSTALL = ("How to get dpcore, the lab's Python library (it is not on PyPI: it comes with the lab):",
           "in a copy of the lab's repository (the folder holding README.md and pyproject.toml), run",
           '    pip install -e ".[viz]"',
           "(numpy, scipy and plotly come with it; the README's section \"dpcore in a notebook\" says more).")


def snippet(builder: Callable[..., go.Figure], column_code: str | None = None, **kwargs: Any) -> str:
    """Python that rebuilds ``builder(**kwargs)`` in a notebook and prints its data (the page's CSV download).

    It starts by saying how to get ``dpcore`` (:data:`INSTALL`), which is not on PyPI. An array among ``kwargs`` (a
    student's column) is never written into the code: it is written as ``column``, which ``column_code`` defines
    (lines that read it from the student's own file); without ``column_code`` such a call is refused.

    >>> from dpcore.viz.figures import home
    >>> lines = snippet(home.neighbouring_densities, start="1").splitlines()
    >>> print(lines[-4])
    fig = home.neighbouring_densities(start='1')
    >>> any("pip install -e" in line for line in lines[:lines.index("from dpcore import viz")])
    True
    >>> from dpcore.viz.figures import truncation
    >>> print(snippet(truncation.clipping_window, moment_k=float("inf")).splitlines()[-4])
    fig = truncation.clipping_window(moment_k=float("inf"))
    """
    package, _, module = builder.__module__.rpartition(".")
    private = [name for name, value in kwargs.items() if hasattr(value, "dtype")]
    if private and column_code is None:
        raise ValueError(f"the snippet would hold the data of {private}: give the code that reads them")
    arguments = ", ".join(f"{name}={'column' if name in private else _literal(value)}"
                          for name, value in kwargs.items())
    return ('"""Rebuild a figure of Private Estimation Lab in a notebook: the same numbers as the page.\n\n'
            + "\n".join(INSTALL) + '\n"""\n'
            f"from dpcore import viz\nfrom {package} import {module}\n\n"
            + (f"{column_code}\n" if private else "")
            + f"fig = {module}.{builder.__name__}({arguments})\n"
            "print(viz.figure_table_csv(fig))  # the plotted numbers: the page's 'Data (CSV)' download\n"
            'if __name__ == "__main__":  # a notebook cell or `python snippet.py`: open the interactive figure\n'
            "    fig.show()\n")
