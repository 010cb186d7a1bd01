"""`import dpcore` stays a pure library: it never imports plotly or streamlit (dpcore.viz is opt-in)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import dpcore

ROOT = Path(__file__).resolve().parents[1]


def run(code: str) -> str:
    """Run ``code`` in a fresh interpreter (this one's executable, the repository as working directory)."""
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()


def test_import_dpcore_imports_neither_plotly_nor_streamlit():
    assert run("import dpcore, sys; print('plotly' in sys.modules, 'streamlit' in sys.modules)") == "False False"


def test_no_submodule_but_viz_imports_plotly_or_streamlit():
    names = sorted(m.name for m in pkgutil.iter_modules(dpcore.__path__) if m.name != "viz")
    code = (f"import importlib, sys\nfor name in {names!r}: importlib.import_module('dpcore.' + name)\n"
            "print('plotly' in sys.modules, 'streamlit' in sys.modules)")
    assert run(code) == "False False"


def test_viz_imports_plotly_but_not_streamlit():
    assert run("import dpcore.viz, sys; print('plotly' in sys.modules, 'streamlit' in sys.modules)") == "True False"
