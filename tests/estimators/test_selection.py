"""Scheffé hypothesis selection (dpcore.estimators.selection) against docs/algorithms.md §4.

Exact Scheffé quantities against quadrature and explicit sums, vectorised counts against brute force, the
non-private tournaments on a class that contains the truth, exhaustive sensitivity checks of the item- and
user-level scores, an exact and an empirical privacy audit of the private selection (a broken variant is caught),
seeded utility (§4.5), the theory curves, KSU20's 2-D tournament, and input validation. The lesson's sweeps and the
page's lesson (one run, read-offs, takeaways) are tests/lessons/test_tournament.py.
Run as a script to print the measured audit bounds: ``python tests/estimators/test_selection.py``.
"""

import itertools
import math

import numpy as np
import pytest
from scipy import integrate, optimize, special, stats

from dpcore import audit, mechanisms
from dpcore.estimators import selection as sel
from dpcore.lessons import tournament as tournament_lesson

SELECTION_FAMILY = sel.gaussian_grid(5)

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "gaussian_grid": dict(k=5, low=-1.0, high=1.0, scale=1.0),
    "gaussian_mean_scale_grid": dict(means=np.array([0.0, 1.0]), scales=np.array([1.0, 2.0])),
    "simplex_cover": dict(domain=3, resolution=2),
    "contest_parameters": dict(alpha=0.05),
    "win_matrix": dict(family=SELECTION_FAMILY, x=np.zeros(5)),
    "tournament_winner": dict(family=SELECTION_FAMILY, x=np.zeros(5)),
    "minimum_distance": dict(family=SELECTION_FAMILY, x=np.zeros(5)),
    "scheffe_scores": dict(family=SELECTION_FAMILY, x=np.zeros(5), alpha=0.05),
    "user_scheffe_scores": dict(family=SELECTION_FAMILY, x=np.zeros((4, 2)), alpha=0.05, tau=1.0),
    "private_select": dict(
        family=SELECTION_FAMILY, x=np.zeros((4, 2)), epsilon=1.0, alpha=0.05, rng=0, level="user", tau=1.0
    ),
    "guarantee_alpha": dict(n=np.array([100.0, 1000.0]), k=41, epsilon=1.0, beta=0.1),
    "users_needed_theory": dict(
        per_user=np.array([1.0, 100.0]), k=41, alpha=0.05, epsilon=1.0, beta=0.1
    ),
}


ALPHA = 0.05
UNEQUAL_MEANS = np.array([1.0, 0.0, 0.5, 0.2, 0.0])
UNEQUAL_SCALES = np.array([1.0, 1.0, 2.0, 0.5, 2.0])  # last: same mean as H_1, twice its scale
QUAD = dict(epsabs=1e-13, epsrel=1e-13, limit=200)


# ------------------------------------------------------------------------------------ independent references
def crossings(mi, si, mj, sj):
    """Where the N(mi, si²) and N(mj, sj²) densities cross: sign changes of log h_i - log h_j on a fine grid
    (offset so no grid point is a root), refined with brentq."""
    def diff(t):
        return stats.norm.logpdf(t, mi, si) - stats.norm.logpdf(t, mj, sj)
    grid = np.linspace(-40.0, 40.0, 80001) + 1e-5 * math.pi
    values = diff(grid)
    changes = np.flatnonzero(np.sign(values[:-1]) != np.sign(values[1:]))
    return [optimize.brentq(diff, grid[c], grid[c + 1], xtol=1e-15, rtol=1e-15) for c in changes]


def pieces_where_i_wins(mi, si, mj, sj):
    """The intervals of {h_i > h_j}, from the crossings (each piece's sign read at an interior probe)."""
    edges = [-math.inf, *crossings(mi, si, mj, sj), math.inf]
    pieces = []
    for low, high in zip(edges[:-1], edges[1:]):
        probe = (low + high) / 2 if math.isfinite(low) and math.isfinite(high) else (
            high - 1.0 if math.isfinite(high) else low + 1.0 if math.isfinite(low) else 0.0)
        if stats.norm.pdf(probe, mi, si) > stats.norm.pdf(probe, mj, sj):
            pieces.append((low, high))
    return pieces


def quadrature_probabilities(means, scales):
    """P1[i, j] = ∫ h_i 1[h_i > h_j], P2[i, j] = ∫ h_j 1[h_i > h_j] by scipy.integrate.quad split at the crossings."""
    k = means.size
    p1, p2 = np.zeros((k, k)), np.zeros((k, k))
    for i, j in itertools.permutations(range(k), 2):
        for low, high in pieces_where_i_wins(means[i], scales[i], means[j], scales[j]):
            p1[i, j] += integrate.quad(stats.norm.pdf, low, high, args=(means[i], scales[i]), **QUAD)[0]
            p2[i, j] += integrate.quad(stats.norm.pdf, low, high, args=(means[j], scales[j]), **QUAD)[0]
    return p1, p2


def brute_gaussian_counts(means, scales, x):
    """#{points with h_i(x) > h_j(x)} by evaluating every density at every point (scipy.stats.norm.pdf)."""
    density = stats.norm.pdf(np.asarray(x)[..., None, :], means[:, None], scales[:, None])  # (..., k, n)
    return (density[..., :, None, :] > density[..., None, :, :]).sum(axis=-1)


def brute_2d_counts(means, x):
    density = np.stack([stats.multivariate_normal(mean, np.eye(2)).pdf(x) for mean in means], axis=-2)  # (..., k, n)
    return (density[..., :, None, :] > density[..., None, :, :]).sum(axis=-1)


def region_representatives(means, scales, far=(-1e3, -30.0, 30.0, 1e3)):
    """One value in every region the Scheffé sets cut the line into: each crossing, each crossing ± 1e-7, the
    midpoint between consecutive crossings, and far values. Counts depend only on the region of each point."""
    ends = np.unique(np.round([r for i, j in itertools.combinations(range(means.size), 2)
                               for r in crossings(means[i], scales[i], means[j], scales[j])], 10))
    return np.unique(np.concatenate([ends, ends - 1e-7, ends + 1e-7, (ends[1:] + ends[:-1]) / 2, far]))


def replace_one_point(x, values):
    """Every dataset that replaces one point of x (1-D) by one of ``values``: shape (x.size * values.size, x.size)."""
    rows = np.repeat(x[None, :], x.size * len(values), axis=0)
    rows[np.arange(rows.shape[0]), np.repeat(np.arange(x.size), len(values))] = np.tile(values, x.size)
    return rows


def replace_one_user(x, replacements):
    """Every dataset that replaces one user's m examples (a row of x, shape (n, m)) by one of ``replacements``."""
    n = x.shape[0]
    data = np.repeat(x[None], n * len(replacements), axis=0)
    for user in range(n):
        data[user * len(replacements):(user + 1) * len(replacements), user] = replacements
    return data


