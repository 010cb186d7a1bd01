"""Theory overlays: known values, exact slopes, and agreement with direct simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpcore import theory
from dpcore.experiments import fit_power_law
from dpcore.mechanisms import exponential, gaussian_sigma

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "nonprivate_mean_error": dict(n=100, sd=1.0, statistic="median"),
    "laplace_mean_error": dict(n=100, epsilon=1.0, width=6.0, statistic="median"),
    "gaussian_mean_error": dict(n=100, epsilon=1.0, delta=1e-5, l2_width=2.0, dimension=2, statistic="rmse"),
    "heavy_tailed_rate": dict(n=100, epsilon=1.0, moment_k=3, constant=1.0),
    "clipped_mean_private_error": dict(n=100, epsilon=1.0, moment_k=3, moment_bound=1.0),
    "clipped_mean_optimal_radius": dict(n=100, epsilon=1.0, moment_k=3, moment_bound=1.0),
    "exponential_mechanism_loss_bound": dict(candidates=10, epsilon=1.0, sensitivity=1.0, t=1.0),
}


RNG = np.random.default_rng(2024)


def test_nonprivate_mean_error_known_values():
    assert theory.nonprivate_mean_error(100) == pytest.approx(0.6744897501960817 / 10, rel=1e-12)
    assert theory.nonprivate_mean_error(400, sd=3.0, statistic="rmse") == pytest.approx(0.15, rel=1e-12)
    values = theory.nonprivate_mean_error(np.array([1.0, 4.0, 16.0]))
    np.testing.assert_allclose(values, theory.HALF_NORMAL_MEDIAN * np.array([1.0, 0.5, 0.25]), rtol=1e-12)
    assert isinstance(theory.nonprivate_mean_error(25), float)


def test_laplace_mean_error_matches_laplace_draws():
    n, epsilon, width = 200, 0.5, 6.0
    scale = width / (epsilon * n)
    assert theory.laplace_mean_error(n, epsilon, width) == pytest.approx(scale * math.log(2), rel=1e-12)
    assert theory.laplace_mean_error(n, epsilon, width, "rmse") == pytest.approx(scale * math.sqrt(2), rel=1e-12)
    draws = RNG.laplace(0.0, scale, 400_000)
    assert np.median(np.abs(draws)) == pytest.approx(theory.laplace_mean_error(n, epsilon, width), rel=0.01)
    assert np.sqrt(np.mean(draws**2)) == pytest.approx(theory.laplace_mean_error(n, epsilon, width, "rmse"), rel=0.01)


def test_laplace_mean_error_broadcasts_n_against_epsilon():
    grid = theory.laplace_mean_error(np.array([[100.0], [1000.0]]), np.array([0.5, 1.0, 2.0]), 2.0, "rmse")
    assert grid.shape == (2, 3)
    np.testing.assert_allclose(grid[1], grid[0] / 10, rtol=1e-12)
    np.testing.assert_allclose(grid[:, 2], grid[:, 1] / 2, rtol=1e-12)


def test_gaussian_mean_error_uses_analytic_sigma():
    sigma = gaussian_sigma(4.0 / 50, 1.0, 1e-5)
    assert theory.gaussian_mean_error(50, 1.0, 1e-5, l2_width=4.0) == pytest.approx(sigma, rel=1e-12)
    assert theory.gaussian_mean_error(50, 1.0, 1e-5, 4.0, dimension=9) == pytest.approx(3 * sigma, rel=1e-12)
    assert theory.gaussian_mean_error(50, 1.0, 1e-5, 4.0, statistic="median") == pytest.approx(
        theory.HALF_NORMAL_MEDIAN * sigma, rel=1e-9)
    # reference value of docs/algorithms.md §0.2: sigma = 3.7306 for Delta_2 = 1 at (1, 1e-5)
    assert theory.gaussian_mean_error(10, 1.0, 1e-5, 10.0) == pytest.approx(3.7306, abs=1e-4)


def test_gaussian_median_norm_matches_simulation_in_five_dimensions():
    sigma = gaussian_sigma(1.0, 0.5, 1e-6)
    norms = np.linalg.norm(RNG.normal(0.0, sigma, size=(200_000, 5)), axis=1)
    expected = theory.gaussian_mean_error(1, 0.5, 1e-6, 1.0, dimension=5, statistic="median")
    assert np.median(norms) == pytest.approx(expected, rel=0.01)


def test_gaussian_mean_error_vectorised_over_epsilon():
    epsilons = np.array([0.1, 0.5, 1.0, 2.0])
    values = theory.gaussian_mean_error(100, epsilons, 1e-6, 2.0)
    expected = [gaussian_sigma(2.0 / 100, e, 1e-6) for e in epsilons]
    np.testing.assert_allclose(values, expected, rtol=1e-12)


def test_heavy_tailed_rate_special_cases():
    n = np.array([10.0, 100.0, 1e4])
    np.testing.assert_allclose(theory.heavy_tailed_rate(n, 2.0, math.inf), 1 / np.sqrt(n) + 1 / (2 * n), rtol=1e-12)
    np.testing.assert_allclose(theory.heavy_tailed_rate(n, 1.0, 2, constant=3.0), 6 / np.sqrt(n), rtol=1e-12)
    assert theory.heavy_tailed_rate(1e6, 1.0, 4) == pytest.approx(1e-3 + 1e-6 ** 0.75, rel=1e-12)


def test_heavy_tailed_rate_slope_goes_from_private_to_sampling_term():
    small_epsilon_n = np.logspace(1, 2, 5)  # epsilon n tiny: the private term dominates
    slope_private, _ = fit_power_law(small_epsilon_n, theory.heavy_tailed_rate(small_epsilon_n, 1e-4, 3))
    large_n = np.logspace(10, 11, 5)  # the sampling term dominates
    slope_sampling, _ = fit_power_law(large_n, theory.heavy_tailed_rate(large_n, 1.0, 3))
    assert slope_private == pytest.approx(-2 / 3, abs=0.01)
    assert slope_sampling == pytest.approx(-0.5, abs=0.01)


@pytest.mark.parametrize("moment_k", [1.5, 2, 3, 4, 6, 50])
def test_clipped_mean_private_error_has_exact_slope(moment_k):
    n = np.logspace(2, 6, 9)
    slope, _ = fit_power_law(n, theory.clipped_mean_private_error(n, 0.7, moment_k, moment_bound=2.0))
    assert slope == pytest.approx(-(moment_k - 1) / moment_k, abs=1e-12)
    radius_slope, _ = fit_power_law(n, theory.clipped_mean_optimal_radius(n, 0.7, moment_k, moment_bound=2.0))
    assert radius_slope == pytest.approx(1 / moment_k, abs=1e-12)


@pytest.mark.parametrize("moment_k, moment_bound", [(2, 1.0), (3, 1.0), (3, 5.0), (6, 0.2)])
def test_clipped_mean_optimum_minimises_bias_plus_noise(moment_k, moment_bound):
    n, epsilon = 5000, 0.8
    a_k = (moment_k - 1) ** (moment_k - 1) / moment_k**moment_k
    noise = 2 * math.sqrt(2) / (epsilon * n)

    def objective(t):
        return a_k * moment_bound * t ** -(moment_k - 1) + noise * t

    t_star = theory.clipped_mean_optimal_radius(n, epsilon, moment_k, moment_bound)
    value = theory.clipped_mean_private_error(n, epsilon, moment_k, moment_bound)
    assert value == pytest.approx(objective(t_star), rel=1e-12)
    radii = t_star * np.linspace(0.5, 2.0, 301)
    assert value <= objective(radii).min() * (1 + 1e-12)
    assert radii[np.argmin(objective(radii))] == pytest.approx(t_star, rel=0.01)


def test_clipped_mean_known_values_and_dependence_on_epsilon_n():
    # k = 2: A_2 = 1/4, E = sqrt(B), t* = sqrt(1/(4B)) with B = 2 sqrt2 / (eps n)
    b = 2 * math.sqrt(2) / 1e4
    assert theory.clipped_mean_private_error(1e4, 1.0, 2) == pytest.approx(math.sqrt(b), rel=1e-12)
    assert theory.clipped_mean_optimal_radius(1e4, 1.0, 2) == pytest.approx(math.sqrt(0.25 / b), rel=1e-12)
    # k = 3: A_3 = 4/27, E = 3/2 (8/27)^(1/3) B^(2/3) = B^(2/3)
    assert theory.clipped_mean_private_error(1e4, 1.0, 3) == pytest.approx(b ** (2 / 3), rel=1e-12)
    assert theory.clipped_mean_private_error(500, 2.0, 3) == pytest.approx(
        theory.clipped_mean_private_error(1000, 1.0, 3), rel=1e-12)


def test_exponential_mechanism_loss_bound_values():
    assert theory.exponential_mechanism_loss_bound(100, 1.0, t=0.0) == pytest.approx(2 * math.log(100), rel=1e-12)
    assert theory.exponential_mechanism_loss_bound(10, 0.5, sensitivity=3.0) == pytest.approx(
        12 * (math.log(10) + math.log(10)), rel=1e-12)
    assert theory.exponential_mechanism_loss_bound(10, 0.5, 3.0, monotonic=True) == pytest.approx(
        theory.exponential_mechanism_loss_bound(10, 0.5, 3.0) / 2, rel=1e-12)
    np.testing.assert_allclose(theory.exponential_mechanism_loss_bound(np.array([1, math.e]), 2.0, t=1.0), [1, 2])


@pytest.mark.parametrize("monotonic", [False, True])
def test_exponential_mechanism_loss_bound_is_nearly_tight(monotonic):
    # one best candidate and 199 whose loss just exceeds the bound: they are picked with
    # probability 199 q / (1 + 199 q), q = e^{-lambda loss} < e^{-t} / 200, i.e. about 0.8 e^{-t}
    epsilon, t, k = 2.0, math.log(4.0), 200
    bound = theory.exponential_mechanism_loss_bound(k, epsilon, t=t, monotonic=monotonic)
    scores = np.concatenate([[0.0], np.full(k - 1, -1.001 * bound)])
    picks = exponential(scores, epsilon, monotonic=monotonic, rng=RNG, size=20_000)
    frequency = np.mean(scores.max() - scores[picks] > bound)
    assert 0.7 * math.exp(-t) < frequency <= math.exp(-t)


@pytest.mark.parametrize("call, message", [
    (lambda: theory.nonprivate_mean_error(0), r"n must be a real array .*within \(0"),
    (lambda: theory.nonprivate_mean_error(10, statistic="mean"),
     r"statistic must be one of 'median', 'rmse'; got 'mean'"),
    (lambda: theory.laplace_mean_error(10, 0.0, 1.0), r"epsilon must be a real array .*within \(0"),
    (lambda: theory.laplace_mean_error(10, 1.0, -2.0), r"width must be a real number > 0; got -2.0"),
    (lambda: theory.gaussian_mean_error(10, 1.0, 1.0, 2.0), r"delta must be a real number in \(0, 1\); got 1.0"),
    (lambda: theory.gaussian_mean_error(10, 1.0, 1e-5, 2.0, dimension=0), r"dimension must be an integer >= 1; got 0"),
    (lambda: theory.heavy_tailed_rate(10, 1.0, 1.5), r"moment_k must be a real number >= 2 \(or inf\); got 1.5"),
    (lambda: theory.clipped_mean_private_error(10, 1.0, 1.0), r"moment_k must be a real number > 1; got 1.0"),
    (lambda: theory.clipped_mean_optimal_radius(10, 1.0, math.inf), r"moment_k must be a real number > 1; got inf"),
    (lambda: theory.clipped_mean_optimal_radius(10, 1.0, 3, moment_bound=0), r"moment_bound must be a real number > 0"),
    (lambda: theory.exponential_mechanism_loss_bound(0.5, 1.0), r"candidates must be a real array .*within \[1"),
    (lambda: theory.exponential_mechanism_loss_bound(10, 1.0, t=-1.0), r"t must be a real number >= 0; got -1.0"),
])
def test_bad_parameters_are_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()
