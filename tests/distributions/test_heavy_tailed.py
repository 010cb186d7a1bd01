"""dpcore.distributions: exact normalisation, exact clipped means, the truncation-bias lemmas, the oracle window.

Oracles are independent of the module: scipy.stats densities integrated with quad, explicit sums for the
two-point law, and Monte Carlo with 10^6 draws (within 4 standard errors). Numbers from docs/algorithms.md §1.9.
"""

import importlib
import math

import numpy as np
import pytest
from scipy import integrate, stats

from dpcore.distributions.heavy_tailed import (
    FAMILIES,
    HeavyTailed,
    bias_noise_curve,
    heavy_tailed,
    lemma31_bias_bound,
    optimal_window,
    tail_bias_bound,
)
from dpcore.experiments import fit_power_law
from dpcore.theory import clipped_mean_private_error

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "bulk_radius": dict(moment_k=3.0),
    "heavy_tailed": dict(family="lomax", moment_k=3, mean=0.0, shape=4.0),
    "lemma31_bias_bound": dict(moment_k=3, tau=0.01, constant=6.0),
    "tail_bias_bound": dict(moment_k=3, distance=2.0, moment_bound=1.0),
    "optimal_window": dict(
        dist=importlib.import_module("dpcore.distributions.heavy_tailed").heavy_tailed("lomax", 3),
        n=1000,
        epsilon=1.0,
        center=0.0,
        radii=np.array([1.0, 2.0]),
    ),
    "bias_noise_curve": dict(
        dist=importlib.import_module("dpcore.distributions.heavy_tailed").heavy_tailed("lomax", 3),
        n=1000,
        epsilon=1.0,
        radii=np.array([1.0, 2.0]),
        center=0.0,
    ),
}


MOMENTS = (2, 2.5, 3, 4, 6, 10)
MEAN = 1.5


def scipy_law(dist):
    """The same law as a frozen scipy.stats distribution (continuous families)."""
    if dist.family == "lomax":
        return stats.lomax(dist.shape, loc=dist.mean - dist.scale / (dist.shape - 1), scale=dist.scale)
    if dist.family == "student-t":
        return stats.t(dist.shape, loc=dist.mean, scale=dist.scale)
    return stats.norm(dist.mean, dist.scale)


def atoms(dist):
    """Values and probabilities of the two-point law."""
    p, gap = dist.shape, dist.scale
    return np.array([dist.mean - p * gap, dist.mean + (1 - p) * gap]), np.array([1 - p, p])


def quad_expect(dist, func, breaks=()):
    """E func(X) by quad on the scipy density, split at ``breaks`` (and the mean)."""
    if dist.family == "two-point":
        values, probs = atoms(dist)
        return float(np.sum(probs * func(values)))
    law = scipy_law(dist)
    cuts = [-np.inf, *sorted({dist.mean, *breaks}), np.inf]
    return sum(integrate.quad(lambda x: func(x) * law.pdf(x), a, b, limit=400, epsabs=1e-13, epsrel=1e-11)[0]
               for a, b in zip(cuts[:-1], cuts[1:]))


def clip_oracle(dist, low, high):
    return quad_expect(dist, lambda x: np.clip(x, low, high), breaks=(low, high))


# --- normalisation -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("k", MOMENTS)
def test_kth_central_moment_is_one_by_independent_quadrature(family, k):
    dist = heavy_tailed(family, k, mean=MEAN)
    assert dist.central_moment(k) == pytest.approx(1.0, abs=1e-9)
    assert quad_expect(dist, lambda x: np.abs(x - MEAN) ** k) == pytest.approx(1.0, abs=1e-6)
    assert quad_expect(dist, lambda x: x) == pytest.approx(MEAN, abs=1e-6)


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("k", (2, 2.5, 3))
def test_monte_carlo_moment_and_mean(family, k):
    # Shapes 2k + 1 give |X - mu|^k a finite variance, so its sample mean has an honest standard error.
    # (At the default Lomax a = 4, k = 3 it has tail index 4/3: 10^6 draws typically fall ~10 % short.)
    shape = 2 * k + 1 if family in ("lomax", "student-t") else None
    dist = heavy_tailed(family, k, mean=MEAN, shape=shape)
    x = dist.sample(10**6, rng=np.random.default_rng([FAMILIES.index(family), int(10 * k)]))
    powers = np.abs(x - MEAN) ** k
    assert abs(powers.mean() - 1.0) <= 4 * powers.std() / 1e3 and abs(powers.mean() - 1.0) < 0.05
    assert abs(x.mean() - MEAN) <= 4 * dist.sd() / 1e3


