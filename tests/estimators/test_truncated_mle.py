"""Truncate-then-correct (Zampetakis & Zhou 2025; docs/algorithms.md §1.7, §1.9.3 and §1.9.4): numbers,
preprocessing, privacy audit."""

import math

import numpy as np
import pytest
from scipy import stats

from dpcore import accounting, audit, mechanisms
from dpcore.estimators import truncated_mle as tm

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "survival_mass": dict(mean_offset=1.0, survival_radius=1.5, dimension=1),
    "target_size": dict(n=4000, mean_offset_bound=1.0, survival_radius=1.5, dimension=1),
    "fixed_size": dict(
        points=np.zeros((5, 2)), warm_start=np.zeros(2), survival_radius=1.0, target_size=3, rng=0
    ),
    "truncated_mean_map": dict(mu=0.5, warm_start=0.0, survival_radius=1.5),
    "naive_truncated_mean": dict(
        x=np.zeros(20), epsilon=1.0, delta=1e-6, warm_start=0.0, survival_radius=1.5, rng=0, mean_offset_bound=1.0
    ),
    "truncated_mle_mean": dict(
        x=np.zeros(20), epsilon=1.0, delta=1e-6, warm_start=0.0, survival_radius=1.5, rng=0, mean_offset_bound=1.0
    ),
    "truncated_dpgd_mean": dict(
        x=np.zeros((20, 2)),
        epsilon=1.0,
        delta=1e-6,
        warm_start=np.zeros(2),
        survival_radius=2.0,
        rng=0,
        mean_offset_bound=1.0,
        steps=2,
        learning_rate=1.0,
        monte_carlo=100,
    ),
}


EPSILON, DELTA = 1.0, 1e-6
# 1-D instance of docs/algorithms.md §1.7: mu* = 0.8, warm start 0, D_K = 1, r_S = 1.5, n = 4000.
MU, RADIUS, N_RAW, TRIALS = 0.8, 1.5, 4000, 200
# d-dim instance: d = 10, ||mu* - mu0|| = 0.8, r_S = sqrt(d) + 0.5, n = 20000.
DIM, RADIUS_D, N_RAW_D = 10, math.sqrt(10) + 0.5, 20000
MU_D = np.r_[0.8, np.zeros(DIM - 1)]


def rmse(estimates, truth):
    return float(np.sqrt(np.mean(np.sum((np.reshape(estimates, (len(estimates), -1)) - truth) ** 2, axis=1))))


@pytest.fixture(scope="module")
def one_dim():
    """200 independent datasets of the 1-D instance, and the three estimators run on them (vectorised)."""
    x = np.random.default_rng(2024).normal(MU, 1.0, (TRIALS, N_RAW))
    return {"naive": tm.naive_truncated_mean(x, EPSILON, DELTA, 0.0, RADIUS, rng=1),
            "moments": tm.truncated_mle_mean(x, EPSILON, DELTA, 0.0, RADIUS, rng=1),
            "dpgd": tm.truncated_dpgd_mean(x, EPSILON, DELTA, 0.0, RADIUS, rng=1)}


# ------------------------------------------------------------------------------- truncated Gaussian

def test_truncated_normal_mean_and_variance():
    assert tm.truncated_mean_map(0.8, 0.0, 1.5) == pytest.approx(0.420069, abs=1e-6)
    # the map's derivative is the truncated variance (the NLL's Hessian): Var(N(0,1) | [-1, 1])
    h = 1e-4
    slope = (tm.truncated_mean_map(h, 0.0, 1.0) - tm.truncated_mean_map(-h, 0.0, 1.0)) / (2 * h)
    assert slope == pytest.approx(0.291125, abs=1e-6)


@pytest.mark.parametrize("a", [-45.0, -8.0, -1.0, 0.0, 3.0, 30.0])
@pytest.mark.parametrize("width", [1e-3, 1.0, 50.0])
def test_closed_form_matches_scipy_truncnorm_in_the_tails(a, width):
    got = tm._standard_truncated_mean(np.array(a), np.array(a + width))
    assert got == pytest.approx(stats.truncnorm.mean(a, a + width), rel=1e-10, abs=1e-10)


