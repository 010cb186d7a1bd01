"""Privacy profiles, conversions and composition against known values and their definitions."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, optimize, stats

from dpcore import accounting
from dpcore.core.validation import InvalidParameterError

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
    "epsilon_for_error": dict(error=10.0, sensitivity=1.0, confidence=0.95, mechanism="gaussian", delta=1e-6),
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


# ------------------------------------------------------------------------------------- from an accuracy to an ε
ERRORS, SENSITIVITIES, CONFIDENCES = (0.5, 3.0, 10.0, 200.0), (0.12, 1.0, 2.5), (0.5, 0.9, 0.95, 0.999)


@pytest.mark.parametrize("error", ERRORS)
@pytest.mark.parametrize("sensitivity", SENSITIVITIES)
@pytest.mark.parametrize("confidence", CONFIDENCES)
def test_epsilon_for_error_laplace_is_the_inverse_of_the_laplace_tail(error, sensitivity, confidence):
    """P(|Lap(b)| ≤ t) = 1 − e^{−t/b} = c gives b = t/ln(1/(1−c)) and ε = Δ/b; with δ > 0 the ε at which that noise's
    exact profile (laplace_delta) is δ: ε0 + 2 ln(1 − δ), at least 0."""
    epsilon0 = sensitivity * math.log(1.0 / (1.0 - confidence)) / error
    assert accounting.epsilon_for_error(error, sensitivity, confidence) == pytest.approx(epsilon0, rel=1e-9)
    scale = error / math.log(1.0 / (1.0 - confidence))
    assert stats.laplace.cdf(error, scale=scale) - stats.laplace.cdf(-error, scale=scale) == pytest.approx(confidence)
    for delta in (1e-9, 1e-6, 0.01, 0.3):
        epsilon = accounting.epsilon_for_error(error, sensitivity, confidence, "laplace", delta)
        assert epsilon == pytest.approx(max(0.0, epsilon0 + 2 * math.log(1 - delta)), rel=1e-9, abs=1e-15)
        if epsilon > 0:
            assert accounting.laplace_delta(epsilon, scale=sensitivity / epsilon0, sensitivity=sensitivity) == \
                pytest.approx(delta, rel=1e-9)
        else:  # the noise is already (0, δ)-DP: its total variation is at most δ
            assert accounting.laplace_delta(0.0, scale=sensitivity / epsilon0, sensitivity=sensitivity) <= delta


def gaussian_epsilon_for_error_exact(error, sensitivity, confidence, delta):
    """The test oracle, in 30-digit arithmetic: σ = t/Φ⁻¹((1+c)/2) (Φ⁻¹((1+c)/2) = √2 erfinv(c)), then the root in ε of
    Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ) = δ by bisection (the profile decreases in ε); 0 if δ(0) ≤ δ already."""
    with mpmath.workdps(30):
        sigma = mpmath.mpf(error) / (mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf(confidence)))
        ratio = mpmath.mpf(sensitivity) / sigma

        def excess(epsilon):
            a, b = ratio / 2 - epsilon / ratio, -ratio / 2 - epsilon / ratio
            return mpmath.ncdf(a) - mpmath.exp(epsilon) * mpmath.ncdf(b) - mpmath.mpf(delta)

        if excess(mpmath.mpf(0)) <= 0:
            return 0.0
        low, high = mpmath.mpf(0), mpmath.mpf(1)
        while excess(high) > 0:
            low, high = high, 2 * high
        for _ in range(80):  # high < 2ε + 1, so the bracket ends below 1e-22 (1 + 2ε) wide
            middle = (low + high) / 2
            low, high = (middle, high) if excess(middle) > 0 else (low, middle)
        return float((low + high) / 2)


@pytest.mark.parametrize("error", ERRORS)
@pytest.mark.parametrize("sensitivity", SENSITIVITIES)
@pytest.mark.parametrize("confidence", CONFIDENCES)
def test_epsilon_for_error_gaussian_is_the_analytic_gaussian_at_the_normal_width(error, sensitivity, confidence):
    for delta in (1e-10, 1e-6, 1e-2):
        expected = gaussian_epsilon_for_error_exact(error, sensitivity, confidence, delta)
        got = accounting.epsilon_for_error(error, sensitivity, confidence, "gaussian", delta)
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_epsilon_for_error_known_values():
    assert accounting.epsilon_for_error(10.0) == pytest.approx(math.log(20) / 10, rel=1e-12)  # 0.2996
    assert accounting.epsilon_for_error(1.0, sensitivity=0.12) == pytest.approx(0.12 * math.log(20), rel=1e-12)
    # σ = 10/1.959964 = 5.1021, μ = 0.19600 at δ = 1e-6
    assert accounting.epsilon_for_error(10.0, mechanism="gaussian", delta=1e-6) == pytest.approx(0.8162, abs=1e-4)


_ERROR_FOR_EPSILON = settings(max_examples=40, deadline=None)
_MECHANISM_AND_DELTA = st.sampled_from([("laplace", 0.0), ("laplace", 1e-6), ("laplace", 0.05), ("gaussian", 1e-9),
                                        ("gaussian", 1e-5), ("gaussian", 0.05)])


@_ERROR_FOR_EPSILON
@given(error=st.floats(0.01, 1e3), factor=st.floats(1.01, 10.0), sensitivity=st.floats(0.01, 10.0),
       confidence=st.floats(0.5, 0.999), mechanism_and_delta=_MECHANISM_AND_DELTA)
def test_epsilon_for_error_decreases_as_the_target_widens(error, factor, sensitivity, confidence, mechanism_and_delta):
    mechanism, delta = mechanism_and_delta
    narrow = accounting.epsilon_for_error(error, sensitivity, confidence, mechanism, delta)
    wide = accounting.epsilon_for_error(error * factor, sensitivity, confidence, mechanism, delta)
    assert wide < narrow if narrow > 0 else wide == 0.0


@_ERROR_FOR_EPSILON
@given(error=st.floats(0.01, 1e3), share=st.floats(0.01, 0.99), sensitivity=st.floats(0.01, 10.0),
       confidence=st.floats(0.5, 0.99), mechanism_and_delta=_MECHANISM_AND_DELTA)
def test_epsilon_for_error_grows_with_the_confidence(error, share, sensitivity, confidence, mechanism_and_delta):
    mechanism, delta = mechanism_and_delta
    higher = confidence + share * (1 - confidence)  # strictly between c and 1
    low = accounting.epsilon_for_error(error, sensitivity, confidence, mechanism, delta)
    high = accounting.epsilon_for_error(error, sensitivity, higher, mechanism, delta)
    assert high > low if high > 0 else low == 0.0


@pytest.mark.parametrize("arguments, name", [
    (dict(error=0.0), "error"), (dict(error=-1.0), "error"), (dict(error=math.nan), "error"),
    (dict(error=math.inf), "error"), (dict(sensitivity=0.0), "sensitivity"),
    (dict(sensitivity=math.nan), "sensitivity"),
    (dict(confidence=0.0), "confidence"), (dict(confidence=1.0), "confidence"), (dict(confidence=1.5), "confidence"),
    (dict(confidence=-0.2), "confidence"), (dict(confidence=math.nan), "confidence"),
    (dict(mechanism="cauchy"), "mechanism"), (dict(mechanism="Gaussian", delta=1e-6), "mechanism"),
    (dict(mechanism="gaussian"), "delta"), (dict(mechanism="gaussian", delta=0.0), "delta"),
    (dict(mechanism="gaussian", delta=1.0), "delta"), (dict(delta=1.0), "delta"), (dict(delta=2.0), "delta"),
    (dict(delta=-1e-6), "delta"), (dict(mechanism="gaussian", delta=math.nan), "delta"),
])
def test_epsilon_for_error_rejects_bad_input_naming_the_parameter(arguments, name):
    with pytest.raises(InvalidParameterError, match=name):
        accounting.epsilon_for_error(**{"error": 10.0, **arguments})
