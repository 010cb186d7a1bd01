"""Statistical privacy audits of every mechanism: correct ones pass, deliberately broken ones are caught.

Each case runs a mechanism 10^6 times (vectorised) on two neighbouring inputs, counts events, and
computes a 95 %-confidence empirical lower bound on epsilon (dpcore.audit). A correct mechanism's bound
stays at or below its claimed epsilon; a broken one's exceeds it. Run this file as a script to print the
table of measured bounds: ``python tests/test_privacy_audit.py``.
"""

import math

import numpy as np
import pytest

from dpcore import accounting, audit, mechanisms
from dpcore.estimators import partition_rounds as product
from dpcore.estimators.clipping import clip_to_ball

DRAWS = 10**6
EPSILON = 1.0
DELTA = 1e-5


THRESHOLDS = np.linspace(-15.0, 16.0, 125)  # test events {output > t}, spanning both neighbours' output ranges


def scalar_audit(draw, delta=0.0, thresholds=THRESHOLDS):
    """Audit a scalar-output mechanism ``draw(query_value, rng) -> samples`` on neighbours with values 0 and 1."""
    on_x = draw(0.0, 1)
    on_neighbour = draw(1.0, 2)
    return audit.epsilon_lower_bound(audit.threshold_counts(on_x, thresholds),
                                     audit.threshold_counts(on_neighbour, thresholds), DRAWS, delta)


def laplace(noise_factor=1.0, sensitivity=1.0):
    return lambda value, seed: mechanisms.laplace(np.full(DRAWS, value), sensitivity, EPSILON / noise_factor, rng=seed)


def gaussian(sigma_factor=1.0, calibration="analytic", epsilon=EPSILON):
    sigma = sigma_factor * mechanisms.gaussian_sigma(1.0, epsilon, DELTA, calibration)
    return lambda value, seed: value + np.random.default_rng(seed).normal(0.0, sigma, DRAWS)


def gaussian_mechanism(calibration, epsilon):
    return lambda value, seed: mechanisms.gaussian(np.full(DRAWS, value), 1.0, epsilon, DELTA, rng=seed,
                                                   calibration=calibration)


# Scores on neighbouring datasets. Non-monotone: one candidate loses a point, all others gain one
# (worst case for the factor 2). Monotone: one candidate gains a vote (add/remove-one counts).
CANDIDATES = 100
NON_MONOTONE = (np.r_[1.0, np.zeros(CANDIDATES - 1)], np.r_[0.0, np.ones(CANDIDATES - 1)])
MONOTONE = (np.r_[1.0, np.zeros(CANDIDATES - 1)], np.zeros(CANDIDATES))


def selection_audit(select, neighbours):
    scores, scores_neighbour = neighbours
    return audit.epsilon_lower_bound(audit.outcome_counts(select(scores, 1), CANDIDATES),
                                     audit.outcome_counts(select(scores_neighbour, 2), CANDIDATES), DRAWS)


def exponential(monotonic):
    return lambda scores, seed: mechanisms.exponential(scores, EPSILON, monotonic=monotonic, rng=seed, size=DRAWS)


def noisy_max(monotonic, candidates=20):
    draws = DRAWS // 5

    def select(scores, seed):
        return mechanisms.report_noisy_max(scores[:candidates], EPSILON, monotonic=monotonic, rng=seed, size=draws)
    return select, draws, candidates


def histogram_audit(epsilon_used):
    """Neighbours move one point from bin 0 to bin 1; the joint event {y0 - y1 > t} sees both counts move."""
    data = np.zeros(10)
    neighbour = data.copy()
    neighbour[0] = 1.5
    edges = np.array([-1.0, 1.0, 2.0])
    on_x = mechanisms.laplace_histogram(np.broadcast_to(data, (DRAWS, 10)), edges, epsilon_used, rng=1)
    on_neighbour = mechanisms.laplace_histogram(np.broadcast_to(neighbour, (DRAWS, 10)), edges, epsilon_used, rng=2)
    thresholds = np.linspace(0.0, 20.0, 41)
    return audit.epsilon_lower_bound(audit.threshold_counts(on_x[:, 0] - on_x[:, 1], thresholds),
                                     audit.threshold_counts(on_neighbour[:, 0] - on_neighbour[:, 1], thresholds), DRAWS)


