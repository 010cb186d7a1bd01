"""The look of every figure: the colour-blind-safe palette, one colour per method, the projector template."""

from __future__ import annotations

import copy
import functools
import math
import re
import zlib
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio

from ..core.validation import Choice, InstanceOf, Integer, InvalidParameterError, validated
from ..lessons.methods import LABELS
from .constraints import FLAG, HEX_COLOR, NAME, TITLE

__all__ = ["OKABE_ITO", "MIN_MARK_CONTRAST", "contrast", "DARK_YELLOW", "GREY", "DARK_GREY", "METHOD_COLORS",
           "REFERENCE_COLORS", "method_color", "METHOD_SYMBOLS", "method_symbol", "MIN_COLOUR_DIFFERENCE",
           "MIN_CVD_COLOUR_DIFFERENCE", "VISIONS", "colour_difference", "colour_clashes",
           "template", "figure_title", "font_size", "TITLE_WIDTH", "slim_colorbar", "colorscale", "template_dict",
           "wrapped", "narrow_layout"]

# --------------------------------------------------------------------------------------- colours

#: Okabe & Ito (2008), "Color Universal Design": distinguishable under the common colour-vision deficiencies. Orange
#: and sky blue are darkened (same hue, #E69F00 -> #C28600, #56B4E9 -> #1D99E0) to 3:1 against the white plot, the
#: least WCAG 2.1 (1.4.11) asks of a line or mark a reader must see (:data:`MIN_MARK_CONTRAST`); the yellow only
#: fills shaded regions.
OKABE_ITO: dict[str, str] = {
    "black": "#000000",
    "orange": "#C28600",
    "sky blue": "#1D99E0",
    "bluish green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
}

#: The least contrast of a line or marker against the plot's white background (WCAG 2.1, 1.4.11 non-text contrast):
#: every colour of :data:`METHOD_COLORS`, :data:`REFERENCE_COLORS` and the fallback palette reaches it
#: (tests/viz/test_style.py). A lighter colour washed out on a projector.
MIN_MARK_CONTRAST = 3.0

# The pure yellow is too light for a line on white (contrast 1.3:1), so lines use a darkened yellow;
# greys take the reference curves (theory, lower bound) so the methods keep the saturated hues.
DARK_YELLOW = "#A69100"  #: the yellow of lines and markers (3.2:1 on white)
GREY, DARK_GREY = "#919191", "#555555"  #: reference curves: a lower bound, a theory curve

#: The one method -> colour registry used by every page, keyed by the method ids of
#: :data:`dpcore.lessons.methods.LABELS` (a test checks every id has a colour, distinct within each figure).
METHOD_COLORS: dict[str, str] = {
    "non_private": OKABE_ITO["black"],
    "theory": DARK_GREY,
    "lower_bound": GREY,
    "laplace": OKABE_ITO["blue"],
    "gaussian_analytic": OKABE_ITO["vermillion"],
    "gaussian_classical": "#009988",  # Tol's teal: beside the analytic Gaussian's vermillion, orange was too near
    "zcdp_gaussian": OKABE_ITO["reddish purple"],
    "naive_window": OKABE_ITO["sky blue"],
    "clipped_laplace": OKABE_ITO["bluish green"],
    "exponential_mechanism": DARK_YELLOW,
    # Beyond Okabe-Ito's eight hues: Paul Tol's "muted" colour-blind-safe scheme (its lightest hues darkened, same
    # hue, to MIN_MARK_CONTRAST on white).
    "ksu20": "#882255",
    "private_part": "#40A191",
    "naive_truncated_mean": "#117733",
    "truncated_mle_moments": "#332288",
    "truncated_mle_dpgd": "#AA4499",
    "user_level_clipped": "#EE3377",
    "group_privacy": "#542788",  # ColorBrewer PuOr's purple: Tol's olive vanished beside one example per user's brown
    "one_per_user": "#661100",
    "item_level": "#5696D5",  # Tol's light blue (darkened): sand was too near group privacy's olive
    "report_noisy_max": "#CC6677",
    "permute_and_flip": "#1F9AD8",  # Tol's cyan, darkened
    "private_selection": "#4477AA",
    "scheffe_tournament": "#228833",
    "minimum_distance": "#ED6C23",
    # Paul Tol's "vibrant" and "bright" schemes (colour-blind safe) for the product-distribution page.
    "partition_pure": "#0077BB",
    "naive_laplace": "#1B9E77",  # ColorBrewer Dark2 teal: cyan was too near the partition's blue, a darkened light
    # orange too near the one-shot Gaussian's red
    "partition_zcdp": "#AA3377",
    "one_shot_gaussian": "#CC3311",
    "oracle_laplace": "#A2932C",  # Tol's olive, darkened
    # The real-data page: KSU20's zCDP twin (ColorBrewer RdBu's dark blue: a pink was too near KSU20's wine), the three
    # private quantiles (ColorBrewer Paired / BrBG)
    "ksu20_zcdp": "#2166AC",
    "private_q1": "#8C510A",
    "private_median": "#1F78B4",
    "private_q3": "#6A3D9A",
}

