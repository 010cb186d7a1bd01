"""User-level threshold learning (Ghazi et al. 2023; docs/algorithms.md §5.5): counts, sensitivities, user complexity,
EM, privacy audit."""

import math

import numpy as np
import pytest

from dpcore import audit, mechanisms
from dpcore.estimators import user_level as ul
from dpcore.lessons import exponential_mechanism as exponential_mechanism_lesson

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "default_grid": dict(size=11),
    "threshold_data": dict(users=3, per_user=2, threshold=0.37, rng=0, trials=2),
    "user_error_counts": dict(
        x=np.array([[0.1, 0.5], [0.6, 0.9]]), y=np.array([[0.0, 1.0], [1.0, 1.0]]), grid=np.array([0.0, 0.5, 1.0])
    ),
    "losses": dict(counts=np.array([[0.0, 2.0], [1.0, 0.0]]), kind="tau", tau=1.5),
    "loss_sensitivity": dict(kind="tau", per_user=5, tau=2.0),
    "select_threshold": dict(
        x=np.array([[0.1, 0.5], [0.6, 0.9]]),
        y=np.array([[0.0, 1.0], [1.0, 1.0]]),
        epsilon=1.0,
        kind="tau",
        tau=2.0,
        grid=np.array([0.0, 0.5, 1.0]),
        rng=0,
    ),
    "users_needed": dict(
        alpha=0.05, per_user=20, epsilon=1.0, candidates=101, beta=0.1, kind="group"
    ),
    "savings_factor": dict(alpha=0.05, per_user=20),
}


GRID = ul.default_grid(11)


def brute_force_counts(x, y, grid):
    counts = np.zeros((*x.shape[:-1], grid.size), dtype=int)
    for index in np.ndindex(x.shape[:-1]):
        for j in range(x.shape[-1]):
            for k, t in enumerate(grid):
                counts[index + (k,)] += int(x[index + (j,)] >= t) != int(y[index + (j,)])
    return counts


@pytest.mark.parametrize("shape", [(4, 6), (3, 5, 7), (2, 1, 1)])
def test_error_counts_match_a_brute_force_loop(shape):
    rng = np.random.default_rng(1)
    x = rng.random(shape)
    x.flat[0] = GRID[3]  # ties: h_t(x) = 1 at x == t
    y = (rng.random(shape) < 0.5).astype(float)
    assert np.array_equal(ul.user_error_counts(x, y, GRID), brute_force_counts(x, y, GRID))
    full = ul.user_error_counts(x, y)
    assert full.shape == (*shape[:-1], ul.GRID_SIZE)
    assert np.array_equal(full, brute_force_counts(x, y, ul.default_grid()))


def test_realizable_data_has_zero_error_exactly_at_the_target():
    x, y = ul.threshold_data(50, 10, rng=3)
    loss = ul.losses(ul.user_error_counts(x, y), "group")
    assert ul.default_grid()[37] == ul.THRESHOLD and loss[37] == 0 and np.all(np.delete(loss, 37) > 0)


def test_losses_clip_each_user():
    counts = np.array([[0, 3, 5], [1, 0, 2]])
    assert ul.losses(counts, "group").tolist() == [1, 3, 7]
    assert ul.losses(counts, "clipped").tolist() == [1, 1, 2]
    assert ul.losses(counts, "tau", tau=2).tolist() == [1, 2, 4]
    assert ul.losses(np.stack([counts, counts]), "clipped").shape == (2, 3)


USERS, PER_USER, REPLACEMENTS, TAU = 5, 6, 12, 2.0


def replaced_datasets(x, y, rng):
    """Every user's block replaced by random blocks and by its own block with labels flipped: (users*R, users, m)."""
    new_x = np.concatenate([rng.random((USERS, REPLACEMENTS - 1, PER_USER)), x[:, None]], axis=1)
    new_y = np.concatenate([(rng.random((USERS, REPLACEMENTS - 1, PER_USER)) < 0.5), 1 - y[:, None]], axis=1)
    xs = np.broadcast_to(x, (USERS, REPLACEMENTS, USERS, PER_USER)).copy()
    ys = np.broadcast_to(y, xs.shape).copy()
    users = np.arange(USERS)
    xs[users, :, users], ys[users, :, users] = new_x, new_y
    return xs.reshape(-1, USERS, PER_USER), ys.reshape(-1, USERS, PER_USER)


