"""The class poll lesson (dpcore.lessons.class_poll): released counts beside the true ones, the sentence on ε, the
expected error against a simulation."""

import math
import re

import numpy as np
import pytest

from dpcore import mechanisms
from dpcore.lessons import class_poll

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "poll_result": dict(counts=np.array([5, 2, 0]), labels=["A", "B", "C"], epsilon=1.0, noise="geometric",
                        neighbours="change", seed=0, answer=1),
    "odds_sentence": dict(epsilon=1.0, neighbours="change"),
    "mean_error": dict(epsilon=1.0, noise="laplace", neighbours="change"),
}

LABELS = ["fewer than 10", "10 to 100", "more than 100"]


@pytest.mark.parametrize("noise", ["geometric", "laplace"])
def test_result_is_the_mechanism_release_next_to_the_true_counts(noise):
    result = class_poll.poll_result([14, 9, 1], LABELS, 0.5, noise=noise, seed=11)
    release = mechanisms.poll_histogram([14, 9, 1], 0.5, noise=noise, rng=11)
    np.testing.assert_array_equal(result.released_counts, release.counts)
    assert result.true_counts.tolist() == [14, 9, 1] and result.answered == 24
    assert [row["answer"] for row in result.rows] == LABELS
    assert [row["released count"] for row in result.rows] == release.counts.tolist()
    assert [row["true count"] for row in result.rows] == [14, 9, 1]
    assert result.guarantee == release.guarantee and result.labels == tuple(LABELS)


def test_one_seed_one_release_and_seeds_differ():
    """The page draws one seed per reveal: reruns show the same numbers; another reveal, another draw."""
    same = [class_poll.poll_result([30, 20, 10], LABELS, 0.2, seed=5).released_counts.tolist() for _ in range(2)]
    assert same[0] == same[1]
    others = {tuple(class_poll.poll_result([30, 20, 10], LABELS, 0.2, seed=s).released_counts) for s in range(10)}
    assert len(others) > 1


@pytest.mark.parametrize("epsilon, factor", [(0.1, "1.1"), (1.0, "2.7"), (3.0, "20"), (10.0, "22,026"),
                                             (1000.0, "1.97e+434")])
def test_sentence_quotes_e_to_the_epsilon(epsilon, factor):
    sentence = class_poll.odds_sentence(epsilon)
    assert f"at most {factor} times" in sentence and f"×{factor}." in sentence
    assert re.sub(r"\d\.\d", "", sentence).count(".") == 1  # one sentence


def test_sentence_names_the_neighbouring_relation():
    assert "a different vote" in class_poll.odds_sentence(1.0, "change")
    assert "without it" in class_poll.odds_sentence(1.0, "add-remove")


@pytest.mark.parametrize("noise", ["geometric", "laplace"])
@pytest.mark.parametrize("neighbours", ["change", "add-remove"])
def test_mean_error_matches_a_simulation(noise, neighbours):
    release = mechanisms.poll_histogram(np.full((200_000, 1), 100), 0.7, noise=noise, neighbours=neighbours, rng=4)
    expected = class_poll.mean_error(0.7, noise, neighbours)
    assert np.mean(np.abs(release.noisy - 100)) == pytest.approx(expected, rel=0.02)


def test_mean_error_at_extreme_epsilon_is_finite():
    assert class_poll.mean_error(1e6, "geometric", "add-remove") == 0.0
    assert class_poll.mean_error(1e-9, "geometric") == pytest.approx(2e9)
    assert math.isfinite(class_poll.mean_error(1e-9, "laplace"))


def test_labels_must_match_the_counts():
    with pytest.raises(ValueError, match="labels must be 3 texts"):
        class_poll.poll_result([1, 2, 3], ["a", "b"])
    with pytest.raises(ValueError, match="labels must be"):
        class_poll.poll_result([1, 2], ["a", 2])
    with pytest.raises(ValueError, match="counts must be whole numbers"):
        class_poll.poll_result([1.5, 2], ["a", "b"])


def test_the_right_answer_is_marked_when_there_is_one():
    marked = class_poll.poll_result([3, 9, 2], LABELS, 1.0, seed=0, answer=1)
    assert [row["right answer"] for row in marked.rows] == ["", "yes", ""] and marked.answer == 1
    assert "right answer" not in class_poll.poll_result([3, 9, 2], LABELS, 1.0, seed=0).rows[0]
    with pytest.raises(ValueError, match="answer must index one of the 3 choices"):
        class_poll.poll_result([3, 9, 2], LABELS, 1.0, answer=3)
