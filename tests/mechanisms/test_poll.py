"""The class poll's release (dpcore.mechanisms.poll): the noise laws, post-processing, refusals, and audits of the
post-processed counts (the raw releases are audited with every mechanism in tests/test_privacy_audit.py)."""

import math

import numpy as np
import pytest

from dpcore import audit, mechanisms
from dpcore.core.guarantees import privacy_roles
from dpcore.mechanisms import poll

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "poll_histogram": dict(counts=np.array([3, 1, 0]), epsilon=1.0, noise="geometric", neighbours="change", rng=0),
}


@pytest.mark.parametrize("neighbours, sensitivity", [("change", 2), ("add-remove", 1)])
def test_geometric_noise_has_the_two_sided_geometric_law(neighbours, sensitivity):
    """P(Z = z) = (1 - α)/(1 + α) α^|z| with α = e^{-ε/Δ1}: frequencies of -3..3 and the variance 2α/(1 - α)²."""
    epsilon, draws = 1.0, 400_000
    release = mechanisms.poll_histogram(np.full((draws, 1), 50), epsilon, neighbours=neighbours, rng=3)
    noise = release.noisy[:, 0] - 50
    assert release.noisy.dtype.kind == "i" and release.sensitivity == sensitivity
    alpha = math.exp(-epsilon / sensitivity)
    for z in range(-3, 4):
        expected = (1 - alpha) / (1 + alpha) * alpha ** abs(z)
        assert np.mean(noise == z) == pytest.approx(expected, abs=4 * math.sqrt(expected / draws))
    assert noise.var() == pytest.approx(2 * alpha / (1 - alpha) ** 2, rel=0.02)


@pytest.mark.parametrize("neighbours, sensitivity", [("change", 2), ("add-remove", 1)])
def test_laplace_noise_has_scale_sensitivity_over_epsilon(neighbours, sensitivity):
    release = mechanisms.poll_histogram(np.full((200_000, 2), 5), 0.5, noise="laplace", neighbours=neighbours, rng=1)
    assert release.scale == sensitivity / 0.5
    assert np.mean(np.abs(release.noisy - 5)) == pytest.approx(release.scale, rel=0.02)  # E|Lap(b)| = b


@pytest.mark.parametrize("noise", poll.NOISES)
def test_released_counts_are_the_noisy_ones_rounded_and_clamped(noise):
    release = mechanisms.poll_histogram(np.array([[0, 1, 2, 30]] * 500), 0.3, noise=noise, rng=2)
    np.testing.assert_array_equal(release.counts, np.maximum(np.round(release.noisy), 0))
    assert release.counts.dtype.kind == "i" and release.counts.min() == 0 and release.noisy.min() < 0
    assert "post-processing" in release.guarantee and f"{0.3:g}-DP" in release.guarantee


def test_same_seed_same_release_and_one_dimensional_shape():
    first, second = (mechanisms.poll_histogram([4, 0, 9], 1.0, rng=7) for _ in range(2))
    np.testing.assert_array_equal(first.counts, second.counts)
    assert first.counts.shape == (3,)


def test_privacy_roles_of_the_result():
    roles = privacy_roles(poll.PollRelease)
    assert roles["noisy"] == roles["counts"] == "released"
    assert {roles[name] for name in ("scale", "sensitivity", "guarantee", "epsilon")} == {"public"}


@pytest.mark.parametrize("epsilon", [1e-9, 1e-3, 1e6])
@pytest.mark.parametrize("noise", poll.NOISES)
def test_extreme_epsilon_gives_whole_nonnegative_counts(noise, epsilon):
    release = mechanisms.poll_histogram([3, 0, 1], epsilon, noise=noise, rng=0)
    assert np.all(np.isfinite(release.noisy)) and release.counts.dtype.kind == "i" and release.counts.min() >= 0
    if epsilon == 1e6:
        assert release.counts.tolist() == [3, 0, 1]


def test_bad_counts_and_tiny_epsilon_are_refused_naming_the_parameter():
    with pytest.raises(ValueError, match="counts must be whole numbers"):
        mechanisms.poll_histogram([1.5, 2], 1.0)
    with pytest.raises(ValueError, match="counts must be"):
        mechanisms.poll_histogram([-1, 2], 1.0)
    with pytest.raises(ValueError, match="epsilon must be at least 2e-15"):
        mechanisms.poll_histogram([1, 2], 1e-16)
    with pytest.raises(ValueError, match="neighbours must be one of"):
        mechanisms.poll_histogram([1, 2], 1.0, neighbours="replace")


@pytest.mark.parametrize("noise", poll.NOISES)
def test_post_processed_counts_pass_the_audit(noise):
    """What the class sees, at ε = 1: one vote moved from choice 0 to choice 1 on a class where both are near zero
    (so clamping bites): the counts (1, 0) against (0, 1), events {c0 >= k, c1 <= j}. The bound stays <= ε and
    sees most of it (post-processing can only lose information)."""
    draws, epsilon = 10**6, 1.0
    on = [mechanisms.poll_histogram(np.broadcast_to(counts, (draws, 2)), epsilon, noise=noise, rng=seed).counts
          for counts, seed in (([1, 0], 1), ([0, 1], 2))]
    events = [(k, j) for k in range(1, 4) for j in range(0, 3)]
    counted = [np.array([np.sum((c[:, 0] >= k) & (c[:, 1] <= j)) for k, j in events]) for c in on]
    bound = audit.epsilon_lower_bound(*counted, draws).epsilon_lower_bound
    assert 0.6 * epsilon < bound <= epsilon