@pytest.mark.parametrize("dimension, radius", [(2, 1.0), (10, RADIUS_D), (50, math.sqrt(50) + 0.5)])
def test_radial_quadrature_reproduces_the_noncentral_chi2_mass(dimension, radius):
    nodes, log_weights = tm._radial_rule(dimension, radius)
    for offset in (0.0, 0.8, 3.0):
        mass = np.exp(log_weights - 0.5 * (nodes - offset) ** 2).sum()
        assert mass == pytest.approx(tm.survival_mass(offset, radius, dimension), abs=1e-12)


def test_d_dim_truncated_mean_matches_monte_carlo_and_points_along_the_ray():
    center = np.linspace(-1.0, 1.0, DIM)
    direction = np.random.default_rng(0).standard_normal(DIM)
    mu = center + 0.8 * direction / np.linalg.norm(direction)
    z = mu + np.random.default_rng(1).standard_normal((10**6, DIM))
    z = z[np.linalg.norm(z - center, axis=1) <= RADIUS_D]
    mapped = tm.truncated_mean_map(mu, center, RADIUS_D)
    np.testing.assert_allclose(mapped, z.mean(axis=0), atol=5 / math.sqrt(len(z)))
    offset = mapped - center
    np.testing.assert_allclose(offset / np.linalg.norm(offset), (mu - center) / 0.8, atol=1e-12)
    batch = tm.truncated_mean_map(np.stack([mu, center]), center, RADIUS_D)
    np.testing.assert_allclose(batch, [mapped, center], atol=1e-12)


def test_survival_mass_and_target_size_of_the_instances():
    assert tm.survival_mass(1.0, RADIUS) == pytest.approx(stats.norm.cdf(0.5) - stats.norm.cdf(-2.5), abs=1e-12)
    assert tm.survival_mass(1.0, RADIUS) == pytest.approx(0.68525, abs=5e-6)
    assert tm.target_size(N_RAW, 1.0, RADIUS) == 2192
    assert tm.survival_mass(1.0, RADIUS_D, DIM) == pytest.approx(0.728, abs=5e-4)
    assert tm.target_size(N_RAW_D, 1.0, RADIUS_D, DIM) == 11644


# ------------------------------------------------------------------------------------- preprocessing

def test_fixed_size_returns_exactly_n_points_inside_s():
    x = np.random.default_rng(3).normal(2.0, 2.0, (50, 300, 3))
    center = np.array([1.0, 0.0, -1.0])
    out = tm.fixed_size(x, center, 2.0, 120, rng=0)
    assert out.shape == (50, 120, 3)
    assert np.all(np.linalg.norm(out - center, axis=-1) <= 2.0)


def test_fixed_size_trims_to_a_subset_in_order_when_everything_is_inside():
    x = np.random.default_rng(4).uniform(-1.0, 1.0, (7, 40))
    out = tm.fixed_size(x, 0.0, 1.0, 25, rng=5)
    np.testing.assert_array_equal(np.sort(out, axis=1), np.sort(x[:, :25], axis=1))  # the first N, shuffled
    assert not np.array_equal(out, x[:, :25])


def test_fixed_size_pads_with_the_warm_start():
    x = np.array([[0.1, 5.0, -0.2, 9.0], [5.0, 5.0, 5.0, 0.3]])
    out = tm.fixed_size(x, 0.5, 1.0, 6, rng=0)
    for row, kept in zip(out, ([0.1, -0.2], [0.3])):
        np.testing.assert_array_equal(np.sort(row), np.sort(np.r_[kept, np.full(6 - len(kept), 0.5)]))


def test_fixed_size_vectorised_equals_one_dataset_at_a_time():
    x = np.random.default_rng(6).normal(0.0, 1.5, (5, 60, 2))
    batch = tm.fixed_size(x, np.zeros(2), 1.5, 30, rng=1)
    for rows, data in zip(batch, x):
        single = tm.fixed_size(data, np.zeros(2), 1.5, 30, rng=2)
        np.testing.assert_array_equal(np.sort(rows, axis=0), np.sort(single, axis=0))


# ------------------------------------------------------------------------------- accuracy (docs/algorithms.md §1.7)