def poll_audit(noise, neighbours="change", calibrated=None, epsilon=EPSILON, draws=DRAWS):
    """The class poll's raw release (dpcore.mechanisms.poll) on worst-case neighbours. "change": one vote moved from
    choice 0 to choice 1, counts (1, 0) against (0, 1), event {y0 >= 1, y1 <= 0} for the geometric noise, {y0 > 1,
    y1 < 0} for Laplace: its ratio is exactly e^ε (both counts move, each carrying ε/2). "add-remove": (1, 0) against
    (0, 0), event {y0 >= 1} (Laplace: {y0 > 1}): ratio e^ε. ``calibrated`` is the relation the noise is sized for
    (the broken variant sizes "change" for "add-remove": Δ1 = 1 where it is 2, so 2ε)."""
    neighbour = [0, 1] if neighbours == "change" else [0, 0]
    on = [mechanisms.poll_histogram(np.broadcast_to(counts, (draws, 2)), epsilon, noise=noise,
                                    neighbours=calibrated or neighbours, rng=seed).noisy
          for counts, seed in (([1, 0], 1), (neighbour, 2))]
    above, below = (1.0, 0.0) if noise == "laplace" else (0.5, 0.5)
    statistic = [np.minimum(y[:, 0] - above, below - y[:, 1]) if neighbours == "change" else y[:, 0] - above
                 for y in on]
    return audit.epsilon_lower_bound(*(audit.threshold_counts(t, np.array([0.0])) for t in statistic), draws)


# name -> (audit, the fraction of the claimed epsilon the audit must see: its power). The classical
# Gaussian calibration is conservative at eps = 1 (sigma 4.84 where 3.73 suffices), so less is visible.
CORRECT = {
    "Laplace (eps=1)": (lambda: scalar_audit(laplace()), 0.9),
    "Gaussian analytic (1, 1e-5)": (lambda: scalar_audit(gaussian_mechanism("analytic", 1.0), DELTA), 0.4),
    "Gaussian classical (1, 1e-5)": (lambda: scalar_audit(gaussian_mechanism("classical", 1.0), DELTA), 0.25),
    "exponential, factor 2": (lambda: selection_audit(exponential(False), NON_MONOTONE), 0.85),
    "exponential, monotone scores": (lambda: selection_audit(exponential(True), MONOTONE), 0.85),
    "Laplace histogram (eps=1)": (lambda: histogram_audit(EPSILON), 0.7),
    "poll, geometric, change one vote": (lambda: poll_audit("geometric"), 0.9),
    "poll, geometric, add or remove one vote": (lambda: poll_audit("geometric", "add-remove"), 0.9),
    "poll, Laplace, change one vote": (lambda: poll_audit("laplace"), 0.9),
    "poll, Laplace, add or remove one vote": (lambda: poll_audit("laplace", "add-remove"), 0.9),
}
BROKEN = {
    "Laplace, noise halved": lambda: scalar_audit(laplace(noise_factor=0.5)),
    "Laplace, sensitivity ignored (claims 0.5)": lambda: scalar_audit(laplace(sensitivity=0.5)),
    "Gaussian, sigma halved": lambda: scalar_audit(gaussian(sigma_factor=0.5), DELTA),
    "exponential without factor 2": lambda: selection_audit(exponential(True), NON_MONOTONE),
    "Laplace histogram, noise halved": lambda: histogram_audit(2 * EPSILON),
    "poll, geometric, a changed vote with add-remove noise": lambda: poll_audit("geometric", calibrated="add-remove"),
    "poll, Laplace, a changed vote with add-remove noise": lambda: poll_audit("laplace", calibrated="add-remove"),
}


@pytest.mark.parametrize("name", CORRECT)
def test_correct_mechanism_passes_the_audit(name):
    run, power = CORRECT[name]
    result = run()
    assert result.epsilon_lower_bound <= EPSILON
    assert result.epsilon_lower_bound > power * EPSILON  # the audit has power: it sees the claimed epsilon


@pytest.mark.parametrize("name", BROKEN)
def test_broken_mechanism_is_caught(name):
    assert BROKEN[name]().epsilon_lower_bound > 1.2 * EPSILON


@pytest.mark.parametrize("monotonic, neighbours, caught", [(False, NON_MONOTONE, False), (True, NON_MONOTONE, True)])
def test_report_noisy_max_audit(monotonic, neighbours, caught):
    select, draws, candidates = noisy_max(monotonic)
    scores, scores_neighbour = (s[:candidates] for s in neighbours)
    result = audit.epsilon_lower_bound(audit.outcome_counts(select(scores, 1), candidates),
                                       audit.outcome_counts(select(scores_neighbour, 2), candidates), draws)
    assert (result.epsilon_lower_bound > EPSILON) == caught


def test_audit_bound_is_zero_for_identical_distributions():
    same = scalar_audit(lambda value, seed: np.random.default_rng(seed).normal(0.0, 1.0, DRAWS))
    assert same.epsilon_lower_bound < 0.02