@pytest.mark.parametrize("seed", range(4))
def test_replacing_one_users_block_moves_each_loss_by_at_most_its_sensitivity(seed):
    rng = np.random.default_rng(seed)
    x, y = ul.threshold_data(USERS, PER_USER, rng=rng)
    xs, ys = replaced_datasets(x, y, rng)
    counts, counts_replaced = ul.user_error_counts(x, y), ul.user_error_counts(xs, ys)
    for kind in ul.LOSSES:
        change = np.abs(ul.losses(counts_replaced, kind, TAU) - ul.losses(counts, kind, TAU)).max()
        bound = ul.loss_sensitivity(kind, PER_USER, TAU)
        assert change == bound  # never exceeded, and attained (a flipped block errs on all m at the target)
    assert ul.loss_sensitivity("tau", PER_USER, 10.0) == PER_USER


def test_savings_factor_and_users_needed():
    assert ul.savings_factor(0.05, 20) == pytest.approx(0.641514 / 0.05, rel=1e-5)
    assert round(ul.savings_factor(0.05, 20), 2) == 12.83
    assert ul.savings_factor(0.3, 1) == pytest.approx(1.0)
    log_term = 4 * math.log(101 / 0.1)
    assert ul.users_needed(0.05, 20, 1.0) == pytest.approx(log_term / 0.641514, rel=1e-5)  # 43.13
    assert ul.users_needed(0.05, 20, 1.0, kind="group") == pytest.approx(log_term / 0.05)  # 553.4
    assert ul.users_needed(0.05, 20, 1.0, kind="one_per_user") == ul.users_needed(0.05, 20, 1.0, kind="group")
    ratio = ul.users_needed(0.05, 20, 0.5, kind="group") / ul.users_needed(0.05, 20, 0.5)
    assert ratio == pytest.approx(ul.savings_factor(0.05, 20))


@pytest.mark.parametrize("seed", range(4))
def test_clipping_saves_users(seed):
    """n = 200 users, m = 20, eps = 0.5: the clipped EM almost always lands on the target, group privacy does not."""
    x, y = ul.threshold_data(200, 20, rng=seed, trials=200)
    errors = {kind: np.abs(ul.select_threshold(x, y, 0.5, kind, rng=seed + 100) - ul.THRESHOLD)
              for kind in ("clipped", "group")}
    one = np.abs(ul.select_threshold(x, y, 0.5, rng=seed + 100, one_per_user=True) - ul.THRESHOLD)
    assert np.median(errors["clipped"]) < np.median(errors["group"]) and np.median(errors["clipped"]) < np.median(one)
    assert errors["clipped"].mean() < errors["group"].mean() / 5


def test_with_one_example_per_user_all_methods_coincide():
    x, y = ul.threshold_data(30, 1, rng=4, trials=50)
    picks = [ul.select_threshold(x, y, 1.0, kind, rng=5) for kind in ul.LOSSES]
    picks.append(ul.select_threshold(x, y, 1.0, "group", rng=5, one_per_user=True))
    assert all(np.array_equal(picks[0], p) for p in picks[1:])


def test_selection_law_is_the_exponential_mechanism():
    x, y = ul.threshold_data(8, 3, rng=6)
    loss = ul.losses(ul.user_error_counts(x, y, GRID), "clipped")
    draws = ul.select_threshold(np.broadcast_to(x, (40_000, 8, 3)), np.broadcast_to(y, (40_000, 8, 3)), 1.0,
                                grid=GRID, rng=7)
    frequencies = audit.outcome_counts(np.searchsorted(GRID, draws), GRID.size) / draws.size
    assert np.abs(frequencies - mechanisms.exponential_probabilities(-loss, 1.0, 1.0)).max() < 0.01


# Audit: user 0 holds m copies of (0.45, y=0) in X and of (0.45, y=1) in X' — its error count jumps between 0 and
# m on both sides of 0.45 (clipped loss +-1, group loss +-m, in opposite directions: the worst case for the factor
# 2). Six background users each hold one (0.45, 0) example (errs for t <= 0.45) and m - 1 neutral (1, 1) examples,
# so t <= 0.45 is rare and the ratio of its probabilities approaches e^eps.
DRAWS, EPSILON, BACKGROUND, M = 200_000, 1.0, 6, 5


