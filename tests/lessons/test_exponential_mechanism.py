"""The exponential-mechanism lesson (dpcore.lessons.exponential_mechanism): its sweeps (selection loss, private
quantile, user-level), theory companions, one run, captions and takeaways, the iterative SDP estimator at the
page's defaults, and the page's question.
"""

import json
import math

import numpy as np
import pytest
from scipy import stats

from dpcore import theory
from dpcore.estimators import sdp
from dpcore.estimators import user_level as ul
from dpcore.lessons import exponential_mechanism as exponential_mechanism_lesson
from dpcore.lessons.methods import LABELS
from tests.lessons.answers import chosen

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "user_level_piece": dict(params={"users": 200, "per_user": 100}),
    "quantile_error_sweep": dict(
        n_values=np.array([5]), epsilons=np.array([1.0]), trials=2, seed=0, q=0.5, lower=0.0, upper=1.0
    ),
    "selection_loss_sweep": dict(
        candidate_counts=np.array([3]), epsilons=np.array([1.0]), draws=2, seed=0, design="random", gap=5.0
    ),
    "loss_vs_k": dict(trials=1, seed=0),
    "election_question": dict(epsilon=0.1),
    "loss_theory": dict(epsilon=1.0),
    "median_vs_n": dict(trials=2, seed=0),
    "median_theory": dict(epsilon=1.0),
    "user_level_vs_m": dict(epsilon=0.1, trials=2, seed=0),
    "election_probabilities": dict(epsilon=0.1),
    "election": dict(epsilon=0.1, seed=0),
    "median_run": dict(n=10, epsilon=1.0, seed=0),
    "sum_of_squares": dict(seed=0),
    "savings_note": dict(alpha=0.05, per_user=20),
    "median_note": dict(n=10, epsilon=1.0, seed=0),
    "sdp_note": dict(seed=0),
    "takeaways": dict(epsilon=0.1, n=10, trials=2, seed=0),
    "user_level_sweep": dict(
        per_user_values=np.array([1.0, 2.0]), users=np.array([5.0]), epsilon=1.0, trials=3, seed=0
    ),
}


# --- sweeps ----------------------------------------------------------------------------------------------

def test_quantile_error_sweep_decreases_with_n_and_epsilon():
    result = exponential_mechanism_lesson.quantile_error_sweep([20, 100, 500], [0.2, 1.0, 5.0], trials=300, seed=0)
    assert result.methods == ("exponential_mechanism", "non_private") and result.parameters == ("n", "epsilon")
    assert result.median.shape == (2, 3, 3) and result.errors[0, 0, 0].shape == (300,)
    private, non_private = result.median
    assert np.all(np.diff(private, axis=0) < 0) and np.all(np.diff(private, axis=1) < 0)
    assert np.all(np.diff(non_private[:, 0]) < 0) and np.ptp(non_private, axis=1).max() == 0  # same data (CRN)
    assert np.all(private[:, -1] < 1.5 * non_private[:, -1])  # at eps = 5 the privacy cost is small
    again = exponential_mechanism_lesson.quantile_error_sweep([20, 100, 500], [0.2, 1.0, 5.0], trials=300, seed=0)
    np.testing.assert_array_equal(again.median, result.median)


def test_selection_loss_sweep_shapes_and_the_ln_k_bound():
    result = exponential_mechanism_lesson.selection_loss_sweep([2, 10, 100, 1000], [0.5, 2.0], draws=2000, seed=0)
    assert result.methods == exponential_mechanism_lesson.SELECTION_METHODS and result.parameters == ("k", "epsilon")
    assert result.median.shape == (3, 4, 2) and np.all(result.lower >= 0)
    bound = theory.exponential_mechanism_loss_bound(result.grid["k"], result.grid["epsilon"][:, None]).T
    assert np.all(result.upper <= bound)  # 90 % quantile below the t = ln 10 bound
    em, noisy_max, pf = result.mean
    assert np.all(pf <= em + 0.1) and np.all(result.mean[:, :, 1] <= result.mean[:, :, 0] + 0.05)


def test_one_good_candidate_shows_the_ln_k_price():
    gap = 6.0
    result = exponential_mechanism_lesson.selection_loss_sweep([2, 10, 100, 1000], [1.0], draws=4000, seed=1,
                                                               design="one good", gap=gap)
    k = result.grid["k"]
    exact = gap * (k - 1) / (math.exp(gap / 2) + k - 1)  # EM: P(best) = e^{g/2} / (e^{g/2} + k - 1)
    np.testing.assert_allclose(result.mean[0, :, 0], exact, atol=4 * gap * 0.5 / math.sqrt(4000))
    assert np.all(np.diff(result.mean[:, :, 0], axis=1) > 0)


