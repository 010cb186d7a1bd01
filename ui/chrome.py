"""What every page shares around its content: the stylesheet, the formulas' fit to the screen, keyboard and
screen-reader access, presentation mode and the teacher view (each kept across navigation, each left with one button),
the title, the footer, and the guard that turns a dpcore parameter error into a message in the page instead of a
traceback."""

from __future__ import annotations

import copy
import functools
import re
import textwrap
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from classroom import browser, poll, teacher
from classroom.share import PRESENT, share_control
from dpcore.core import InvalidParameterError
from registry import PAGES, PageInfo

__all__ = ["ASSETS", "asset", "presentation_mode", "teacher_mode", "setup_page", "heading_anchor", "guard", "footer",
           "page_link", "navigation_pages"]

ASSETS = Path(__file__).resolve().parents[1] / "assets"
TEACHER = "teacher"  #: URL key of the teacher view
_PRESENTING = "_presenting"  # session-state key: presentation mode is on in this browser tab
_TEACHING = "_teaching"  # session-state key: the teacher view is on in this browser tab
_run = threading.local()  # this script run's slot for "Share with the class" (each session's run has its own thread)


def _sticky_flag(url_key: str, state_key: str) -> bool:
    """A switch of the browser tab set in the URL: ``?key=1`` turns it on, ``?key=0`` off. A navigation that drops
    the key from the URL (Streamlit's sidebar and page links start the next page with an empty query) keeps it on,
    and the key is written back, so the address bar still reproduces what is on screen."""
    raw = st.query_params.get(url_key)
    if raw is not None:
        st.session_state[state_key] = raw.lower() in ("1", "true", "yes", "on")
    elif st.session_state.get(state_key):
        st.query_params[url_key] = "1"
    return bool(st.session_state.get(state_key))


def presentation_mode() -> bool:
    """Whether presentation mode is on (bigger fonts, no prose, the sidebar folded): ``?present=1`` in the URL,
    kept across navigation (:func:`_sticky_flag`)."""
    return _sticky_flag(PRESENT, _PRESENTING)


def teacher_mode() -> bool:
    """Whether the teacher view is on: ``?teacher=1`` in the URL, kept across navigation, in a browser that holds the
    lab's teacher key (:mod:`classroom.teacher`; any other browser gets the students' page). It adds, folded, the
    discussion questions with their answers, the settings worth showing live, and each predict question's answer
    for the teacher's eyes, the teacher's edition of the handout and the class polls; it never answers a question for
    the class (``ui.Page.predict``)."""
    return _sticky_flag(TEACHER, _TEACHING) and teacher.signed_in()


def _leave(url_key: str, state_key: str) -> None:
    """Turn a sticky switch off (:func:`_sticky_flag`): off in this tab, gone from the URL; every other key stays."""
    st.session_state[state_key] = False
    st.query_params.pop(url_key, None)


@functools.cache
def asset(name: str) -> str:
    """The text of ``assets/<name>``, read once per server."""
    return (ASSETS / name).read_text(encoding="utf-8")


class _Prepared:
    """HTML for ``st.html`` as ``st.html`` makes a string (dedented and stripped: Streamlit's ``clean_text``), made
    once: ``st.html`` takes an object's ``_repr_html_`` as it is. The chrome's style sheet and scripts are 43 kB on
    every run of every page; cleaning them took about 1 ms a run."""

    def __init__(self, html: str) -> None:
        self._html = textwrap.dedent(html).strip()

    def _repr_html_(self) -> str:
        return self._html


@functools.cache
def _chrome(part: str) -> _Prepared:
    """The chrome's ``part`` ("style", "scripts", "present") for ``st.html``, made once per server."""
    if part == "scripts":
        return _Prepared(f"<script>{asset('fit_formulas.js')}\n{asset('a11y.js')}</script>")
    return _Prepared(f"<style>{asset('present.css' if part == 'present' else 'style.css')}</style>")


