"""Privacy at extreme but valid parameters: the mechanisms and the accounting keep their promise or refuse clearly.

Every function here takes ε, δ or ρ. Over ε and ρ from 1e-9 to 1e6 and δ from 1e-300 to 0.5 it must return a valid
output (finite, in range, with a noise scale whose privacy profile meets the request) or raise a ``ValueError`` naming
the parameter; never a bare arithmetic error, a NaN, an infinity or a silently weaker guarantee. The privacy profiles
are checked against an independent evaluation in 60-digit arithmetic (mpmath), not against dpcore's own formula.
"""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpcore import accounting, audit, mechanisms

mpmath.mp.dps = 60
SETTINGS = settings(max_examples=60, deadline=None)
ROUNDING = 1e-6  # relative slack for the float computation of a δ that the 60-digit one checks


def log_uniform(low: float, high: float):
    return st.floats(math.log10(low), math.log10(high)).map(lambda e: 10.0**e)


EPSILONS, RHOS, DELTAS = log_uniform(1e-9, 1e6), log_uniform(1e-9, 1e6), log_uniform(1e-300, 0.5)


def gaussian_delta_exact(epsilon: float, mu: float) -> mpmath.mpf:
    """δ(ε) of the Gaussian mechanism with μ = Δ₂/σ (Balle & Wang 2018, Thm 8), in 60-digit arithmetic."""
    eps, mu = mpmath.mpf(epsilon), mpmath.mpf(mu)
    return mpmath.ncdf(mu / 2 - eps / mu) - mpmath.exp(eps) * mpmath.ncdf(-mu / 2 - eps / mu)


# ---------------------------------------------------------------- the analytic Gaussian at tiny ε (issue: 350× δ)
@pytest.mark.parametrize("epsilon, delta", [(1e-7, 1e-9), (1e-8, 1e-10), (1e-6, 1e-12), (3e-7, 1e-8)])
def test_analytic_gaussian_meets_delta_at_tiny_epsilon(epsilon, delta):
    """These returned σ = 10⁶ before (δ(ε) up to 350× the request). Now δ(ε) ≤ δ, and the σ is tight: not inflated
    past what δ needs (δ(ε) ≥ δ/2)."""
    sigma = mechanisms.gaussian_sigma(1.0, epsilon, delta)
    achieved = gaussian_delta_exact(epsilon, 1.0 / sigma)
    assert achieved <= delta * (1 + ROUNDING)
    assert achieved >= delta / 2


@SETTINGS
@given(epsilon=EPSILONS, delta=DELTAS)
def test_analytic_gaussian_meets_any_request_or_refuses(epsilon, delta):
    try:
        sigma = mechanisms.gaussian_sigma(1.0, epsilon, delta)
    except ValueError as refused:
        assert "epsilon" in str(refused) and "delta" in str(refused)
        return
    assert math.isfinite(sigma) and sigma > 0
    assert gaussian_delta_exact(epsilon, 1.0 / sigma) <= delta * (1 + ROUNDING)


@SETTINGS
@given(epsilon=log_uniform(1e-9, 1.0), delta=DELTAS)
def test_classical_gaussian_is_never_below_the_analytic_one(epsilon, delta):
    """The classical σ = √(2 ln(1.25/δ))/ε is proved for ε < 1; it must be at least the exact (analytic) σ."""
    try:
        analytic = mechanisms.gaussian_sigma(1.0, epsilon, delta)
    except ValueError:
        return
    assert mechanisms.gaussian_sigma(1.0, epsilon, delta, calibration="classical") >= analytic * (1 - 1e-12)


def test_unrepresentable_noise_is_refused_with_a_message():
    """Far below the tested range (ε = δ = 1e-300 needs σ ≈ 4e299 × Δ): a message, not a σ of 1e280."""
    with pytest.raises(ValueError, match=r"epsilon=1e-300 with delta=1e-300 needs Gaussian noise above 1e280"):
        accounting.gaussian_mu(1e-300, 1e-300)


