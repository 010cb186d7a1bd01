"""The class poll on a page: the class answers a predict question from their phones, and the teacher reveals the
class's answer counts released with differential privacy (:mod:`dpcore.lessons.class_poll`).

**Teacher** (the teacher view, ``?teacher=1``): under a *Predict first* question, "Poll the class" opens a room in the
poll store (:mod:`ui.poll_store`, shared by every replica) for the question and its choices, open for the minutes the
teacher picks. The room's code and a QR code of the join link are shown (big in presentation mode), with how many
have answered, counted live. The teacher picks ε and reveals: the voting ends and the counts are released once with
the two-sided geometric mechanism at that ε, next to the question's right answer, with one sentence saying what ε
means for any one student's vote. The exact counts stay folded (opening them shows what the release protects).
The teacher key lives in this browser tab only: it is never shown, logged or put in a link.

**Student**: the code typed on the home page, or the QR code, opens a page with ``?room=CODE``; a box at the top asks
the room's question; one vote per browser tab (a random tab id: no name, nothing personal); the box then waits for the
reveal and shows the released counts. An unknown, ended or mistyped code, a second vote, a vote after the reveal: each
gets a message in the box, and the page around it runs as usual.
"""

from __future__ import annotations

import functools
from typing import Any

import streamlit as st

from dpcore.lessons import class_poll
from dpcore.lessons.questions import Question

from . import poll_store
from .poll_store import PollError, PollStore, Room, Tally
from .share import class_link, home_address, join_html
from .table import show_table

__all__ = ["ROOM", "MINUTES", "TEACHER_SECONDS", "STUDENT_SECONDS", "NOISE", "store", "show_release", "join_box",
           "student_poll", "teacher_poll"]

ROOM = "room"  #: URL key: the code of the poll a student joins
MINUTES = (5, 10, 20, 45, 90)  #: how long a teacher may keep a poll open
TEACHER_SECONDS = 2.0  #: how often the projector counts the answers
STUDENT_SECONDS = 4.0  #: how often a student's phone checks whether the teacher has revealed
NOISE = "geometric"  #: the mechanism of the release: integer counts, ε-DP (dpcore.mechanisms.poll_histogram)
_TAB = "_poll_tab"  # session-state key: this browser tab's random voter id
_OPENED = "_poll_opened"  # session-state key: {question key: (code, teacher key, right answer)} of the teacher's rooms
_VOTES = "_poll_votes"  # session-state key: {code: the choice this tab voted for}
_REFUSED = "_poll_refused"  # session-state key: the message of the store's last refusal, shown once in its box
_UNAVAILABLE = ("The class poll is not available on this server: it cannot write its data folder. Whoever runs the "
                "lab can set DPLAB_DATA_DIR to a folder it may write.")


@functools.lru_cache(maxsize=1)
def store() -> PollStore:
    """This server's poll store (:func:`ui.poll_store.default_store`), opened once; an unwritable data folder raises
    ``OSError`` (or ``sqlite3.Error``) here, and the next call tries again."""
    return poll_store.default_store()


def _ask(operation: str, *args: Any) -> Any:
    """The store's ``operation(*args)``; a refusal (in the store's words) or an unusable store is kept to be shown
    in the poll's box (:func:`_refusal`), and None returned."""
    try:
        return getattr(store(), operation)(*args)
    except PollError as refused:
        st.session_state[_REFUSED] = str(refused)
    except OSError:
        st.session_state[_REFUSED] = _UNAVAILABLE
    return None


def _refusal() -> None:
    """The message of the last refusal, once, where the poll is drawn."""
    message = st.session_state.pop(_REFUSED, None)
    if message:
        st.error(message, icon=":material/block:")


