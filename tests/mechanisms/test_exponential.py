"""The exponential mechanism, report-noisy-max and permute-and-flip (dpcore.mechanisms.exponential): known values,
exact laws, stability at a million candidates, utility bounds, draws in blocks and privacy audits.
"""

import importlib
import itertools
import math

import numpy as np
import pytest
from scipy import stats

from dpcore import audit, mechanisms, theory

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "exponential_probabilities": dict(scores=np.array([1.0, 2.0]), epsilon=1.0, sensitivity=1.0),
    "exponential": dict(
        scores=np.array([1.0, 2.0]), epsilon=1.0, sensitivity=1.0, rng=0, size=3, method="gumbel"
    ),
    "report_noisy_max": dict(
        scores=np.array([1.0, 2.0]), epsilon=1.0, sensitivity=1.0, rng=0, size=3
    ),
    "permute_and_flip": dict(
        scores=np.array([1.0, 2.0]), epsilon=1.0, sensitivity=1.0, rng=0, size=3
    ),
}


def test_election_example_both_conventions():
    scores = [15, 19, 20]
    np.testing.assert_allclose(mechanisms.exponential_probabilities(scores, 0.1, monotonic=True),
                               [0.2415, 0.3603, 0.3982], atol=5e-5)
    np.testing.assert_allclose(mechanisms.exponential_probabilities(scores, 0.1),
                               [0.2853, 0.3484, 0.3663], atol=5e-5)


def test_exponential_probabilities_formula_with_sensitivity():
    scores = np.array([0.0, 3.0, 7.0])
    weights = np.exp(0.8 * scores / (2 * 2.0))
    np.testing.assert_allclose(mechanisms.exponential_probabilities(scores, 0.8, sensitivity=2.0),
                               weights / weights.sum(), rtol=1e-12)


def test_exponential_is_stable_for_a_million_candidates_and_huge_scores():
    rng = np.random.default_rng(0)
    scores = rng.uniform(0, 1e6, size=10**6)
    scores[123456] = 1e6 + 100.0
    probabilities = mechanisms.exponential_probabilities(scores, 10.0)
    assert np.all(np.isfinite(probabilities))
    assert probabilities.sum() == pytest.approx(1.0, abs=1e-9)
    assert probabilities[123456] > 0.99
    assert mechanisms.exponential(scores, 10.0, rng=1) == 123456
    assert mechanisms.exponential(scores, 10.0, rng=1, method="gumbel") == 123456


def test_gumbel_and_inverse_cdf_samplers_agree_with_the_exact_law():
    scores = np.array([0.0, 1.0, 2.0, 4.0, 4.5, 8.0])
    probabilities = mechanisms.exponential_probabilities(scores, 0.7)
    draws = 100000
    for method in ("inverse_cdf", "gumbel"):
        counts = np.bincount(mechanisms.exponential(scores, 0.7, rng=5, size=draws, method=method), minlength=6)
        assert stats.chisquare(counts, probabilities * draws).pvalue > 0.001, method


def test_utility_bound_of_the_exponential_mechanism_holds_empirically():
    rng = np.random.default_rng(2)
    scores = rng.integers(0, 51, size=100).astype(float)
    draws = mechanisms.exponential(scores, 1.0, rng=3, size=20000)
    for t in (0.5, 1.0, 2.0):
        threshold = scores.max() - 2.0 * (math.log(100) + t)
        assert np.mean(scores[draws] <= threshold) <= math.exp(-t)


def test_report_noisy_max_picks_a_clear_winner_and_is_noisy_otherwise():
    scores = np.array([0.0, 0.0, 1000.0, 0.0])
    assert mechanisms.report_noisy_max(scores, 1.0, rng=0) == 2
    picks = [mechanisms.report_noisy_max(np.zeros(4), 1.0, rng=seed) for seed in range(400)]
    assert set(picks) == {0, 1, 2, 3}


