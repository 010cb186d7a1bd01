"""Exercises that check themselves: a question with numbers drawn for one student, graded by the library.

A topic page ends with "Check yourself": exercises of three kinds, each made afresh for a *variant* (a seed), so two
neighbours get different numbers and a student who tries again gets new ones.

* ``numeric``: a quantity the page teaches, computed by dpcore for the variant's numbers; right within an absolute
  ``tolerance`` (stated in the prompt with the unit).
* ``choice``: one right choice; every wrong choice has its own reason, the mistake it stands for.
* ``on_page``: a task solved with the page's own controls, graded from their values (``accepts``), not typed.

Every variant carries its two hints (the first points at the idea, the second at the computation), its worked
solution with its own numbers, and ``why``: the formula with those numbers, said when the answer is right.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ..core.validation import Choice, InstanceOf, Integer, InvalidParameterError, Text, validated

__all__ = ["Variant", "Exercise", "Verdict", "grade", "variant_seed", "parse_number"]

Kind = Literal["numeric", "choice", "on_page"]


@dataclass(frozen=True)
class Variant:
    """One student's version of an exercise.

    Parameters
    ----------
    prompt : str
        The question with this variant's numbers (Markdown, ``$…$`` for formulas); every symbol defined in it.
    hints : tuple of str
        Two hints, shown one after the other after a wrong answer.
    solution : str
        The worked solution with this variant's numbers ("Show the answer").
    why : str
        Why the right answer is right, with the formula and this variant's numbers.
    answer : float
        ``numeric``: the value; ``choice``: the index of the right choice; ``on_page``: unused (NaN).
    tolerance : float
        ``numeric``: the largest distance from ``answer`` that counts as right (stated in the prompt).
    unit : str
        ``numeric``: the answer's unit, said beside its box ("" for a pure number).
    choices : tuple of str
        ``choice``: the choices, in order.
    reasons : tuple of str
        ``choice``: one per choice, the mistake a wrong choice stands for (the right one's entry is ``why``).
    accepts : callable or None
        ``on_page``: given the page's control values (a mapping of URL key to value), whether they solve the task.
    controls : tuple of str
        ``on_page``: the URL keys of the controls the task is solved with.
    """

    prompt: str
    hints: tuple[str, str]
    solution: str
    why: str
    answer: float = math.nan
    tolerance: float = 0.0
    unit: str = ""
    choices: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    accepts: Callable[[Mapping[str, Any]], bool] | None = field(default=None, compare=False)
    controls: tuple[str, ...] = ()


@dataclass(frozen=True)
class Exercise:
    """An exercise of a page: its stable ``key`` (progress and receipts name it), its ``kind``, a short ``title``,
    and ``make``, which draws a :class:`Variant` from a random generator (every number of the variant from it)."""

    key: str
    kind: Kind
    title: str
    make: Callable[[np.random.Generator], Variant]

    def variant(self, seed: int) -> Variant:
        """The variant of seed ``seed`` (the same seed, the same numbers)."""
        made = self.make(np.random.default_rng(seed))
        _check_variant(self.kind, made)
        return made


@dataclass(frozen=True)
class Verdict:
    """A graded answer: ``right``, and ``said``: what the student is told (why it is right, or the mistake a wrong
    choice stands for; "" when the hints speak)."""

    right: bool
    said: str


def _check_variant(kind: Kind, made: Variant) -> None:
    if len(made.hints) != 2:
        raise InvalidParameterError(f"an exercise has two hints; this variant has {len(made.hints)}")
    if kind == "numeric" and not (math.isfinite(made.answer) and made.tolerance > 0):
        raise InvalidParameterError("a numeric exercise needs a finite answer and a positive tolerance")
    if kind == "choice" and (len(made.choices) < 2 or len(made.reasons) != len(made.choices)
                             or len(set(made.choices)) != len(made.choices)
                             or made.answer not in range(len(made.choices))):
        raise InvalidParameterError("a choice exercise needs distinct choices, a reason for each and a right one")
    if kind == "on_page" and (made.accepts is None or not made.controls):
        raise InvalidParameterError("a task on the page needs the controls it is solved with and its check")


@validated(kind=Choice(("numeric", "choice", "on_page")), made=InstanceOf(Variant, "an exercise's variant"))
def grade(kind: Kind, made: Variant, given: Any) -> Verdict:
    """Grade ``given`` against the variant ``made`` of an exercise of kind ``kind``.

    ``numeric``: ``given`` is a number (or the text typed, read by :func:`parse_number`), right when
    :math:`|x - \\text{answer}| \\le \\text{tolerance}`; ``choice``: the index chosen; ``on_page``: the page's
    control values.

    >>> made = Variant("Twice 0.2?", ("Double it.", "0.2 + 0.2."), "0.2 × 2 = 0.4.", "2 × 0.2 = 0.4.", 0.4, 0.005)
    >>> grade("numeric", made, "0.40"), grade("numeric", made, 0.41).right
    (Verdict(right=True, said='2 × 0.2 = 0.4.'), False)
    """
    if kind == "numeric":
        value = parse_number(given) if isinstance(given, str) else float(given)
        right = abs(value - made.answer) <= made.tolerance
        return Verdict(right, made.why if right else "")
    if kind == "choice":
        if not isinstance(given, int | np.integer) or not 0 <= given < len(made.choices):
            raise InvalidParameterError(f"the choice must be one of 0…{len(made.choices) - 1}; got {given!r}")
        right = int(given) == int(made.answer)
        return Verdict(right, made.why if right else made.reasons[int(given)])
    assert made.accepts is not None
    right = bool(made.accepts(given))
    return Verdict(right, made.why if right else "")


_NUMBER = re.compile(r"[+-−]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-−]?\d+)?")


@validated(typed=InstanceOf(str, "the text typed"))
def parse_number(typed: str) -> float:
    """The number a student typed: a dot or a comma as decimal mark, a minus sign or a hyphen, spaces and a trailing
    ``%`` ignored (a percentage stays in percent: the prompt says the unit).

    >>> parse_number(" 0,25 "), parse_number("−3"), parse_number("1e-3"), parse_number("12 %")
    (0.25, -3.0, 0.001, 12.0)
    """
    text = typed.strip().rstrip("%").strip().replace(" ", "").replace("\u202f", "")
    if not _NUMBER.fullmatch(text):
        raise InvalidParameterError("What you typed is not a number: type one such as 0.25 or 12 (digits, a dot or a "
                                    "comma, a minus sign).")
    return float(text.replace("−", "-").replace(",", "."))


@validated(student=Integer(low=0), page=Text(r"[a-z0-9][a-z0-9-]*", "a page's address (such as 'real-data')"),
           exercise=Text(r"[a-z0-9_]+", "an exercise's key (such as 'noise_scale')"), attempt=Integer(low=0))
def variant_seed(student: int, page: str, exercise: str, attempt: int) -> int:
    """The seed of a student's ``attempt``-th variant of ``exercise`` on ``page``: a hash of the four, so each
    student (``student``, the seed their browser keeps) gets their own numbers and every attempt new ones.

    >>> variant_seed(7, "truncation-bias", "bias", 0) == variant_seed(7, "truncation-bias", "bias", 0)
    True
    >>> variant_seed(7, "truncation-bias", "bias", 0) != variant_seed(8, "truncation-bias", "bias", 0)
    True
    """
    digest = hashlib.sha256(f"{student}|{page}|{exercise}|{attempt}".encode()).digest()
    return int.from_bytes(digest[:6], "big")
