"""The audit's statistics (dpcore.audit): Clopper-Pearson intervals, event counts, the Gaussian-DP bound and fit, the
empirical trade-off boxes (docs/algorithms.md §7.5). Every mechanism's audit is tests/test_privacy_audit.py; the one-run
audit is tests/test_one_run_audit.py.
"""

import math

import numpy as np
import pytest
from scipy import stats

from dpcore import accounting, audit
from dpcore.core.validation import InvalidParameterError

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "clopper_pearson": dict(successes=np.array([3.0]), trials=10, confidence=0.95),
    "epsilon_lower_bound": dict(
        counts=np.array([3.0]), counts_neighbour=np.array([5.0]), trials=10, delta=0.0, confidence=0.95
    ),
    "threshold_counts": dict(samples=np.arange(5.0), thresholds=np.array([1.0, 2.0])),
    "outcome_counts": dict(samples=np.array([0.0, 1.0, 1.0]), outcomes=3),
    "gaussian_dp_lower_bound": dict(false_positives=np.array([30.0, 10.0]), negatives=100.0,
                                    false_negatives=np.array([30.0, 60.0]), positives=np.array([100.0, 100.0]),
                                    confidence=0.95),
    "gaussian_dp_fit": dict(counts=np.array([30.0, 10.0]), counts_neighbour=np.array([70.0, 40.0]), trials=100,
                            delta=1e-5, confidence=0.95),
    "tradeoff_points": dict(counts=np.array([30.0, 10.0]), counts_neighbour=np.array([70.0, 40.0]), trials=100,
                            confidence=0.95),
}


def test_clopper_pearson_known_interval():
    lower, upper = audit.clopper_pearson(np.array([5]), 10, 0.95)
    assert lower[0] == pytest.approx(0.187086, abs=1e-6)
    assert upper[0] == pytest.approx(0.812914, abs=1e-6)


def test_threshold_counts_are_the_samples_above_each_threshold():
    """Against the definition, #{i : y_i > t_j}, with ties (values on a 0.1 grid), repeated and unsorted thresholds."""
    rng = np.random.default_rng(4)
    for _ in range(50):
        samples = np.round(rng.normal(size=rng.integers(1, 2000)), 1)
        thresholds = np.round(rng.normal(size=rng.integers(1, 30)) * 1.5, 1)
        thresholds = np.r_[thresholds, thresholds[:3]]
        np.testing.assert_array_equal(audit.threshold_counts(samples, thresholds),
                                      (samples[:, None] > thresholds).sum(axis=0))


def test_clopper_pearson_is_exact_at_a_billion_trials():
    """1,000 events in 999,500,000 trials (the property test's find): SciPy's Beta inverse gave a lower end of
    1.9e-6, above the rate 1.0e-6, so identical counts on both inputs showed ε ≥ 0.52. Each end now has exactly its
    tail probability (the Beta distribution function, right to 1e-14 there) and brackets the rate."""
    from scipy import special

    trials, level = 999_500_000, 0.975
    low, high = audit.clopper_pearson(np.array([1000]), trials, level)
    assert low[0] < 1000 / trials < high[0]
    assert special.betainc(1000, trials - 1000 + 1, low[0]) == pytest.approx((1 - level) / 2, rel=1e-9)
    assert special.betainc(1001, trials - 1000, high[0]) == pytest.approx(1 - (1 - level) / 2, rel=1e-9)
    same = audit.epsilon_lower_bound(np.array([1000]), np.array([1000]), trials, delta=1e-7)
    assert same.epsilon_lower_bound == 0.0


# ---------------------------------------------------------------------------------------------- Gaussian DP audits

def reference_mu(false_positives, negatives, false_negatives, positives, confidence):
    """Nasr et al.'s (2023) bound written again with scipy.stats: Clopper-Pearson upper ends from the Beta quantile
    function, Bonferroni over the K rows and both rates, mu >= Phi^-1(1 - FPR) - Phi^-1(FNR), at least 0."""
    level = (1 - confidence) / (2 * len(false_positives))
    best = 0.0
    for fp, n, fn, p in zip(false_positives, np.broadcast_to(negatives, len(false_positives)), false_negatives,
                            np.broadcast_to(positives, len(false_positives))):
        fpr = 1.0 if fp == n else stats.beta.ppf(1 - level, fp + 1, n - fp)
        fnr = 1.0 if fn == p else stats.beta.ppf(1 - level, fn + 1, p - fn)
        if fpr < 1 and fnr < 1:
            best = max(best, stats.norm.ppf(1 - fpr) - stats.norm.ppf(fnr))
    return best