def setup_page(title: str, icon: str) -> None:
    """Shared chrome: CSS (larger in presentation mode), the keyboard and screen-reader help (``assets/a11y.js``)
    and the page title, whose icon is decoration (hidden from screen readers, not in the anchor). Call it first in
    every page.

    When the session arrives from another page, the widget values left from there are dropped, so
    the URL (not the previous page) seeds this page's controls.
    """
    if st.session_state.get("_ui_page") != title:
        for key in [key for key in st.session_state if str(key).startswith("w_")]:
            del st.session_state[key]
        st.session_state["_ui_page"] = title
    st.html(_chrome("style"))
    # One script element for both: formulas fit their column; every control by keyboard, every change announced.
    # Streamlit's sanitiser drops a script whose text holds "<" before a letter, "/" or "!": the scripts hold none.
    st.html(_chrome("scripts"), unsafe_allow_javascript=True)
    presenting, asked, teaching = presentation_mode(), _sticky_flag(TEACHER, _TEACHING), teacher_mode()
    if presenting:
        st.html(_chrome("present"))
    if presenting or asked:  # one row of buttons, each leaving its mode and keeping every other setting
        with st.container(horizontal=True, gap="small", key="leave_modes"):
            if presenting:
                st.button("Leave presentation mode", icon=":material/close_fullscreen:", type="tertiary",
                          on_click=_leave, args=(PRESENT, _PRESENTING), key="leave_presentation")
            if asked:
                st.button("Leave teacher view", icon=":material/school:", type="tertiary", on_click=_leave,
                          args=(TEACHER, _TEACHING), key="leave_teacher",
                          help="Back to the students' page: the teacher's notes go, the settings stay.")
            if teaching:
                st.button("Forget the teacher key on this browser", icon=":material/key_off:", type="tertiary",
                          on_click=teacher.forget_key, key="forget_teacher_key",
                          help="On a shared computer: the teacher view asks for the key again.")
    if asked and not teaching:
        teacher.sign_in_box(poll.attempts)
    if teaching:
        poll.teacher_rooms()
    st.title(f"{icon} {title}", anchor=heading_anchor(title))
    _run.share = st.container()  # "Share with the class", filled by footer() once the page has written its URL


def _share() -> None:
    """Draw "Share with the class" (:mod:`classroom.share`) in the slot under the title, now that the page's settings
    are in the URL; nothing when no page set up its chrome in this run."""
    slot, _run.share = getattr(_run, "share", None), None
    if slot is not None:
        with slot:
            share_control(presentation_mode())


def heading_anchor(title: str) -> str:
    """The anchor of a page's heading: its title in lower case, words joined by hyphens (``#truncation-bias``), never
    the name of the icon drawn before it (Streamlit's own anchor would be ``#content-cut-truncation-bias``)."""
    return re.sub(r"[^0-9a-z]+", "-", title.lower()).strip("-") or "top"


@functools.cache
def _declared_pages() -> tuple[st.Page, ...]:
    return tuple(st.Page(info.script, title=info.title, url_path=info.url_path, icon=info.icon,
                         default=info.url_path == "") for info in PAGES)


def navigation_pages() -> list[st.Page]:
    """The registry's pages for ``st.navigation``: declared once per server (declaring one resolves its script's path
    on disk; a cache in the app script itself would be rebuilt on every run), copied per run (navigation marks the
    page it runs)."""
    return [copy.copy(declared) for declared in _declared_pages()]


def page_link(info: PageInfo, label: str, icon: str | None = None) -> None:
    """A link to the page ``info`` in this browser tab (its session, and presentation mode, go along); as a plain
    Markdown link when the page runs on its own, outside the app's navigation (a test, ``./lab.sh precompute``)."""
    try:
        st.page_link(info.script, label=label, icon=icon or info.icon)
    except StreamlitPageNotFoundError:
        st.markdown(f"[{label}](/{info.url_path})")


@contextmanager
def guard() -> Iterator[None]:
    """Show a :class:`dpcore.core.InvalidParameterError` (a parameter out of its range) as ``st.error`` and let the
    page go on; any other error is a bug and is raised (Streamlit shows it, and the tests fail)."""
    try:
        yield
    except InvalidParameterError as exc:
        st.error(str(exc))


def footer() -> None:
    """The shared footnote on what the numbers are (and are not); then "Share with the class" is drawn under the
    title, with the link the page ends its run on."""
    _share()
    browser.write_kept()  # what this run kept in the browser (a voter id, the teacher key's token)
    st.divider()
    st.caption(
        "Results are Monte Carlo simulations with seeded NumPy PCG64 random numbers: reproducible, "
        "and a simulation-grade generator, not a hardened release mechanism (it is not protected "
        "against floating-point or timing attacks). Use it to learn and to experiment, not to publish private data."
    )
