"""Privacy loss distributions on a grid against the exact privacy profiles of dpcore.accounting.

Each loss is rounded up to the grid hℤ, by less than h. As (1 − e^{ε−ℓ})₊ grows with ℓ, the grid's profile is at least
the exact one, and a sum of k rounded-up losses is at most the exact sum plus kh, so

    δ_exact(ε) ≤ δ_grid(ε) ≤ δ_exact(ε − kh)   and   ε_exact(δ) ≤ ε_grid(δ) ≤ ε_exact(δ) + kh

(for k composed mechanisms, ε ≥ kh). These are the bounds checked, with the exact profiles of accounting (tested
against the hockey-stick integral in tests/test_accounting.py), Gaussian DP for composed Gaussians (Dong, Roth & Su
2022) and randomized response's own loss for pure DP.
"""

import math

import numpy as np
import pytest
from scipy import stats

from dpcore import accounting
from dpcore.core.validation import InvalidParameterError
from dpcore.privacy_loss import (
    STEP,
    PrivacyLoss,
    compose,
    gaussian_loss,
    laplace_loss,
    loss_delta,
    loss_epsilon,
    loss_profile,
    pure_loss,
)

_EXAMPLE = pure_loss(1.0, 1e-3)

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "laplace_loss": dict(scale=1.0, sensitivity=1.0, step=1e-3),
    "gaussian_loss": dict(mu=1.0, step=1e-3),
    "pure_loss": dict(epsilon=1.0, step=1e-3),
    "compose": dict(losses=[_EXAMPLE, _EXAMPLE]),
    "loss_delta": dict(loss=_EXAMPLE, epsilon=0.5),
    "loss_profile": dict(loss=_EXAMPLE, epsilons=np.array([0.0, 0.5, 2.0])),
    "loss_epsilon": dict(loss=_EXAMPLE, delta=1e-6),
}

FLOAT = 1e-13  # float rounding of the sums of up to ~10⁵ products (δ here is at least ~1e-12 where it matters)


def rr_delta(epsilon: float, pure: list[float]) -> float:
    """The exact profile of composed randomized responses of ε_i: the loss is Σ ±ε_i, +ε_i with probability
    e^{ε_i}/(1+e^{ε_i}) each, independently; δ(ε) = E(1 − e^{ε−L})₊ by enumeration of the 2^k signs."""
    total = 0.0
    for signs in np.ndindex(*(2,) * len(pure)):
        loss = sum(e if s else -e for e, s in zip(pure, signs))
        probability = math.prod(1 / (1 + math.exp(-e)) if s else 1 / (1 + math.exp(e)) for e, s in zip(pure, signs))
        total += probability * max(0.0, -math.expm1(epsilon - loss))
    return total