@SETTINGS
@given(mu=log_uniform(1e-6, 100.0), delta=DELTAS)
def test_gaussian_epsilon_meets_delta(mu, delta):
    epsilon = accounting.gaussian_epsilon(mu, delta)
    assert math.isfinite(epsilon) and epsilon >= 0
    assert gaussian_delta_exact(epsilon, mu) <= delta * (1 + ROUNDING) + 1e-300


# ---------------------------------------------------------------- zCDP -> (ε, δ) never negative (issue: −2.3e-7)
@pytest.mark.parametrize("rho", [1e-12, 1e-14])
def test_zcdp_conversion_is_never_negative(rho):
    assert accounting.zcdp_to_approx_optimal(rho, 1e-6) == 0.0


@SETTINGS
@given(rho=RHOS, delta=DELTAS)
def test_zcdp_conversions_are_valid_for_the_gaussian_mechanism(rho, delta):
    """The Gaussian mechanism with μ = √(2ρ) is ρ-zCDP, so any valid conversion's ε must satisfy its exact profile:
    δ_N(ε; μ) ≤ δ. The optimal conversion is never above the simple one, and neither is negative."""
    optimal, simple = accounting.zcdp_to_approx_optimal(rho, delta), accounting.zcdp_to_approx(rho, delta)
    assert 0 <= optimal <= simple * (1 + 1e-12) and math.isfinite(simple)
    mu = math.sqrt(2 * rho)
    assert gaussian_delta_exact(optimal, mu) <= delta * (1 + ROUNDING) + 1e-300


@SETTINGS
@given(epsilon=EPSILONS, delta=DELTAS)
def test_approx_to_zcdp_round_trips_within_the_request(epsilon, delta):
    rho = accounting.approx_to_zcdp(epsilon, delta)
    assert math.isfinite(rho) and rho >= 0
    if rho > 0:
        assert accounting.zcdp_to_approx(rho, delta) <= epsilon * (1 + 1e-9)


# ---------------------------------------------------------------- profiles and compositions
@SETTINGS
@given(epsilon=log_uniform(1e-9, 1e3), scale=log_uniform(1e-6, 1e9))
def test_laplace_profile_matches_the_exact_one(epsilon, scale):
    """δ(ε) of Laplace(b) with Δ = 1: 1 − exp((ε − 1/b)/2) below ε₀ = 1/b, else 0 (exact, 60 digits)."""
    exact = max(mpmath.mpf(0), 1 - mpmath.exp((mpmath.mpf(epsilon) - 1 / mpmath.mpf(scale)) / 2))
    cancellation = 2.0**-52 / scale  # ε − 1/b near ε₀ loses the rounding of 1/b in double precision (one ulp)
    assert accounting.laplace_delta(epsilon, scale) == pytest.approx(float(exact), rel=1e-9, abs=cancellation)


@SETTINGS
@given(epsilon=EPSILONS, delta=log_uniform(1e-300, 1e-2), releases=st.integers(1, 10_000))
def test_compositions_are_finite_and_ordered(epsilon, delta, releases):
    basic, basic_delta = accounting.basic_composition(epsilon, delta, releases)
    assert math.isfinite(basic) and basic == pytest.approx(releases * epsilon)
    if epsilon > 690:  # e^ε overflows: the bound is meaningless, and says so
        with pytest.raises(ValueError, match="epsilon="):
            accounting.advanced_composition(epsilon, 0.0, releases, delta)
    else:
        advanced, _ = accounting.advanced_composition(epsilon, 0.0, releases, delta)
        assert advanced >= 0 and math.isfinite(advanced)
    rho = accounting.zcdp_composition(accounting.pure_to_zcdp(epsilon), releases)
    assert rho == pytest.approx(releases * epsilon**2 / 2) and math.isfinite(rho) or epsilon > 1e150