def test_one_dim_instance(one_dim):
    naive, t5b, t5a = (rmse(one_dim[k].estimate, MU) for k in ("naive", "moments", "dpgd"))
    assert -0.40 <= np.mean(one_dim["naive"].estimate - MU) <= -0.36
    assert 0.025 <= t5b <= 0.045  # delta-method formula 0.0333
    assert t5a <= 0.06
    assert naive >= 5 * t5b and naive >= 5 * t5a  # the bias correction cuts the error by >= 5x
    assert one_dim["moments"].target_size == 2192 and one_dim["moments"].kept.shape == (TRIALS,)


def test_t5b_reports_its_own_release_as_the_naive_estimate(one_dim):
    np.testing.assert_array_equal(one_dim["moments"].naive, one_dim["naive"].estimate)
    sigma = mechanisms.gaussian_sigma(2 * RADIUS / 2192, EPSILON, DELTA)
    assert one_dim["moments"].noise_sigma == pytest.approx(sigma)
    assert "(1, 1e-06)-DP, replace-one" in one_dim["moments"].guarantee and "2 r_S / N" in one_dim["moments"].guarantee


def test_dpgd_noise_composes_exactly_to_the_budget(one_dim):
    sigma, steps = one_dim["dpgd"].noise_sigma, 10
    assert sigma == pytest.approx(math.sqrt(steps) * (2 * RADIUS / 2192) / accounting.gaussian_mu(EPSILON, DELTA))
    total = accounting.gaussian_composition((2 * RADIUS / 2192) / sigma, steps)
    assert accounting.gaussian_epsilon(total, DELTA) == pytest.approx(EPSILON, rel=1e-6)


def test_d_dim_instance():
    x = np.random.default_rng(7).normal(MU_D, 1.0, (3, N_RAW_D, DIM))
    release = tm.truncated_mle_mean(x, EPSILON, DELTA, np.zeros(DIM), RADIUS_D, rng=8)
    assert release.target_size == 11644 and release.estimate.shape == (3, DIM)
    naive_error = np.linalg.norm(release.naive - MU_D, axis=1)
    assert np.all((0.12 <= naive_error) & (naive_error <= 0.19))
    assert np.all(np.linalg.norm(release.estimate - MU_D, axis=1) <= 0.07)
    dpgd = tm.truncated_dpgd_mean(x[0], EPSILON, DELTA, np.zeros(DIM), RADIUS_D, rng=9)
    assert np.linalg.norm(dpgd.estimate - MU_D) <= 0.07


def test_out_of_range_releases_map_to_the_boundary_of_k():
    x = np.repeat([[1.5], [-1.5], [0.2]], N_RAW, axis=1)  # rows 1-2: beyond E_{mu,S}[z] for every mu in K
    release = tm.truncated_mle_mean(x, EPSILON, DELTA, 0.0, RADIUS, rng=0)
    np.testing.assert_allclose(release.estimate[:2], [1.0, -1.0], atol=1e-12)
    assert abs(release.estimate[2]) < 1.0
    assert np.all(np.abs(tm.truncated_dpgd_mean(x, EPSILON, DELTA, 0.0, RADIUS, rng=0).estimate) <= 1.0)


# -------------------------------------------------------------------------------- privacy audit (1-D)

AUDIT_DRAWS = 200_000


def audited_releases(estimator):
    """Neighbours: ten points inside S with n >= N = 10, so the fixed-size step keeps the first N in order;
    the first point moves from one end of S to the other, moving the truncated mean by exactly 2 r_S / N."""
    data = np.zeros(20)
    data[0] = -RADIUS
    neighbour = data.copy()
    neighbour[0] = RADIUS
    assert tm.target_size(data.size, 1.0, RADIUS) == 10
    return [estimator(np.broadcast_to(d, (AUDIT_DRAWS, d.size)), EPSILON, DELTA, 0.0, RADIUS, rng=seed)
            for d, seed in ((data, 1), (neighbour, 2))]


def epsilon_lower_bound(field, releases, thresholds):
    counts = [audit.threshold_counts(getattr(r, field), thresholds) for r in releases]
    return audit.epsilon_lower_bound(*counts, AUDIT_DRAWS, DELTA).epsilon_lower_bound


