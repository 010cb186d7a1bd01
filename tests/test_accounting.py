"""Privacy profiles, conversions and composition against known values and their definitions."""

import math

import numpy as np
import pytest
from scipy import integrate, optimize, stats

from dpcore import accounting

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "laplace_delta": dict(epsilon=0.5, scale=1.0, sensitivity=1.0),
    "gaussian_delta": dict(epsilon=0.5, sigma=2.0, l2_sensitivity=1.0),
    "gaussian_mu": dict(epsilon=1.0, delta=1e-5),
    "gaussian_epsilon": dict(mu=1.0, delta=1e-5),
    "pure_to_zcdp": dict(epsilon=1.0),
    "zcdp_to_approx": dict(rho=0.5, delta=1e-6),
    "zcdp_to_approx_optimal": dict(rho=0.5, delta=1e-6),
    "approx_to_zcdp": dict(epsilon=1.0, delta=1e-6),
    "gaussian_zcdp": dict(sigma=2.0, l2_sensitivity=1.0),
    "basic_composition": dict(epsilon=0.1, delta=0.0, releases=10),
    "advanced_composition": dict(epsilon=0.1, delta=0.0, releases=10, delta_prime=1e-6),
    "zcdp_composition": dict(rho=0.1, releases=10),
    "gaussian_composition": dict(mu=0.1, releases=10),
    "laplace_tradeoff": dict(alpha=np.array([0.1, 0.5]), epsilon=1.0),
    "gaussian_tradeoff": dict(alpha=np.array([0.1, 0.5]), mu=1.0),
    "dp_tradeoff": dict(alpha=np.array([0.1, 0.5]), epsilon=1.0, delta=1e-6),
}


def hockey_stick(density_p, density_q, epsilon, lower, upper):
    """∫ (p − e^ε q)_+ by quadrature, split where the integrand changes sign (the test oracle)."""
    def excess(x):
        return density_p(x) - math.exp(epsilon) * density_q(x)

    grid = np.linspace(lower, upper, 4001)
    positive = excess(grid) > 0
    crossings = [optimize.brentq(excess, grid[i], grid[i + 1], xtol=1e-15)
                 for i in np.flatnonzero(positive[:-1] != positive[1:])]
    edges = [lower, *crossings, upper]
    total = 0.0
    for a, b in zip(edges[:-1], edges[1:]):
        if excess((a + b) / 2) > 0:
            piece, _ = integrate.quad(excess, a, b, limit=200, epsabs=1e-15, epsrel=1e-12)
            total += piece
    return total


@pytest.mark.parametrize("epsilon, expected", [(0.0, 0.393469), (0.3, 0.295312), (0.7, 0.139292), (1.0, 0.0)])
def test_laplace_profile_known_values(epsilon, expected):
    assert accounting.laplace_delta(epsilon, scale=1.0) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("epsilon, expected", [(0.0, 0.197413), (0.5, 0.05244), (1.0, 0.00683)])
def test_gaussian_profile_known_values(epsilon, expected):
    assert accounting.gaussian_delta(epsilon, sigma=2.0) == pytest.approx(expected, rel=1e-3)


@pytest.mark.parametrize("scale, sensitivity", [(1.0, 1.0), (0.5, 1.0), (2.0, 3.0)])
@pytest.mark.parametrize("epsilon", [0.0, 0.1, 0.4, 0.9, 1.5])
def test_laplace_profile_equals_hockey_stick_integral(scale, sensitivity, epsilon):
    p = stats.laplace(loc=0.0, scale=scale).pdf
    q = stats.laplace(loc=sensitivity, scale=scale).pdf
    numeric = hockey_stick(p, q, epsilon, -30 * scale, 30 * scale + sensitivity)
    closed = accounting.laplace_delta(epsilon, scale, sensitivity)
    assert closed == pytest.approx(numeric, rel=1e-6, abs=1e-12)


