"""The class poll on the pages (classroom/poll.py), through AppTest sessions sharing one store: the teacher opens a room
under a predict question, students vote by ``?room=CODE`` (or the home page's code box), the projector counts, the
reveal releases the counts with ε-DP, the same on every screen; every refusal is a message in the poll's box. Only a
browser holding the lab's teacher key opens, reveals or ends a room, and finds its rooms again after a reload; a
browser keeps its voter id, so a reload keeps one vote; attempts are limited per client; every fault of the store's
database is a message, and the poll works again once the fault is gone.

The store's own contract (codes, replays, bounds, expiry) is tests/classroom/test_poll_store.py; 60 voters over the
websocket on two replicas, tests/e2e/test_poll_replicas.py.
"""

import html
import re
import shutil
import sqlite3
import subprocess

import numpy as np
import psycopg
import pytest
from helpers import page_path, run, tables, texts

from classroom import lab_store, limits, poll, poll_store, teacher_key
from classroom.poll_store import SqlitePollStore
from dpcore.lessons import class_poll
from tests import postgres_cluster

PAGE = "truncation.py"
QUESTION = "radius"  # the truncation page's predict question (dpcore.lessons.truncation.radius_question)


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A fresh poll store for the test (every session of the test shares it, as every replica does)."""
    monkeypatch.setenv("DPLAB_DATA_DIR", str(tmp_path / "data"))
    lab_store.shared_store.cache_clear()
    yield tmp_path / "data"
    lab_store.shared_store.cache_clear()


class FrozenStore:
    """The shared store with a clock that stands still (attempts are counted per minute: a test must not cross one)."""

    def __init__(self, directory):
        self.store = SqlitePollStore(directory, clock=lambda: 1_800_000_010.0)

    def __call__(self):
        return self.store

    def cache_clear(self):
        pass


@pytest.fixture
def frozen(data_dir, monkeypatch):
    monkeypatch.setattr(lab_store, "shared_store", FrozenStore(data_dir))
    return data_dir


def open_page(script: str = PAGE, **query: str):
    return run(page_path(script), timeout=120, answered=False, **query)


def button(at, key: str):
    [found] = [widget for widget in at.button if widget.key == key]
    return found


def teacher_with_room(**query: str):
    """A teacher's projector (``?teacher=1&present=1``) with a room opened on the page's question; and its code."""
    teacher = open_page(teacher="1", present="1", **query)
    button(teacher, f"poll_start_{QUESTION}").click().run()
    [room] = lab_store.shared_store().rooms(teacher_key.lab_key())[:1]
    return teacher, room.code


def vote(code: str, choice: int, **query: str):
    """A student's tab that opened the room's link and sent ``choice``."""
    student = open_page(room=code, **query)
    radio = student.radio(key=f"poll_choice_{code}")
    radio.set_value(radio.options[choice]).run()
    button(student, "poll_send").click().run()
    return student


def answered(teacher) -> int:
    [count] = [int(re.search(r"\*\*(\d+)\*\*", text).group(1)) for text in texts(teacher.markdown)
               if "answered so far" in text]
    return count


def test_the_teacher_opens_a_room_shown_big_with_its_qr_code_and_nobody_answered(data_dir):
    teacher, code = teacher_with_room()
    assert not teacher.exception and not teacher.error
    [block] = [element.proto.body for element in teacher.get("html") if "dplab-room-code" in element.proto.body]
    assert f'<p class="dplab-room-code">{code}</p>' in block and 'class="dplab-share room present"' in block
    assert 'src="data:image/svg+xml;base64,' in block and f"room={code}" in html.unescape(block)
    assert "teacher=1" not in html.unescape(block) and "present=1" not in html.unescape(block)
    assert answered(teacher) == 0
    room = SqlitePollStore(data_dir).room(code)
    assert room.page == "truncation-bias" and not room.revealed and room.expires - room.created == pytest.approx(1200)
    assert room.choices == tuple(teacher.radio(key=f"guess_{QUESTION}").options)  # the question's own choices


def test_votes_are_counted_once_each_then_released_with_dp_the_same_on_every_screen(data_dir):
    teacher, code = teacher_with_room()
    votes = [2, 2, 1, 2, 0, 3, 2]
    students = [vote(code, choice) for choice in votes]
    choices = teacher.radio(key=f"guess_{QUESTION}").options
    for student, choice in zip(students, votes):
        assert not student.exception and not student.error
        assert texts(student.success) == [f"Your answer is in: {choices[choice]}. The class's results appear here "
                                          "when the teacher reveals them."]
        assert not [widget for widget in student.button if widget.key == "poll_send"]  # one vote per tab
    store = SqlitePollStore(data_dir)
    assert store.tally(code).counts == tuple(np.bincount(votes, minlength=5))
    students[0].run()  # a rerun of a voter's tab votes nothing again
    assert store.tally(code).answered == len(votes)
    assert answered(teacher.run()) == len(votes)

    teacher.select_slider(key=f"poll_eps_{QUESTION}").set_value(0.5).run()
    button(teacher, f"poll_reveal_{QUESTION}").click().run()
    assert not teacher.exception and not teacher.error
    room = store.room(code)
    assert room.revealed and room.epsilon == 0.5
    expected = class_poll.poll_result(list(store.tally(code).counts), list(room.choices), 0.5, noise=poll.NOISE,
                                      seed=room.seed).released_counts
    column = "answers, released with ε = 0.5"
    [shown] = [table for table in tables(teacher) if column in table[0]]
    assert [int(row[column]) for row in shown] == expected.tolist()
    assert [row["right answer"] for row in shown].count("✓ right") == 1
    assert any("With ε = 0.5, whatever the class is shown was at most 1.6 times" in text
               for text in texts(teacher.markdown))
    right = teacher.radio(key=f"guess_{QUESTION}").options[room.answer]
    for student in (students[0].run(), open_page(room=code)):  # a voter's screen, and a latecomer's
        [seen] = [table for table in tables(student) if column in table[0]]
        assert [int(row[column]) for row in seen] == expected.tolist()
        assert [row["answer"] for row in seen if row["right answer"] == "✓ right"] == [right]  # marked on phones
        assert not any("appear here when the teacher" in text for text in texts(student.success))
        assert any(f"{len(votes)} students answered; the released counts need not add up to that" in text
                   for text in texts(student.markdown))
    assert any(f"You answered: {choices[votes[0]]}." in text for text in texts(students[0].success))
    assert any("exact counts" in box.label for box in teacher.expander)  # folded: no exact count sent
    assert not any("exact count" in table[0] for table in tables(teacher))
    assert store.tally(code).answered == len(votes)  # the latecomer's tab offered no vote


def test_a_vote_after_the_reveal_is_refused_in_the_box_and_not_counted(data_dir):
    teacher, code = teacher_with_room()
    early = open_page(room=code)  # opened before the reveal, sends after it
    vote(code, 1)
    button(teacher, f"poll_reveal_{QUESTION}").click().run()
    radio = early.radio(key=f"poll_choice_{code}")
    radio.set_value(radio.options[0])  # chosen before, sent after: one rerun carries both
    button(early, "poll_send").click().run()
    assert not early.exception
    assert "The teacher has revealed the results: voting is over." in texts(early.error)
    assert SqlitePollStore(data_dir).tally(code).counts == (0, 1, 0, 0, 0)


@pytest.mark.parametrize("raw, message", [
    ("<b>K7QX2</b>", "this one has other characters"),
    ("K7Q", "A room code has 5 characters; this one has 3."),
    ("ZZZZZ", "No poll has this code."),
])
def test_a_bad_or_unknown_code_gets_a_message_and_the_page_runs_on(data_dir, raw, message):
    student = open_page(room=raw)
    assert not student.exception
    [error] = texts(student.error)
    assert message in error and "<b>" not in error
    assert student.get("plotly_chart")  # the page around the box still draws its figures


def test_an_ended_poll_says_so_and_takes_no_vote(data_dir):
    teacher, code = teacher_with_room()
    early = open_page(room=code)
    button(teacher, f"poll_close_{QUESTION}").click().run()
    assert any(f"The poll in room {code} has ended." in text for text in texts(teacher.info))
    radio = early.radio(key=f"poll_choice_{code}")
    radio.set_value(radio.options[0])  # chosen before, sent after: one rerun carries both
    button(early, "poll_send").click().run()
    assert "This poll has ended." in texts(early.error)
    assert any("ended" in text for text in texts(open_page(room=code).info))
    assert SqlitePollStore(data_dir).tally(code).answered == 0


def test_the_home_page_joins_by_code_typed_as_read_from_the_wall(data_dir):
    teacher, code = teacher_with_room()
    home = open_page("home.py")
    home.text_input(key="join_code").input(f" {code[:2].lower()}-{code[2:]} ")
    [submit] = [widget for widget in home.button if widget.label == "Join"]
    submit.click().run()
    assert home.query_params["room"] == code
    assert not home.exception and any(code in text for text in texts(home.markdown))
    assert [widget for widget in home.button if widget.key == "poll_send"]
    home.text_input(key="join_code").input("k7q")
    [submit] = [widget for widget in home.button if widget.label == "Join"]
    submit.click().run()
    assert any("A room code has 5 characters" in text for text in texts(home.error))


def test_presentation_mode_keeps_the_join_box_off_the_projector(data_dir):
    assert not [widget for widget in open_page("home.py", present="1").text_input if widget.key == "join_code"]


def test_an_unwritable_data_folder_is_a_message_not_a_traceback(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DPLAB_DATA_DIR", str(blocker / "data"))
    lab_store.shared_store.cache_clear()
    try:
        teacher = open_page(teacher="1")
        button(teacher, f"poll_start_{QUESTION}").click().run()
        student = open_page(room="K7QX2")
    finally:
        lab_store.shared_store.cache_clear()
    for page in (teacher, student):
        assert not page.exception
        assert any("The class poll cannot work just now: its data folder cannot be written" in text
                   for text in texts(page.error))
        assert page.get("plotly_chart")
    assert [widget for widget in teacher.button if widget.key == f"poll_start_{QUESTION}"]  # try again later


def test_a_student_sees_no_teacher_control_and_a_teacher_no_ballot(data_dir):
    teacher, code = teacher_with_room()
    student = open_page(room=code)
    assert not [widget for widget in student.button if widget.key.startswith("poll_start_")]
    assert not [widget for widget in teacher.button if widget.key == "poll_send"]
    assert teacher_key.lab_key() not in repr(dict(teacher.session_state))  # the key is never in a session


# ---------------------------------------------------------------------------------------------------- locked down
def sign_in_box(at) -> bool:
    return any("needs the lab's teacher key" in text for text in texts(at.markdown))


def test_a_student_who_adds_teacher_1_during_a_poll_finds_no_answer_and_no_control(data_dir):
    teacher, code = teacher_with_room()
    student = open_page(teacher="1", room=code, keeps={})  # a student's browser: no key
    assert not student.exception and sign_in_box(student)
    assert [widget for widget in student.button if widget.key == "poll_send"]  # the student's page, unchanged
    assert not [widget for widget in student.button if widget.key.startswith(("poll_start_", "poll_reveal_"))]
    labels = [box.label for box in student.expander]
    assert not [label for label in labels if "For the teacher" in label or "exact counts" in label]
    assert not [label for label in labels if "Your class polls" in label]
    assert not any("Teacher's edition" in widget.label for widget in student.get("download_button"))
    assert "teacher_notes" not in [box.key for box in student.expander]
    assert student.text_input(key="teacher_key_typed").proto.type == 1  # a password field: never drawn


def test_the_teacher_view_opens_with_the_right_key_only_and_wrong_keys_are_limited(frozen, monkeypatch):
    monkeypatch.setattr(limits, "client_address", lambda: "203.0.113.7")  # a visitor from the network
    student = open_page(teacher="1", keeps={})
    for attempt in range(limits.LIMITS["key"]):
        student.text_input(key="teacher_key_typed").input(f"WRONGKEY{attempt:04d}")
        [submit] = [widget for widget in student.button if widget.label == "Open the teacher view"]
        submit.click().run()
        assert any("not this lab's teacher key" in text for text in texts(student.error))
    typed = teacher_key.lab_key().lower()  # the right key, in lower case: refused now, the limit is reached
    student.text_input(key="teacher_key_typed").input(typed)
    [submit] = [widget for widget in student.button if widget.label == "Open the teacher view"]
    submit.click().run()
    assert any("Too many wrong teacher keys" in text for text in texts(student.error)) and sign_in_box(student)

    monkeypatch.setattr(limits, "client_address", lambda: "203.0.113.8")  # another network: the right key opens
    teacher = open_page(teacher="1", keeps={})
    teacher.text_input(key="teacher_key_typed").input(f" {typed[:4]}-{typed[4:]} ")
    [submit] = [widget for widget in teacher.button if widget.label == "Open the teacher view"]
    submit.click().run()
    assert not teacher.exception and not sign_in_box(teacher)
    assert [widget for widget in teacher.button if widget.key == f"poll_start_{QUESTION}"]
    assert teacher.session_state["browser_kept"] == {"teacher": teacher_key.browser_token()}
    assert teacher_key.lab_key() not in teacher_key.browser_token()


def test_the_teacher_finds_the_room_after_a_reload_and_ends_it_from_the_list(data_dir):
    _, code = teacher_with_room()
    reloaded = open_page(teacher="1", present="1")  # a new session of the teacher's browser
    assert [widget for widget in reloaded.button if widget.key == f"poll_reveal_{QUESTION}"]
    assert any(f'<p class="dplab-room-code">{code}</p>' in element.proto.body for element in reloaded.get("html"))
    home = open_page("home.py", teacher="1")  # on any page: the key's open polls, each with End
    [listed] = [box for box in home.expander if box.label == "Your class polls (1 open)"]
    assert any(f"**Room {code}** (open) on [Truncation bias](/truncation-bias?teacher=1): Which window radius t "
               "gives the smallest error?" == text for text in texts(home.markdown))
    button(home, f"poll_end_{code}").click().run()
    assert SqlitePollStore(data_dir).room(code).closed
    assert not [box for box in home.expander if "Your class polls" in box.label]
    assert any(f"The poll in room {code} has ended." in text for text in texts(open_page(teacher="1").info))


def test_a_reload_keeps_one_vote_per_browser(data_dir):
    _, code = teacher_with_room()
    student = vote(code, 3)
    kept = dict(student.session_state["browser_kept"])
    assert set(kept) == {"voter"} and len(kept["voter"]) == 22
    reloaded = open_page(room=code, keeps=kept)  # the same browser, a new session (a reload, another replica)
    assert not [widget for widget in reloaded.button if widget.key == "poll_send"]
    choices = reloaded.radio(key=f"guess_{QUESTION}").options
    assert any(f"Your answer is in: {choices[3]}" in text for text in texts(reloaded.success))
    other = open_page(room=code)  # another browser votes
    assert [widget for widget in other.button if widget.key == "poll_send"]
    assert SqlitePollStore(data_dir).tally(code).answered == 1


def test_unknown_codes_and_answers_are_limited_per_client(frozen, monkeypatch):
    _, code = teacher_with_room()
    monkeypatch.setattr(limits, "client_address", lambda: "198.51.100.4")
    joined = open_page("home.py", room=code)  # joined before the guessing: not affected
    store = lab_store.shared_store()
    for _ in range(limits.LIMITS["code"]):
        limits.record(store.attempts, "code")
    guesser = open_page("home.py", room=code)
    assert not guesser.exception and [limits.REFUSALS["code"]] == texts(guesser.error)
    assert not [widget for widget in guesser.button if widget.key == "poll_send"]
    assert guesser.get("plotly_chart")  # the page runs on
    monkeypatch.setitem(limits.LIMITS, "vote", 1)
    radio = joined.radio(key=f"poll_choice_{code}")
    radio.set_value(radio.options[0]).run()
    button(joined, "poll_send").click().run()
    assert store.tally(code).answered == 1
    late = open_page("home.py", room=code, keeps={})
    monkeypatch.setitem(limits.LIMITS, "code", 10**6)
    late = open_page("home.py", room=code)
    radio = late.radio(key=f"poll_choice_{code}")
    radio.set_value(radio.options[1]).run()
    button(late, "poll_send").click().run()
    assert [limits.REFUSALS["vote"]] == texts(late.error) and store.tally(code).answered == 1
    monkeypatch.setattr(limits, "client_address", lambda: None)  # a visitor on this machine: never limited
    assert not open_page("home.py", room=code).error


# ---------------------------------------------------------------------------------------------------- store faults
def _immutable(path):
    """``path`` made unwritable even for root (``chattr +i``: the tests run as root in CI); undone by the return."""
    subprocess.run(["chattr", "+i", str(path)], check=True)
    return lambda: subprocess.run(["chattr", "-i", str(path)], check=True)


def _damaged(directory):
    (directory / "polls.sqlite3").write_bytes(b"this is not a database " * 400)
    return lambda: None  # the store sets the damaged file aside itself


def _deleted_file(directory):
    for name in ("polls.sqlite3", "polls.sqlite3-wal", "polls.sqlite3-shm"):
        (directory / name).unlink(missing_ok=True)
    return lambda: None


def _deleted_folder(directory):
    shutil.rmtree(directory)
    return lambda: None


def _locked(directory):
    holder = sqlite3.connect(directory / "polls.sqlite3", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the write lock
    return holder.close


def _full(directory):
    """The data folder's disk full: a small tmpfs mounted there beforehand (``full_disk``) filled to the last byte."""
    filler = directory / "filler"
    with open(filler, "wb") as out:
        try:
            while True:
                out.write(b"\0" * 65536)
                out.flush()
        except OSError:
            pass
    return filler.unlink


