"""Binary product distributions (dpcore.distributions.binary_product) against docs/algorithms.md §3.1 and §3.6.

Every distance is checked against a brute-force sum over {0,1}^d written here (itertools.product, an explicit
product of Bernoulli probabilities), the Monte Carlo TV against the exact value within its stated error, and the
samplers against binomial standard deviations. All randomness is seeded.
"""

import itertools
import math

import numpy as np
import pytest

from dpcore.distributions import binary_product as pd

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "marginal_profile": dict(profile="power law", dimension=4, exponent=1.5),
    "sample_rows": dict(p=np.array([0.1, 0.4]), n=3, rng=0, trials=2),
    "column_counts": dict(p=np.array([0.1, 0.4]), n=3, rng=0, trials=2),
    "kl_divergence": dict(p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3])),
    "chi_squared": dict(p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3])),
    "bhattacharyya": dict(p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3])),
    "hellinger": dict(p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3])),
    "tv_bounds": dict(p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3])),
    "tv_exact": dict(p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3])),
    "tv_monte_carlo": dict(
        p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3]), samples=10, rng=0
    ),
    "tv_distance": dict(p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3]), samples=10, rng=0),
}


# ------------------------------------------------------------------------------------ brute force over {0,1}^d
def probability(marginals, point):
    """P(x) = prod_j p_j^x_j (1 - p_j)^(1 - x_j), written out."""
    result = 1.0
    for p_j, x_j in zip(marginals, point):
        result *= p_j if x_j else 1.0 - p_j
    return result


def brute_force(p, q):
    """(P(x), Q(x)) for every x in {0,1}^d."""
    points = list(itertools.product((0, 1), repeat=len(p)))
    return (np.array([probability(p, x) for x in points]), np.array([probability(q, x) for x in points]))


def brute_tv(p, q):
    big_p, big_q = brute_force(p, q)
    return float(np.sum(np.maximum(big_p - big_q, 0.0)))


def random_pair(rng, d, zeros=0):
    """p in (0.02, 0.5), q a perturbation of p in [0, 0.5] with ``zeros`` exact zeros."""
    p = rng.uniform(0.02, 0.5, d)
    q = np.clip(p * np.exp(rng.normal(0.0, 0.4, d)), 0.0, 0.5)
    q[rng.choice(d, size=zeros, replace=False)] = 0.0
    return p, q


# ------------------------------------------------------------------------------- profiles (docs/algorithms.md §3.1)
def test_log_uniform_profile_is_geometric_from_one_half_to_one_over_4d():
    """log-uniform: d geometrically spaced values with exact endpoints 1/2 and 1/(4d); d = 1 gives [1/2]."""
    for d in (2, 5, 64, 1024):
        p = pd.marginal_profile("log-uniform", d)
        assert p.shape == (d,)
        assert p[0] == pytest.approx(0.5, rel=1e-15) and p[-1] == pytest.approx(1 / (4 * d), rel=1e-12)
        ratio = (1 / (2 * d)) ** (1 / (d - 1))  # (p_d / p_1)^(1/(d-1))
        np.testing.assert_allclose(p[1:] / p[:-1], ratio, rtol=1e-10)
    np.testing.assert_array_equal(pd.marginal_profile("log-uniform", 1), [0.5])
    np.testing.assert_allclose(pd.marginal_profile("log-uniform", 3), [0.5, 0.5 / math.sqrt(6), 1 / 12], rtol=1e-14)