@pytest.mark.parametrize("sigma, sensitivity", [(2.0, 1.0), (0.7, 1.0), (3.7306, 1.0), (5.0, 2.0)])
@pytest.mark.parametrize("epsilon", [0.0, 0.25, 1.0, 2.0, 4.0])
def test_gaussian_profile_equals_hockey_stick_integral(sigma, sensitivity, epsilon):
    p = stats.norm(loc=sensitivity, scale=sigma).pdf
    q = stats.norm(loc=0.0, scale=sigma).pdf
    numeric = hockey_stick(p, q, epsilon, -15 * sigma, 15 * sigma + sensitivity)
    closed = accounting.gaussian_delta(epsilon, sigma, sensitivity)
    assert closed == pytest.approx(numeric, rel=1e-6, abs=1e-14)


def test_gaussian_profile_is_never_zero_and_decreases():
    values = [accounting.gaussian_delta(eps, sigma=1.0) for eps in (0.5, 2, 8, 20)]
    assert all(v > 0 for v in values)
    assert values == sorted(values, reverse=True)


def test_gaussian_mu_inverts_the_profile():
    mu = accounting.gaussian_mu(1.0, 1e-5)
    assert accounting.gaussian_delta(1.0, sigma=1.0 / mu) == pytest.approx(1e-5, rel=1e-8)
    assert 1.0 / mu == pytest.approx(3.7306, abs=1e-4)


def test_gaussian_epsilon_inverts_the_profile():
    epsilon = accounting.gaussian_epsilon(1.0, 1e-6)
    assert epsilon == pytest.approx(4.8866, abs=1e-4)
    assert accounting.gaussian_delta(epsilon, sigma=1.0) == pytest.approx(1e-6, rel=1e-8)


def test_zcdp_conversions_known_values():
    assert accounting.pure_to_zcdp(1.0) == 0.5
    assert accounting.zcdp_to_approx(0.5, 1e-6) == pytest.approx(5.7565, abs=1e-4)
    assert accounting.zcdp_to_approx_optimal(0.5, 1e-6) == pytest.approx(5.2215, abs=1e-3)
    assert accounting.approx_to_zcdp(1.0, 1e-6) == pytest.approx(0.017469, abs=1e-6)
    assert accounting.gaussian_zcdp(sigma=2.0, l2_sensitivity=1.0) == 0.125


def test_optimal_conversion_matches_its_definition():
    rho, delta = 0.3, 1e-5
    epsilon = accounting.zcdp_to_approx_optimal(rho, delta)

    def delta_of(eps):
        def log_bound(alpha):
            return (alpha - 1) * (alpha * rho - eps) - math.log(alpha) + (alpha - 1) * math.log1p(-1 / alpha)
        return math.exp(optimize.minimize_scalar(log_bound, bounds=(1 + 1e-9, 200), method="bounded").fun)

    assert delta_of(epsilon) == pytest.approx(delta, rel=1e-3)
    assert epsilon < accounting.zcdp_to_approx(rho, delta)


def test_approx_to_zcdp_round_trips_through_the_simple_conversion():
    rho = accounting.approx_to_zcdp(2.0, 1e-7)
    assert accounting.zcdp_to_approx(rho, 1e-7) == pytest.approx(2.0, rel=1e-12)


def test_composition_known_values():
    # docs/algorithms.md §0.5, §2.4: k = 100, eps0 = 0.1, delta' = 1e-6
    assert accounting.basic_composition(0.1, 0.0, 100) == pytest.approx((10.0, 0.0))
    assert accounting.advanced_composition(0.1, 0.0, 100, 1e-6)[0] == pytest.approx(6.3082, abs=1e-4)
    rho = accounting.zcdp_composition(accounting.pure_to_zcdp(0.1), 100)
    assert accounting.zcdp_to_approx(rho, 1e-6) == pytest.approx(5.7565, abs=1e-4)
    mu = accounting.gaussian_composition(0.1, 100)
    assert accounting.gaussian_epsilon(mu, 1e-6) == pytest.approx(4.8866, abs=1e-4)


def test_advanced_composition_matches_its_formula():
    eps0, k, delta0, delta_prime = 0.05, 400, 1e-8, 1e-6
    expected = eps0 * math.sqrt(2 * k * math.log(1 / delta_prime)) + k * eps0 * (math.exp(eps0) - 1)
    assert accounting.advanced_composition(eps0, delta0, k, delta_prime) == pytest.approx((expected, k * delta0 + 1e-6))