def em_log_probabilities(scores, epsilon, sensitivity):
    """log P(H_i) for the exponential mechanism ∝ exp(ε S / (2Δ)), computed here with scipy's log_softmax."""
    return special.log_softmax(epsilon * np.asarray(scores) / (2 * sensitivity), axis=-1)


# ------------------------------------------------------------------------------------ 1. Scheffé set probabilities
def test_two_unit_gaussians_known_values():
    """docs/algorithms.md §4.5.1: N(1,1) vs N(0,1) has p1 = 0.691462, p2 = 0.308538, TV = 0.382925 (both orders,
    diagonal 0)."""
    family = sel.GaussianFamily(np.array([1.0, 0.0]), np.ones(2))
    p1, p2 = family.probabilities()
    for i, j in ((0, 1), (1, 0)):
        assert p1[i, j] == pytest.approx(0.691462, abs=5e-7)
        assert p2[i, j] == pytest.approx(0.308538, abs=5e-7)
        assert p1[i, j] - p2[i, j] == pytest.approx(0.382925, abs=5e-7)
    assert np.all(np.diag(p1) == 0) and np.all(np.diag(p2) == 0)
    np.testing.assert_allclose(family.tv_from((0.0, 1.0)), [0.382925, 0.0], atol=5e-7)


def test_unequal_scale_probabilities_match_quadrature():
    """Every P1[i,j], P2[i,j] of a family with unequal scales equals split quadrature (tol 1e-8)."""
    family = sel.GaussianFamily(UNEQUAL_MEANS, UNEQUAL_SCALES)
    p1, p2 = family.probabilities()
    q1, q2 = quadrature_probabilities(UNEQUAL_MEANS, UNEQUAL_SCALES)
    np.testing.assert_allclose(p1, q1, rtol=0, atol=1e-8)
    np.testing.assert_allclose(p2, q2, rtol=0, atol=1e-8)
    # W_ij and W_ji partition the line (up to the crossings): H_i(W_ij) + H_i(W_ji) = 1.
    off = ~np.eye(family.size, dtype=bool)
    np.testing.assert_allclose((p1 + p2.T)[off], 1.0, atol=1e-12)
    assert len(crossings(1.0, 1.0, 0.5, 2.0)) == 2 and len(crossings(1.0, 1.0, 0.0, 1.0)) == 1  # the helper's sanity


def test_probabilities_are_cached_and_read_only():
    """probabilities() returns the same read-only arrays on every call (computed once per family)."""
    family = sel.gaussian_grid(7)
    first, second = family.probabilities(), family.probabilities()
    assert first[0] is second[0] and first[1] is second[1]
    with pytest.raises(ValueError):
        first[0][0, 1] = 0.5


def test_discrete_probabilities_equal_explicit_sums():
    """DiscreteFamily P1[i,j] = Σ_{x: h_i(x) > h_j(x)} h_i(x) and P2 the same sum of h_j, ties excluded."""
    rng = np.random.default_rng(3)
    table = rng.dirichlet(np.ones(5), size=6)
    table[5] = [0.2, 0.2, 0.2, 0.2, 0.2]
    table[4] = [0.2, 0.3, 0.1, 0.2, 0.2]  # ties with row 5 on three symbols
    family = sel.DiscreteFamily(table)
    p1, p2 = family.probabilities()
    for i in range(6):
        for j in range(6):
            wins = [x for x in range(5) if table[i, x] > table[j, x]]
            assert p1[i, j] == pytest.approx(sum(table[i, x] for x in wins), abs=1e-15)
            assert p2[i, j] == pytest.approx(sum(table[j, x] for x in wins), abs=1e-15)
    assert p1[4, 5] == pytest.approx(0.3) and p2[4, 5] == pytest.approx(0.2)  # only symbol 1 is in W_45


def test_gaussian_means_2d_probabilities():
    """GaussianMeans2D: p1 = Φ(D/2), p2 = Φ(-D/2) with D = ||μ_i - μ_j||; matches the 1-D family along a line."""
    means = np.array([[0.0, 0.0], [0.6, 0.8], [-1.2, 0.5], [2.0, -1.0]])
    family = sel.GaussianMeans2D(means)
    p1, p2 = family.probabilities()
    for i, j in itertools.permutations(range(4), 2):
        distance = math.dist(means[i], means[j])
        assert p1[i, j] == pytest.approx(stats.norm.cdf(distance / 2), abs=1e-14)
        assert p2[i, j] == pytest.approx(stats.norm.cdf(-distance / 2), abs=1e-14)
    assert np.all(np.diag(p1) == 0) and np.all(np.diag(p2) == 0)
    line = sel.GaussianMeans2D(np.array([[0.0, 0.0], [0.6, 0.8], [1.2, 1.6]]))  # along direction (0.6, 0.8)
    np.testing.assert_allclose(line.probabilities()[0],
                               sel.GaussianFamily(np.array([0.0, 1.0, 2.0]), np.ones(3)).probabilities()[0], atol=1e-14)


# ------------------------------------------------------------------------------------ 2. set counts, TV
@pytest.mark.parametrize("shape", [(257,), (4, 101), (2, 3, 37)])
@pytest.mark.parametrize("kind", ["equal scales", "unequal scales"])
def test_gaussian_set_counts_equal_brute_force(kind, shape):
    """GaussianFamily.set_counts equals #{x: h_i(x) > h_j(x)} from scipy.stats.norm.pdf, with and without trial axes."""
    means, scales = (np.linspace(-2, 2, 9), np.ones(9)) if kind == "equal scales" else (UNEQUAL_MEANS, UNEQUAL_SCALES)
    x = np.random.default_rng(11).normal(0.3, 1.5, shape)
    counts = sel.GaussianFamily(means, scales).set_counts(x)
    assert counts.shape == (*shape[:-1], means.size, means.size)
    np.testing.assert_array_equal(counts, brute_gaussian_counts(means, scales, x))


def test_gaussian_points_on_a_boundary_are_in_neither_set():
    """A point where h_i = h_j (the midpoint of two unit Gaussians) is counted in neither W_ij nor W_ji."""
    family = sel.GaussianFamily(np.array([0.0, 1.0, 2.0]), np.ones(3))
    x = np.array([0.5, 1.0, 1.5, 3.0])
    counts = family.set_counts(x)
    # W_01 = {x < 0.5}, W_02 = {x < 1}, W_10 = {x > 0.5}, W_12 = {x < 1.5}, W_20 = {x > 1}, W_21 = {x > 1.5}
    np.testing.assert_array_equal(counts, [[0, 0, 1], [3, 0, 2], [2, 1, 0]])
    np.testing.assert_array_equal(counts, brute_gaussian_counts(family.means, family.scales, x))


