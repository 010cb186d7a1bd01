"""A clipped d-dimensional mean released with Laplace / Gaussian / zCDP-Gaussian noise
(dpcore.estimators.mean_release) against docs/algorithms.md §0.3–0.5 and §2: calibration closed forms and reference
values, the clip radius, the expected error (exact and against Monte Carlo), the releases, and end-to-end privacy
audits of ``private_mean`` on neighbouring datasets.
"""

import importlib
import math

import numpy as np
import pytest

from dpcore import accounting, audit
from dpcore.estimators import mean_release as nt
from dpcore.estimators.clipping import clip_to_ball
from dpcore.lessons import noise_tradeoff as lesson

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "clip_radius": dict(dimension=4, n=100, beta=0.1),
    "calibrate": dict(
        mechanism="gaussian_classical", dimension=4, n=100, epsilon=0.5, delta=1e-6, radius=3.0
    ),
    "private_mean": dict(
        points=np.zeros((5, 2)), epsilon=1.0, delta=1e-6, mechanism="laplace", radius=1.0, rng=0
    ),
    "repeated_releases": dict(
        points=np.zeros((5, 2)), epsilon=1.0, delta=1e-6, mechanism="zcdp_gaussian", radius=1.0, releases=3, rng=0
    ),
    "expected_error": dict(
        mechanism="gaussian_analytic", dimension=4, n=100, epsilon=1.0, delta=1e-6, beta=0.1
    ),
    "release_means": dict(
        mechanism="laplace",
        means=np.zeros((3, 2)),
        epsilon=1.0,
        delta=1e-6,
        rng=0,
        calibration=importlib.import_module("dpcore.estimators.mean_release").calibrate(
            "laplace", 2, 10, 1.0, 1e-6, 1.0
        ),
    ),
}


# ------------------------------------------------------------------------------------ calibration
@pytest.mark.parametrize("dimension, n, epsilon, delta, radius", [
    (1, 100, 0.5, 1e-5, 1.0), (64, 10_000, 1.0, 1e-6, 12.0), (1000, 777, 0.05, 1e-10, 40.0),
])
def test_calibrate_closed_forms(dimension, n, epsilon, delta, radius):
    def rmse(mechanism):
        return nt.calibrate(mechanism, dimension, n, epsilon, delta, radius).rmse

    assert rmse("laplace") == pytest.approx(2 * math.sqrt(2) * radius * dimension / (epsilon * n), rel=1e-12)
    assert rmse("gaussian_classical") == pytest.approx(
        2 * radius * math.sqrt(dimension) * math.sqrt(2 * math.log(1.25 / delta)) / (epsilon * n), rel=1e-12)
    assert rmse("zcdp_gaussian") == pytest.approx(2 * radius * math.sqrt(dimension) / (epsilon * n), rel=1e-12)
    mu = accounting.gaussian_mu(epsilon, delta)
    assert rmse("gaussian_analytic") == pytest.approx(2 * radius * math.sqrt(dimension) / (n * mu), rel=1e-12)
    for mechanism in nt.MECHANISMS:
        calibration = nt.calibrate(mechanism, dimension, n, epsilon, delta, radius)
        assert calibration.rmse == pytest.approx(calibration.coordinate_sd * math.sqrt(dimension), rel=1e-12)
        l2 = 2 * radius / n
        assert calibration.sensitivity == pytest.approx(l2 * math.sqrt(dimension) if mechanism == "laplace" else l2)


def test_calibrate_reference_sigmas_and_guarantees():
    """§0.2: σ for Δ2 = 1 (here 2C/n = 1), and each mechanism states its guarantee."""
    def sd(mechanism, epsilon, delta):
        return nt.calibrate(mechanism, 1, 2, epsilon, delta, 1.0).coordinate_sd

    assert sd("gaussian_classical", 1.0, 1e-5) == pytest.approx(4.8448, abs=1e-3)
    assert sd("gaussian_analytic", 1.0, 1e-5) == pytest.approx(3.7306, abs=1e-3)
    assert sd("gaussian_analytic", 1.0, 1e-6) == pytest.approx(4.2247, abs=1e-3)
    assert sd("gaussian_analytic", 2.0, 1e-5) == pytest.approx(1.9938, abs=1e-3)
    assert sd("laplace", 1.0, 1e-5) == pytest.approx(math.sqrt(2))  # Lap(Δ1/ε) has sd √2·b
    assert "pure" in nt.calibrate("laplace", 4, 100, 1.0, 1e-6, 1.0).guarantee
    assert "zCDP" in nt.calibrate("zcdp_gaussian", 4, 100, 1.0, 1e-6, 1.0).guarantee
    with pytest.raises(ValueError, match="epsilon"):
        nt.calibrate("gaussian_classical", 4, 100, 1.5, 1e-6, 1.0)


