"""Predict, then reveal: every question's right answer agrees with the numbers its figure draws.

A question whose "right" answer the figure contradicts would teach the opposite of the page, so each answer is checked
against the page's own computation (the exact curves, the stored Monte Carlo sweeps), over the settings a class can
reach, not only at the defaults.
"""

from pathlib import Path

import numpy as np
import pytest

from dpcore import experiments
from dpcore.lessons import exponential_mechanism, noise_tradeoff, partition_rounds, tournament, truncation
from dpcore.lessons.questions import Question, bucket

STORED = Path(__file__).parents[2] / "assets" / "precomputed"


def stored(function, **params):
    """The page's stored sweeps (what a class sees at the defaults)."""
    return experiments.load_or_run(STORED, function, **params)


def chosen(question: Question) -> str:
    return question.choices[question.answer]


# ---------------------------------------------------------------------------------------------------- the parts
@pytest.mark.parametrize("value, index", [(0.5, 0), (1.0, 1), (2.9, 1), (3.0, 2), (5.77, 2), (30.0, 4), (1e9, 4)])
def test_bucket_counts_the_edges_at_or_below_the_value(value, index):
    assert bucket(value, (1, 3, 10, 30)) == index


def test_a_question_rejects_an_answer_outside_its_choices():
    with pytest.raises(ValueError, match="answer must index one of the 2 choices; got 2"):
        Question("q", "Which?", ("a", "b"), 2, "Because.")


def test_feedback_says_right_wrong_or_just_the_answer():
    question = Question("q", "Which?", ("Left", "Right"), 1, "Because.")
    assert question.feedback(1) == "Right: **Right**. Because."
    assert question.feedback(0) == "Not quite: you said left; the answer is **Right**. Because."
    assert question.feedback(None) == "The answer: **Right**. Because."


# ---------------------------------------------------------------------------------------------------- every page
@pytest.mark.parametrize("epsilon", [0.05, 0.3, 1.0, 3.0, 10.0])
@pytest.mark.parametrize("delta", [1e-12, 1e-6, 1e-3])
def test_crossover_answer_is_where_the_exact_error_curves_cross(epsilon, delta):
    """Pure vs approximate: the Gaussian's exact RMSE is below Laplace's exactly at the d of the figure above d*."""
    question = noise_tradeoff.crossover_question(epsilon, delta)
    frame = noise_tradeoff.nearest_frame(epsilon)
    laplace, gauss = (noise_tradeoff.theory_vs_dimension(method, 10_000, frame, delta)
                      for method in ("laplace", "gaussian_analytic"))
    dimensions = np.array(noise_tradeoff.DIMENSIONS)
    crossover = noise_tradeoff.crossover_dimension(frame, delta)
    np.testing.assert_array_equal(gauss < laplace, dimensions > crossover)
    low, high = ((0, 1), (1, 4), (4, 64), (64, np.inf))[question.answer]
    assert low <= crossover < high and question.answer != 4  # "never" is never right: d/ε outgrows √d·σ
    assert f"d* = (ε·σ₁)²/2 = {crossover:.1f}" in question.explanation


@pytest.mark.parametrize("epsilon", [0.01, 0.1, 0.3, 1.0, 3.0, 10.0])
def test_election_answer_is_the_winners_exact_probability_and_the_draws_agree(epsilon):
    """Exponential mechanism: C's exact probability (factor 2) is in the chosen range, and so are the 1,000 drawn
    announcements the bars show, within 4 standard errors."""
    question = exponential_mechanism.election_question(epsilon)
    exact = exponential_mechanism.election_probabilities(epsilon)["standard"][-1]
    sampled = exponential_mechanism.election(epsilon, seed=0)["sampled"][-1]
    low, high = ((0, 0.4), (0.4, 0.6), (0.6, 0.9), (0.9, 1.0))[question.answer]
    assert low <= exact < high or (high == 1.0 and exact <= 1.0)
    assert abs(sampled - exact) <= 4 * np.sqrt(exact * (1 - exact) / exponential_mechanism.ELECTION_DRAWS)
    assert f"{100 * exact:.1f} %" in question.explanation


def test_election_answers_move_with_epsilon():
    """At ε = 0.1 a one-vote lead is nearly a fair die; at ε = 10 the winner is almost sure."""
    assert chosen(exponential_mechanism.election_question(0.1)).startswith("Less than 40 %")
    assert chosen(exponential_mechanism.election_question(10.0)) == "More than 90 % of the time"


@pytest.mark.parametrize("family", truncation.FAMILIES)
@pytest.mark.parametrize("moment", ["2", "3", "inf"])
@pytest.mark.parametrize("n, epsilon", [(100, 0.1), (10_000, 1.0), (1_000_000, 5.0)])
def test_radius_answer_is_the_bottom_of_the_exact_mse_curve(family, moment, n, epsilon):
    """Truncation: the radius at the minimum of the figure's total-error curve is in the chosen interval."""
    question = truncation.radius_question(family, moment, n, epsilon)
    curve = truncation.bias_noise_tradeoff(family, moment, n, epsilon)
    lowest = curve["radii"][np.argmin(curve["mse"])]
    edges = (0, 1, 3, 10, 30, np.inf)
    assert edges[question.answer] <= curve["best"] < edges[question.answer + 1]
    assert edges[question.answer] <= lowest * 1.05 and lowest / 1.05 < edges[question.answer + 1]  # grid spacing
    assert f"t = {curve['best']:.2f}" in question.explanation


@pytest.mark.parametrize("epsilon", tournament.EPSILON_FRAMES)
def test_price_answer_is_the_growth_of_the_monte_carlo_curve_and_of_the_privacy_term(epsilon):
    """Tournament: the stored Monte Carlo curve (the figure's markers at the defaults) and the guarantee's privacy term
    (its dashed line) both grow within the chosen range from k = 21 to k = 321, far less than ×15."""
    question = tournament.price_question(100, 0, epsilon, run=stored)
    curve = tournament.price_of_k(100, 0, epsilon, run=stored)
    measured = curve["needed"][-1] / curve["needed"][0]
    theory = curve["theory"][-1] / curve["theory"][0]
    assert question.answer == 1 and chosen(question).startswith("More, but far less than k")
    assert 1.1 <= measured < 6 and 1.1 <= theory < 6
    assert f"×{measured:.1f}" in question.explanation and f"×{theory:.2f}" in question.explanation


@pytest.mark.parametrize("profile", partition_rounds.PROFILES)
@pytest.mark.parametrize("epsilon", [0.1, 1.0])
def test_composition_answer_is_the_epsilon_each_row_is_charged(profile, epsilon):
    """Partitioning rounds: every block of the run's table charges its rows ε and the rows are disjoint, so the
    whole run is ε-DP (parallel composition), the first choice; the prompt counts the run's releases."""
    single = partition_rounds.one_run(profile, 64, 100_000, epsilon, seed=3)
    question = partition_rounds.composition_question(single)
    table = partition_rounds.block_table(single)
    charged = {float(row["ε on these rows"]) for row in table}
    assert charged <= {0.0, epsilon} and epsilon in charged
    assert question.answer == 0 and chosen(question) == f"ε = {epsilon:g} in total"
    releases = len(single.trace.rounds) + 2
    assert f"makes {releases} Laplace releases" in question.prompt
    assert sum(int(row["rows"].replace(",", "")) for row in table) <= 100_000  # no row is read twice