FAULTS = {"read-only folder": lambda directory: _immutable(directory),
          "read-only file": lambda directory: _immutable(directory / "polls.sqlite3"),
          "damaged file": _damaged, "file deleted": _deleted_file, "folder deleted": _deleted_folder,
          "locked by another program": _locked, "disk full": _full}


@pytest.fixture
def full_disk(data_dir):
    """The data folder on a 2 MiB tmpfs (mounted by root, as CI runs), so that it can be filled."""
    data_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", str(data_dir)], check=True)
    yield data_dir
    subprocess.run(["umount", str(data_dir)], check=True)


@pytest.mark.parametrize("fault", FAULTS)
def test_every_fault_of_the_store_is_a_message_and_the_poll_works_again_without_a_restart(request, data_dir,
                                                                                       monkeypatch, fault):
    if fault == "disk full":
        request.getfixturevalue("full_disk")
    monkeypatch.setattr(poll_store, "BUSY_SECONDS", 0.3)  # the lock is waited for briefly
    store = lab_store.shared_store()
    code = store.create_room("home", "Is the store up?", ["yes", "no"], teacher_key.lab_key()).code
    student = open_page("home.py", room=code)
    undo = FAULTS[fault](data_dir)
    try:
        radio = student.radio(key=f"poll_choice_{code}")
        radio.set_value("yes").run()  # the rerun reads the room: a fault that stops reads shows here
        if [widget for widget in student.button if widget.key == "poll_send"]:
            button(student, "poll_send").click().run()  # else when the vote is written
        teacher = open_page("home.py", teacher="1")  # the teacher's list of polls meets the fault too
    finally:
        undo()
    for page in (student, teacher):
        assert not page.exception, fault
        assert page.get("plotly_chart")  # the rest of the page runs
    [message] = [text for text in texts(student.error) if "The class poll cannot work just now" in text]
    assert str(data_dir) not in message and "sqlite" not in message.lower() and "Traceback" not in message
    # the fault is gone: the poll works again in the same server (a room opened before may be gone with its file)
    again = lab_store.shared_store().create_room("home", "Is the store up?", ["yes", "no"], teacher_key.lab_key())
    voter = open_page("home.py", room=again.code)
    assert not voter.error, texts(voter.error)
    radio = voter.radio(key=f"poll_choice_{again.code}")
    radio.set_value("no").run()
    button(voter, "poll_send").click().run()
    assert not voter.error and lab_store.shared_store().tally(again.code).counts == (0, 1)