@pytest.mark.parametrize("profile, d, expected", [
    ("two-level", 6, [0.5, 0.5, 0.5, 1 / 6, 1 / 6, 1 / 6]),
    ("two-level", 5, [0.5, 0.5, 0.5, 0.2, 0.2]),  # odd d: the extra coordinate is heavy
    ("few heavy", 10, [0.5] * 4 + [1 / 40] * 6),  # ceil(sqrt(10)) = 4
    ("few heavy", 16, [0.5] * 4 + [1 / 64] * 12),  # ceil(sqrt(16)) = 4
    ("few heavy", 17, [0.5] * 5 + [1 / 68] * 12),  # ceil(sqrt(17)) = 5
    ("power law", 4, [0.5, 0.25, 0.5 / 3, 0.125]),
    ("all 1/2", 3, [0.5, 0.5, 0.5]),
    ("all tiny", 8, [0.125] * 8),
    ("all tiny", 1, [0.5]),  # 1/max(d, 2): never above 1/2
])
def test_profiles_exact_values(profile, d, expected):
    """Each named profile's exact marginals (docs/algorithms.md §3.1 and the docstring)."""
    np.testing.assert_allclose(pd.marginal_profile(profile, d), expected, rtol=1e-15)


def test_power_law_exponent():
    """power law: p_j = j^(-gamma) / 2."""
    np.testing.assert_allclose(pd.marginal_profile("power law", 5, exponent=2.0), 0.5 / np.arange(1, 6) ** 2,
                               rtol=1e-15)


@pytest.mark.parametrize("profile", pd.PROFILES)
def test_every_profile_is_sorted_decreasing_within_zero_and_one_half(profile):
    """Every profile, many d: shape (d,), non-increasing, all in (0, 1/2]."""
    for d in (1, 2, 3, 7, 16, 100, 1024, 4096):
        p = pd.marginal_profile(profile, d)
        assert p.shape == (d,)
        assert np.all(np.diff(p) <= 0)
        assert np.all(p > 0) and np.all(p <= 0.5)


def test_marginal_profile_rejects_unknown_profile_and_bad_dimension():
    """A profile name outside PROFILES and a dimension of 0 are rejected, naming the parameter."""
    with pytest.raises(ValueError, match="profile"):
        pd.marginal_profile("uniform", 4)
    with pytest.raises(ValueError, match="dimension"):
        pd.marginal_profile("log-uniform", 0)


# ------------------------------------------------------------------ TV: exact (docs/algorithms.md §3.1, §3.6.3)
@pytest.mark.parametrize("d", range(1, 11))
def test_tv_exact_equals_brute_force_enumeration(d):
    """tv_exact against an explicit sum over {0,1}^d, random pairs, some q with exact zeros."""
    rng = np.random.default_rng(d)
    for zeros in (0, 0, min(2, d)):
        p, q = random_pair(rng, d, zeros)
        assert pd.tv_exact(p, q) == pytest.approx(brute_tv(p, q), abs=1e-12)
        assert pd.tv_exact(p, q) == pytest.approx(brute_tv(q, p), abs=1e-12)  # TV is symmetric


def test_tv_exact_is_vectorised_over_leading_axes():
    """A (trials, d) or (a, b, d) q gives one TV per row, equal to the one-row call."""
    rng = np.random.default_rng(7)
    p = rng.uniform(0.05, 0.5, 6)
    qs = np.clip(p * np.exp(rng.normal(0, 0.5, (3, 4, 6))), 0, 0.5)
    values = pd.tv_exact(p, qs)
    assert values.shape == (3, 4)
    for index in np.ndindex(3, 4):
        assert values[index] == pytest.approx(brute_tv(p, qs[index]), abs=1e-12)


def test_tv_exact_of_p_with_itself_is_zero():
    """d_TV(P, P) = 0; a point mass at 0 against Q with Q(0) = 1/2 gives TV 1/2."""
    p = pd.marginal_profile("log-uniform", 12)
    assert pd.tv_exact(p, p) == pytest.approx(0.0, abs=1e-14)
    assert pd.tv_exact(np.zeros(3), np.array([0.0, 0.5, 0.0])) == pytest.approx(0.5, abs=1e-15)


def test_tv_exact_rejects_more_than_16_coordinates_and_mismatched_q():
    """d = 17 exceeds MAX_EXACT_DIMENSION; q of another length is rejected (ValueError)."""
    assert pd.MAX_EXACT_DIMENSION == 16
    pd.tv_exact(np.full(16, 0.3), np.full(16, 0.2))  # 16 is accepted
    with pytest.raises(ValueError, match="16"):
        pd.tv_exact(np.full(17, 0.3), np.full(17, 0.2))
    with pytest.raises(ValueError):
        pd.tv_exact(np.full(4, 0.3), np.full(5, 0.2))


