""""Check yourself": a topic page's exercises, graded on the server, with hints, mastery and receipts.

Each exercise (:mod:`dpcore.exercises`) is shown in this student's variant (their seed, the attempt they reached):
a box for a number, a choice, or the page's own controls. "Check" grades it: right, the formula with the variant's
numbers, a signed receipt (:mod:`classroom.receipts`) and a new variant; wrong, the mistake a wrong choice stands for
and a first hint, then a second, then "Show the answer" with the worked solution. Three right in a row master the
page (:data:`classroom.progress.IN_A_ROW`). The progress stays in the browser (:mod:`classroom.progress_storage`);
"Download my progress", "Load my progress" and "Forget my progress" move or clear it, "Download a receipt" gives
the teacher something to check ("Check a receipt", in the teacher view).

The section is a fragment: a check reruns it alone, not the page's figures.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping
from typing import Any

import streamlit as st

from dpcore import exercises
from dpcore.core.validation import InvalidParameterError

from . import progress_storage, receipts
from .poll_store import FAULTS
from .progress import IN_A_ROW, PageProgress, Progress, ProgressError, from_json, to_json

__all__ = ["HEADING", "RECEIPT_PROVES", "show", "variant_of", "check_receipt_box"]

HEADING = "Check yourself"
#: Said beside "Download a receipt": what it proves, and what it does not
RECEIPT_PROVES = ("A receipt proves that this lab graded those answers right, and when; it does not prove who typed "
                  "them. Your teacher can check it in the teacher view.")
_KINDS = {"numeric": "a number", "choice": "a choice", "on_page": "on the page"}
_FEEDBACK = "check_feedback"  # session-state key: {(page, exercise): (kind of alert, text)} of the last check
_STATES = {"new": "not started", "tried": "tried", "solved": "solved", "mastered": "mastered"}


def variant_of(exercise: exercises.Exercise, url_path: str, progress: Progress | None) -> exercises.Variant:
    """The variant of ``exercise`` this student is at (seed 0's first variant before the browser has answered)."""
    if progress is None:
        return _variant(exercise, exercises.variant_seed(0, url_path, exercise.key, 0))
    attempt = progress.page(url_path).exercise(exercise.key).attempt
    return _variant(exercise, exercises.variant_seed(progress.seed, url_path, exercise.key, attempt))


@functools.lru_cache(maxsize=1024)
def _variant(exercise: exercises.Exercise, seed: int) -> exercises.Variant:
    """``exercise.variant(seed)``, remembered for the last 1,024 (exercise, seed) pairs: every run of a page puts each
    exercise's variant in the handout's outline and the section draws it again, and drawing one (its numbers, its
    checks) took a few milliseconds per run. A variant is frozen and a function of its seed alone."""
    return exercise.variant(seed)


def show(url_path: str, params: Mapping[str, Any], teacher: bool) -> None:
    """The page's "Check yourself" section (nothing for a page without exercises): ``params`` are the page's control
    values (the tasks done on the page are graded from them); the teacher view shows each variant's answer."""
    if not exercises.for_page(url_path):
        return
    st.subheader(HEADING, anchor="check-yourself")
    st.fragment(_section)(url_path, dict(params), teacher)


def _section(url_path: str, params: dict[str, Any], teacher: bool) -> None:
    progress = progress_storage.sync("progress_storage")
    if progress is None:
        st.caption("Reading your progress from this browser…")
        return
    if progress_storage.unreadable():
        st.warning("The progress this browser kept could not be read; a fresh one has started.", icon=":material/info:")
    page = progress.page(url_path)
    st.markdown(_status(page))
    listed = exercises.for_page(url_path)
    for number, exercise in enumerate(listed, start=1):
        with st.container(border=True, key=f"exercise_{exercise.key}"):
            _exercise(url_path, exercise, f"{number} of {len(listed)}", progress, params, teacher)
    _progress_controls(progress)


def _status(page: PageProgress) -> str:
    """The page's state in one line: tried, solved, the run toward mastery."""
    if page.mastered:
        return (f"**Mastered.** {page.solved} right of {page.tried} checked. Keep practising, or go on to the next "
                "page.")
    run = f"{page.streak} of {IN_A_ROW} right in a row"
    return (f"**{_STATES[page.state()].capitalize()}**: {page.solved} right of {page.tried} checked; {run} "
            f"(a page is mastered after {IN_A_ROW} right in a row, each a new variant).")


def _exercise(url_path: str, exercise: exercises.Exercise, place: str, progress: Progress, params: dict[str, Any],
              teacher: bool) -> None:
    state = progress.page(url_path).exercise(exercise.key)
    made = variant_of(exercise, url_path, progress)
    st.markdown(f"**Exercise {place}: {exercise.title}** ({_KINDS[exercise.kind]})")
    feedback = st.session_state.get(_FEEDBACK, {}).get((url_path, exercise.key))
    if feedback and feedback[0] == "success":
        st.success(feedback[1], icon=":material/check_circle:")
    st.markdown(made.prompt)
    box = f"answer_{exercise.key}_{state.attempt}"
    if exercise.kind == "numeric":
        st.text_input(f"Your answer{f' ({made.unit})' if made.unit else ''}", key=box, placeholder="a number")
    elif exercise.kind == "choice":
        # a letter before each choice: one that is a formula alone still has a name a screen reader reads
        lettered = {choice: f"{chr(65 + index)}. {choice}" for index, choice in enumerate(made.choices)}
        st.radio("Your answer", made.choices, index=None, key=box, format_func=lettered.__getitem__)
    else:
        st.caption("Use the page's controls (in the sidebar, which a phone opens from the button at its top left, and "
                   "beside the figures), then check.")
    st.button("Check", key=f"check_{exercise.key}", on_click=_check, icon=":material/task_alt:",
              args=(url_path, exercise, made, box, params), disabled=state.shown)
    if feedback and feedback[0] != "success":
        getattr(st, feedback[0])(feedback[1], icon=":material/info:" if feedback[0] == "info" else
                                 ":material/cancel:")
    _hints(url_path, exercise, made, state)
    if teacher:
        with st.expander("For the teacher: this variant's answer", icon=":material/school:"):
            st.markdown(made.solution)


def _hints(url_path: str, exercise: exercises.Exercise, made: exercises.Variant, state: Any) -> None:
    """After a wrong answer the first hint, after two the second and "Show the answer"; once shown, the worked
    solution and "Try a new one"."""
    for hint in made.hints[:min(state.wrong, 2)]:
        st.info(f"Hint: {hint}", icon=":material/lightbulb:")
    if state.shown:
        st.info(f"The answer: {made.solution}", icon=":material/menu_book:")
        st.button("Try a new one", key=f"new_{exercise.key}", on_click=_new_variant, args=(url_path, exercise),
                  icon=":material/refresh:")
    elif state.wrong >= 2:
        st.button("Show the answer", key=f"show_{exercise.key}", on_click=_show_answer, args=(url_path, exercise),
                  icon=":material/visibility:")


def _say(url_path: str, exercise: exercises.Exercise, kind: str, text: str) -> None:
    st.session_state.setdefault(_FEEDBACK, {})[(url_path, exercise.key)] = (kind, text)


def _given(exercise: exercises.Exercise, made: exercises.Variant, box: str, params: dict[str, Any]) -> Any:
    """What the student answered: the number typed, the choice's index, or the page's controls."""
    if exercise.kind == "numeric":
        return exercises.parse_number(str(st.session_state.get(box) or ""))
    if exercise.kind == "choice":
        chosen = st.session_state.get(box)
        if chosen not in made.choices:
            raise InvalidParameterError("Pick one of the answers first.")
        return made.choices.index(chosen)
    return params


def _check(url_path: str, exercise: exercises.Exercise, made: exercises.Variant, box: str,
           params: dict[str, Any]) -> None:
    """Grade the answer (a callback of "Check"): the progress, a receipt for a right one, what the student is told."""
    progress = progress_storage.current()
    if progress is None:
        return
    try:
        receipts.lab_secret()  # a right answer's receipt is signed with it: a store at fault says so, records nothing
    except FAULTS:
        _say(url_path, exercise, "warning", _unsigned("Your answer"))
        return
    try:
        verdict = exercises.grade(exercise.kind, made, _given(exercise, made, box, params))
    except InvalidParameterError as unread:
        _say(url_path, exercise, "warning", str(unread))
        return
    page = progress.page(url_path)
    seed = exercises.variant_seed(progress.seed, url_path, exercise.key, page.exercise(exercise.key).attempt)
    if verdict.right:
        page.streak = receipts.run_before(progress.receipts, url_path, page.streak,
                                          receipts.student_tag(progress.seed))
    page.record(exercise.key, verdict.right)
    if verdict.right:
        stamp = receipts.Stamp(url_path, exercise.key, seed, int(time.time()), page.streak,
                               receipts.student_tag(progress.seed))
        progress.receipts = _bounded([*progress.receipts, receipts.sign(stamp)])
        mastered = f" The page is mastered: {IN_A_ROW} right in a row." if page.streak == IN_A_ROW else ""
        _say(url_path, exercise, "success", f"Right. {verdict.said}{mastered} Here is a new one.")
    else:
        said = verdict.said or _off(exercise, made, box)
        hint = "The first hint is below." if page.exercise(exercise.key).wrong == 1 else "The second hint is below."
        _say(url_path, exercise, "error", f"Not yet. {said} {hint}")
    progress_storage.save(progress)


def _unsigned(what: str) -> str:
    """What a student or teacher reads when the lab's receipt secret cannot be read (its store at fault)."""
    return (f"{what} was not checked just now: the lab cannot read the secret that signs its receipts (its database "
            "does not answer). Nothing was recorded; try again in a minute, and if it goes on, tell whoever runs "
            "the lab.")


def _off(exercise: exercises.Exercise, made: exercises.Variant, box: str) -> str:
    """What is wrong with an answer that has no reason of its own: a number too far, or the page's settings."""
    if exercise.kind == "numeric":
        typed = str(st.session_state.get(box) or "").strip()
        return f"{typed} is more than {made.tolerance:g} away from the answer."
    return "The page's settings do not do it yet."


def _bounded(tokens: list[str]) -> list[str]:
    """At most 1,000 receipts (what a progress file may hold): the oldest that prove no mastery go first."""
    while len(tokens) > 1000:
        runs = [stamp.run if (stamp := receipts.verify(token)) else 0 for token in tokens]
        del tokens[next((index for index, run in enumerate(runs) if run < IN_A_ROW), 0)]
    return tokens


def _show_answer(url_path: str, exercise: exercises.Exercise) -> None:
    progress = progress_storage.current()
    if progress is not None:
        progress.page(url_path).show_answer(exercise.key)
        _say(url_path, exercise, "info", "Read the worked answer below, then try a new variant.")
        progress_storage.save(progress)


def _new_variant(url_path: str, exercise: exercises.Exercise) -> None:
    progress = progress_storage.current()
    if progress is not None:
        progress.page(url_path).next_variant(exercise.key)
        st.session_state.get(_FEEDBACK, {}).pop((url_path, exercise.key), None)
        progress_storage.save(progress)


# ------------------------------------------------------------------------- the student's own copy
def _progress_controls(progress: Progress) -> None:
    """Download, load and forget the progress; download a receipt."""
    st.caption("Your progress is kept in this browser only (not on the server): download it to move it to another "
               "device, and load it there.")
    left, right = st.columns(2)
    left.download_button("Download my progress", to_json(progress), file_name="dp-lab-progress.json",
                         mime="application/json", key="progress_download", on_click="ignore",
                         icon=":material/download:")
    right.download_button("Download a receipt", receipts.receipt_json(progress.receipts),
                          file_name="dp-lab-receipt.json", mime="application/json", key="receipt_download",
                          on_click="ignore", icon=":material/verified:", disabled=not progress.receipts)
    st.caption(RECEIPT_PROVES)
    st.file_uploader("Load my progress (a file downloaded here before)", type=["json"], key="progress_load",
                     on_change=_load, max_upload_size=1)
    loaded = st.session_state.get("progress_loaded")
    if loaded:
        getattr(st, loaded[0])(loaded[1], icon=":material/info:")
    st.button("Forget my progress", key="progress_forget", on_click=_forget, icon=":material/delete:",
              help="Starts again with new numbers: download your progress first if you want to keep it.")


def _load() -> None:
    file = st.session_state.get("progress_load")
    if file is None:
        return
    try:
        progress_storage.save(from_json(file.getvalue()))
        st.session_state["progress_loaded"] = ("success", f"Your progress from {file.name} is loaded.")
    except ProgressError as refused:
        st.session_state["progress_loaded"] = ("error", f"{refused} Nothing has changed.")


def _forget() -> None:
    progress_storage.forget()
    st.session_state.pop(_FEEDBACK, None)
    st.session_state["progress_loaded"] = ("info", "Your progress is forgotten: you start again with new numbers.")


# ------------------------------------------------------------------------- the teacher's check
def check_receipt_box(titles: Mapping[str, str]) -> None:
    """The teacher's "Check a receipt": a student's receipt file, checked; ``titles`` names the pages."""
    file = st.file_uploader("Check a receipt (a student's receipt file)", type=["json"], key="receipt_check",
                            max_upload_size=1)
    if file is None:
        return
    try:
        checked = receipts.check_receipt(file.getvalue())
    except receipts.ReceiptError as refused:
        st.error(str(refused), icon=":material/cancel:")
        return
    except FAULTS:
        st.error(_unsigned("The receipt"), icon=":material/cancel:")
        return
    mastered = ", ".join(titles.get(page, page) for page in checked.mastered) or "none"
    answers = "; ".join(f"{titles.get(page, page)}: {count}" for page, count in sorted(checked.answers.items()))
    st.markdown(f"**Pages proved mastered:** {mastered}. **Right answers proved:** {answers or 'none'}.")
    if checked.browsers > 1:
        st.warning(f"These answers were earned in {checked.browsers} different students' progress: a receipt a student "
                   "downloads holds only their own.", icon=":material/group:")
    if checked.refused:
        st.error(f"{checked.refused} of the receipt's entries were altered or signed by another lab: they prove "
                 "nothing.", icon=":material/gpp_bad:")
    st.caption(RECEIPT_PROVES)