def test_adversarial_design_shows_the_log_k_price():
    """One candidate (2/ε) ln k ahead of k − 1 others: the EM's expected loss is exactly g (k − 1)/(2k − 1)."""
    counts = np.array([2, 10, 100, 1000])
    result = exponential_mechanism_lesson.selection_loss_sweep(counts, np.array([1.0]), 20000, 3, design="adversarial")
    mean = result.curve("exponential_mechanism", "k")["mean"]
    exact = 2 * np.log(counts) * (counts - 1) / (2 * counts - 1)
    np.testing.assert_allclose(mean, exact, rtol=0.05)
    assert np.all(np.diff(mean) > 0)  # grows with k, like ln k


# --- the page's lesson: grids, companions, one run, takeaways ---------------------------------------------

def recording_runner(calls):
    """A ``run`` that records each sweep's function and parameters, checks they are JSON values, and computes."""
    def run(function, **params):
        assert json.loads(json.dumps(params)) == params  # no numpy scalars, no tuples: the app's cache key
        calls.append((function.__name__, params))
        return function(**params)
    return run


def test_page_sweeps_name_their_methods_by_id_and_pass_json_parameters():
    calls = []
    loss = exponential_mechanism_lesson.loss_vs_k(3, 0, run=recording_runner(calls))
    median = exponential_mechanism_lesson.median_vs_n(3, 0, run=recording_runner(calls))
    users = exponential_mechanism_lesson.user_level_vs_m(0.1, 3, 0, run=recording_runner(calls))
    assert [name for name, _ in calls] == ["selection_loss_sweep", "quantile_error_sweep", "user_level_sweep"]
    assert calls[0][1] == dict(candidate_counts=[2, 5, 10, 30, 100, 300, 1000], epsilons=[0.3, 1.0, 3.0], draws=30,
                               seed=0, design="adversarial")
    assert all(method in LABELS for result in (loss, median, users) for method in result.methods)
    assert users.methods == ("user_level_clipped", "group_privacy", "one_per_user")


def test_theory_companions_are_the_stated_formulas():
    loss = exponential_mechanism_lesson.loss_theory(0.3)
    k = np.array(exponential_mechanism_lesson.CANDIDATE_COUNTS, float)
    np.testing.assert_allclose(loss["exact"], (2 / 0.3) * np.log(k) * (k - 1) / (2 * k - 1))
    np.testing.assert_allclose(loss["bound"], (2 / 0.3) * (np.log(k) + math.log(10)))
    median = exponential_mechanism_lesson.median_theory(1.0)
    n = np.array(exponential_mechanism_lesson.MEDIAN_N, float)
    np.testing.assert_allclose(median["private"], 2 * (np.log(n + 1) + math.log(2)) * 0.1 * math.sqrt(2 * math.pi) / n)
    np.testing.assert_allclose(median["non_private"], stats.norm.ppf(0.75) * 0.1 * np.sqrt(math.pi / 2 / n))
    simulated = exponential_mechanism_lesson.median_vs_n(400, 0).curve("non_private", "n", epsilon=1.0)["median"]
    np.testing.assert_allclose(simulated, median["non_private"], rtol=0.2)  # the sample median's law, large n


def test_election_and_one_run_of_the_private_median():
    votes = exponential_mechanism_lesson.election(0.1, 0)
    np.testing.assert_allclose(votes["standard"], [0.2853, 0.3484, 0.3663], atol=5e-5)
    np.testing.assert_allclose(votes["monotone"], [0.2415, 0.3603, 0.3982], atol=5e-5)
    assert votes["sampled"].sum() == pytest.approx(1.0)
    run = exponential_mechanism_lesson.median_run(100, 1.0, 0)
    assert run["draws"].shape == (exponential_mechanism_lesson.ELECTION_DRAWS,)
    assert np.sum(run["density"] * np.diff(run["edges"])) == pytest.approx(1.0)
    assert 0.98 <= np.sum(run["histogram"]) * np.diff(run["centres"])[0] <= 1.0  # the central 99 % of the draws
    assert run["scores"].max() == 0.0 and run["sample_median"] == pytest.approx(0.3, abs=0.03)


def test_captions_quote_the_computation():
    assert "12.83× at α = 0.05, m = 20" in exponential_mechanism_lesson.savings_note()
    run = exponential_mechanism_lesson.median_run(300, 0.3, 2)
    assert exponential_mechanism_lesson.median_note(300, 0.3, 2) == (
        f"Sample median {run['sample_median']:.4f}; the 1,000 private medians have mean {run['draws'].mean():.4f} "
        f"and standard deviation {run['draws'].std():.4f}.")


