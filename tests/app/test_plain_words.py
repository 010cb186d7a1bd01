"""Words a first-year can read (issue 28, item 4), checked on every page as drawn, with every question revealed, the
teacher view and "Go deeper" open: every glossary term a page's words use is declared by its lesson module
(``GLOSSARY``) and defined in the glossary, and every declared term is used; no labels of the old scheme (a letter and
a number in parentheses), no paper called "the seed", no code names, no raw TeX in figure labels, no typed caret for a
power (issue 40), and every option of every control shown in words.
"""

import importlib
import json
import re
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import ROOT, charts, teacher_browser  # noqa: E402

from classroom import browser  # noqa: E402
from dpcore.lessons.glossary import FORMS, TERMS  # noqa: E402
from registry import PAGES  # noqa: E402

IDS = [info.url_path or "home" for info in PAGES]


def lesson_of(info):
    return importlib.import_module(f"dpcore.lessons.{Path(info.script).stem}")


def declared(info) -> tuple[str, ...]:
    return getattr(lesson_of(info), "GLOSSARY", ())


def _figure_labels(spec: dict) -> list[str]:
    """Every text a figure shows: titles, axis titles, legend names, annotations, slider prefixes."""
    layout, found = spec.get("layout", {}), []

    def text(value):
        return value.get("text") if isinstance(value, dict) else value
    found.append(text(layout.get("title")))
    for key, value in layout.items():
        if key.startswith(("xaxis", "yaxis")) and isinstance(value, dict):
            found.append(text(value.get("title")))
    found += [annotation.get("text") for annotation in layout.get("annotations", []) or []]
    found += [(slider.get("currentvalue") or {}).get("prefix") for slider in layout.get("sliders", []) or []]
    for frame in [spec, *spec.get("frames", [])]:
        found += [trace.get("name") for trace in frame.get("data", [])]
        found += [text((trace.get("colorbar") or trace.get("marker", {}).get("colorbar") or {}).get("title"))
                  for trace in frame.get("data", [])]
        found.append(text((frame.get("layout") or {}).get("title")))
    return [label for label in found if isinstance(label, str) and label]


class Drawn:
    """A page's words as drawn: ``prose`` (Markdown, captions, alerts, formulas), ``controls`` (labels, help,
    options as shown), ``labels`` (figure texts); the glossary itself left out (it is ``glossary``, the same on
    every page), and the "In words" sentence under each figure, which says the figure's labels again (written by
    :mod:`dpcore.viz.summary`)."""

    def __init__(self, info):
        at = AppTest.from_file(str(ROOT / info.script), default_timeout=600)
        for key, value in {"reveal": "1", "teacher": "1"}.items():
            at.query_params[key] = value
        at.session_state["go_deeper"] = True
        at.session_state["teacher_notes"] = True  # the teacher view's notes, folded until opened
        at.session_state[browser.SESSION] = teacher_browser()  # the teacher's browser, which keeps the key
        at.run()
        assert not at.exception, at.exception
        glossary = {element.value for expander in at.sidebar.expander if expander.label == "Glossary"
                    for element in [*expander.markdown, *expander.caption]}
        self.glossary = sorted(glossary)
        # a link's address is not words a student reads (the teacher's links carry the page's settings: family=lomax)
        self.prose = [re.sub(r"\]\(/[^)\s]*\)", "](…)", element.value)
                      for kind in ("markdown", "caption", "latex", "info", "warning", "success", "subheader", "header")
                      for element in getattr(at, kind)
                      if element.value not in glossary and not element.value.startswith("In words:")]
        self.controls, self.options = [], {}
        for kind in ("slider", "select_slider", "radio", "number_input", "selectbox", "button", "checkbox",
                     "expander"):
            for element in getattr(at, kind):
                proto = element.proto
                self.controls += [proto.label, getattr(proto, "help", "") or ""]
                if kind == "radio":
                    self.options[proto.label] = list(proto.options)
        self.controls = [text for text in self.controls if text]
        self.labels = [label for spec in charts(at).values() for label in _figure_labels(spec)]

    @property
    def words(self) -> str:
        return "\n".join([*self.prose, *self.controls, *self.labels, *(" ".join(o) for o in self.options.values())])


@pytest.fixture(scope="module")
def drawn():
    cache = {}

    def get(info):
        if info.script not in cache:
            cache[info.script] = Drawn(info)
        return cache[info.script]
    return get


def used_terms(words: str) -> set[str]:
    return {term for term, forms in FORMS.items() if any(re.search(form, words, re.I) for form in forms)}


