"""Store the sweeps the pages show, so that a class finds them ready: ``./lab.sh precompute``.

For every page with Monte Carlo sweeps, its settings module (:mod:`app_pages.settings`) names the sweeps it shows at
given control values (``sweeps(values, run)``); each one not stored yet is computed and written to
``assets/precomputed`` (:func:`dpcore.experiments.load_or_run`):

1. at the page's defaults (files marked ``stored_for="defaults"``);
2. then on its grid (:func:`ui.params.grid_settings`; files marked ``stored_for="grid"``), at the default Monte Carlo
   run: every combination of its ``crossed`` controls (the partitioning-rounds page's ε, d and profile, too slow to
   compute live) and every option of every other discrete control but the trial count, one move away from the
   defaults. Every slider position reached from the default page is then a lookup, and a fresh Monte Carlo run or
   trial count at these settings is previewed by a stored run of the same sweep (:mod:`ui.progressive`).

No page is run: the lessons' sweep functions are called directly, with the store as their runner.
"""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from dpcore.experiments import SweepResult, load_or_run
from registry import PAGES, PageInfo

from .compute import PRECOMPUTED
from .params import ParamSpec, grid_settings, parse_param

__all__ = ["page_settings", "page_controls", "settings_values", "store_page", "main"]

#: How a sweep is stored: ``runner(directory, function, store_as=mark, **params)`` (:func:`load_or_run`'s call).
Runner = Callable[..., SweepResult]


def page_settings(info: PageInfo) -> ModuleType:
    """The settings module of the page ``info`` (``app_pages/settings/<script's name>.py``)."""
    return importlib.import_module(f"app_pages.settings.{Path(info.script).stem}")


def page_controls(settings: ModuleType) -> list[ParamSpec]:
    """Every control of a page, from its settings module: the sidebar's (``SPECS``), then those in the page
    (``IN_PAGE``)."""
    return [*settings.SPECS, *getattr(settings, "IN_PAGE", ())]


def settings_values(specs: Sequence[ParamSpec], query: dict[str, str] | None = None) -> dict[str, Any]:
    """The control values of a page opened with the URL query ``query``: each control's default, or its value in
    ``query`` (by its key or an alias) read as a link is (:func:`ui.params.parse_param`); a key no control has, or a
    value a link could not carry unchanged, raises ValueError.

    >>> from ui.params import delta_spec, trials_spec
    >>> settings_values([delta_spec(low=1e-8, high=1e-6), trials_spec()], {"delta": "1e-07"})
    {'delta': 1e-07, 'trials': 200}
    """
    by_key = {key: spec for spec in specs for key in (spec.key, *spec.aliases)}
    values = {spec.key: spec.default for spec in specs}
    for key, raw in (query or {}).items():
        if key not in by_key:
            raise ValueError(f"no control {key!r}; the controls are {', '.join(spec.key for spec in specs)}")
        values[by_key[key].key], notes = parse_param(by_key[key], raw, key)
        if notes:
            raise ValueError(notes[0][1])
    return values


def store_page(info: PageInfo, directory: str | Path = PRECOMPUTED, runner: Runner = load_or_run) -> int:
    """Store the sweeps of the page ``info`` in ``directory`` at its defaults and on its grid (each through
    ``runner``, :func:`dpcore.experiments.load_or_run` by default); returns the number of grid settings run, 0 for a
    page without sweeps."""
    settings = page_settings(info)
    if not hasattr(settings, "sweeps"):
        return 0
    controls = page_controls(settings)
    settings.sweeps(settings_values(controls), functools.partial(runner, directory, store_as="defaults"))
    grid = grid_settings(controls)
    for query in grid:
        settings.sweeps(settings_values(controls, query), functools.partial(runner, directory, store_as="grid"))
    return len(grid)


def main(names: list[str]) -> int:
    """Store the sweeps of the pages named (by script, e.g. ``app_pages/truncation.py``; default: every page)."""
    chosen = [info for info in PAGES if not names or info.script in names or Path(info.script).stem in names]
    if names and len(chosen) < len(names):
        sys.exit(f"no such page among {', '.join(names)}; the pages are {', '.join(info.script for info in PAGES)}")
    for info in chosen:
        print(f"{info.script}: stored the defaults and {store_page(info)} grid settings", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
