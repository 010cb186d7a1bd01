"""The offline handout: one page of the lab as one self-contained HTML lesson, to download, open without the internet
and print.

:class:`ui.Page` records what it shows, in order (an :data:`Outline`: headings, prose, formulas, figures with their
sentence in words, questions, takeaways); :func:`handout_html` turns that outline, the page's registry entry and
its settings into one HTML document: prose from Markdown (raw HTML in the text is escaped, never run), formulas as
MathML (drawn by the browser itself, no web font or script), each figure interactive (plotly.js inlined once), the
questions with room for a guess. The teacher's edition adds each answer and the page's discussion notes. Printed,
it fits A4: no figure cut across pages, no buttons, each link's address written out.

The student's handout asks every question, so it holds back whatever answers one (:class:`Held`: the figure behind a
question, a takeaway or caption in its held-back form), as the page does before "Reveal"; the teacher's edition shows
it all.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from latex2mathml.converter import convert
from markdown_it import MarkdownIt
from plotly.io.json import to_json_plotly
from plotly.offline import get_plotlyjs

from dpcore.viz.summary import figure_name
from registry import PageInfo

__all__ = ["Edition", "Heading", "Text", "Chart", "Ask", "Exercise", "Notice", "Held", "Outline", "AFTER_GUESS",
           "handout_html", "markdown_html", "formula_html", "settings_in_words", "stretchy_fences"]

Edition = Literal["student", "teacher"]  #: the student's handout, or the teacher's edition (answers, notes)


@dataclass(frozen=True)
class Heading:
    """A section's heading."""

    text: str


@dataclass(frozen=True)
class Text:
    """A block of the page's Markdown: ``kind`` "prose" (Markdown, maybe with inline ``$…$``) or "formula"."""

    kind: str
    text: str


@dataclass(frozen=True)
class Chart:
    """A figure as drawn (Plotly's dictionary) and the sentence that says what it shows."""

    figure: dict
    summary: str


@dataclass(frozen=True)
class Ask:
    """A predict-then-reveal question: its prompt, its choices and the answer's explanation."""

    prompt: str
    choices: tuple[str, ...]
    answer: str


@dataclass(frozen=True)
class Exercise:
    """A "Check yourself" exercise in the variant on screen: its title, prompt, choices (none for a number or a task
    on the page) and worked answer (the teacher's edition only)."""

    title: str
    prompt: str
    choices: tuple[str, ...]
    answer: str


@dataclass(frozen=True)
class Notice:
    """"What to notice": the takeaway lines computed for the settings."""

    lines: tuple[str, ...]


Item = Heading | Text | Chart | Ask | Exercise | Notice


@dataclass(frozen=True)
class Held:
    """What answers a question of the page, in each edition: the student's handout shows ``student`` (its held-back
    form, or nothing: None), the teacher's edition ``teacher`` (the answer as the page shows it after "Reveal")."""

    student: Item | None
    teacher: Item | None


Outline = Sequence[Item | Held]

#: Under each question of the student's handout: where its answer is (the page holds it back until "Reveal")
AFTER_GUESS = ("The answer, and the figure or numbers that show it, come after your guess: on the live page after "
               "“Reveal”, or from your teacher.")

_MATH = re.compile(r"(?<![\\$])\$([^$\n]+?)\$(?!\$)")  # inline $…$ (not $$, not an escaped \$)
_LAB_LINK = re.compile(r"\[([^\]]+)\]\((/[^)\s]*)\)")  # a Markdown link to a page of the lab: [words](/path?query)
_NOTE = re.compile(r"\s*\(.*?\)")  # a label's parenthesised note: "(log scale)"
_ALLOW_BREAK = re.compile(r"\\allowbreak(?![A-Za-z])")  # KaTeX's break point (assets/fit_formulas.js): MathML has none
_MARKDOWN = MarkdownIt("commonmark", {"html": False, "typographer": False})  # raw HTML in the text is shown, not run


#: A delimiter of a fixed TeX size, ``\big(`` to ``\Bigg\}`` (``l`` or ``r`` after the size: which side it is on).
_SIZED = re.compile(r"\\(?:bigg|Bigg|big|Big)([lr]?)(?![a-zA-Z])\s*(\\[{}|]|\\[a-zA-Z]+|[()\[\]|./])")
_OPENING = {"(", "[", "\\{", "\\langle", "\\lceil", "\\lfloor", "\\lvert", "\\lVert"}
_CLOSING = {")", "]", "\\}", "\\rangle", "\\rceil", "\\rfloor", "\\rvert", "\\rVert"}