_FALLBACK = [c for name, c in OKABE_ITO.items() if name not in ("black", "yellow")] + [DARK_YELLOW]

#: Marker symbols of the methods whose curves run on top of another's (the user-level selections: group privacy and
#: one example per user err alike), so both stay in sight where their lines coincide; every other method's is a
#: circle (:func:`method_symbol`).
METHOD_SYMBOLS: dict[str, str] = {"group_privacy": "square", "one_per_user": "diamond"}

#: Least CIE76 colour difference (ΔE*ab) between two curves of one figure: Okabe–Ito's (darkened) blue and sky blue,
#: 15, and orange and vermillion, 30, were drawn side by side and read as one colour (tests/app/test_colours.py).
MIN_COLOUR_DIFFERENCE = 35.0
#: Least difference between them as a reader with a colour-vision deficiency sees them (:func:`colour_difference`
#: for protanopia, deuteranopia and tritanopia): Okabe–Ito's hues keep 12 or more, orange and vermillion aside (5).
MIN_CVD_COLOUR_DIFFERENCE = 10.0
#: Machado, Oliveira & Fernandes (2009), the full-severity simulation of each deficiency on linear sRGB.
_DEFICIENCIES = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
VISIONS = ("typical", *_DEFICIENCIES)  #: the visions :func:`colour_difference` compares colours for


#: Colours of the reference lines of one-run figures (truth, clipped mean, private estimate).
REFERENCE_COLORS = {"true mean": OKABE_ITO["black"], "clipped mean": OKABE_ITO["bluish green"],
                    "private estimate": OKABE_ITO["reddish purple"], "naive truncated mean": OKABE_ITO["orange"]}


@validated(foreground=HEX_COLOR, background=HEX_COLOR)
def contrast(foreground: str, background: str = "#FFFFFF") -> float:
    """The WCAG 2 contrast ratio of two ``"#RRGGBB"`` colours, from 1 (the same) to 21 (black on white):
    (L1 + 0.05) / (L2 + 0.05) of their relative luminances, the lighter one on top.

    >>> round(contrast("#000000"), 2), round(contrast(OKABE_ITO["blue"]), 2), round(contrast("#F0E442"), 2)
    (21.0, 5.19, 1.32)
    """
    lighter, darker = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@validated(first=HEX_COLOR, second=HEX_COLOR, vision=Choice(VISIONS))
def colour_difference(first: str, second: str, vision: str = "typical") -> float:
    """How different two ``"#RRGGBB"`` colours look: the CIE76 difference ΔE*ab of their CIE L*a*b* (D65 white), as
    seen with typical colour vision or, simulated (Machado et al. 2009, full severity), with ``vision``'s deficiency.
    Two curves of one figure differ by :data:`MIN_COLOUR_DIFFERENCE`, and :data:`MIN_CVD_COLOUR_DIFFERENCE` for each
    deficiency (:func:`colour_clashes`).

    >>> round(colour_difference("#000000", "#FFFFFF")), round(colour_difference("#0072B2", "#1D99E0"))
    (100, 15)
    >>> round(colour_difference("#C28600", "#D55E00", "deuteranopia"))  # orange and vermillion: one colour
    5
    """
    return math.dist(*(_cielab(_seen(colour, vision)) for colour in (first, second)))


@validated(colours=InstanceOf(dict, "a dict of names to '#RRGGBB' colours"))
def colour_clashes(colours: dict[str, str]) -> list[tuple[str, str, str]]:
    """The pairs of named colours (e.g. a figure's curves) too near to tell apart, as ``(name, name, vision)``: less
    than :data:`MIN_COLOUR_DIFFERENCE` apart in typical vision or :data:`MIN_CVD_COLOUR_DIFFERENCE` in a deficient
    one (:func:`colour_difference`).

    >>> colour_clashes({"basic": "#0072B2", "advanced": "#1D99E0"})
    [('basic', 'advanced', 'typical')]
    >>> colour_clashes({"basic": "#0072B2", "advanced": OKABE_ITO["bluish green"]})
    []
    """
    for name, colour in colours.items():
        HEX_COLOR.check(f"colours[{name!r}]", colour)
    names = list(colours)
    return [(a, b, vision) for i, a in enumerate(names) for b in names[i + 1:] for vision in VISIONS
            if colour_difference(colours[a], colours[b], vision)
            < (MIN_COLOUR_DIFFERENCE if vision == "typical" else MIN_CVD_COLOUR_DIFFERENCE)]


