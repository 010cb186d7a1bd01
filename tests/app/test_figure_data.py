"""Every page draws the same numbers as before the server's work per interaction was cut (issue: a class of 100 on
one 2-core server): each figure's data at fixed URLs, rounded as drawn (to float32, the precision the browser is sent
(ui.drawn), then to 6 significant digits, finer than any screen shows), against fingerprints taken from the code
before that work (and again, with this rounding, from the code before arrays were sent as float32: the same; and
with frames completed as plotly.js completes them, from the code before frames left out what every frame shares).

A deliberate change to a figure changes its fingerprint: regenerate them with
``.venv/bin/python tests/app/test_figure_data.py`` and say in the commit which figures changed and why.
"""

import hashlib
import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import ROOT, charts, complete_frames, decode, run  # noqa: E402

from registry import PAGES  # noqa: E402

FINGERPRINTS = Path(__file__).resolve().parent / "figure_fingerprints.json"
QUERIES = {"default": {}, "seed7": {"seed": "7"}, "present": {"present": "1"}}  # fixed URLs: every page at each
DIGITS = 6
FLOAT32_SMALLEST, FLOAT32_LARGEST = float(np.finfo(np.float32).tiny), float(np.finfo(np.float32).max)


def _drawn(value):
    """``value`` (a figure's JSON) with binary arrays decoded and every number rounded to float32 (where it holds it)
    and then to :data:`DIGITS` significant digits (NaN and infinities as strings): what the figure draws, independent
    of how it is encoded."""
    if isinstance(value, dict):
        if "bdata" in value:
            return _drawn(decode(value).tolist())
        return {key: _drawn(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_drawn(item) for item in value]
    if isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool)):
        if not math.isfinite(value):
            return str(value)
        if FLOAT32_SMALLEST <= abs(value) <= FLOAT32_LARGEST:
            value = float(np.float32(value))
        return float(f"{value:.{DIGITS - 1}e}")
    return value


def fingerprint(spec: dict) -> str:
    """SHA-256 of the figure's drawn data (:func:`_drawn`, of frames completed as plotly.js draws them: the
    :func:`helpers.charts` of a page) as canonical JSON."""
    return hashlib.sha256(json.dumps(_drawn(complete_frames(spec)), sort_keys=True).encode()).hexdigest()


def page_fingerprints(script: str, query: dict[str, str]) -> dict[str, str]:
    at = run(str(ROOT / script), timeout=300, **query)
    assert not at.exception, at.exception
    return {key: fingerprint(spec) for key, spec in charts(at).items()}


def _name(url_path: str, query: str) -> str:
    return f"{url_path or 'home'}?{query}"


@pytest.mark.parametrize("info", PAGES, ids=lambda info: info.url_path or "home")
@pytest.mark.parametrize("query", QUERIES)
def test_figures_draw_the_same_numbers(info, query):
    expected = json.loads(FINGERPRINTS.read_text())[_name(info.url_path, query)]
    assert page_fingerprints(info.script, QUERIES[query]) == expected


def test_fingerprints_notice_a_changed_number():
    def figure(y: list[float], title: str = "t") -> dict:
        return {"data": [{"y": y}], "layout": {"title": {"text": title}}}
    assert fingerprint(figure([1.0, 2.0, 3.0])) == fingerprint(figure([1.0000001, 2.0, 3.0]))  # below what is drawn
    assert fingerprint(figure([1.0, 2.0, 3.0])) != fingerprint(figure([1.0001, 2.0, 3.0]))
    assert fingerprint(figure([1.0, 2.0, 3.0])) != fingerprint(figure([1.0, 2.0, 3.0], "u"))


if __name__ == "__main__":
    FINGERPRINTS.write_text(json.dumps({_name(info.url_path, name): page_fingerprints(info.script, query)
                                        for info in PAGES for name, query in QUERIES.items()}, indent=1,
                                       sort_keys=True) + "\n")
