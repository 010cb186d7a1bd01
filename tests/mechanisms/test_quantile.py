"""The exact private-quantile sampler (dpcore.mechanisms.quantile): law, utility, privacy audits.

Sanity numbers from docs/algorithms.md §5.6.2; audits (dpcore.audit) on neighbouring inputs built so that the
factor 2 of the standard convention matters: the correct mechanism's 95 % lower bound stays <= epsilon, the
version without the factor 2 (run at 2 epsilon, i.e. exp(epsilon u)) exceeds it.
"""

import math

import numpy as np
import pytest
from scipy import stats

from dpcore import audit
from dpcore import mechanisms as expmech
from dpcore.core.validation import InvalidParameterError
from dpcore.lessons import exponential_mechanism as exponential_mechanism_lesson

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "private_quantile": dict(
        x=np.array([0.2, 0.5]), q=0.5, epsilon=1.0, lower=0.0, upper=1.0, rng=0
    ),
    "quantile_density": dict(x=np.array([0.2, 0.5]), q=0.5, epsilon=1.0, lower=0.0, upper=1.0),
    "quantile_densities": dict(x=np.array([0.2, 0.5]), q=0.5, epsilons=np.array([0.5, 1.0]), lower=0.0, upper=1.0),
    "sample_quantile_density": dict(
        law=expmech.quantile_density(np.array([0.2, 0.5]), 0.5, 1.0, 0.0, 1.0), size=3, rng=0
    ),
}


EPSILON = 1.0
AUDIT_DRAWS = 2 * 10**5


def median_data(seed=1, n=101):
    return np.clip(np.random.default_rng(seed).normal(0.3, 0.1, n), 0.0, 1.0)


# --- the private quantile ------------------------------------------------------------------------------

def exact_moments(density):
    left, right = density["edges"][:-1], density["edges"][1:]
    p = density["probabilities"]
    mean = p @ ((left + right) / 2)
    return mean, math.sqrt(p @ ((left**2 + left * right + right**2) / 3) - mean**2)


def test_private_median_of_101_gaussian_points():
    x = median_data()
    draws = expmech.private_quantile(np.broadcast_to(x, (4000, 101)), 0.5, EPSILON, 0.0, 1.0, rng=4)
    mean, sd = exact_moments(expmech.quantile_density(x, 0.5, EPSILON, 0.0, 1.0))
    assert abs(draws.mean() - 0.302) < 0.003 and abs(draws.mean() - np.median(x)) < 0.005
    assert abs(draws.mean() - mean) < 5 * sd / math.sqrt(4000)
    assert 0.006 <= draws.std() <= 0.011 and abs(draws.std() / sd - 1) < 0.05


def test_private_median_at_epsilon_50_lies_between_the_50th_and_52nd_order_statistics():
    x = median_data()
    ordered = np.sort(x)
    draws = expmech.private_quantile(np.broadcast_to(x, (4000, 101)), 0.5, 50.0, 0.0, 1.0, rng=5)
    assert np.all((ordered[49] <= draws) & (draws <= ordered[51]))


def test_quantile_density_is_the_sampled_law():
    x = median_data(n=30)
    density = expmech.quantile_density(x, 0.25, EPSILON, 0.0, 1.0)
    edges, p = density["edges"], density["probabilities"]
    assert edges.shape == (32,) and p.shape == density["scores"].shape == density["density"].shape == (31,)
    assert math.isclose(p.sum(), 1.0) and np.all(np.diff(edges) >= 0)
    np.testing.assert_allclose(density["density"] * np.diff(edges), p)
    assert density["scores"].max() == -0.5 and density["scores"][7] == -0.5  # q n = 7.5
    draws = 200_000
    samples = expmech.private_quantile(np.broadcast_to(x, (draws, 30)), 0.25, EPSILON, 0.0, 1.0, rng=6)
    counts = np.bincount(np.searchsorted(edges, samples, side="right") - 1, minlength=31)[:31]
    assert stats.chisquare(counts, draws * p).pvalue > 1e-3