@pytest.mark.parametrize("shape", [(300,), (5, 60)])
def test_discrete_set_counts_equal_brute_force(shape):
    """DiscreteFamily.set_counts equals #{x: h_i(x) > h_j(x)} summed point by point, with and without trial axes."""
    rng = np.random.default_rng(5)
    table = rng.dirichlet(np.ones(6), size=7)
    table[6] = table[5]  # a duplicated hypothesis: its sets with row 5 are empty
    codes = rng.integers(0, 6, shape)
    counts = sel.DiscreteFamily(table).set_counts(codes)
    rows = codes.reshape(-1, shape[-1])
    expected = np.array([[[sum(table[i, c] > table[j, c] for c in row) for j in range(7)] for i in range(7)]
                         for row in rows]).reshape(*shape[:-1], 7, 7)
    np.testing.assert_array_equal(counts, expected)
    assert np.all(counts[..., 5, 6] == 0) and np.all(counts[..., 6, 5] == 0)


@pytest.mark.parametrize("shape", [(150, 2), (3, 40, 2)])
def test_gaussian_means_2d_set_counts_equal_brute_force(shape):
    """GaussianMeans2D.set_counts equals #{x: h_i(x) > h_j(x)} from scipy's multivariate normal pdf."""
    means = np.array([[0.0, 0.0], [0.5, 0.0], [0.0, 0.5], [-0.7, 0.3], [1.0, 1.0]])
    x = np.random.default_rng(8).normal(0.2, 1.0, shape)
    counts = sel.GaussianMeans2D(means).set_counts(x)
    assert counts.shape == (*shape[:-2], 5, 5)
    np.testing.assert_array_equal(counts, brute_2d_counts(means, x))


@pytest.mark.parametrize("truth", [(0.3, 1.0), (0.25, 1.7), (-0.4, 0.6), (0.5, 2.0)])
def test_gaussian_tv_from_matches_quadrature(truth):
    """GaussianFamily.tv_from(μ, σ) equals ½∫|p - h_j| by quadrature split at the crossings (0 for a member)."""
    family = sel.GaussianFamily(UNEQUAL_MEANS, UNEQUAL_SCALES)
    mu, sigma = truth
    expected = []
    for mean, scale in zip(UNEQUAL_MEANS, UNEQUAL_SCALES):
        edges = [-math.inf, *crossings(mu, sigma, mean, scale), math.inf]
        gap = lambda t, m=mean, s=scale: abs(stats.norm.pdf(t, mu, sigma) - stats.norm.pdf(t, m, s))  # noqa: E731
        expected.append(0.5 * sum(integrate.quad(gap, a, b, **QUAD)[0] for a, b in zip(edges[:-1], edges[1:])))
    np.testing.assert_allclose(family.tv_from(truth), expected, rtol=0, atol=1e-8)
    if truth == (0.5, 2.0):
        assert family.tv_from(truth)[2] == 0.0


def test_tv_from_a_member_equals_p1_minus_p2():
    """For a truth in the class, tv_from(H_i)[j] = P1[i,j] - P2[i,j] (discrete, 1-D and 2-D Gaussian families)."""
    rng = np.random.default_rng(2)
    table = rng.dirichlet(np.ones(5), size=6)
    discrete = sel.DiscreteFamily(table)
    gaussian = sel.GaussianFamily(UNEQUAL_MEANS, UNEQUAL_SCALES)
    plane = sel.GaussianMeans2D(np.array([[0.0, 0.0], [0.5, -0.2], [1.0, 1.0], [-2.0, 0.3]]))
    for family, truths in ((discrete, list(table)), (gaussian, list(zip(UNEQUAL_MEANS, UNEQUAL_SCALES))),
                           (plane, list(plane.means))):
        p1, p2 = family.probabilities()
        for i, truth in enumerate(truths):
            np.testing.assert_allclose(family.tv_from(truth), p1[i] - p2[i], atol=1e-12)


def test_discrete_and_2d_tv_from_formulas():
    """Discrete tv_from = ½Σ|p - h_j|; 2-D tv_from(μ) = 2Φ(||μ - μ_j||/2) - 1 (identity covariance)."""
    rng = np.random.default_rng(4)
    table = rng.dirichlet(np.ones(4), size=5)
    truth = np.array([0.1, 0.2, 0.3, 0.4])
    expected = [0.5 * sum(abs(truth[c] - table[j, c]) for c in range(4)) for j in range(5)]
    np.testing.assert_allclose(sel.DiscreteFamily(table).tv_from(truth), expected, atol=1e-15)
    means = np.array([[0.0, 0.0], [1.0, 0.0], [0.3, -0.4]])
    expected_2d = [2 * stats.norm.cdf(math.dist((0.3, 0.0), m) / 2) - 1 for m in means]
    np.testing.assert_allclose(sel.GaussianMeans2D(means).tv_from(np.array([0.3, 0.0])), expected_2d, atol=1e-14)


def test_sample_draws_from_the_truth():
    """sample() gives the requested shape and the truth's law: mean/sd for Gaussians, frequencies for discrete."""
    gaussian = sel.gaussian_grid(5).sample((0.3, 2.0), (4, 50_000), rng=0)
    assert gaussian.shape == (4, 50_000)
    assert gaussian.mean() == pytest.approx(0.3, abs=0.01) and gaussian.std() == pytest.approx(2.0, abs=0.01)
    codes = sel.DiscreteFamily(np.eye(3) * 0.7 + 0.1).sample(np.array([0.5, 0.3, 0.2]), (100_000,), rng=1)
    np.testing.assert_allclose(np.bincount(codes) / codes.size, [0.5, 0.3, 0.2], atol=0.005)
    plane = sel.GaussianMeans2D(np.eye(2)).sample(np.array([1.0, -1.0]), (3, 20_000), rng=2)
    assert plane.shape == (3, 20_000, 2)
    np.testing.assert_allclose(plane.mean(axis=(0, 1)), [1.0, -1.0], atol=0.02)


