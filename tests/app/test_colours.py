"""Every method has one label and one colour across the app, and no two methods in one figure share a colour.

Read from the figures the pages actually send to the browser (every page at its defaults): a trace whose name is a
method's label must be drawn in that method's registry colour, and within one figure the methods' colours differ.
"""

import pytest
from helpers import ROOT, charts, run

from dpcore.lessons.methods import LABELS
from dpcore.viz.style import METHOD_COLORS
from registry import PAGES

ID_OF = {label: method for method, label in LABELS.items()}


def trace_colour(trace: dict) -> str | None:
    return (trace.get("line") or {}).get("color") or (trace.get("marker") or {}).get("color")


def method_traces(spec: dict) -> dict[str, set[str]]:
    """{method id: the colours its traces are drawn in}, over the figure's data and every frame."""
    found: dict[str, set[str]] = {}
    for traces in [spec["data"], *(frame["data"] for frame in spec.get("frames", []))]:
        for trace in traces:
            method = ID_OF.get(trace.get("name"))
            if method and isinstance(trace_colour(trace), str):
                found.setdefault(method, set()).add(trace_colour(trace).upper())
    return found


@pytest.mark.parametrize("info", PAGES, ids=[info.title for info in PAGES])
def test_methods_keep_their_colour_and_differ_within_each_figure(info):
    at = run(str(ROOT / info.script), timeout=600)
    assert not at.exception
    seen = 0
    for key, spec in charts(at).items():
        found = method_traces(spec)
        for method, colours in found.items():
            assert colours == {METHOD_COLORS[method].upper()}, (key, method, colours)
        shown = [METHOD_COLORS[method].upper() for method in found]
        assert len(set(shown)) == len(shown), (key, sorted(found))
        seen += len(found)
    assert seen or info.url_path == "", f"{info.title} draws no method from the registry"