def test_clipping_ties_and_zero_length_intervals():
    x = np.array([-5.0, 0.0, 0.5, 0.5, 0.5, 7.0])  # clipped edges 0, 0, 0, .5, .5, .5, 1, 1: five empty intervals
    density = expmech.quantile_density(x, 0.5, EPSILON, 0.0, 1.0)
    zero = np.diff(density["edges"]) == 0
    assert zero.sum() == 5 and np.all(density["probabilities"][zero] == 0)
    draws = expmech.private_quantile(np.broadcast_to(x, (5000, 6)), 0.5, EPSILON, 0.0, 1.0, rng=7)
    assert np.all((0.0 <= draws) & (draws <= 1.0))


def test_shapes_and_seeded_reproducibility():
    x = np.random.default_rng(8).random((7, 12))
    first = expmech.private_quantile(x, 0.3, EPSILON, 0.0, 1.0, rng=9)
    assert first.shape == (7,)
    np.testing.assert_array_equal(first, expmech.private_quantile(x, 0.3, EPSILON, 0.0, 1.0, rng=9))
    assert isinstance(expmech.private_quantile(x[0], 0.3, EPSILON, 0.0, 1.0, rng=9), float)
    np.testing.assert_array_equal(expmech.permute_and_flip([1.0, 2.0, 0.5], 1.0, rng=3, size=50),
                                  expmech.permute_and_flip([1.0, 2.0, 0.5], 1.0, rng=3, size=50))


@pytest.mark.parametrize("call", [
    lambda: expmech.private_quantile([0.5], 0.5, 1.0, 1.0, 1.0),
    lambda: expmech.private_quantile([0.5], 0.5, 1.0, 1.0, 0.0),
    lambda: expmech.quantile_density([0.5], 0.5, 1.0, 2.0, 1.0),
    lambda: expmech.quantile_density(np.zeros((2, 2)), 0.5, 1.0, 0.0, 1.0),
    lambda: expmech.private_quantile([0.5], 1.5, 1.0, 0.0, 1.0),
    lambda: expmech.private_quantile([np.nan], 0.5, 1.0, 0.0, 1.0),
    lambda: expmech.permute_and_flip([], 1.0),
    lambda: expmech.permute_and_flip([1.0], 0.0),
    lambda: exponential_mechanism_lesson.quantile_error_sweep([10], [1.0], 5, 0, lower=1.0, upper=0.0),
    lambda: exponential_mechanism_lesson.selection_loss_sweep([2.5], [1.0], 5, 0),
    lambda: exponential_mechanism_lesson.selection_loss_sweep([2], [1.0], 5, 0, design="worst"),
])
def test_bad_inputs_are_rejected(call):
    with pytest.raises((ValueError, TypeError)):
        call()


# --- privacy audits ------------------------------------------------------------------------------------

# n = 20 on [0, 1], replace-one: the moved point goes from 0 to 1. Nine points at 0, one at s = 1/11, nine
# at 1. Below s the rank is 10 = q n (score 0) on X and 9 on X' (score -1); above s it is 11 (score -1) on
# X and 10 (score 0) on X'. The long interval above s gains what the short one below loses: the rank score
# is not monotone, so exp(eps u) (no factor 2) has privacy loss ~ 2 eps on {y < s}.
QUANTILE_NEIGHBOURS = tuple(np.r_[moved, np.zeros(9), 1 / 11, np.ones(9)] for moved in (0.0, 1.0))


def quantile_audit(epsilon_used):
    thresholds = np.linspace(0.0, 1.0, 34)
    counts = [audit.threshold_counts(expmech.private_quantile(np.broadcast_to(x, (AUDIT_DRAWS, 20)), 0.5,
                                                              epsilon_used, 0.0, 1.0, rng=seed), thresholds)
              for seed, x in enumerate(QUANTILE_NEIGHBOURS)]
    return audit.epsilon_lower_bound(*counts, AUDIT_DRAWS).epsilon_lower_bound


def test_exact_quantile_privacy_loss_on_the_audit_pair():
    p, q = (expmech.quantile_density(x, 0.5, EPSILON, 0.0, 1.0) for x in QUANTILE_NEIGHBOURS)
    below = [d["probabilities"][d["edges"][1:] <= 1 / 11].sum() for d in (p, q)]
    assert 0.85 * EPSILON < math.log(below[0] / below[1]) <= EPSILON