def neighbours():
    x = np.ones((1 + BACKGROUND, M))
    x[:, 0] = x[0] = 0.45
    y = np.ones_like(x)
    y[:, 0] = y[0] = 0.0
    y_neighbour = y.copy()
    y_neighbour[0] = 1.0
    return x, y, y_neighbour


def selection_counts(select, seed):
    """Outcome counts and threshold events {t <= grid[i]} of DRAWS selections, one per batch row."""
    outcomes = audit.outcome_counts(np.searchsorted(GRID, select(seed)), GRID.size)
    return np.concatenate([outcomes, np.cumsum(outcomes)[:-1]])


def user_audit(select):
    x, y, y_neighbour = neighbours()
    batch = (DRAWS, *x.shape)
    on_x = selection_counts(lambda s: select(np.broadcast_to(x, batch), np.broadcast_to(y, batch), s), 1)
    on_neighbour = selection_counts(lambda s: select(np.broadcast_to(x, batch), np.broadcast_to(y_neighbour, batch), s),
                                    2)
    return audit.epsilon_lower_bound(on_x, on_neighbour, DRAWS).epsilon_lower_bound


def test_construction_moves_the_losses_by_their_sensitivities():
    x, y, y_neighbour = neighbours()
    counts, counts_neighbour = ul.user_error_counts(x, y, GRID), ul.user_error_counts(x, y_neighbour, GRID)
    for kind, bound in (("clipped", 1), ("group", M)):
        change = ul.losses(counts_neighbour, kind) - ul.losses(counts, kind)
        assert change.min() == -bound and change.max() == bound


def test_clipped_selection_passes_the_user_level_audit():
    bound = user_audit(lambda x, y, seed: ul.select_threshold(x, y, EPSILON, grid=GRID, rng=seed))
    assert 0.7 * EPSILON < bound <= EPSILON


def test_group_privacy_selection_passes_the_user_level_audit():
    assert user_audit(lambda x, y, seed: ul.select_threshold(x, y, EPSILON, "group", grid=GRID, rng=seed)) <= EPSILON


def test_group_loss_with_sensitivity_one_is_caught():
    def broken(x, y, seed):  # clipping removed, sensitivity left at 1
        loss = ul.losses(ul.user_error_counts(x, y, GRID), "group")
        return GRID[mechanisms.exponential(-loss, EPSILON, 1.0, rng=seed)]
    assert user_audit(broken) > 2 * EPSILON


def test_seeded_reproducibility():
    first, again = ul.threshold_data(10, 4, rng=9, trials=3), ul.threshold_data(10, 4, rng=9, trials=3)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert ul.select_threshold(*first, 1.0, rng=3).tolist() == ul.select_threshold(*again, 1.0, rng=3).tolist()
    one, two = (exponential_mechanism_lesson.user_level_sweep(np.array([1, 5]), np.array([20, 40]), 1.0, 10, seed=0)
                for _ in range(2))
    assert one.parameters == ("per_user", "users")
    assert one.methods == tuple(exponential_mechanism_lesson.USER_SWEEP_METHODS)
    assert np.array_equal(one.mean, two.mean) and one.median.shape == (3, 2, 2)


def test_bad_inputs_are_rejected():
    x, y = ul.threshold_data(4, 3, rng=0)
    with pytest.raises(ValueError, match="same shape"):
        ul.user_error_counts(x, y[:, :2])
    with pytest.raises(ValueError, match="binary"):
        ul.select_threshold(x, np.full_like(y, 0.5), 1.0)
    with pytest.raises(ValueError, match="increasing"):
        ul.select_threshold(x, y, 1.0, grid=np.array([0.5, 0.2]))
    with pytest.raises(ValueError, match="kind"):
        ul.losses(np.zeros((2, 3)), "median")
    with pytest.raises(ValueError, match="users"):
        exponential_mechanism_lesson.user_level_sweep(np.array([1.0]), 20.5, 1.0, 5, 0)
    with pytest.raises(ValueError, match="epsilon"):
        ul.select_threshold(x, y, 0.0)
