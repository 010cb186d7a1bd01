"""The look (dpcore.viz.style): one registry colour per method, a stable fallback palette, the projector template."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import plotly.io as pio
import pytest

from dpcore import viz
from dpcore.core.validation import InvalidParameterError
from dpcore.lessons.methods import LABELS
from dpcore.viz import method_color

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "font_size": dict(presentation=True),
    "method_color": dict(name="Laplace"),
    "template": dict(presentation=True),
    "wrapped": dict(text="a title long enough to wrap", width=10),
    "figure_title": dict(text="Error vs n"),
    "slim_colorbar": dict(title="score"),
    "colorscale": dict(name="Blues"),
    "template_dict": dict(presentation=True),
    "contrast": dict(foreground="#0072B2", background="#FFFFFF"),
    "narrow_layout": dict(below=560, narrow={"height": 900}, wide={"height": 480}),
    "colour_difference": dict(first="#0072B2", second="#D55E00", vision="deuteranopia"),
    "colour_clashes": dict(colours={"a": "#0072B2", "b": "#D55E00"}),
    "method_symbol": dict(name="group_privacy"),
}


# ------------------------------------------------------------------ colours

def test_every_method_id_has_one_label_and_a_registry_colour():
    assert set(viz.METHOD_COLORS) == set(LABELS)  # no colour without a method, no method without a colour
    assert len(set(LABELS.values())) == len(LABELS)  # one label per id, no two ids sharing a label
    for method, name in LABELS.items():
        assert method_color(method) == method_color(name) == viz.METHOD_COLORS[method]


def test_registry_colours_are_distinct_hex():
    colours = [c.lower() for c in viz.METHOD_COLORS.values()]
    assert len(set(colours)) == len(colours)
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in colours)


def test_the_contrast_ratio_is_wcags():
    """WCAG 2's published examples: black on white 21:1, a colour on itself 1:1, #777777 on white just under 4.5:1,
    symmetric in its two colours."""
    assert viz.style.contrast("#000000") == 21.0 and viz.style.contrast("#123456", "#123456") == 1.0
    assert viz.style.contrast("#777777") == pytest.approx(4.48, abs=0.01)
    assert viz.style.contrast("#767676") == pytest.approx(4.54, abs=0.01)
    assert viz.style.contrast("#0072B2", "#E5E5E5") == viz.style.contrast("#E5E5E5", "#0072B2")
    assert viz.style.contrast("#F0E442") == pytest.approx(1.32, abs=0.01)  # Okabe-Ito's yellow: no line on white


def test_every_line_and_mark_colour_stands_out_from_the_plot():
    """Every colour a line or a marker is drawn in (methods, reference lines, the fallback palette, the Okabe-Ito hues
    but the yellow, which only fills) reaches 3:1 against the white plot (WCAG 2.1, 1.4.11); printed when not."""
    style = viz.style
    colours = {**{f"method {key}": value for key, value in style.METHOD_COLORS.items()},
               **{f"reference {key}": value for key, value in style.REFERENCE_COLORS.items()},
               **{f"Okabe-Ito {key}": value for key, value in style.OKABE_ITO.items() if key != "yellow"},
               **{f"fallback {i}": value for i, value in enumerate(style._FALLBACK)},
               "dark yellow": style.DARK_YELLOW, "grey": style.GREY, "dark grey": style.DARK_GREY}
    background = viz.template().layout.plot_bgcolor
    assert background == "white"
    low = {name: f"{value} {style.contrast(value):.2f}:1" for name, value in colours.items()
           if style.contrast(value) < style.MIN_MARK_CONTRAST}
    assert low == {}
    assert style.MIN_MARK_CONTRAST == 3.0
    # the axis lines and ticks too; the grid stays faint on purpose (it is not read, it guides)
    assert style.contrast(viz.template().layout.xaxis.linecolor) >= 4.5


def test_the_colour_difference_is_cie76_and_the_deficiencies_are_machados():
    """CIE76 between CIE L*a*b* colours (black to white is L* from 0 to 100); the deficient visions are the full-
    severity simulations of Machado et al. (2009): grey stays grey, and red and green, far apart for typical vision,
    come together for protanopia and deuteranopia (not for tritanopia)."""
    difference = viz.style.colour_difference
    assert difference("#000000", "#FFFFFF") == pytest.approx(100, abs=0.01)
    for vision in viz.style.VISIONS:
        assert difference("#777777", "#777777", vision) == 0
        assert difference("#0072B2", "#D55E00", vision) == difference("#D55E00", "#0072B2", vision)
        assert difference("#000000", "#FFFFFF", vision) == pytest.approx(100, abs=0.5)  # neutrals are kept
    red, green = "#D55E00", "#009E73"
    assert difference(red, green) > 100
    assert difference(red, green, "deuteranopia") < 0.6 * difference(red, green)
    assert difference(red, green, "protanopia") < 0.4 * difference(red, green)
    assert difference(red, green, "tritanopia") > 0.9 * difference(red, green)


def test_colours_drawn_together_are_told_apart_on_every_vision():
    """The rule of colour_clashes: Okabe-Ito's hues pass it, but the blue and sky blue (15 apart) and the orange and
    vermillion (5 apart for deuteranopia) that pages drew side by side."""
    okabe_ito = {name: colour for name, colour in viz.OKABE_ITO.items() if name != "yellow"}
    clashes = viz.style.colour_clashes(okabe_ito)
    assert {(a, b) for a, b, _ in clashes} == {("orange", "vermillion"), ("sky blue", "blue")}
    assert ("sky blue", "blue", "typical") in clashes and ("orange", "vermillion", "deuteranopia") in clashes
    assert viz.style.colour_clashes({}) == []
    with pytest.raises(InvalidParameterError, match="colours\\['b'\\]"):
        viz.style.colour_clashes({"a": "#000000", "b": "blue"})


def test_methods_whose_curves_coincide_have_their_own_marker_symbols():
    """One symbol per method id, valid for Plotly, found from the id or the label; every other method is a circle."""
    import plotly.graph_objects as go

    assert set(viz.style.METHOD_SYMBOLS) <= set(LABELS)
    assert len(set(viz.style.METHOD_SYMBOLS.values())) == len(viz.style.METHOD_SYMBOLS)
    assert "circle" not in viz.style.METHOD_SYMBOLS.values()
    for method, symbol in viz.style.METHOD_SYMBOLS.items():
        go.scatter.Marker(symbol=symbol)  # a symbol Plotly knows
        assert viz.style.method_symbol(method) == viz.style.method_symbol(LABELS[method]) == symbol
    assert viz.style.method_symbol("laplace") == viz.style.method_symbol("not a method") == "circle"


def test_unknown_names_get_a_stable_palette_colour():
    names = [f"method {i}" for i in range(20)]
    colours = [method_color(name) for name in names]
    assert colours == [method_color(name) for name in names]
    assert set(colours) <= set(viz.style._FALLBACK)
    assert len(set(colours)) > 1


def test_fallback_colour_does_not_depend_on_the_process_hash_seed():
    code = "from dpcore.viz import method_color; print(method_color('report noisy max'))"
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    outputs = {subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True,
                              env=os.environ | {"PYTHONHASHSEED": seed}).stdout.strip() for seed in ("1", "2")}
    assert outputs == {method_color("report noisy max")}


# ------------------------------------------------------------------ template

def test_template_fonts_are_projector_sized():
    normal, presentation = viz.template(), viz.template(presentation=True)
    assert normal.layout.font.size >= 16
    assert presentation.layout.font.size >= 22
    assert presentation.layout.font.size > normal.layout.font.size
    assert presentation.layout.title.font.size > normal.layout.title.font.size
    assert normal.layout.plot_bgcolor == normal.layout.paper_bgcolor == "white"
    assert normal.layout.xaxis.automargin is True and normal.layout.yaxis.automargin is True


def test_template_is_registered():
    assert pio.templates["dplab"].layout.font.size == viz.template().layout.font.size
    assert pio.templates["dplab_presentation"].layout.font.size == viz.template(True).layout.font.size


def test_no_figure_draws_in_a_colour_of_its_own_below_three_to_one():
    """A figure module that writes a colour literal instead of using the registry must meet the same 3:1 (the light
    grey #BBBBBB of the data dots and the election's vote bars, 1.9:1, did not); a white midpoint of a diverging
    colour scale and the minor grid are not marks."""
    import re
    from pathlib import Path

    root = Path(viz.__file__).parent
    literals = {(path.name, colour) for path in [root / "charts.py", *sorted((root / "figures").glob("*.py"))]
                for colour in re.findall(r'"(#[0-9A-Fa-f]{6})"', path.read_text())}
    low = {(name, colour) for name, colour in literals
           if viz.style.contrast(colour) < viz.style.MIN_MARK_CONTRAST and colour.upper() != "#FFFFFF"}
    assert literals and low == set()