@pytest.mark.parametrize("d", range(1, 11))
def test_tv_sandwich_holds_against_enumeration(d):
    """1 - BC <= TV <= sqrt(1 - BC^2) with TV by brute force and BC = sum_x sqrt(P(x) Q(x))."""
    rng = np.random.default_rng(100 + d)
    for zeros in (0, 0, 1):
        p, q = random_pair(rng, d, zeros)
        big_p, big_q = brute_force(p, q)
        coefficient = float(np.sum(np.sqrt(big_p * big_q)))
        tv = brute_tv(p, q)
        lower, upper = pd.tv_bounds(p, q)
        assert lower == pytest.approx(1 - coefficient, abs=1e-12)
        assert upper == pytest.approx(math.sqrt(max(0.0, 1 - coefficient ** 2)), abs=1e-12)
        assert lower - 1e-12 <= tv <= upper + 1e-12


# ------------------------------------------------------------------------------------ TV: Monte Carlo
def test_tv_monte_carlo_within_four_over_root_m_of_exact_at_d_10():
    """docs/algorithms.md §3.6.3: 5 random pairs at d = 10, m = 20000: |MC - exact| <= 4/sqrt(m), SE <= 1/(2
    sqrt(m))."""
    m = 20_000
    rng = np.random.default_rng(2024)
    for seed in range(5):
        p, q = random_pair(rng, 10)
        exact = brute_tv(p, q)
        assert 0.05 < exact < 0.95  # a pair where the check means something
        estimate, standard_error = pd.tv_monte_carlo(p, q, m, rng=seed)
        assert abs(estimate - exact) <= 4 / math.sqrt(m)
        assert 0 < standard_error <= 1 / (2 * math.sqrt(m))


def test_tv_monte_carlo_points_are_the_rows_one_draw_of_uniforms_gives():
    """The points, drawn a few thousand rows at a time into sparse form, are exactly ``random((m, d)) < p`` of the
    seed's stream: d = 512 takes three chunks (8192, 8192 and 3616 rows), d = 3 one."""
    for p, m in ((pd.marginal_profile("log-uniform", 512), 20_000), (np.array([0.1, 0.5, 1.0]), 7)):
        points = pd.TVMonteCarlo(p, m, rng=11).points
        dense = np.random.default_rng(11).random((m, p.size)) < p
        assert points.shape == dense.shape and points.nnz == dense.sum()
        np.testing.assert_array_equal(points.toarray(), dense.astype(float))


def test_tv_monte_carlo_standard_error_is_the_sample_sd_of_the_integrand():
    """The reported SE is std(integrand, ddof=1)/sqrt(m) of the same points TVMonteCarlo draws."""
    p, q = np.array([0.4, 0.1, 0.3]), np.array([0.2, 0.1, 0.45])
    integrand = pd.TVMonteCarlo(p, 5000, rng=3).integrand(q)
    assert integrand.shape == (5000,) and np.all((integrand >= 0) & (integrand <= 1))
    estimate, standard_error = pd.tv_monte_carlo(p, q, 5000, rng=3)
    assert estimate == integrand.mean()
    assert standard_error == pytest.approx(integrand.std(ddof=1) / math.sqrt(5000), rel=1e-12)


def test_tv_monte_carlo_object_reuses_its_points():
    """TVMonteCarlo draws once: the same q gives the same value twice; rows of a batch equal single calls."""
    rng = np.random.default_rng(5)
    p = pd.marginal_profile("log-uniform", 40)
    tv = pd.TVMonteCarlo(p, 3000, rng=11)
    points = tv.points.toarray()
    q = np.clip(p * np.exp(rng.normal(0, 0.3, 40)), 0, 0.5)
    first = tv(q)
    other = tv(np.clip(p * 1.5, 0, 0.5))
    assert tv(q) == first  # exactly the same: no new draws
    np.testing.assert_array_equal(tv.points.toarray(), points)
    batch = tv(np.stack([q, np.clip(p * 1.5, 0, 0.5)]))
    np.testing.assert_allclose(batch, [first, other], rtol=1e-12)
    assert tv(p) == pytest.approx(0.0, abs=1e-12)
    assert pd.tv_monte_carlo(p, q, 3000, rng=11)[0] == pytest.approx(first, rel=1e-12)  # same seed, same points


