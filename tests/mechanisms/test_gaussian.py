"""The Gaussian mechanism (dpcore.mechanisms.gaussian): analytic and classical calibration, the noise drawn."""


import numpy as np
import pytest
from scipy import stats

from dpcore import mechanisms

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "gaussian": dict(
        value=0.0, l2_sensitivity=1.0, epsilon=1.0, delta=1e-5, rng=0, calibration="analytic"
    ),
    "gaussian_sigma": dict(l2_sensitivity=1.0, epsilon=1.0, delta=1e-5, calibration="analytic"),
    "zcdp_gaussian": dict(value=0.0, l2_sensitivity=1.0, rho=0.5, rng=0),
}


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


def test_gaussian_noise_has_the_calibrated_sigma():
    noisy = mechanisms.gaussian(np.zeros(10**6), 1.0, 1.0, 1e-5, rng=4)
    assert noisy.std() == pytest.approx(3.7306, rel=0.01)
    assert stats.kstest(noisy, stats.norm(scale=3.7306).cdf).pvalue > 0.01


def test_analytic_sigma_is_never_larger_than_classical_where_classical_is_valid():
    for epsilon in (0.05, 0.3, 0.7, 1.0):
        for delta in (1e-3, 1e-6, 1e-10):
            assert mechanisms.gaussian_sigma(1.0, epsilon, delta) <= mechanisms.gaussian_sigma(
                1.0, epsilon, delta, "classical")
