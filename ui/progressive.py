"""Sweeps that answer within a time budget: a quick pass with fewer trials now, the requested run in the background.

A lesson's Monte Carlo sweep can take a minute at a setting nobody stored. :func:`run` answers in about
``QUICK_SECONDS`` instead:

1. The requested run (all ``trials``, ``draws`` or ``budget``) is started on a small worker pool shared by every
   session; if it finishes within ``WAIT_SECONDS`` it is returned as is.
2. Otherwise a **quick pass** is returned: a stored run of the same sweep with fewer trials if there is one, else the
   same sweep at the same seed with as many trials as fit the budget, predicted from a two-trial probe (cost grows
   linearly with the trials: the engine vectorises over them). It is marked as a :class:`Preview` for the page, which
   says how many trials it shows and polls until the requested run is ready, then reruns: the figure ends at the
   numbers a cold server computes for the same URL (the requested run *is* that cold run; the quick pass never feeds
   into it).

Results are kept in bounded maps shared by all sessions (:class:`Bounded`). ``DPLAB_QUICK_SECONDS=inf`` (the test
suite's setting) turns the quick pass off: every call returns the requested run.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

__all__ = ["Bounded", "Preview", "QUICK_SECONDS", "WAIT_SECONDS", "Progressive", "quick_trials"]

QUICK_SECONDS = float(os.environ.get("DPLAB_QUICK_SECONDS", "0.2"))  #: budget of one sweep's quick pass
WAIT_SECONDS = min(0.05, QUICK_SECONDS)  #: how long the requested run may take before a quick pass is shown instead
MIN_TRIALS = 2  #: a quick pass has a band: at least two trials
#: The Monte Carlo size parameter of a sweep, by name, and what it counts (for the page's note). A "budget" (samples
#: per grid point, at least 20 trials each) does not shrink below the cost of its smallest run: only a stored run with
#: a smaller budget previews it.
UNITS = {"trials": "trials", "draws": "draws", "budget": "simulated samples"}
PROBED = ("trials", "draws")


class Bounded:
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
    """A quick pass on screen: ``trials`` of the ``requested`` ones (``unit``: "trials" or "draws"); ``ready`` tells
    when the requested run is done."""

    trials: int
    requested: int
    unit: str
    future: Future

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


class Progressive:
    """The shared state of progressive sweeps: a worker pool for requested runs and bounded result maps."""

    def __init__(self, workers: int = 1, size: int = 128) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="dplab-sweep")
        self._requested = Bounded(size)   # key -> Future of the requested run
        self._quick = Bounded(size)       # key -> (SweepResult, trials) of its quick pass
        self._lock = threading.Lock()

    def _future(self, key: str, call: Callable[[], Any]) -> Future:
        with self._lock:
            future = self._requested.get(key)
            if future is None or future.cancelled():
                future = self._requested.put(key, self._pool.submit(call))
        return future

    def run(self, key: str, function: Callable[..., Any], params: dict[str, Any],
            fewer: Callable[[str], tuple[Any, int] | None] = lambda size: None) -> tuple[Any, Preview | None]:
        """``function(**params)`` if it is (or becomes, within :data:`WAIT_SECONDS`) ready, else a quick pass with
        fewer ``params["trials"]`` and its :class:`Preview`. Errors of the function propagate unchanged.

        ``fewer(size)`` may offer a result already at hand (stored) for the same parameters with fewer trials, as
        ``(result, trials)``: it is the quick pass then, with no computation."""
        future = self._future(key, lambda: function(**params))
        size = next((name for name in UNITS if name in params), None)
        requested = int(params[size]) if size else MIN_TRIALS
        if math.isinf(QUICK_SECONDS) or requested <= MIN_TRIALS:  # off, or a sweep without trials (exact)
            return future.result(), None
        quick = self._quick.get(key)
        if quick is None:
            try:
                return future.result(timeout=WAIT_SECONDS), None
            except TimeoutError:
                pass
            quick = fewer(size) or (self._quick_pass(function, params, size, requested) if size in PROBED else None)
            if quick is None:
                return future.result(), None
            self._quick.put(key, quick)
        result, trials = quick
        if future.done():  # finished while the quick pass ran
            return future.result(), None
        return result, Preview(trials, requested, UNITS[size], future)

    @staticmethod
    def _quick_pass(function: Callable[..., Any], params: dict[str, Any], size: str, requested: int
                    ) -> tuple[Any, int]:
        start = time.perf_counter()
        probe = function(**{**params, size: MIN_TRIALS})
        trials = quick_trials(time.perf_counter() - start, MIN_TRIALS, requested, QUICK_SECONDS)
        if trials <= MIN_TRIALS:
            return probe, MIN_TRIALS
        return function(**{**params, size: trials}), trials