def test_gaussian_dp_lower_bound_is_an_independent_implementation():
    """200 random count tables (1 to 40 tests, 1 to 100,000 runs per input, scalar or per-test totals, counts at
    0 and at the totals included): the same bound to 1e-9."""
    rng = np.random.default_rng(43)
    for _ in range(200):
        tests = int(rng.integers(1, 41))
        negatives = rng.integers(1, 100_001, tests) if rng.random() < 0.5 else float(rng.integers(1, 100_001))
        positives = rng.integers(1, 100_001, tests) if rng.random() < 0.5 else float(rng.integers(1, 100_001))
        false_positives = np.floor(rng.uniform(0, 1, tests) ** 3 * (np.asarray(negatives) + 1)).clip(0, negatives)
        false_negatives = np.floor(rng.uniform(0, 1, tests) ** 3 * (np.asarray(positives) + 1)).clip(0, positives)
        confidence = float(rng.choice([0.8, 0.95, 0.99]))
        mine = audit.gaussian_dp_lower_bound(false_positives, negatives, false_negatives, positives, confidence)
        assert mine == pytest.approx(reference_mu(false_positives, negatives, false_negatives, positives, confidence),
                                     rel=1e-9, abs=1e-12)


def gaussian_draws(mu, repetitions, draws, seed):
    """Draws of the mu-Gaussian mechanism (N(0, 1) on X, N(mu, 1) on X'), one row per audit."""
    rng = np.random.default_rng(seed)
    return rng.normal(0.0, 1.0, (repetitions, draws)), rng.normal(mu, 1.0, (repetitions, draws))


THRESHOLDS = np.linspace(-1.5, 2.5, 21)


def above(samples):
    """Per row, how many samples exceed each of THRESHOLDS (every row at once)."""
    return (samples[:, :, None] > THRESHOLDS).sum(axis=1)


def test_gaussian_dp_lower_bound_covers_a_correct_gaussian_mechanism():
    """300 audits of the 1-Gaussian mechanism (2,000 draws per input, 21 thresholds): the bound exceeds mu = 1 in at
    most 5 % of them (plus three binomial standard deviations), and averages at least 0.75."""
    on_x, on_neighbour = gaussian_draws(1.0, 300, 2000, 0)
    counts, counts_neighbour = above(on_x), above(on_neighbour)
    bounds = np.array([audit.gaussian_dp_lower_bound(c, 2000, 2000 - c_n, 2000)
                       for c, c_n in zip(counts, counts_neighbour)])
    assert np.mean(bounds > 1.0) <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / 300)
    assert np.mean(bounds) >= 0.75


def test_gaussian_dp_fit_is_the_bound_over_both_directions_and_complements():
    on_x, on_neighbour = gaussian_draws(1.0, 1, 5000, 1)
    counts, counts_neighbour = above(on_x)[0], above(on_neighbour)[0]
    fit = audit.gaussian_dp_fit(counts, counts_neighbour, 5000, 1e-5)
    table = (np.r_[counts, 5000 - counts], 5000, np.r_[5000 - counts_neighbour, counts_neighbour], 5000)
    assert fit.mu_lower == pytest.approx(reference_mu(*table, 0.95), rel=1e-9)
    assert fit.epsilon == pytest.approx(accounting.gaussian_epsilon(fit.mu_lower, 1e-5))
    assert fit.epsilon_clopper_pearson == audit.epsilon_lower_bound(counts, counts_neighbour, 5000,
                                                                    1e-5).epsilon_lower_bound
    assert 0 <= fit.event < THRESHOLDS.size  # X' is the larger: "say X' above a threshold"
    assert 0.75 <= fit.mu_lower <= 1.0
    # swapping the inputs, the complements ("say X' below a threshold") find the same mu: the reverse tests
    swapped = audit.gaussian_dp_fit(counts_neighbour, counts, 5000, 1e-5)
    assert swapped.mu_lower == pytest.approx(fit.mu_lower) and swapped.event == fit.event + THRESHOLDS.size


def test_gaussian_dp_fit_catches_the_planted_bug():
    """Claim: mu = 1 (sigma = 1). Bug: sigma halved, so mu = 2. At a fixed seed the bound exceeds 1 for the bug
    only."""
    correct = gaussian_draws(1.0, 1, 5000, 2)
    broken = gaussian_draws(2.0, 1, 5000, 2)  # the same as noise of sigma 1/2 around 0 and 1
    assert audit.gaussian_dp_fit(above(correct[0])[0], above(correct[1])[0], 5000, 1e-5).mu_lower < 1.0
    assert audit.gaussian_dp_fit(above(broken[0])[0], above(broken[1])[0], 5000, 1e-5).mu_lower > 1.0