# ------------------------------------------------------------ partitioning rounds (dpcore.estimators.partition_rounds)
# (a) One partition round, product.clipped_laplace_means: l1-clip every row to T, average, add Lap(2T/(eps n)) to
# each coordinate. A loop of 10^6 calls is too slow, so the audit draws the exact composition the function performs
# (test_clipped_laplace_means_is_exactly_clip_mean_laplace pins it down). Neighbours replace the first row
# (1,1,0,0) by (0,0,1,1): both have l1 norm 2 > T = 1.5, so the clipped rows (.75,.75,0,0) and (0,0,.75,.75) are
# exactly 2T apart in l1, the worst case. The event {y_j above X's mean on coordinates 0, 1 and below it on 2, 3}
# has probability ratio exactly e^eps. Broken variants: the noise halved (eps = 2 claimed as 1) and the clip
# forgotten (rows 4 apart, noise still sized for 2T).
ROUND_RADIUS = 1.5
ROUND_ROWS = np.vstack([[1.0, 1.0, 0.0, 0.0], (np.random.default_rng(0).random((9, 4)) < 0.4).astype(float)])
ROUND_NEIGHBOUR = np.vstack([[0.0, 0.0, 1.0, 1.0], ROUND_ROWS[1:]])
ROUND_SIGNS = np.array([1.0, 1.0, -1.0, -1.0])


def round_release(rows, epsilon, seed, clip=True, draws=DRAWS):
    """``draws`` releases of one round on ``rows``: (clipped) mean + Lap(2T/(eps n)) per coordinate."""
    n, d = rows.shape
    mean = clip_to_ball(rows, ROUND_RADIUS, order=1).mean(axis=0) if clip else rows.mean(axis=0)
    return mechanisms.laplace(np.broadcast_to(mean, (draws, d)), 2 * ROUND_RADIUS / n, epsilon, rng=seed)


def round_audit(epsilon_used=EPSILON, clip=True, claimed=EPSILON, draws=DRAWS, thresholds=(-0.5, 0.0, 0.5, 1.0, 2.0)):
    """Audit the round at the ``claimed`` eps on the neighbours; the statistic is min_j sign_j (y_j - mean_j)/b."""
    n = ROUND_ROWS.shape[0]
    centre = clip_to_ball(ROUND_ROWS, ROUND_RADIUS, order=1).mean(axis=0)
    scale = 2 * ROUND_RADIUS / (claimed * n)
    statistics = [np.min(ROUND_SIGNS * (round_release(rows, epsilon_used, seed, clip, draws) - centre), axis=1)
                  / scale for rows, seed in ((ROUND_ROWS, 1), (ROUND_NEIGHBOUR, 2))]
    return audit.epsilon_lower_bound(*(audit.threshold_counts(s, np.array(thresholds)) for s in statistics), draws)


def test_clipped_laplace_means_is_exactly_clip_mean_laplace():
    """clipped_laplace_means(rows, eps, T, rng=s) is bit for bit clip_to_ball(order=1) + mean + laplace(2T/n)."""
    clipped = clip_to_ball(ROUND_ROWS, ROUND_RADIUS, order=1)
    norms = ROUND_ROWS.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(clipped, ROUND_ROWS * np.minimum(1.0, ROUND_RADIUS / np.maximum(norms, 1.0)),
                               rtol=1e-15)  # the l1 projection, by hand
    assert np.abs(clip_to_ball(ROUND_ROWS[:1], ROUND_RADIUS, order=1) - clip_to_ball(
        ROUND_NEIGHBOUR[:1], ROUND_RADIUS, order=1)).sum() == pytest.approx(2 * ROUND_RADIUS)  # worst-case pair
    for seed, epsilon in ((0, 1.0), (7, 0.3), (123, 5.0)):
        released = product.clipped_laplace_means(ROUND_ROWS, epsilon, ROUND_RADIUS, rng=seed)
        composed = mechanisms.laplace(clipped.mean(axis=0), 2 * ROUND_RADIUS / ROUND_ROWS.shape[0], epsilon,
                                      rng=seed)
        np.testing.assert_array_equal(released, composed)


def test_partition_round_passes_the_audit():
    """One round at eps = 1: measured lower bound <= 1, and > 0.9 (the worst-case pair shows almost all of it)."""
    result = round_audit()
    assert 0.9 * EPSILON < result.epsilon_lower_bound <= EPSILON