def test_exact_gaussian_composition_equals_one_gaussian_with_summed_variance_in_mu():
    # k releases of sigma each compose to one release with sigma / sqrt(k): check via the profiles
    sigma, k = 4.0, 9
    mu = accounting.gaussian_composition(1.0 / sigma, k)
    assert accounting.gaussian_delta(1.0, sigma / math.sqrt(k)) == pytest.approx(
        accounting.gaussian_delta(1.0, 1.0 / mu), rel=1e-12)


def test_advanced_beats_basic_only_for_enough_releases():
    eps0, delta_prime = 0.1, 1e-6
    totals = {k: (accounting.basic_composition(eps0, 0.0, k)[0],
                  accounting.advanced_composition(eps0, 0.0, k, delta_prime)[0]) for k in (1, 10, 100, 1000)}
    assert totals[1][1] > totals[1][0]       # one release: advanced is worse
    assert totals[1000][1] < totals[1000][0] / 3


# ------------------------------------------------------------------------------------------- trade-off functions
def test_laplace_tradeoff_is_the_neyman_pearson_curve_of_laplace_noise():
    """Every threshold test 'output > t' of Lap(0, 1) against Lap(ε, 1), computed with scipy, lies on the curve (the
    likelihood ratio is monotone, so these tests are the most powerful)."""
    from scipy import stats

    for epsilon in (0.1, 1.0, 4.0):
        t = np.linspace(-10, 12, 801)
        alpha, beta = stats.laplace.sf(t), stats.laplace.cdf(t, loc=epsilon)
        np.testing.assert_allclose(accounting.laplace_tradeoff(alpha, epsilon), beta, atol=1e-14)


def test_gaussian_tradeoff_is_the_test_of_two_unit_normals():
    from scipy import stats

    t = np.linspace(-6, 8, 401)
    np.testing.assert_allclose(accounting.gaussian_tradeoff(stats.norm.sf(t), 1.5), stats.norm.cdf(t, loc=1.5),
                               atol=1e-14)


def test_tradeoff_functions_are_symmetric_and_span_the_square():
    alpha = np.linspace(0, 1, 1001)
    for curve in (accounting.laplace_tradeoff(alpha, 1.0), accounting.gaussian_tradeoff(alpha, 1.0)):
        assert curve[0] == pytest.approx(1.0) and curve[-1] == pytest.approx(0.0, abs=1e-15)
        assert np.all(np.diff(curve) <= 1e-15)  # non-increasing
    laplace = lambda a: accounting.laplace_tradeoff(a, 1.0)  # noqa: E731
    np.testing.assert_allclose(laplace(laplace(alpha)), alpha, atol=1e-12)  # f = f⁻¹ for a symmetric mechanism


@pytest.mark.parametrize("epsilon, delta", [(0.1, 1e-12), (1.0, 1e-6), (4.0, 1e-3)])
def test_the_calibrated_gaussian_sits_in_its_dp_region_and_needs_its_delta(epsilon, delta):
    """A mechanism is (ε, δ)-DP iff its curve lies above f_{ε,δ}: the analytic Gaussian does (up to rounding), falls
    below the pure-ε line (by at most δ), and Laplace at ε lies above the pure line and touches it."""
    alpha = np.r_[np.geomspace(1e-14, 1e-3, 200), np.linspace(0, 1, 2001)]
    gaussian = accounting.gaussian_tradeoff(alpha, accounting.gaussian_mu(epsilon, delta))
    assert np.min(gaussian - accounting.dp_tradeoff(alpha, epsilon, delta)) >= -1e-12
    dip = np.min(gaussian - accounting.dp_tradeoff(alpha, epsilon))
    assert -delta - 1e-12 <= dip < 0
    laplace = accounting.laplace_tradeoff(alpha, epsilon) - accounting.dp_tradeoff(alpha, epsilon)
    assert np.min(laplace) >= -1e-12 and np.min(np.abs(laplace)) < 1e-12


def test_dp_tradeoff_known_values():
    np.testing.assert_allclose(accounting.dp_tradeoff([0.0, 0.25, 0.5, 1.0], np.log(2), 0.0),
                               [1.0, 0.5, 0.25, 0.0])