@pytest.mark.parametrize("method", ["inverse_cdf", "gumbel"])
def test_exponential_draws_one_index_per_row_of_a_score_batch(method):
    scores = np.array([0.0, 1.0, 3.0])
    probabilities = mechanisms.exponential_probabilities(scores, 1.0)
    batch = np.tile(scores, (60000, 1))
    batch[:, 0] += np.repeat([0.0, 100.0], 30000)  # second half: candidate 0 is a sure winner
    draws = mechanisms.exponential(batch, 1.0, rng=4, method=method)
    assert draws.shape == (60000,)
    counts = np.bincount(draws[:30000], minlength=3)
    assert stats.chisquare(counts, probabilities * 30000).pvalue > 0.001
    assert np.all(draws[30000:] == 0)
    with pytest.raises(ValueError, match="size must be None"):
        mechanisms.exponential(batch, 1.0, size=3, method=method)


def test_election_draws_follow_the_exact_law():
    """The election of Kamath's slides (Hopkins, Kamath & Majid 2022): 10^5 seeded draws under each convention match
    the exact probabilities (chi-square)."""
    votes = np.array([15.0, 19.0, 20.0])
    for monotonic in (False, True):
        probabilities = mechanisms.exponential_probabilities(votes, 0.1, monotonic=monotonic)
        counts = np.bincount(mechanisms.exponential(votes, 0.1, monotonic=monotonic, rng=21, size=10**5), minlength=3)
        assert stats.chisquare(counts, probabilities * 10**5).pvalue > 0.001


# --- selection: the EM tail, permute-and-flip's law and loss -------------------------------------------
EPSILON = 1.0
AUDIT_DRAWS = 2 * 10**5


def permute_and_flip_law(scores, epsilon):
    """Exact law of permute-and-flip by brute force over all k! visiting orders."""
    accept = np.exp(epsilon / 2 * (np.asarray(scores, float) - np.max(scores)))
    law = np.zeros(len(scores))
    for order in itertools.permutations(range(len(scores))):
        reach = 1.0  # probability that every earlier candidate was rejected
        for h in order:
            law[h] += reach * accept[h]
            reach *= 1 - accept[h]
    return law / math.factorial(len(scores))


@pytest.mark.parametrize("select", ["exponential", "permute_and_flip"])
def test_tail_bound_with_100_random_integer_scores(select):
    scores = np.random.default_rng(0).integers(0, 51, 100).astype(float)
    draw = mechanisms.exponential if select == "exponential" else mechanisms.permute_and_flip
    chosen = draw(scores, EPSILON, rng=1, size=20_000)
    loss = scores.max() - scores[chosen]
    for t in (0.5, 1.0, 2.0):
        bound = theory.exponential_mechanism_loss_bound(100, EPSILON, t=t)  # 2 (ln 100 + t)
        assert np.mean(loss >= bound) <= math.exp(-t)


@pytest.mark.parametrize("scores", [[3.0, 1.0, 0.0], [0.0, 0.0, 1.0, 2.5], [5.0, 4.0, 4.0, 1.0, 0.0]])
def test_permute_and_flip_samples_its_exact_law(scores):
    law = permute_and_flip_law(scores, EPSILON)
    draws = 100_000
    counts = np.bincount(mechanisms.permute_and_flip(scores, EPSILON, rng=2, size=draws), minlength=len(scores))
    assert stats.chisquare(counts, draws * law).pvalue > 1e-3
    assert mechanisms.permute_and_flip(scores, EPSILON, rng=3) in range(len(scores))


