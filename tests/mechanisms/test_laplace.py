"""The Laplace mechanism (dpcore.mechanisms.laplace): noise scale, shapes, seeded reproducibility."""

import numpy as np
import pytest
from scipy import stats

from dpcore import mechanisms

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "laplace": dict(value=0.0, sensitivity=1.0, epsilon=1.0, rng=0),
}


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


def test_seeded_mechanisms_are_reproducible_and_seeds_differ():
    a = mechanisms.laplace(np.zeros(5), 1.0, 1.0, rng=7)
    b = mechanisms.laplace(np.zeros(5), 1.0, 1.0, rng=7)
    c = mechanisms.laplace(np.zeros(5), 1.0, 1.0, rng=8)
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, c)
    assert mechanisms.exponential(np.arange(50.0), 1.0, rng=11, size=20).tolist() == \
        mechanisms.exponential(np.arange(50.0), 1.0, rng=11, size=20).tolist()