def stretchy_fences(latex: str) -> str:
    r"""``latex`` with each pair of fixed-size delimiters (``\Big( … \Big)``) made a pair of fences that fit what they
    enclose, ``\left( … \right)``: latex2mathml writes those as ``<mo stretchy="true">``, which the browser grows to
    its content, where a fixed size's closing bracket under an exponent (``\Big)^{k}``) stayed unstretched. Left as it
    is when the delimiters do not pair up within one group of braces.

    >>> print(stretchy_fences(r"\Big(\frac{1}{\varepsilon n}\Big)^{k} + \big|x\big| + \max\Big\{a, b\Big\}"))
    \left(\frac{1}{\varepsilon n}\right)^{k} + \left|x\right| + \max\left\{a, b\right\}
    >>> print(stretchy_fences(r"\Big( x"))  # unpaired: kept
    \Big( x
    """
    depth, depths = 0, []
    for index, char in enumerate(latex):
        depths.append(depth)
        escaped = index > 0 and latex[index - 1] == "\\"
        depth += (char == "{" and not escaped) - (char == "}" and not escaped)
    open_at: list[tuple[str, int]] = []
    sides: list[str] = []
    for match in _SIZED.finditer(latex):
        side, delimiter, level = match.group(1), match.group(2), depths[match.start()]
        opens = side == "l" or (not side and (delimiter in _OPENING or delimiter not in _CLOSING
                                              and not (open_at and open_at[-1] == (delimiter, level))))
        if opens:
            open_at.append((delimiter, level))
        elif not open_at or open_at.pop()[1] != level:
            return latex
        sides.append("\\left" if opens else "\\right")
    if open_at:
        return latex
    turns = iter(sides)
    return _SIZED.sub(lambda match: next(turns) + match.group(2), latex)


def formula_html(latex: str, display: bool = False) -> str:
    r"""The LaTeX formula ``latex`` as MathML, which the browser draws by itself (offline, printable); fixed-size
    delimiters become fences that stretch to their content (:func:`stretchy_fences`).

    >>> formula_html(r"\frac{1}{n}")[:5], "<mfrac>" in formula_html(r"\frac{1}{n}")
    ('<math', True)
    >>> chr(92) in formula_html(r"\Big\{ x \Big\}")  # no backslash left
    False
    >>> formula_html(r"\Big(\frac{1}{n}\Big)^{2}").count('stretchy="true"')
    2
    >>> chr(92) in formula_html(r"a \qquad \allowbreak b")  # a line-break hint for the page, not drawn here
    False
    """
    mathml = convert(stretchy_fences(_ALLOW_BREAK.sub("", latex)), display="block" if display else "inline")
    return mathml.replace(">\\{<", ">{<").replace(">\\}<", ">}<")  # latex2mathml leaves \Big\{ as its command


def markdown_html(text: str, lab: str | None = None, inline: bool = False) -> str:
    """The Markdown ``text`` as HTML: inline ``$…$`` formulas as MathML, raw HTML escaped (shown as text, never run),
    each link to a page of the lab made absolute on the lab's public address ``lab`` (without one: its words only,
    no link that would not open). ``inline``: one line's Markdown, not wrapped in a paragraph.

    >>> markdown_html("**Clip** to $[-t, t]$ <script>x</script>")[:40]
    '<p><strong>Clip</strong> to <math xmlns='
    >>> "&lt;script&gt;" in markdown_html("<script>alert(1)</script>")
    True
    """
    formulas: list[str] = []

    def hold(match: re.Match) -> str:
        formulas.append(formula_html(match.group(1).strip()))
        return f"\ue000{len(formulas) - 1}\ue000"
    held = _MATH.sub(hold, text)
    held = _LAB_LINK.sub(lambda match: f"[{match.group(1)}]({lab.rstrip('/')}{match.group(2)})" if lab
                         else match.group(1), held)
    rendered = _MARKDOWN.renderInline(held) if inline else _MARKDOWN.render(held)
    return re.sub("\ue000(\\d+)\ue000", lambda match: formulas[int(match.group(1))], rendered)


def settings_in_words(settings: Sequence[tuple[str, str]]) -> str:
    """The settings ``(label, value as shown)`` in one line, labels without their parenthesised notes.

    >>> settings_in_words([("Privacy budget ε (log scale)", "1"), ("Sample size n (log scale)", "1,000")])
    'Privacy budget ε = 1, Sample size n = 1,000'
    """
    return ", ".join(f"{_NOTE.sub('', label)} = {value}" for label, value in settings)


