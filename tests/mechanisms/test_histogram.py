"""The Laplace histogram (dpcore.mechanisms.histogram): counts, noise, edges."""

import numpy as np
import pytest

from dpcore import mechanisms

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "laplace_histogram": dict(
        data=np.array([0.1, 0.6]), edges=np.array([0.0, 0.5, 1.0]), epsilon=1.0, rng=0
    ),
}


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
