"""dpcore.exercises.base: grading by kind, numbers as students type them, a variant's seed, a variant's rules."""

import hashlib

import numpy as np
import pytest

from dpcore.core.validation import InvalidParameterError
from dpcore.exercises.base import Exercise, Variant, grade, parse_number, variant_seed

NUMBER = Variant("Twice 0.2?", ("Double it.", "0.2 + 0.2."), "0.2 × 2 = 0.4.", "2 × 0.2 = 0.4.", 0.4, 0.005)
CHOICE = Variant("Which?", ("h1", "h2"), "B.", "B, because.", 1, choices=("A", "B", "C"),
                 reasons=("A forgets the 2.", "B, because.", "C squares it."))
TASK = Variant("Set ε to 1.", ("h1", "h2"), "ε = 1.", "ε = 1.", accepts=lambda params: params["eps"] == 1.0,
               controls=("eps",))

VALID_CALLS = {
    "grade": dict(kind="numeric", made=NUMBER, given=0.4),
    "parse_number": dict(typed="0.25"),
    "variant_seed": dict(student=1, page="truncation-bias", exercise="bias", attempt=0),
}


def test_a_number_is_right_within_its_tolerance_only():
    assert grade("numeric", NUMBER, 0.404).right and grade("numeric", NUMBER, "0,396").right
    assert not grade("numeric", NUMBER, 0.406).right and not grade("numeric", NUMBER, "-0.4").right
    assert grade("numeric", NUMBER, 0.4).said == NUMBER.why and grade("numeric", NUMBER, 1).said == ""


def test_a_wrong_choice_says_its_own_reason_and_a_bad_index_is_refused():
    assert [tuple(vars(grade("choice", CHOICE, index)).values()) for index in range(3)] == [
        (False, "A forgets the 2."), (True, "B, because."), (False, "C squares it.")]
    for bad in (3, -1, "B", None):
        with pytest.raises(InvalidParameterError):
            grade("choice", CHOICE, bad)


def test_a_task_is_graded_from_the_controls():
    assert grade("on_page", TASK, {"eps": 1.0}).right and not grade("on_page", TASK, {"eps": 0.5}).right


@pytest.mark.parametrize("typed, value", [("0.25", 0.25), (" 0,25 ", 0.25), ("−3", -3.0), ("-3", -3.0),
                                          ("1e-3", 0.001), ("12 %", 12.0), ("1 000", 1000.0), (".5", 0.5)])
def test_numbers_as_students_type_them(typed, value):
    assert parse_number(typed) == value


@pytest.mark.parametrize("typed", ["", "a half", "1/2", "0.2.3", "--1", "1,2,3", "nan", "inf"])
def test_what_is_not_a_number_is_refused_with_an_example(typed):
    with pytest.raises(InvalidParameterError, match="What you typed is not a number"):
        parse_number(typed)


def test_variant_seeds_differ_by_student_page_exercise_and_attempt_and_fit_48_bits():
    base = dict(student=1, page="truncation-bias", exercise="bias", attempt=0)
    seeds = {variant_seed(**{**base, key: value}) for key, value in
             [("student", 1), ("student", 2), ("page", "real-data"), ("exercise", "noise"), ("attempt", 1)]}
    assert len(seeds) == 5 and all(0 <= seed < 2**48 for seed in seeds)
    digest = hashlib.sha256(b"1|truncation-bias|bias|0").digest()  # the first 6 bytes of SHA-256, big-endian
    assert variant_seed(**base) == int.from_bytes(digest[:6], "big")


def test_a_variant_breaking_its_kinds_rules_is_refused():
    def made(**changes):
        return Exercise("x", changes.pop("kind"), "X", lambda rng: Variant(**{**NUMBER.__dict__, **changes}))
    with pytest.raises(InvalidParameterError, match="two hints"):
        made(kind="numeric", hints=("only one",)).variant(0)
    with pytest.raises(InvalidParameterError, match="positive tolerance"):
        made(kind="numeric", tolerance=0.0).variant(0)
    with pytest.raises(InvalidParameterError, match="distinct choices"):
        made(kind="choice", choices=("A", "A"), reasons=("r", "s"), answer=0).variant(0)
    with pytest.raises(InvalidParameterError, match="controls"):
        made(kind="on_page").variant(0)
    assert Exercise("x", "numeric", "X", lambda rng: NUMBER).variant(np.int64(3).item()) == NUMBER
