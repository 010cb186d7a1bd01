"""mypy finds nothing in the library and the app side: ``python -m mypy`` with the ``[tool.mypy]`` settings of
pyproject.toml (``files``: dpcore and ui), run here so that a wrong annotation fails the suite like a failing test.

The first run fills mypy's cache (``.mypy_cache/``, ignored by git) and takes about half a minute; later runs check
only what changed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_errors():
    checked = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert checked.returncode == 0, f"mypy (exit code {checked.returncode}):\n{checked.stdout}{checked.stderr}"