@pytest.mark.parametrize("variant", ["noise halved", "clip forgotten"])
def test_broken_partition_round_is_caught(variant):
    """Noise halved (eps = 2 claimed as 1) or the rows left unclipped: the measured bound exceeds 1.2."""
    result = round_audit(2 * EPSILON) if variant == "noise halved" else round_audit(clip=False)
    assert result.epsilon_lower_bound > 1.2 * EPSILON


# (b) The whole partition_rounds, vectorised over datasets: x of shape (draws, n, d) runs the mechanism on `draws`
# copies at once. Tiny instance: n = 3 rows split 1/1/1 into one round block (rounds=1, stop_early=False, so the
# round runs), the heavy block and the final block; d = 4; beta = 0.999 (beta only sizes the radii; the privacy
# claim holds for every beta, and a large beta makes the radii smallest relative to a row, i.e. the audit
# strongest). X = two zero rows and (1,1,0,0); X' replaces it by (0,0,1,1).
# What is audited: the shuffle is drawn once per call (data independent), so one call audits the mechanism
# conditional on one permutation, i.e. on the block the differing row lands in. We audit each placement (the seed
# is chosen by a noiseless probe, eps = 1e9, that shows where the row went). The released output is the
# PartitionResult: the statistic uses the estimate and which coordinates each block released (the selected groups,
# themselves the output of round 1):
#   final / heavy block: given the pattern "every coordinate left to that block", the estimate's corner event
#     {q_j = 1/2 on coordinates 0, 1 and q_j = 0 on 2, 3};
#   round block: the selected group H_1 (16 outcomes).
# No pair of binary rows can move a block's clipped mean by the full 2T/n_block here: the Bernstein radius exceeds
# half a row's norm, so the best this pair can show is c eps with c = 4/(2 T_F) = 0.76 in the final block and
# about 0.48 in the heavy and the round blocks. Hence a broken variant is "eps multiplied by 2" in the final block
# but by 3 in the others.
PARTITION_DRAWS = 500_000
PARTITION_SETTINGS = dict(beta=0.999, fractions=(1 / 3, 1 / 3, 1 / 3), rounds=1, stop_early=False)
PARTITION_ROWS = np.array([[0.0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 0, 0]])
PARTITION_NEIGHBOUR = np.array([[0.0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 1]])
BROKEN_FACTOR = {"final": 2.0, "heavy": 3.0, "round": 3.0}


def placement(seed):
    """Which block the differing row lands in for this seed (noiseless run on the neighbour)."""
    result = product.partition_rounds(PARTITION_NEIGHBOUR, 1e9, rng=seed, **PARTITION_SETTINGS)
    if np.any(result.scales > 0):
        return "round"  # its ones were selected in round 1: the round block holds it
    if np.allclose(result.final.estimates, PARTITION_NEIGHBOUR[2], atol=1e-6):
        return "final"
    return "heavy"


def partition_statistic(rows, epsilon, seed, block, draws=PARTITION_DRAWS):
    runs = product.partition_rounds(np.broadcast_to(rows, (draws, *rows.shape)), epsilon, rng=seed,
                                    **PARTITION_SETTINGS)
    if block == "round":
        return ((runs.scales > 0) @ np.array([1, 2, 4, 8])).astype(float), runs
    released = (runs.final if block == "final" else runs.heavy).coordinates.all(axis=1)
    corner = np.min(ROUND_SIGNS * (runs.estimate - 0.25), axis=1)  # = 0.25 exactly on the corner event
    return np.where(released, corner, -1.0), runs


def partition_audit(block, epsilon_used=EPSILON, draws=PARTITION_DRAWS):
    seed = next(s for s in range(100) if placement(s) == block)
    (on_x, runs), (on_neighbour, _) = (partition_statistic(rows, epsilon_used, seed, block, draws)
                                       for rows in (PARTITION_ROWS, PARTITION_NEIGHBOUR))
    if block == "round":
        counts = [audit.outcome_counts(s, 16) for s in (on_x, on_neighbour)]
    else:
        thresholds = np.array([0.0, 0.1, 0.2, 0.2499])
        counts = [audit.threshold_counts(s, thresholds) for s in (on_x, on_neighbour)]
    return audit.epsilon_lower_bound(*counts, draws), runs