def test_lomax_reference_numbers():
    """docs/algorithms.md §1.9.1: unscaled Lomax(4) has M_3 = 0.75926, so the scale is 1.09615."""
    dist = heavy_tailed("lomax", 3)
    assert dist.shape == 4.0
    assert dist.scale ** -3 == pytest.approx(0.759259, abs=1e-6)
    assert dist.scale == pytest.approx(1.096150, abs=1e-6)
    m = 1 / 3
    unscaled = integrate.quad(lambda y: abs(y - m) ** 3 * stats.lomax.pdf(y, 4), 0, m)[0] + \
        integrate.quad(lambda y: abs(y - m) ** 3 * stats.lomax.pdf(y, 4), m, np.inf)[0]
    assert unscaled == pytest.approx(0.759259, abs=1e-6)


def test_closed_form_moments_and_defaults():
    gauss = heavy_tailed("gaussian", 3)
    assert gauss.central_moment(3) == pytest.approx(1.0)
    assert gauss.scale ** -3 == pytest.approx(2 * math.sqrt(2 / math.pi))
    assert heavy_tailed("gaussian", math.inf, mean=2.0).sd() == 1.0
    assert heavy_tailed("student-t", 2).shape == 3.0 and heavy_tailed("student-t", 4).shape == 5.0
    assert heavy_tailed("lomax", 6).shape == 7.0 and heavy_tailed("two-point", 3).shape == 0.01
    two = heavy_tailed("two-point", 3, shape=0.1)
    values, probs = atoms(two)
    assert np.sum(probs * np.abs(values) ** 3) == pytest.approx(1.0, abs=1e-12)
    assert heavy_tailed("lomax", 3).central_moment(4) == math.inf
    assert heavy_tailed("student-t", 2).central_moment(3.5) == math.inf
    assert heavy_tailed("lomax", 1.5, shape=1.8).sd() == math.inf


# --- clipped means -----------------------------------------------------------------------------------------------

WINDOWS = ((-1.0, 2.0), (-0.3, 0.5), (-5.0, 0.2), (0.4, 3.0), (-30.0, 30.0))
SHAPES = {"lomax": (None, 2.0), "student-t": (None, 1.8), "two-point": (None, 0.3), "gaussian": (None,)}


@pytest.mark.parametrize("family, shape", [(f, s) for f in FAMILIES for s in SHAPES[f]])
def test_clipped_mean_and_variance_match_quadrature(family, shape):
    # shape 2.0 (Lomax) and 1.8 (Student-t) have infinite variance: the log / 2F1 branches of the closed forms.
    dist = heavy_tailed(family, 1.5 if shape in (2.0, 1.8) else 3, mean=MEAN, shape=shape)
    for a, b in WINDOWS:
        low, high = MEAN + a, MEAN + b
        expected = clip_oracle(dist, low, high)
        assert dist.clipped_mean(low, high) == pytest.approx(expected, abs=1e-9)
        second = quad_expect(dist, lambda x, low=low, high=high: (np.clip(x, low, high) - MEAN) ** 2,
                             breaks=(low, high))
        _, variance = dist._clip_stats(np.array(a), np.array(b))
        assert variance == pytest.approx(second - (expected - MEAN) ** 2, abs=1e-8)
    np.testing.assert_allclose(dist.clipped_mean(MEAN + np.array([-1.0, -2.0]), MEAN + 1.0),
                               [dist.clipped_mean(MEAN - 1, MEAN + 1), dist.clipped_mean(MEAN - 2, MEAN + 1)])


@pytest.mark.parametrize("family", FAMILIES)
def test_clipped_mean_matches_monte_carlo(family):
    dist = heavy_tailed(family, 3, mean=MEAN)
    x = dist.sample(10**6, rng=7)
    for a, b in WINDOWS[:4]:
        clipped = np.clip(x, MEAN + a, MEAN + b)
        assert abs(clipped.mean() - dist.clipped_mean(MEAN + a, MEAN + b)) <= 4 * clipped.std() / 1e3 + 1e-12


