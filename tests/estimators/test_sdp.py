"""The SDP score over directions (docs/algorithms.md §5.4, §5.6.3): exactness on the sphere, relaxation bound,
sensitivity 1, concavity, the default instance, the exact grid sampler and the iterative estimator (at the page's
defaults: tests/lessons/test_exponential_mechanism.py).
"""

from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats

from dpcore import mechanisms
from dpcore.estimators import sdp

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "bucket_means": dict(points=np.arange(16.0).reshape(8, 2), buckets=4),
    "exact_far_count": dict(
        bucket_means=np.eye(4, 2), center=np.zeros(2), radius=0.5, direction=np.array([1.0, 0.0])
    ),
    "sdp_direction_score": dict(
        bucket_means=np.eye(4, 2), center=np.zeros(2), radius=0.5, direction=np.array([0.5, 0.0]), solver="CLARABEL"
    ),
    "free_sdp_value": dict(bucket_means=np.eye(4, 2), center=np.zeros(2), radius=0.5, solver="CLARABEL"),
    "polar_score_grid": dict(
        bucket_means=np.eye(4, 2), center=np.zeros(2), radius=0.5, radii_count=1, angles=3, solver="SCS"
    ),
    "sample_direction": dict(
        scores=np.array([1.0, 2.0]), weights=np.array([1.0, 1.0]), points=np.eye(2), epsilon=1.0, rng=0, size=2
    ),
    "iterative_mean_2d": dict(
        points=np.ones((8, 2)),
        epsilon=1.0,
        buckets=4,
        steps=1,
        initial=np.zeros(2),
        radius=0.5,
        max_step=1.0,
        rng=0,
        radii_count=1,
        angles=3,
        solver="SCS",
    ),
}


ORIGIN = np.zeros(2)


def unit(angles_deg):
    theta = np.radians(np.asarray(angles_deg, dtype=float))
    return np.column_stack([np.cos(theta), np.sin(theta)])


def default_instance(seed=0, n=400, buckets=20):
    """docs/algorithms.md §5.4 page defaults: N(mu, I_2) with mu - mu~ = (2, 1), mu~ = 0, r = 2."""
    points = np.random.default_rng(seed).standard_normal((n, 2)) + [2.0, 1.0]
    return sdp.bucket_means(points, buckets)


@pytest.fixture(scope="module")
def means12():
    return default_instance(seed=1, n=240, buckets=12)


def test_bucket_means_are_contiguous_blocks_and_one_row_moves_one_bucket():
    points = np.arange(20.0).reshape(10, 2)
    np.testing.assert_allclose(sdp.bucket_means(points, 5), points.reshape(5, 2, 2).mean(axis=1))
    assert sdp.bucket_means(points, 3).shape == (3, 2)  # array_split: blocks of 4, 3, 3
    changed = points.copy()
    changed[7] = [100.0, -100.0]
    moved = np.any(sdp.bucket_means(points, 5) != sdp.bucket_means(changed, 5), axis=1)
    np.testing.assert_array_equal(moved, [False, False, False, True, False])


def test_exact_far_count_vectorised_equals_loop(means12):
    directions = unit(np.arange(0, 360, 7.5))
    counts = sdp.exact_far_count(means12, ORIGIN, 1.5, directions)
    loop = [int(np.sum((means12 - ORIGIN) @ v >= 1.5)) for v in directions]
    np.testing.assert_array_equal(counts, loop)
    assert sdp.exact_far_count(means12, ORIGIN, 1.5, directions[3]) == loop[3]


def test_sdp_value_equals_the_exact_count_on_the_unit_circle():
    means = default_instance()
    directions = unit(np.arange(0, 360, 36) + 3.0)  # 10 directions
    values = [sdp.sdp_direction_score(means, ORIGIN, 2.0, v, solver="CLARABEL") for v in directions]
    np.testing.assert_allclose(values, sdp.exact_far_count(means, ORIGIN, 2.0, directions), atol=1e-4)


def test_free_relaxation_bounds_the_best_count(means12):
    best = sdp.exact_far_count(means12, ORIGIN, 2.0, unit(np.arange(360))).max()
    free = sdp.free_sdp_value(means12, ORIGIN, 2.0)
    assert free >= best - 1e-6
    assert free >= sdp.sdp_direction_score(means12, ORIGIN, 2.0, [0.5, 0.2]) - 1e-4


def test_replacing_one_bucket_changes_the_score_by_at_most_one(means12):
    rng = np.random.default_rng(5)
    y = np.array([0.6, 0.25])
    base = sdp.sdp_direction_score(means12, ORIGIN, 2.0, y)
    changes = []
    for _ in range(5):
        neighbour = means12.copy()
        neighbour[rng.integers(12)] = rng.normal(0.0, 4.0, size=2)
        changes.append(abs(sdp.sdp_direction_score(neighbour, ORIGIN, 2.0, y) - base))
    assert max(changes) <= 1 + 1e-4


def test_sdp_value_is_concave_along_a_segment(means12):
    segment = np.linspace(-0.95, 0.95, 9)[:, None] * np.array([0.8, 0.6])
    values = np.array([sdp.sdp_direction_score(means12, ORIGIN, 1.5, y) for y in segment])
    assert np.all(np.diff(values, 2) <= 1e-4)
    assert np.all((values >= -1e-6) & (values <= 12 + 1e-6))