@pytest.mark.parametrize("block", ["final", "heavy", "round"])
def test_partition_rounds_passes_the_audit(block):
    """The differing row in each block: lower bound <= eps = 1 (and above what that block can show, minus slack)."""
    result, runs = partition_audit(block)
    assert result.epsilon_lower_bound <= EPSILON
    assert result.epsilon_lower_bound > {"final": 0.5, "heavy": 0.2, "round": 0.3}[block] * EPSILON  # power
    if block == "final":  # the probe was right: the final block releases the differing row (1,1,0,0) + noise
        everything = runs.final.coordinates.all(axis=1)
        best = 4 / (2 * runs.final.radius[everything][0])  # c = ||clipped x - clipped x'||_1 / (2 T_F), here 0.76
        assert result.epsilon_lower_bound <= best * EPSILON
        mean = runs.final.estimates[everything].mean(axis=0)
        scale = runs.final.noise_scale[everything][0]
        np.testing.assert_allclose(mean, PARTITION_ROWS[2], atol=5 * math.sqrt(2) * scale / math.sqrt(everything.sum()))


@pytest.mark.parametrize("block", ["final", "heavy", "round"])
def test_broken_partition_rounds_is_caught(block):
    """Noise scaled down (eps x2 in the final block, x3 elsewhere, claimed as 1): the bound exceeds 1."""
    result, _ = partition_audit(block, BROKEN_FACTOR[block] * EPSILON)
    assert result.epsilon_lower_bound > EPSILON


# ---------------------------------------------------------------- audits at extreme ε (issue: not only at ε = 1)
# An audit resolves ε only to about 2/√draws: at ε = 0.01 it needs 10^7 draws to tell ε from 2ε; at ε = 5 the 10^6
# of the other audits do. Ten candidates for the exponential mechanism keep each outcome likely (p ≈ 0.1) while the
# worst-case neighbours still move the normaliser (one score down, nine up: without the factor 2, ≈ e^{1.8ε}).
EXTREME = [(0.01, 10**7), (5.0, DRAWS)]  # (ε, draws per neighbour)
TEN_CANDIDATES = (np.r_[1.0, np.zeros(9)], np.r_[0.0, np.ones(9)])


def audited_epsilon(draw, epsilon, draws, delta=0.0):
    """The 95 % empirical lower bound on ε of ``draw(value, seed, draws)`` on neighbouring values 0 and 1, with
    threshold events spread over 15 noise scales each side of the released values."""
    thresholds = np.linspace(-15.0, 16.0, 125) / min(epsilon, 1.0)
    return audit.epsilon_lower_bound(audit.threshold_counts(draw(0.0, 1, draws), thresholds),
                                     audit.threshold_counts(draw(1.0, 2, draws), thresholds), draws,
                                     delta).epsilon_lower_bound


def laplace_at(epsilon, noise_factor=1.0):
    return lambda value, seed, draws: mechanisms.laplace(np.full(draws, value), 1.0, epsilon / noise_factor, rng=seed)


def gaussian_at(epsilon, sigma_factor=1.0):
    sigma = sigma_factor * mechanisms.gaussian_sigma(1.0, epsilon, DELTA)
    return lambda value, seed, draws: value + np.random.default_rng(seed).normal(0.0, sigma, draws)


@pytest.mark.parametrize("epsilon, draws", EXTREME)
@pytest.mark.parametrize("mechanism, delta", [(laplace_at, 0.0), (gaussian_at, DELTA)], ids=["laplace", "gaussian"])
def test_noise_mechanisms_keep_their_promise_at_extreme_epsilon(mechanism, delta, epsilon, draws):
    assert audited_epsilon(mechanism(epsilon), epsilon, draws, delta) <= epsilon


@pytest.mark.parametrize("epsilon, draws", EXTREME)
@pytest.mark.parametrize("mechanism, delta, shrink", [(laplace_at, 0.0, {0.01: 0.5, 5.0: 0.5}),
                                                      (gaussian_at, DELTA, {0.01: 0.01, 5.0: 0.5})],
                         ids=["laplace", "gaussian"])
def test_too_little_noise_is_caught_at_extreme_epsilon(mechanism, delta, shrink, epsilon, draws):
    """Half the noise is 2ε-DP at best: the audit must see more than ε. Except the Gaussian at ε = 0.01, δ = 1e-5:
    its σ ≈ 4·10^4 makes the two outputs nearly identical, and halving σ mostly moves δ, which no 10^7 draws resolve
    (an audit only bounds ε from below); there only a gross bug (σ / 100) is within reach, and is caught."""
    assert audited_epsilon(mechanism(epsilon, shrink[epsilon]), epsilon, draws, delta) > epsilon


@pytest.mark.parametrize("epsilon, draws", EXTREME)
def test_exponential_mechanism_audit_at_extreme_epsilon(epsilon, draws):
    """The factor-2 mechanism passes on worst-case non-monotone neighbours; dropping the factor 2 is caught."""
    def bound(monotonic):
        on_x, on_neighbour = (audit.outcome_counts(mechanisms.exponential(scores, epsilon, monotonic=monotonic,
                                                                          rng=seed, size=draws), 10)
                              for seed, scores in enumerate(TEN_CANDIDATES, start=1))
        return audit.epsilon_lower_bound(on_x, on_neighbour, draws).epsilon_lower_bound
    assert bound(monotonic=False) <= epsilon
    assert bound(monotonic=True) > epsilon