@pytest.mark.parametrize("family", FAMILIES)
def test_bias_sign(family):
    dist = heavy_tailed(family, 3, mean=-2.0)
    radii = np.array([0.05, 0.5, 1.0, 2.0, 4.0])
    bias = dist.clipping_bias(-2.0, radii)
    if family in ("gaussian", "student-t"):
        np.testing.assert_allclose(bias, 0.0, atol=1e-10)  # symmetric law, centred window
    else:
        assert np.all(bias < 0)  # right-skewed: the clipped-off mass sits on the right


# --- truncation-bias lemmas (docs/algorithms.md §1.2, §1.9.1) ---------------------------------------------------------

def test_lemma31_on_lomax():
    dist = heavy_tailed("lomax", 3)
    worst = {}
    for tau in (0.05, 0.01, 0.001):
        xi, bound = lemma31_bias_bound(3, tau)
        assert xi == pytest.approx(6 / math.sqrt(tau)) and bound == tau
        biases = [abs(dist.clipping_bias(rho, xi)) for rho in (-xi / 2, 0.0, xi / 2)]
        assert max(biases) <= tau
        worst[tau] = max(biases)
    assert worst[0.05] == pytest.approx(1.46e-4, rel=0.01)


def test_tight_bound_reference_numbers():
    dist = heavy_tailed("lomax", 3)
    t = np.array([1.0, 2.0, 4.0])
    bias = np.abs(dist.clipping_bias(0.0, t))
    bound = tail_bias_bound(3, t)
    np.testing.assert_allclose(bias, [0.03227, 0.01160, 0.00295], rtol=5e-3)
    np.testing.assert_allclose(bound, [0.1481, 0.0370, 0.0093], rtol=5e-3)
    np.testing.assert_allclose(bound, 4 / (27 * t ** 2))
    assert np.all(bias <= bound)


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("k", (2, 3, 6))
def test_bias_below_tight_bound(family, k):
    dist = heavy_tailed(family, k, mean=MEAN)
    t = np.geomspace(0.1, 100, 40)
    for offset in (0.0, 0.3, -1.0):  # both window ends at least t from the mean
        bias = dist.clipping_bias(MEAN + offset, t + abs(offset))
        assert np.all(np.abs(bias) <= tail_bias_bound(k, t) * (1 + 1e-12))


def test_tight_bound_is_attained_by_a_two_point_law():
    # (x - t)_+ <= A_k x^k / t^(k-1) with equality at x = k t / (k - 1): a rare atom there attains the bound.
    k, t, p = 3.0, 2.0, 1e-6
    x = k * t / (k - 1)
    dist = HeavyTailed("two-point", k, 0.0, x / (1 - p), p)  # atom at mean + x (almost no mass at mean - p x)
    assert abs(dist.clipping_bias(0.0, t)) / (p * x ** k) == pytest.approx(tail_bias_bound(k, t), rel=1e-5)


# --- the oracle window -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("family", ("lomax", "two-point"))
@pytest.mark.parametrize("include_sampling", (True, False))
def test_optimal_window_beats_half_and_double(family, include_sampling):
    dist = heavy_tailed(family, 3, mean=MEAN)
    radius, mse = optimal_window(dist, 10**4, 1.0, include_sampling=include_sampling)
    curve = bias_noise_curve(dist, 10**4, 1.0, np.array([radius / 2, radius, 2 * radius]))
    total = curve["mse"] if include_sampling else curve["bias_squared"] + curve["noise_variance"]
    assert total[1] == pytest.approx(mse, rel=1e-12)
    assert mse < total[0] and mse < total[2]
    grid = np.geomspace(0.6, 100, 400)
    assert mse <= optimal_window(dist, 10**4, 1.0, radii=grid, include_sampling=include_sampling)[1]


@pytest.mark.parametrize("family", FAMILIES)
def test_oracle_private_error_below_worst_case_optimum(family):
    for n in (10**3, 10**5):
        dist = heavy_tailed(family, 3)
        _, mse = optimal_window(dist, n, 1.0, include_sampling=False)
        assert math.sqrt(mse) <= clipped_mean_private_error(n, 1.0, 3)