# ------------------------------------------------------------------------------------ 3. tournaments
def test_win_matrix_is_antisymmetric_and_decided_by_the_closer_prediction():
    """win_matrix: antisymmetric, zero diagonal, entries ±1/0, and +1 exactly where |P1 - τ̂| < |P2 - τ̂| (i < j)."""
    family = sel.GaussianFamily(UNEQUAL_MEANS, UNEQUAL_SCALES)
    x = np.random.default_rng(6).normal(0.4, 1.2, (20, 80))
    wins = sel.win_matrix(family, x)
    assert wins.shape == (20, 5, 5)
    np.testing.assert_array_equal(wins, -np.swapaxes(wins, -1, -2))
    assert np.all(np.diagonal(wins, axis1=-2, axis2=-1) == 0) and set(np.unique(wins)) <= {-1.0, 0.0, 1.0}
    p1, p2 = quadrature_probabilities(UNEQUAL_MEANS, UNEQUAL_SCALES)
    tau = brute_gaussian_counts(UNEQUAL_MEANS, UNEQUAL_SCALES, x) / 80
    ties = 0
    for i, j in itertools.combinations(range(5), 2):
        margin = np.abs(p2[i, j] - tau[:, i, j]) - np.abs(p1[i, j] - tau[:, i, j])
        expected = np.where(np.abs(margin) < 1e-9, 0.0, np.sign(margin))  # exact ties: τ̂ = 1/2 when P1 + P2 = 1
        np.testing.assert_array_equal(wins[:, i, j], expected)
        ties += np.sum(expected == 0)
    assert ties >= 1  # the tie case is exercised (3 contests here)
    # N(1,1) vs N(0,1): 70 % of the points above 0.5 is closer to p1 = 0.69 than to 0.31, so N(1,1) wins.
    two = sel.GaussianFamily(np.array([1.0, 0.0]), np.ones(2))
    np.testing.assert_array_equal(sel.win_matrix(two, np.r_[np.full(7, 2.0), np.full(3, -1.0)]), [[0, 1], [-1, 0]])


def test_tournament_and_minimum_distance_find_the_true_member():
    """Truth N(0.3, 1) = member 23 of spaced_grid(41), n = 10^4, 200 seeded datasets: both non-private estimators
    return exactly member 23 in >= 99 % of the datasets (measured: 100 % for both)."""
    family = tournament_lesson.spaced_grid(41)
    assert family.means[23] == pytest.approx(0.3, abs=1e-12)
    x = np.random.default_rng(2024).normal(0.3, 1.0, (200, 10_000))
    winners, closest = sel.tournament_winner(family, x), sel.minimum_distance(family, x)
    assert winners.shape == closest.shape == (200,)
    assert np.mean(winners == 23) >= 0.99
    assert np.mean(closest == 23) >= 0.99
    assert sel.tournament_winner(family, x[0]) == winners[0] and sel.minimum_distance(family, x[0]) == closest[0]
    assert isinstance(sel.tournament_winner(family, x[0]), int)


def test_minimum_distance_definition():
    """minimum_distance = argmin_i max_{j≠i} |P1[i,j] - τ̂_ij|, recomputed from brute-force counts."""
    family = sel.GaussianFamily(UNEQUAL_MEANS, UNEQUAL_SCALES)
    x = np.random.default_rng(9).normal(0.1, 1.1, (30, 60))
    p1, _ = quadrature_probabilities(UNEQUAL_MEANS, UNEQUAL_SCALES)
    gap = np.abs(p1 - brute_gaussian_counts(UNEQUAL_MEANS, UNEQUAL_SCALES, x) / 60)
    gap[:, np.arange(5), np.arange(5)] = -np.inf
    np.testing.assert_array_equal(sel.minimum_distance(family, x), gap.max(axis=-1).argmin(axis=-1))


# ------------------------------------------------------------------------------------ 4. sensitivity (exhaustive)
def scheffe_reference(family_probabilities, counts, n, alpha=ALPHA):
    """S(H_i) = min_{j≠i} Γ with Γ = n for P1 - P2 <= 4α, else n·max(0, τ̂ - P2 - 1.5α) (docs/algorithms.md §4.2)."""
    p1, p2 = family_probabilities
    contest = np.where(p1 - p2 <= 4 * alpha, float(n), np.maximum(0.0, counts - n * (p2 + 1.5 * alpha)))
    contest[..., np.arange(p1.shape[0]), np.arange(p1.shape[0])] = np.inf
    return contest.min(axis=-1)


def reference_probabilities(family):
    """Independent (P1, P2): closed form Φ(±|μ_i - μ_j|/2) for unit scales, quadrature otherwise."""
    if np.all(family.scales == 1.0):
        gap = np.abs(family.means[:, None] - family.means[None, :])
        off = ~np.eye(family.size, dtype=bool)
        return stats.norm.cdf(gap / 2) * off, stats.norm.cdf(-gap / 2) * off
    return quadrature_probabilities(family.means, family.scales)


SCORE_FAMILIES = {"unequal": sel.GaussianFamily(UNEQUAL_MEANS, UNEQUAL_SCALES),
                  "spaced11": tournament_lesson.spaced_grid(11)}


@pytest.mark.parametrize("name", SCORE_FAMILIES)
def test_scheffe_scores_match_the_definition(name):
    """scheffe_scores equals min_j Γ recomputed from independent probabilities and brute-force counts (tol 1e-7);
    in spaced_grid(11) the centre ties with every hypothesis (TV <= 4α), so its score is n."""
    family = SCORE_FAMILIES[name]
    x = np.random.default_rng(12).normal(0.0, 1.0, (10, 200))
    expected = scheffe_reference(reference_probabilities(family),
                                 brute_gaussian_counts(family.means, family.scales, x), 200)
    np.testing.assert_allclose(sel.scheffe_scores(family, x, ALPHA), expected, rtol=0, atol=1e-7)
    assert np.any((expected > 10) & (expected < 200))  # not all zero or capped: the check sees the contest values
    if name == "spaced11":
        assert np.all(expected[:, 5] == 200)


@pytest.mark.parametrize("kind", ["gaussian_grid(6)", "unequal scales"])
def test_item_scores_sensitivity_exhaustive_gaussian(kind):
    """Replacing any one of 14 points by a value from every region of the Scheffé sets (plus far values) moves
    every item-level score by at most 1, and some score by more than 0.5."""
    family = sel.gaussian_grid(6) if kind == "gaussian_grid(6)" else sel.GaussianFamily(UNEQUAL_MEANS, UNEQUAL_SCALES)
    x = np.random.default_rng(21).normal(0.3, 0.8, 14)
    values = region_representatives(family.means, family.scales)
    neighbours = replace_one_point(x, values)
    change = np.abs(sel.scheffe_scores(family, neighbours, ALPHA) - sel.scheffe_scores(family, x, ALPHA))
    assert change.max() <= 1 + 1e-9
    assert change.max() > 0.5


def test_item_scores_sensitivity_exhaustive_discrete():
    """DiscreteFamily (k = 6, domain 5): every single-point replacement by every domain value moves every score
    by at most 1, and some score by more than 0.5."""
    rng = np.random.default_rng(31)
    table = rng.dirichlet(np.ones(5), size=6)
    family = sel.DiscreteFamily(table)
    for seed in range(3):
        x = np.random.default_rng(seed).choice(5, size=16, p=table[seed])
        change = np.abs(sel.scheffe_scores(family, replace_one_point(x, np.arange(5)), ALPHA)
                        - sel.scheffe_scores(family, x, ALPHA))
        assert change.max() <= 1 + 1e-9
        assert change.max() > 0.5


TAUS = [0.25, 0.5, 1.0, 1.5, 2.0, math.inf]


