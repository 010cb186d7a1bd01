"""This browser's voter id: one vote per browser in the class poll, across reloads, tabs and replicas.

A random id (:func:`classroom.poll_store.new_tab_id`: 22 URL-safe characters, nothing personal) made at the first
poll this browser opens and kept in it (:mod:`classroom.browser`); a reload, another tab or a reconnection to another
replica sends the same id, so the store finds the vote (``voted``) and counts it once. A browser that keeps nothing
(cookies refused, a private window closed) gets a new id, and the per-client limits (:mod:`classroom.limits`) bound
what that allows.
"""

from __future__ import annotations

from . import browser
from .poll_store import new_tab_id

__all__ = ["voter_id"]


def voter_id() -> str:
    """The id this browser votes with: the one it keeps, or a new one, kept from now on."""
    kept = browser.read("voter")
    if kept is not None and len(kept) >= 16:
        return kept
    made = new_tab_id()
    browser.keep("voter", made)
    return made