def test_private_quantile_audit_passes_at_epsilon():
    assert 0.75 * EPSILON < quantile_audit(EPSILON) <= EPSILON


def test_private_quantile_without_the_factor_two_is_caught():
    assert quantile_audit(2 * EPSILON) > 1.4 * EPSILON


# --- many releases from the law, the data fixed ------------------------------------------------------------

def test_sampling_the_law_is_the_private_quantile():
    """sample_quantile_density draws the law of private_quantile: a two-sample KS test against 4,000 vectorised
    private_quantile releases on the same (unsorted, tied, partly clipped) data, seeded, at level 0.001 (a wrong
    sampler, e.g. the interval chosen uniformly or the ε/2 exponent doubled, fails it with these sizes)."""
    x = np.concatenate([np.random.default_rng(3).lognormal(0.0, 1.0, 300), [0.5, 0.5, 0.5, 40.0]])
    for q, epsilon in ((0.5, 0.1), (0.25, 1.0), (0.9, 0.02)):
        law = expmech.quantile_density(x, q, epsilon, 0.0, 10.0)
        fast = expmech.sample_quantile_density(law, 4000, rng=1)
        slow = expmech.private_quantile(np.broadcast_to(x, (4000, x.size)), q, epsilon, 0.0, 10.0, rng=2)
        assert stats.ks_2samp(fast, slow).pvalue > 1e-3
        exact_mean, exact_sd = exact_moments(law)
        assert abs(fast.mean() - exact_mean) < 4 * exact_sd / math.sqrt(4000)


def test_sampling_the_law_never_picks_an_empty_interval_and_is_seeded():
    law = expmech.quantile_density([0.2, 0.2, 0.2, 0.7], 0.5, 5.0, 0.0, 1.0)
    draws = expmech.sample_quantile_density(law, 20_000, rng=4)
    assert np.all((draws >= 0.0) & (draws <= 1.0))
    np.testing.assert_array_equal(draws, expmech.sample_quantile_density(law, 20_000, rng=4))
    shares = np.histogram(draws, law["edges"][[0, 1, 4, 5]])[0] / draws.size
    np.testing.assert_allclose(shares, law["probabilities"][[0, 3, 4]], atol=0.015)


def test_sampling_the_law_rejects_a_dict_without_the_law():
    with pytest.raises(InvalidParameterError, match="law"):
        expmech.sample_quantile_density({"edges": np.zeros(2)}, 3)


def test_a_sorted_dataset_gives_the_same_law_as_unsorted():
    x = np.random.default_rng(5).normal(0.0, 1.0, 500)
    for key in ("edges", "probabilities"):
        np.testing.assert_array_equal(expmech.quantile_density(x, 0.5, 1.0, -2.0, 2.0)[key],
                                      expmech.quantile_density(np.sort(x), 0.5, 1.0, -2.0, 2.0)[key])


def test_the_laws_over_a_grid_of_epsilons_are_quantile_density_s_value_for_value():
    """quantile_densities shares the ε-free part (clip, sort, intervals, scores) across the grid: every law must be
    quantile_density's exactly (the sweeps of the real-data page draw from them), on unsorted data with ties and data
    outside the range."""
    x = np.r_[np.random.default_rng(6).normal(0.0, 1.0, 300), [0.5, 0.5, 3.0, -3.0]]
    epsilons = [0.01, 0.3, 1.0, 7.0]
    for q in (0.0, 0.25, 0.5, 1.0):
        laws = expmech.quantile_densities(x, q, epsilons, -2.0, 2.0)
        assert len(laws) == len(epsilons)
        for epsilon, law in zip(epsilons, laws, strict=True):
            alone = expmech.quantile_density(x, q, epsilon, -2.0, 2.0)
            assert set(law) == set(alone)
            for key in alone:
                np.testing.assert_array_equal(law[key], alone[key])
    with pytest.raises(InvalidParameterError, match="epsilons"):
        expmech.quantile_densities(x, 0.5, [1.0, 0.0], -2.0, 2.0)
    with pytest.raises(InvalidParameterError, match="upper"):
        expmech.quantile_densities(x, 0.5, [1.0], 2.0, -2.0)
