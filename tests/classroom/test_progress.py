"""classroom.progress: the rules of mastery, and a progress file read with every field checked."""

import json

import pytest

from classroom.progress import FORMAT, IN_A_ROW, Progress, ProgressError, from_json, new_progress, to_json


def played(*answers: bool) -> Progress:
    progress = Progress(seed=5)
    for right in answers:
        progress.page("truncation-bias").record("bias", right)
    return progress


def test_three_right_in_a_row_master_and_mastery_is_kept():
    assert not played(True, True).page("truncation-bias").mastered
    page = played(True, True, True, False).page("truncation-bias")
    assert page.mastered and (page.tried, page.solved, page.streak) == (4, 3, 0) and IN_A_ROW == 3
    assert page.state() == "mastered"


def test_a_wrong_answer_or_a_shown_answer_starts_the_run_again_and_a_right_one_moves_to_a_new_variant():
    page = played(True, True, False, True).page("truncation-bias")
    assert (page.streak, page.mastered, page.exercise("bias").attempt) == (1, False, 3)
    page.record("bias", False)
    assert page.exercise("bias").wrong == 1 and page.exercise("bias").attempt == 3
    page.record("other", True)
    page.show_answer("bias")
    assert page.streak == 0 and page.exercise("bias").shown
    page.next_variant("bias")
    assert (page.exercise("bias").attempt, page.exercise("bias").wrong, page.exercise("bias").shown) == (4, 0, False)


def test_states_in_order():
    assert [played(*answers).page("truncation-bias").state() for answers in ((), (False,), (False, True))] == [
        "new", "tried", "solved"]


def test_the_json_round_trip_is_exact():
    progress = played(True, False, True)
    progress.receipts.append("abc_-1.DEF")
    again = from_json(to_json(progress))
    assert again == progress and to_json(again) == to_json(progress)


def test_a_new_progress_has_a_48_bit_seed_of_its_own():
    seeds = {new_progress().seed for _ in range(20)}
    assert len(seeds) == 20 and all(0 <= seed < 2**48 for seed in seeds)


def document(**changes):
    base = json.loads(to_json(played(True)))
    base.update(changes)
    return json.dumps(base)


@pytest.mark.parametrize("text, said", [
    ("not json {", "not JSON"),
    ("[1, 2]", "not a progress file of the Private Estimation Lab"),
    (json.dumps({"lab": "Another lab", "version": 1}), "not a progress file of the Private Estimation Lab"),
    (document(version=2), "another version"),
    (document(seed=-1), "seed, pages or receipts"),
    (document(seed=True), "seed, pages or receipts"),
    (document(seed=2**48), "seed, pages or receipts"),
    (document(pages=[]), "seed, pages or receipts"),
    (document(receipts=["<script>"]), "a receipt is not one the lab writes"),
    (document(pages={"../etc": {"tried": 0, "solved": 0, "streak": 0, "mastered": False, "exercises": {}}}),
     "names a page or an exercise"),
    (document(pages={"real-data": {"tried": -1, "solved": 0, "streak": 0, "mastered": False, "exercises": {}}}),
     "counts are not counts"),
    (document(pages={"real-data": {"tried": 1, "solved": 0, "streak": 0, "mastered": "yes", "exercises": {}}}),
     "counts are not counts"),
    (document(pages={"real-data": {"tried": 1, "solved": 0, "streak": 0, "mastered": False,
                                   "exercises": {"q": [1, 2]}}}), "counts are not counts"),
    (" " * (300 * 1024), "larger than a progress file"),
    ("[" * 100_000 + "]" * 100_000, "not JSON"),  # nested past Python's recursion limit
])
def test_a_bad_file_is_refused_with_its_reason(text, said):
    with pytest.raises(ProgressError, match=said):
        from_json(text)


def test_the_format_name_is_in_every_file():
    assert json.loads(to_json(Progress(seed=1)))["lab"] == FORMAT