@pytest.mark.parametrize("tau", TAUS)
def test_user_scores_sensitivity_gaussian(tau):
    """6 users × 3 examples, gaussian_grid(5): replacing one user's examples by every multiset of region values
    (including all-equal ones) and 200 random vectors moves every score by at most Δ = min(m, 2τ), some by > Δ/2."""
    family = sel.gaussian_grid(5)
    rng = np.random.default_rng(41)
    x = rng.normal(0.2, 1.0, (6, 3))
    values = region_representatives(family.means, family.scales, far=(-30.0, 30.0))
    replacements = np.concatenate([np.array(list(itertools.combinations_with_replacement(values, 3))),
                                   rng.normal(0.0, 3.0, (200, 3))])
    scores, sensitivity = sel.user_scheffe_scores(family, x, ALPHA, tau)
    moved, moved_sensitivity = sel.user_scheffe_scores(family, replace_one_user(x, replacements), ALPHA, tau)
    assert sensitivity == moved_sensitivity == min(3, 2 * tau)
    change = np.abs(moved - scores)
    assert change.max() <= sensitivity + 1e-9
    assert change.max() > 0.5 * sensitivity  # a too-small claimed sensitivity would be noticed


@pytest.mark.parametrize("tau", TAUS)
def test_user_scores_sensitivity_discrete_exhaustive(tau):
    """5 users × 3 examples on a domain of 4: all 64 replacements of each user move every score by at most
    Δ = min(3, 2τ), and some score by more than Δ/2."""
    table = np.random.default_rng(51).dirichlet(np.ones(4), size=5)
    family = sel.DiscreteFamily(table)
    x = np.random.default_rng(52).choice(4, size=(5, 3), p=table[0])
    replacements = np.array(list(itertools.product(range(4), repeat=3)))
    scores, sensitivity = sel.user_scheffe_scores(family, x, ALPHA, tau)
    moved, _ = sel.user_scheffe_scores(family, replace_one_user(x, replacements), ALPHA, tau)
    assert sensitivity == min(3, 2 * tau)
    change = np.abs(moved - scores)
    assert change.max() <= sensitivity + 1e-9
    assert change.max() > 0.5 * sensitivity


@pytest.mark.parametrize("name", SCORE_FAMILIES)
def test_user_scores_match_the_definition(name):
    """user_scheffe_scores = min_j max(0, Σ_u clip(c_u, ±τ)) with c_u = #(u's points in W_ij) - m(P2 + 1.5α), and
    n·min(τ, m) on tie pairs (recomputed from brute-force counts; tolerance: summation order only)."""
    family = SCORE_FAMILIES[name]
    k = family.size
    x = np.random.default_rng(13).normal(0.2, 1.0, (4, 30, 7))  # 4 datasets, 30 users, 7 examples
    p1, p2 = reference_probabilities(family)
    per_user = brute_gaussian_counts(family.means, family.scales, x)  # (4, 30, k, k)
    for tau in (0.5, 2.0, math.inf):
        total = np.clip(per_user - 7 * (p2 + 1.5 * ALPHA), -tau, tau).sum(axis=1)
        contest = np.where(p1 - p2 <= 4 * ALPHA, 30 * min(tau, 7), np.maximum(0.0, total))
        contest[..., np.arange(k), np.arange(k)] = np.inf
        scores, sensitivity = sel.user_scheffe_scores(family, x, ALPHA, tau)
        np.testing.assert_allclose(scores, contest.min(axis=-1), rtol=0, atol=1e-9)
        assert sensitivity == min(7, 2 * tau)
        if name == "spaced11":
            assert np.all(scores[:, 5] == 30 * min(tau, 7))


# ------------------------------------------------------------------------------------ 5. user level with m = τ = 1
@pytest.mark.parametrize("family", [sel.gaussian_grid(41), sel.GaussianFamily(UNEQUAL_MEANS, UNEQUAL_SCALES),
                                    sel.GaussianMeans2D(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.5, 1.5]]))],
                         ids=["grid41", "unequal", "2d"])
def test_user_level_with_one_example_and_tau_one_is_item_level(family):
    """m = 1, τ = 1: user_scheffe_scores equals scheffe_scores with sensitivity 1, and private_select(level="user")
    gives the item-level probabilities (docs/algorithms.md §4.5.3; equal up to the order of a float sum)."""
    n = 200
    plane = isinstance(family, sel.GaussianMeans2D)
    x = np.random.default_rng(14).normal(0.3, 1.0, (n, 2) if plane else n)
    users = x[:, None, :] if plane else x[:, None]
    item = sel.scheffe_scores(family, x, ALPHA)
    scores, sensitivity = sel.user_scheffe_scores(family, users, ALPHA, 1.0)
    assert sensitivity == 1.0
    np.testing.assert_allclose(scores, item, rtol=0, atol=1e-9)
    assert np.any(item > 1.0)
    on_items = sel.private_select(family, x, 1.0, ALPHA, rng=0)
    on_users = sel.private_select(family, users, 1.0, ALPHA, rng=0, level="user", tau=1.0)
    assert on_users.sensitivity == on_items.sensitivity == 1.0
    np.testing.assert_allclose(np.log(on_users.probabilities), np.log(on_items.probabilities), rtol=0, atol=1e-9)


# ------------------------------------------------------------------------------------ 6. privacy of the selection
AUDIT_EPSILON = 1.0
AUDIT_DRAWS = 10**6
AUDIT_FAMILY = sel.gaussian_grid(5)


def detectable_log_ratio(log_p, log_q, floor=0.02):
    """max |log P(E) - log Q(E)| over single outcomes and their complements with both probabilities >= floor."""
    p, q = np.exp(log_p), np.exp(log_q)
    events_p, events_q = np.concatenate([p, 1 - p]), np.concatenate([q, 1 - q])
    usable = np.minimum(events_p, events_q) >= floor
    return float(np.max(np.abs(np.log(events_p[usable]) - np.log(events_q[usable])), initial=0.0))


def neighbour_search():
    """Datasets of 20 points from N(0.5, 0.8²) (10 seeds) and every one-point replacement by a region value of
    gaussian_grid(5). Returns every (scores, neighbour scores, private_select probabilities on both) and the pair
    whose scores a broken EM (factor 2 dropped, i.e. claimed sensitivity 0.5) separates most visibly."""
    values = region_representatives(AUDIT_FAMILY.means, AUDIT_FAMILY.scales, far=(-30.0, 30.0))
    checked, best = [], (-1.0, None)
    for seed in range(10):
        x = np.random.default_rng(seed).normal(0.5, 0.8, 20)
        neighbours = replace_one_point(x, values)
        here = sel.private_select(AUDIT_FAMILY, x, AUDIT_EPSILON, ALPHA, rng=0)
        there = sel.private_select(AUDIT_FAMILY, neighbours, AUDIT_EPSILON, ALPHA, rng=0)
        checked.append((here, there))
        broken_here = em_log_probabilities(here.scores, AUDIT_EPSILON, 0.5)
        broken_there = em_log_probabilities(there.scores, AUDIT_EPSILON, 0.5)
        for row in range(neighbours.shape[0]):
            visible = detectable_log_ratio(broken_here, broken_there[row])
            if visible > best[0]:
                best = (visible, (here.scores, there.scores[row]))
    return checked, best[1]