def test_tv_points_drawn_in_chunks_are_the_rows_of_one_draw():
    """TVMonteCarlo draws its points a few rows at a time: exactly the rows sample_rows draws in one call."""
    p = pd.marginal_profile("log-uniform", 300)
    chunked = pd._sparse_rows(p, 1001, 8, chunk_bytes=8 * 300 * 64)  # 64 rows per chunk, a ragged last one
    np.testing.assert_array_equal(chunked.toarray(), pd.sample_rows(p, 1001, 8))
    np.testing.assert_array_equal(pd.TVMonteCarlo(p, 1001, 8).points.toarray(), pd.sample_rows(p, 1001, 8))


def test_sparse_points_give_the_dense_log_likelihoods_with_zero_and_one_marginals():
    """TVMonteCarlo keeps its points sparse: log Q(x) over them equals the dense product to rounding, also when some
    q_j = 0 (probability ~0 for points with x_j = 1) or q_j = 1 (-inf for points with x_j = 0)."""
    p = pd.marginal_profile("log-uniform", 30)
    tv = pd.TVMonteCarlo(p, 500, rng=4)
    q = np.stack([p, np.where(np.arange(30) == 3, 0.0, p), np.where(np.arange(30) == 29, 1.0, p)])
    sparse_values = pd._log_likelihoods(tv.points, q)
    dense_values = pd._log_likelihoods(tv.points.toarray(), q)
    np.testing.assert_array_equal(np.isinf(sparse_values), np.isinf(dense_values))
    assert np.isinf(sparse_values[2]).any() and not np.isinf(sparse_values[:2]).any()
    finite = np.isfinite(dense_values)
    np.testing.assert_allclose(sparse_values[finite], dense_values[finite], rtol=1e-12)


def test_tv_distance_is_exact_up_to_16_coordinates_and_monte_carlo_above():
    """tv_distance: exact (SE 0) for d <= 16, Monte Carlo with a positive SE for d = 17; bounds attached."""
    rng = np.random.default_rng(9)
    p, q = random_pair(rng, 16)
    small = pd.tv_distance(p, q)
    assert small.exact and small.standard_error == 0.0
    assert small.value == pytest.approx(pd.tv_exact(p, q), abs=1e-15)
    assert (small.lower, small.upper) == pd.tv_bounds(p, q)
    p, q = random_pair(rng, 17)
    large = pd.tv_distance(p, q, samples=20_000, rng=1)
    assert not large.exact and 0 < large.standard_error <= 1 / (2 * math.sqrt(20_000))
    assert large.lower - 4 * large.standard_error <= large.value <= large.upper + 4 * large.standard_error
    assert large.value == pd.tv_monte_carlo(p, q, 20_000, rng=1)[0]


# ------------------------------------------------------------------------------------ KL, chi^2, BC, Hellinger
@pytest.mark.parametrize("d", [1, 2, 4, 7])
def test_factorised_divergences_equal_brute_force_sums(d):
    """KL, chi^2, Bhattacharyya and Hellinger against sums over {0,1}^d (q without zeros)."""
    rng = np.random.default_rng(30 + d)
    for _ in range(3):
        p = rng.uniform(0.01, 0.5, d)
        q = rng.uniform(0.01, 0.5, d)
        big_p, big_q = brute_force(p, q)
        kl = float(np.sum(big_p * np.log(big_p / big_q)))
        chi2 = float(np.sum(big_p ** 2 / big_q) - 1)
        coefficient = float(np.sum(np.sqrt(big_p * big_q)))
        assert pd.kl_divergence(p, q) == pytest.approx(kl, rel=1e-10, abs=1e-14)
        assert pd.chi_squared(p, q) == pytest.approx(chi2, rel=1e-10, abs=1e-14)
        assert pd.bhattacharyya(p, q) == pytest.approx(coefficient, rel=1e-12)
        assert pd.hellinger(p, q) == pytest.approx(math.sqrt(max(0.0, 1 - coefficient)), rel=1e-9)
        # the textbook chain H^2 <= TV <= sqrt(2) H
        tv = brute_tv(p, q)
        assert pd.hellinger(p, q) ** 2 - 1e-12 <= tv <= math.sqrt(2) * pd.hellinger(p, q) + 1e-12