@pytest.mark.parametrize("scores", [[3.0, 1.0, 0.0], [0.0, 0.0, 1.0, 2.5], [5.0, 4.0, 4.0, 1.0, 0.0],
                                    [1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [10.0, 2.0, 2.0, 2.0, 2.0, 2.0]])
@pytest.mark.parametrize("epsilon", [0.3, 1.0, 3.0])
def test_permute_and_flip_loses_no_more_than_the_exponential_mechanism(scores, epsilon):
    scores = np.asarray(scores)
    loss = scores.max() - scores
    em = loss @ mechanisms.exponential_probabilities(scores, epsilon)
    pf = loss @ permute_and_flip_law(scores, epsilon)
    assert pf <= em + 1e-12


def test_permute_and_flip_never_picks_a_hopeless_candidate_at_large_epsilon():
    chosen = mechanisms.permute_and_flip(np.r_[10.0, np.zeros(999)], 100.0, rng=0, size=2000)
    assert np.all(chosen == 0)


# Scores on neighbours, k = 10: one candidate loses a point, the others gain one (sensitivity 1).
SELECTION_NEIGHBOURS = (np.r_[1.0, np.zeros(9)], np.r_[0.0, np.ones(9)])


def permute_and_flip_audit(epsilon_used):
    counts = [audit.outcome_counts(mechanisms.permute_and_flip(s, epsilon_used, rng=seed, size=AUDIT_DRAWS), 10)
              for seed, s in enumerate(SELECTION_NEIGHBOURS)]
    return audit.epsilon_lower_bound(*counts, AUDIT_DRAWS).epsilon_lower_bound


def test_permute_and_flip_audit_passes_at_epsilon():
    accept, k = math.exp(-EPSILON / 2), 10  # closed form of candidate 0's probability on each neighbour
    exact = ((1 - (1 - accept) ** k) / (k * accept), accept / k)
    assert math.isclose(math.log(exact[0] / exact[1]), EPSILON, rel_tol=1e-3)  # this pair is tight
    small = (SELECTION_NEIGHBOURS[0][:5], SELECTION_NEIGHBOURS[1][:5])  # the closed form, checked by brute force
    np.testing.assert_allclose([permute_and_flip_law(s, EPSILON)[0] for s in small],
                               ((1 - (1 - accept) ** 5) / (5 * accept), accept / 5))
    assert 0.85 * EPSILON < permute_and_flip_audit(EPSILON) <= EPSILON


def test_permute_and_flip_without_the_factor_two_is_caught():
    assert permute_and_flip_audit(2 * EPSILON) > 1.6 * EPSILON


SELECTION_MODULE = importlib.import_module("dpcore.mechanisms.exponential")


@pytest.mark.parametrize("select", [
    lambda scores, size: mechanisms.exponential(scores, 1.0, rng=4, size=size, method="gumbel"),
    lambda scores, size: mechanisms.report_noisy_max(scores, 1.0, rng=4, size=size),
])
def test_noisy_argmax_in_blocks_is_one_draw_number_for_number(select, monkeypatch):
    """Gumbel-max and report-noisy-max draw their noise in blocks of at most _BLOCK_CELLS values: NumPy's noise is
    one stream, so 1,000 draws in blocks of 7 rows (and a last one of 6) are the 1,000 draws made at once."""
    scores = np.random.default_rng(5).normal(0.0, 3.0, 50)
    at_once = select(scores, 1000)
    monkeypatch.setattr(SELECTION_MODULE, "_BLOCK_CELLS", 7 * 50)
    np.testing.assert_array_equal(select(scores, 1000), at_once)


def test_gumbel_rows_in_blocks_are_one_draw_number_for_number(monkeypatch):
    table = np.random.default_rng(6).normal(0.0, 3.0, (300, 40))
    at_once = mechanisms.exponential(table, 1.0, rng=8, method="gumbel")
    monkeypatch.setattr(SELECTION_MODULE, "_BLOCK_CELLS", 1)  # one row per block
    np.testing.assert_array_equal(mechanisms.exponential(table, 1.0, rng=8, method="gumbel"), at_once)


def test_permute_and_flip_in_blocks_keeps_its_law_and_one_block_is_unchanged(monkeypatch):
    """Permute-and-flip draws a block's permutations, then its acceptance uniforms: a run of one block equals the
    draw before blocks existed (written out here), and blocks of 3 draws keep the exact law (chi-square)."""
    scores = np.array([0.0, 1.0, 2.5, 0.5])
    generator = np.random.default_rng(9)
    accept = np.exp(EPSILON / 2 * (scores - scores.max()))
    order = np.argsort(generator.random((500, 4)), axis=1)
    written_out = order[np.arange(500), np.argmax(generator.random(order.shape) < accept[order], axis=1)]
    np.testing.assert_array_equal(mechanisms.permute_and_flip(scores, EPSILON, rng=9, size=500), written_out)
    monkeypatch.setattr(SELECTION_MODULE, "_BLOCK_CELLS", 3 * 4)
    draws = 60_000
    counts = np.bincount(mechanisms.permute_and_flip(scores, EPSILON, rng=10, size=draws), minlength=4)
    assert stats.chisquare(counts, draws * permute_and_flip_law(scores, EPSILON)).pvalue > 1e-3
