"""Shared helpers for the AppTest suites (see docs/testing.md §4)."""

import base64
import json
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
SCRIPTS = Path(__file__).resolve().parent / "scripts"


def run(script: str, **query: str) -> AppTest:
    """Run ``script`` (absolute path) once with the given URL query parameters."""
    at = AppTest.from_file(script, default_timeout=30)
    for key, value in query.items():
        at.query_params[key] = value
    return at.run()


def plotly_spec(at: AppTest, index: int = 0) -> dict:
    """The figure JSON Streamlit sends to the browser (the PlotlyChart proto's ``spec``)."""
    return json.loads(at.get("plotly_chart")[index].proto.spec)


def decode(array) -> np.ndarray:
    """Plotly >= 6 serialises numpy arrays as ``{"dtype": "f8", "bdata": <base64>}``; plain lists pass through."""
    if isinstance(array, dict) and "bdata" in array:
        out = np.frombuffer(base64.b64decode(array["bdata"]), dtype=np.dtype(array["dtype"]))
        return out.reshape(array["shape"]) if "shape" in array else out
    return np.asarray(array)


def texts(elements) -> list[str]:
    """The ``.value`` of each element (markdown, alerts, captions)."""
    return [element.value for element in elements]