# ------------------------------------------------------------ the other mechanisms at extreme ε (same issue)
# Each audit below is built so that one event carries (nearly) all of the privacy loss, and only that event is
# counted (the zCDP Gaussian, whose loss is spread out, uses 7): with its complement and both directions that makes 4
# tests, so the 95 % bound lies z = 2.24 standard errors below the estimated log ratio, se ≈ √(2(1-p)/(N p)) for an
# event of probability p among N draws. If the event shows c·ε of a tiny ε, the broken variant (2× too little noise)
# shows 2c·ε and is caught when (2c - 1)ε > 2.24 se: every tiny-ε row's draws leave 3.8 to 7.8 se more than that.
# At ε = 5 the correct bound stays at or below ε by the confidence level alone, and the broken variant's event is so
# rare on the neighbour (a few counts, or none) that even its upper confidence bound puts the ratio far above e^5.
# An audit maps (setting, draws, broken) to (lower bound, claimed ε); the setting is ε, except ρ for the zCDP Gaussian.

def one_event_bound(on_x, on_neighbour, draws, threshold=0.0):
    """The audit bound from the event {statistic > threshold} (and its complement) on the two neighbours."""
    return audit.epsilon_lower_bound(*(audit.threshold_counts(s, np.array([threshold])) for s in (on_x, on_neighbour)),
                                     draws).epsilon_lower_bound


def histogram_extreme(epsilon, draws, broken=False):
    """One point in bin 0 (X) or bin 1 (X'): counts (1, 0) and (0, 1), each with Lap(2/ε). The event {y0 > 1, y1 < 0}
    has probability 1/4 on X and (e^{-ε/2}/2)^2 on X': ratio exactly e^ε (c = 1, p = 1/4). Broken: noise halved."""
    edges = np.array([-1.0, 1.0, 2.0])
    on = [np.min((mechanisms.laplace_histogram(np.full((draws, 1), point), edges, epsilon * (2 if broken else 1),
                                               rng=seed) - [1.0, 0.0]) * [1.0, -1.0], axis=1)
          for point, seed in ((0.0, 1), (1.5, 2))]
    return one_event_bound(*on, draws), epsilon


def selection_extreme(select, candidates):
    """Worst-case non-monotone neighbours (on X' candidate 0 loses a point and every other one gains one), event
    {output = 0}: ``outcome_counts(..., 1)`` counts outcome 0 only."""
    def run(epsilon, draws, broken=False):
        on_x, on_neighbour = (audit.outcome_counts(select(scores[:candidates], epsilon, seed, draws, broken), 1)
                              for seed, scores in enumerate(NON_MONOTONE, start=1))
        return audit.epsilon_lower_bound(on_x, on_neighbour, draws).epsilon_lower_bound, epsilon
    return run


# Report noisy max, 4 candidates: P(output 0) = ∫ f(x) F(x ± 1/b)^3 dx, ln ratio 0.875ε as ε → 0 (p = 1/4), 3.61 at
# ε = 5 (exact integrals). Broken: Lap(1/ε) (monotonic=True on non-monotone scores), 1.75ε and 6.30.
noisy_max_extreme = selection_extreme(lambda scores, epsilon, seed, draws, broken: mechanisms.report_noisy_max(
    scores, epsilon, monotonic=broken, rng=seed, size=draws), 4)
# Permute-and-flip, 2 candidates: P(output 0) = 1 - e^{-ε/2}/2 on X and e^{-ε/2}/2 on X', ratio 2e^{ε/2} - 1: ≈ e^ε
# as ε → 0 (c = 1, p = 1/2), ln = 3.15 at ε = 5. Broken: the factor 2 dropped (sensitivity 1/2): 2e^ε - 1, ≈ e^{2ε}.
permute_and_flip_extreme = selection_extreme(lambda scores, epsilon, seed, draws, broken: mechanisms.permute_and_flip(
    scores, epsilon, sensitivity=0.5 if broken else 1.0, rng=seed, size=draws), 2)

QUANTILE_SPLIT = 0.2  # a: minimises (1 - a) / (a (1 - 2a)^2), the draws the broken variant needs at a tiny ε