# ------------------------------------------------------------------------------------------------ the release
def show_release(tally: Tally, answer: int | None = None) -> None:
    """The released counts of a revealed room (drawn from the room's secret seed, so every screen and rerun shows the
    same release), the right answer marked when known, and what ε means for one student's vote."""
    room = tally.room
    assert room.epsilon is not None, "a revealed room has its ε"
    result = class_poll.poll_result(list(tally.counts), list(room.choices), room.epsilon, noise=NOISE,
                                    seed=room.seed, answer=answer)
    column = f"answers, released with ε = {room.epsilon:g}"
    show_table([{"answer": label, column: int(count)}
                | ({"right answer": "✓ right" if index == answer else ""} if answer is not None else {})
                for index, (label, count) in enumerate(zip(room.choices, result.released_counts))])
    st.markdown(f"{result.sentence} Each released count is off by about {result.mean_error:.1f} on average; "
                f"{tally.answered} answered.")


# ------------------------------------------------------------------------------------------------ the student
def join_box() -> None:
    """"Join a class poll" (the home page): the code from the projector opens the poll here (``?room=CODE``)."""
    with st.form("join_poll", border=True, enter_to_submit=True):
        code = st.text_input("Join a class poll: type the room code shown on the projector", max_chars=16,
                             placeholder="K7QX2", key="join_code", autocomplete="off")
        if st.form_submit_button("Join", icon=":material/how_to_vote:"):
            try:
                st.query_params[ROOM] = poll_store.normalise_code(code)
            except PollError as refused:
                st.error(str(refused), icon=":material/block:")
            else:
                st.rerun()  # the poll's box is drawn at the top of the page


def student_poll(present: bool) -> None:
    """The poll box at the top of a page opened with ``?room=CODE``: the room's question to answer once, then its
    released counts after the reveal. Nothing when the URL names no room."""
    raw = st.query_params.get(ROOM)
    if raw is None:
        return
    with st.container(border=True, key="class_poll"):
        st.markdown(f"{'### ' if present else '#### '}:material/how_to_vote: Class poll")
        _refusal()
        try:
            code = poll_store.normalise_code(raw)
        except PollError as refused:
            st.error(str(refused), icon=":material/block:")
            return
        tally = _ask("tally", code)
        if tally is None:
            _refusal()
            return
        _ballot(tally)


def _ballot(tally: Tally) -> None:
    room = tally.room
    st.markdown(f"**Room {room.code}.** {room.question}")
    voted = st.session_state.setdefault(_VOTES, {}).get(room.code)
    if room.revealed:
        show_release(tally)
    elif room.closed:
        st.info("This poll has ended without a reveal.", icon=":material/event_busy:")
    elif voted is not None:
        st.success(f"Your answer is in: {room.choices[voted]}. The class's results appear here when the teacher "
                   "reveals them.", icon=":material/check_circle:")
        st.fragment(_wait_for_reveal, run_every=STUDENT_SECONDS)(room.code)
    else:
        radio = f"poll_choice_{room.code}"
        st.radio("Your answer", room.choices, index=None, key=radio)
        st.button("Send my answer", key="poll_send", type="primary", icon=":material/send:",
                  on_click=_send, args=(room.code, room.choices, radio),
                  help="One answer per browser tab; no name is asked or kept.")


def _send(code: str, choices: tuple[str, ...], radio: str) -> None:
    """"Send my answer": the vote to the store, and this tab's record of it. The record's dict is fetched before the
    store is asked: a call to ``st`` in a callback is where Streamlit stops it for a newer rerun (a second tap before
    the page redrew), and one between the store's count and the record lost the record (the page then offered the
    ballot again, refused every answer and never showed the reveal)."""
    chosen = st.session_state.get(radio)
    if chosen is None:
        st.session_state[_REFUSED] = "Pick an answer first."
        return
    tab = st.session_state.setdefault(_TAB, poll_store.new_tab_id())
    votes = st.session_state.setdefault(_VOTES, {})
    if _ask("vote", code, tab, choices.index(chosen)) is not None:
        votes[code] = choices.index(chosen)  # a plain dict: no st call between the count and its record


