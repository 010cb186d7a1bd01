"""What this browser keeps for the lab: a few short values (the voter id, the teacher key) as first-party cookies.

The server must know them in the first run of a page (the ballot, or the teacher view, is drawn at once, with no
second round trip and no flash of the wrong view). The browser sends its cookies when the page connects, so
``st.context.cookies`` holds them from the first run on. :func:`keep` (callable in a run or a widget's callback)
remembers a value in the session at once, since the browser sends it again only at its next connection (a reload,
another tab, another replica), and :func:`write_kept`, called at the end of every page's run (``ui.chrome.footer``),
writes it into the browser with a script (``document.cookie``: this site only, ``SameSite=Strict``, ``Secure`` on
https, for :data:`DAYS` days). The values stay in the browser: nothing of them is in a URL, on screen or in a log,
and only this lab's own address receives them. A browser that refuses cookies keeps nothing: it is a new browser at
each reload.

Only names of :data:`NAMES` and values of letters, digits, ``-`` and ``_`` (at most 128) are kept, so no value can
break out of the cookie or the script.
"""

from __future__ import annotations

import re

import streamlit as st

__all__ = ["NAMES", "DAYS", "SESSION", "read", "keep", "forget", "write_kept"]

NAMES = ("voter", "teacher")  #: what the lab keeps in a browser (as the cookies ``dplab_voter``, ``dplab_teacher``)
DAYS = 180  #: how long a kept value lasts in the browser
_PREFIX = "dplab_"
_VALUE = re.compile(r"[A-Za-z0-9_-]{1,128}")
SESSION = "browser_kept"  #: session-state key: {name: value or None}, kept or forgot in this session (tests seed it)
_PENDING = "_browser_pending"  # session-state key: {name: cookie assignment} not yet written into the browser


def _checked(name: str, value: str | None = None) -> str:
    if name not in NAMES:
        raise ValueError(f"the browser keeps only {', '.join(NAMES)}")
    if value is not None and not _VALUE.fullmatch(value):
        raise ValueError("a kept value is 1 to 128 letters, digits, '-' or '_'")
    return _PREFIX + name


def read(name: str) -> str | None:
    """The value the browser keeps under ``name`` (what this session wrote, else what the browser sent when the page
    connected), or None; a value of another form than :func:`keep` writes counts as none.
    """
    cookie = _checked(name)
    written = st.session_state.get(SESSION, {})
    value = written[name] if name in written else st.context.cookies.get(cookie)
    return value if isinstance(value, str) and _VALUE.fullmatch(value) else None


def keep(name: str, value: str) -> None:
    """Keep ``value`` under ``name`` in this browser (:data:`DAYS` days), and in this session at once."""
    cookie = _checked(name, value)
    st.session_state.setdefault(SESSION, {})[name] = value
    st.session_state.setdefault(_PENDING, {})[name] = f"{cookie}={value}; Max-Age={DAYS * 86400}"


def forget(name: str) -> None:
    """Remove ``name`` from this browser (and from this session)."""
    cookie = _checked(name)
    st.session_state.setdefault(SESSION, {})[name] = None
    st.session_state.setdefault(_PENDING, {})[name] = f"{cookie}=; Max-Age=0"


def write_kept() -> None:
    """Write what this session kept or forgot since the last run into the browser: one script, run once (no ``<`` in
    it: Streamlit's sanitiser would drop it). Nothing when nothing is pending.
    """
    pending = st.session_state.pop(_PENDING, None)
    if pending:
        lines = "".join(f"document.cookie = '{assignment}; Path=/; SameSite=Strict' + secure;"
                        for assignment in pending.values())
        st.html(f"<script>const secure = location.protocol === 'https:' ? '; Secure' : ''; {lines}</script>",
                unsafe_allow_javascript=True)