def quantile_extreme(epsilon, draws, broken=False):
    """Median of X = {0, a} against X' = {a, 1} on [0, 1] (the point at 0 moved to 1): the rank score is 0 on [0, a)
    and -1 on [a, 1] for X, the reverse for X'. The event {y < a} has ratio e^{ε/2} times the normalisers' ratio,
    ln ≈ (1 - a)ε = 0.8ε as ε → 0 (p = a), 3.62 at ε = 5. Broken: the factor 2 dropped (2ε passed): 1.6ε and 6.36."""
    on = [mechanisms.private_quantile(np.broadcast_to(x, (draws, 2)), 0.5, epsilon * (2 if broken else 1), 0.0, 1.0,
                                      rng=seed)
          for x, seed in (([0.0, QUANTILE_SPLIT], 1), ([QUANTILE_SPLIT, 1.0], 2))]
    return one_event_bound(*on, draws, QUANTILE_SPLIT), epsilon


ZCDP_DELTA = 1e-3


def zcdp_extreme(rho, draws, broken=False):
    """zcdp_gaussian on values 0 and 1 (Δ2 = 1, σ = 1/√(2ρ)) audited at the (ε, δ) its optimal conversion claims,
    ε = zcdp_to_approx_optimal(ρ, δ), with events {y > 1/2 + kσ/2}, k = 0..6. δ = 1e-3: at δ = 1e-5 the claim of a
    tiny ρ is mostly its ln(1/δ) term (ρ = 5e-5 claims 0.031, which σ/2 only just reaches with 10^7 draws), while at
    δ = 1e-3, ρ = 5e-5 (= ε²/2 for ε = 0.01) claims ε = 0.013 (exact: 0.009) and σ/2 shows ≈ 0.017 with 3·10^6.
    ρ = 1 claims 5.42 at δ = 1e-3. Broken: the sensitivity halved (σ/2, i.e. 4ρ)."""
    sigma = 1.0 / math.sqrt(2 * rho)
    claimed = accounting.zcdp_to_approx_optimal(rho, ZCDP_DELTA)
    on = [mechanisms.zcdp_gaussian(np.full(draws, value), 0.5 if broken else 1.0, rho, rng=seed)
          for value, seed in ((1.0, 1), (0.0, 2))]
    thresholds = 0.5 + sigma * np.arange(0.0, 3.5, 0.5)
    return audit.epsilon_lower_bound(*(audit.threshold_counts(s, thresholds) for s in on), draws,
                                     ZCDP_DELTA).epsilon_lower_bound, claimed


def round_extreme(epsilon, draws, broken=False):
    """One partition round, round_audit's event at threshold 0 only (c = 1, p = 1/16). Broken: noise halved. The
    forgotten clip shows only 4/3 of ε, which no affordable draws resolve at ε = 0.02, so it is left to ε = 1."""
    return round_audit(epsilon * (2 if broken else 1), claimed=epsilon, draws=draws,
                       thresholds=(0.0,)).epsilon_lower_bound, epsilon


def partition_rounds_extreme(block, factor):
    """The whole partition_rounds, the differing row in ``block``, at ε = 5 only: at ε = 0.01 its best event has
    p ≈ 1/256 and shows 0.76ε at most (~5·10^8 draws needed); the heavy block's event (p ≈ 4e-3) stays below 5 even
    with ε x 5. Broken: ε x ``factor`` (the round block shows 0.4ε at ε = 5, so x 3 only reaches ≈ 5.1: x 4)."""
    def run(epsilon, draws, broken=False):
        return partition_audit(block, epsilon * (factor if broken else 1), draws)[0].epsilon_lower_bound, epsilon
    return run


def poll_extreme(noise):
    """The class poll's release, one vote changed (poll_audit's event, p ≈ 1/4 at a tiny ε: c = 1). Broken: noise sized
    for add-remove neighbours (Δ1 = 1 where a changed vote moves two counts)."""
    def run(epsilon, draws, broken=False):
        return poll_audit(noise, calibrated="add-remove" if broken else None, epsilon=epsilon,
                          draws=draws).epsilon_lower_bound, epsilon
    return run