def _wait_for_reveal(code: str) -> None:
    """Every :data:`STUDENT_SECONDS`: once the teacher has revealed, the release, drawn in this fragment (or that the
    poll has ended, or gone). Not a rerun of the whole page: every phone of the class sees the reveal within those
    seconds, and 60 runs of a page at once cost ten times as much as 60 of this fragment (``benchmarks/load.py
    --poll 60``)."""
    try:
        room = store().room(code)
        if room.revealed:
            show_release(store().tally(code))
        elif room.closed:
            st.info("This poll has ended without a reveal.", icon=":material/event_busy:")
    except PollError as refused:
        st.error(str(refused), icon=":material/block:")
    except OSError:
        st.error(_UNAVAILABLE, icon=":material/block:")


# ------------------------------------------------------------------------------------------------ the teacher
def teacher_poll(page: str, question: Question, present: bool, may_open: bool = True) -> None:
    """Under a predict question in the teacher view: open a poll of the class on it (if ``may_open``: not once the
    question is answered on screen), watch the answers come in, reveal the class's counts released with ε-DP."""
    opened = st.session_state.setdefault(_OPENED, {})
    _refusal()
    if question.key not in opened:
        if may_open:
            _open_controls(page, question, opened)
        return
    code, key, answer = opened[question.key]
    tally = _ask("tally", code)
    if tally is None:
        _refusal()
        opened.pop(question.key)
        return
    if tally.room.revealed:
        st.markdown(f"**Class poll, room {code}**: {tally.room.question}")
        show_release(tally, answer)
        with st.expander("The exact counts (not private: opening this shows what the release protects)",
                         key=f"poll_exact_{question.key}", on_change="rerun", icon=":material/lock_open:") as exact:
            if exact.open:
                show_table([{"answer": label, "exact count": count}
                            for label, count in zip(tally.room.choices, tally.counts)])
    elif tally.room.closed:
        st.info(f"The poll in room {code} has ended.", icon=":material/event_busy:")
    else:
        _room_controls(page, tally.room, key, question, present)
    st.button("New poll on this question", key=f"poll_new_{question.key}", icon=":material/restart_alt:",
              on_click=opened.pop, args=(question.key, None))


def _open_controls(page: str, question: Question, opened: dict) -> None:
    minutes = st.select_slider("Keep a class poll open for (minutes)", MINUTES, value=20,
                               key=f"poll_minutes_{question.key}")

    def open_room() -> None:
        created = _ask("create_room", page, question.prompt, list(question.choices), float(minutes))
        if created is not None:
            room, key = created
            opened[question.key] = (room.code, key, question.answer)
    st.button("Poll the class on this question", key=f"poll_start_{question.key}", icon=":material/how_to_vote:",
              on_click=open_room, help="The class answers from their phones; you reveal the counts, released with "
                                       "differential privacy at the ε you pick.")


def _room_controls(page: str, room: Room, key: str, question: Question, present: bool) -> None:
    """The open room on the projector: its code and QR code beside the count of answers, ε and the buttons (one
    screen of a 1280×720 projector; stacked on a phone)."""
    join, controls = st.columns([3, 2], vertical_alignment="center")
    link = class_link({ROOM: room.code})  # under the room: what may be wrong with its link (localhost)
    join.html(join_html(room.code, link, home_address(link, page), present))
    with controls:
        st.fragment(_answered, run_every=TEACHER_SECONDS)(room.code, present)
        epsilon = st.select_slider("ε for the class's release", class_poll.EPSILONS,
                                   value=class_poll.DEFAULT_EPSILON, key=f"poll_eps_{question.key}",
                                   format_func=lambda value: f"{value:g}")
        st.button("Reveal the class's answers", key=f"poll_reveal_{question.key}", type="primary",
                  icon=":material/visibility:", on_click=_ask, args=("reveal", room.code, key, epsilon))
        st.button("End the poll", key=f"poll_close_{question.key}", icon=":material/stop_circle:",
                  on_click=_ask, args=("close", room.code, key))


def _answered(code: str, present: bool) -> None:
    """How many have answered, counted again every :data:`TEACHER_SECONDS` (big on a projector)."""
    try:
        tally = store().tally(code)
    except (PollError, OSError):
        return
    st.markdown(f"{'### ' if present else ''}**{tally.answered}** answered so far")
