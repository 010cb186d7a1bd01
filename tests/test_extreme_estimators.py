"""The estimators and rate curves at extreme but valid privacy parameters: a valid output or a clear refusal.

Every public function of the estimators, of :mod:`dpcore.theory` and of :mod:`dpcore.distributions.heavy_tailed`
that takes ε, δ or ρ is run over ε and ρ log-uniform from 1e-9 to 1e6 and, where it takes δ, δ log-uniform from 1e-300
to 0.5 (the ranges of ``tests/test_extreme_privacy.py``), with small data (n ≤ 200, trials ≤ 3, dimension ≤ 4 for
data; wider ranges for the closed-form curves, stated per test). The rule each test checks:

* either the function returns a **valid output** — every number finite and in its documented range (an estimate that
  the method clips or projects stays in its set, an index in range, probabilities in [0, 1] summing to 1) — and
  **the noise it draws meets the privacy request**, checked by an independent computation from the documented
  sensitivity: Laplace scale b with Δ₁/b ≤ ε, zCDP Gaussian with Δ₂²/(2σ²) ≤ ρ, (ε, δ) Gaussian with the exact
  privacy profile δ_N(ε; Δ₂/σ) ≤ δ of Balle & Wang 2018 (Thm 8) in 60-digit arithmetic (mpmath), exponential
  mechanisms with the exact law ∝ exp(ε u/(2Δ)). The noise actually drawn is read from the mechanism calls
  (:func:`spy`) or from the scale the result reports;
* or it raises a ``ValueError`` whose message names the offending parameter;
* never a bare ``ZeroDivisionError`` / ``OverflowError`` / ``FloatingPointError``, a NaN, an infinity or a weaker
  guarantee than asked. Each call runs under ``numpy.errstate(over/divide/invalid="raise")`` so that a hidden
  overflow surfaces (underflow to 0 is legitimate: e.g. the probability of a hopeless candidate at ε = 1e6).

Regression tests with the concrete values of the bugs these properties found come first.
"""

import contextlib
import inspect
import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpcore import mechanisms, theory
from dpcore.distributions import heavy_tailed as distributions
from dpcore.estimators import (
    cover,
    heavy_tailed_mean,
    mean_release,
    partition_rounds,
    sdp,
    selection,
    truncated_mle,
    user_level,
)

mpmath.mp.dps = 60
SETTINGS = settings(max_examples=40, deadline=None)
FEW = settings(max_examples=15, deadline=None)  # the costlier pipelines (dozens of mechanism calls per example)
SLOW = settings(max_examples=4, deadline=None)  # cvxpy solves
ROUNDING = 1e-6  # relative slack for the float computation of a δ that the 60-digit one checks
TIGHT = 1e-12  # relative slack for a ratio computed in floats (Δ/b ≤ ε and the like)
STRICT = dict(over="raise", divide="raise", invalid="raise")


def log_uniform(low: float, high: float):
    return st.floats(math.log10(low), math.log10(high)).map(lambda e: 10.0**e)


EPSILONS, RHOS, DELTAS = log_uniform(1e-9, 1e6), log_uniform(1e-9, 1e6), log_uniform(1e-300, 0.5)
SEEDS = st.integers(0, 2**32 - 1)
#: A moment order k > 1: from 1.001 (window radii near overflow) to 1001, or every moment (k = inf).
MOMENTS = st.one_of(st.just(math.inf), log_uniform(1e-3, 1e3).map(lambda excess: 1.0 + excess))


def gaussian_delta_exact(epsilon: float, mu: float) -> mpmath.mpf:
    """δ(ε) of the Gaussian mechanism with μ = Δ₂/σ (Balle & Wang 2018, Thm 8), in 60-digit arithmetic.

    The helper of tests/test_extreme_privacy.py (a test module is not importable cleanly from another)."""
    eps, mu = mpmath.mpf(epsilon), mpmath.mpf(mu)
    return mpmath.ncdf(mu / 2 - eps / mu) - mpmath.exp(eps) * mpmath.ncdf(-mu / 2 - eps / mu)


def meets_delta(epsilon: float, delta: float, l2_sensitivity: float, sigma: float) -> bool:
    """The Gaussian noise σ for sensitivity Δ₂ is (ε, δ)-DP by the exact profile."""
    return gaussian_delta_exact(epsilon, l2_sensitivity / sigma) <= delta * (1 + ROUNDING)


def exact_exponential_law(scores, epsilon: float, sensitivity: float, log_weights=None) -> np.ndarray:
    """P(i) ∝ w_i exp(ε u_i / (2Δ)) in 60-digit arithmetic (the non-monotone exponential mechanism)."""
    scores = np.asarray(scores, dtype=float)
    weights = np.zeros(scores.shape) if log_weights is None else np.asarray(log_weights, dtype=float)
    logits = [mpmath.mpf(epsilon) * mpmath.mpf(float(s)) / (2 * mpmath.mpf(sensitivity)) + mpmath.mpf(float(w))
              for s, w in zip(scores, weights)]
    top = max(logits)
    terms = [mpmath.exp(logit - top) for logit in logits]
    total = mpmath.fsum(terms)
    return np.array([float(term / total) for term in terms])


def finite(*values) -> bool:
    return all(np.all(np.isfinite(np.asarray(value, dtype=float))) for value in values)


def strictly(call):
    """``call()`` with numpy overflow, division by zero and invalid operations raised, not warned."""
    with np.errstate(**STRICT):
        return call()


def refuses(call, *names: str):
    """``call()`` strictly; a ``ValueError`` must name one of ``names`` (then None is returned)."""
    try:
        return strictly(call)
    except ValueError as refused:
        assert any(name in str(refused) for name in names), f"{refused!s} names none of {names}"
        return None


