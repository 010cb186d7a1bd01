"""Store the sweeps the pages show, so that a class finds them ready: ``./lab.sh precompute``.

Every page of the registry is run (Streamlit's ``AppTest``, in this process) with
:data:`ui.compute.STORE_VARIABLE` set, so each sweep it calls that is not stored yet is computed and written
to ``assets/precomputed``:

1. at its defaults (files marked ``stored_for="defaults"``);
2. then on its grid (:func:`ui.params.grid_settings`; files marked ``stored_for="grid"``), at the default Monte Carlo
   run: every combination of its ``crossed`` controls (the partitioning-rounds page's ε, d and profile, too slow to
   compute live) and every option of every other discrete control but the trial count, one move away from the
   defaults. Every slider position reached from the default page is then a lookup, and a fresh Monte Carlo run or
   trial count at these settings is previewed by a stored run of the same sweep (:mod:`ui.progressive`).

Run with the quick pass off (``DPLAB_QUICK_SECONDS=inf``): what is stored must be the requested runs.
"""

from __future__ import annotations

import logging
import math
import os
import sys
from pathlib import Path

from streamlit.testing.v1 import AppTest

from registry import PAGES

from . import progressive
from .compute import STORE_VARIABLE
from .page import PAGE_SPECS
from .params import grid_settings

__all__ = ["ROOT", "run_page", "page_grid", "store_page"]

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 1800  # seconds: the slowest page's default sweeps, computed cold on one core


def run_page(script: str, query: dict[str, str] | None = None) -> AppTest:
    """Run the page ``script`` (relative to the repository root) once, with URL query ``query``; raise if it fails."""
    at = AppTest.from_file(str(ROOT / script), default_timeout=TIMEOUT)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    at.run()
    if at.exception:
        raise RuntimeError(f"{script} {query or ''}: {at.exception[0].value}")
    return at


def page_grid(at: AppTest) -> list[dict[str, str]]:
    """The grid settings of the page ``at`` ran (:func:`ui.params.grid_settings` of its controls)."""
    return grid_settings(at.session_state[PAGE_SPECS]) if PAGE_SPECS in at.session_state else []


def store_page(script: str) -> int:
    """Store the sweeps of ``script`` at its defaults and on its grid; returns the number of grid settings run."""
    os.environ[STORE_VARIABLE] = "defaults"
    settings = page_grid(run_page(script))
    os.environ[STORE_VARIABLE] = "grid"
    for query in settings:
        run_page(script, query)
    return len(settings)


def main(scripts: list[str]) -> int:
    if not math.isinf(progressive.QUICK_SECONDS):
        sys.exit("Run with DPLAB_QUICK_SECONDS=inf: the stored results must be the requested runs, not quick passes.")
    logging.getLogger("streamlit").setLevel(logging.ERROR)  # AppTest's "no runtime / ScriptRunContext" notices
    for script in scripts or [info.script for info in PAGES]:
        print(f"{script}: stored the defaults and {store_page(script)} grid settings", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
