"""Exercises that check themselves, per topic page ("Check yourself"): :mod:`.base` defines them and grades an
answer; each page's module lists its exercises (at least three: a number, a choice with reasons, a task done with the
page's controls).

>>> "pure-vs-approximate" in PAGES, all(len(exercises) >= 1 for exercises in PAGES.values())
(True, True)
"""

from __future__ import annotations

from . import (
    audit_lab,
    audit_studio,
    choosing_epsilon,
    exponential_mechanism,
    noise_tradeoff,
    partition_rounds,
    real_data,
    tournament,
    truncation,
)
from .base import Exercise, Kind, Variant, Verdict, grade, parse_number, variant_seed

__all__ = ["Exercise", "Kind", "Variant", "Verdict", "grade", "parse_number", "variant_seed", "PAGES", "for_page"]

#: Each topic page's exercises, by its address (``registry.PageInfo.url_path``)
PAGES: dict[str, tuple[Exercise, ...]] = {
    "pure-vs-approximate": noise_tradeoff.EXERCISES,
    "exponential-mechanism": exponential_mechanism.EXERCISES,
    "real-data": real_data.EXERCISES,
    "truncation-bias": truncation.EXERCISES,
    "scheffe-tournament": tournament.EXERCISES,
    "partitioning-rounds": partition_rounds.EXERCISES,
    "privacy-audit-lab": audit_lab.EXERCISES,
    "choosing-epsilon": choosing_epsilon.EXERCISES,
    "audit-studio": audit_studio.EXERCISES,
}


def for_page(url_path: str) -> tuple[Exercise, ...]:
    """The exercises of the page at ``url_path`` (none for a page without any)."""
    return PAGES.get(url_path, ())
