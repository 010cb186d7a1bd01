"""The lab's teacher key: what opens, reveals and ends the class polls and shows the teacher view.

Whoever runs the lab has it: ``./lab.sh serve`` and ``./lab.sh app`` print it on the terminal at start, or take it
from the environment variable ``DPLAB_TEACHER_KEY`` (a department that wants the same key on every start, or on
several machines, sets it there: :data:`MIN_LENGTH` or more letters and digits). A made key is
:data:`GROUPS` groups of four characters of the room codes' alphabet (no 0/O, 1/I/L), about 59 bits, read from a
terminal and typed once in the teacher view (:mod:`classroom.teacher`). Case, spaces and dashes do not matter.

A server started without the variable (a bare ``streamlit run app.py``) makes its own key at the first use and prints
it on standard error; ``./lab.sh`` sets the variable for every replica, so they agree.

``python -m classroom.teacher_key`` prints the key to use: the variable's, checked, or a new one (exit status 2 and a
message for a variable that is too short).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import re
import secrets
import sys

from .poll_store import ALPHABET

__all__ = ["ENV", "MIN_LENGTH", "GROUPS", "new_key", "normalise", "lab_key", "matches", "browser_token"]

ENV = "DPLAB_TEACHER_KEY"  #: the environment variable that sets the lab's teacher key
MIN_LENGTH = 12  #: the fewest letters and digits of a key
GROUPS = 3  #: groups of four characters in a made key


def new_key() -> str:
    """A new random key, such as ``K7QX-2ABC-DEFG``."""
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(GROUPS))


def normalise(key: object) -> str | None:
    """``key`` as compared: upper case, without spaces or dashes; None unless :data:`MIN_LENGTH` or more letters and
    digits (at most 128).

    >>> normalise(" k7qx-2abc defg ")
    'K7QX2ABCDEFG'
    >>> normalise("short") is None
    True
    """
    if not isinstance(key, str):
        return None
    cleaned = re.sub(r"[\s-]", "", key).upper()
    return cleaned if re.fullmatch(rf"[A-Z0-9]{{{MIN_LENGTH},128}}", cleaned) else None


@functools.cache
def lab_key() -> str:
    """This server's key, normalised: ``DPLAB_TEACHER_KEY`` when it is a usable key, else one made now and printed on
    standard error (once per process).
    """
    configured = normalise(os.environ.get(ENV, ""))
    if configured is not None:
        return configured
    made = new_key()
    print(f"Teacher key of this server (type it once in the teacher view, ?teacher=1): {made}", file=sys.stderr)
    return normalise(made) or ""


def matches(typed: object) -> bool:
    """Whether ``typed`` is the lab's key (in constant time)."""
    cleaned = normalise(typed)
    return cleaned is not None and hmac.compare_digest(cleaned, lab_key())


def browser_token() -> str:
    """What a teacher's browser keeps once the key was typed (:mod:`classroom.teacher`): a hash of the lab's key, so
    the key itself is never written into a page or a cookie. A new key (a restart without ``DPLAB_TEACHER_KEY``)
    makes every kept token stale: the teacher types the new key.
    """
    return hashlib.sha256(f"dplab teacher view\n{lab_key()}".encode()).hexdigest()[:43]


def _main() -> int:
    configured = os.environ.get(ENV, "").strip()
    if configured and normalise(configured) is None:
        print(f"{ENV} must have at least {MIN_LENGTH} letters and digits (dashes and spaces are ignored).",
              file=sys.stderr)
        return 2
    print(configured or new_key())
    return 0


if __name__ == "__main__":
    sys.exit(_main())