def test_clip_radius_formula_and_its_probability_claim():
    assert nt.clip_radius(16, 1000, 0.1) == pytest.approx(4 + math.sqrt(2 * math.log(1e4)))
    rng = np.random.default_rng(5)
    d, n, trials = 16, 1000, 300
    center = rng.normal(size=d)
    radius = nt.clip_radius(d, n, 0.1)
    data = center + rng.standard_normal((trials, n, d))
    any_clipped = np.any(np.linalg.norm(data - center, axis=2) > radius, axis=1)
    assert any_clipped.mean() <= 0.1  # P[some point is clipped] <= β (in fact far below)


# ------------------------------------------------------------------------------------ expected error
def test_expected_error_formula():
    d, n, epsilon, delta = 32, 5000, 0.7, 1e-7
    assert nt.expected_error("non_private", d, n, epsilon, delta) == pytest.approx(math.sqrt(d / n))
    radius = nt.clip_radius(d, n)
    for mechanism in nt.MECHANISMS:
        noise = nt.calibrate(mechanism, d, n, epsilon, delta, radius).rmse
        assert nt.expected_error(mechanism, d, n, epsilon, delta) == pytest.approx(math.sqrt(d / n + noise**2))


@pytest.mark.parametrize("dimension, n, epsilon, trials", [
    (1, 100, 0.1, 20_000), (4, 300, 0.05, 20_000), (16, 1000, 1.0, 20_000), (256, 10_000, 0.5, 4000),
])
def test_expected_error_matches_the_monte_carlo_rmse(dimension, n, epsilon, trials):
    result = lesson.error_sweep(np.array([n]), np.array([dimension]), np.array([epsilon]), 1e-6, trials, seed=3)
    for m, method in enumerate(result.methods):
        simulated = result.rmse[m].item()
        assert simulated == pytest.approx(nt.expected_error(method, dimension, n, epsilon, 1e-6), rel=0.03), method


# ------------------------------------------------------------------------------------ private_mean
def test_private_mean_clips_before_averaging():
    rng = np.random.default_rng(6)
    center = np.array([1.0, -2.0, 0.5])
    points = center + rng.standard_normal((50, 3))
    points[0] = center + [100.0, 0.0, 0.0]  # far outside the ball of radius 4
    clipped_mean = clip_to_ball(points, 4.0, center).mean(axis=0)
    assert abs(clipped_mean[0] - points.mean(axis=0)[0]) > 1.5  # the far point was pulled in
    for mechanism in ("laplace", "zcdp_gaussian"):  # noise → 0 as ε → ∞
        release = nt.private_mean(points, 1e12, 1e-6, mechanism, 4.0, center, rng=1)
        np.testing.assert_allclose(release, clipped_mean, rtol=0, atol=1e-9)


def test_private_mean_shapes_and_seeded_reproducibility():
    rng = np.random.default_rng(7)
    one, many = rng.normal(size=(20, 5)), rng.normal(size=(8, 20, 5))
    for mechanism in nt.MECHANISMS:
        assert nt.private_mean(one, 0.5, 1e-6, mechanism, 3.0, rng=0).shape == (5,)
        batch = nt.private_mean(many, 0.5, 1e-6, mechanism, 3.0, rng=0)
        assert batch.shape == (8, 5)
        np.testing.assert_array_equal(batch, nt.private_mean(many, 0.5, 1e-6, mechanism, 3.0, rng=0))
        assert not np.array_equal(batch, nt.private_mean(many, 0.5, 1e-6, mechanism, 3.0, rng=1))
    with pytest.raises(ValueError, match="points"):
        nt.private_mean(np.zeros((1, 3)), 1.0, 1e-6, "laplace", 1.0)


@pytest.mark.parametrize("mechanism", nt.MECHANISMS)
def test_repeated_releases_spread_is_the_calibrated_noise(mechanism):
    rng = np.random.default_rng(8)
    points = rng.normal(size=(200, 2)) * 2.0
    releases = nt.repeated_releases(points, 0.8, 1e-6, mechanism, 3.0, 50_000, rng=9)
    assert releases.shape == (50_000, 2)
    calibration = nt.calibrate(mechanism, 2, 200, 0.8, 1e-6, 3.0)
    np.testing.assert_allclose(releases.std(axis=0), calibration.coordinate_sd, rtol=0.03)
    np.testing.assert_allclose(releases.mean(axis=0), clip_to_ball(points, 3.0).mean(axis=0),
                               atol=5 * calibration.coordinate_sd / math.sqrt(50_000))