def check_bounds(loss, epsilons, exact, slack):
    """δ_exact(ε) ≤ δ_grid(ε) ≤ δ_exact(ε − slack): at every ε with the profile (one pass), at 20 of them with
    loss_delta itself (loss_profile equals loss_delta: tested below)."""
    profile = loss_profile(loss, epsilons)
    assert np.all(profile >= [exact(eps) - FLOAT for eps in epsilons])
    assert np.all(profile <= [exact(eps - slack) + FLOAT for eps in epsilons])
    for epsilon in epsilons[::len(epsilons) // 20]:
        assert exact(epsilon) - FLOAT <= loss_delta(loss, epsilon) <= exact(epsilon - slack) + FLOAT


# --------------------------------------------------------------------------------------------- one mechanism
@pytest.mark.parametrize("scale, sensitivity, step", [(1.0, 1.0, STEP), (0.5, 1.0, 1e-3), (2.0, 3.0, 1e-3),
                                                      (0.1, 0.35, STEP), (20.0, 1.0, 1e-3)])
def test_laplace_loss_profile_is_an_upper_bound_within_one_step(scale, sensitivity, step):
    loss = laplace_loss(scale, sensitivity, step)
    epsilon0 = sensitivity / scale
    epsilons = np.r_[np.linspace(step, epsilon0 * 1.2, 400), epsilon0, epsilon0 + step]
    check_bounds(loss, epsilons, lambda eps: accounting.laplace_delta(eps, scale, sensitivity), step)
    # δ_exact(ε − h) − δ_exact(ε) ≤ h/2 (the profile's slope is at most 1/2): the grid is h/2-close
    assert loss_delta(loss, 0.0) == pytest.approx(accounting.laplace_delta(0.0, scale, sensitivity), abs=step / 2)
    assert loss_delta(loss, epsilon0 + step) == 0.0  # pure ε0-DP, up to the step


@pytest.mark.parametrize("mu, step", [(0.2, STEP), (1.0, STEP), (1.0, 1e-3), (3.0, 1e-3), (8.0, 1e-2)])
def test_gaussian_loss_profile_is_an_upper_bound_within_one_step(mu, step):
    loss = gaussian_loss(mu, step)
    epsilons = np.linspace(step, mu * mu / 2 + 6 * mu, 400)
    check_bounds(loss, epsilons, lambda eps: accounting.gaussian_delta(eps, sigma=1 / mu), step)
    assert loss_delta(loss, 0.0) == pytest.approx(2 * stats.norm.cdf(mu / 2) - 1, abs=step)  # the total variation


@pytest.mark.parametrize("epsilon0, step", [(1.0, STEP), (0.3, STEP), (0.12345, STEP), (2.7, 1e-3), (0.75, 2**-10)])
def test_pure_loss_profile_is_randomized_responses_within_one_step(epsilon0, step):
    loss = pure_loss(epsilon0, step)
    check_bounds(loss, np.linspace(step, epsilon0 + 2 * step, 400), lambda eps: rr_delta(eps, [epsilon0]), step)
    assert loss_delta(loss, epsilon0 + 2 * step) == 0.0
    # ε0 on the grid: no δ at ε0 (0 up to the float rounding of the grid value (start + i)·h)
    assert loss_delta(loss, math.ceil(epsilon0 / step - 1e-9) * step) <= 1e-15


def test_pure_loss_is_exactly_zero_at_epsilon_on_a_dyadic_grid():
    step = 2.0**-10  # 0.75 and 0.25 are multiples of it in floating point: no rounding at all
    assert loss_delta(pure_loss(0.75, step), 0.75) == 0.0
    assert loss_delta(pure_loss(0.75, step), 0.75 - step) > 0.0


# ------------------------------------------------------------------------------------------------ composition
@pytest.mark.parametrize("mu, k, step", [(0.5, 4, 1e-3), (1.0, 2, 1e-3), (0.3, 3, STEP), (0.2, 8, 1e-3)])
def test_composed_gaussians_are_gaussian_dp_within_k_steps(mu, k, step):
    """k Gaussian mechanisms of μ compose to exactly μ√k-GDP: the grid's ε at δ is at least the exact one and at most
    kh above it, at the δ a plan uses."""
    loss = compose([gaussian_loss(mu, step)] * k)
    total = mu * math.sqrt(k)
    for delta in (0.1, 1e-5, 1e-9):
        exact = accounting.gaussian_epsilon(total, delta)
        assert exact - 1e-9 <= loss_epsilon(loss, delta) <= exact + k * step + 1e-9
    epsilons = np.linspace(k * step, total * total / 2 + 5 * total, 200)
    check_bounds(loss, epsilons, lambda eps: accounting.gaussian_delta(eps, sigma=1 / total), k * step)


@pytest.mark.parametrize("mu, k, step", [(1.0, 2, 1e-3), (0.5, 4, 1e-3), (0.3, 3, STEP)])
@pytest.mark.parametrize("delta", [1e-10, 1e-12])
def test_composed_gaussians_stay_an_upper_bound_at_small_delta(mu, k, step, delta):
    """The upper bound holds at every δ a plan may ask (δ in (0, 1) is accepted): the composition must not lose the
    far tail of the loss, where δ(ε) of 1e-10 or 1e-12 lives."""
    loss = compose([gaussian_loss(mu, step)] * k)
    epsilon = loss_epsilon(loss, delta)
    exact = accounting.gaussian_epsilon(mu * math.sqrt(k), delta)
    assert epsilon >= exact - 1e-9
    assert loss_delta(loss, exact) >= delta * (1 - 1e-6)


@pytest.mark.parametrize("pure, step", [([0.5, 0.3], STEP), ([1.0, 1.0, 0.2], 1e-3), ([0.7, 2.3], 1e-3)])
def test_composed_pure_losses_are_pure_dp_at_the_sum(pure, step):
    loss = compose([pure_loss(epsilon, step) for epsilon in pure])
    total = sum(pure)
    assert loss_delta(loss, total + len(pure) * step) == 0.0
    assert loss_delta(loss, total) <= 1e-15  # the sum of multiples of h: 0 up to the float rounding of the grid value
    check_bounds(loss, np.linspace(len(pure) * step, total, 200), lambda eps: rr_delta(eps, pure), len(pure) * step)


def test_two_pure_losses_are_exactly_pure_at_the_sum_on_a_dyadic_grid():
    step = 2.0**-10
    loss = compose([pure_loss(0.5, step), pure_loss(0.25, step)])
    assert loss_delta(loss, 0.75) == 0.0
    # just below 0.75 only the atom at +0.75 counts: δ(ε) = p1·p2·(1 − e^{ε − 0.75}), p_i = e^{ε_i}/(1 + e^{ε_i})
    top = stats.logistic.cdf(0.5) * stats.logistic.cdf(0.25)
    assert loss_epsilon(loss, 1e-9) == pytest.approx(0.75 + math.log1p(-1e-9 / top), abs=1e-12)


def test_composed_laplace_losses_stay_between_the_exact_single_and_the_basic_sum():
    """Two Laplace mechanisms of ε0 = 0.5: (1.0, 0)-DP by basic composition, and at least as leaky as one of them."""
    step = 1e-3
    loss = compose([laplace_loss(2.0, 1.0, step)] * 2)
    assert loss_delta(loss, 1.0 + 2 * step) == 0.0
    for epsilon in np.linspace(0.0, 1.0, 30):
        assert loss_delta(loss, epsilon) >= accounting.laplace_delta(epsilon, 2.0) - FLOAT
    for delta in (1e-3, 1e-6):
        assert loss_epsilon(loss, delta) <= 1.0 + 2 * step


# ----------------------------------------------------------------------------------------- the distributions
@pytest.mark.parametrize("loss", [laplace_loss(1.0), laplace_loss(0.3, 2.0, 1e-3), gaussian_loss(0.5),
                                  gaussian_loss(4.0, 1e-3), pure_loss(0.4), pure_loss(3.0, 1e-3)],
                         ids=["laplace", "laplace-2", "gaussian", "gaussian-4", "pure", "pure-3"])
def test_masses_are_a_distribution_on_the_grid(loss):
    assert np.all(loss.masses >= 0)
    assert loss.masses.sum() + loss.infinite == pytest.approx(1.0, abs=1e-12)
    assert np.allclose(np.diff(loss.losses), loss.step, rtol=0, atol=1e-12)
    assert loss.losses.size == loss.masses.size


def test_infinite_mass_is_the_gaussian_tail_beyond_twelve_standard_deviations():
    assert gaussian_loss(1.0).infinite == pytest.approx(stats.norm.sf(12.0), rel=1e-12)
    assert laplace_loss(1.0).infinite == 0.0 and pure_loss(1.0).infinite == 0.0


def test_laplace_and_pure_losses_have_the_documented_atoms():
    loss = laplace_loss(1.0, 1.0, 1e-3)  # ε0 = 1: ½ at +1 (with the mass of (1 − h, 1) rounded up), ½e^{-1} at −1
    assert loss.masses[-1] == pytest.approx(1 - 0.5 * math.exp(-1e-3 / 2), abs=1e-12)
    assert loss.losses[-1] == pytest.approx(1.0)
    assert loss.masses[0] == pytest.approx(0.5 * math.exp(-1.0), abs=1e-12) and loss.losses[0] == pytest.approx(-1.0)
    pure = pure_loss(1.0, 1e-3)
    assert pure.masses[-1] == pytest.approx(math.e / (1 + math.e), rel=1e-12)
    assert pure.masses[0] == pytest.approx(1 / (1 + math.e), rel=1e-12)
    assert np.count_nonzero(pure.masses) == 2


@pytest.mark.parametrize("losses", [[gaussian_loss(1.0, 1e-3)] * 3, [laplace_loss(0.5, 1.0, 1e-3), pure_loss(0.3, 1e-3),
                                                                     gaussian_loss(0.7, 1e-3)]],
                         ids=["gaussians", "mixed"])
def test_composed_masses_are_the_convolution_and_sum_to_one(losses):
    loss = compose(losses)
    assert loss.start == sum(part.start for part in losses)
    assert loss.masses.size == sum(part.masses.size for part in losses) - len(losses) + 1
    assert loss.infinite == pytest.approx(1 - math.prod(1 - part.infinite for part in losses), abs=1e-300)
    assert np.all(loss.masses >= 0)
    # the convolution conserves mass, up to its float rounding (1e-15 a point at most)
    assert loss.masses.sum() + loss.infinite == pytest.approx(1.0, abs=loss.masses.size * 1e-15)
    # the mean loss adds up
    mean = np.dot(loss.masses, loss.losses) / loss.masses.sum()
    assert mean == pytest.approx(sum(np.dot(part.masses, part.losses) for part in losses), abs=1e-9)


@pytest.mark.parametrize("loss", [laplace_loss(0.8), gaussian_loss(1.3, 1e-3), compose([pure_loss(0.5, 1e-3)] * 3),
                                  compose([gaussian_loss(0.5, 1e-3), laplace_loss(1.0, 1.0, 1e-3)])],
                         ids=["laplace", "gaussian", "pure-3", "mixed"])
def test_loss_profile_equals_loss_delta(loss):
    epsilons = np.r_[0.0, np.linspace(1e-4, float(loss.losses[-1]) + 1, 101), loss.losses[-1], 50.0]
    profile = loss_profile(loss, epsilons)
    assert profile.shape == epsilons.shape
    np.testing.assert_allclose(profile, [loss_delta(loss, epsilon) for epsilon in epsilons], rtol=0, atol=1e-9)


def test_loss_epsilon_is_the_root_of_the_profile():
    loss = compose([laplace_loss(1.0, 1.0, 1e-3), gaussian_loss(0.8, 1e-3)])
    for delta in (0.2, 1e-3, 1e-7):
        epsilon = loss_epsilon(loss, delta)
        assert 0 < epsilon < math.inf
        assert loss_delta(loss, epsilon) == pytest.approx(delta, rel=1e-6)
        assert loss_delta(loss, epsilon * (1 - 1e-6)) > delta  # the smallest such ε
    assert loss_epsilon(laplace_loss(100.0), 0.5) == 0.0  # δ(0) = 1 − e^{−0.005} ≈ 0.005 is already below 0.5
    assert loss_epsilon(gaussian_loss(1.0, 1e-3), 1e-40) == math.inf  # below the tail counted as infinite


def test_loss_epsilon_decreases_with_delta():
    loss = compose([gaussian_loss(1.0, 1e-3)] * 2)
    epsilons = [loss_epsilon(loss, delta) for delta in (1e-9, 1e-6, 1e-3, 1e-1)]
    assert epsilons == sorted(epsilons, reverse=True) and len(set(epsilons)) == 4


def test_a_finer_step_is_tighter():
    """ε_grid − ε_exact ≤ kh: a finer step lowers the bound, and the overstatement follows it."""
    exact = accounting.gaussian_epsilon(math.sqrt(2), 1e-6)
    gaps = [loss_epsilon(compose([gaussian_loss(1.0, step)] * 2), 1e-6) - exact for step in (1e-2, 1e-3, 2.5e-4)]
    assert gaps[0] > gaps[1] > gaps[2] >= -1e-9
    assert gaps[0] <= 2e-2 and gaps[1] <= 2e-3 and gaps[2] <= 5e-4


# ------------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("call, name", [
    (lambda: laplace_loss(0.0), "scale"), (lambda: laplace_loss(1.0, -1.0), "sensitivity"),
    (lambda: laplace_loss(1.0, 1.0, 0.0), "step"), (lambda: gaussian_loss(math.nan), "mu"),
    (lambda: gaussian_loss(1.0, -1e-3), "step"), (lambda: pure_loss(0.0), "epsilon"),
    (lambda: pure_loss(math.inf), "epsilon"),
    (lambda: compose([]), "losses"), (lambda: compose("abc"), "losses"), (lambda: compose([1.0]), "losses"),
    (lambda: compose([pure_loss(1.0, 1e-3), "x"]), "losses"),
    (lambda: compose([pure_loss(1.0, 1e-3), pure_loss(1.0, 1e-4)]), "step"),
    (lambda: loss_delta(_EXAMPLE, -0.1), "epsilon"), (lambda: loss_delta("loss", 0.1), "loss"),
    (lambda: loss_delta(_EXAMPLE, math.nan), "epsilon"), (lambda: loss_profile(_EXAMPLE, [0.5, -1.0]), "epsilons"),
    (lambda: loss_profile(_EXAMPLE, []), "epsilons"), (lambda: loss_profile(_EXAMPLE, [[0.1]]), "epsilons"),
    (lambda: loss_epsilon(_EXAMPLE, 0.0), "delta"), (lambda: loss_epsilon(_EXAMPLE, 1.0), "delta"),
    (lambda: loss_epsilon(PrivacyLoss, 0.1), "loss"),
])
def test_bad_input_is_rejected_naming_the_parameter(call, name):
    with pytest.raises(InvalidParameterError, match=name):
        call()