def test_the_gaussian_assumption_speaks_for_a_laplace_mechanism():
    """A correct 1-DP Laplace count audited as if Gaussian: the fit's epsilon at delta = 1e-5 lies far above 1, while
    the Clopper-Pearson bound of the same counts stays below it. The assumption, not the data, made the first."""
    rng = np.random.default_rng(5)
    thresholds = np.linspace(50.5 - 6, 50.5 + 6, 41)
    x, neighbour = 50 + rng.laplace(0, 1, 200_000), 51 + rng.laplace(0, 1, 200_000)
    fit = audit.gaussian_dp_fit(audit.threshold_counts(x, thresholds), audit.threshold_counts(neighbour, thresholds),
                                200_000, 1e-5)
    assert fit.epsilon > 2.0
    assert fit.epsilon_clopper_pearson < 1.0


def test_gaussian_dp_fit_of_identical_counts_is_zero():
    fit = audit.gaussian_dp_fit(np.array([40.0, 60.0]), np.array([40.0, 60.0]), 100, 1e-5)
    assert (fit.mu_lower, fit.epsilon, fit.event) == (0.0, 0.0, -1)


def test_tradeoff_boxes_hold_simultaneously():
    """300 audits of the 1-Gaussian mechanism: every box holds the true (FPR, FNR) of its threshold at once in at
    least 95 % of them (less three binomial standard deviations); the points are the observed rates."""
    on_x, on_neighbour = gaussian_draws(1.0, 300, 1000, 3)
    true_fpr, true_fnr = stats.norm.sf(THRESHOLDS), stats.norm.cdf(THRESHOLDS - 1.0)
    held = []
    for c, c_n in zip(above(on_x), above(on_neighbour)):
        points = audit.tradeoff_points(c, c_n, 1000)
        np.testing.assert_allclose(points.fpr, c / 1000)
        np.testing.assert_allclose(points.fnr, 1 - c_n / 1000)
        assert np.all((points.fpr_low <= points.fpr) & (points.fpr <= points.fpr_high))
        assert np.all((points.fnr_low <= points.fnr) & (points.fnr <= points.fnr_high))
        held.append(np.all((points.fpr_low <= true_fpr) & (true_fpr <= points.fpr_high)
                           & (points.fnr_low <= true_fnr) & (true_fnr <= points.fnr_high)))
    assert np.mean(held) >= 0.95 - 3 * math.sqrt(0.05 * 0.95 / 300)


@pytest.mark.parametrize("call, name", [
    (lambda: audit.gaussian_dp_lower_bound([5.0], 4.0, [1.0], 10.0), "false_positives"),
    (lambda: audit.gaussian_dp_lower_bound([1.0], 4.0, [11.0], 10.0), "false_negatives"),
    (lambda: audit.gaussian_dp_lower_bound([1.0, 2.0], 4.0, [1.0], 10.0), "false_positives"),
    (lambda: audit.gaussian_dp_lower_bound([1.0, 2.0], [4.0, 5.0, 6.0], [1.0, 1.0], 10.0), "negatives"),
    (lambda: audit.gaussian_dp_fit(np.array([1.0]), np.array([1.0, 2.0]), 10, 1e-5), "counts"),
    (lambda: audit.gaussian_dp_fit(np.array([11.0]), np.array([1.0]), 10, 1e-5), "counts"),
    (lambda: audit.tradeoff_points(np.array([1.0]), np.array([1.0, 2.0]), 10), "counts"),
    (lambda: audit.tradeoff_points(np.array([11.0]), np.array([1.0]), 10), "successes"),
])
def test_inconsistent_tables_are_rejected_naming_the_parameter(call, name):
    with pytest.raises(InvalidParameterError, match=name):
        call()


@pytest.mark.parametrize("grid", ["even", "uneven", "repeated", "one", "huge"])
def test_threshold_counts_guessed_from_the_spacing_are_the_searchs(grid):
    """The count of thresholds below each sample, guessed from an even grid's spacing and checked, is exactly
    np.searchsorted's, on any grid: samples on the thresholds, a float's width either side of them, far outside."""
    rng = np.random.default_rng(44)
    for _ in range(40):
        size = int(rng.integers(2, 60))
        thresholds = {"even": np.linspace(rng.normal(), rng.normal() + rng.uniform(0.01, 20), size),
                      "uneven": np.geomspace(1e-3, 1e3, size), "repeated": np.round(rng.normal(size=size), 1),
                      "one": np.full(size, 0.5), "huge": np.linspace(-1e300, 1e300, size)}[grid]
        ordered = np.sort(thresholds)
        samples = np.r_[rng.normal(size=500) * rng.choice([0.1, 10, 1e300]), ordered, np.nextafter(ordered, np.inf),
                        np.nextafter(ordered, -np.inf), 1e308, -1e308, 0.0]
        below = audit._thresholds_below(ordered, samples)
        assert below.dtype == np.intp
        np.testing.assert_array_equal(below, np.searchsorted(ordered, samples, side="left"))
        np.testing.assert_array_equal(audit.threshold_counts(samples, thresholds),
                                      (samples[:, None] > thresholds).sum(axis=0))
