"""Check yourself on "Exponential mechanism", from each prompt's own votes: the share of an announced candidate
(e^(εu/2) normalised), the 90 % bound on the loss, the smallest ε of the slider that does the election task; no prompt
gives away the page's own question."""

import math
import re

import numpy as np
import pytest

from dpcore.exercises import exponential_mechanism
from dpcore.exercises.base import grade
from tests.exercises.checks_of_kinds import check_numeric, check_stated, check_words, over_seeds, page, read

EXERCISE, SPECS, DEFAULTS = page("exponential-mechanism")


def shares(votes: np.ndarray, exponent: float) -> np.ndarray:
    """Each candidate's weight e^(exponent × votes) over their sum, shifted by the largest for the floats."""
    weights = np.exp(exponent * (votes - votes.max()))
    return weights / weights.sum()


def test_the_slider_is_the_pages():
    assert exponential_mechanism.EPSILONS == SPECS["eps"].options


@over_seeds
def test_the_announced_share_is_e_to_the_epsilon_votes_over_two_normalised(seed):
    made = EXERCISE["announce_probability"].variant(seed)
    votes = np.array([float(count) for count in re.findall(r"\b[A-D] (\d+)", made.prompt.split(" votes.")[0])])
    assert votes.size == 4
    epsilon = read(r"\$\\varepsilon = {}\$", made.prompt)
    asked = "ABCD".index(re.search(r"announce \*\*([A-D])\*\*", made.prompt).group(1))
    percent = 100 * shares(votes, epsilon / 2)[asked]
    assert made.answer == pytest.approx(percent, rel=1e-9)
    assert made.tolerance == read(r"to within {} percentage points", made.prompt) and made.unit == "%"
    check_numeric(made, {"no factor 2": 100 * shares(votes, epsilon)[asked], "a fair die": 25.0,
                         "shares of the votes": 100 * votes[asked] / votes.sum()})
    assert grade("numeric", made, f"{made.answer:.3f} %").right
    check_words(made)


@over_seeds
def test_the_ninety_percent_bound_is_two_delta_over_epsilon_times_log_k_plus_log_ten(seed):
    made = EXERCISE["loss_bound"].variant(seed)
    k, sensitivity, epsilon = (read(pattern, made.prompt) for pattern in (
        r"\$k = {}\$", r"\$\\Delta = {}\$", r"\$\\varepsilon = {}\$"))
    factor = 2 * sensitivity / epsilon
    bound = factor * (math.log(k) + math.log(10))  # P[loss > bound] <= e^(-ln 10) = 10 %
    mistakes = {"the monotone factor": bound / 2, "t left out": factor * math.log(k),
                "k for ln k": factor * (k + math.log(10))}
    check_stated(made, r"At most {} below", bound, mistakes)
    check_words(made)


@over_seeds
def test_the_election_task_is_solved_at_the_first_epsilon_that_does_it(seed):
    made = EXERCISE["election_epsilon"].variant(seed)
    a, b, c = (read(pattern, made.prompt) for pattern in (r"A has {} votes", r"B {} and", r"and C {}\."))
    votes = np.array([a, b, c])
    if (share := re.search(r"at most \*\*([0-9.]+) %\*\*", made.prompt)) is not None:
        def does(epsilon):
            return shares(votes, epsilon / 2)[0] <= float(share.group(1)) / 100
    else:
        ratio = read(r"at least \*\*{} times\*\*", made.prompt)

        def does(epsilon):
            p = shares(votes, epsilon / 2)
            return p[2] / p[0] >= ratio
    assert made.controls == ("eps",)
    grid = SPECS["eps"].options
    target = next(epsilon for epsilon in grid if does(epsilon))
    assert target != grid[0]  # "the smallest" means something on this slider
    assert [epsilon for epsilon in grid if made.accepts({**DEFAULTS, "eps": epsilon})] == [target]
    assert grade("on_page", made, {**DEFAULTS, "eps": target}).said == made.why
    assert not made.accepts({**DEFAULTS, "eps": str(target)})  # a number, as the slider gives it
    check_words(made)


def test_the_election_tasks_are_varied():
    tasks = {EXERCISE["election_epsilon"].variant(seed).prompt for seed in range(60)}
    assert any("at most" in task for task in tasks) and any("times" in task for task in tasks)
    assert len(tasks) >= 8


def test_the_pages_own_election_question_is_not_answered_in_a_prompt():
    """The page asks, before its chart, how often C wins at the sidebar's ε: no prompt says C's probability."""
    for exercise in exponential_mechanism.EXERCISES:
        for seed in range(30):
            prompt = exercise.variant(seed).prompt
            assert "15 votes" not in prompt or not re.search(r"C[^.]*\d+(\.\d+)? ?%", prompt), prompt
