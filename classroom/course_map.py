"""The course map's state: for each topic page, where this student stands, and what to do next.

The home page lists the course's pages; with the progress this browser keeps (:mod:`classroom.progress_storage`)
each shows its state ("not started", "tried", "solved", "mastered": :meth:`classroom.progress.PageProgress.state`),
and the map says which page to take next: the first in the course's order not yet mastered.
"""

from __future__ import annotations

from collections.abc import Sequence

from .progress import Progress

__all__ = ["STATE_WORDS", "state_of", "next_step"]

#: How a page's state is said on the map
STATE_WORDS = {"new": "not started", "tried": "tried", "solved": "solved, not yet mastered", "mastered": "mastered"}


def state_of(progress: Progress | None, url_path: str) -> str:
    """The state of the page at ``url_path`` for this student ("new" when nothing is known)."""
    page = progress.pages.get(url_path) if progress is not None else None
    return page.state() if page is not None else "new"


def next_step(progress: Progress | None, url_paths: Sequence[str]) -> str | None:
    """The first page of ``url_paths`` (the course's order) not mastered, or None when every one is.

    >>> from classroom.progress import PageProgress
    >>> next_step(Progress(seed=1, pages={"a": PageProgress(mastered=True)}), ["a", "b"])
    'b'
    """
    return next((url for url in url_paths if state_of(progress, url) != "mastered"), None)
