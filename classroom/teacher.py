"""The teacher view's sign-in: the lab's teacher key typed once, kept in this browser, never in a URL or on screen.

``?teacher=1`` asks for the teacher view (``ui.chrome``); it is shown only to a browser that holds the key's token
(:func:`signed_in`). Any other browser, a student who added ``?teacher=1`` during a poll, gets the students' page with
one box on top saying how a teacher gets the key (:func:`sign_in_box`): a password field (the key is never drawn on
the projector), checked in constant time, wrong keys limited per client (:mod:`classroom.limits`). A right key keeps
a hash of it in the browser (:func:`classroom.teacher_key.browser_token`, :mod:`classroom.browser`), so the teacher
types it once per browser; "Forget the teacher key on this browser" removes it (a shared classroom computer).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable

import streamlit as st

from . import browser, limits, teacher_key

__all__ = ["signed_in", "sign_in_box", "forget_key"]

_TYPED = "teacher_key_typed"  # widget key of the password field
_MESSAGE = "_teacher_key_message"  # session-state key: the last refusal, shown once in the box
WHERE = ("`./lab.sh serve` and `./lab.sh app` print it on their terminal when they start (or it is the "
         "`DPLAB_TEACHER_KEY` the lab was started with)")


def signed_in() -> bool:
    """Whether this browser holds the lab's teacher key (its token)."""
    token = browser.read("teacher")
    return token is not None and hmac.compare_digest(token, teacher_key.browser_token())


def sign_in_box(attempts: Callable[..., int]) -> None:
    """The box drawn above the students' page when the teacher view is asked for without the key: what it is, where
    the key is, and a field to type it (``attempts``: the poll store's, for the limit on wrong keys).
    """
    with st.container(border=True, key="teacher_sign_in"):
        st.markdown("**The teacher view needs the lab's teacher key.** It adds the answers and notes for the "
                    f"teacher and the class polls. Whoever runs the lab has the key: {WHERE}. Typed once here, it is "
                    "kept in this browser only, never in the link or on the screen. Below is the students' page.")
        message = st.session_state.pop(_MESSAGE, None)
        if message:
            st.error(message, icon=":material/block:")
        with st.form("teacher_key_form", border=False, enter_to_submit=True):
            st.text_input("Teacher key", type="password", key=_TYPED, max_chars=200, autocomplete="off",
                          placeholder="XXXX-XXXX-XXXX")
            st.form_submit_button("Open the teacher view", icon=":material/key:", on_click=_check, args=(attempts,))


def _check(attempts: Callable[..., int]) -> None:
    typed = st.session_state.get(_TYPED, "")
    st.session_state[_TYPED] = ""
    if limits.exceeded(attempts, "key"):
        st.session_state[_MESSAGE] = limits.REFUSALS["key"]
    elif teacher_key.matches(typed):
        browser.keep("teacher", teacher_key.browser_token())
    else:
        limits.record(attempts, "key")
        st.session_state[_MESSAGE] = ("That is not this lab's teacher key. Check it on the terminal that started the "
                                      "lab (letters and digits; case, spaces and dashes do not matter).")


def forget_key() -> None:
    """Remove the key from this browser: the teacher view asks for it again."""
    browser.forget("teacher")
