"""Sweeps that answer within a time budget: a quick pass with fewer trials now, the requested run in the background.

A lesson's Monte Carlo sweep can take a minute at a setting nobody stored. :func:`run` answers in about
``QUICK_SECONDS`` instead:

1. The requested run (all ``trials``, ``draws`` or ``budget``) is started on a worker shared by every session (a
   separate process in the app).
2. A **quick pass** is returned at once if one is at hand: a stored run of the same sweep that differs only in its
   trial count or in its Monte Carlo run (seed). Otherwise the requested run is returned if it finishes within
   ``WAIT_SECONDS``, else a quick pass is computed: the same sweep at the same seed with as many trials as fit the
   budget, predicted from a two-trial probe (cost grows linearly with the trials: the engine vectorises over them).
   It is marked as a :class:`Preview` for the page, which says what it shows and polls until the requested run is
   ready, then reruns: the figure ends at the numbers a cold server computes for the same URL (the requested run
   *is* that cold run; the quick pass never feeds into it).

The worker pool serves every visitor fairly: each visitor's requested runs wait in their own line, and a free worker
takes the next run of the visitor it has served least so far (worker seconds, then runs started): one visitor opening
five heavy settings costs a student at most the one heavy run in progress, not all five. A visitor keeps at most
:data:`MAX_WAITING` runs waiting: a newer request drops the oldest (a superseded request). A page says how many runs
are ahead of its own (:meth:`Progressive.ahead`), and a page that moved on cancels the runs it no longer shows that
have not started (:meth:`Progressive.cancel`), so a student dragging a slider does not queue every position they
passed.

Results are kept in bounded maps shared by all sessions (:class:`LruMap`). ``DPLAB_QUICK_SECONDS=inf`` (the test
suite's setting) turns the quick pass off: every call returns the requested run.

**No orphan.** A worker process dies with its server, however the server dies (SIGKILL included): it asks Linux for
SIGKILL when its parent dies (:func:`deploy.lifeline.die_with_parent`), and multiprocessing's resource tracker exits
once the server and the worker, the holders of its pipe, are gone. Linux sends that signal when the *thread* that
started the process exits, and a Streamlit script run's thread ends with the run: every worker process is started
(and every run handed to the pool, which may start one) on one thread that lasts as long as the server
(:func:`_on_starter`).
"""

from __future__ import annotations

import contextlib
import functools
import math
import multiprocessing
import os
import queue
import sys
import threading
import time
import types
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import BrokenExecutor, CancelledError, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from deploy.lifeline import sweep_worker

__all__ = ["ANY_RUN", "LruMap", "Preview", "QUICK_SECONDS", "WAIT_SECONDS", "MAX_WAITING", "MAX_QUEUED", "Progressive",
           "quick_trials"]

QUICK_SECONDS = float(os.environ.get("DPLAB_QUICK_SECONDS", "0.2"))  #: budget of one sweep's quick pass
WAIT_SECONDS = min(0.05, QUICK_SECONDS)  #: how long the requested run may take before a quick pass is shown instead
MIN_TRIALS = 2  #: a quick pass has a band: at least two trials
#: Requested runs one session may have waiting for the worker; a newer one drops its oldest. More than one page asks for
#: at once (the tournament page: 13 sweeps), so a page never drops its own: serving the least served first is what
#: keeps one visitor from starving the others, and a page that moves on cancels its superseded runs itself.
MAX_WAITING = 16
#: Requested runs waiting in all, every visitor together; beyond it the oldest run of the longest line is dropped (its
#: page asks for it again when it next refreshes), and pages say that the line is full.
MAX_QUEUED = 64
#: The Monte Carlo size parameter of a sweep, by name, and what it counts (for the page's note). A "budget" (samples
#: per grid point, at least 20 trials each) does not shrink below the cost of its smallest run: its quick pass is a
#: stored run with a smaller budget, else that smallest run (:data:`SMALLEST_BUDGET`), computed whatever it costs (1–2 s
#: for the truncation page): a page never waits for the whole requested run with nothing to show.
UNITS = {"trials": "trials", "draws": "draws", "budget": "simulated samples"}
PROBED = ("trials", "draws")
SMALLEST_BUDGET = 1000  #: a budget this small gives every grid point its fewest trials
#: A quick pass may come from any Monte Carlo run (see :meth:`Progressive.run`'s ``quick_run``).
ANY_RUN = "any"