@pytest.mark.parametrize("epsilon, frames", [(0.1, (0.3, 0.1)), (2.0, (3.0, 0.5))])
def test_takeaways_quote_the_numbers_of_the_sweeps_at_the_nearest_frames(epsilon, frames):
    calls = []
    lines = exponential_mechanism_lesson.takeaways(epsilon, 50, 20, 3, run=recording_runner(calls))
    selection_epsilon, user_epsilon = frames
    votes = exponential_mechanism_lesson.election(epsilon, 3)
    loss = exponential_mechanism_lesson.loss_vs_k(20, 3)
    em = loss.curve("exponential_mechanism", "k", epsilon=selection_epsilon)["mean"]
    pf = loss.curve("permute_and_flip", "k", epsilon=selection_epsilon)["mean"]
    users = exponential_mechanism_lesson.user_level_vs_m(user_epsilon, 20, 3)
    median = exponential_mechanism_lesson.median_run(50, epsilon, 3)
    assert len(lines) == 4 and calls[1][1]["epsilon"] == user_epsilon
    assert f"probability {votes['standard'][2]:.3f} with the factor 2 and {votes['monotone'][2]:.3f}" in lines[0]
    assert f"draws gave {votes['sampled'][2]:.3f}" in lines[0]
    assert (f"(ε = {selection_epsilon:g}) the exponential mechanism's mean loss grows from {em[0]:.2f} to "
            f"{em[-1]:.2f}") in lines[1] and f"permute-and-flip loses {pf[-1]:.2f} at k = 1,000" in lines[1]
    clipped, group = (users.curve(method, "per_user")["mean"][-1] for method in ("user_level_clipped", "group_privacy"))
    assert f"(ε = {user_epsilon:g}), clipping each user's score gives mean error {clipped:.3f} against {group:.3f}" \
        in lines[2]
    assert lines[3] == (f"The private median's 1,000 draws spread {median['draws'].std():.3f} around the sample median "
                        f"{median['sample_median']:.3f} at n = 50, ε = {epsilon:g}.")


# --- the iterative SDP estimator at the page's defaults, and the user-level sweep's pieces -----------------------
@pytest.mark.parametrize("seed", [0, 1])
def test_iterative_estimator_ends_within_the_stated_error_at_the_defaults(seed):
    d = exponential_mechanism_lesson.ITERATIVE_DEFAULTS
    points = np.random.default_rng(100 + seed).standard_normal((d["n"], 2)) + d["true_offset"]
    result = sdp.iterative_mean_2d(points, d["epsilon"], buckets=d["buckets"], steps=d["steps"], rng=seed,
                                   radius=d["radius"], max_step=d["max_step"])
    assert np.linalg.norm(result.estimate - d["true_offset"]) <= exponential_mechanism_lesson.ITERATIVE_DEFAULT_ERROR


def test_the_sweeps_pieces_bound_its_values_and_keep_the_stored_runs_whole():
    """Each piece of the user-level sweep holds at most USER_PIECE_VALUES examples and error counts at every m (also
    for m = 1, where the users x (k + 1) counts, not the examples, are the weight: 392 of 2,000 trials); the stored
    runs (200 trials, 200 users) are one piece at every m of the page, so they keep their numbers."""
    lesson = exponential_mechanism_lesson
    for per_user in (*lesson.PER_USER, 1000):
        params = {"users": lesson.USERS, "per_user": per_user}
        trials = lesson.user_level_piece(params)
        assert trials * lesson.USERS * (per_user + ul.GRID_SIZE + 1) <= lesson.USER_PIECE_VALUES
        assert (trials + 1) * lesson.USERS * (per_user + ul.GRID_SIZE + 1) > lesson.USER_PIECE_VALUES
        assert trials >= 200 or per_user not in lesson.PER_USER
    assert lesson.user_level_piece({"users": 10**6, "per_user": 10**3}) == 1


# ------------------------------------------------------------------------------------ the page's question
# Predict, then reveal: the right answer agrees with what the page draws (see tests/lessons/test_questions.py).
@pytest.mark.parametrize("epsilon", [0.01, 0.1, 0.3, 1.0, 3.0, 10.0])
def test_election_answer_is_the_winners_exact_probability_and_the_draws_agree(epsilon):
    """Exponential mechanism: C's exact probability (factor 2) is in the chosen range, and so are the 1,000 drawn
    announcements the bars show, within 4 standard errors."""
    question = exponential_mechanism_lesson.election_question(epsilon)
    exact = exponential_mechanism_lesson.election_probabilities(epsilon)["standard"][-1]
    sampled = exponential_mechanism_lesson.election(epsilon, seed=0)["sampled"][-1]
    low, high = ((0, 0.4), (0.4, 0.6), (0.6, 0.9), (0.9, 1.0))[question.answer]
    assert low <= exact < high or (high == 1.0 and exact <= 1.0)
    assert abs(sampled - exact) <= 4 * np.sqrt(exact * (1 - exact) / exponential_mechanism_lesson.ELECTION_DRAWS)
    assert f"{100 * exact:.1f} %" in question.explanation


def test_election_answers_move_with_epsilon():
    """At ε = 0.1 a one-vote lead is nearly a fair die; at ε = 10 the winner is almost sure."""
    assert chosen(exponential_mechanism_lesson.election_question(0.1)).startswith("Less than 40 %")
    assert chosen(exponential_mechanism_lesson.election_question(10.0)) == "More than 90 % of the time"
