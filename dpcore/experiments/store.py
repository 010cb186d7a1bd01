"""Stored sweep results: a precomputed result is served when its function and parameters match.

The app serves a class's default pages from ``assets/precomputed`` through :func:`load_or_run`; a stored file records
the function and parameters that made it, so a test can recompute it (:func:`rerun_stored`). :func:`run_now` is the
plain runner a lesson uses outside the app.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.validation import Constraint, InstanceOf, validated
from .engine import SweepResult

__all__ = ["run_now", "load_or_run", "load_stored", "rerun_stored", "stored_calls", "stored_index"]


def _call_arguments(params: dict) -> dict:
    """JSON parameters as the function expects them: lists of numbers become arrays, names stay lists."""
    def convert(value: Any) -> Any:
        numeric = isinstance(value, list) and all(isinstance(v, (int, float)) for v in value)
        return np.asarray(value) if numeric else value
    return {key: convert(value) for key, value in params.items()}


def _stored_path(directory: str | Path, function: Callable[..., SweepResult], params: dict) -> Path:
    name = f"{function.__module__}.{function.__qualname__}"
    digest = hashlib.sha256(json.dumps([name, params], sort_keys=True).encode()).hexdigest()[:16]
    return Path(directory) / f"{function.__name__}-{digest}.npz"


@dataclass(frozen=True)
class _Directory(Constraint):
    """A directory's path, as a non-empty ``str`` or a ``pathlib.Path`` (it need not exist yet)."""

    def describe(self) -> str:
        return "a directory's path (a non-empty str or a pathlib.Path)"

    def check(self, name: str, value: Any) -> Path:
        if not isinstance(value, (str, Path)) or str(value) == "":
            self.fail(name, value)
        return Path(value)

    def bad_values(self) -> list[Any]:
        return [None, "", 3.0, b"assets"]


_DIRECTORY = _Directory()


@dataclass(frozen=True)
class _Label(Constraint):
    """What a stored file is stored for: a non-empty one-line string (``"defaults"``, ``"grid"``, ...)."""

    def describe(self) -> str:
        return "a non-empty one-line string, e.g. 'defaults'"

    def check(self, name: str, value: Any) -> str:
        if not isinstance(value, str) or not value or "\n" in value:
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        return ["", 3.0, "two\nlines"]


@dataclass(frozen=True)
class _SweepFunction(Constraint):
    """A module-level function returning a SweepResult (stored files must name an importable function)."""

    def describe(self) -> str:
        return "a module-level function returning a SweepResult"

    def check(self, name: str, value: Any) -> Callable[..., SweepResult]:
        if not callable(value) or "<" in getattr(value, "__qualname__", "<"):
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        return [None, "dpcore.lessons.truncation.error_sweep", lambda: None]


@validated(function=_SweepFunction())
def load_stored(directory: str | Path, function: Callable[..., SweepResult], **params: Any) -> SweepResult | None:
    """The result of ``function(**params)`` stored in ``directory``, or ``None`` if it was not precomputed."""
    path = _stored_path(directory, function, params)
    return SweepResult.load(path) if path.exists() else None


@validated(function=_SweepFunction(), store_as=_Label())
def load_or_run(directory: str | Path, function: Callable[..., SweepResult], *, store_as: str | None = None,
                **params: Any) -> SweepResult:
    """``function(**params)``, served from ``directory`` when it was precomputed for exactly these parameters.

    Pages use it for their default state and the settings one move away, so a whole class opening or exploring a
    page is served at once (docs/design.md §4). ``params`` must be JSON values (lists, not arrays). A stored file
    records the function and parameters; ``tests/test_precomputed.py`` recomputes them and compares. With
    ``store_as`` (what the file is stored for, e.g. ``"defaults"``, recorded as its ``stored_for``), a miss is
    computed and stored in ``directory``: its summaries (what the figures draw), not its per-trial errors (a served
    result has ``errors=None``), so that the store stays small.
    """
    stored = load_stored(directory, function, **params)
    if stored is not None:
        return stored
    result = function(**_call_arguments(params))
    if store_as is not None:
        path = _stored_path(directory, function, params)
        path.parent.mkdir(parents=True, exist_ok=True)
        result.save(path, per_trial=False, function=f"{function.__module__}.{function.__qualname__}",
                    params=params, stored_for=store_as)
    return result


@validated(directory=_DIRECTORY)
def stored_index(directory: str | Path) -> list[tuple[str, dict, Path, str | None]]:
    """(function's qualified name, parameters, file, what it was stored for: :func:`load_or_run`'s ``store_as``) of
    every result stored in ``directory``, read in one pass."""
    index = []
    for path in sorted(Path(directory).glob("*.npz")):
        with np.load(path) as stored:
            meta = json.loads(str(stored["meta"]))
        index.append((meta["function"], meta["params"], path, meta.get("stored_for")))
    return index


@validated(directory=_DIRECTORY)
def stored_calls(directory: str | Path, stored_for: str | None = None) -> list[tuple[str, dict, Path]]:
    """(function's qualified name, parameters, file) of every result stored in ``directory`` (only those stored
    for ``stored_for``, :func:`load_or_run`'s ``store_as``, if given)."""
    return [(function, params, path) for function, params, path, mark in stored_index(directory)
            if stored_for is None or mark == stored_for]


@validated(path=InstanceOf(Path, "a pathlib.Path to a stored .npz result"))
def rerun_stored(path: Path) -> tuple[SweepResult, SweepResult]:
    """(the stored result, a fresh run of the function and parameters it records): for tests."""
    with np.load(path) as stored:
        meta = json.loads(str(stored["meta"]))
    module, _, name = meta["function"].rpartition(".")
    function = getattr(importlib.import_module(module), name)
    return SweepResult.load(path), function(**_call_arguments(meta["params"]))


@validated(function=_SweepFunction())
def run_now(function: Callable[..., SweepResult], **params: Any) -> SweepResult:
    """``function(**params)``, now: the runner a lesson uses by default.

    Lessons take their sweeps through a ``run`` argument so that the app can pass its own runner instead (stored
    results, a bounded cache) while a notebook gets exactly the same numbers by calling the lesson directly.
    """
    return function(**params)
