"""The exponential mechanism over a grid cover: exact depths, sensitivity 1, the size wall, accuracy, privacy."""

import itertools

import numpy as np
import pytest

from dpcore import audit, mechanisms
from dpcore.estimators import cover as expmech

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "halfspace_depth": dict(points=np.zeros((3, 2)), candidates=np.zeros((2, 2)), directions=8),
    "grid_cover": dict(radius=1.0, spacing=0.5, dimension=2),
    "cover_mean": dict(x=np.zeros((5, 1)), epsilon=1.0, radius=1.0, spacing=0.5, directions=8, rng=0),
}


EPSILON = 1.0
DRAWS = 10**6

# Neighbours in d = 1 (n = 20, cover of 21 points on [-1, 1]): 19 points just inside the left edge, the
# 20th moves from far left to far right (both outside the box). Depth scores move in opposite directions:
# candidate -1 loses a point, the 20 others gain one: (1, 0, ..., 0) -> (0, 1, ..., 1).
COVER_1D = expmech.grid_cover(1.0, 0.1, 1)
NEIGHBOURS = (np.r_[-2.0, np.full(19, -0.95)][:, None], np.r_[2.0, np.full(19, -0.95)][:, None])


def brute_force_depth(points, candidates, directions):
    theta = 2 * np.pi * np.arange(directions) / directions
    vectors = np.column_stack([np.cos(theta), np.sin(theta)])
    return np.array([min(int(np.sum((points - c) @ v >= 0)) for v in vectors) for c in candidates])


def test_depth_1d_is_the_exact_formula_with_ties():
    rng = np.random.default_rng(0)
    data = rng.integers(-3, 4, size=(5, 9, 1)).astype(float)  # many ties with the candidates
    candidates = np.r_[expmech.grid_cover(4.0, 0.5, 1)[:, 0], data[0, :, 0]][:, None]
    expected = [[min(np.sum(x <= c), np.sum(x >= c)) for c in candidates[:, 0]] for x in data[..., 0]]
    np.testing.assert_array_equal(expmech.halfspace_depth(data, candidates), expected)
    np.testing.assert_array_equal(expmech.halfspace_depth(data[2], candidates), expected[2])


@pytest.mark.parametrize("directions", [3, 7, 64])
def test_depth_2d_matches_brute_force(directions):
    rng = np.random.default_rng(directions)
    data = rng.normal(size=(4, 15, 2))
    candidates = np.r_[expmech.grid_cover(2.0, 0.5, 2), data[0, :3]]  # includes data points themselves
    depth = expmech.halfspace_depth(data, candidates, directions)
    assert depth.shape == (4, candidates.shape[0])
    for x, row in zip(data, depth):
        np.testing.assert_array_equal(row, brute_force_depth(x, candidates, directions))
    np.testing.assert_array_equal(expmech.halfspace_depth(data[1], candidates, directions), depth[1])


@pytest.mark.parametrize("dimension", [1, 2])
def test_replacing_one_point_moves_every_depth_by_at_most_one(dimension):
    rng = np.random.default_rng(dimension)
    data = np.round(rng.normal(size=(6, dimension)), 1)
    candidates = expmech.grid_cover(1.5, 0.5, dimension)
    positions = np.r_[expmech.grid_cover(1.0, 1.0, dimension), data, np.full((2, dimension), [[-9.0], [9.0]])]
    neighbours = np.array([np.r_[data[:i], [p], data[i + 1:]]
                           for i, p in itertools.product(range(len(data)), positions)])
    change = expmech.halfspace_depth(neighbours, candidates, 16) - expmech.halfspace_depth(data, candidates, 16)
    assert np.max(np.abs(change)) == 1  # the bound holds exhaustively and is attained


def test_grid_cover_size_and_the_exponential_wall():
    cover = expmech.grid_cover(3.0, 0.1, 2)
    assert cover.shape == (3721, 2)
    np.testing.assert_allclose(cover[[0, 1, -1]], [[-3.0, -3.0], [-3.0, -2.9], [3.0, 3.0]])
    assert expmech.grid_cover(1.0, 0.1, 1).shape == (21, 1)
    uneven = expmech.grid_cover(1.0, 0.3, 1)[:, 0]  # 2R/s not an integer: spacing shrinks to fit [-R, R]
    assert uneven[0] == -1.0 and uneven[-1] == 1.0 and np.max(np.diff(uneven)) <= 0.3
    assert expmech.grid_cover(1.0, 2.0 / (expmech.MAX_COVER_SIZE - 1), 1).shape == (expmech.MAX_COVER_SIZE, 1)
    for radius, spacing, dimension in [(3.0, 0.1, 3), (1.0, 2.0 / expmech.MAX_COVER_SIZE, 1), (1.0, 1.0, 10**9)]:
        with pytest.raises(ValueError, match="too large.*exponential-time wall"):
            expmech.grid_cover(radius, spacing, dimension)


