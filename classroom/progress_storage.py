"""The student's progress kept in their browser (``localStorage``), never on the server.

A small component with no visible part (Streamlit's custom components, version 2, inline) is mounted where the
progress is used. At its first mount in a browser tab it reads what the browser keeps under :data:`KEY` and sends
it to the session once; from then on the session holds the progress (:data:`SESSION`), and a run whose progress
changed hands it to the component, which writes it into the browser. So it survives a reload, another tab (each tab
takes what another one wrote) and next week's visit in the same browser; another browser (or a private window)
starts afresh. The server keeps no file, row or log line of it: only this session's copy, gone with the session.

Tests seed :data:`SESSION` with a :class:`classroom.progress.Progress` (AppTest runs no browser).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import streamlit as st

from .progress import Progress, ProgressError, from_json, new_progress, to_json

__all__ = ["KEY", "SESSION", "sync", "current", "unreadable", "save", "forget"]

KEY = "dplab_progress"  #: the browser's localStorage key
SESSION = "progress_kept"  #: session-state key: the Progress (absent until the browser has answered)
_SENT = "progress_sent"  # session-state key: the progress as last sent to the browser
_ADOPTED = "progress_adopted"  # session-state key: what the browser said, as last taken
_UNREADABLE = "progress_unreadable"  # session-state key: the browser kept a progress the lab could not read

_JS = """
export default function (component) {
  const { data, setStateValue, parentElement } = component;
  const KEY = 'KEY_NAME';
  if (data && typeof data.write === 'string') {
    try {
      if (localStorage.getItem(KEY) !== data.write) localStorage.setItem(KEY, data.write);
    } catch (error) { /* storage refused (a private window, a full disk): the session still has it */ }
  }
  // another tab of this browser changed the progress: this tab's session takes the browser's copy
  if (window.dplabProgressListener) window.removeEventListener('storage', window.dplabProgressListener);
  window.dplabProgressListener = (event) => {
    if (event.key === KEY && event.newValue) setStateValue('kept', event.newValue);
  };
  window.addEventListener('storage', window.dplabProgressListener);
  if (data && !data.known && !parentElement.dplabReported) {
    parentElement.dplabReported = true;
    let kept = '';
    try { kept = localStorage.getItem(KEY) || ''; } catch (error) { kept = ''; }
    setStateValue('kept', kept);
  }
}
""".replace("KEY_NAME", KEY)


@cache
def _component() -> Any:
    return st.components.v2.component("dplab_progress_storage", html="<span hidden></span>", js=_JS)


def sync(key: str) -> Progress | None:
    """Mount the storage (widget key ``key``, one per place it is used on a page): the session's progress, or None
    while the browser has not yet said what it keeps (the first run of a tab; its answer reruns the part of the page
    this is called in). What the browser said is read before the mount, so a fresh progress is written in the same
    run; the progress is sent to the browser only when it changed since it was last sent. When another tab of the
    browser changes it, the browser says so again and this session takes the browser's copy (the last tab to act
    writes the whole progress, so each tab must hold the latest). A progress the browser kept but the lab cannot read
    is replaced by a fresh one, and :func:`unreadable` says so."""
    progress = st.session_state.get(SESSION)
    reported: Any = st.session_state.get(key)
    kept = reported.get("kept") if hasattr(reported, "get") else None
    if progress is None and isinstance(kept, str):  # the browser's first word in this tab
        try:
            progress = from_json(kept) if kept else new_progress()
        except ProgressError:
            progress, st.session_state[_UNREADABLE] = new_progress(), True
        st.session_state[SESSION], st.session_state[_ADOPTED] = progress, kept
    elif kept and kept != st.session_state.get(_ADOPTED) and kept != st.session_state.get(_SENT):
        st.session_state[_ADOPTED] = kept  # another tab wrote it: the browser's copy is the progress
        try:
            progress = st.session_state[SESSION] = from_json(kept)
            st.session_state[_SENT] = kept
        except ProgressError:
            pass  # what another tab wrote is always readable; anything else is left alone
    data: dict[str, Any] = {"known": progress is not None}
    if progress is not None and st.session_state.get(_SENT) != (text := to_json(progress)):
        data["write"] = st.session_state[_SENT] = text
    _component()(key=key, data=data, on_kept_change=lambda: None)
    return progress


def current() -> Progress | None:
    """The session's progress (None until the browser has answered)."""
    return st.session_state.get(SESSION)


def unreadable() -> bool:
    """Whether the progress this browser kept could not be read (and a fresh one started)."""
    return bool(st.session_state.get(_UNREADABLE))


def save(progress: Progress) -> None:
    """Keep ``progress`` in the session; the storage writes it into the browser at its next mount."""
    st.session_state[SESSION] = progress
    st.session_state.pop(_UNREADABLE, None)


def forget() -> None:
    """Forget the progress: a fresh one (a new seed, nothing tried) replaces it, in the session and the browser."""
    save(new_progress())