def test_a_solve_that_is_not_optimal_raises(monkeypatch, means12):
    def solve(solver):
        fake.problem.status = "infeasible_inaccurate"
        return 0.0

    fake = SimpleNamespace(problem=SimpleNamespace(solve=solve, status=None), centred=SimpleNamespace(),
                           radius=SimpleNamespace(), direction=SimpleNamespace(), lock=sdp.threading.Lock())
    monkeypatch.setattr(sdp, "_relaxation", lambda *key: fake)
    with pytest.raises(RuntimeError, match="infeasible_inaccurate"):
        sdp.sdp_direction_score(means12, ORIGIN, 1.0, [0.1, 0.0])


def test_polar_grid_shapes_points_and_weights(means12):
    grid = sdp.polar_score_grid(means12, ORIGIN, 2.0, radii_count=2, angles=4)
    assert grid["points"].shape == (8, 2) and all(grid[k].shape == (8,) for k in ("radius", "angle", "weights"))
    np.testing.assert_allclose(grid["radius"], np.repeat([0.25, 0.75], 4))
    np.testing.assert_allclose(grid["angle"], np.tile(np.arange(4) * np.pi / 2, 2))
    np.testing.assert_allclose(np.linalg.norm(grid["points"], axis=1), grid["radius"])
    np.testing.assert_allclose(grid["weights"], grid["radius"] / 4.0)  # ∝ cell area, sums to 1
    expected = [sdp.sdp_direction_score(means12, ORIGIN, 2.0, y, solver="CLARABEL") for y in grid["points"]]
    np.testing.assert_allclose(grid["scores"], expected, atol=1e-3)


def test_default_instance_polar_maximum_points_along_the_true_direction():
    grid = sdp.polar_score_grid(default_instance(), ORIGIN, 2.0)  # 5 x 24 = 120 SDPs at B = 20
    assert grid["scores"].shape == (120,)
    best = np.degrees(grid["angle"][np.argmax(grid["scores"])])
    assert abs(best - np.degrees(np.arctan2(1.0, 2.0))) <= 20.0


def test_sample_direction_law_is_the_exact_weighted_em():
    radii, angles = np.repeat([0.25, 0.75], 6), np.tile(np.arange(6) * np.pi / 3, 2)
    points = np.column_stack([radii * np.cos(angles), radii * np.sin(angles)])
    scores = np.array([0.0, 1.0, 3.0, 2.0, 0.5, 0.0, 1.0, 2.5, 4.0, 1.5, 0.0, 0.5])
    weights, epsilon = radii / radii.sum(), 1.0
    cell = mechanisms.exponential_probabilities(scores + 2.0 / epsilon * np.log(weights), epsilon)
    unnormalised = weights * np.exp(epsilon * scores / 2)
    np.testing.assert_allclose(cell, unnormalised / unnormalised.sum())
    expected = cell.reshape(2, 6).sum(axis=0)  # radii of one angle share a direction
    draws = sdp.sample_direction(scores, weights, points, epsilon, rng=0, size=20_000)
    np.testing.assert_array_equal(draws[:5], sdp.sample_direction(scores, weights, points, epsilon, rng=0, size=5))
    np.testing.assert_array_equal(draws[0], sdp.sample_direction(scores, weights, points, epsilon, rng=0))
    np.testing.assert_allclose(np.linalg.norm(draws, axis=1), 1.0)
    observed = np.bincount(np.rint(np.arctan2(draws[:, 1], draws[:, 0]) / (np.pi / 3)).astype(int) % 6, minlength=6)
    assert stats.chisquare(observed, expected * observed.sum()).pvalue > 1e-3


def test_iterative_estimator_is_seeded_and_reports_its_pieces():
    points = np.random.default_rng(3).standard_normal((240, 2)) + [2.0, 1.0]
    first, again = (sdp.iterative_mean_2d(points, 20.0, buckets=12, steps=2, rng=11, radii_count=2, angles=12)
                    for _ in range(2))
    np.testing.assert_array_equal(first.trajectory, again.trajectory)
    assert first.trajectory.shape == (3, 2) and first.directions.shape == (2, 2) and first.steps.shape == (2,)
    np.testing.assert_allclose(first.trajectory[0], 0.0)
    np.testing.assert_allclose(np.diff(first.trajectory, axis=0), first.steps[:, None] * first.directions)
    np.testing.assert_allclose(first.radii, [2.0, 1.0])
    assert first.scores.shape == (2, 24) and "basic composition" in first.guarantee
    assert np.all((first.steps >= 0) & (first.steps <= 4.0))


@pytest.mark.parametrize("call, match", [
    (lambda m: sdp.sdp_direction_score(m, ORIGIN, 1.0, [0.8, 0.7]), "closed unit ball"),
    (lambda m: sdp.sdp_direction_score(m, np.zeros(3), 1.0, [0.1, 0.1]), "center"),
    (lambda m: sdp.exact_far_count(m, ORIGIN, 1.0, [0.5, 0.5]), "unit vectors"),
    (lambda m: sdp.polar_score_grid(np.zeros((4, 3)), np.zeros(3), 1.0), "2-dimensional"),
    (lambda m: sdp.bucket_means(np.zeros((3, 2)), 4), "at least buckets"),
    (lambda m: sdp.sample_direction([1.0, 2.0], [0.5, 0.5], np.ones((3, 2)), 1.0), "same cells"),
    (lambda m: sdp.sample_direction([1.0, 2.0], [0.5, 0.5], np.zeros((2, 2)), 1.0), "nonzero"),
    (lambda m: sdp.iterative_mean_2d(np.zeros((30, 3)), 1.0), "shape"),
])
def test_bad_inputs_are_rejected(call, match, means12):
    with pytest.raises(ValueError, match=match):
        call(means12)
