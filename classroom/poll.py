"""The class poll on a page: the class answers a predict question from their phones, and the teacher reveals the
class's answer counts released with differential privacy (:mod:`dpcore.lessons.class_poll`). The state it stands on
is its neighbours' in :mod:`classroom`: the store (:mod:`classroom.poll_store`), the teacher key, the voter id, the
limits per client.

**Teacher** (the teacher view, ``?teacher=1``, shown only to a browser that holds the lab's teacher key:
:mod:`classroom.teacher`): under a *Predict first* question, "Poll the class" opens a room owned by the lab's key, for
the question and its choices, open for the minutes the teacher picks. The room's code and a QR code of the join link
are shown (big in presentation mode), with how many have answered, counted live. The teacher picks ε and reveals: the
voting ends and the counts are released once with the two-sided geometric mechanism at that ε, next to the question's
right answer, with one sentence saying what ε means for any one student's vote. The exact counts stay folded (opening
them shows what the release protects). The room is found again from the store after a reload or a replica's death
(the newest open room of the key for this page and question), and "Your class polls" lists every room of the key
with "End".

**Student**: the code typed on the home page, or the QR code, opens a page with ``?room=CODE``; a box at the top asks
the room's question; one vote per browser (:mod:`classroom.voter`: a random id the browser keeps, so a reload finds
the vote); the box then waits for the reveal and shows the released counts. An unknown, ended or mistyped code, a
second vote, a vote after the reveal, too many attempts from one network (:mod:`classroom.limits`), a fault of the
store's database: each gets a message in the box, and the page around it runs as usual.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dpcore.lessons import class_poll
from dpcore.lessons.questions import Question
from registry import PAGES

from . import lab_store, limits, teacher_key, voter
from .poll_store import FAULTS, PollError, Room, Tally, UnknownRoom, fault_message, normalise_code
from .share import class_link, home_address, join_html
from .table import show_table

__all__ = ["ROOM", "MINUTES", "TEACHER_SECONDS", "STUDENT_SECONDS", "NOISE", "show_release", "join_box",
           "student_poll", "teacher_poll", "teacher_rooms", "attempts"]

ROOM = "room"  #: URL key: the code of the poll a student joins
MINUTES = (5, 10, 20, 45, 90)  #: how long a teacher may keep a poll open
TEACHER_SECONDS = 2.0  #: how often the projector counts the answers
STUDENT_SECONDS = 4.0  #: how often a student's phone checks whether the teacher has revealed
NOISE = "geometric"  #: the mechanism of the release: integer counts, ε-DP (dpcore.mechanisms.poll_histogram)
_VOTES = "_poll_votes"  # session-state key: {code: the choice this browser voted for}
_JOINED = "_poll_joined"  # session-state key: codes this session found (an unknown code is counted once per session)
_REFUSED = "_poll_refused"  # session-state key: the message of the store's last refusal, shown once in its box


def _ask(operation: str, *args: Any) -> Any:
    """The shared store's ``operation(*args)``; a refusal (in the store's words) or a fault of its database is kept to
    be shown in the poll's box (:func:`_refusal`), and None returned. After a fault the store is opened afresh at the
    next call, so a folder or file made again, or a lock released, lets the poll work on without a restart."""
    try:
        return getattr(lab_store.shared_store(), operation)(*args)
    except PollError as refused:
        st.session_state[_REFUSED] = str(refused)
    except FAULTS as fault:
        lab_store.shared_store.cache_clear()
        st.session_state[_REFUSED] = fault_message(fault)
    return None


def attempts(*args: Any, **kwargs: Any) -> int:
    """The shared store's attempt counter (:mod:`classroom.limits`), opened when first needed."""
    return lab_store.shared_store().attempts(*args, **kwargs)


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
    st.markdown(f"{result.sentence} Each released count is off by about {result.mean_error:.1f} on average. "
                f"{_answered_words(tally.answered)}; the released counts need not add up to that: each has noise of "
                "its own, and a count pushed below 0 is shown as 0.")


def _answered_words(answered: int) -> str:
    """``1 student answered``, ``3 students answered``."""
    return f"{answered} student{'' if answered == 1 else 's'} answered"


# ------------------------------------------------------------------------------------------------ the student
def join_box() -> None:
    """"Join a class poll" (the home page): the code from the projector opens the poll here (``?room=CODE``)."""
    with st.form("join_poll", border=True, enter_to_submit=True):
        code = st.text_input("Join a class poll: type the room code shown on the projector", max_chars=16,
                             placeholder="K7QX2", key="join_code", autocomplete="off")
        if st.form_submit_button("Join", icon=":material/how_to_vote:"):
            try:
                st.query_params[ROOM] = normalise_code(code)
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
            code = normalise_code(raw)
        except PollError as refused:
            st.error(str(refused), icon=":material/block:")
            return
        tally = _find(code)
        if tally is None:
            _refusal()
            return
        _ballot(tally)


