r"""The Monte Carlo engine: estimators x parameter grid x trials, vectorised over trials.

Every page's "error versus n, epsilon, k" figure comes from :func:`run_sweep`. A sweep takes

* ``sample(data_params, trials, rng)``: draws ``trials`` independent datasets **at once** (e.g. an
  array of shape ``(trials, n)``) from the parameters that change the data;
* ``estimators``: ``{name: estimator(data, params, rng) -> errors}``, each returning the per-trial
  error, shape ``(trials,)``, computed with array operations over the trial axis;
* ``grid``: the parameter axes, ``{"n": [...], "epsilon": [...]}``, of which ``data_parameters``
  (e.g. ``("n",)``) change the data and the others (epsilon, delta, ...) only the estimator.

**Vectorisation.** There is no Python loop over trials: one call of ``sample`` draws all datasets of
a data-parameter combination and one call of an estimator privatises all of them. The Python-level
work per grid point is constant (a dict, a generator, one estimator call, a few reductions), so a
sweep costs about what its random draws and array arithmetic cost (``benchmarks/bench_engine.py``).

**Common random numbers (CRN).** The data for a data-parameter combination are drawn once, from the
stream ``child_generator(seed, "data", *data values)``, and reused by every method at every value of
the other parameters. Each method's noise comes from ``child_generator(seed, "noise", method,
*data values)``, started afresh at each value of the other parameters: the same data and the same
noise draws at epsilon = 1 and epsilon = 2, so an epsilon animation moves only because epsilon moved,
and the difference between two methods is not blurred by independent data. Different methods get
independent noise; different data-parameter combinations get independent data. Streams are keyed by
values, not positions, so a sweep over ``n = [100, 1000]`` and one over ``n = [100]`` see the same data
at ``n = 100``. Datasets returned as NumPy arrays are made read-only, since every method shares them.

Summaries per grid point and method: median and a quantile band (default 10 %–90 %) of the errors,
their mean and root mean square, the number of trials, and the raw errors themselves.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.validation import Constraint, InstanceOf, validated
from .engine import SweepResult

__all__ = ["STORE_VARIABLE", "compute", "load_or_run", "rerun_stored"]



#: Set this environment variable to store every :func:`load_or_run` miss (``./lab.sh precompute``).
STORE_VARIABLE = "DPLAB_STORE_PRECOMPUTED"



def _call_arguments(params: dict) -> dict:
    """JSON parameters as the function expects them: lists of numbers become arrays, names stay lists."""
    def convert(value: Any) -> Any:
        numeric = isinstance(value, list) and all(isinstance(v, (int, float)) for v in value)
        return np.asarray(value) if numeric else value
    return {key: convert(value) for key, value in params.items()}



def _stored_path(directory: Path, function: Callable[..., SweepResult], params: dict) -> Path:
    name = f"{function.__module__}.{function.__qualname__}"
    digest = hashlib.sha256(json.dumps([name, params], sort_keys=True).encode()).hexdigest()[:16]
    return Path(directory) / f"{function.__name__}-{digest}.npz"



@dataclass(frozen=True)
class _SweepFunction(Constraint):
    """A module-level function returning a SweepResult (stored files must name an importable function)."""

    def describe(self) -> str:
        return "a module-level function returning a SweepResult"

    def check(self, name: str, value: Any) -> Callable[..., SweepResult]:
        if not callable(value) or "<" in getattr(value, "__qualname__", "<"):
            self.fail(name, value, TypeError)
        return value

    def bad_values(self) -> list[Any]:
        return [None, "dpcore.lessons.truncation.error_sweep", lambda: None]



@validated(function=_SweepFunction())
def load_or_run(directory: str | Path, function: Callable[..., SweepResult], **params: Any) -> SweepResult:
    """``function(**params)``, served from ``directory`` when it was precomputed for exactly these parameters.

    Pages use it for their default state, so a whole class opening the default page is served at once
    (design.md). ``params`` must be JSON values (lists, not arrays). A stored file records the function
    and parameters; ``tests/test_precomputed.py`` recomputes every one and compares. With the environment
    variable ``DPLAB_STORE_PRECOMPUTED`` set, a miss is computed and stored.
    """
    path = _stored_path(directory, function, params)
    if path.exists():
        return SweepResult.load(path)
    result = function(**_call_arguments(params))
    if os.environ.get(STORE_VARIABLE):
        path.parent.mkdir(parents=True, exist_ok=True)
        result.save(path, function=f"{function.__module__}.{function.__qualname__}", params=params)
    return result



@validated(path=InstanceOf(Path, "a pathlib.Path to a stored .npz result"))
def rerun_stored(path: Path) -> tuple[SweepResult, SweepResult]:
    """(the stored result, a fresh run of the function and parameters it records): for tests."""
    with np.load(path) as stored:
        meta = json.loads(str(stored["meta"]))
    module, _, name = meta["function"].rpartition(".")
    function = getattr(importlib.import_module(module), name)
    return SweepResult.load(path), function(**_call_arguments(meta["params"]))


@validated(function=_SweepFunction())
def compute(function: Callable[..., SweepResult], **params: Any) -> SweepResult:
    """``function(**params)``, now: the runner a lesson uses by default.

    Lessons take their sweeps through a ``run`` argument so that the app can pass its own runner instead (stored
    results, a bounded cache) while a notebook gets exactly the same numbers by calling the lesson directly.
    """
    return function(**params)