def test_divergences_with_zeros_and_degenerate_marginals():
    """q_j = 0 < p_j makes KL and chi^2 infinite; p_j = 0 contributes 0 (brute force agrees where finite)."""
    p, q = np.array([0.3, 0.2]), np.array([0.0, 0.2])
    assert pd.kl_divergence(p, q) == math.inf
    assert pd.chi_squared(p, q) == math.inf
    assert pd.bhattacharyya(p, q) == pytest.approx(math.sqrt(0.7), rel=1e-12)  # coordinate 1 contributes 1
    p, q = np.array([0.0, 0.2]), np.array([0.1, 0.3])  # P never emits a 1 in coordinate 0
    big_p, big_q = brute_force(p, q)
    support = big_p > 0
    assert pd.kl_divergence(p, q) == pytest.approx(np.sum(big_p[support] * np.log(big_p[support] / big_q[support])),
                                                   rel=1e-12)
    assert pd.chi_squared(p, q) == pytest.approx(np.sum(big_p ** 2 / big_q) - 1, rel=1e-12)
    assert pd.kl_divergence(p, p) == 0.0 and pd.chi_squared(p, p) == pytest.approx(0.0, abs=1e-15)


def test_divergences_are_vectorised():
    """(trials, d) estimates give one value per trial, equal to the one-row calls."""
    rng = np.random.default_rng(4)
    p = rng.uniform(0.05, 0.5, 5)
    qs = rng.uniform(0.05, 0.5, (4, 5))
    for f in (pd.kl_divergence, pd.chi_squared, pd.bhattacharyya, pd.hellinger):
        values = f(p, qs)
        assert values.shape == (4,)
        np.testing.assert_allclose(values, [f(p, q) for q in qs], rtol=1e-12)


def test_chi_squared_small_error_approximation():
    """chi^2 ~ sum (q - p)^2 / (p (1 - p)) within 5 % for a 1 % relative perturbation (docs/algorithms.md §3.1); TV ~
    sqrt(chi2/2pi)."""
    rng = np.random.default_rng(12)
    p = pd.marginal_profile("log-uniform", 64)
    q = p * (1 + 0.01 * rng.choice([-1.0, 1.0], 64))
    approximation = np.sum((q - p) ** 2 / (p * (1 - p)))
    assert pd.chi_squared(p, q) == pytest.approx(approximation, rel=0.05)
    assert pd.chi_squared(p, q) > 0
    p, q = p[:12], q[:12] * (1 + 0.05 * rng.choice([-1.0, 1.0], 12))  # exact TV needs d <= 16
    assert pd.tv_exact(p, q) == pytest.approx(math.sqrt(pd.chi_squared(p, q) / (2 * math.pi)), rel=0.1)


# ------------------------------------------------------------------------------------ sampling
def test_sample_rows_shapes_dtype_and_reproducibility():
    """Boolean rows of shape (n, d) or (trials, n, d); the same seed gives the same rows, another seed others."""
    p = np.array([0.5, 0.1, 0.0, 1.0])
    rows = pd.sample_rows(p, 50, rng=3)
    assert rows.shape == (50, 4) and rows.dtype == bool
    assert pd.sample_rows(p, 7, rng=3, trials=5).shape == (5, 7, 4)
    np.testing.assert_array_equal(pd.sample_rows(p, 50, rng=3), rows)
    assert not np.array_equal(pd.sample_rows(p, 50, rng=4), rows)
    assert not rows[:, 2].any() and rows[:, 3].all()  # p = 0 and p = 1 coordinates