NEIGHBOURS = {}


def audit_pair():
    if not NEIGHBOURS:
        NEIGHBOURS["checked"], NEIGHBOURS["pair"] = neighbour_search()
    return NEIGHBOURS["checked"], NEIGHBOURS["pair"]


def test_private_select_exact_privacy_loss_on_every_searched_neighbour():
    """Exact EM probabilities (Selection.probabilities) equal ∝ exp(ε S/2) and satisfy max |log p(X) - log p(X')|
    <= ε for all 4,400 searched neighbouring pairs; the worst pair uses at least half the budget (measured 0.73)."""
    checked, _ = audit_pair()
    worst = 0.0
    for here, there in checked:
        assert here.sensitivity == there.sensitivity == 1.0
        np.testing.assert_allclose(np.log(here.probabilities), em_log_probabilities(here.scores, AUDIT_EPSILON, 1.0),
                                   atol=1e-12)
        np.testing.assert_allclose(np.log(there.probabilities),
                                   em_log_probabilities(there.scores, AUDIT_EPSILON, 1.0), atol=1e-12)
        worst = max(worst, np.abs(np.log(there.probabilities) - np.log(here.probabilities)).max())
    assert 0.5 * AUDIT_EPSILON < worst <= AUDIT_EPSILON + 1e-12


def selection_audit(scores, scores_neighbour, sensitivity, monotonic=False):
    draws = [mechanisms.exponential(s, AUDIT_EPSILON, sensitivity, monotonic=monotonic, rng=seed, size=AUDIT_DRAWS)
             for s, seed in ((scores, 1), (scores_neighbour, 2))]
    counts = [audit.outcome_counts(d, AUDIT_FAMILY.size) for d in draws]
    return audit.epsilon_lower_bound(*counts, AUDIT_DRAWS).epsilon_lower_bound


def test_private_select_empirical_audit_and_broken_variant_is_caught():
    """10^6 draws per side on the searched neighbours (scores differ by 1 in opposite directions): the correct EM's
    95 % lower bound is <= ε (measured 0.57; exact loss 0.58); without the factor 2 (exp(εS), claimed
    sensitivity 0.5) it is > ε (measured 1.37; exact 1.39)."""
    _, (scores, scores_neighbour) = audit_pair()
    assert np.abs(scores - scores_neighbour).max() == pytest.approx(1.0)
    correct = selection_audit(scores, scores_neighbour, 1.0)
    assert 0.4 < correct <= AUDIT_EPSILON
    broken = selection_audit(scores, scores_neighbour, 1.0, monotonic=True)  # exp(ε S): the factor 2 dropped
    assert broken > 1.2 * AUDIT_EPSILON
    assert selection_audit(scores, scores_neighbour, 0.5) > 1.2 * AUDIT_EPSILON  # same law, claimed Δ = 0.5


def test_private_select_draws_follow_its_probabilities():
    """private_select with a trials axis (3,000 copies of one dataset) draws indices whose frequencies match
    Selection.probabilities (chi-square p > 0.001); a 1-D dataset gives one int index."""
    x = np.random.default_rng(0).normal(0.5, 0.8, 20)
    single = sel.private_select(AUDIT_FAMILY, x, AUDIT_EPSILON, ALPHA, rng=5)
    assert isinstance(single.index, int) and 0 <= single.index < 5
    assert single.guarantee == "1-DP (pure), Δ = 1"
    many = sel.private_select(AUDIT_FAMILY, np.tile(x, (3000, 1)), AUDIT_EPSILON, ALPHA, rng=6)
    assert many.index.shape == (3000,) and many.probabilities.shape == (3000, 5)
    np.testing.assert_allclose(many.probabilities, np.tile(single.probabilities, (3000, 1)), atol=1e-15)
    expected = 3000 * single.probabilities
    observed = np.bincount(many.index, minlength=5)
    keep = expected > 5
    assert keep.sum() >= 2
    statistic = np.sum((observed[keep] - expected[keep]) ** 2 / expected[keep])
    assert stats.chi2.sf(statistic, keep.sum() - 1) > 1e-3


def test_private_select_user_level_guarantee_and_default_tau():
    """level="user" uses τ = √m by default (Δ = min(m, 2√m)) and the probabilities ∝ exp(ε S^u / (2Δ))."""
    x = np.random.default_rng(15).normal(0.3, 1.0, (50, 9))
    chosen = sel.private_select(sel.gaussian_grid(21), x, 0.5, ALPHA, rng=0, level="user")
    scores, sensitivity = sel.user_scheffe_scores(sel.gaussian_grid(21), x, ALPHA, 3.0)
    assert chosen.sensitivity == sensitivity == 6.0
    np.testing.assert_array_equal(chosen.scores, scores)
    np.testing.assert_allclose(np.log(chosen.probabilities), em_log_probabilities(scores, 0.5, 6.0), atol=1e-12)
    assert chosen.guarantee == "0.5-user-level DP (pure), Δ = 6"
    group = sel.private_select(sel.gaussian_grid(21), x, 0.5, ALPHA, rng=0, level="user", tau=math.inf)
    assert group.sensitivity == 9.0


# ------------------------------------------------------------------------------------ 7. seeded utility
def test_s1_success_rate_at_k41_eps1_n1000():
    """docs/algorithms.md §4.5.4: item-level selection, gaussian_grid(41), α = 0.05, ε = 1, n = 1000, truth N(0.33, 1),
    40 seeds: P[TV <= 5α] >= 0.95 and mean TV <= 0.03."""
    family = sel.gaussian_grid(41)
    distance = family.tv_from((0.33, 1.0))
    errors = []
    for seed in range(40):
        rng = np.random.default_rng(seed)
        chosen = sel.private_select(family, rng.normal(0.33, 1.0, 1000), 1.0, ALPHA, rng=rng)
        errors.append(distance[chosen.index])
    errors = np.array(errors)
    assert np.mean(errors <= 5 * ALPHA) >= 0.95
    assert errors.mean() <= 0.03


# ------------------------------------------------------------------------------------ 8. theory
def test_guarantee_alpha_docstring_states_the_condition_opt_at_most_alpha():
    """TV ≤ 5α + OPT needs OPT ≤ α (counterexample: OPT 0.319, selected TV 0.588 > 0.569)."""
    assert r"\mathrm{OPT} \le \alpha" in sel.guarantee_alpha.__doc__