# name -> (audit, its broken variant, [(tiny setting, draws), (large setting, draws)]). The quantile and the round
# stop at ε = 0.02: at 0.01 they need 4x the draws (8·10^6 quantiles, 1.2·10^7 rounds: 8 to 11 s of CPU each).
EXTREME_AUDITS = {
    "Laplace histogram": (histogram_extreme, "noise halved", [(0.01, 3 * 10**6), (5.0, DRAWS)]),
    "poll, geometric": (poll_extreme("geometric"), "add-remove noise", [(0.01, 3 * 10**6), (5.0, DRAWS)]),
    "poll, Laplace": (poll_extreme("laplace"), "add-remove noise", [(0.01, 3 * 10**6), (5.0, DRAWS)]),
    "report noisy max": (noisy_max_extreme, "Lap(1/eps) on non-monotone scores", [(0.01, 5 * 10**6), (5.0, 200_000)]),
    "permute-and-flip": (permute_and_flip_extreme, "factor 2 dropped", [(0.01, 2 * 10**6), (5.0, DRAWS)]),
    "private quantile": (quantile_extreme, "factor 2 dropped", [(0.02, 2 * 10**6), (5.0, 200_000)]),
    "zCDP Gaussian (setting: rho)": (zcdp_extreme, "sensitivity halved", [(5e-5, 3 * 10**6), (1.0, DRAWS)]),
    "partition round": (round_extreme, "noise halved", [(0.02, 3 * 10**6), (5.0, 200_000)]),
    "partition_rounds, row in final block": (partition_rounds_extreme("final", 2.0), "eps x2", [(5.0, 200_000)]),
    "partition_rounds, row in round block": (partition_rounds_extreme("round", 4.0), "eps x4", [(5.0, 200_000)]),
}
EXTREME_CASES = [pytest.param(name, setting, draws, id=f"{name}-{setting:g}")
                 for name, (_, _, settings) in EXTREME_AUDITS.items() for setting, draws in settings]


@pytest.mark.parametrize("name, setting, draws", EXTREME_CASES)
def test_other_mechanisms_keep_their_promise_at_extreme_epsilon(name, setting, draws):
    bound, claimed = EXTREME_AUDITS[name][0](setting, draws)
    assert bound <= claimed


@pytest.mark.parametrize("name, setting, draws", EXTREME_CASES)
def test_other_broken_mechanisms_are_caught_at_extreme_epsilon(name, setting, draws):
    bound, claimed = EXTREME_AUDITS[name][0](setting, draws, broken=True)
    assert bound > claimed


if __name__ == "__main__":
    print(f"{'mechanism':55s} {'claimed eps':>11s} {'measured lower bound':>21s}")
    for name, (run, _) in CORRECT.items():
        print(f"{'correct: ' + name:55s} {EPSILON:11.2f} {run().epsilon_lower_bound:21.3f}")
    for name, run in BROKEN.items():
        print(f"{'broken: ' + name:55s} {EPSILON:11.2f} {run().epsilon_lower_bound:21.3f}")
    for monotonic in (False, True):
        select, draws, candidates = noisy_max(monotonic)
        scores, neighbour = (s[:candidates] for s in NON_MONOTONE)
        bound = audit.epsilon_lower_bound(audit.outcome_counts(select(scores, 1), candidates),
                                          audit.outcome_counts(select(neighbour, 2), candidates), draws)
        label = "broken: noisy max, Lap(1/eps)" if monotonic else "correct: noisy max, Lap(2/eps)"
        print(f"{label + ' on non-monotone scores':55s} {EPSILON:11.2f} {bound.epsilon_lower_bound:21.3f}")
    print(f"{'correct: partition round (clip + Laplace)':55s} {EPSILON:11.2f} "
          f"{round_audit().epsilon_lower_bound:21.3f}")
    print(f"{'broken: partition round, noise halved':55s} {EPSILON:11.2f} "
          f"{round_audit(2 * EPSILON).epsilon_lower_bound:21.3f}")
    print(f"{'broken: partition round, clip forgotten':55s} {EPSILON:11.2f} "
          f"{round_audit(clip=False).epsilon_lower_bound:21.3f}")
    for block, factor in BROKEN_FACTOR.items():
        print(f"{'correct: partition_rounds, row in ' + block + ' block':55s} {EPSILON:11.2f} "
              f"{partition_audit(block)[0].epsilon_lower_bound:21.3f}")
        print(f"{f'broken: partition_rounds, eps x{factor:g}, row in {block} block':55s} {EPSILON:11.2f} "
              f"{partition_audit(block, factor * EPSILON)[0].epsilon_lower_bound:21.3f}")
    print(f"\n{'at extreme settings (eps; rho for zCDP)':55s} {'claimed eps':>11s} {'correct':>10s} {'broken':>10s}"
          "  broken variant")
    for name, (run, variant, settings) in EXTREME_AUDITS.items():
        for setting, draws in settings:
            (correct, claimed), (broken, _) = run(setting, draws), run(setting, draws, broken=True)
            print(f"{f'{name} at {setting:g}, {draws:.0e} draws':55s} {claimed:11.4g} {correct:10.4g} {broken:10.4g}"
                  f"  {variant}")