def _find(code: str) -> Tally | None:
    """The room's tally, for a code this session found before or, within this client's limit of unknown codes per
    minute, a new one (an unknown code counts once per session)."""
    joined = st.session_state.setdefault(_JOINED, set())
    if code not in joined and limits.exceeded(attempts, "code"):
        st.session_state[_REFUSED] = limits.REFUSALS["code"]
        return None
    try:
        tally = lab_store.shared_store().tally(code)
    except UnknownRoom as unknown:
        if code not in joined:
            limits.record(attempts, "code")
        joined.add(code)
        st.session_state[_REFUSED] = str(unknown)
        return None
    except PollError as refused:
        st.session_state[_REFUSED] = str(refused)
        return None
    except FAULTS as fault:
        lab_store.shared_store.cache_clear()
        st.session_state[_REFUSED] = fault_message(fault)
        return None
    joined.add(code)
    return tally


def _ballot(tally: Tally) -> None:
    room = tally.room
    st.markdown(f"**Room {room.code}.** {room.question}")
    voted = _voted(room)
    if room.revealed:
        _your_answer(room, voted)
        show_release(tally, room.answer)
    elif room.closed:
        st.info("This poll has ended without a reveal.", icon=":material/event_busy:")
    elif voted is not None:
        st.fragment(_wait_for_reveal, run_every=STUDENT_SECONDS)(room.code, voted)
    else:
        radio = f"poll_choice_{room.code}"
        st.radio("Your answer", room.choices, index=None, key=radio)
        st.button("Send my answer", key="poll_send", type="primary", icon=":material/send:",
                  on_click=_send, args=(room.code, room.choices, radio, voter.voter_id()),
                  help="One answer per browser; no name is asked or kept.")


def _voted(room: Room) -> int | None:
    """The choice this browser voted for in ``room``: this session's record, else the store's (a reload, another tab
    or replica: the browser keeps its voter id)."""
    votes = st.session_state.setdefault(_VOTES, {})
    if room.code not in votes:
        earlier = _ask("voted", room.code, voter.voter_id())
        if earlier is not None and 0 <= earlier < len(room.choices):
            votes[room.code] = earlier
    return votes.get(room.code)


def _send(code: str, choices: tuple[str, ...], radio: str, voter_id: str) -> None:
    """"Send my answer": the vote to the store, and this browser's record of it. The record's dict is fetched before
    the store is asked: a call to ``st`` in a callback is where Streamlit stops it for a newer rerun (a second tap
    before the page redrew), and one between the store's count and the record lost the record (the page then offered
    the ballot again, refused every answer and never showed the reveal). A value that is not one of the choices (a
    forged message) is refused like no answer."""
    chosen = st.session_state.get(radio)
    if chosen not in choices:
        st.session_state[_REFUSED] = "Pick one of the answers shown first."
        return
    votes = st.session_state.setdefault(_VOTES, {})
    if limits.exceeded(attempts, "vote"):
        st.session_state[_REFUSED] = limits.REFUSALS["vote"]
        return
    receipt = _ask("vote", code, voter_id, choices.index(chosen))
    if receipt is not None:
        votes[code] = choices.index(chosen)  # a plain dict: no st call between the count and its record
        if receipt.counted:
            limits.record(attempts, "vote")


def _your_answer(room: Room, voted: int | None) -> None:
    """What this browser answered, once the room is revealed (nothing if it did not vote): an alert where "Your answer
    is in" was, so the browser keeps the element and the focus the confirmation had stays on it."""
    if voted is not None:
        st.success(f"You answered: {room.choices[voted]}.", icon=":material/check_circle:")


def _wait_for_reveal(code: str, voted: int) -> None:
    """This browser's answer, and every :data:`STUDENT_SECONDS` whether the teacher has revealed: then the release,
    the right answer marked, drawn in this fragment (or that the poll has ended, or gone). Not a rerun of the whole
    page: every phone of the class sees the reveal within those seconds, and 60 runs of a page at once cost ten times
    as much as 60 of this fragment (``benchmarks/load.py --poll 60``)."""
    try:
        tally = lab_store.shared_store().tally(code)
        room = tally.room
        if room.revealed:
            _your_answer(room, voted)
            show_release(tally, room.answer)
        elif room.closed:
            st.info("This poll has ended without a reveal.", icon=":material/event_busy:")
        else:
            st.success(f"Your answer is in: {room.choices[voted]}. The class's results appear here when the "
                       "teacher reveals them.", icon=":material/check_circle:")
    except PollError as refused:
        st.error(str(refused), icon=":material/block:")
    except FAULTS as fault:
        lab_store.shared_store.cache_clear()
        st.error(fault_message(fault), icon=":material/block:")