class LruMap:
    """A thread-safe least-recently-used map of at most ``size`` entries."""

    def __init__(self, size: int) -> None:
        self._items: OrderedDict = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self._lock:
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key: Any, value: Any) -> Any:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return value


@dataclass(frozen=True)
class Preview:
    """A quick pass on screen: ``trials`` of the ``requested`` ones (``unit``: "trials", "draws", ...), from the
    Monte Carlo run ``run`` when that is not the requested ``requested_run`` (else both ``None``); ``ready`` tells when
    the requested run is done."""

    trials: int
    requested: int
    unit: str
    future: Future
    run: int | None = None
    requested_run: int | None = None
    restarted: bool = False  #: the requested run started over: the worker computing it had stopped

    @property
    def ready(self) -> bool:
        return self.future.done()


def quick_trials(probe_seconds: float, probe_trials: int, requested: int, budget: float) -> int:
    """Trials that fit ``budget`` seconds when ``probe_trials`` took ``probe_seconds`` (linear cost; the probe's fixed
    overhead makes the estimate err on the fast side), between :data:`MIN_TRIALS` and ``requested``.

    >>> quick_trials(0.1, 2, 2000, 0.4), quick_trials(0.001, 2, 100, 0.4), quick_trials(3.0, 2, 100, 0.4)
    (8, 100, 2)
    """
    per_trial = max(probe_seconds, 1e-9) / probe_trials
    return int(min(requested, max(MIN_TRIALS, math.floor(budget / per_trial))))


@contextlib.contextmanager
def _worker_start() -> Iterator[None]:
    """While worker processes start: one BLAS thread for them (OpenBLAS reads it when numpy loads), and a
    ``__main__`` without a file. A spawned process first re-imports the parent's ``__main__`` from its file, and
    Streamlit runs each page script as ``__main__``: a worker must never run a page."""
    running, threads = sys.modules["__main__"], os.environ.get("OPENBLAS_NUM_THREADS")
    sys.modules["__main__"], os.environ["OPENBLAS_NUM_THREADS"] = types.ModuleType("__main__"), "1"
    try:
        yield
    finally:
        sys.modules["__main__"] = running
        if threads is None:
            del os.environ["OPENBLAS_NUM_THREADS"]
        else:
            os.environ["OPENBLAS_NUM_THREADS"] = threads


_STARTS: queue.SimpleQueue[tuple[Future, Callable[[], Any]]] = queue.SimpleQueue()
_STARTER: list[threading.Thread] = []  # the starter thread, once started
_STARTER_LOCK = threading.Lock()


def _start_calls() -> None:
    """The starter thread's loop: run each call put on :data:`_STARTS` and settle its future; never returns."""
    while True:
        done, call = _STARTS.get()
        if done.set_running_or_notify_cancel():
            try:
                done.set_result(call())
            except BaseException as error:  # handed to the caller, which raises it
                done.set_exception(error)


def _on_starter(call: Callable[[], Any]) -> Any:
    """``call()`` on the thread that starts every worker process, started on first use, a daemon that lasts as long
    as this process (the workers' parent-death signal follows the thread that started them); returns its result or
    raises its error. Called from that thread itself, it runs the call at once."""
    with _STARTER_LOCK:
        if not _STARTER:
            _STARTER.append(threading.Thread(target=_start_calls, name="dplab-worker-starter", daemon=True))
            _STARTER[0].start()
    if threading.current_thread() is _STARTER[0]:
        return call()
    done: Future = Future()
    _STARTS.put((done, call))
    return done.result()


def _exception(future: Future) -> BaseException | None:
    """The exception of a finished, not cancelled ``future`` (else ``None``)."""
    return future.exception() if future.done() and not future.cancelled() else None