def test_guarantee_alpha_known_values():
    """guarantee_alpha = max(√(2 ln(k²/β)/n), 2 ln(k/β)/(εn)); ε = inf drops the privacy term."""
    statistical = math.sqrt(2 * math.log(41**2 / 0.1) / 1000)  # 0.139497
    assert statistical == pytest.approx(0.139497, abs=1e-6)
    assert sel.guarantee_alpha(1000, 41, 1.0) == pytest.approx(statistical, rel=1e-12)
    private = 2 * math.log(41 / 0.1) / (0.01 * 1000)  # 1.203231
    assert private == pytest.approx(1.203231, abs=1e-6)
    assert sel.guarantee_alpha(1000, 41, 0.01) == pytest.approx(private, rel=1e-12)
    np.testing.assert_allclose(sel.guarantee_alpha(np.array([100.0, 10_000.0]), 11, math.inf, 0.05),
                               [math.sqrt(2 * math.log(121 / 0.05) / n) for n in (100, 10_000)], rtol=1e-12)


def test_users_needed_theory_known_values():
    """users_needed_theory = 2 ln(k²/β)/(mα²) + 4 ln(k/β)/ε · max(1/(α√m), 1); m = 100: 77.84 + 48.13 = 125.97."""
    def by_hand(m):
        return 2 * math.log(41**2 / 0.1) / (m * 0.05**2) + 4 * math.log(41 / 0.1) / 1.0 * max(1 / (0.05 * m**0.5), 1)
    assert by_hand(100) == pytest.approx(125.968, abs=1e-3)
    np.testing.assert_allclose(sel.users_needed_theory(np.array([1.0, 100.0, 400.0, 1000.0]), 41, 0.05, 1.0),
                               [by_hand(m) for m in (1, 100, 400, 1000)], rtol=1e-12)
    assert sel.users_needed_theory(400, 41, 0.05, 1.0) == pytest.approx(19.460 + 24.064, abs=1e-3)


def test_contest_parameters():
    """(ζ, κ) = (1.5α, 4α): contest_parameters(0.05) == (0.075, 0.2)."""
    assert sel.contest_parameters(0.05) == pytest.approx((0.075, 0.2), abs=1e-15)
    assert sel.contest_parameters(0.1) == pytest.approx((0.15, 0.4), abs=1e-15)


def test_grids():
    """gaussian_grid(k) has equally spaced unit-variance means on [low, high]; spaced_grid(k) is 0.1 apart, centred."""
    grid = sel.gaussian_grid(41)
    np.testing.assert_allclose(np.diff(grid.means), 0.1, atol=1e-12)
    assert grid.means[0] == -2.0 and grid.means[-1] == 2.0 and np.all(grid.scales == 1.0)
    assert sel.gaussian_grid(3, 0.0, 1.0, 2.0).scales.tolist() == [2.0, 2.0, 2.0]
    spaced = tournament_lesson.spaced_grid(161)
    np.testing.assert_allclose(np.diff(spaced.means), 0.1, atol=1e-12)
    assert spaced.means.mean() == pytest.approx(0.0, abs=1e-12) and spaced.size == 161
    assert tournament_lesson.spaced_grid(161) is spaced  # cached


def test_gaussian_mean_scale_grid():
    """gaussian_mean_scale_grid: every (μ, σ) pair, means varying fastest; its set counts match brute force."""
    family = sel.gaussian_mean_scale_grid(np.array([0.0, 0.5, 1.0]), np.array([1.0, 2.0]))
    np.testing.assert_array_equal(family.means, [0.0, 0.5, 1.0, 0.0, 0.5, 1.0])
    np.testing.assert_array_equal(family.scales, [1.0, 1.0, 1.0, 2.0, 2.0, 2.0])
    x = np.random.default_rng(16).normal(0.2, 1.5, (3, 120))
    np.testing.assert_array_equal(family.set_counts(x), brute_gaussian_counts(family.means, family.scales, x))