def test_symmetric_laws_use_the_bulk_radius():
    radius, mse = optimal_window(heavy_tailed("gaussian", 3), 10**4, 1.0, include_sampling=False)
    assert radius == pytest.approx((4 / 27) ** (1 / 3)) and mse == pytest.approx(8 * radius ** 2 / 1e8)


def test_private_error_slope_on_lomax():
    """docs/algorithms.md §1.9.2: k = 3, eps = 1, n in [1e3, 1e6], exact bias: slope near -(k-1)/k = -2/3."""
    dist = heavy_tailed("lomax", 3)
    n = np.geomspace(1e3, 1e6, 7).round()
    error = [math.sqrt(optimal_window(dist, int(m), 1.0, include_sampling=False)[1]) for m in n]
    slope, _ = fit_power_law(n, np.array(error))
    assert abs(slope + 2 / 3) <= 0.1


def test_bias_noise_curve_parts():
    dist = heavy_tailed("lomax", 3, mean=MEAN)
    radii = np.geomspace(0.5, 50, 60)
    curve = bias_noise_curve(dist, 1000, 0.5, radii, center=MEAN + 0.2)
    assert set(curve) == {"radius", "bias_squared", "noise_variance", "sampling_variance", "mse"}
    np.testing.assert_allclose(curve["noise_variance"], 2 * (2 * radii / 500) ** 2)
    np.testing.assert_allclose(curve["bias_squared"], dist.clipping_bias(MEAN + 0.2, radii) ** 2)
    parts = curve["bias_squared"] + curve["noise_variance"] + curve["sampling_variance"]
    np.testing.assert_allclose(curve["mse"], parts)
    x = dist.sample(10**6, rng=3)
    clipped = np.clip(x, MEAN + 0.2 - radii[30], MEAN + 0.2 + radii[30])
    assert curve["sampling_variance"][30] * 1000 == pytest.approx(clipped.var(), rel=0.02)


# --- sampling and validation -------------------------------------------------------------------------------------

@pytest.mark.parametrize("family", FAMILIES)
def test_sample_is_seeded_and_shaped(family):
    dist = heavy_tailed(family, 3)
    assert dist.sample((4, 5), rng=11).shape == (4, 5) and dist.sample(7, rng=0).shape == (7,)
    np.testing.assert_array_equal(dist.sample((3, 2), rng=11), dist.sample((3, 2), rng=np.random.default_rng(11)))
    assert not np.array_equal(dist.sample(1000, rng=1), dist.sample(1000, rng=2))


@pytest.mark.parametrize("kwargs, name", [
    (dict(family="pareto", moment_k=3), "family"), (dict(family="lomax", moment_k=1.0), "moment_k"),
    (dict(family="lomax", moment_k=math.inf), "moment_k"), (dict(family="lomax", moment_k=3, shape=3.0), "shape"),
    (dict(family="student-t", moment_k=4, shape=3.5), "shape"),
    (dict(family="two-point", moment_k=3, shape=0.5), "shape"),
    (dict(family="two-point", moment_k=3, shape=0.0), "shape"),
    (dict(family="gaussian", moment_k=3, shape=2.0), "shape"),
    (dict(family="gaussian", moment_k=3, mean=math.nan), "mean"),
])
def test_factory_rejects_bad_input(kwargs, name):
    with pytest.raises(ValueError, match=f"^{name} must be"):
        heavy_tailed(**kwargs)


def test_methods_reject_bad_input():
    dist = heavy_tailed("lomax", 3)
    for call, name in [(lambda: dist.sample(-1), "size"), (lambda: dist.sample((2, -1)), "size"),
                       (lambda: dist.sample(3, rng=-1), "rng"), (lambda: dist.central_moment(-1), "order"),
                       (lambda: dist.clipped_mean(1.0, 0.0), "high"), (lambda: dist.clipping_bias(0.0, -1.0), "radius"),
                       (lambda: optimal_window(dist, 100, 1.0, radii=np.array([0.1])), "radii"),
                       (lambda: HeavyTailed("lomax", 3, 0.0, 1.0, 2.0), "shape")]:
        with pytest.raises((ValueError, TypeError), match=f"^{name} must "):
            call()