@pytest.fixture
def postgres_store(monkeypatch):
    """The poll on a PostgreSQL database of its own (the throw-away cluster of tests/postgres_cluster.py); its URL."""
    url = postgres_cluster.new_database(postgres_cluster.cluster_url())
    monkeypatch.setenv(lab_store.STORE_ENV, url)
    lab_store.shared_store.cache_clear()
    yield url
    lab_store.shared_store.cache_clear()


def test_on_postgresql_a_read_only_or_unreachable_database_is_a_message_and_the_page_runs(postgres_store, monkeypatch,
                                                                                          tmp_path):
    code = lab_store.shared_store().create_room("home", "Is the store up?", ["yes", "no"], teacher_key.lab_key()).code
    name = postgres_store.split("@/")[1].split("?")[0]
    with psycopg.connect(postgres_cluster.cluster_url(), autocommit=True) as admin:  # the database turns read-only
        admin.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    lab_store.shared_store.cache_clear()  # a server started now: its connections are read-only
    student = open_page("home.py", room=code)
    assert not student.error  # reading works: the ballot shows
    student.radio(key=f"poll_choice_{code}").set_value("yes").run()
    button(student, "poll_send").click().run()  # writing the vote does not
    messages = [text for text in texts(student.error) if "The class poll cannot work just now" in text]
    assert messages and "read-only" in messages[-1] and not student.exception and student.get("plotly_chart")
    monkeypatch.setenv(lab_store.STORE_ENV, f"postgresql://lab:hunter2@/polls?host={tmp_path}")  # nothing listens
    lab_store.shared_store.cache_clear()
    for page in (open_page("home.py", room=code), open_page("home.py", teacher="1")):
        [message] = [text for text in texts(page.error) if "The class poll cannot work just now" in text]
        assert "cannot be reached" in message and "hunter2" not in message and str(tmp_path) not in message
        assert not page.exception and page.get("plotly_chart")  # the rest of the page runs