@pytest.mark.parametrize("domain, resolution", [(2, 7), (3, 4), (4, 5)])
def test_simplex_cover(domain, resolution):
    """simplex_cover: all C(r+D-1, D-1) distinct distributions with entries in multiples of 1/r; 500 random
    distributions are each within TV (D-1)/(2r) of a member."""
    family = sel.simplex_cover(domain, resolution)
    table = family.table
    assert table.shape == (math.comb(resolution + domain - 1, domain - 1), domain)
    np.testing.assert_allclose(table.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(table * resolution, np.round(table * resolution), atol=1e-9)
    assert np.unique(np.round(table * resolution).astype(int), axis=0).shape[0] == table.shape[0]
    truths = np.random.default_rng(17).dirichlet(np.ones(domain), size=500)
    nearest = np.array([family.tv_from(truth).min() for truth in truths])
    assert nearest.max() <= (domain - 1) / (2 * resolution) + 1e-12


# ------------------------------------------------------------------------------------ 10. input validation
X10 = np.zeros(10)


@pytest.mark.parametrize("changes, error, name", [
    (dict(epsilon=0.0), ValueError, "epsilon"), (dict(epsilon=-1.0), ValueError, "epsilon"),
    (dict(epsilon=math.inf), ValueError, "epsilon"), (dict(epsilon="1"), TypeError, "epsilon"),
    (dict(alpha=0.0), ValueError, "alpha"), (dict(alpha=0.3), ValueError, "alpha"),
    (dict(level="group"), ValueError, "level"), (dict(level="user", tau=0.0), ValueError, "tau"),
    (dict(level="user", tau=-2.0), ValueError, "tau"), (dict(family=None), TypeError, "family"),
    (dict(family="gaussian"), TypeError, "family"), (dict(rng=-1), ValueError, "rng"),
])
def test_private_select_rejects_bad_input(changes, error, name):
    """private_select raises ValueError/TypeError naming the bad parameter."""
    arguments = dict(family=sel.gaussian_grid(5), x=X10, epsilon=1.0, alpha=ALPHA, rng=0)
    arguments.update(changes)
    with pytest.raises(error, match=rf"^{name} must"):
        sel.private_select(**arguments)


@pytest.mark.parametrize("call, error, name", [
    (lambda: sel.scheffe_scores(np.eye(3), X10), TypeError, "family"),
    (lambda: sel.scheffe_scores(sel.gaussian_grid(5), X10, alpha=-0.1), ValueError, "alpha"),
    (lambda: sel.user_scheffe_scores(sel.gaussian_grid(5), np.zeros((4, 2)), ALPHA, 0.0), ValueError, "tau"),
    (lambda: sel.win_matrix([0.0, 1.0], X10), TypeError, "family"),
    (lambda: sel.tournament_winner(None, X10), TypeError, "family"),
    (lambda: sel.minimum_distance(3.0, X10), TypeError, "family"),
    (lambda: sel.contest_parameters(0.0), ValueError, "alpha"),
    (lambda: sel.gaussian_grid(1), ValueError, "k"),
    (lambda: sel.gaussian_grid(5, 2.0, -2.0), ValueError, "low"),
    (lambda: sel.gaussian_grid(5, scale=0.0), ValueError, "scale"),
    (lambda: sel.guarantee_alpha(0.5, 41, 1.0), ValueError, "n"),
    (lambda: sel.guarantee_alpha(100, 41, 1.0, beta=1.0), ValueError, "beta"),
    (lambda: sel.users_needed_theory(10, 41, 0.05, 0.0), ValueError, "epsilon"),
    (lambda: tournament_lesson.selection_sweep([100], [5], [1.0], 3, 0), ValueError, "ks"),
    (lambda: tournament_lesson.user_level_sweep([10], [0], [1.0], 3, 0), ValueError, "per_user"),
    (lambda: sel.simplex_cover(1, 4), ValueError, "domain"),
    (lambda: sel.simplex_cover(3, 0), ValueError, "resolution"),
    (lambda: sel.gaussian_mean_scale_grid(np.zeros(2), np.array([1.0, 0.0])), ValueError, "scales"),
])
def test_functions_reject_bad_input(call, error, name):
    """Public functions raise ValueError/TypeError naming the bad parameter."""
    with pytest.raises(error, match=rf"^{name} must"):
        call()


@pytest.mark.parametrize("build", [
    lambda: sel.GaussianFamily(np.array([0.0, 1.0]), np.array([1.0, 0.0])),
    lambda: sel.GaussianFamily(np.array([0.0, 1.0]), np.array([1.0, -1.0])),
    lambda: sel.GaussianFamily(np.array([0.0]), np.array([1.0])),
    lambda: sel.GaussianFamily(np.array([0.0, np.nan]), np.ones(2)),
    lambda: sel.DiscreteFamily(np.array([[0.5, 0.6], [0.5, 0.5]])),
    lambda: sel.DiscreteFamily(np.array([[1.2, -0.2], [0.5, 0.5]])),
    lambda: sel.DiscreteFamily(np.array([[0.5, 0.5]])),
    lambda: sel.GaussianMeans2D(np.zeros((3, 3))),
    lambda: sel.GaussianMeans2D(np.zeros((1, 2))),
], ids=["scale 0", "scale < 0", "one hypothesis", "nan mean", "row sums 1.1", "negative entry", "one row",
        "3-D means", "one 2-D mean"])
def test_families_reject_bad_parameters(build):
    """Families reject non-positive scales, rows that are not probability vectors, and too few hypotheses."""
    with pytest.raises(ValueError):
        build()


# ------------------------------------------------------------------------------------ 11. vectorised counts
def test_vectorised_counts_match_per_pair_counts_for_1000_hypotheses():
    """gaussian_grid(1000), n = 5000 (and 3 stacked datasets): set_counts equals np.sum(x > midpoint) (or <) on 200
    random pairs; one dataset alone gives the same counts as its row of the stack."""
    family = sel.gaussian_grid(1000)
    rng = np.random.default_rng(71)
    x = rng.normal(0.3, 1.2, (3, 5000))
    counts = family.set_counts(x)
    assert counts.shape == (3, 1000, 1000)
    pairs = rng.choice(1000, size=(200, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    for i, j in pairs:
        midpoint = (family.means[i] + family.means[j]) / 2
        expected = np.sum(x > midpoint, axis=-1) if family.means[i] > family.means[j] else np.sum(x < midpoint, axis=-1)
        np.testing.assert_array_equal(counts[:, i, j], expected)
    np.testing.assert_array_equal(family.set_counts(x[1]), counts[1])


if __name__ == "__main__":
    _, (s, s_neighbour) = audit_pair()
    print("scores on X :", np.round(s, 3))
    print("scores on X':", np.round(s_neighbour, 3))
    for label, sensitivity, monotonic in (("correct EM", 1.0, False), ("exp(eps S), no factor 2", 1.0, True)):
        exact = detectable_log_ratio(em_log_probabilities(s, AUDIT_EPSILON, 0.5 if monotonic else 1.0),
                                     em_log_probabilities(s_neighbour, AUDIT_EPSILON, 0.5 if monotonic else 1.0), 0.0)
        print(f"{label:28s} lower bound {selection_audit(s, s_neighbour, sensitivity, monotonic):.3f}"
              f"   exact loss {exact:.3f}   claimed {AUDIT_EPSILON}")


# ------------------------------------------------------------------------------------ fixed bugs, kept as tests
@pytest.mark.parametrize("value", [-1e14, -1e16, 1e16, 1e300])
def test_one_extreme_point_moves_every_score_by_at_most_one(value):
    """Counting in a data-independent frame: an extreme replacement cannot leak through floating-point shifts,
    in the same dataset or (trials axis) in another one."""
    family = sel.gaussian_grid(41)
    x = np.random.default_rng(21).normal(0.33, 1.0, (3, 200))
    moved = x.copy()
    moved[1, 0] = value
    change = np.abs(sel.scheffe_scores(family, moved, ALPHA) - sel.scheffe_scores(family, x, ALPHA))
    assert change[1].max() <= 1 + 1e-9 and change[[0, 2]].max() == 0.0
    users = np.random.default_rng(22).normal(0.33, 1.0, (100, 4))
    far = users.copy()
    far[0] = value
    before, delta = sel.user_scheffe_scores(family, users, ALPHA, 1.0)
    after, _ = sel.user_scheffe_scores(family, far, ALPHA, 1.0)
    assert np.abs(after - before).max() <= delta + 1e-9


@pytest.mark.parametrize("family, bad", [
    (sel.gaussian_grid(5), np.array([0.0, 1.0, np.inf])),
    (sel.gaussian_grid(5), np.array([0.0, np.nan])),
    (sel.simplex_cover(3, 2), np.array([0, 1, 3])),
    (sel.simplex_cover(3, 2), np.array([0, -1])),
    (sel.simplex_cover(3, 2), np.array([0.7, 1.0])),
    (sel.GaussianMeans2D(np.eye(2)), np.zeros((4, 3))),
])
def test_bad_data_is_rejected_naming_x(family, bad):
    """NaN/inf points, codes outside the domain or not integers, points of the wrong dimension: a ValueError on x."""
    with pytest.raises(ValueError, match="^x must"):
        sel.scheffe_scores(family, bad, ALPHA)


def test_identical_hypotheses_have_an_empty_scheffe_set():
    """The diagonal of the counts is 0 even for points exactly at 0 (the empty set is (inf, inf))."""
    counts = sel.gaussian_grid(5).set_counts(np.array([0.0, 0.0, 1.0]))
    assert np.all(np.diag(counts) == 0)


def test_gaussian_family_rejects_non_finite_scales():
    with pytest.raises(ValueError, match="scales"):
        sel.GaussianFamily(np.array([0.0, 1.0]), np.array([np.nan, 1.0]))
