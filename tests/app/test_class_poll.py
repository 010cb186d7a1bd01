"""The class poll on the pages (ui/poll.py), through AppTest sessions sharing one store: the teacher opens a room
under a predict question, students vote by ``?room=CODE`` (or the home page's code box), the projector counts, the
reveal releases the counts with ε-DP, the same on every screen; every refusal is a message in the poll's box.

The store's own contract (codes, replays, bounds, expiry) is tests/app/test_poll_store.py; 60 voters over the
websocket on two replicas, tests/e2e/test_poll_replicas.py.
"""

import html
import re

import numpy as np
import pytest
from helpers import page_path, run, tables, texts

from dpcore.lessons import class_poll
from ui import poll
from ui.poll_store import SqlitePollStore

PAGE = "truncation.py"
QUESTION = "radius"  # the truncation page's predict question (dpcore.lessons.truncation.radius_question)


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A fresh poll store for the test (every session of the test shares it, as every replica does)."""
    monkeypatch.setenv("DPLAB_DATA_DIR", str(tmp_path / "data"))
    poll.store.cache_clear()
    yield tmp_path / "data"
    poll.store.cache_clear()


def open_page(script: str = PAGE, **query: str):
    return run(page_path(script), timeout=120, answered=False, **query)


def button(at, key: str):
    [found] = [widget for widget in at.button if widget.key == key]
    return found


def teacher_with_room(**query: str):
    """A teacher's projector (``?teacher=1&present=1``) with a room opened on the page's question; and its code."""
    teacher = open_page(teacher="1", present="1", **query)
    button(teacher, f"poll_start_{QUESTION}").click().run()
    code, _, _ = teacher.session_state[poll._OPENED][QUESTION]
    return teacher, code


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
    for student in (students[0].run(), open_page(room=code)):  # a voter's screen, and a latecomer's
        [seen] = [table for table in tables(student) if column in table[0]]
        assert [int(row[column]) for row in seen] == expected.tolist()
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
    poll.store.cache_clear()
    try:
        teacher = open_page(teacher="1")
        button(teacher, f"poll_start_{QUESTION}").click().run()
        student = open_page(room="K7QX2")
    finally:
        poll.store.cache_clear()
    for page in (teacher, student):
        assert not page.exception
        assert any("The class poll is not available on this server" in text for text in texts(page.error))
        assert page.get("plotly_chart")
    assert [widget for widget in teacher.button if widget.key == f"poll_start_{QUESTION}"]  # try again later


def test_a_student_sees_no_teacher_control_and_a_teacher_no_ballot(data_dir):
    teacher, code = teacher_with_room()
    student = open_page(room=code)
    assert not [widget for widget in student.button if widget.key.startswith("poll_start_")]
    assert not [widget for widget in teacher.button if widget.key == "poll_send"]
    assert poll._OPENED not in student.session_state  # the teacher key lives in the teacher's tab only
