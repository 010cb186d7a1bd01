"""Clipping to a norm ball (dpcore.estimators.clipping): the projection, and the sensitivity it buys."""

import numpy as np
import pytest

from dpcore.estimators.clipping import clip_to_ball, clipped_fraction

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "clip_to_ball": dict(rows=np.ones((3, 2)), radius=1.0, center=np.zeros(2), order=1),
    "clipped_fraction": dict(rows=np.ones((3, 2)), radius=1.0, center=np.zeros(2), order=2),
}


RADIUS = 2.0


def rows_inside_and_outside(order, dimension=5, count=400, seed=0):
    """Rows around a centre, about half of them outside the ball of radius RADIUS (in the given norm)."""
    rng = np.random.default_rng(seed)
    center = rng.normal(size=dimension)
    directions = rng.normal(size=(count, dimension))
    directions /= np.linalg.norm(directions, ord=order, axis=1, keepdims=True)
    norms = rng.uniform(0.1, 2.0 * RADIUS, size=count)
    return center, center + directions * norms[:, None], norms


@pytest.mark.parametrize("order", [1, 2])
def test_clipped_rows_are_in_the_ball_and_keep_their_direction(order):
    center, rows, norms = rows_inside_and_outside(order)
    clipped = clip_to_ball(rows, RADIUS, center, order=order)
    inside = norms <= RADIUS
    assert 0.3 < inside.mean() < 0.7  # both cases are exercised
    after = np.linalg.norm(clipped - center, ord=order, axis=1)
    assert np.all(after <= RADIUS * (1 + 1e-12))
    np.testing.assert_array_equal(clipped[inside], rows[inside])  # rows inside are untouched, bit for bit
    np.testing.assert_allclose(after[~inside], RADIUS, rtol=1e-12)  # rows outside land on the sphere
    before, moved = rows - center, clipped - center
    cosine = np.sum(before * moved, axis=1) / (np.linalg.norm(before, axis=1) * np.linalg.norm(moved, axis=1))
    np.testing.assert_allclose(cosine, 1.0, rtol=1e-12)  # same direction from the centre (radial scaling)


def test_l2_clipping_is_the_euclidean_projection():
    center, rows, norms = rows_inside_and_outside(2)
    clipped = clip_to_ball(rows, RADIUS, center)
    outside = norms > RADIUS
    moved_by = np.linalg.norm(rows - clipped, axis=1)
    np.testing.assert_allclose(moved_by[outside], norms[outside] - RADIUS, rtol=1e-10)  # the distance to the ball
    # no point of the ball is closer: compare with many random points of the ball
    rng = np.random.default_rng(1)
    ball = rng.normal(size=(2000, 5))
    ball = center + ball / np.linalg.norm(ball, axis=1, keepdims=True) * RADIUS * rng.uniform(0, 1, (2000, 1))
    nearest = np.min(np.linalg.norm(rows[outside, None, :] - ball[None], axis=2), axis=1)
    assert np.all(moved_by[outside] <= nearest + 1e-12)


def test_default_centre_is_the_origin_and_input_is_not_modified():
    rows = np.array([[3.0, 4.0], [0.3, 0.4], [0.0, 0.0]])
    original = rows.copy()
    clipped = clip_to_ball(rows, 1.0)
    np.testing.assert_allclose(clipped, [[0.6, 0.8], [0.3, 0.4], [0.0, 0.0]], rtol=1e-15)  # the zero row: no NaN
    np.testing.assert_array_equal(rows, original)
    np.testing.assert_allclose(clip_to_ball(rows, 1.0, order=1), [[3 / 7, 4 / 7], [0.3, 0.4], [0.0, 0.0]])


def test_trials_axis_clips_each_dataset_like_a_single_one():
    rng = np.random.default_rng(2)
    batch = rng.normal(scale=2.0, size=(4, 30, 3))
    center = np.array([0.5, -1.0, 0.0])
    clipped = clip_to_ball(batch, 1.5, center)
    assert clipped.shape == batch.shape
    for dataset, result in zip(batch, clipped):
        np.testing.assert_array_equal(result, clip_to_ball(dataset, 1.5, center))


@pytest.mark.parametrize("order, norm_of_mean_change, bound", [
    (2, lambda diff: np.linalg.norm(diff, axis=-1), lambda n, d: 2 * RADIUS / n),  # Δ2 = 2C/n
    (2, lambda diff: np.abs(diff).sum(axis=-1), lambda n, d: 2 * RADIUS * np.sqrt(d) / n),  # Δ1 ≤ 2C√d/n
    (1, lambda diff: np.abs(diff).sum(axis=-1), lambda n, d: 2 * RADIUS / n),  # ℓ1 ball: Δ1 = 2C/n
])
def test_clipped_mean_sensitivity(order, norm_of_mean_change, bound):
    """Replace one row by anything: the clipped mean moves by at most the stated sensitivity, and nearly that much."""
    n, d, trials = 20, 4, 5000
    rng = np.random.default_rng(3)
    data = rng.normal(scale=3.0, size=(trials, n, d))
    neighbour = data.copy()
    neighbour[:, 0, :] = rng.normal(scale=50.0, size=(trials, d))
    change = norm_of_mean_change(clip_to_ball(data, RADIUS, order=order).mean(axis=1)
                                 - clip_to_ball(neighbour, RADIUS, order=order).mean(axis=1))
    assert np.max(change) <= bound(n, d) * (1 + 1e-12)
    assert np.max(change) > 0.8 * bound(n, d)  # the bound is nearly attained: it is the right sensitivity


def test_clipped_fraction_counts_rows_outside():
    rows = np.array([[0.0, 0.5], [0.0, 1.0], [3.0, 0.0], [0.0, -2.0]])  # inside, on the sphere, outside, outside
    assert clipped_fraction(rows, 1.0) == 0.5
    assert isinstance(clipped_fraction(rows, 1.0), float)
    assert clipped_fraction(rows, 1.0, center=np.array([0.0, 1.0])) == 0.5  # [0, 0.5] in; [0, 1] in; others out
    assert clipped_fraction(rows, 0.6, order=1) == 0.75
    batch = np.stack([rows, rows * 0.1])
    np.testing.assert_array_equal(clipped_fraction(batch, 1.0), [0.5, 0.0])


@pytest.mark.parametrize("order", [1, 2])
def test_clipped_fraction_is_the_share_of_rows_clipping_moves(order):
    center, rows, _ = rows_inside_and_outside(order, seed=4)
    moved = np.any(clip_to_ball(rows, RADIUS, center, order=order) != rows, axis=1)
    assert clipped_fraction(rows, RADIUS, center, order=order) == pytest.approx(moved.mean(), abs=1e-12)


def test_bad_arguments_are_rejected_by_name():
    with pytest.raises(ValueError, match="radius"):
        clip_to_ball(np.zeros((2, 2)), 0.0)
    with pytest.raises(ValueError, match="order"):
        clip_to_ball(np.zeros((2, 2)), 1.0, order=3)
    with pytest.raises(ValueError, match="rows"):
        clipped_fraction(np.zeros(3), 1.0)