def test_sample_rows_column_means_match_p():
    """Column means of 20000 rows within 5 binomial standard deviations of p (every coordinate)."""
    p = pd.marginal_profile("log-uniform", 32)
    n = 20_000
    means = pd.sample_rows(p, n, rng=8).mean(axis=0)
    assert np.all(np.abs(means - p) <= 5 * np.sqrt(p * (1 - p) / n))
    trial_means = pd.sample_rows(p, 2000, rng=9, trials=10).mean(axis=(0, 1))
    assert np.all(np.abs(trial_means - p) <= 5 * np.sqrt(p * (1 - p) / 20_000))


def test_column_counts_shapes_reproducibility_and_means():
    """Binomial(n, p_j) counts: shape (d,) or (trials, d), seeded, mean within 5 sigma of n p, n = 0 gives zeros."""
    p = pd.marginal_profile("two-level", 16)
    n, trials = 5000, 400
    counts = pd.column_counts(p, n, rng=1, trials=trials)
    assert counts.shape == (trials, 16) and np.issubdtype(counts.dtype, np.integer)
    assert pd.column_counts(p, n, rng=1).shape == (16,)
    np.testing.assert_array_equal(pd.column_counts(p, n, rng=1, trials=trials), counts)
    assert not np.array_equal(pd.column_counts(p, n, rng=2, trials=trials), counts)
    assert np.all((counts >= 0) & (counts <= n))
    frequency = counts.mean(axis=0) / n
    assert np.all(np.abs(frequency - p) <= 5 * np.sqrt(p * (1 - p) / (n * trials)))
    # and their spread is the binomial one: variance n p (1 - p) within 20 % (400 trials, 16 coordinates pooled)
    assert counts.var(axis=0, ddof=1).sum() == pytest.approx(np.sum(n * p * (1 - p)), rel=0.2)
    np.testing.assert_array_equal(pd.column_counts(p, 0, rng=1), np.zeros(16))


def test_column_counts_match_summed_rows_in_distribution():
    """column_counts(p, n) and sample_rows(p, n).sum(0) agree in mean within 5 standard errors."""
    p = np.array([0.4, 0.05, 0.2])
    n, trials = 300, 2000
    counts = pd.column_counts(p, n, rng=5, trials=trials)
    summed = pd.sample_rows(p, n, rng=6, trials=trials).sum(axis=1)
    se = np.sqrt(2 * n * p * (1 - p) / trials)
    assert np.all(np.abs(counts.mean(axis=0) - summed.mean(axis=0)) <= 5 * se)


def test_marginals_equal_to_one_keep_every_other_coordinate():
    """A certain coordinate (p_j or q_j = 1) must not wipe out the others' log-likelihoods (exact and Monte Carlo)."""
    assert pd.tv_exact(np.array([1.0, 0.3]), np.array([0.5, 0.3])) == pytest.approx(0.5)
    assert pd.tv_exact(np.array([0.9, 0.9]), np.array([1.0, 0.1])) == pytest.approx(0.81)
    estimate, error = pd.tv_monte_carlo(np.array([1.0, 0.3, 0.2]), np.array([0.9, 0.5, 0.2]), 20_000, rng=0)
    exact = pd.tv_exact(np.array([1.0, 0.3, 0.2]), np.array([0.9, 0.5, 0.2]))
    assert exact == pytest.approx(0.25) and abs(estimate - exact) <= 4 * error + 1e-3


def test_bhattacharyya_of_disjoint_point_masses_is_zero_without_warning():
    """p_j = 0 against q_j = 1: BC = 0, Hellinger 1, TV bounds [1, 1] — and no divide-by-zero warning."""
    p, q = np.array([0.0, 0.5]), np.array([1.0, 0.5])
    assert pd.bhattacharyya(p, q) == 0.0 and pd.hellinger(p, q) == 1.0
    assert pd.tv_bounds(p, q) == (1.0, 1.0)