def handout_html(info: PageInfo, outline: Outline, settings: Sequence[tuple[str, str]], *, link: str | None = None,
                 lab: str | None = None, deeper: Sequence[Text] = (), notes: Sequence[Text] = (),
                 edition: Edition = "student") -> str:
    """One page of the lab as a self-contained HTML lesson.

    Parameters
    ----------
    info : PageInfo
        The page's registry entry: title, objectives, minutes, what to know first.
    outline : Outline
        What the page showed, in order, at the settings.
    settings : sequence of (str, str)
        The page's controls: each one's label and value as shown.
    link : str, optional
        The live page at these settings, on the lab's public address (none known: no link is given).
    lab : str, optional
        The lab's public address, for the links in the text to other pages of the lab.
    deeper, notes : sequence of Text
        The "Go deeper" part (algorithms, references) and the teacher's notes (the teacher's edition only).
    edition : {"student", "teacher"}
        The student's handout (room for a guess under each question) or the teacher's (with the answers and notes).

    Returns
    -------
    str
        The HTML document, plotly.js included once: it opens and prints with no network.
    """
    teacher = edition == "teacher"
    title = f"{info.heading}: {'teacher’s edition' if teacher else 'handout'}"
    body = [f"<h1>{html.escape(info.heading)}</h1>", _front(info, settings, link, teacher)]
    body += [_block(item, teacher, lab, number) for number, item in enumerate(outline)]
    if deeper:
        body += ["<section><h2>Go deeper: algorithms, guarantees, references</h2>",
                 *(_text(item, lab) for item in deeper), "</section>"]
    if teacher and notes:
        body += ["<section class='teacher'><h2>Teacher’s edition: questions for discussion, settings to show live</h2>",
                 *(_text(item, lab) for item in notes), "</section>"]
    return (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{html.escape(title)}</title>"
            f"<style>{_STYLE}</style><script>{_plotly_js()}</script></head>"
            f"<body><main>{''.join(body)}</main></body></html>\n")


@functools.cache
def _plotly_js() -> str:
    """plotly.js as the plotly package bundles it (minified), read once."""
    return get_plotlyjs()


def _front(info: PageInfo, settings: Sequence[tuple[str, str]], link: str | None, teacher: bool) -> str:
    """The handout's opening: the edition, the objectives, time and prerequisites, the settings, the live page."""
    parts = ["<p class='edition'>Teacher’s edition: with the answers and notes for discussion</p>" if teacher
             else "<p class='edition'>Handout: an offline lesson from Private Estimation Lab</p>"]
    if info.objectives:
        parts.append("<h2>After this page you can</h2><ul>"
                     + "".join(f"<li>{html.escape(line)}</li>" for line in info.objectives) + "</ul>")
    if info.minutes:
        parts.append(f"<p>About {info.minutes} minutes in class. First: {html.escape(info.needs)}.</p>")
    if settings:
        parts.append(f"<p>Made at these settings: {html.escape(settings_in_words(settings))}.</p>")
    if link:
        parts.append(f"<p>The live page at these settings: <a href='{html.escape(link)}'>{html.escape(link)}</a></p>")
    return "".join(parts)


def _block(item: Item | Held | None, teacher: bool, lab: str | None, number: int) -> str:
    """One item of the outline as HTML (``number``: its place, for the ids of a chart and a question); of a
    :class:`Held` item, this edition's form."""
    if isinstance(item, Held):
        item = item.teacher if teacher else item.student
    if item is None:
        return ""
    if isinstance(item, Heading):
        return f"<h2>{html.escape(item.text)}</h2>"
    if isinstance(item, Text):
        return _text(item, lab)
    if isinstance(item, Chart):
        return _chart(item, f"chart-{number}")
    if isinstance(item, Ask):
        return _ask(item, teacher, f"question-{number}")
    if isinstance(item, Exercise):
        return _exercise(item, teacher, f"exercise-{number}")
    return ("<section class='notice'><h2>What to notice</h2><ul>"
            + "".join(f"<li>{markdown_html(line, lab, inline=True)}</li>" for line in item.lines) + "</ul></section>")


def _text(item: Text, lab: str | None) -> str:
    if item.kind == "formula":
        return f"<div class='formula'>{formula_html(item.text, display=True)}</div>"
    return markdown_html(item.text, lab)


