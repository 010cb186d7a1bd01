"""Checks shared by the tests of every page's exercises: what every variant of each kind must satisfy, the numbers a
test reads back from a prompt, what a page's tests start from (its exercises by key, its controls) and the seeds
hypothesis draws."""

import importlib
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import registry
from dpcore.exercises import PAGES
from dpcore.exercises.base import Exercise, Variant, grade
from ui import ParamSpec

#: A variant's seed, as :func:`dpcore.exercises.base.variant_seed` makes it: 48 bits
SEEDS = st.integers(0, 2**48 - 1)


def over_seeds(test: Callable[..., None]) -> Callable[..., None]:
    """``test(seed)`` (with any parameters before it) run by hypothesis on 60 seeds of :data:`SEEDS`, without a deadline
    (a variant's first draw may fill a cache)."""
    return settings(max_examples=60, deadline=None)(given(seed=SEEDS)(test))


class Page(NamedTuple):
    """What a page's tests start from: its exercises by key, its sidebar controls by URL key, their defaults."""

    exercise: dict[str, Exercise]
    specs: dict[str, ParamSpec]
    defaults: dict[str, Any]


def page(url: str) -> Page:
    """The page at ``url`` (its address, a key of :data:`dpcore.exercises.PAGES`): its exercises, and its controls as
    its settings module (``app_pages.settings.<its script's name>``) has them."""
    script = Path(registry.by_url_path(url).script).stem
    specs = {spec.key: spec for spec in importlib.import_module(f"app_pages.settings.{script}").SPECS}
    return Page({exercise.key: exercise for exercise in PAGES[url]}, specs,
                {key: spec.default for key, spec in specs.items()})


#: A number as a prompt writes it: a minus sign or hyphen, digits with thousands commas (``{,}`` inside math), a dot
NUMBER = r"([−-]?[0-9][0-9,{}]*(?:\.[0-9]+)?)"


def value(text: str) -> float:
    """A number as written in a prompt (``1{,}000``, ``21,640``, ``−0.3``) as a float."""
    return float(text.replace("{,}", "").replace(",", "").replace("−", "-"))


def read(pattern: str, text: str) -> float:
    """The number captured by ``pattern`` (whose ``{}`` stands for :data:`NUMBER`) in ``text``."""
    found = re.search(pattern.replace("{}", NUMBER), text)
    assert found, f"{pattern!r} not in {text!r}"
    return value(found.group(1))


def typed(answer: float, tolerance: float, comma: bool = False) -> str:
    """The answer as a student types it: to the tolerance's decimal place and one more, no thousands separators."""
    decimals = max(0, math.ceil(-math.log10(tolerance / 10)))
    text = f"{answer:.{decimals}f}"
    return text.replace(".", ",") if comma else text


def check_numeric(made: Variant, wrong: dict[str, float]) -> None:
    """The answer is graded right, typed too (a dot or a comma); answer ± 3 tolerances wrong; each named mistake
    ``wrong`` (what a hint is about) lies outside the tolerance and is graded wrong."""
    assert math.isfinite(made.answer) and made.tolerance > 0
    assert grade("numeric", made, made.answer).right
    assert grade("numeric", made, made.answer).said == made.why
    for comma in (False, True):
        assert grade("numeric", made, typed(made.answer, made.tolerance, comma)).right
    for sign in (-1, 1):
        assert not grade("numeric", made, made.answer + sign * 3 * made.tolerance).right
    for name, mistake in wrong.items():
        assert abs(mistake - made.answer) > made.tolerance, (name, mistake, made.answer, made.tolerance)
        assert not grade("numeric", made, mistake).right, name


def check_choice(made: Variant) -> None:
    """Exactly one choice is right, it says why; every wrong choice says its own reason."""
    verdicts = [grade("choice", made, index) for index in range(len(made.choices))]
    assert [verdict.right for verdict in verdicts].count(True) == 1
    assert verdicts[int(made.answer)].right and verdicts[int(made.answer)].said == made.why
    wrong = [verdict.said for verdict in verdicts if not verdict.right]
    assert all(wrong) and len(set(wrong)) == len(wrong) and made.why not in wrong
    assert 3 <= len(made.choices) <= 4


def check_stated(made: Variant, pattern: str, right: float, mistakes: dict[str, float], rel: float = 6e-3) -> None:
    """A choice exercise whose choices each state a number (``pattern`` reads it, as in :func:`read`): the right choice
    states ``right`` to ``rel``, the wrong ones the named ``mistakes`` (what their reasons are about) to 0.6 % (the
    choices are rounded); and :func:`check_choice`."""
    stated = [read(pattern, choice) for choice in made.choices]
    assert stated[int(made.answer)] == pytest.approx(right, rel=rel)
    wrong = sorted(number for index, number in enumerate(stated) if index != made.answer)
    assert wrong == pytest.approx(sorted(mistakes.values()), rel=6e-3), mistakes
    check_choice(made)


def outside_math(text: str) -> str:
    """``text`` without its ``$…$`` formulas."""
    return re.sub(r"\$[^$]*\$", "", text)


def check_words(made: Variant) -> None:
    """The words a student reads: formulas closed, two hints, no code on screen (file or function names, code marks,
    identifiers with underscores, format fields left unfilled), no unrounded float."""
    for text in (made.prompt, *made.hints, made.solution, made.why, *made.choices, *made.reasons):
        assert text.count("$") % 2 == 0, text
        plain = outside_math(text)
        assert "`" not in plain and ".py" not in plain and "dpcore" not in plain, text
        assert not re.search(r"\b\w+_\w+\b", plain), text
        unfilled = re.search(r"\{\w+(?::[^}]*)?\}", plain) or re.search(r"\{\w+:[^}]*\}", text)
        assert not unfilled, text  # a format field left unfilled (an f missing before a string)
        for written in re.findall(r"\d+\.\d+", text):  # no float printed in full: at most 6 significant digits
            assert len(written.replace(".", "").lstrip("0")) <= 6, (written, text)
    assert len(made.hints) == 2 and made.hints[0] != made.hints[1]