# ------------------------------------------------------------------------------------ end-to-end audits
DRAWS = 10**6
N_POINTS, RADIUS = 4, 1.5
# Neighbours: the first point moves from far left to far right. Clipping puts it at -C and +C, so the clipped
# means differ by exactly Δ2 = 2C/n; without clipping they would differ by 20C/n (the audit would catch that).
DATASET = np.array([[-5 * RADIUS], [0.3], [-0.2], [0.1]])
NEIGHBOUR = np.array([[5 * RADIUS], [0.3], [-0.2], [0.1]])


def audit_private_mean(mechanism, epsilon, delta, audit_delta):
    """Audit bounds of private_mean as calibrated and with its noise halved (same draws), on the neighbours."""
    means = [clip_to_ball(x, RADIUS).mean() for x in (DATASET, NEIGHBOUR)]
    assert means[1] - means[0] == pytest.approx(2 * RADIUS / N_POINTS)
    releases = [nt.private_mean(np.broadcast_to(x, (DRAWS, N_POINTS, 1)), epsilon, delta, mechanism, RADIUS,
                                rng=seed)[:, 0] for x, seed in ((DATASET, 1), (NEIGHBOUR, 2))]
    sd = nt.calibrate(mechanism, 1, N_POINTS, epsilon, delta, RADIUS).coordinate_sd
    thresholds = np.mean(means) + sd * np.linspace(-8.0, 8.0, 161)
    bounds = []
    for factor in (1.0, 0.5):
        noisy = [mean + factor * (release - mean) for mean, release in zip(means, releases)]
        counts = [audit.threshold_counts(y, thresholds) for y in noisy]
        bounds.append(audit.epsilon_lower_bound(*counts, DRAWS, audit_delta).epsilon_lower_bound)
    return bounds


def test_gaussian_audit_at_a_point_of_its_privacy_profile():
    """σ = 2Δ2: read δ = δ_N(1; σ) off the profile (§0.3: 0.00683); private_mean at (1, δ) uses that very σ."""
    epsilon, sigma = 1.0, 2.0
    delta = lesson.privacy_profiles(np.array([epsilon]), 1.0 / sigma)["gaussian_analytic"][0]
    assert delta == pytest.approx(0.00683, rel=1e-3)
    sensitivity = 2 * RADIUS / N_POINTS
    assert nt.calibrate("gaussian_analytic", 1, N_POINTS, epsilon, delta, RADIUS).coordinate_sd == pytest.approx(
        sigma * sensitivity, rel=1e-9)
    correct, halved = audit_private_mean("gaussian_analytic", epsilon, delta, delta)
    assert 0.8 * epsilon < correct <= epsilon  # passes, and the audit has power
    assert halved > 1.5 * epsilon  # σ halved is caught
    assert halved <= accounting.gaussian_epsilon(2.0 / sigma, delta)  # ... and not beyond its true ε (audit sound)


def test_laplace_audit_pure():
    epsilon = 1.0
    correct, halved = audit_private_mean("laplace", epsilon, 1e-6, 0.0)  # δ is unused by Laplace: audit at δ = 0
    assert 0.9 * epsilon < correct <= epsilon
    assert halved > 1.5 * epsilon


def test_zcdp_gaussian_audit_at_its_converted_guarantee():
    epsilon, delta = 1.0, 1e-3
    claimed = accounting.zcdp_to_approx(epsilon**2 / 2, delta)  # 4.217
    correct, halved = audit_private_mean("zcdp_gaussian", epsilon, 0.5, delta)  # its δ argument is unused
    exact = accounting.gaussian_epsilon(epsilon, delta)  # σ = Δ2/ε is the Gaussian with μ = ε: its exact ε, 3.139
    assert 0.8 * exact < correct <= exact <= claimed
    assert halved > claimed


def test_release_means_rejects_another_mechanisms_calibration():
    calibration = nt.calibrate("laplace", 2, 100, 1.0, 1e-6, 3.0)
    with pytest.raises(ValueError, match="calibration"):
        nt.release_means("zcdp_gaussian", np.zeros((3, 2)), calibration, 1.0, 1e-6, rng=0)
