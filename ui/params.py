"""A page's parameters: declared as :class:`ParamSpec` values, drawn as widgets seeded from the URL, validated and
clamped with a message in the page's words, and mirrored back into the URL so a link reproduces the page."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from dpcore.lessons.grids import log_grid, nearest

__all__ = ["ParamSpec", "nearest", "log_grid", "epsilon_spec", "delta_spec", "n_spec", "trials_spec", "seed_spec",
           "monte_carlo_spec", "TRIALS_KEY", "SEED_KEY", "SEED_MAX",
           "parse_param", "url_text", "grid_settings", "controls"]

SEED_MAX = 2**31 - 1
TRIALS_KEY = "trials"  #: URL key of the Monte Carlo trial count (:func:`trials_spec`)
SEED_KEY = "seed"  #: URL key of the one-run pictures' random seed (:func:`seed_spec`)
KINDS = ("log", "float", "int", "number", "choice", "seed", "text")
TEXT_LENGTH = 2000  #: the longest value of a ``text`` control a link may carry (a longer one is refused unread)

Note = tuple[str, str]  # (level, message), level in {"error", "warning", "info"}


@dataclass(frozen=True)
class ParamSpec:
    """One page parameter: its widget, its URL query key and its safe range.

    Parameters
    ----------
    key : str
        URL query key; the widget key is ``f"w_{key}"``.
    label : str
        Widget label.
    kind : {"log", "float", "int", "number", "choice", "seed", "text"}
        ``log``: a select slider over ``options`` (log-spaced values, snapped in log space);
        ``float`` / ``int``: a slider on ``[low, high]`` (``step`` optional);
        ``number``: a box to type any real number in ``[low, high]`` (a value with a unit, such as a public bound);
        ``choice``: one of ``options`` (numbers: a select slider, snapped; strings: radio buttons);
        ``seed``: an integer input on ``[0, 2**31 - 1]``;
        ``text``: a value the page edits with controls of its own (a list of releases, say), carried in the URL as
        one line of text that ``reader`` checks; no widget is drawn for it: the page reads and sets
        ``st.session_state["w_<key>"]``.
    default : Any
        Value used when the URL does not set the parameter or sets it to garbage. For ``number``, ``None``: the box
        starts empty, for the student to type (the page says why); an empty box is left out of the URL.
    low, high : float, optional
        Clamping range; defaults to the ends of ``options``.
    options : tuple
        Allowed values, in order (``log`` and ``choice``).
    help : str
        Tooltip text.
    format : str
        Display format, e.g. ``"{:g}"``.
    step : float, optional
        Slider step for ``float``/``int``.
    placeholder : str
        What an empty ``number`` box shows (e.g. what an empty box stands for).
    reader : callable, optional
        For ``text``: reads a value from a link, ``reader(raw) -> value`` in its normal form (what the URL then
        carries), or raises ``ValueError`` whose message says why not, in the page's words, after the value shown
        as typed ("is not a plan this page can read: …"); it must not repeat the value (the message shows it, cut
        short, in a code span: :func:`as_typed`).
    words : callable, optional
        For ``text``: the value in words (messages, the handout's settings), ``words(value) -> str``.
    names : dict, optional
        A display name for some options (option -> words), e.g. ``{"lomax": "Lomax (Pareto II)"}``: the widget and
        the messages show the name, the URL keeps the option (so every link keeps working).
    aliases : tuple of str
        Older URL keys of the same control: a saved link that sets one still works (the page reads it when ``key``
        is absent and rewrites the address with ``key``).
    crossed : bool
        Whether ``./lab.sh precompute`` stores the page's sweeps at every combination of this control's options with
        those of the page's other crossed controls (:func:`grid_settings`), for controls whose sweeps are too slow
        to compute live in any combination; the others are stored one move away from the defaults.
    """

    key: str
    label: str
    kind: str
    default: Any
    low: float | None = None
    high: float | None = None
    options: tuple = ()
    help: str = ""
    format: str = "{:g}"
    step: float | None = None
    crossed: bool = False
    aliases: tuple[str, ...] = ()
    names: Any = ()
    placeholder: str = ""
    reader: Callable[[str], Any] | None = None
    words: Callable[[Any], str] | None = None

    def __post_init__(self) -> None:
        names = tuple(self.names.items()) if isinstance(self.names, dict) else tuple(self.names)
        object.__setattr__(self, "names", names)  # (option, name) pairs: hashable, like the rest of the spec
        if unknown := [option for option, _ in names if option not in self.options]:
            raise ValueError(f"names {unknown!r} of {self.key!r} are not among its options")
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}; got {self.kind!r}")
        if self.kind in ("log", "choice") and self.default not in self.options:
            raise ValueError(f"default {self.default!r} of {self.key!r} is not one of its options")
        if (self.kind == "text") != (self.reader is not None):
            raise ValueError(f"{self.key!r}: a reader is given for a text control, and only for one")

    @property
    def bounds(self) -> tuple[float, float]:
        """The clamping range ``(low, high)``."""
        low = min(self.options) if self.low is None else self.low
        high = max(self.options) if self.high is None else self.high
        return low, high

    @property
    def numeric(self) -> bool:
        """Whether URL values are numbers (everything but a choice among strings)."""
        return not any(isinstance(option, str) for option in self.options)

    def with_options(self, extra: Sequence) -> ParamSpec:
        """This spec with the values ``extra`` allowed too (options sorted, range widened to hold them).

        >>> trials_spec(high=2000).with_options([100_000]).options[-2:]
        (2000, 100000)
        """
        if not extra:
            return self
        options = tuple(sorted({*self.options, *extra}))
        low, high = self.bounds
        return replace(self, options=options, low=min(low, options[0]), high=max(high, options[-1]))

    def show(self, value: Any) -> str:
        """``value`` as the page shows it: its display name if it has one, else in the display format (strings as
        they are; an empty ``number`` box, None, as "empty").

        >>> spec = ParamSpec(key="family", label="Distribution", kind="choice", default="lomax",
        ...                  options=("lomax", "gaussian"), names={"lomax": "Lomax (Pareto II)"})
        >>> spec.show("lomax"), spec.show("gaussian")
        ('Lomax (Pareto II)', 'gaussian')
        """
        for option, name in self.names:
            if option == value:
                return name
        if self.kind == "text" and self.words is not None:
            return self.words(value)
        if value is None:
            return "empty"
        return value if isinstance(value, str) else self.format.format(value)


# ---------------------------------------------------------------------------- ready-made specs
def epsilon_spec(default: float = 1.0, low: float = 0.01, high: float = 10.0) -> ParamSpec:
    """The privacy budget ε on a log-scale select slider (URL key ``eps``)."""
    return ParamSpec(
        key="eps", label="Privacy budget ε (log scale)", kind="log", default=default, low=low, high=high,
        options=log_grid(low, high),
        help=(f"Smaller ε = more privacy and more noise; larger ε = less privacy, more accuracy. "
              f"Steps are log-spaced (1, 1.5, 2, 3, 5, 7 per decade) from {low:g} to {high:g}."),
    )


def delta_spec(default: float = 1e-6, low: float = 1e-12, high: float = 1e-3) -> ParamSpec:
    """The failure probability δ of approximate DP, powers of ten (URL key ``delta``)."""
    return ParamSpec(
        key="delta", label="δ (log scale)", kind="log", default=default, low=low, high=high,
        options=log_grid(low, high, mantissas=(1,)), format="{:.0e}",
        help="Probability that the ε guarantee may fail. Rule of thumb: δ much smaller than 1/n.",
    )


def n_spec(default: int = 1000, low: int = 10, high: int = 100_000) -> ParamSpec:
    """The sample size n on log-spaced nice integers (URL key ``n``)."""
    return ParamSpec(
        key="n", label="Sample size n (log scale)", kind="log", default=default, low=low, high=high,
        options=log_grid(low, high, integer=True), format="{:,}",
        help="Number of people (rows) in the dataset.",
    )


def trials_spec(default: int = 200, low: int = 20, high: int = 2000) -> ParamSpec:
    """The number of Monte Carlo trials per grid point (URL key ``trials``)."""
    return ParamSpec(
        key=TRIALS_KEY, label="Monte Carlo trials", kind="log", default=default, low=low, high=high,
        options=log_grid(low, high, integer=True), format="{:,}",
        help="Independent repetitions behind each point: more trials give smoother curves but take longer.",
    )


def seed_spec(default: int = 0) -> ParamSpec:
    """The random seed of the one-run pictures (URL key ``seed``): the same seed reproduces the same pictures."""
    return ParamSpec(
        key=SEED_KEY, label="Random seed (one run)", kind="seed", default=default, low=0, high=SEED_MAX, format="{:d}",
        help="Same seed, same simulated data and noise in the one-run pictures: share the link to show exactly this "
             "run. The Monte Carlo curves keep their own random numbers (next control).",
    )


def monte_carlo_spec(default: int = 0) -> ParamSpec:
    """The random seed of the Monte Carlo sweeps (URL key ``mc``): kept apart from the one-run seed, so redrawing a
    picture never recomputes a sweep."""
    return ParamSpec(
        key="mc", label="Monte Carlo run", kind="seed", default=default, low=0, high=SEED_MAX, format="{:d}",
        help="Which random numbers the error curves average over. Change it for a fresh Monte Carlo run (this "
             "recomputes every curve: a few seconds to a minute); the curves barely move, which is the point.",
    )


# ---------------------------------------------------------------------------- URL parsing
def _snap(spec: ParamSpec, value: float) -> Any:
    """The allowed value nearest to ``value`` (in log space for ``log``)."""
    if spec.kind in ("int", "seed"):
        return int(round(value))
    if spec.kind in ("float", "number"):
        return value
    distance = (lambda o: abs(math.log(o / value))) if spec.kind == "log" else (lambda o: abs(o - value))
    return min(spec.options, key=distance)


SHOWN_CHARACTERS = 40  #: how much of a bad value from a link its message repeats


def as_typed(raw: str) -> str:
    r"""``raw``, a value from a link, as the messages show it: cut to :data:`SHOWN_CHARACTERS`, in a Markdown code
    span, so that it shows as the characters typed and never renders (no link, image, HTML or math from a link).

    >>> as_typed("[Log in](https://example.org)"), as_typed("a`b"), as_typed("`$x$"), as_typed("x" * 50)[-4:]
    ('`[Log in](https://example.org)`', '``a`b``', '`` `$x$ ``', 'xx…`')
    """
    if not raw.strip():
        return "(empty)"
    text = raw if len(raw) <= SHOWN_CHARACTERS else raw[:SHOWN_CHARACTERS] + "…"
    text = " ".join(text.splitlines())
    fence = "`" * (1 + max((len(run) for run in re.findall("`+", text)), default=0))
    pad = " " if text.startswith("`") or text.endswith("`") else ""  # CommonMark strips one space at each end
    return f"{fence}{pad}{text}{pad}{fence}"


def _parse_choice(spec: ParamSpec, raw: str, key: str) -> tuple[Any, list[Note]]:
    for option in spec.options:
        if raw == str(option):
            return option, []
    allowed = ", ".join(map(str, spec.options))
    return spec.default, [("error", f"Invalid {key} in the link: {as_typed(raw)} is not one of {allowed}. "
                                    f"Using the default {spec.show(spec.default)}.")]


def _parse_text(spec: ParamSpec, raw: str, key: str) -> tuple[Any, list[Note]]:
    """A ``text`` control's value from a link, read by its ``reader`` (its default, with an error naming ``key``,
    when the reader refuses it or it is longer than :data:`TEXT_LENGTH`).

    >>> spec = ParamSpec(key="word", label="A word", kind="text", default="yes", reader=lambda raw: raw.strip(),
    ...                  words=lambda value: f"the word {value}")
    >>> parse_param(spec, " no "), spec.show("no")
    (('no', []), 'the word no')
    >>> parse_param(spec, "x" * 3000)[1][0][1][-52:]
    'is longer than 2,000 characters. Using the word yes.'
    """
    assert spec.reader is not None  # ParamSpec.__post_init__
    if len(raw) > TEXT_LENGTH:
        why = f"is longer than {TEXT_LENGTH:,} characters"
    else:
        try:
            return spec.reader(raw), []
        except ValueError as refused:
            why = str(refused)
    return spec.default, [("error", f"Invalid {key} in the link: {as_typed(raw)} {why}. "
                                    f"Using {spec.show(spec.default)}.")]


def parse_param(spec: ParamSpec, raw: str | None, key: str | None = None) -> tuple[Any, list[Note]]:
    """Turn one raw URL value into a valid widget value, with messages for the user.

    Returns the value and a list of ``(level, message)`` notes: ``error`` when ``raw`` is not a
    finite number (the default is used), ``warning`` when it was clamped into range, ``info`` when
    snapping to the widget's grid changed it by more than 1 %. A message names ``key``, the key the link used (the
    spec's own, or an older alias), and shows the value as typed (:func:`as_typed`).
    """
    key = key or spec.key
    if raw is None:
        return spec.default, []
    if spec.kind == "text":
        return _parse_text(spec, raw, key)
    if not spec.numeric:
        return _parse_choice(spec, raw, key)
    try:
        number = float(raw)
    except ValueError:
        number = None
    if number is None or not math.isfinite(number):
        why = "not a number" if number is None else "not a finite number"
        instead = "Leaving it empty" if spec.default is None else f"Using the default {spec.show(spec.default)}"
        return spec.default, [("error", f"Invalid {key} in the link: {as_typed(raw)} is {why}. {instead}.")]
    low, high = spec.bounds
    clamped = min(max(number, low), high)
    value = _snap(spec, clamped)
    if clamped != number:
        return value, [("warning", f"{key} = {as_typed(raw)} in the link is outside [{spec.show(low)}, "
                                   f"{spec.show(high)}]; clamped to {spec.show(value)}.")]
    if abs(value - clamped) > 0.01 * abs(clamped):
        return value, [("info", f"{key} = {as_typed(raw)} in the link is not one of this page's values; "
                                f"using the nearest, {spec.show(value)}.")]
    return value, []


def url_text(value: Any) -> str:
    """How ``value`` is written into the URL (short, exact, parseable by :func:`parse_param`)."""
    if isinstance(value, float):
        return f"{value:.12g}"
    return str(value)


def grid_settings(specs: Sequence[ParamSpec]) -> list[dict[str, str]]:
    """The settings whose sweeps ``./lab.sh precompute`` stores, as URL queries: every combination of the options of
    the ``crossed`` specs but the defaults', then every option but the default of each other ``log`` and ``choice``
    spec (one move away from the defaults). The trial count is left out: it only sizes the Monte Carlo, and a stored
    run with another count previews it (:mod:`ui.progressive`).

    >>> grid_settings([delta_spec(low=1e-8, high=1e-6), trials_spec(), seed_spec()])
    [{'delta': '1e-08'}, {'delta': '1e-07'}]
    >>> a = ParamSpec(key="a", label="a", kind="choice", default="x", options=("x", "y"), crossed=True)
    >>> grid_settings([a, ParamSpec(key="b", label="b", kind="choice", default=1, options=(1, 2), crossed=True)])
    [{'a': 'x', 'b': '2'}, {'a': 'y', 'b': '1'}, {'a': 'y', 'b': '2'}]
    """
    crossed = [spec for spec in specs if spec.crossed]
    defaults = tuple(spec.default for spec in crossed)
    combinations = [{spec.key: url_text(option) for spec, option in zip(crossed, options)}
                    for options in itertools.product(*(spec.options for spec in crossed)) if options != defaults]
    return combinations + [{spec.key: url_text(option)} for spec in specs
                           if spec.kind in ("log", "choice") and spec.key != TRIALS_KEY and not spec.crossed
                           for option in spec.options if option != spec.default]


# ---------------------------------------------------------------------------- widgets
def _widget(spec: ParamSpec, parent: Any) -> Any:
    """Draw the widget for ``spec`` (its value comes from ``st.session_state``); a ``text`` control has none here (the
    page draws its own controls for it), its value is read from ``st.session_state``."""
    if spec.kind == "text":
        return st.session_state[f"w_{spec.key}"]
    common = dict(label=spec.label, key=f"w_{spec.key}", help=spec.help or None)
    if spec.kind == "seed":
        return parent.number_input(min_value=0, max_value=SEED_MAX, step=1, **common)
    if spec.kind in ("float", "int"):
        low, high = spec.bounds
        return parent.slider(min_value=low, max_value=high, step=spec.step, **common)
    if spec.kind == "number":
        low, high = spec.bounds
        return parent.number_input(min_value=float(low), max_value=float(high), step=spec.step, format="%g",
                                   placeholder=spec.placeholder or None, **common)
    if not spec.numeric:
        return parent.radio(options=spec.options, format_func=spec.show, horizontal=True, **common)
    return parent.select_slider(options=spec.options, format_func=spec.show, **common)


def controls(specs: Sequence[ParamSpec], *, location: Any = "sidebar") -> dict[str, Any]:
    """Draw one widget per spec, seeded from the URL, and keep the URL in sync with them.

    On the first run of a page in a session (see :func:`setup_page`) the URL query parameters seed
    the widgets, validated by :func:`parse_param` (a bad value gets an error, warning or info
    message in the page); afterwards the user's moves win. Every run writes the current values back
    into ``st.query_params`` (an empty ``number`` box is left out), so the address bar always reproduces the page.

    Parameters
    ----------
    specs : sequence of ParamSpec
    location : {"sidebar", "main"} or a container
        Where the widgets go: the sidebar, the page, or a container of the page (a column).

    Returns
    -------
    dict
        ``{spec.key: current value}``.
    """
    parent = st.sidebar if location == "sidebar" else st if location == "main" else location
    values = {}
    for spec in specs:
        widget_key = f"w_{spec.key}"
        if widget_key not in st.session_state:
            value, notes = parse_param(spec, *_from_url(spec))
            for level, message in notes:
                getattr(st, level)(message)
            st.session_state[widget_key] = value
        values[spec.key] = _widget(spec, parent)
    for spec in specs:
        text = None if values[spec.key] is None else url_text(values[spec.key])
        if text is None:  # an empty box: not in the URL
            st.query_params.pop(spec.key, None)
        elif st.query_params.get(spec.key) != text:
            st.query_params[spec.key] = text
        for alias in spec.aliases:
            st.query_params.pop(alias, None)
    return values


def _from_url(spec: ParamSpec) -> tuple[str | None, str]:
    """The URL's value for ``spec`` and the key it is under: its own, else its first alias present (an older link)."""
    for key in (spec.key, *spec.aliases):
        if key in st.query_params:
            return st.query_params[key], key
    return None, spec.key