class Progressive:
    """The shared state of progressive sweeps: a worker pool for requested runs, the visitor served least so far first
    (each with at most :data:`MAX_WAITING` runs waiting, :data:`MAX_QUEUED` in all), and bounded result maps.

    A waiting run knows the browser tabs waiting for it: a tab that moves on releases it (:meth:`cancel`), and it is
    cancelled once no tab waits for it, or when every tab waiting for it has closed (``alive(tab)`` is false)."""

    def __init__(self, workers: int = 1, size: int = 128, processes: bool = False,
                 alive: Callable[[str], bool] = lambda tab: True) -> None:
        self._workers, self._processes = workers, processes
        self._pool = self._new_pool()
        self._requested = LruMap(size)   # key -> Future of the requested run
        self._quick = LruMap(size)       # key -> (SweepResult, trials, run) of its quick pass
        self._restarted = LruMap(size)   # key -> True: its requested run started over after its worker stopped
        self._waiting: dict[str, deque[tuple[Future, Callable[[], Any]]]] = {}  # session -> its runs not started
        self._arrived: dict[str, int] = {}  # visitor with runs waiting -> when their line opened (ties go first)
        self._served = LruMap(4096)  # visitor -> (worker seconds, runs started) so far
        self._running: dict[Future, tuple[str, float]] = {}  # run -> its visitor, its start (perf_counter)
        self._arrivals = 0
        self._wanted: weakref.WeakKeyDictionary[Future, set[str]] = weakref.WeakKeyDictionary()  # run -> tabs waiting
        self._alive = alive
        self._lock = threading.RLock()    # reentrant: a run done at once calls back _finished under the lock

    def _new_pool(self) -> Executor:
        """Threads, or worker processes (``processes=True``, the app's choice): a sweep then never holds the pages'
        interpreter lock, runs at a lower priority than the pages, and its BLAS uses one thread; each worker dies
        with this process (started on the starter thread: :func:`_on_starter`)."""
        if not self._processes:
            return ThreadPoolExecutor(max_workers=self._workers, thread_name_prefix="dplab-sweep")
        return _on_starter(self._start_pool)

    def _start_pool(self) -> Executor:
        pool = ProcessPoolExecutor(max_workers=self._workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=sweep_worker, initargs=(os.getpid(), 10))
        with _worker_start():
            pool.submit(os.getpid)  # starts the workers now, not on a student's first request
        return pool

    def _submit(self, call: Callable[[], Any]) -> Future:
        """Hand ``call`` to the pool: on the starter thread when the pool has processes (a submission may start one)."""
        return _on_starter(functools.partial(self._submit_now, call)) if self._processes else self._submit_now(call)

    def _submit_now(self, call: Callable[[], Any]) -> Future:
        try:
            return self._pool.submit(call)
        except BrokenExecutor:  # a worker process died (e.g. out of memory): start afresh
            self._pool = self._new_pool()
            return self._pool.submit(call)

    def _future(self, key: str, call: Callable[[], Any], session: str = "", tab: str = "") -> Future:
        """The requested run of ``key`` (a picklable ``call`` when the pool has processes), waited for by ``tab``,
        queued in ``session``'s line if needed (a session's oldest waiting run is dropped beyond :data:`MAX_WAITING`,
        the oldest of the longest line beyond :data:`MAX_QUEUED` in all)."""
        with self._lock:
            future = self._requested.get(key)
            if future is None or future.cancelled() or isinstance(_exception(future), BrokenExecutor):
                if future is not None and isinstance(_exception(future), BrokenExecutor):
                    self._restarted.put(key, True)
                future = self._requested.put(key, Future())
                self._drop_closed()
                line = deque(entry for entry in self._waiting.get(session, ()) if not entry[0].cancelled())
                line.append((future, call))
                while len(line) > MAX_WAITING:
                    line.popleft()[0].cancel()
                self._waiting[session] = line
                if session not in self._arrived:
                    self._arrived[session], self._arrivals = self._arrivals, self._arrivals + 1
                while self.queued() > MAX_QUEUED:
                    longest = max(self._waiting, key=lambda other: (self._live_count(other), -self._arrived[other]))
                    self._waiting[longest].popleft()[0].cancel()
                    if not self._waiting[longest]:
                        del self._waiting[longest], self._arrived[longest]
            if not future.done():
                self._wanted.setdefault(future, set()).add(tab)
            self._dispatch()
        return future

    def _live_count(self, session: str) -> int:
        return sum(not entry[0].cancelled() for entry in self._waiting[session])

    def queued(self) -> int:
        """Requested runs waiting (not started, not cancelled), every visitor together."""
        with self._lock:
            return sum(map(self._live_count, self._waiting))

    def full(self) -> bool:
        """Whether the line is full (:data:`MAX_QUEUED` runs waiting): new requests then push out older ones."""
        return self.queued() >= MAX_QUEUED

    def _drop_closed(self) -> None:
        """Cancel the waiting runs that only closed tabs were waiting for (under the lock)."""
        for line in self._waiting.values():
            for future, _ in line:
                if not future.cancelled() and not self._wanted_by_an_open_tab(future):
                    future.cancel()

    def _wanted_by_an_open_tab(self, future: Future) -> bool:
        wanted = {tab for tab in self._wanted.get(future, ()) if self._alive(tab)}
        self._wanted[future] = wanted
        return bool(wanted)

    def _turn(self, session: str) -> tuple[float, int, int]:
        """Who the worker serves first: the least worker time so far, then the fewest runs started, then the first
        to arrive."""
        seconds, started = self._served.get(session) or (0.0, 0)
        return seconds, started, self._arrived[session]

    def _dispatch(self) -> None:
        """Start waiting runs while a worker is free, each from the visitor served least so far (under the lock)."""
        while len(self._running) < self._workers and self._waiting:
            session = min(self._waiting, key=self._turn)
            future, call = self._waiting[session].popleft()
            if not self._waiting[session]:
                del self._waiting[session], self._arrived[session]
            if not future.cancelled() and not self._wanted_by_an_open_tab(future):
                future.cancel()  # every tab waiting for it has closed
            if not future.set_running_or_notify_cancel():  # cancelled while it waited
                continue
            seconds, started = self._served.get(session) or (0.0, 0)
            self._served.put(session, (seconds, started + 1))
            self._running[future] = session, time.perf_counter()
            self._submit(call).add_done_callback(functools.partial(self._finished, future))

    def _finished(self, future: Future, computed: Future) -> None:
        with self._lock:
            self._wanted.pop(future, None)
            session, began = self._running.pop(future)
            seconds, started = self._served.get(session) or (0.0, 0)
            self._served.put(session, (seconds + time.perf_counter() - began, started))
            self._dispatch()
        error = computed.exception() if not computed.cancelled() else CancelledError()
        if error is None:
            future.set_result(computed.result())
        else:
            future.set_exception(error)

    def _result(self, key: str, call: Callable[[], Any], timeout: float | None = None, session: str = "",
                tab: str = "") -> Any:
        """The requested run's result (waiting up to ``timeout``); resubmitted if a page that moved on cancelled it."""
        while True:
            try:
                return self._future(key, call, session, tab).result(timeout)
            except CancelledError:
                continue

    def ahead(self, futures: Sequence[Future]) -> int:
        """How many requested runs the worker will start or is running before the first waiting one of ``futures``
        (the queue in front of a page, estimated from who is served least so far; 0 when one of them is running or
        all are done)."""
        with self._lock:
            if any(future in self._running for future in futures):
                return 0
            lines = {session: [entry[0] for entry in line if not entry[0].cancelled()]
                     for session, line in self._waiting.items()}
            mine = [(session, line.index(future)) for session, line in lines.items() for future in futures
                    if future in line]
            if not mine:
                return 0
            session, place = min(mine, key=lambda found: found[1])
            served_first = {other: self._turn(other) < self._turn(session) for other in lines}
            return len(self._running) + place + sum(min(len(line), place + served_first[other])
                                                    for other, line in lines.items() if other != session)

    def cancel(self, futures: Sequence[Future], tab: str = "") -> None:
        """``tab`` no longer waits for the requested runs of ``futures`` (its page moved on to other settings): those
        no other tab waits for are cancelled unless started (one asked for again is resubmitted by the request)."""
        with self._lock:
            for future in futures:
                wanted = self._wanted.get(future, set())
                wanted.discard(tab)
                if not wanted:
                    self._wanted.pop(future, None)
                    future.cancel()

    def run(self, key: str, function: Callable[..., Any], params: dict[str, Any],
            nearby: Callable[[str], tuple[Any, int, int | None] | None] = lambda size: None, session: str = "",
            quick_run: int | str | None = ANY_RUN, tab: str = "") -> tuple[Any, Preview | None]:
        """``function(**params)`` if it is (or becomes, within :data:`WAIT_SECONDS`) ready, else a quick pass with
        fewer ``params["trials"]`` and its :class:`Preview`. Errors of the function propagate unchanged. The requested
        run waits in the line of the visitor ``session`` (the least served first), wanted by the browser tab ``tab``.

        ``nearby(size)`` may offer a result already at hand (stored) for the same parameters but another trial count
        ``size`` or another Monte Carlo run, as ``(result, trials, run)`` (``run``: its seed, ``None`` when it is the
        requested one): it is the quick pass then, with no computation. ``quick_run`` is the Monte Carlo run the answer
        must come from, for sweeps that a lesson joins into one result: :data:`ANY_RUN`, ``None`` (the requested one)
        or another seed; then the answer is a quick pass from that run (stored, or computed now at that seed) even if
        the requested run is ready: the page shows it once every part of the join has its requested run."""
        call = functools.partial(function, **params)
        size = next((name for name in UNITS if name in params), None)
        requested = int(params[size]) if size is not None else MIN_TRIALS
        if size is None or math.isinf(QUICK_SECONDS) or requested <= MIN_TRIALS:  # off, or no trials (exact)
            return self._result(key, call, session=session, tab=tab), None
        future = self._future(key, call, session, tab)
        quick = self._quick.get(key)
        if quick is not None and quick_run != ANY_RUN and quick[2] != quick_run:
            quick = None
        quick = quick or nearby(size)  # a result at hand is shown at once
        other_run = quick_run if isinstance(quick_run, int) else None
        if quick is None:
            if other_run is None:
                try:
                    return self._result(key, call, WAIT_SECONDS, session, tab), None
                except TimeoutError:
                    pass
            if size not in PROBED and requested <= SMALLEST_BUDGET and other_run is None:
                return self._result(key, call, session=session, tab=tab), None
            quick = self._quick_pass(function, params, size, requested, other_run)
        self._quick.put(key, quick)
        result, trials, run = quick
        if future.done() and other_run is None:  # finished while the quick pass ran
            return self._result(key, call, session=session, tab=tab), None
        return result, Preview(trials, requested, UNITS[size], future, run, None if run is None else params["seed"],
                               restarted=self._restarted.get(key) is not None)

    @staticmethod
    def _quick_pass(function: Callable[..., Any], params: dict[str, Any], size: str, requested: int,
                    run: int | None = None) -> tuple[Any, int, int | None]:
        """The sweep with as many trials as fit :data:`QUICK_SECONDS` (a budget: :data:`SMALLEST_BUDGET`), at the
        requested seed or at seed ``run``."""
        params = params if run is None else {**params, "seed": run}
        if size not in PROBED:
            return function(**{**params, size: SMALLEST_BUDGET}), SMALLEST_BUDGET, run
        start = time.perf_counter()
        probe = function(**{**params, size: MIN_TRIALS})
        trials = quick_trials(time.perf_counter() - start, MIN_TRIALS, requested, QUICK_SECONDS)
        if trials <= MIN_TRIALS:
            return probe, MIN_TRIALS, run
        return function(**{**params, size: trials}), trials, run
