"""The audit's statistics (dpcore.audit): Clopper-Pearson intervals, event counts. Every mechanism's audit is
tests/test_privacy_audit.py.
"""

import numpy as np
import pytest

from dpcore import audit

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "clopper_pearson": dict(successes=np.array([3.0]), trials=10, confidence=0.95),
    "epsilon_lower_bound": dict(
        counts=np.array([3.0]), counts_neighbour=np.array([5.0]), trials=10, delta=0.0, confidence=0.95
    ),
    "threshold_counts": dict(samples=np.arange(5.0), thresholds=np.array([1.0, 2.0])),
    "outcome_counts": dict(samples=np.array([0.0, 1.0, 1.0]), outcomes=3),
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