def _chart(chart: Chart, ident: str) -> str:
    """A figure drawn by plotly.js where it stands (frames and all: Play works), its name for a screen reader (on the
    ``<figure>``: not ``role="img"``, which would hide its Play button and slider), and its sentence in words under it
    (what a printout or a browser without scripts keeps)."""
    name = html.escape(figure_name(chart.figure), quote=True)
    data = to_json_plotly(dict(chart.figure)).replace("</", "<\\/")
    printed = ("<p class='print-only'>Printed here: the frame the chart opens on; on screen, Play runs through them all"
               ".</p>" if chart.figure.get("frames") else "")
    return (f"<figure class='chart' aria-label='{name}'><div id='{ident}' class='plot'></div>"
            f"<noscript><p>This chart is drawn by JavaScript, which is off: the sentence below says what it shows."
            f"</p></noscript>{printed}<figcaption>In words: {html.escape(chart.summary)}</figcaption></figure>"
            f"<script>(function () {{ const figure = {data};"
            f" Plotly.newPlot('{ident}', {{data: figure.data, layout: figure.layout, frames: figure.frames,"
            f" config: {{displaylogo: false}}}}); }})();</script>")


def _ask(ask: Ask, teacher: bool, ident: str) -> str:
    """A question: its choices with a box each; the student's room for a guess, or the teacher's answer."""
    choices = "".join(f"<li><span class='box' aria-hidden='true'>☐</span> {markdown_html(choice, inline=True)}</li>"
                      for choice in ask.choices)
    after = (f"<p class='answer'><strong>Answer:</strong> {markdown_html(ask.answer, inline=True)}</p>" if teacher
             else "<p class='guess'>Your guess: ____________ Why? ______________________________</p>"
             f"<p class='later'>{html.escape(AFTER_GUESS)}</p>")
    return (f"<section class='question' aria-labelledby='{ident}'><h3 id='{ident}'>Predict first</h3>"
            f"{markdown_html(ask.prompt)}<ul class='choices'>{choices}</ul>{after}</section>")


def _exercise(exercise: Exercise, teacher: bool, ident: str) -> str:
    """An exercise: its prompt and choices with a box each; room for the student's answer, or the worked answer."""
    choices = "".join(f"<li><span class='box' aria-hidden='true'>☐</span> {markdown_html(choice, inline=True)}</li>"
                      for choice in exercise.choices)
    after = (f"<p class='answer'><strong>Answer:</strong> {markdown_html(exercise.answer, inline=True)}</p>"
             if teacher else "<p class='guess'>Your answer: ______________________________</p>")
    listed = f"<ul class='choices'>{choices}</ul>" if choices else ""
    return (f"<section class='question' aria-labelledby='{ident}'><h3 id='{ident}'>{html.escape(exercise.title)}"
            f"</h3>{markdown_html(exercise.prompt)}{listed}{after}</section>")


_STYLE = """
:root { color: #1a1a1a; background: #fff; font: 17px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { box-sizing: border-box; max-width: 40rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.9rem; line-height: 1.2; margin: 0 0 .4rem; }
h2 { font-size: 1.35rem; margin: 2rem 0 .5rem; border-bottom: 1px solid #c8c8c8; }
h3 { font-size: 1.05rem; margin: 0 0 .4rem; }
a { color: #0645ad; }
.edition { color: #4a4a4a; font-style: italic; margin-top: 0; }
.formula { overflow-x: auto; overflow-y: hidden; padding: .25em 0; margin: 1rem 0; }
math { font-family: "STIX Two Math", "Cambria Math", "Latin Modern Math", "DejaVu Math TeX Gyre", "Noto Sans Math",
  "Libertinus Math", math; }
math[display="block"] { font-size: 1.15em; }
.chart { margin: 1.2rem 0; overflow-x: auto; break-inside: avoid; page-break-inside: avoid; }
.plot { width: 100%; min-height: 300px; }
figcaption { font-size: .93rem; color: #333; margin-top: .3rem; }
.question { border: 2px solid #4a4a4a; border-radius: 6px; padding: .8rem 1rem; margin: 1.2rem 0;
  break-inside: avoid; page-break-inside: avoid; }
.choices { list-style: none; padding-left: .3rem; }
.box { font-size: 1.2em; }
.guess { font-weight: 600; }
.later { font-size: .93rem; color: #333; font-style: italic; margin-bottom: 0; }
.answer { background: #eef5ee; border-left: 4px solid #1e6b2e; padding: .4rem .6rem; }
.teacher { border-top: 3px double #4a4a4a; }
.print-only { display: none; }
@media print {
  @page { size: A4; margin: 15mm; }
  :root { font-size: 11pt; }
  body { margin: 0; }
  main { max-width: none; padding: 0; }
  .plot { max-width: 180mm; overflow: hidden; }
  .modebar-container, .updatemenu-container { display: none !important; }
  .print-only { display: block; font-size: .93rem; font-style: italic; margin: .2rem 0 0; }
  a[href^="http"]::after { content: " (" attr(href) ")"; word-break: break-all; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
}
"""