def test_release_and_estimate_pass_the_privacy_audit():
    releases = audited_releases(tm.truncated_mle_mean)
    released = epsilon_lower_bound("naive", releases, np.linspace(-5.0, 5.0, 33))
    assert 0.3 < released <= EPSILON  # the audit has power, and the claim holds
    assert epsilon_lower_bound("estimate", releases, np.linspace(-1.0, 1.0, 33)) <= EPSILON


def test_audit_catches_halved_noise(monkeypatch):
    gaussian = mechanisms.gaussian
    monkeypatch.setattr(mechanisms, "gaussian", lambda value, l2, *args, **kwargs: gaussian(value, l2 / 2, *args,
                                                                                              **kwargs))
    releases = audited_releases(tm.naive_truncated_mean)
    assert epsilon_lower_bound("naive", releases, np.linspace(-5.0, 5.0, 33)) > EPSILON


# ------------------------------------------------------------------------ shapes, seeds and bad input

@pytest.mark.parametrize("estimator", [tm.naive_truncated_mean, tm.truncated_mle_mean, tm.truncated_dpgd_mean])
def test_shapes_and_seeded_reproducibility(estimator):
    rng = np.random.default_rng(11)
    cases = [(rng.normal(0.5, 1, 300), 0.0, (), ()), (rng.normal(0.5, 1, (4, 300)), 0.0, (4,), (4,)),
             (rng.normal(0.5, 1, (300, 3)), np.zeros(3), (3,), ()),
             (rng.normal(0.5, 1, (4, 300, 3)), np.zeros(3), (4, 3), (4,))]
    for x, center, shape, kept_shape in cases:
        kwargs = dict(monte_carlo=500) if estimator is tm.truncated_dpgd_mean else {}
        first = estimator(x, EPSILON, DELTA, center, 2.5, rng=3, **kwargs)
        again = estimator(x, EPSILON, DELTA, center, 2.5, rng=3, **kwargs)
        other = estimator(x, EPSILON, DELTA, center, 2.5, rng=4, **kwargs)
        assert np.shape(first.estimate) == np.shape(first.naive) == shape and np.shape(first.kept) == kept_shape
        assert isinstance(first.estimate, float) == (shape == ()) and isinstance(first.target_size, int)
        np.testing.assert_array_equal(first.estimate, again.estimate)
        assert not np.array_equal(first.estimate, other.estimate)


@pytest.mark.parametrize("x, warm_start", [
    (np.zeros((2, 3, 4)), 0.0),          # 3-D data with a scalar warm start
    (np.zeros((10, 3)), np.zeros(2)),    # dimension mismatch
    (np.zeros(10), np.zeros(2)),         # 1-D data with a vector warm start
])
def test_inconsistent_shapes_are_rejected(x, warm_start):
    with pytest.raises(ValueError, match="^x must have shape"):
        tm.truncated_mle_mean(x, EPSILON, DELTA, warm_start, RADIUS)


def test_too_few_points_for_one_kept_point_is_rejected():
    with pytest.raises(ValueError, match="^n must be large enough"):
        tm.naive_truncated_mean(np.zeros(1), EPSILON, DELTA, 0.0, RADIUS)
    with pytest.raises(ValueError, match="^mu must have shape"):
        tm.truncated_mean_map(np.zeros(3), np.zeros(2), RADIUS)


def test_the_release_uses_exactly_the_mean_of_the_fixed_size_dataset():
    """The estimators compute the fixed-size mean without materialising the dataset; it must equal it."""
    rng = np.random.default_rng(12)
    x = 0.8 + rng.standard_normal((5, 300))
    x[:, :40] = 9.0  # outside S: dropped, and with fewer than N inside the warm start pads
    size = tm.target_size(300, 1.0, 1.5)
    from dpcore.estimators.truncated_mle import _batch, _fixed_size_mean
    batch, center, _ = _batch(x, np.asarray(0.0))
    fast, kept = _fixed_size_mean(batch, center, 1.5, size)
    slow = tm.fixed_size(x, 0.0, 1.5, size, rng=1).mean(axis=1)
    np.testing.assert_allclose(fast[:, 0], slow, rtol=1e-12)
    np.testing.assert_array_equal(kept, (np.abs(x) <= 1.5).sum(axis=1))
