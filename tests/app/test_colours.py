"""Every method has one label and one colour across the app; in one figure no two methods have near colours, and no
other line (a truth line, a bound) takes a method's colour.

Read from the figures the pages actually send to the browser (every page at its defaults): a trace whose name is a
method's label must be drawn in that method's registry colour, and within one figure the methods' colours differ.
"""

import pytest
from helpers import ROOT, charts, run

from dpcore.lessons.methods import LABELS
from dpcore.viz.style import METHOD_COLORS
from registry import PAGES

ID_OF = {label: method for method, label in LABELS.items()}
#: Least CIE76 colour difference between two methods in one figure. Orange vs vermillion (33) and blue vs sky blue
#: (26), which the pages used side by side, are below it; Okabe–Ito's other pairs are above.
MIN_DELTA_E = 35


def cielab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65 white) of an sRGB ``#RRGGBB`` colour."""
    def linear(channel: float) -> float:
        return ((channel + 0.055) / 1.055) ** 2.4 if channel > 0.04045 else channel / 12.92
    r, g, b = (linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(first: str, second: str) -> float:
    """CIE76 colour difference."""
    return sum((p - q) ** 2 for p, q in zip(cielab(first), cielab(second))) ** 0.5


def test_the_colour_difference_is_the_textbook_one():
    assert delta_e("#000000", "#FFFFFF") == pytest.approx(100, abs=0.01)  # L* from 0 to 100
    assert delta_e("#E69F00", "#D55E00") == pytest.approx(33.4, abs=0.1)  # orange vs vermillion: too near


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
        shown = {method: METHOD_COLORS[method].upper() for method in found}
        near = [(a, b) for a in shown for b in shown if a < b and delta_e(shown[a], shown[b]) < MIN_DELTA_E]
        assert near == [], (key, near)
        others = {trace_colour(trace).upper() for traces in [spec["data"]] for trace in traces
                  if trace.get("name") not in ID_OF and trace.get("showlegend") is not False
                  and isinstance(trace_colour(trace), str) and "(band" not in (trace.get("name") or "")
                  and not any(trace.get("name", "").startswith(LABELS[m]) for m in found)}
        assert others.isdisjoint(shown.values()), (key, others & set(shown.values()))
        seen += len(found)
    assert seen or info.url_path in ("", "privacy-audit-lab", "audit-studio"), \
        f"{info.title} draws no method from the registry"