def _linear(colour: str) -> tuple[float, float, float]:
    """The linear sRGB channels of ``#RRGGBB``."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    red, green, blue = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return red, green, blue


def _seen(colour: str, vision: str) -> tuple[float, float, float]:
    """The linear sRGB of ``colour`` as seen with ``vision``."""
    rgb = _linear(colour)
    if vision == "typical":
        return rgb
    red, green, blue = (min(1.0, max(0.0, sum(w * c for w, c in zip(row, rgb)))) for row in _DEFICIENCIES[vision])
    return red, green, blue


def _cielab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65 white) of linear sRGB."""
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _luminance(colour: str) -> float:
    """WCAG 2's relative luminance of ``#RRGGBB``: the linearised sRGB channels weighted 0.2126, 0.7152, 0.0722."""
    red, green, blue = _linear(colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


@validated(name=NAME)
def method_color(name: str) -> str:
    """The colour of a method: its :data:`METHOD_COLORS` entry, else a stable pick from the palette.

    Parameters
    ----------
    name : str
        A method id of :data:`dpcore.lessons.methods.LABELS` (or its label), or any other curve's name.

    Returns
    -------
    str
        A ``"#RRGGBB"`` colour. Names outside the registry get a palette colour chosen by a CRC-32
        hash of the name, so the same name has the same colour in every session and process.
    """
    method = name if name in METHOD_COLORS else _ID_OF_LABEL.get(name)
    return METHOD_COLORS[method] if method else _FALLBACK[zlib.crc32(name.encode()) % len(_FALLBACK)]


_ID_OF_LABEL = {label: method for method, label in LABELS.items()}


@validated(name=NAME)
def method_symbol(name: str) -> str:
    """The marker symbol of a method (an id of :data:`dpcore.lessons.methods.LABELS` or its label): its
    :data:`METHOD_SYMBOLS` entry, else ``"circle"``.

    >>> method_symbol("group_privacy"), method_symbol("one example per user"), method_symbol("Laplace")
    ('square', 'diamond', 'circle')
    """
    return METHOD_SYMBOLS.get(name if name in LABELS else _ID_OF_LABEL.get(name, ""), "circle")


# --------------------------------------------------------------------------------------- template

_FONT_FAMILY = "Inter, 'Helvetica Neue', Helvetica, Arial, sans-serif"


@validated(presentation=FLAG)
def font_size(presentation: bool = False) -> int:
    return 22 if presentation else 16


#: Characters per title line: a title wraps there, so it fits a phone's width (Plotly never wraps text itself).
TITLE_WIDTH = 30


@validated(text=TITLE, width=Integer(low=1))
def wrapped(text: str, width: int = TITLE_WIDTH) -> str:
    """``text`` in lines of at most ``width`` characters (Plotly's ``<br>``), broken between words, never inside an
    equation ``a = b``; an axis title longer than its axis would otherwise run over the figure's title.

    >>> wrapped("|μ̂ − μ| (median, 10–90 % band)", 22)
    '|μ̂ − μ| (median,<br>10–90 % band)'
    """
    lines: list[str] = []
    for word in _words(text):
        if lines and len(_visible(lines[-1])) + 1 + len(_visible(word)) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "<br>".join(lines)


@validated(text=TITLE)
def figure_title(text: str) -> dict:
    """A figure's ``layout.title``: ``text`` wrapped at word boundaries into lines of at most :data:`TITLE_WIDTH`
    characters (Plotly's ``<br>``), so it wraps on a narrow screen instead of running out of the figure.

    >>> figure_title("Error vs n, lomax, ε = 1 (median over trials)")["text"]
    'Error vs n, lomax, ε = 1<br>(median over trials)'
    """
    return dict(text=wrapped(text))


@validated(below=Integer(low=1), narrow=InstanceOf(dict, "a dict of layout updates"),
           wide=InstanceOf(dict, "a dict of layout updates"))
def narrow_layout(below: int, narrow: dict, wide: dict) -> dict:
    """A figure's ``layout.meta`` entry that gives it another layout on a narrow screen: the browser applies the
    updates ``narrow`` (Plotly relayout paths, e.g. ``"xaxis2.domain"``, ``"annotations[1].y"``; not the height,
    which Streamlit keeps) while
    the figure is less than ``below`` pixels wide, and ``wide`` (the same paths, their values in the figure) again
    above it (assets/fit_formulas.js). The server cannot know the screen; an exported figure keeps its wide layout.

    >>> narrow_layout(560, {"height": 900}, {"height": 480})["dplab_narrow"]["below"]
    560
    """
    if set(narrow) != set(wide):
        raise InvalidParameterError(f"narrow and wide must update the same paths; got {sorted(narrow)} and "
                                    f"{sorted(wide)}")
    return dict(dplab_narrow=dict(below=below, layout=dict(narrow), wide=dict(wide)))


@validated(title=TITLE)
def slim_colorbar(title: str, **extra: Any) -> dict:
    """A heat map's colour bar that leaves the plot its width: a thin horizontal bar along the figure's bottom edge
    (where other figures have their legend), its title under its labels (Plotly drew a title above a horizontal bar
    partly on the bar, a title of two lines half over it).

    >>> slim_colorbar("score")["orientation"], slim_colorbar("score")["yref"], slim_colorbar("score")["title"]["side"]
    ('h', 'container', 'bottom')
    """
    return dict(title=dict(text=title, side="bottom"), orientation="h", x=0, xanchor="left", y=0, yref="container",
                yanchor="bottom", len=0.8, thickness=12, **extra)


@functools.cache
def _colorscale(name: str) -> tuple[tuple[float, str], ...]:
    return tuple(tuple(pair) for pair in go.Heatmap(colorscale=name).to_plotly_json()["colorscale"])


@validated(name=NAME)
def colorscale(name: str) -> list[list]:
    """Plotly's colour scale ``name`` (e.g. ``"Blues"``) as the ``[[position, colour], …]`` list Plotly makes of it.

    >>> colorscale("Blues")[0]
    [0.0, 'rgb(247,251,255)']
    """
    try:
        return [list(pair) for pair in _colorscale(name)]
    except ValueError:
        raise InvalidParameterError(f"name must be one of Plotly's colour scales; got {name!r}") from None


def _words(text: str) -> list[str]:
    """The words of ``text``, an equation ``a = b`` kept as one word (a title never breaks at its "=")."""
    words: list[str] = []
    for word in text.split(" "):
        if words and (word == "=" or words[-1].endswith(" =")):
            words[-1] += " " + word
        else:
            words.append(word)
    return words


def _visible(text: str) -> str:
    """``text`` without its HTML tags (what takes room on screen)."""
    return re.sub(r"<[^>]+>", "", text)


@validated(presentation=FLAG)
def template_dict(presentation: bool = False) -> dict:
    """:func:`template` as Plotly's dictionary (``template(presentation).to_plotly_json()``), made once: what the
    builders put in a figure's layout (a new copy each call; building the template object takes a millisecond).

    >>> template_dict() == template().to_plotly_json()
    True
    """
    return copy.deepcopy(_template_json(presentation))


@functools.cache
def _template_json(presentation: bool) -> dict:
    return template(presentation).to_plotly_json()


@validated(presentation=FLAG)
def template(presentation: bool = False) -> go.layout.Template:
    """The app's Plotly template: projector-sized fonts, white background, light grid.

    Parameters
    ----------
    presentation : bool
        Presentation mode: base font 22 px instead of 16 px, thicker lines, bigger markers.

    Returns
    -------
    plotly.graph_objects.layout.Template
        Also registered as ``plotly.io.templates["dplab"]`` (normal) and ``["dplab_presentation"]``.
        The legend lies in rows at the bottom of the figure, below the slider and buttons of an animation, so the
        plot keeps the figure's whole width on any screen; the title sits above the plot and pushes the top margin
        (``automargin``), as the axes do for their tick labels and titles, so nothing is clipped; bar labels never
        shrink below 14 px.
    """
    size = font_size(presentation)
    axis = dict(showgrid=True, gridcolor="#E5E5E5", zeroline=False, showline=True, linecolor="#444444",
                ticks="outside", tickcolor="#444444", automargin=True,
                title=dict(standoff=12, font=dict(size=round(1.1 * size))))
    layout = dict(
        font=dict(family=_FONT_FAMILY, size=size, color="#222222"),
        title=dict(font=dict(size=round(1.3 * size)), x=0.015, xanchor="left", xref="container", yref="paper", y=1,
                   yanchor="bottom", pad=dict(b=round(0.6 * size)), automargin=True),
        paper_bgcolor="white",
        plot_bgcolor="white",
        colorway=_FALLBACK,
        xaxis=axis,
        yaxis=axis,
        legend=dict(orientation="h", x=0, xanchor="left", y=0, yref="container", yanchor="bottom",
                    font=dict(size=max(14, round(0.85 * size))), bgcolor="rgba(255,255,255,0.9)", itemwidth=30),
        uniformtext=dict(minsize=14, mode="show"),
        hoverlabel=dict(font=dict(size=size)),
        hovermode="x unified",
        margin=dict(l=20, r=20, t=36, b=10),  # t: the strip of Plotly's toolbar, above the title
    )
    scatter = dict(line=dict(width=3.5 if presentation else 2.5), marker=dict(size=10 if presentation else 7))
    return go.layout.Template(layout=layout, data=dict(scatter=[scatter]))


pio.templates["dplab"] = template()
pio.templates["dplab_presentation"] = template(presentation=True)


