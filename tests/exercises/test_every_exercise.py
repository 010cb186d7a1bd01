"""What every page's "Check yourself" keeps, whatever its topic: the three kinds, registered under the page's address;
the same seed, the same variant; seeds that vary the numbers; a variant drawn and checked quickly; the words a student
reads and the rules of its kind, on the page's own controls. Each page's module (``test_<page>.py``) checks its answers
against formulas of its own."""

import dataclasses
import importlib
import math
import pkgutil
import time
from typing import Any

import pytest

import dpcore.exercises
import registry
from dpcore.exercises import PAGES, for_page
from dpcore.exercises.base import Exercise, Variant
from tests.exercises.checks_of_kinds import check_choice, check_numeric, check_words, over_seeds, page

EXERCISES = [pytest.param(url, exercise, id=f"{url}/{exercise.key}")
             for url, exercises in PAGES.items() for exercise in exercises]


def fields(made: Variant) -> dict[str, Any]:
    """A variant's compared fields (all but ``accepts``), NaN (an unused answer) written as None so it equals itself."""
    values = {field.name: getattr(made, field.name) for field in dataclasses.fields(made) if field.compare}
    return {**values, "answer": None if math.isnan(values["answer"]) else values["answer"]}


def test_every_module_of_exercises_is_a_pages_own():
    modules = [importlib.import_module(f"dpcore.exercises.{info.name}")
               for info in pkgutil.iter_modules(dpcore.exercises.__path__) if not info.name.startswith("_")]
    listed = [module.EXERCISES for module in modules if hasattr(module, "EXERCISES")]
    assert len(listed) == len(PAGES) and all(any(exercises is page for page in PAGES.values()) for exercises in listed)


@pytest.mark.parametrize("url", list(PAGES))
def test_the_page_has_each_kind_and_is_registered(url):
    exercises = PAGES[url]
    kinds = [exercise.kind for exercise in exercises]
    assert len(kinds) >= 3 and {"numeric", "choice", "on_page"} <= set(kinds)
    assert len({exercise.key for exercise in exercises}) == len(kinds)  # progress and receipts name them by key
    titles = [exercise.title for exercise in exercises]
    assert len(set(titles)) == len(kinds) and all(titles)
    assert for_page(url) is exercises and registry.by_url_path(url).url_path == url
    assert page(url).specs  # the page has controls, read from its settings


@pytest.mark.parametrize("url, exercise", EXERCISES)
@over_seeds
def test_a_seed_gives_the_same_variant(url, exercise: Exercise, seed):
    first, again = exercise.variant(seed), exercise.variant(seed)
    assert fields(first) == fields(again)
    if first.accepts is not None and again.accepts is not None:
        defaults = page(url).defaults
        assert first.accepts(defaults) == again.accepts(defaults)


@pytest.mark.parametrize("url, exercise", EXERCISES)
def test_seeds_vary_the_numbers(url, exercise: Exercise):
    assert len({exercise.variant(seed).prompt for seed in range(30)}) >= 5


@pytest.mark.parametrize("url, exercise", EXERCISES)
def test_a_variant_is_drawn_and_checked_quickly(url, exercise: Exercise):
    defaults = page(url).defaults
    exercise.variant(0)  # anything remembered is remembered now
    start = time.perf_counter()
    for seed in range(20):
        made = exercise.variant(seed)
        if made.accepts is not None:
            made.accepts(defaults)
    assert (time.perf_counter() - start) / 20 < 0.05


@pytest.mark.parametrize("url, exercise", EXERCISES)
def test_every_variant_keeps_the_words_and_the_rules_of_its_kind(url, exercise: Exercise):
    """Words a student can read; numeric: right at its answer, typed too, wrong 3 tolerances off; choice: one right
    choice, a reason for each wrong one; on_page: solved with the page's own controls, not by an empty page. Each
    kind's variants leave the other kinds' fields empty."""
    _, specs, defaults = page(url)
    for seed in range(20):
        made = exercise.variant(seed)
        check_words(made)
        if exercise.kind == "numeric":
            check_numeric(made, {})
            assert made.accepts is None and not (made.choices or made.reasons or made.controls)
        elif exercise.kind == "choice":
            check_choice(made)
            assert made.accepts is None and not made.controls and made.tolerance == 0 and not made.unit
        else:
            assert made.controls and set(made.controls) <= set(specs) and len(set(made.controls)) == len(made.controls)
            assert made.accepts is not None and made.accepts({}) is False
            assert isinstance(made.accepts(defaults), bool)
            assert math.isnan(made.answer) and not (made.choices or made.reasons or made.tolerance or made.unit)