def test_every_glossary_term_is_used_by_some_page():
    used = {term for info in PAGES for term in declared(info)}
    assert not set(TERMS) - used, sorted(set(TERMS) - used)


def test_every_term_is_defined_and_has_its_forms():
    assert set(FORMS) == set(TERMS)
    names = [re.sub(r"^[^A-Za-z]+\(|\)$", "", term.replace("ℓ₁", "l1").replace("ℓ₂", "l2")).lower() for term in TERMS]
    assert names == sorted(names), "the glossary is in alphabetical order"
    for info in PAGES:
        assert set(declared(info)) <= set(TERMS), (info.script, set(declared(info)) - set(TERMS))
        assert len(set(declared(info))) == len(declared(info)), info.script


@pytest.mark.parametrize("info", PAGES, ids=IDS)
def test_a_page_declares_exactly_the_glossary_terms_its_words_use(info, drawn):
    used, said = used_terms(drawn(info).words), set(declared(info))
    assert not used - said, f"{info.script} uses these glossary terms without declaring them: {sorted(used - said)}"
    assert not said - used, f"{info.script} declares these terms but its words never use them: {sorted(said - used)}"


OLD_LABELS = re.compile(r"\([A-Z]\d+[a-z]?\)|\bBST14\b|\bKSU20\b|\bHKM22\b|\bZZ25\b|\bBKSW19\b")
SEED_AS_PAPER = re.compile(r"\bthe seed(?:'s| uses| paper)|\bseed 0\d\d\b", re.I)
CODE_NAMES = re.compile(r"\bdpcore\.[a-z_]+|\b[a-z]+_[a-z_]+\(|\ba_min\b")
RAW_TEX = re.compile(r"[A-Za-zμ)][_^]\{?[A-Za-z0-9]|\\[a-zA-Z]+")


@pytest.mark.parametrize("info", PAGES, ids=IDS)
def test_no_old_labels_no_seed_paper_no_code_names(info, drawn):
    """Papers by author and year, never a bare label (a letter and a number), "BST14" or "the seed"; no module,
    function or variable names the student does not have (the home page says the downloaded snippet uses the library
    dpcore: the student has that snippet)."""
    page = drawn(info)
    for text in [*page.prose, *page.controls, *page.labels]:
        text = re.sub(r"\$\$.*?\$\$|\$[^$\n]+\$", "", text, flags=re.S)  # rendered math is not code
        assert not OLD_LABELS.search(text), (info.script, OLD_LABELS.search(text).group(), text[:200])
        assert not SEED_AS_PAPER.search(text), (info.script, text[:200])
        if "pip install" not in text and "import " not in text:
            assert not CODE_NAMES.search(text), (info.script, CODE_NAMES.search(text).group(), text[:200])


@pytest.mark.parametrize("info", PAGES, ids=IDS)
def test_figure_labels_and_controls_have_no_raw_tex(info, drawn):
    """Subscripts as Unicode (Hᵢ) or rendered (<sub>), never typed TeX (H_i, d_TV, A_k, \\alpha)."""
    page = drawn(info)
    for text in [*page.labels, *page.controls, *(o for options in page.options.values() for o in options)]:
        plain = re.sub(r"<[^>]+>", "", text)
        assert not RAW_TEX.search(plain.replace("^−", "").replace("^-", "")) or "^" in plain and "_" not in plain, (
            info.script, text)
        assert "_" not in plain and "\\" not in plain, (info.script, text)


@pytest.mark.parametrize("info", PAGES, ids=IDS)
def test_prose_has_no_raw_tex_outside_rendered_math(info, drawn):
    """A subscript or a TeX command in the prose is written in $…$ (rendered) or in Unicode (pⱼ), never typed as
    ``n_P``, ``E_{μ,S}`` or ``\\delta`` in plain text."""
    for text in [*drawn(info).prose, *drawn(info).controls]:
        plain = re.sub(r"\$\$.*?\$\$|\$[^$\n]+\$", "", text, flags=re.S)  # rendered math
        plain = re.sub(r"\]\([^)]*\)", "]", plain)  # a link's address
        found = re.search(r"[A-Za-zα-ωΑ-Ω)\]}]_[A-Za-z0-9{(]|\\[a-zA-Z]+", plain)
        assert not found, (info.script, found.group(), plain[max(0, found.start() - 60):found.end() + 60])


def outside_rendered_math(text: str) -> str:
    """``text`` without its ``$$…$$`` and ``$…$`` formulas, which the page renders (TeX writes a power with ``^``)."""
    return re.sub(r"\$\$.*?\$\$|\$[^$\n]+\$", "", text, flags=re.S)