# ---------------------------------------------------------------- mechanisms at both ends
@pytest.mark.parametrize("epsilon", [1e-9, 1e6])
def test_noise_mechanisms_release_finite_values_at_extreme_epsilon(epsilon):
    values = np.array([0.0, 1.0, 2.0])
    for release in (mechanisms.laplace(values, 1.0, epsilon, rng=0),
                    mechanisms.gaussian(values, 1.0, epsilon, 1e-6, rng=0),
                    mechanisms.zcdp_gaussian(values, 1.0, epsilon, rng=0),
                    mechanisms.laplace_histogram([0.1, 0.7], [0.0, 0.5, 1.0], epsilon, rng=0),
                    mechanisms.poll_histogram([3, 0, 1], epsilon, rng=0).noisy,
                    mechanisms.poll_histogram([3, 0, 1], epsilon, noise="laplace", rng=0).noisy):
        assert np.all(np.isfinite(release))
    spread = np.std(mechanisms.laplace(np.zeros(10_000), 1.0, epsilon, rng=1))
    assert spread == pytest.approx(math.sqrt(2) / epsilon, rel=0.05)  # the scale asked for: Δ/ε


@pytest.mark.parametrize("epsilon", [1e-9, 1e-3, 1.0, 700.0])
def test_exponential_mechanism_probabilities_keep_epsilon_between_neighbours(epsilon):
    """Exact check of ε-DP for the factor-2 exponential mechanism: for scores moved by at most Δ = 1 each (any
    neighbour), every probability changes by a factor of at most e^ε."""
    rng = np.random.default_rng(0)
    for _ in range(50):
        scores = rng.normal(0, 10, 6)
        neighbour = scores + rng.uniform(-1, 1, 6)
        p, q = (mechanisms.exponential_probabilities(s, epsilon) for s in (scores, neighbour))
        assert np.all(np.isfinite(p)) and p.sum() == pytest.approx(1.0)
        both = (p > 0) & (q > 0)
        assert np.max(np.abs(np.log(p[both]) - np.log(q[both]))) <= epsilon * (1 + 1e-9) + 1e-12


@pytest.mark.parametrize("epsilon", [1e-9, 1e6])
def test_selection_and_quantile_outputs_stay_in_range_at_extreme_epsilon(epsilon):
    scores = np.array([0.0, 5.0, 10.0])
    for pick in (mechanisms.exponential(scores, epsilon, rng=0, size=200),
                 mechanisms.report_noisy_max(scores, epsilon, rng=0, size=200),
                 mechanisms.permute_and_flip(scores, epsilon, rng=0, size=200)):
        assert np.all((pick >= 0) & (pick < 3))
    if epsilon > 1:
        assert np.all(mechanisms.exponential(scores, epsilon, rng=1, size=200) == 2)  # the best, surely
    released = mechanisms.private_quantile(np.array([0.2, 0.4, 0.6]), 0.5, epsilon, 0.0, 1.0, rng=0)
    assert 0.0 <= released <= 1.0


# ---------------------------------------------------------------- the audit's bound at any δ
@SETTINGS
@given(delta=DELTAS, trials=st.integers(10, 10**9), shares=st.lists(st.floats(0, 1), min_size=2, max_size=2))
def test_audit_bound_is_finite_nonnegative_and_shrinks_as_delta_grows(delta, trials, shares):
    """epsilon_lower_bound over δ in [1e-300, 0.5]: a finite bound ≥ 0, no larger than at δ = 0 (δ only forgives),
    and 0 for identical counts on both inputs."""
    counts, neighbour = (np.array([round(share * trials)]) for share in shares)
    bound = audit.epsilon_lower_bound(counts, neighbour, trials, delta=delta).epsilon_lower_bound
    assert math.isfinite(bound) and bound >= 0
    assert bound <= audit.epsilon_lower_bound(counts, neighbour, trials).epsilon_lower_bound
    assert audit.epsilon_lower_bound(counts, counts, trials, delta=delta).epsilon_lower_bound == 0.0
