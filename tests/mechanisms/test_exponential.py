"""Mechanisms: known values, noise distributions, numerical stability, seeded reproducibility."""

import math

import numpy as np
import pytest
from scipy import stats

from dpcore import mechanisms


@pytest.mark.parametrize("epsilon, delta, analytic, classical", [
    (1.0, 1e-5, 3.7306, 4.8448), (0.5, 1e-5, 7.0318, 9.6896), (1.0, 1e-6, 4.2247, 5.2988), (0.1, 1e-5, 30.750, 48.448),
])
def test_gaussian_sigma_reference_values(epsilon, delta, analytic, classical):
    assert mechanisms.gaussian_sigma(1.0, epsilon, delta) == pytest.approx(analytic, abs=1e-3)
    assert mechanisms.gaussian_sigma(1.0, epsilon, delta, "classical") == pytest.approx(classical, abs=1e-3)


def test_gaussian_sigma_scales_with_sensitivity_and_analytic_works_above_one():
    assert mechanisms.gaussian_sigma(2.5, 1.0, 1e-5) == pytest.approx(2.5 * 3.7306, abs=1e-3)
    assert mechanisms.gaussian_sigma(1.0, 2.0, 1e-5) == pytest.approx(1.9938, abs=1e-3)


def test_classical_calibration_is_refused_where_it_is_not_proved():
    with pytest.raises(ValueError, match=r"epsilon .*\(0, 1\].*classical.*got 2.0"):
        mechanisms.gaussian_sigma(1.0, 2.0, 1e-5, "classical")


def test_laplace_noise_has_the_right_scale():
    noisy = mechanisms.laplace(np.zeros(10**6), sensitivity=2.0, epsilon=0.5, rng=3)
    b = 2.0 / 0.5
    assert noisy.var() == pytest.approx(2 * b**2, rel=0.01)
    assert stats.kstest(noisy, stats.laplace(scale=b).cdf).pvalue > 0.01


def test_laplace_scalar_in_scalar_out_and_per_release_sensitivity():
    assert isinstance(mechanisms.laplace(3.0, 1.0, 1.0, rng=0), float)
    noise = mechanisms.laplace(np.zeros((2, 200000)), np.array([[1.0], [4.0]]), 1.0, rng=0)
    ratio = noise[1].std() / noise[0].std()
    assert ratio == pytest.approx(4.0, rel=0.02)


def test_gaussian_noise_has_the_calibrated_sigma():
    noisy = mechanisms.gaussian(np.zeros(10**6), 1.0, 1.0, 1e-5, rng=4)
    assert noisy.std() == pytest.approx(3.7306, rel=0.01)
    assert stats.kstest(noisy, stats.norm(scale=3.7306).cdf).pvalue > 0.01


def test_seeded_mechanisms_are_reproducible_and_seeds_differ():
    a = mechanisms.laplace(np.zeros(5), 1.0, 1.0, rng=7)
    b = mechanisms.laplace(np.zeros(5), 1.0, 1.0, rng=7)
    c = mechanisms.laplace(np.zeros(5), 1.0, 1.0, rng=8)
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, c)
    assert mechanisms.exponential(np.arange(50.0), 1.0, rng=11, size=20).tolist() == \
        mechanisms.exponential(np.arange(50.0), 1.0, rng=11, size=20).tolist()


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


def test_laplace_histogram_counts_and_noise():
    data = np.array([0.1, 0.5, 0.9, 1.0, -3.0, 7.0])  # -3 and 7 fall outside, uncounted; 1.0 is in the last bin
    edges = np.array([0.0, 0.5, 1.0])
    np.testing.assert_allclose(mechanisms.laplace_histogram(data, edges, 1e9, rng=0), [1, 3], atol=1e-6)
    noisy = mechanisms.laplace_histogram(np.zeros((20000, 3)), np.array([-1.0, 1.0, 2.0]), 0.5, rng=1)
    assert noisy.shape == (20000, 2)
    assert (noisy[:, 1]).var() == pytest.approx(2 * (2 / 0.5) ** 2, rel=0.03)
    assert noisy[:, 0].mean() == pytest.approx(3.0, abs=0.1)


def test_laplace_histogram_rejects_unsorted_edges():
    with pytest.raises(ValueError, match="edges must be strictly increasing"):
        mechanisms.laplace_histogram(np.zeros(3), np.array([0.0, 2.0, 1.0]), 1.0)


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
    """Seed 001's election: 10^5 seeded draws under each convention match the exact probabilities (chi-square)."""
    votes = np.array([15.0, 19.0, 20.0])
    for monotonic in (False, True):
        probabilities = mechanisms.exponential_probabilities(votes, 0.1, monotonic=monotonic)
        counts = np.bincount(mechanisms.exponential(votes, 0.1, monotonic=monotonic, rng=21, size=10**5), minlength=3)
        assert stats.chisquare(counts, probabilities * 10**5).pvalue > 0.001
