"""One Python syntax tree built at a time in the server: a guard against a data race of CPython 3.11.7 and older.

``ast.parse`` turns the parser's tree into ``ast`` objects with a depth counter that CPython before 3.11.8 (and
3.12.0-3.12.1) keeps in state shared by every thread (python/cpython#106905, fixed by #113476 in 3.11.8). A garbage
collection inside that step runs Python code (a finalizer, a ``gc`` callback) and may hand the interpreter lock to
another thread; if that thread builds a tree meanwhile, the first one ends on a counter that does not match and raises
``SystemError: AST constructor recursion depth mismatch``. In the lab's server the sessions' threads build trees
beside each other: NumPy reads the header of every array of a stored sweep with ``ast.literal_eval``,
``inspect.signature`` parses a builtin's signature, Python 3.11's tracebacks place their carets with ``ast.parse``, and
Streamlit parsed ``app.py`` and each page script for its "magic" (again each time the last session left: it then
empties its script cache) until the lab turned magic off (``.streamlit/config.toml``: the scripts now compile straight
from source). ``benchmarks/fuzz_links.py`` met it once in 4,612 links, as a traceback under ``page.run()``.

:func:`serialise` makes ``ast.parse`` (which ``ast.literal_eval`` and all of those call) take one process-wide lock,
on the interpreters that have the race; on the others it does nothing. A tree takes milliseconds; a thread that
waits :data:`WAIT_SECONDS` for the lock parses without it rather than hang a page (a finalizer waiting on that thread
could otherwise deadlock the two). The lock is reentrant, as a finalizer of the thread holding it may parse too.
"""

from __future__ import annotations

import ast
import functools
import sys
import threading
from typing import Any

__all__ = ["NEEDED", "WAIT_SECONDS", "serialise", "serialised"]

#: Whether this interpreter has the race (CPython 3.11 before 3.11.8, 3.12 before 3.12.2).
NEEDED = sys.version_info < (3, 11, 8) or (3, 12) <= sys.version_info < (3, 12, 2)
WAIT_SECONDS = 5.0  #: the longest a thread waits for another's tree before it parses anyway
_LOCK = threading.RLock()
_UNGUARDED = ast.parse


@functools.wraps(_UNGUARDED)
def _parse(*args: Any, **kwargs: Any) -> Any:
    held = _LOCK.acquire(timeout=WAIT_SECONDS)
    try:
        return _UNGUARDED(*args, **kwargs)
    finally:
        if held:
            _LOCK.release()


def serialise() -> None:
    """Make ``ast.parse`` build one tree at a time in this process, if the interpreter needs it (:data:`NEEDED`);
    idempotent."""
    if NEEDED:
        ast.parse = _parse


def serialised() -> bool:
    """Whether ``ast.parse`` takes the lock in this process."""
    return ast.parse is _parse
