"""Check yourself through AppTest (classroom.check_yourself): hints, the answer, a right answer counted with a
receipt, mastery after three in a row, a forged run not trusted, a task done with the page's controls, a choice's
own reason, the teacher's answers; every topic page has its three kinds of exercise."""

import itertools

import pytest

import registry
from classroom import check_yourself, lab_store, progress_storage, receipts
from classroom.progress import IN_A_ROW, Progress
from dpcore import exercises
from tests.app.helpers import SCRIPTS, texts

SCRIPT = str(SCRIPTS / "exercises_page.py")
PAGE = "pure-vs-approximate"
SEED = 20261128


def opened(progress: Progress | None = None, page: str = PAGE, **query):
    """The page's exercises, with the browser's progress already reported (a fresh one of seed SEED)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(SCRIPT, default_timeout=30)
    for key, value in {"page": page, **query}.items():
        at.query_params[key] = value
    at.session_state[progress_storage.SESSION] = progress if progress is not None else Progress(seed=SEED)
    if query.get("teacher") == "1":
        from classroom import browser
        from tests.app.helpers import teacher_browser
        at.session_state[browser.SESSION] = teacher_browser()
    return at.run()


def of_kind(kind: str, page: str = PAGE) -> exercises.Exercise:
    return next(exercise for exercise in exercises.for_page(page) if exercise.kind == kind)


def kept(at) -> Progress:
    return at.session_state[progress_storage.SESSION]


def shown(at, exercise) -> exercises.Variant:
    return check_yourself.variant_of(exercise, PAGE, kept(at))


def answer_numeric(at, exercise, value):
    attempt = kept(at).page(PAGE).exercise(exercise.key).attempt
    at.text_input(key=f"answer_{exercise.key}_{attempt}").input(value)
    return at.button(key=f"check_{exercise.key}").click().run()


def test_before_the_browser_answers_no_exercise_is_drawn():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(SCRIPT, default_timeout=30)
    at.query_params["page"] = PAGE
    at.run()
    assert not at.exception
    assert any("Reading your progress from this browser" in text for text in texts(at.caption))
    assert not at.button and progress_storage.SESSION not in at.session_state


def test_a_wrong_answer_gives_hint_one_then_hint_two_then_the_answer():
    exercise = of_kind("numeric")
    at = opened()
    made = shown(at, exercise)
    far = made.answer + 10 * made.tolerance + 1
    at = answer_numeric(at, exercise, f"{far:g}")
    assert not at.exception
    assert [hint for hint in texts(at.info) if hint.startswith("Hint:")] == [f"Hint: {made.hints[0]}"]
    assert any(text.startswith("Not yet.") and "first hint" in text for text in texts(at.error))
    assert not [button for button in at.button if button.key == f"show_{exercise.key}"]
    at = answer_numeric(at, exercise, f"{far:g}")
    assert [hint for hint in texts(at.info) if hint.startswith("Hint:")] == [f"Hint: {hint}" for hint in made.hints]
    at = at.button(key=f"show_{exercise.key}").click().run()
    assert f"The answer: {made.solution}" in texts(at.info)
    assert at.button(key=f"check_{exercise.key}").disabled  # no right answer counted for an answer shown
    page = kept(at).page(PAGE)
    assert (page.tried, page.solved, page.streak) == (2, 0, 0)
    at = at.button(key=f"new_{exercise.key}").click().run()
    assert kept(at).page(PAGE).exercise(exercise.key).attempt == 1
    assert shown(at, exercise) != made and not [text for text in texts(at.info) if text.startswith("Hint:")]


def test_a_right_answer_counts_with_a_receipt_and_a_new_variant():
    exercise = of_kind("numeric")
    at = opened()
    made = shown(at, exercise)
    at = answer_numeric(at, exercise, f"{made.answer + made.tolerance / 2:.6g}")
    assert not at.exception
    assert any(text.startswith("Right.") and made.why in text for text in texts(at.success))
    page = kept(at).page(PAGE)
    assert (page.tried, page.solved, page.streak, page.mastered) == (1, 1, 1, False)
    [token] = kept(at).receipts
    stamp = receipts.verify(token)
    assert (stamp.page, stamp.exercise, stamp.run) == (PAGE, exercise.key, 1)
    assert stamp.variant == exercises.variant_seed(SEED, PAGE, exercise.key, 0)
    assert shown(at, exercise) != made  # the next variant
    assert any("1 right of 1 checked; 1 of 3 right in a row" in text for text in texts(at.markdown))


def test_three_right_in_a_row_master_the_page_and_the_receipt_proves_it():
    exercise = of_kind("numeric")
    at = opened()
    for _ in range(IN_A_ROW):
        at = answer_numeric(at, exercise, f"{shown(at, exercise).answer:.8g}")
    assert kept(at).page(PAGE).mastered
    assert any(text.startswith("**Mastered.**") for text in texts(at.markdown))
    checked = receipts.check_receipt(receipts.receipt_json(kept(at).receipts))
    assert checked.mastered == (PAGE,) and checked.answers == {PAGE: IN_A_ROW} and checked.refused == 0


def test_a_wrong_answer_breaks_the_run():
    exercise = of_kind("numeric")
    at = opened()
    for value in ("right", "right", "wrong", "right"):
        made = shown(at, exercise)
        typed = made.answer if value == "right" else made.answer + 1 + 9 * made.tolerance
        at = answer_numeric(at, exercise, f"{typed:.8g}")
    page = kept(at).page(PAGE)
    assert (page.tried, page.solved, page.streak, page.mastered) == (4, 3, 1, False)


def test_a_run_written_into_the_progress_by_hand_is_not_trusted():
    exercise = of_kind("numeric")
    forged = Progress(seed=SEED)
    forged.page(PAGE).streak = IN_A_ROW - 1  # no receipt backs it
    at = opened(forged)
    at = answer_numeric(at, exercise, f"{shown(at, exercise).answer:.8g}")
    assert kept(at).page(PAGE).streak == 1 and not kept(at).page(PAGE).mastered
    assert receipts.verify(kept(at).receipts[0]).run == 1


def test_a_number_that_is_not_one_gets_a_message_and_counts_nothing():
    exercise = of_kind("numeric")
    at = answer_numeric(opened(), exercise, "a half")
    assert any("What you typed is not a number" in text for text in texts(at.warning))
    assert kept(at).page(PAGE).tried == 0


def test_a_wrong_choice_says_its_own_mistake():
    exercise = of_kind("choice")
    at = opened()
    made = shown(at, exercise)
    wrong = next(index for index in range(len(made.choices)) if index != made.answer)
    at.radio(key=f"answer_{exercise.key}_0").set_value(made.choices[wrong])
    at = at.button(key=f"check_{exercise.key}").click().run()
    assert any(made.reasons[wrong] in text for text in texts(at.error))
    at.radio(key=f"answer_{exercise.key}_0").set_value(made.choices[int(made.answer)])
    at = at.button(key=f"check_{exercise.key}").click().run()
    assert any(text.startswith("Right.") for text in texts(at.success))


def test_the_task_on_the_page_is_graded_from_the_controls():
    """The settings that do the task are found on the controls' own grids; the page at them is right, the page at
    its defaults (when they do not do it) is wrong."""
    exercise = of_kind("on_page")
    made = exercise.variant(exercises.variant_seed(SEED, PAGE, exercise.key, 0))
    settings = __import__(f"app_pages.settings.{registry.by_url_path(PAGE).script[10:-3]}", fromlist=["SPECS"])
    specs = {spec.key: spec for spec in settings.SPECS}
    defaults = {key: spec.default for key, spec in specs.items()}
    grids = [[(key, value) for value in specs[key].options] for key in made.controls]
    solving = next(dict(choice) for choice in itertools.product(*grids) if made.accepts({**defaults, **dict(choice)}))
    at = opened(**{key: str(value) for key, value in solving.items()})
    at = at.button(key=f"check_{exercise.key}").click().run()
    assert any(text.startswith("Right.") for text in texts(at.success)), texts(at.error)
    if not made.accepts(defaults):
        at = opened().button(key=f"check_{exercise.key}").click().run()
        assert any(text.startswith("Not yet.") for text in texts(at.error))


def test_the_teacher_sees_each_variants_answer_and_a_student_does_not():
    teacher = opened(teacher="1")
    labels = [box.label for box in teacher.expander]
    assert labels.count("For the teacher: this variant's answer") == len(exercises.for_page(PAGE))
    assert "For the teacher: this variant's answer" not in [box.label for box in opened().expander]


@pytest.mark.parametrize("info", [info for info in registry.PAGES if info.url_path], ids=lambda info: info.url_path)
def test_every_topic_page_has_three_kinds_of_exercise(info):
    listed = exercises.for_page(info.url_path)
    assert len(listed) >= 3 and {exercise.kind for exercise in listed} == {"numeric", "choice", "on_page"}
    assert len({exercise.key for exercise in listed}) == len(listed)


def test_a_store_that_cannot_give_the_receipt_secret_is_a_message_and_counts_nothing(monkeypatch, tmp_path):
    """On several machines the secret is the database's: out of reach before this process read it, an answer is not
    checked (it could not be signed), the student is told so, and nothing is recorded."""
    monkeypatch.delenv(receipts.SECRET_ENV, raising=False)
    monkeypatch.setenv(lab_store.STORE_ENV, f"postgresql://lab:hunter2@/polls?host={tmp_path}")  # nothing listens
    exercise = of_kind("numeric")
    at = opened()
    made = shown(at, exercise)
    at = answer_numeric(at, exercise, f"{made.answer:.6g}")
    assert not at.exception
    [said] = [text for text in texts(at.warning) if "was not checked just now" in text]
    assert "hunter2" not in said and str(tmp_path) not in said
    page = kept(at).page(PAGE)
    assert (page.tried, page.solved) == (0, 0) and not kept(at).receipts