# ------------------------------------------------------------------------------------------------ the teacher
def teacher_poll(page: str, question: Question, present: bool, may_open: bool = True) -> None:
    """Under a predict question in the teacher view: open a poll of the class on it (if ``may_open``: not once the
    question is answered on screen), watch the answers come in, reveal the class's counts released with ε-DP. The
    room is the newest of the lab's key for this page and question, so a reload finds it; once it is ended, a new
    one may be opened."""
    room = _newest_room(page, question)
    _refusal()
    if room is None or room.closed:
        if room is not None and not room.revealed:
            st.info(f"The poll in room {room.code} has ended.", icon=":material/event_busy:")
        if may_open:
            _open_controls(page, question)
        return
    tally = _ask("tally", room.code)
    if tally is None:
        _refusal()
        return
    if tally.room.revealed:
        st.markdown(f"**Class poll, room {room.code}**: {tally.room.question}")
        show_release(tally, question.answer)
        with st.expander("The exact counts (not private: opening this shows what the release protects)",
                         key=f"poll_exact_{question.key}", on_change="rerun", icon=":material/lock_open:") as exact:
            if exact.open:
                show_table([{"answer": label, "exact count": count}
                            for label, count in zip(tally.room.choices, tally.counts)])
    else:
        _room_controls(page, tally.room, question, present)
    st.button("New poll on this question", key=f"poll_new_{question.key}", icon=":material/restart_alt:",
              on_click=_ask, args=("close", room.code, teacher_key.lab_key()),
              help="Ends this poll (its results stay on the students' phones) and offers a new one.")


def _newest_room(page: str, question: Question) -> Room | None:
    """The newest room of the lab's key on this page and question (open or ended), None when there is none. The
    question is found by its key: its text changes with the page's settings (n, ε) while the poll is open."""
    rooms = _ask("rooms", teacher_key.lab_key()) or ()
    return next((room for room in rooms if room.page == page and room.question_key == question.key), None)


def _open_controls(page: str, question: Question) -> None:
    minutes = st.select_slider("Keep a class poll open for (minutes)", MINUTES, value=20,
                               key=f"poll_minutes_{question.key}")
    st.button("Poll the class on this question", key=f"poll_start_{question.key}", icon=":material/how_to_vote:",
              on_click=_ask, args=("create_room", page, question.prompt, list(question.choices),
                                   teacher_key.lab_key(), float(minutes), question.key, question.answer),
              help="The class answers from their phones; you reveal the counts, released with differential privacy "
                   "at the ε you pick.")


def _room_controls(page: str, room: Room, question: Question, present: bool) -> None:
    """The open room on the projector: its code and QR code beside the count of answers, ε and the buttons (one
    screen of a 1280×720 projector; stacked on a phone)."""
    join, controls = st.columns([3, 2], vertical_alignment="center")
    link = class_link({ROOM: room.code})  # under the room: what may be wrong with its link (localhost)
    join.html(join_html(room.code, link, home_address(link, page), present))
    key = teacher_key.lab_key()
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
        tally = lab_store.shared_store().tally(code)
    except PollError:
        return
    except FAULTS as fault:
        lab_store.shared_store.cache_clear()
        st.caption(fault_message(fault))
        return
    st.markdown(f"{'### ' if present else ''}**{tally.answered}** answered so far")


def teacher_rooms() -> None:
    """"Your class polls" in the teacher view: every room of the lab's key still open (not ended, not expired), with
    its page, question, answers so far and "End", so a teacher recovers them after a reload, on another page, or
    after a replica died. Nothing when there is none."""
    key = teacher_key.lab_key()
    open_rooms = [room for room in _ask("rooms", key) or () if not room.closed]
    if not open_rooms:
        _refusal()
        return
    titles = {info.url_path: info.title for info in PAGES}
    with st.expander(f"Your class polls ({len(open_rooms)} open)", icon=":material/how_to_vote:",
                     key="teacher_rooms"):
        _refusal()
        for room in open_rooms:
            state = "revealed" if room.revealed else "open"
            asked = room.question.rstrip().rsplit(". ", 1)[-1]  # the question's last sentence: what it asks
            left, right = st.columns([4, 1], vertical_alignment="center")
            left.markdown(f"**Room {room.code}** ({state}) on [{titles.get(room.page, room.page)}](/{room.page}"
                          f"?teacher=1): {asked}")
            right.button("End", key=f"poll_end_{room.code}", icon=":material/stop_circle:", on_click=_ask,
                         args=("close", room.code, key), help=f"End the poll in room {room.code}.")
