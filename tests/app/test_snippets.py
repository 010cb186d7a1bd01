"""Every figure a page offers for download comes with a notebook snippet that runs and plots the same numbers.

The snippet is generated from the builder and arguments the page itself called (``ui.snippet``), run here in a fresh
interpreter, and its printed CSV compared with the figure the page sent to the browser: frames, traces and x exactly
(x as the float32 the browser is sent, ui.drawn), y to rtol 1e-6 (the page may serve a stored sweep; a fresh run on
another CPU differs in the last bits; float32 holds 7 digits).
"""

import csv
import io
import os
import subprocess
import sys

import numpy as np
import plotly.graph_objects as go
import pytest
from helpers import ROOT, charts, run

import ui
from dpcore import viz
from registry import PAGES

RTOL = 1e-6


def rows(table: str) -> list[list[str]]:
    return [row for row in csv.reader(io.StringIO(table)) if row]


def assert_same_table(shown: str, printed: str) -> None:
    ours, theirs = rows(shown), rows(printed)
    assert len(ours) == len(theirs) > 1
    for mine, again in zip(ours[1:], theirs[1:]):
        assert mine[:2] == again[:2]  # frame, trace
        assert mine[2] == again[2] or _float32(mine[2]) == _float32(again[2]), (mine, again)  # x, as sent
        assert float(again[3]) == pytest.approx(float(mine[3]), rel=RTOL, nan_ok=True), mine


def _float32(text: str) -> np.float32 | None:
    """A CSV cell as float32 (None if it is no number)."""
    try:
        return np.float32(float(text))
    except ValueError:
        return None


def run_snippet(code: str, tmp_path) -> str:
    path = tmp_path / "snippet.py"
    path.write_text(code)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", f"import runpy; runpy.run_path({str(path)!r}, run_name='snippet')"],
                          capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("info", PAGES, ids=[info.title for info in PAGES])
def test_every_download_snippet_rebuilds_its_figure(info, tmp_path):
    at = run(str(ROOT / info.script), timeout=600)
    assert not at.exception
    offered = at.session_state[ui.FIGURE_CALLS]
    assert offered, f"{info.title} offers no figure for download"
    shown = charts(at)
    for key, (builder, kwargs) in offered.items():
        printed = run_snippet(ui.snippet(builder, **kwargs), tmp_path)
        assert_same_table(viz.figure_table_csv(go.Figure(shown[key])), printed)