@pytest.mark.parametrize("info", PAGES, ids=IDS)
def test_no_caret_in_the_words(info, drawn):
    """A power is a superscript (n⁻⁰·⁷², d¹·⁵, E|X − μ|ᵏ; ``<sup>`` in a chart) or rendered math ($e^{\varepsilon}$),
    never a typed caret (``n^-0.72``, ``E|X − μ|^3``): in the prose, captions, takeaways, questions and answers, the
    controls and their options, the glossary and every figure's texts (a chart renders no ``$…$``)."""
    page = drawn(info)
    written = [outside_rendered_math(text) for text in [*page.prose, *page.controls, *page.glossary]]
    shown = [*page.labels, *(option for options in page.options.values() for option in options)]
    carets = [text[max(0, text.index("^") - 60):text.index("^") + 30] for text in [*written, *shown] if "^" in text]
    assert not carets, (info.script, carets)


@pytest.mark.parametrize("info", PAGES, ids=IDS)
def test_a_seed_is_named_only_where_the_page_has_one(info, drawn):
    """A page without a seed control never names a seed: the home page's "(seed 0)" was a number the reader can
    neither see nor change (issue 40)."""
    page = drawn(info)
    if not any("seed" in control.lower() for control in page.controls):
        assert not re.search(r"\bseed\b", page.words, re.I), (info.script, re.findall(r".{60}\bseed\b.{20}",
                                                                                      page.words, re.I))


@pytest.mark.parametrize("info", PAGES, ids=IDS)
def test_no_doubled_punctuation_or_one_times(info, drawn):
    """No typing slips a student stumbles on: a doubled comma or semicolon ("score,,"), a stray space before one, or
    a factor that says nothing ("1× smaller")."""
    for text in [*drawn(info).prose, *drawn(info).controls, *drawn(info).labels]:
        found = re.search(r"([,;])\s*\1|\s[,;]|(?<![\d.,])[01]× (?:smaller|larger|the)", re.sub(r"`[^`]*`", "", text))
        assert not found, (info.script, text[max(0, found.start() - 60):found.end() + 30])


@pytest.mark.parametrize("info", PAGES, ids=IDS)
def test_every_option_is_shown_in_words(info, drawn):
    """No option shown as an id: lower-case with a hyphen or underscore that is not a word pair (``laplace-count``),
    or a lower-case proper name (``lomax``, ``gaussian``)."""
    names = re.compile(r"^(?:lomax|gaussian|laplace|student-t|[a-z]+[-_][a-z]+-[a-z-]+|[a-z]+_[a-z_]+)$")
    for label, options in drawn(info).options.items():
        for option in options:
            assert not names.match(option), (info.script, label, option)


def test_the_truncation_page_names_its_distributions():
    page = Drawn(next(info for info in PAGES if info.url_path == "truncation-bias"))
    assert page.options["Distribution"] == ["Lomax (Pareto II)", "two-point law", "Student's t", "Gaussian"]
    assert page.options["Bounded moment order k"][-1] == "∞ (Gaussian)"
    assert "Error vs n, Lomax (Pareto II), ε = 1" in [label.replace("<br>", " ") for label in page.labels]
    words = page.words
    for phrase in ("(centre c, radius t)", "the estimate μ̂", "The orange bars", "*survival set*", "*warm start*",
                   "E is the expected value", "Lemma 3.1", "Theorem 3.8", "Bassily, Smith & Thakurta 2014"):
        assert phrase in words, phrase
    for gone in ("Red bars", "a_min", "(T" + "1)", "(T" + "5a)", "the seed", "`dpcore", "lomax"):
        assert gone not in words, gone


def test_the_glossary_is_at_the_top_of_the_sidebar():
    at = AppTest.from_file(str(ROOT / PAGES[3].script), default_timeout=600).run()
    blocks = at.sidebar.main if hasattr(at.sidebar, "main") else at.sidebar
    kinds = [type(block).__name__ for block in blocks.children.values()]
    first = next(index for index, block in enumerate(blocks.children.values())
                 if getattr(block, "label", None) == "Glossary")
    assert first == 0, kinds
    text = json.dumps([element.value for element in at.sidebar.expander[0].markdown])
    assert "Lomax (Pareto II)" in text and "type I and type II errors" in text
    (count, here) = [element.value for element in at.sidebar.expander[0].caption]
    assert count == f"{len(TERMS)} words the pages use, A to Z (Greek letters by their names)."
    assert here.startswith("On this page: bias, clipping, composition,") and "warm start" in here
    assert "Scheffé set" not in here  # a tournament word, not a truncation one