def test_dimension_must_be_one_or_two():
    with pytest.raises(ValueError, match="x must hold points of dimension 1 or 2"):
        expmech.cover_mean(np.zeros((5, 3)), EPSILON, 1.0, 0.5)
    with pytest.raises(ValueError, match="candidates must have the dimension of points"):
        expmech.halfspace_depth(np.zeros((5, 2)), np.zeros((4, 1)))


def test_cover_mean_shapes_and_seeded_reproducibility():
    data = np.random.default_rng(0).normal(size=(7, 30, 2))
    first = expmech.cover_mean(data, EPSILON, 2.0, 0.25, rng=5)
    assert first.shape == (7, 2)
    np.testing.assert_array_equal(first, expmech.cover_mean(data, EPSILON, 2.0, 0.25, rng=5))
    assert expmech.cover_mean(data[0], EPSILON, 2.0, 0.25, rng=5).shape == (2,)
    assert expmech.cover_mean(data[..., :1], EPSILON, 2.0, 0.25, rng=5).shape == (7, 1)


def test_cover_mean_is_accurate_on_gaussian_data():
    # Measured (seeds 0-2): median error 0 (mu is a grid point), 90 % quantile 0.1 (one grid step);
    # uniform selection on the cover would give a median error above 2.
    mu = np.array([0.3, -0.2])
    data = np.random.default_rng(0).normal(size=(50, 2000, 2)) + mu
    errors = np.linalg.norm(expmech.cover_mean(data, EPSILON, 3.0, 0.1, rng=1) - mu, axis=1)
    assert np.median(errors) < 0.15


def test_cover_mean_samples_the_exponential_mechanism_with_factor_two():
    trials = 2 * 10**5
    data = np.broadcast_to(NEIGHBOURS[0], (trials, 20, 1))
    chosen = np.rint((expmech.cover_mean(data, EPSILON, 1.0, 0.1, rng=3)[:, 0] + 1.0) / 0.1).astype(int)
    frequencies = np.bincount(chosen, minlength=21) / trials
    exact = mechanisms.exponential_probabilities(expmech.halfspace_depth(NEIGHBOURS[0], COVER_1D), EPSILON)
    assert np.all(np.abs(frequencies - exact) <= 5 * np.sqrt(exact * (1 - exact) / trials))


def log_ratios(x, neighbour, monotonic=False):
    p, q = (mechanisms.exponential_probabilities(expmech.halfspace_depth(data, COVER_1D), EPSILON, monotonic=monotonic)
            for data in (x, neighbour))
    return np.abs(np.log(p / q))


def test_exact_privacy_loss_is_at_most_epsilon():
    rng = np.random.default_rng(1)
    data = rng.normal(size=(20, 1))
    worst = max(np.max(log_ratios(data, np.r_[data[:i], [[p]], data[i + 1:]]))
                for i in range(20) for p in (-5.0, -1.0, -0.33, 0.0, 0.5, 1.0, 5.0))
    assert worst <= EPSILON + 1e-12
    assert 0.9 * EPSILON < np.max(log_ratios(*NEIGHBOURS)) <= EPSILON + 1e-12  # the constructed pair is near-tight
    assert np.max(log_ratios(*NEIGHBOURS, monotonic=True)) > 1.5 * EPSILON  # without the factor 2: not eps-DP


@pytest.mark.parametrize("monotonic", [False, True])
def test_sampling_audit(monotonic):
    scores = [expmech.halfspace_depth(data, COVER_1D) for data in NEIGHBOURS]
    counts = [audit.outcome_counts(mechanisms.exponential(s, EPSILON, monotonic=monotonic, rng=seed, size=DRAWS), 21)
              for seed, s in enumerate(scores)]
    bound = audit.epsilon_lower_bound(*counts, DRAWS).epsilon_lower_bound
    if monotonic:
        assert bound > 1.2 * EPSILON  # exp(eps * depth) is caught: the depth is not monotone
    else:
        assert 0.85 * EPSILON < bound <= EPSILON