@contextlib.contextmanager
def spy(owner, name: str):
    """Record every call of ``owner.name`` as a dict of its arguments by parameter name (defaults filled in)."""
    original = getattr(owner, name)
    signature = inspect.signature(original)
    calls = []

    def record(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        calls.append(dict(bound.arguments))
        return original(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(owner, name, record)
        yield calls


def largest(value) -> float:
    return float(np.max(np.asarray(value, dtype=float)))


def smallest(value) -> float:
    return float(np.min(np.asarray(value, dtype=float)))


# ====================================================================== regressions: the bugs these properties found
@pytest.mark.parametrize("alpha, per_user, epsilon", [(1e-20, 20, 1.0), (1e-300, 20, 1e6), (1e-17, 1, 1e-3)])
def test_users_needed_at_a_tiny_alpha_is_finite(alpha, per_user, epsilon):
    """1 - (1 - α)^m rounded to 0 for α below 1e-16: a bare ZeroDivisionError before. Now the exact value
    4 ln(k/β)/(ε m α) (to first order in α)."""
    expected = 4.0 * math.log(user_level.GRID_SIZE / 0.1) / (epsilon * per_user * alpha)
    assert user_level.users_needed(alpha, per_user, epsilon) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("kind", ["clipped", "group", "one_per_user"])
def test_users_needed_beyond_a_float_is_refused(kind):
    """ε = 1e-9 with α = 1e-300 needs about 3e310 users: ``inf`` (group) or a ZeroDivisionError (clipped) before."""
    with pytest.raises(ValueError, match=r"epsilon=1e-09 and alpha=1e-300"):
        user_level.users_needed(1e-300, 1, 1e-9, kind=kind)


LOMAX = np.random.default_rng(0).pareto(4, 200)


@pytest.mark.parametrize("call, budget", [
    (lambda: heavy_tailed_mean.private_mean_1d(LOMAX, 1e-9, 1.01, 100.0, rng=0), "epsilon=1e-09 and n=100"),
    (lambda: heavy_tailed_mean.private_mean_1d_zcdp(LOMAX, 1e-9, 1.1, 1e6, rng=0), "rho=1e-09 and n=100"),
    (lambda: heavy_tailed_mean.private_mean_1d_approx(LOMAX, 1e-9, 1e-12, 1.01, 100.0, rng=0),
     "epsilon=1e-09 and delta=1e-12"),
])
def test_a_window_narrowed_by_the_default_alpha_is_refused_naming_the_budget(call, budget):
    """A small budget makes the default alpha = (ε n)^(-(k-1)/k) exceed 1 and the window r = c/alpha^(1/(k-1)) tiny:
    too many histogram cells. The message blamed mean_range alone before; now it names the budget that set alpha."""
    with pytest.raises(ValueError, match=rf"mean_range must span .*default alpha=.* set from {budget}"):
        call()


@pytest.mark.parametrize("call, budget", [
    (lambda: heavy_tailed_mean.private_mean_1d_zcdp(LOMAX, 1e-9, 1.0202, 10.0, rng=0, alpha=1e-3), "rho=1e-09"),
    (lambda: heavy_tailed_mean.private_mean_1d_approx(LOMAX, 1e-9, 1e-12, 1.0202, 10.0, rng=0, alpha=1e-3),
     "epsilon=1e-09 and delta=1e-12"),
    (lambda: heavy_tailed_mean.private_mean_nd_zcdp(LOMAX.reshape(100, 2), 1e-9, 1.0202, 10.0, rng=0, alpha=1e-3),
     "rho=1e-09"),
])
def test_unrepresentable_noise_of_the_zcdp_estimators_names_their_own_parameters(call, budget):
    """The refusal named "epsilon=4.47e-05" (√(2ρ), a parameter these functions do not take; "epsilon=1.345e-10" for
    the (ε, δ) version called with ε = 1e-9). Now it names ρ, or ε and δ, as passed."""
    with pytest.raises(ValueError, match=rf"^{budget}.* needs noise of scale"):
        call()


def student_t_clipped_second_moment(df: float, scale: float, radius: float) -> float:
    """E min(X², t²) for X = scale · T_df (the variance of the clipped law, centred at its mean), 60 digits."""
    v, bound = mpmath.mpf(df), mpmath.mpf(radius) / mpmath.mpf(scale)
    density = mpmath.gamma((v + 1) / 2) / (mpmath.sqrt(v * mpmath.pi) * mpmath.gamma(v / 2))
    points = [mpmath.mpf(0)] + [mpmath.mpf(10) ** e for e in range(-1, int(mpmath.log10(bound)) + 1)] + [bound]
    inside = 2 * mpmath.quad(lambda z: z * z * density * (1 + z * z / v) ** (-(v + 1) / 2), sorted(set(points)))
    outside = mpmath.betainc(v / 2, mpmath.mpf(0.5), 0, v / (v + bound**2), regularized=True)  # P(|T| > bound)
    return float(mpmath.mpf(scale) ** 2 * (inside + bound**2 * outside))


@pytest.mark.parametrize("moment_k, shape, radius", [(101.0, None, 1e5), (1001.0, None, 10.0), (1.5, 2.01, None)])
def test_clipped_student_t_variance_is_the_exact_integral(moment_k, shape, radius):
    """The Student-t's clipped second moment came from scipy's 2F1 at -z²/ν: NaN for ν = 102 at z = 1e6 and for
    ν = 1002 from z ≈ 100 (the first two cases). Now an incomplete beta function, which must keep its digits where
    1 - x = ν/(ν + z²) is far below the rounding of x (ν = 2.01, z = 3e8: the last case, right before as well)."""
    dist = distributions.heavy_tailed("student-t", moment_k, shape=shape)
    radius = 3e8 * dist.scale if radius is None else radius
    curve = distributions.bias_noise_curve(dist, 1, 1.0, np.array([radius]))
    exact = student_t_clipped_second_moment(dist.shape, dist.scale, radius)
    assert curve["sampling_variance"][0] == pytest.approx(exact, rel=1e-8)


@pytest.mark.parametrize("epsilon", [1e5, 1e6])
def test_optimal_window_of_a_light_tailed_student_t_is_finite(epsilon):
    """ε n = 1e5 pushes the search grid to radii where the clipped variance was NaN: the MSE was NaN (radius 1684)."""
    radius, mse = distributions.optimal_window(distributions.heavy_tailed("student-t", 101.0), 1, epsilon)
    assert math.isfinite(mse) and mse == pytest.approx(0.01, rel=1e-3)  # sd 0.1 for one point: bias 0, noise ~0


@pytest.mark.parametrize("family, moment_k", [("gaussian", 400.0), ("gaussian", 1001.0), ("student-t", 1001.0)])
def test_a_law_with_a_high_moment_order_has_its_exact_scale(family, moment_k):
    """E|Z|^k overflows a float above k ≈ 250: heavy_tailed raised OverflowError. The scale (E|Z|^k)^(-1/k) is now
    computed in logs; checked against 60-digit arithmetic."""
    k = mpmath.mpf(moment_k)
    if family == "gaussian":
        log_moment = k / 2 * mpmath.log(2) + mpmath.loggamma((k + 1) / 2) - mpmath.log(mpmath.pi) / 2
    else:
        v = k + 1  # the default degrees of freedom max(k + 1, 3)
        log_moment = (k / 2 * mpmath.log(v) + mpmath.loggamma((k + 1) / 2) + mpmath.loggamma((v - k) / 2)
                      - mpmath.loggamma(v / 2) - mpmath.log(mpmath.pi) / 2)
    dist = distributions.heavy_tailed(family, moment_k)
    assert dist.scale == pytest.approx(float(mpmath.exp(-log_moment / k)), rel=1e-12)


# ====================================================================== dpcore.estimators.mean_release
MECHANISM = st.sampled_from(mean_release.MECHANISMS)


@SETTINGS
@given(mechanism=MECHANISM, epsilon=EPSILONS, delta=DELTAS, dimension=st.integers(1, 4), n=st.integers(2, 200),
       radius=log_uniform(1e-3, 1e3))
def test_calibrate_meets_the_request(mechanism, epsilon, delta, dimension, n, radius):
    """calibrate: ε in [1e-9, 1e6], δ in [1e-300, 0.5]. The classical Gaussian refuses ε > 1 (naming epsilon)."""
    if mechanism == "gaussian_classical" and epsilon > 1:
        with pytest.raises(ValueError, match="epsilon"):
            mean_release.calibrate(mechanism, dimension, n, epsilon, delta, radius)
        return
    noise = refuses(lambda: mean_release.calibrate(mechanism, dimension, n, epsilon, delta, radius), "epsilon")
    assert noise is not None and finite(noise.coordinate_sd, noise.rmse) and noise.coordinate_sd > 0
    assert noise.rmse == pytest.approx(noise.coordinate_sd * math.sqrt(dimension))
    l2 = 2.0 * radius / n  # one replaced point moves the clipped mean by 2C/n in l2, by at most 2C sqrt(d)/n in l1
    if mechanism == "laplace":
        assert l2 * math.sqrt(dimension) / (noise.coordinate_sd / math.sqrt(2.0)) <= epsilon * (1 + TIGHT)
    elif mechanism == "zcdp_gaussian":
        assert l2**2 / (2 * noise.coordinate_sd**2) <= epsilon**2 / 2 * (1 + TIGHT)
    else:
        assert meets_delta(epsilon, delta, l2, noise.coordinate_sd)


def check_mean_release_calls(mechanism, calls, epsilon, delta, l2):
    """The mechanism calls of one release: the sensitivity each was given covers the documented one, the budget is
    the request, and the noise meets it."""
    assert calls, "no noise was drawn"
    for call in calls:
        if mechanism == "laplace":
            scale = call["sensitivity"] / call["epsilon"]
            assert l2 * math.sqrt(call["value"].shape[-1]) / scale <= epsilon * (1 + TIGHT)
        elif mechanism == "zcdp_gaussian":
            sigma = call["l2_sensitivity"] / math.sqrt(2 * call["rho"])
            assert l2**2 / (2 * sigma**2) <= epsilon**2 / 2 * (1 + TIGHT)
        else:
            sigma = mechanisms.gaussian_sigma(call["l2_sensitivity"], call["epsilon"], call["delta"],
                                              call["calibration"])
            assert meets_delta(epsilon, delta, l2, sigma)


@SETTINGS
@given(mechanism=MECHANISM, epsilon=EPSILONS, delta=DELTAS, dimension=st.integers(1, 4), n=st.integers(2, 60),
       trials=st.integers(1, 3), radius=log_uniform(1e-2, 1e2), seed=SEEDS)
def test_private_means_are_finite_and_meet_the_request(mechanism, epsilon, delta, dimension, n, trials, radius, seed):
    """private_mean, repeated_releases and release_means: ε in [1e-9, 1e6], δ in [1e-300, 0.5]."""
    points = np.random.default_rng(seed).normal(0.0, 3.0, (trials, n, dimension))
    name = {"laplace": "laplace", "zcdp_gaussian": "zcdp_gaussian"}.get(mechanism, "gaussian")
    if mechanism == "gaussian_classical" and epsilon > 1:
        with pytest.raises(ValueError, match="epsilon"):
            mean_release.private_mean(points, epsilon, delta, mechanism, radius, rng=seed)
        return
    with spy(mechanisms, name) as calls:
        released = strictly(lambda: mean_release.private_mean(points, epsilon, delta, mechanism, radius, rng=seed))
        repeated = strictly(lambda: mean_release.repeated_releases(points[0], epsilon, delta, mechanism, radius,
                                                                   releases=trials, rng=seed))
        calibration = mean_release.calibrate(mechanism, dimension, n, epsilon, delta, radius)
        direct = strictly(lambda: mean_release.release_means(mechanism, points.mean(axis=1), calibration, epsilon,
                                                             delta, rng=seed))
    assert released.shape == (trials, dimension) and repeated.shape == (trials, dimension)
    assert direct.shape == (trials, dimension) and finite(released, repeated, direct)
    check_mean_release_calls(mechanism, calls, epsilon, delta, 2.0 * radius / n)


@SETTINGS
@given(mechanism=st.sampled_from((*mean_release.MECHANISMS, mean_release.NON_PRIVATE)), epsilon=EPSILONS,
       delta=DELTAS, dimension=st.integers(1, 100_000), n=log_uniform(2, 1e12).map(int))
def test_expected_error_is_finite(mechanism, epsilon, delta, dimension, n):
    """expected_error: ε in [1e-9, 1e6], δ in [1e-300, 0.5], d up to 1e5, n up to 1e12 (a formula, no data)."""
    if mechanism == "gaussian_classical" and epsilon > 1:
        with pytest.raises(ValueError, match="epsilon"):
            mean_release.expected_error(mechanism, dimension, n, epsilon, delta)
        return
    error = refuses(lambda: mean_release.expected_error(mechanism, dimension, n, epsilon, delta), "epsilon")
    assert error is not None and math.isfinite(error) and error >= math.sqrt(dimension / n) * (1 - TIGHT)


# ====================================================================== dpcore.estimators.heavy_tailed_mean
#: A smaller histogram cap for these tests (the real one, 2e7 cells, allocates ~160 MB per array): the same code
#: path refuses earlier, and no example can allocate much.
TEST_HISTOGRAM_CELLS = 200_000


@contextlib.contextmanager
def small_histograms():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(heavy_tailed_mean, "MAX_HISTOGRAM_CELLS", TEST_HISTOGRAM_CELLS)
        yield


def heavy_sample(seed: int, trials: int, n: int, shift: float) -> np.ndarray:
    x = shift + np.random.default_rng(seed).standard_t(3, (trials, n))
    return x[0] if trials == 1 else x


def window_radius(constant: float, alpha: float, moment_k: float) -> float:
    """r = c / alpha^(1/(k-1)) (c for k = inf), in logs."""
    return constant if math.isinf(moment_k) else math.exp(math.log(constant) - math.log(alpha) / (moment_k - 1.0))


@SETTINGS
@given(n=log_uniform(1.0, 1e12), epsilon=EPSILONS, moment_k=MOMENTS)
def test_default_alpha_is_finite(n, epsilon, moment_k):
    """default_alpha: ε in [1e-9, 1e6], n in [1, 1e12], k in (1, 1001] or inf."""
    alpha = strictly(lambda: heavy_tailed_mean.default_alpha(n, epsilon, moment_k))
    assert math.isfinite(alpha) and alpha >= n**-0.5 * (1 - TIGHT)


@SETTINGS
@given(epsilon=EPSILONS, trials=st.integers(1, 3), n=st.integers(1, 200), low=st.floats(-100, 100),
       width=log_uniform(1e-3, 1e3), seed=SEEDS)
def test_clipped_laplace_mean_meets_the_request(epsilon, trials, n, low, width, seed):
    """clipped_laplace_mean (docs/algorithms.md §1.3): ε in [1e-9, 1e6], window width in [1e-3, 1e3]."""
    x = heavy_sample(seed, trials, n, low + width / 2)
    high = low + width
    with spy(mechanisms, "laplace") as calls:
        result = strictly(lambda: heavy_tailed_mean.clipped_laplace_mean(x, epsilon, low, high, rng=seed))
    assert finite(result.estimate, result.noise_scale) and np.shape(result.estimate) == x.shape[:-1]
    assert 0 <= smallest(result.clipped_fraction) and largest(result.clipped_fraction) <= 1
    sensitivity = (high - low) / n  # clipped values lie in [low, high]
    assert sensitivity / result.noise_scale <= epsilon * (1 + TIGHT)
    [call] = calls
    assert sensitivity / (largest(call["sensitivity"]) / call["epsilon"]) <= epsilon * (1 + TIGHT)


@SETTINGS
@given(epsilon=EPSILONS, alpha=log_uniform(1e-6, 1e3), moment_k=MOMENTS, mean_range=log_uniform(1.0, 1e3),
       trials=st.integers(1, 3), n=st.integers(1, 200), seed=SEEDS)
def test_private_range_is_a_window_of_length_6r(epsilon, alpha, moment_k, mean_range, trials, n, seed):
    """private_range (docs/algorithms.md §1.4): ε in [1e-9, 1e6], α in [1e-6, 1e3] given, k in (1, 1001] or inf. A
    window too wide or too narrow to compute with (k near 1) is refused naming moment_k and alpha, a grid of too many
    buckets naming mean_range."""
    x = heavy_sample(seed, trials, n, 0.5 * mean_range)
    with small_histograms(), spy(mechanisms, "laplace_histogram") as calls:
        window = refuses(lambda: heavy_tailed_mean.private_range(x, epsilon, alpha, moment_k, mean_range, rng=seed),
                         "moment_k", "mean_range")
    if window is None:
        return
    low, high = (np.asarray(end) for end in window)
    r = window_radius(2.0, alpha, moment_k)
    assert finite(low, high) and low.shape == x.shape[:-1]
    assert np.allclose(high - low, 6 * r, rtol=1e-9)
    assert np.all(low >= -mean_range - 6 * r * (1 + 1e-9)) and np.all(high <= mean_range + 6 * r * (1 + 1e-9))
    assert [call["epsilon"] for call in calls] == [epsilon]  # Lap(2/ε) per bucket: l1 sensitivity 2


def check_two_stage(result, x, groups):
    """Shape, finiteness, window and clipped fraction of a private_mean_1d result; returns the l2 = l1 sensitivity of
    the mean."""
    assert np.shape(result.estimate) == x.shape[:-1]
    assert finite(result.estimate, result.interval_low, result.interval_high, result.noise_scale)
    assert np.all(np.asarray(result.interval_low) < np.asarray(result.interval_high))
    assert 0 <= smallest(result.clipped_fraction) and largest(result.clipped_fraction) <= 1
    size = (x.shape[-1] // 2) // groups
    return largest(np.asarray(result.interval_high) - np.asarray(result.interval_low)) / size


TWO_STAGE = dict(moment_k=MOMENTS, mean_range=log_uniform(1.0, 1e3), trials=st.integers(1, 2),
                 n=st.integers(8, 200), groups=st.integers(1, 2), alpha=st.none() | log_uniform(1e-3, 1e3),
                 seed=SEEDS)


@FEW
@given(epsilon=EPSILONS, **TWO_STAGE)
def test_private_mean_1d_meets_the_request(epsilon, moment_k, mean_range, trials, n, groups, alpha, seed):
    """private_mean_1d (docs/algorithms.md §1.5, pure): ε in [1e-9, 1e6], α default (set from ε) or in [1e-3, 1e3]. A
    refusal names epsilon when α is the default (ε is what made the window degenerate), else alpha, moment_k or
    mean_range."""
    x = heavy_sample(seed, trials, n, 0.3 * mean_range)
    names = ("epsilon",) if alpha is None else ("epsilon", "alpha", "moment_k", "mean_range")
    with small_histograms(), spy(mechanisms, "laplace") as calls:
        result = refuses(lambda: heavy_tailed_mean.private_mean_1d(x, epsilon, moment_k, mean_range, rng=seed,
                                                                   alpha=alpha, groups=groups), *names)
    if result is None:
        return
    sensitivity = check_two_stage(result, x, groups)
    assert sensitivity / result.noise_scale <= epsilon * (1 + TIGHT)
    [call] = calls
    assert sensitivity / (largest(call["sensitivity"]) / call["epsilon"]) <= epsilon * (1 + TIGHT)


@FEW
@given(rho=RHOS, **TWO_STAGE)
def test_private_mean_1d_zcdp_meets_the_request(rho, moment_k, mean_range, trials, n, groups, alpha, seed):
    """private_mean_1d_zcdp: ρ in [1e-9, 1e6]; a refusal names rho when α is the default."""
    x = heavy_sample(seed, trials, n, 0.3 * mean_range)
    names = ("rho",) if alpha is None else ("rho", "alpha", "moment_k", "mean_range")
    with small_histograms(), spy(mechanisms, "zcdp_gaussian") as calls:
        result = refuses(lambda: heavy_tailed_mean.private_mean_1d_zcdp(x, rho, moment_k, mean_range, rng=seed,
                                                                        alpha=alpha, groups=groups), *names)
    if result is None:
        return
    sensitivity = check_two_stage(result, x, groups)
    assert sensitivity**2 / (2 * result.noise_scale**2) <= rho * (1 + TIGHT)
    histogram, mean = calls  # replace-one moves two counts by 1 (l2 sqrt 2); the clipped mean by |window| / size
    for call, l2 in ((histogram, math.sqrt(2.0)), (mean, sensitivity)):
        sigma = largest(call["l2_sensitivity"]) / math.sqrt(2 * call["rho"])
        assert l2**2 / (2 * sigma**2) <= rho * (1 + TIGHT)


@FEW
@given(epsilon=EPSILONS, delta=DELTAS, **TWO_STAGE)
def test_private_mean_1d_approx_meets_the_request(epsilon, delta, moment_k, mean_range, trials, n, groups, alpha,
                                                  seed):
    """private_mean_1d_approx: ε in [1e-9, 1e6], δ in [1e-300, 0.5]. Each Gaussian step (histogram, mean; on disjoint
    halves) is checked against the exact (ε, δ) profile, not the zCDP conversion the estimator uses."""
    x = heavy_sample(seed, trials, n, 0.3 * mean_range)
    names = ("epsilon", "delta") if alpha is None else ("epsilon", "delta", "alpha", "moment_k", "mean_range")
    with small_histograms(), spy(mechanisms, "zcdp_gaussian") as calls:
        result = refuses(lambda: heavy_tailed_mean.private_mean_1d_approx(
            x, epsilon, delta, moment_k, mean_range, rng=seed, alpha=alpha, groups=groups), *names)
    if result is None:
        return
    sensitivity = check_two_stage(result, x, groups)
    histogram, mean = calls
    for call, l2 in ((histogram, math.sqrt(2.0)), (mean, sensitivity)):
        assert meets_delta(epsilon, delta, l2, largest(call["l2_sensitivity"]) / math.sqrt(2 * call["rho"]))


ND = dict(moment_k=MOMENTS, mean_range=log_uniform(1.0, 1e3), trials=st.integers(1, 2), n=st.integers(8, 100),
          dimension=st.integers(1, 4), alpha=st.none() | log_uniform(1e-3, 1e3), seed=SEEDS)


def nd_sample(seed, trials, n, dimension, mean_range):
    x = 0.3 * mean_range + np.random.default_rng(seed).standard_t(3, (trials, n, dimension))
    return x[0] if trials == 1 else x


def ball_sensitivity(x, alpha, moment_k):
    """Δ₂ = 8r/(3n) of the truncated mean over the half Z of n points, r = 4 sqrt(d) / alpha^(1/(k-1))."""
    half = x.shape[-2] // 2
    return 8.0 * window_radius(4.0 * math.sqrt(x.shape[-1]), alpha, moment_k) / (3.0 * half)


@FEW
@given(rho=RHOS, **ND)
def test_private_mean_nd_zcdp_meets_the_request(rho, moment_k, mean_range, trials, n, dimension, alpha, seed):
    """private_mean_nd_zcdp (docs/algorithms.md §1.6): ρ in [1e-9, 1e6], d ≤ 4. The coarse calls on Y spend ρ in all (d
    calls at ρ/d), the ball mean on Z spends ρ with Δ₂ = 8r/(3n)."""
    x = nd_sample(seed, trials, n, dimension, mean_range)
    names = ("rho",) if alpha is None else ("rho", "alpha", "moment_k", "mean_range")
    with small_histograms(), spy(mechanisms, "zcdp_gaussian") as calls:
        estimate = refuses(lambda: heavy_tailed_mean.private_mean_nd_zcdp(x, rho, moment_k, mean_range, rng=seed,
                                                                          alpha=alpha), *names)
    if estimate is None:
        return
    assert estimate.shape == x.shape[:-2] + (dimension,) and finite(estimate)
    *coarse, final = calls
    assert len(coarse) == 2 * dimension  # a histogram and a clipped mean per coordinate, each on its own half of Y
    assert sum(call["rho"] for call in coarse[::2]) <= rho * (1 + TIGHT)
    assert sum(call["rho"] for call in coarse[1::2]) <= rho * (1 + TIGHT)
    if alpha is None:
        alpha = heavy_tailed_mean.default_alpha((n // 2) / dimension, math.sqrt(2 * rho), moment_k)
    sigma = largest(final["l2_sensitivity"]) / math.sqrt(2 * final["rho"])
    assert ball_sensitivity(x, alpha, moment_k) ** 2 / (2 * sigma**2) <= rho * (1 + TIGHT)


@FEW
@given(epsilon=EPSILONS, **ND)
def test_private_mean_nd_pure_meets_the_request(epsilon, moment_k, mean_range, trials, n, dimension, alpha, seed):
    """private_mean_nd_pure: ε in [1e-9, 1e6], d ≤ 4. Coarse calls at ε/d per coordinate; the ball mean adds
    Laplace with Δ₁ = sqrt(d) 8r/(3n)."""
    x = nd_sample(seed, trials, n, dimension, mean_range)
    names = ("epsilon",) if alpha is None else ("epsilon", "alpha", "moment_k", "mean_range")
    with small_histograms(), spy(mechanisms, "laplace") as calls, spy(mechanisms, "laplace_histogram") as histograms:
        estimate = refuses(lambda: heavy_tailed_mean.private_mean_nd_pure(x, epsilon, moment_k, mean_range, rng=seed,
                                                                          alpha=alpha), *names)
    if estimate is None:
        return
    assert estimate.shape == x.shape[:-2] + (dimension,) and finite(estimate)
    *coarse, final = calls
    assert len(coarse) == len(histograms) == dimension
    assert sum(call["epsilon"] for call in coarse) <= epsilon * (1 + TIGHT)
    assert sum(call["epsilon"] for call in histograms) <= epsilon * (1 + TIGHT)
    if alpha is None:
        alpha = heavy_tailed_mean.default_alpha((n // 2) / dimension, epsilon / math.sqrt(dimension), moment_k)
    scale = largest(final["sensitivity"]) / final["epsilon"]
    assert math.sqrt(dimension) * ball_sensitivity(x, alpha, moment_k) / scale <= epsilon * (1 + TIGHT)


# ====================================================================== dpcore.estimators.truncated_mle
TRUNCATED = dict(epsilon=EPSILONS, delta=DELTAS, dimension=st.integers(1, 2), trials=st.integers(1, 2),
                 n=st.integers(50, 200), survival_radius=st.floats(1.0, 3.0), bound=st.floats(0.1, 1.5), seed=SEEDS)


def truncated_sample(seed, trials, n, dimension):
    """Data around μ* = 0.5 (per coordinate), the warm start c = 0 (a scalar for 1-D data)."""
    shape = (trials, n) if dimension == 1 else (trials, n, dimension)
    x = 0.5 + np.random.default_rng(seed).standard_normal(shape)
    return (x[0] if trials == 1 else x), (0.0 if dimension == 1 else np.zeros(dimension))


def check_truncated(result, x, warm_start, dimension, trials):
    shape = () if dimension == 1 else (dimension,)
    assert np.shape(result.estimate) == np.shape(result.naive) == ((trials,) if trials > 1 else ()) + shape
    assert finite(result.estimate, result.naive, result.noise_sigma) and result.noise_sigma > 0
    return 2.0 * result.survival_radius / result.target_size if hasattr(result, "survival_radius") else None


def distance_from(estimate, warm_start, dimension) -> np.ndarray:
    offsets = np.asarray(estimate, dtype=float) - warm_start
    return np.abs(offsets) if dimension == 1 else np.linalg.norm(offsets, axis=-1)


@SETTINGS
@given(**TRUNCATED)
def test_naive_and_moment_matched_truncated_means_meet_the_request(epsilon, delta, dimension, trials, n,
                                                                  survival_radius, bound, seed):
    """naive_truncated_mean and truncated_mle_mean (moment matching, docs/algorithms.md §1.7): ε in [1e-9, 1e6], δ in
    [1e-300, 0.5], d ≤ 2. The release is one Gaussian with Δ₂ = 2 r_S / N; the moment-matched estimate lies in K = B(c,
    D_K) (the bisection's range)."""
    x, warm_start = truncated_sample(seed, trials, n, dimension)
    with spy(mechanisms, "gaussian") as calls:
        naive = refuses(lambda: truncated_mle.naive_truncated_mean(x, epsilon, delta, warm_start, survival_radius,
                                                                   rng=seed, mean_offset_bound=bound), "epsilon")
        matched = refuses(lambda: truncated_mle.truncated_mle_mean(x, epsilon, delta, warm_start, survival_radius,
                                                                   rng=seed, mean_offset_bound=bound), "epsilon")
    assert (naive is None) == (matched is None)
    if naive is None:
        return
    for result in (naive, matched):
        check_truncated(result, x, warm_start, dimension, trials)
        sensitivity = 2.0 * survival_radius / result.target_size  # N points inside S = B(c, r_S)
        assert meets_delta(epsilon, delta, sensitivity, result.noise_sigma)
    assert np.all(distance_from(matched.estimate, warm_start, dimension) <= bound * (1 + 1e-12))
    for call in calls:
        sigma = mechanisms.gaussian_sigma(call["l2_sensitivity"], call["epsilon"], call["delta"], call["calibration"])
        assert meets_delta(epsilon, delta, 2.0 * survival_radius / naive.target_size, sigma)


@FEW
@given(**TRUNCATED, steps=st.integers(1, 4))
def test_truncated_dpgd_meets_the_request_in_composition(epsilon, delta, dimension, trials, n, survival_radius,
                                                         bound, seed, steps):
    """truncated_dpgd_mean (DP gradient descent, docs/algorithms.md §1.7): ε in [1e-9, 1e6], δ in [1e-300, 0.5], T ≤ 4
    steps, d ≤ 2 (50 rejection draws). The T gradient releases (each Δ₂ = 2 r_S / N) compose exactly to one Gaussian
    with μ = √(Σ (Δ₂/σ_t)²), which must meet (ε, δ) by the exact profile; every iterate, hence the average, stays in K =
    B(c, D_K)."""
    x, warm_start = truncated_sample(seed, trials, n, dimension)
    with spy(mechanisms, "gaussian") as calls:
        result = refuses(lambda: truncated_mle.truncated_dpgd_mean(
            x, epsilon, delta, warm_start, survival_radius, rng=seed, mean_offset_bound=bound, steps=steps,
            monte_carlo=50), "epsilon")
    if result is None:
        return
    check_truncated(result, x, warm_start, dimension, trials)
    assert np.all(distance_from(result.estimate, warm_start, dimension) <= bound * (1 + 1e-12))
    sensitivity = 2.0 * survival_radius / result.target_size
    assert len(calls) == steps
    sigmas = [mechanisms.gaussian_sigma(call["l2_sensitivity"], call["epsilon"], call["delta"], call["calibration"])
              for call in calls]
    assert sigmas == pytest.approx([result.noise_sigma] * steps, rel=1e-12)
    mu_total = math.sqrt(sum((sensitivity / sigma) ** 2 for sigma in sigmas))
    assert gaussian_delta_exact(epsilon, mu_total) <= delta * (1 + ROUNDING)


# ====================================================================== dpcore.estimators.partition_rounds
MARGINALS = st.lists(log_uniform(1e-4, 0.5), min_size=2, max_size=8).map(np.array)


def check_partition(result, epsilon, rho, heavy):
    """Estimates in [0, 1/2]; every Laplace block with scale b and clip radius T over n_b rows has 2T/n_b / b ≤ ε;
    the Gaussian heavy block has (2T/n_H)² / (2σ²) ≤ ρ (ρ = ε²/2 by default)."""
    assert finite(result.estimate) and np.all((result.estimate >= 0) & (result.estimate <= 0.5))
    releases = [(r.radius, r.samples, r.noise_scale) for r in result.rounds] + [
        (result.final.radius, result.final.samples, result.final.noise_scale)]
    if heavy == "laplace":
        releases.append((result.heavy.radius, result.heavy.samples, result.heavy.noise_scale))
    for radius, samples, scale in releases:
        radius, scale = np.asarray(radius, dtype=float), np.asarray(scale, dtype=float)
        assert finite(radius, scale)
        used = scale > 0  # 0: a trial that had already stopped (no release)
        assert np.all(2.0 * radius[used] / samples / scale[used] <= epsilon * (1 + TIGHT))
    if heavy == "gaussian":
        rho = epsilon**2 / 2 if rho is None else rho
        sigma = np.asarray(result.heavy.noise_scale, dtype=float)
        l2 = 2.0 * np.asarray(result.heavy.radius, dtype=float) / result.heavy.samples
        assert finite(sigma) and np.all(l2**2 / (2 * sigma**2) <= rho * (1 + TIGHT))


PARTITION = dict(epsilon=EPSILONS, heavy=st.sampled_from(("laplace", "gaussian")), rho=st.none() | RHOS,
                 rounds=st.none() | st.integers(1, 3), stop_early=st.booleans(), seed=SEEDS)


@FEW
@given(**PARTITION, p=MARGINALS, trials=st.integers(1, 2), n=st.integers(60, 200))
def test_partition_rounds_meets_the_request(epsilon, heavy, rho, rounds, stop_early, seed, p, trials, n):
    """partition_rounds on rows: ε and ρ in [1e-9, 1e6], d ≤ 8, n ≤ 200, up to 3 rounds."""
    rows = (np.random.default_rng(seed).random((trials, n, p.size)) < p).astype(float)
    rows = rows[0] if trials == 1 else rows
    result = strictly(lambda: partition_rounds.partition_rounds(rows, epsilon, rng=seed, heavy=heavy, rho=rho,
                                                                rounds=rounds, stop_early=stop_early))
    assert result.estimate.shape == rows.shape[:-2] + (p.size,)
    check_partition(result, epsilon, rho, heavy)


@FEW
@given(**PARTITION, p=MARGINALS, trials=st.none() | st.integers(1, 3), n=log_uniform(100, 1e9).map(int))
def test_simulated_partition_rounds_meet_the_request(epsilon, heavy, rho, rounds, stop_early, seed, p, trials, n):
    """simulate_partition_rounds (fast mode): ε and ρ in [1e-9, 1e6], n up to 1e9 rows (simulated)."""
    result = strictly(lambda: partition_rounds.simulate_partition_rounds(
        p, n, epsilon, trials=trials, rng=seed, heavy=heavy, rho=rho, rounds=rounds, stop_early=stop_early))
    assert result.estimate.shape == ((p.size,) if trials is None else (trials, p.size))
    check_partition(result, epsilon, rho, heavy)


def check_one_shot_calls(laplace_calls, gaussian_calls, epsilon, delta):
    """The one-shot baselines spend the request: Laplace at ε, the Gaussian at (ε, δ) (its σ meets the exact profile
    for the sensitivity it was given)."""
    assert all(call["epsilon"] == epsilon for call in laplace_calls)
    for call in gaussian_calls:
        assert call["epsilon"] == epsilon and call["delta"] == delta
        sigma = mechanisms.gaussian_sigma(call["l2_sensitivity"], epsilon, delta, call["calibration"])
        assert meets_delta(epsilon, delta, call["l2_sensitivity"], sigma)


@FEW
@given(epsilon=EPSILONS, delta=DELTAS, p=MARGINALS, n=log_uniform(100, 1e9).map(int), seed=SEEDS)
def test_simulated_estimators_are_valid(epsilon, delta, p, n, seed):
    """simulate_estimators and estimate_from_counts: ε in [1e-9, 1e6], δ in [1e-300, 0.5], n up to 1e9 (simulated).
    Every estimate lies in [0, 1/2] (each method clips to it)."""
    with spy(partition_rounds, "laplace") as laplace_calls, spy(partition_rounds, "gaussian") as gaussian_calls:
        trace, estimates = strictly(lambda: partition_rounds.simulate_estimators(p, n, epsilon, rng=seed,
                                                                                 delta=delta))
    assert list(estimates) == list(partition_rounds.METHODS)
    for estimate in estimates.values():
        assert estimate.shape == (p.size,) and finite(estimate) and np.all((estimate >= 0) & (estimate <= 0.5))
    check_partition(trace, epsilon, None, "laplace")
    check_one_shot_calls(laplace_calls, gaussian_calls, epsilon, delta)
    layout = partition_rounds.block_layout(n, p.size)
    generator = np.random.default_rng(seed)
    counts = partition_rounds.draw_block_counts(p, layout, 2, generator)
    for method in partition_rounds.METHODS:
        result = strictly(lambda method=method: partition_rounds.estimate_from_counts(method, counts, layout, p,
                                                                                      epsilon, generator, delta))
        estimate = result.estimate if isinstance(result, partition_rounds.PartitionResult) else result
        assert estimate.shape == (2, p.size) and finite(estimate) and np.all((estimate >= 0) & (estimate <= 0.5))


@SETTINGS
@given(epsilon=EPSILONS, delta=DELTAS, method=st.sampled_from(("naive_laplace", "oracle_laplace", "one_shot_gaussian",
                                                               "non_private")),
       p=MARGINALS, n=st.integers(3, 200), seed=SEEDS)
def test_baseline_estimates_meet_the_request(epsilon, delta, method, p, n, seed):
    """baseline_estimates (docs/algorithms.md §3.4): ε in [1e-9, 1e6], δ in [1e-300, 0.5]. Naive Laplace covers
    Δ₁ = d/n (two rows of {0,1}^d differ by at most d), the one-shot Gaussian the clip radius C = √Bern(d/2, d/2, 1,
    ln(2n/β)): Δ₂ = 2C/n."""
    rows = (np.random.default_rng(seed).random((n, p.size)) < p).astype(float)
    with spy(partition_rounds, "laplace") as laplace_calls, spy(partition_rounds, "gaussian") as gaussian_calls:
        estimate = strictly(lambda: partition_rounds.baseline_estimates(rows, epsilon, method, rng=seed, delta=delta,
                                                                        total_mass=float(p.sum())))
    assert estimate.shape == (p.size,) and finite(estimate) and np.all((estimate >= 0) & (estimate <= 0.5))
    check_one_shot_calls(laplace_calls, gaussian_calls, epsilon, delta)
    d, log_term = p.size, math.log(2 * n / 0.1)
    if method == "naive_laplace":
        [call] = laplace_calls
        assert (d / n) / (call["sensitivity"] / epsilon) <= epsilon * (1 + TIGHT)
    if method == "one_shot_gaussian":
        [call] = gaussian_calls
        radius = math.sqrt(d / 2 + math.sqrt(2 * (d / 2) * log_term) + 2 / 3 * log_term)
        assert meets_delta(epsilon, delta, 2 * radius / n,
                           mechanisms.gaussian_sigma(call["l2_sensitivity"], epsilon, delta, call["calibration"]))


@SETTINGS
@given(epsilon=EPSILONS, n=st.integers(1, 200), d=st.integers(1, 8), radius=log_uniform(1e-3, 1e3), seed=SEEDS)
def test_clipped_laplace_means_meet_the_request(epsilon, n, d, radius, seed):
    """clipped_laplace_means (one round's release): ε in [1e-9, 1e6], Δ₁ = 2T/n for rows clipped to the l1 ball T."""
    rows = (np.random.default_rng(seed).random((n, d)) < 0.3).astype(float)
    with spy(partition_rounds, "laplace") as calls:
        released = strictly(lambda: partition_rounds.clipped_laplace_means(rows, epsilon, radius, rng=seed))
    assert released.shape == (d,) and finite(released)
    [call] = calls
    assert (2 * radius / n) / (call["sensitivity"] / call["epsilon"]) <= epsilon * (1 + TIGHT)


# ====================================================================== dpcore.estimators.selection
def check_selection(choice, epsilon, sensitivity, size):
    """An index in range, probabilities in [0, 1] summing to 1 and equal to the exact law ∝ exp(ε S / (2Δ))."""
    index = np.asarray(choice.index)
    assert np.issubdtype(index.dtype, np.integer) and np.all((index >= 0) & (index < size))
    probabilities = np.asarray(choice.probabilities)
    assert finite(probabilities) and np.all((probabilities >= 0) & (probabilities <= 1))
    assert np.allclose(probabilities.sum(axis=-1), 1.0)
    assert choice.sensitivity == pytest.approx(sensitivity)
    scores = np.asarray(choice.scores).reshape(-1, size)
    for row, law in zip(scores, probabilities.reshape(-1, size)):
        logits = epsilon * np.max(np.abs(row)) / (2 * sensitivity)  # float logits carry ~1e-16 of this, absolutely
        assert np.allclose(law, exact_exponential_law(row, epsilon, sensitivity), rtol=1e-9 + 1e-14 * logits,
                           atol=1e-12)


@SETTINGS
@given(epsilon=EPSILONS, k=st.integers(2, 9), trials=st.integers(1, 2), n=st.integers(10, 200),
       alpha=log_uniform(1e-3, 0.25), seed=SEEDS)
def test_private_select_item_level_meets_the_request(epsilon, k, trials, n, alpha, seed):
    """private_select (item level, docs/algorithms.md §4.2): ε in [1e-9, 1e6]; the scores have sensitivity 1."""
    x = np.random.default_rng(seed).normal(0.3, 1.0, (trials, n))
    family = selection.gaussian_grid(k)
    choice = strictly(lambda: selection.private_select(family, x, epsilon, alpha, rng=seed))
    check_selection(choice, epsilon, 1.0, k)


@SETTINGS
@given(epsilon=EPSILONS, k=st.integers(2, 9), users=st.integers(2, 50), per_user=st.integers(1, 8),
       tau=st.none() | log_uniform(1e-2, 1e2) | st.just(math.inf), seed=SEEDS)
def test_private_select_user_level_meets_the_request(epsilon, k, users, per_user, tau, seed):
    """private_select (user level, docs/algorithms.md §4.3): ε in [1e-9, 1e6]; Δ = min(m, 2τ), τ = √m by default (∞:
    group privacy)."""
    x = np.random.default_rng(seed).normal(0.3, 1.0, (users, per_user))
    family = selection.gaussian_grid(k)
    choice = strictly(lambda: selection.private_select(family, x, epsilon, rng=seed, level="user", tau=tau))
    check_selection(choice, epsilon, min(per_user, 2 * (math.sqrt(per_user) if tau is None else tau)), k)


@SETTINGS
@given(epsilon=EPSILONS, n=st.integers(10, 200), groups=st.integers(1, 5), alpha=log_uniform(1e-3, 0.25),
       clip=log_uniform(0.1, 100), seed=SEEDS)
def test_ksu20_tournament_meets_the_request(epsilon, n, groups, alpha, clip, seed):
    """ksu20_tournament: ε in [1e-9, 1e6] over a 3 × 3 public cover; scores of sensitivity 1."""
    points = np.array([0.2, -0.1]) + np.random.default_rng(seed).standard_t(3, (n, 2))
    cover_points = np.array([(a, b) for b in (-1.5, 0.0, 1.5) for a in (-1.5, 0.0, 1.5)])
    choice = strictly(lambda: heavy_tailed_mean.ksu20_tournament(points, cover_points, epsilon, alpha, groups, clip,
                                                         rng=seed))
    check_selection(choice, epsilon, 1.0, len(cover_points))


@SETTINGS
@given(epsilon=st.one_of(EPSILONS, st.just(math.inf)), n=log_uniform(1, 1e15), k=st.integers(2, 10**6),
       beta=log_uniform(1e-12, 0.5), per_user=log_uniform(1, 1e6), alpha=log_uniform(1e-6, 0.25))
def test_selection_guarantees_are_finite(epsilon, n, k, beta, per_user, alpha):
    """guarantee_alpha (ε also inf) and users_needed_theory: ε in [1e-9, 1e6], n up to 1e15, k up to 1e6."""
    reached = strictly(lambda: selection.guarantee_alpha(n, k, epsilon, beta))
    assert finite(reached) and reached >= math.sqrt(2 * math.log(k * k / beta) / n) * (1 - TIGHT)
    if math.isfinite(epsilon):
        needed = strictly(lambda: selection.users_needed_theory(per_user, k, alpha, epsilon, beta))
        assert finite(needed) and needed > 0


# ====================================================================== dpcore.estimators.user_level
@SETTINGS
@given(epsilon=EPSILONS, kind=st.sampled_from(user_level.LOSSES), tau=log_uniform(1e-2, 1e2),
       users=st.integers(1, 50), per_user=st.integers(1, 10), trials=st.none() | st.integers(1, 3),
       grid_size=st.integers(2, 101), one_per_user=st.booleans(), seed=SEEDS)
def test_select_threshold_meets_the_request(epsilon, kind, tau, users, per_user, trials, grid_size, one_per_user,
                                            seed):
    """select_threshold: ε in [1e-9, 1e6]. The threshold is a grid point; the exponential mechanism is given the
    request ε and a sensitivity covering the loss's: m (group), 1 (clipped), min(τ, m) (tau), m = 1 per user kept."""
    x, y = user_level.threshold_data(users, per_user, rng=seed, trials=trials)
    grid = user_level.default_grid(grid_size)
    with spy(mechanisms, "exponential") as calls:
        chosen = strictly(lambda: user_level.select_threshold(x, y, epsilon, kind, tau, grid, rng=seed,
                                                              one_per_user=one_per_user))
    assert np.shape(chosen) == (() if trials is None else (trials,)) and np.all(np.isin(chosen, grid))
    m = 1 if one_per_user else per_user
    [call] = calls
    assert call["epsilon"] == epsilon and not call["monotonic"]
    assert call["sensitivity"] >= {"group": m, "clipped": 1.0, "tau": min(tau, m)}[kind]


@SETTINGS
@given(alpha=log_uniform(1e-300, 0.999), per_user=log_uniform(1, 1e6).map(int), epsilon=EPSILONS,
       candidates=st.integers(2, 10**6), beta=log_uniform(1e-12, 0.5),
       kind=st.sampled_from(("clipped", "group", "one_per_user")))
def test_users_needed_is_finite_or_refused(alpha, per_user, epsilon, candidates, beta, kind):
    """users_needed: ε in [1e-9, 1e6], α in [1e-300, 0.999] (beyond a float, e.g. ε = 1e-9 with α = 1e-300, a
    refusal naming epsilon and alpha). Clipping never needs more users than group privacy."""
    # 1 - (1 - α)^m in 60 digits (through log1p: 1 - α itself rounds to 1 at α = 1e-300, even in 60 digits)
    caught = float(-mpmath.expm1(per_user * mpmath.log1p(-mpmath.mpf(alpha)))) if kind == "clipped" else alpha
    log_needed = math.log(4 * math.log(candidates / beta)) - math.log(epsilon) - math.log(caught)
    needed = refuses(lambda: user_level.users_needed(alpha, per_user, epsilon, candidates, beta, kind),
                     "epsilon=")
    if needed is None:
        assert log_needed > math.log(np.finfo(float).max) - 1e-9
        return
    assert math.isfinite(needed) and needed > 0
    assert needed == pytest.approx(math.exp(log_needed), rel=1e-9)
    group = refuses(lambda: user_level.users_needed(alpha, per_user, epsilon, candidates, beta, "group"), "epsilon=")
    assert group is None or needed <= group * (1 + TIGHT)


# ====================================================================== dpcore.estimators.cover
@SETTINGS
@given(epsilon=EPSILONS, dimension=st.integers(1, 2), trials=st.integers(1, 2), n=st.integers(1, 100),
       radius=log_uniform(0.1, 10), spacing=log_uniform(0.05, 5), directions=st.integers(3, 16), seed=SEEDS)
def test_cover_mean_is_a_cover_point(epsilon, dimension, trials, n, radius, spacing, directions, seed):
    """cover_mean: ε in [1e-9, 1e6], d ≤ 2. The release is a point of the public grid; the exponential mechanism is
    given the request ε, Δ = 1 and no monotonicity (the depth is not monotone under replace-one)."""
    x = np.random.default_rng(seed).normal(0.3, 2.0, (trials, n, dimension))
    x = x[0] if trials == 1 else x
    grid = cover.grid_cover(radius, spacing, dimension)
    with spy(mechanisms, "exponential") as calls:
        released = strictly(lambda: cover.cover_mean(x, epsilon, radius, spacing, directions, rng=seed))
    assert released.shape == x.shape[:-2] + (dimension,) and finite(released)
    assert all(np.any(np.all(grid == point, axis=1)) for point in released.reshape(-1, dimension))
    [call] = calls
    assert call["epsilon"] == epsilon and call["sensitivity"] == 1.0 and not call["monotonic"]


# ====================================================================== dpcore.estimators.sdp
@SETTINGS
@given(epsilon=EPSILONS, cells=st.integers(1, 12), size=st.none() | st.integers(1, 3), seed=SEEDS)
def test_sample_direction_draws_the_exact_weighted_law(epsilon, cells, size, seed):
    """sample_direction (the grid sampler, docs/algorithms.md §5.3): ε in [1e-9, 1e6], scores in [0, 20], weights in
    [1e-6, 1]. A unit vector; the scores handed to the mechanism (shifted by (2/ε) ln π) give exactly the law ∝ π exp(ε
    u/2)."""
    generator = np.random.default_rng(seed)
    scores, weights = generator.uniform(0, 20, cells), 10 ** generator.uniform(-6, 0, cells)
    points = generator.normal(size=(cells, 2)) + 0.1
    with spy(mechanisms, "exponential") as calls:
        direction = strictly(lambda: sdp.sample_direction(scores, weights, points, epsilon, rng=seed, size=size))
    assert direction.shape == ((2,) if size is None else (size, 2)) and finite(direction)
    assert np.allclose(np.linalg.norm(direction, axis=-1), 1.0)
    [call] = calls
    assert call["epsilon"] == epsilon and call["sensitivity"] == 1.0 and not call["monotonic"]
    drawn = exact_exponential_law(call["scores"], epsilon, 1.0)
    assert np.allclose(drawn, exact_exponential_law(scores, epsilon, 1.0, np.log(weights)), rtol=1e-6, atol=1e-9)


@SLOW
@given(epsilon=EPSILONS, n=st.integers(8, 40), buckets=st.integers(2, 4), steps=st.integers(1, 2),
       max_step=log_uniform(0.1, 10), seed=SEEDS)
def test_iterative_mean_2d_spends_the_request(epsilon, n, buckets, steps, max_step, seed):
    """iterative_mean_2d: ε in [1e-9, 1e6] (cvxpy: few examples, a 1 × 3 polar grid). The 2T mechanisms spend ε in
    all; each step lies in [0, s_max] along a unit direction, so the estimate is within T·s_max of the start."""
    points = np.random.default_rng(seed).standard_normal((n, 2)) + [1.0, 0.5]
    with spy(mechanisms, "exponential") as directions, spy(sdp, "private_quantile") as medians:
        run = strictly(lambda: sdp.iterative_mean_2d(points, epsilon, buckets=buckets, steps=steps, max_step=max_step,
                                                     rng=seed, radii_count=1, angles=3))
    assert finite(run.estimate, run.trajectory, run.directions, run.steps, run.scores)
    assert np.allclose(np.linalg.norm(run.directions, axis=1), 1.0)
    assert np.all((run.steps >= 0) & (run.steps <= max_step))
    assert np.linalg.norm(run.estimate) <= steps * max_step * (1 + 1e-12)
    assert len(directions) == len(medians) == steps
    assert sum(call["epsilon"] for call in directions + medians) <= epsilon * (1 + TIGHT)


# ====================================================================== dpcore.theory
SIZES = st.lists(log_uniform(1, 1e15), min_size=1, max_size=4).map(np.array)
FINITE_MOMENTS = log_uniform(1e-3, 1e3).map(lambda excess: 1.0 + excess)


@SETTINGS
@given(n=SIZES, epsilon=EPSILONS, moment_k=FINITE_MOMENTS, moment_bound=log_uniform(1e-3, 1e3))
def test_clipped_mean_rate_curves_are_finite(n, epsilon, moment_k, moment_bound):
    """clipped_mean_optimal_radius and clipped_mean_private_error: ε in [1e-9, 1e6], n up to 1e15, k in (1, 1001],
    M_k in [1e-3, 1e3]. Positive and finite, and the error is the bias bound + noise at the radius."""
    radius = strictly(lambda: theory.clipped_mean_optimal_radius(n, epsilon, moment_k, moment_bound))
    error = strictly(lambda: theory.clipped_mean_private_error(n, epsilon, moment_k, moment_bound))
    assert finite(radius, error) and np.all(radius > 0) and np.all(error > 0)
    a_k = math.exp((moment_k - 1) * math.log(moment_k - 1) - moment_k * math.log(moment_k))
    bias = a_k * moment_bound * radius ** (1 - moment_k)
    noise = 2 * math.sqrt(2) / (epsilon * n) * radius
    if moment_k > 1.01:  # the closed form divides by k - 1: below, too few digits are left to compare
        assert np.allclose(error, bias + noise, rtol=1e-6)


@SETTINGS
@given(n=SIZES, epsilon=EPSILONS, moment_k=st.one_of(st.just(math.inf), log_uniform(2, 1e3)),
       constant=log_uniform(1e-3, 1e3), width=log_uniform(1e-3, 1e3), candidates=SIZES,
       sensitivity=log_uniform(1e-3, 1e3), t=st.floats(0, 50), monotonic=st.booleans(),
       statistic=st.sampled_from(("median", "rmse")))
def test_rate_shapes_and_laplace_error_are_finite(n, epsilon, moment_k, constant, width, candidates, sensitivity, t,
                                                  monotonic, statistic):
    """heavy_tailed_rate, laplace_mean_error and exponential_mechanism_loss_bound: ε in [1e-9, 1e6], n up to 1e15.
    laplace_mean_error's noise is Lap(b) with Δ₁/b ≤ ε for Δ₁ = width/n."""
    rate = strictly(lambda: theory.heavy_tailed_rate(n, epsilon, moment_k, constant))
    loss = strictly(lambda: theory.exponential_mechanism_loss_bound(candidates, epsilon, sensitivity, t, monotonic))
    error = strictly(lambda: theory.laplace_mean_error(n, epsilon, width, statistic="rmse"))
    median = strictly(lambda: theory.laplace_mean_error(n, epsilon, width, statistic=statistic))
    assert finite(rate, loss, error, median) and np.all(rate > 0) and np.all(loss >= 0) and np.all(median > 0)
    assert np.all((width / n) / (error / math.sqrt(2)) <= epsilon * (1 + TIGHT))


@SETTINGS
@given(n=SIZES, epsilon=EPSILONS, delta=DELTAS, l2_width=log_uniform(1e-3, 1e3), dimension=log_uniform(1, 1e4).map(int),
       statistic=st.sampled_from(("median", "rmse")))
def test_gaussian_mean_error_meets_the_request(n, epsilon, delta, l2_width, dimension, statistic):
    """gaussian_mean_error: ε in [1e-9, 1e6], δ in [1e-300, 0.5], d up to 1e4. σ = rmse/√d meets the exact profile
    for Δ₂ = l2_width/n."""
    error = refuses(lambda: theory.gaussian_mean_error(n, epsilon, delta, l2_width, dimension, statistic),
                    "epsilon")
    rmse = strictly(lambda: theory.gaussian_mean_error(n, epsilon, delta, l2_width, dimension, "rmse"))
    assert finite(error, rmse) and np.all(np.asarray(error) > 0)
    for size, sigma in zip(n, np.asarray(rmse) / math.sqrt(dimension)):
        assert meets_delta(epsilon, delta, l2_width / size, sigma)


# ====================================================================== dpcore.distributions.heavy_tailed
LAWS = st.sampled_from(distributions.FAMILIES).flatmap(
    lambda family: st.tuples(st.just(family), st.just(math.inf) | FINITE_MOMENTS if family == "gaussian"
                             else FINITE_MOMENTS))


@SETTINGS
@given(law=LAWS, n=log_uniform(1, 1e9).map(int), epsilon=EPSILONS,
       radii=st.lists(log_uniform(1e-3, 1e6), min_size=1, max_size=5).map(np.array),
       center=st.none() | st.floats(-10, 10))
def test_bias_noise_curve_is_finite_and_calibrated(law, n, epsilon, radii, center):
    """bias_noise_curve: ε in [1e-9, 1e6], n up to 1e9, radii in [1e-3, 1e6], k in (1, 1001] (inf: Gaussian). Every
    term finite and non-negative; the noise term is Lap(b) with Δ₁/b ≤ ε for Δ₁ = 2t/n."""
    dist = distributions.heavy_tailed(*law)
    curve = strictly(lambda: distributions.bias_noise_curve(dist, n, epsilon, radii, center))
    assert finite(*curve.values()) and all(np.all(values >= 0) for values in curve.values())
    assert np.allclose(curve["mse"], curve["bias_squared"] + curve["noise_variance"] + curve["sampling_variance"])
    scale = np.sqrt(curve["noise_variance"] / 2)
    assert np.all((2 * radii / n) / scale <= epsilon * (1 + TIGHT))


@SETTINGS
@given(law=LAWS, n=log_uniform(1, 1e9).map(int), epsilon=EPSILONS, include_sampling=st.booleans(),
       center=st.none() | st.floats(-10, 10))
def test_optimal_window_is_finite(law, n, epsilon, include_sampling, center):
    """optimal_window: ε in [1e-9, 1e6], n up to 1e9, k in (1, 1001] (inf: Gaussian). A radius ≥ t₀ = A_k^(1/k) and
    a finite MSE."""
    dist = distributions.heavy_tailed(*law)
    radius, mse = strictly(lambda: distributions.optimal_window(dist, n, epsilon, center=center,
                                                                include_sampling=include_sampling))
    assert math.isfinite(radius) and math.isfinite(mse) and mse >= 0
    assert radius >= distributions.bulk_radius(dist.moment_k) * (1 - 1e-9)
