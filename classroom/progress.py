"""A student's progress through the course: what the browser keeps (never the server), and its rules.

The progress is a small JSON document kept in the student's browser (:mod:`classroom.progress_storage`), moved
between devices as a file ("Download my progress", "Load my progress"). It holds the student's seed (their exercises'
numbers: :func:`dpcore.exercises.variant_seed`), per page the answers checked, the right ones, the current run of
right answers and whether the page is mastered, per exercise the variant reached and the hints shown, and the
receipts the lab signed (:mod:`classroom.receipts`).

Mastery follows Kolibri's rule (Learning Equality, "n right in a row"): a page is mastered after
:data:`IN_A_ROW` right answers in a row, a new variant after each right one; a wrong answer, or an answer shown,
starts the run again. A file from elsewhere is read with every field checked (:func:`from_json`): a bad one is
refused with a message and nothing changes.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, field
from typing import TypeGuard

__all__ = ["IN_A_ROW", "MAX_BYTES", "FORMAT", "ProgressError", "ExerciseState", "PageProgress", "Progress",
           "new_progress", "from_json", "to_json"]

IN_A_ROW = 3  #: right answers in a row that master a page
MAX_BYTES = 256 * 1024  #: the largest progress file read
FORMAT = "Private Estimation Lab progress"  #: the file's "lab" field: what tells it from any other JSON
_VERSION = 1
_MAX_COUNT = 10**6
_MAX_RECEIPTS = 1000
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,47}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,400}\.[A-Za-z0-9_-]{1,100}")


class ProgressError(ValueError):
    """A progress file the lab cannot read; its message says why, in the student's words."""


@dataclass
class ExerciseState:
    """One exercise on one page: ``attempt``, the variant reached (a new one after each right answer or an answer
    shown); ``wrong``, the wrong answers given to this variant (1: the first hint is shown, 2: the second, and "Show
    the answer" is offered); ``shown``, whether this variant's answer was shown."""

    attempt: int = 0
    wrong: int = 0
    shown: bool = False


@dataclass
class PageProgress:
    """One page: answers checked (``tried``), right ones (``solved``), the current run of right answers
    (``streak``), ``mastered`` (kept once reached), and each exercise's state."""

    tried: int = 0
    solved: int = 0
    streak: int = 0
    mastered: bool = False
    exercises: dict[str, ExerciseState] = field(default_factory=dict)

    def state(self) -> str:
        """"mastered", "solved" (a right answer), "tried" (an answer checked) or "new"."""
        return "mastered" if self.mastered else "solved" if self.solved else "tried" if self.tried else "new"

    def exercise(self, key: str) -> ExerciseState:
        return self.exercises.setdefault(key, ExerciseState())

    def record(self, key: str, right: bool) -> None:
        """An answer to exercise ``key`` was checked: right (a new variant next, the run goes on, maybe mastery) or
        wrong (the next hint)."""
        state = self.exercise(key)
        self.tried += 1
        if right:
            self.solved += 1
            self.streak += 1
            self.mastered = self.mastered or self.streak >= IN_A_ROW
            state.attempt, state.wrong, state.shown = state.attempt + 1, 0, False
        else:
            self.streak = 0
            state.wrong += 1

    def show_answer(self, key: str) -> None:
        """The answer of exercise ``key``'s variant is shown: the run starts again."""
        self.streak = 0
        self.exercise(key).shown = True

    def next_variant(self, key: str) -> None:
        """A new variant of exercise ``key`` (after its answer was shown)."""
        state = self.exercise(key)
        state.attempt, state.wrong, state.shown = state.attempt + 1, 0, False


@dataclass
class Progress:
    """The whole course in one browser: the student's ``seed``, each page's progress, the receipts."""

    seed: int
    pages: dict[str, PageProgress] = field(default_factory=dict)
    receipts: list[str] = field(default_factory=list)

    def page(self, url_path: str) -> PageProgress:
        return self.pages.setdefault(url_path, PageProgress())


def new_progress() -> Progress:
    """A fresh progress with a random seed of 48 bits (this student's numbers)."""
    return Progress(seed=secrets.randbits(48))


def to_json(progress: Progress) -> str:
    """The progress as the browser keeps it and the file "Download my progress" holds (compact JSON).

    >>> progress = Progress(seed=7)
    >>> progress.page("truncation-bias").record("bias", True)
    >>> from_json(to_json(progress)) == progress
    True
    """
    pages = {url: {"tried": page.tried, "solved": page.solved, "streak": page.streak, "mastered": page.mastered,
                   "exercises": {key: [state.attempt, state.wrong, state.shown]
                                 for key, state in page.exercises.items()}}
             for url, page in progress.pages.items()}
    return json.dumps({"lab": FORMAT, "version": _VERSION, "seed": progress.seed, "pages": pages,
                       "receipts": progress.receipts}, separators=(",", ":"), ensure_ascii=True)


def from_json(text: str | bytes) -> Progress:
    """Read a progress file, every field checked; :class:`ProgressError` says what is wrong with a bad one.

    >>> from_json('{"lab": "something else"}')
    Traceback (most recent call last):
    ...
    classroom.progress.ProgressError: This is not a progress file of the Private Estimation Lab.
    """
    if len(text) > MAX_BYTES:
        raise ProgressError(f"This file is larger than a progress file can be ({MAX_BYTES // 1024} KB).")
    try:
        document = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ProgressError("This file is not a progress file: it is not JSON text.") from None
    if not isinstance(document, dict) or document.get("lab") != FORMAT:
        raise ProgressError("This is not a progress file of the Private Estimation Lab.")
    if document.get("version") != _VERSION:
        raise ProgressError("This progress file was written by another version of the lab.")
    seed, pages, receipts = document.get("seed"), document.get("pages"), document.get("receipts")
    if not _count(seed, 2**48) or not isinstance(pages, dict) or not isinstance(receipts, list):
        raise ProgressError("This progress file is damaged: its seed, pages or receipts are missing.")
    if len(receipts) > _MAX_RECEIPTS or not all(isinstance(r, str) and _TOKEN.fullmatch(r) for r in receipts):
        raise ProgressError("This progress file is damaged: a receipt is not one the lab writes.")
    return Progress(seed=seed, pages={_name(url): _page(page) for url, page in pages.items()}, receipts=receipts)


def _count(value: object, limit: int = _MAX_COUNT) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < limit


def _name(value: object) -> str:
    if not isinstance(value, str) or not _NAME.fullmatch(value):
        raise ProgressError("This progress file is damaged: it names a page or an exercise the lab does not have.")
    return value


def _page(value: object) -> PageProgress:
    damaged = ProgressError("This progress file is damaged: a page's counts are not counts.")
    if not isinstance(value, dict) or not isinstance(value.get("exercises"), dict):
        raise damaged
    tried, solved, streak = (value.get(name) for name in ("tried", "solved", "streak"))
    if not (_count(tried) and _count(solved) and _count(streak)) or not isinstance(value.get("mastered"), bool):
        raise damaged
    exercises = {}
    for key, state in value["exercises"].items():
        if not (isinstance(state, list) and len(state) == 3 and _count(state[0]) and _count(state[1])
                and isinstance(state[2], bool)):
            raise damaged
        exercises[_name(key)] = ExerciseState(*state)
    return PageProgress(tried, solved, streak, value["mastered"], exercises)
