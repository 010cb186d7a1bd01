"""Partitioning rounds for binary product distributions (dpcore.estimators.partition_rounds) against docs/algorithms.md
§3.2–§3.6.

Known values (noiseless partition, block sizes, Bernstein bound), the issue's must-hold behaviour at the page default
(d = 1024, n = 10^6, ε = 1, log-uniform), the trace's noise scales recomputed from the formulas of §3.3 and measured
on the released noise, the rows mode against the fast mode, clipping on adversarial rows and the baselines' noise
scales. Everything is seeded. The page's lesson is tests/lessons/test_partition_rounds.py.
"""

import math

import numpy as np
import pytest

from dpcore import mechanisms
from dpcore.distributions import binary_product as pd
from dpcore.estimators import partition_rounds as product
from dpcore.lessons import partition_rounds as lesson

# The arguments the partitioning-rounds runs share (rows, or simulated block counts).
ROUNDS = dict(epsilon=1.0, rng=0, beta=0.1, fractions=np.array([0.3, 0.4, 0.3]), heavy="gaussian", rho=0.5, rounds=1)

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "block_layout": dict(
        n=100, dimension=4, beta=0.1, fractions=np.array([0.3, 0.4, 0.3]), rounds=2
    ),
    "bernstein_bound": dict(mean=1.0, variance=1.0, width=1.0, log_term=2.0),
    "clipped_laplace_means": dict(rows=np.ones((3, 2)), epsilon=1.0, radius=1.0, rng=0),
    "partition_rounds": dict(ROUNDS, x=np.zeros((30, 4))),
    "simulate_partition_rounds": dict(ROUNDS, p=np.array([0.4, 0.1, 0.01]), n=30, trials=2),
    "simulate_estimators": dict(
        p=np.array([0.4, 0.1, 0.01]), n=30, epsilon=1.0, rng=0, delta=1e-6, beta=0.1
    ),
    "noiseless_partition": dict(p=np.array([0.5, 0.1, 0.01]), rounds=3),
    "baseline_estimates": dict(
        x=np.zeros((10, 3)), epsilon=1.0, method="oracle_laplace", rng=0, delta=1e-6, beta=0.1, total_mass=1.0
    ),
}


BETA = 0.1


def bernstein(mean, variance, width, log_term):
    """mu + sqrt(2 V L) + 2/3 w L, written out (docs/algorithms.md §3.3)."""
    return mean + np.sqrt(2 * variance * log_term) + 2 / 3 * width * log_term


# ------------------------------------------------------------------------------------ known values
def test_noiseless_partition_of_section_3_6_item_1():
    """p = (0.5, 0.3, 0.1, 0.04, 0.01), 6 rounds: H1 = {0, 1}, H2 = {2}, H3 = {}, H4 = {3}, H5 = {}, H6 = {4}."""
    groups = product.noiseless_partition(np.array([0.5, 0.3, 0.1, 0.04, 0.01]), 6)
    assert [g.tolist() for g in groups] == [[0, 1], [2], [], [3], [], [4]]
    fewer = product.noiseless_partition(np.array([0.5, 0.3, 0.1, 0.04, 0.01]), 5)
    assert [g.tolist() for g in fewer] == [[0, 1], [2], [], [3], []]  # 0.01 < 3/8 * 2^-5: never selected


def test_noiseless_partition_uses_threshold_three_eighths_of_the_bound():
    """Random p: coordinate j joins the first round r (1-based) with p_j >= 3/8 * 2^-r, none if no such r <= R."""
    rng = np.random.default_rng(1)
    p = np.concatenate([rng.uniform(0, 0.5, 40), [0.0, 0.1875, 0.09375, 0.1875 * (1 - 1e-12)]])
    rounds = 8
    groups = product.noiseless_partition(p, rounds)
    assert len(groups) == rounds
    expected = [[] for _ in range(rounds)]
    for j, value in enumerate(p):
        for r in range(rounds):
            if value >= 3 / 8 * 2.0 ** -(r + 1):
                expected[r].append(j)
                break
    assert [g.tolist() for g in groups] == expected
    assert 41 in groups[0] and 42 in groups[1] and 43 in groups[1]  # thresholds are inclusive: 0.1875, 0.09375
    assert all(40 not in g for g in groups)  # p_j = 0 is never selected


def test_block_layout_at_the_page_default():
    """n = 10^6, d = 1024, beta = 0.1: 7 rounds of 42857 rows, heavy 400000, final 300001, L0 = ln(20480)."""
    layout = product.block_layout(10**6, 1024, BETA)
    assert (layout.rounds, layout.round_size, layout.heavy_size, layout.final_size) == (7, 42857, 400000, 300001)
    assert layout.log_term == pytest.approx(math.log(2 * 1024 / BETA), rel=1e-15)
    assert layout.total == 10**6


@pytest.mark.parametrize("n, d, fractions, rounds", [
    (10**6, 1024, (0.3, 0.4, 0.3), None), (1000, 64, (0.3, 0.4, 0.3), None), (1000, 64, (0.5, 0.25, 0.25), 3),
    (3, 2, (1 / 3, 1 / 3, 1 / 3), 1), (12345, 4096, (0.2, 0.5, 0.3), None),
])
def test_block_layout_blocks_are_disjoint_and_cover_exactly_n_rows(n, d, fractions, rounds):
    """The slices are contiguous, disjoint, in order 0..R-1, heavy, final, and together cover range(n) exactly."""
    layout = product.block_layout(n, d, BETA, fractions, rounds)
    slices = layout.slices()
    assert list(slices) == [*range(layout.rounds), "heavy", "final"]
    covered = np.concatenate([np.arange(n)[s] for s in slices.values()])
    np.testing.assert_array_equal(covered, np.arange(n))  # disjoint, no gaps, exactly n rows
    for name, s in slices.items():
        assert s.stop - s.start == layout.size(name) >= 1
    assert layout.total == n
    expected_rounds = rounds or max(1, math.ceil(math.log2(d / math.log(2 * d / BETA))))
    assert layout.rounds == expected_rounds
    assert layout.round_size == math.floor(fractions[0] * n / expected_rounds)
    assert layout.heavy_size == math.floor(fractions[1] * n)


def test_block_layout_rejects_small_n_and_bad_fractions():
    """Too few rows for 7 rounds, fractions not summing to 1 or not three: ValueError naming the parameter."""
    with pytest.raises(ValueError, match="n must be large enough"):
        product.block_layout(20, 1024)
    with pytest.raises(ValueError, match="fractions"):
        product.block_layout(1000, 64, fractions=(0.3, 0.3, 0.3))
    with pytest.raises(ValueError, match="fractions"):
        product.block_layout(1000, 64, fractions=(0.3, 0.3, 0.2, 0.2))
    with pytest.raises(ValueError, match="fractions"):
        product.block_layout(1000, 64, fractions=(0.5, 0.5, 0.0))
    with pytest.raises(ValueError, match="beta"):
        product.block_layout(1000, 64, beta=1.0)


def test_bernstein_bound_known_value():
    """Bern(10, 4, 1.5, 2) = 10 + sqrt(2*4*2) + 2/3*1.5*2 = 16; vectorised over its arguments."""
    assert product.bernstein_bound(10.0, 4.0, 1.5, 2.0) == pytest.approx(10 + math.sqrt(16) + 2 / 3 * 1.5 * 2)
    assert product.bernstein_bound(10.0, 4.0, 1.5, 2.0) == pytest.approx(16.0, rel=1e-15)
    means, variances = np.array([0.0, 1.0, 512.0]), np.array([0.0, 2.0, 512.0])
    np.testing.assert_allclose(product.bernstein_bound(means, variances, 1.0, 9.0),
                               [6.0, 1 + 6 + 6, 512 + math.sqrt(2 * 512 * 9) + 6], rtol=1e-15)


# ------------------------------------------------------------------------------------ the must-hold
def test_heavy_coordinates_are_found_in_the_first_two_rounds_at_the_default():
    """d = 1024 log-uniform, n = 10^6, ε = 1, 200 trials: every p_j >= 1/4 is selected in round 1 or 2 in >= 95 %."""
    p = pd.marginal_profile("log-uniform", 1024)
    result = product.simulate_partition_rounds(p, 10**6, 1.0, trials=200, rng=2024)
    heavy = p >= 0.25
    assert heavy.sum() == 94
    early = result.rounds[0].selected | result.rounds[1].selected
    every_heavy_found = early[:, heavy].all(axis=1)
    assert every_heavy_found.mean() >= 0.95
    assert early[:, heavy].mean(axis=0).min() >= 0.95  # ... and so does each heavy coordinate


def test_partition_beats_naive_laplace_by_two_at_the_default():
    """docs/algorithms.md §3.6.4, fast mode, mean over seeds 0..4: TV(Laplace heavy step) < TV(naive Laplace)/2, the
    non-private TV in [0.009, 0.015], near the values of docs/algorithms.md §3.5."""
    methods = (product.PARTITION_PURE, product.NAIVE, product.NON_PRIVATE)
    means = []
    for seed in range(5):
        result = lesson.error_sweep([1e6], [1024], [1.0], ["log-uniform"], trials=20, seed=seed, methods=methods)
        assert result.methods == methods and result.mean.shape == (3, 1, 1, 1, 1)
        means.append(result.mean.ravel())
    partition, naive, non_private = np.mean(means, axis=0)
    assert partition < naive / 2
    assert 0.009 <= non_private <= 0.015
    assert partition == pytest.approx(0.071, rel=0.1)  # docs/algorithms.md §3.5 table: 0.071
    assert naive == pytest.approx(0.197, rel=0.1)  # docs/algorithms.md §3.5 table: 0.197


# ----------------------------------------------------------------------- the trace (docs/algorithms.md §3.6.2)
def expected_trace_radii(result, epsilon, beta=BETA):
    """Recompute from docs/algorithms.md §3.3 every round's clip radius and noise scale, and the heavy/final radii, from
    the trace."""
    layout = result.layout
    trials, d = result.estimate.shape
    remaining = np.ones((trials, d), dtype=bool)
    bound = np.full(trials, 0.5)
    for r, record in enumerate(result.rounds):
        u = 0.5 ** (r + 1)
        size = remaining.sum(axis=1)
        active = u * size > layout.log_term  # the stopping rule
        np.testing.assert_array_equal(record.candidates, remaining & active[:, None])
        assert record.bound == u and record.threshold == 3 / 8 * u and record.samples == layout.round_size
        radius = bernstein(u * size, u * size, 1.0, math.log(2 * layout.round_size * layout.rounds / beta))
        np.testing.assert_allclose(record.radius[active], radius[active], rtol=1e-13)
        np.testing.assert_allclose(record.noise_scale[active], 2 * radius[active] / (epsilon * layout.round_size),
                                   rtol=1e-13)
        assert np.all(record.noise_scale[~active] == 0)
        np.testing.assert_array_equal(record.selected, record.candidates & (record.noisy_means >= 3 / 8 * u))
        assert np.all(np.isnan(record.noisy_means[~record.candidates]))
        remaining &= ~record.selected
        bound = np.where(active, u / 2, bound)
    mass = bound * remaining.sum(axis=1)
    final_radius = bernstein(mass, mass, 1.0, math.log(2 * layout.final_size / beta))
    return remaining, final_radius


@pytest.mark.parametrize("profile, epsilon", [("log-uniform", 1.0), ("two-level", 0.3), ("all tiny", 5.0),
                                              ("all 1/2", 1.0)])
def test_every_laplace_scale_in_the_trace_is_two_t_over_epsilon_n_block(profile, epsilon):
    """Rounds, heavy (Laplace heavy step) and final: noise scale = 2T/(ε n_block) for the T of
    docs/algorithms.md §3.3, recomputed independently."""
    p = pd.marginal_profile(profile, 256)
    result = product.simulate_partition_rounds(p, 10**5, epsilon, trials=60, rng=7)
    layout = result.layout
    remaining, final_radius = expected_trace_radii(result, epsilon)
    # final block
    np.testing.assert_array_equal(result.final.coordinates, remaining)
    np.testing.assert_allclose(result.final.radius, final_radius, rtol=1e-13)
    np.testing.assert_allclose(result.final.noise_scale, 2 * final_radius / (epsilon * layout.final_size), rtol=1e-13)
    # heavy block: s_j = the bound of the round that selected j
    scales = np.zeros_like(p, shape=result.estimate.shape)
    for r, record in enumerate(result.rounds):
        scales[record.selected] = 0.5 ** (r + 1)
    np.testing.assert_array_equal(result.scales, scales)
    heavy = scales > 0
    np.testing.assert_array_equal(result.heavy.coordinates, heavy)
    smallest = np.where(heavy, scales, np.inf).min(axis=1)
    smallest = np.where(np.isfinite(smallest), smallest, 1.0)
    heavy_radius = bernstein(np.sum(np.sqrt(scales), axis=1), heavy.sum(axis=1), 1 / np.sqrt(smallest),
                             math.log(2 * layout.heavy_size / BETA))
    np.testing.assert_allclose(result.heavy.radius, heavy_radius, rtol=1e-13)
    np.testing.assert_allclose(result.heavy.noise_scale, 2 * heavy_radius / (epsilon * layout.heavy_size),
                               rtol=1e-13)
    assert result.guarantee == f"{epsilon:g}-DP (pure)"


@pytest.mark.parametrize("rho, expected_rho", [(None, 0.5 * 0.7 ** 2), (0.3, 0.3), (2.0, 2.0)])
def test_gaussian_heavy_block_scale_and_guarantee(rho, expected_rho):
    """The Gaussian heavy step: C_H = sqrt(Bern(|H|, Σ1/s, 1/min s, L_H)), σ = (2 C_H/n_H)/sqrt(2ρ), ρ = ε²/2 by
    default; guarantee max(ε²/2, ρ)-zCDP."""
    epsilon = 0.7
    p = pd.marginal_profile("log-uniform", 256)
    result = product.simulate_partition_rounds(p, 10**5, epsilon, trials=40, rng=3, heavy="gaussian", rho=rho)
    expected_trace_radii(result, epsilon)  # the rounds and final block stay Laplace
    layout, scales = result.layout, result.scales
    heavy = scales > 0
    assert heavy.any(axis=1).all()
    safe = np.where(heavy, scales, 1.0)
    c_h = np.sqrt(bernstein(heavy.sum(axis=1), np.sum(np.where(heavy, 1 / safe, 0.0), axis=1),
                            1 / np.where(heavy, scales, np.inf).min(axis=1), math.log(2 * layout.heavy_size / BETA)))
    np.testing.assert_allclose(result.heavy.radius, c_h, rtol=1e-13)
    np.testing.assert_allclose(result.heavy.noise_scale, (2 * c_h / layout.heavy_size) / math.sqrt(2 * expected_rho),
                               rtol=1e-13)
    assert result.guarantee == f"{max(epsilon ** 2 / 2, expected_rho):g}-zCDP (not pure)"
    assert product.simulate_partition_rounds(p, 10**5, 2.0, rng=3, heavy="gaussian").guarantee == "2-zCDP (not pure)"


@pytest.mark.parametrize("heavy", ["laplace", "gaussian"])
def test_released_noise_has_the_scale_the_trace_reports(heavy):
    """Rows mode, identical rows (block means known whatever the shuffle): the measured noise of round 1, the heavy
    and the final block has E|Lap| = b (Laplace) or RMS = σ (Gaussian) for the trace's own scale, within 5 SE."""
    d, n, trials, epsilon = 8, 60, 3000, 2.0
    row = np.array([1.0, 1.0, 0, 0, 0, 0, 0, 0])  # norm 2: inside every radius here (checked below)
    result = product.partition_rounds(np.broadcast_to(row, (trials, n, d)), epsilon, rng=5, rounds=2,
                                      stop_early=False, heavy=heavy)
    first = result.rounds[0]
    assert np.all(first.radius > 2) and np.all(result.final.radius > 2)
    deviations = (first.noisy_means - row) / first.noise_scale[:, None]  # all 8 coordinates are candidates
    assert abs(np.mean(np.abs(deviations)) - 1) < 5 / math.sqrt(deviations.size)

    final = result.final.coordinates
    deviations = ((result.final.estimates - row) / result.final.noise_scale[:, None])[final]
    assert deviations.size > 1000
    assert abs(np.mean(np.abs(deviations)) - 1) < 5 / math.sqrt(deviations.size)

    chosen = result.heavy.coordinates
    weight = np.sqrt(np.where(chosen, result.scales, 1.0))
    assert np.all(result.heavy.radius >= np.sum(np.where(chosen, row / weight, 0.0), axis=1))  # y inside the ball
    deviations = ((result.heavy.estimates - row) / weight / result.heavy.noise_scale[:, None])[chosen]
    assert deviations.size > 1000
    if heavy == "laplace":
        assert abs(np.mean(np.abs(deviations)) - 1) < 5 / math.sqrt(deviations.size)
    else:  # E z^2 = 1, Var z^2 = 2
        assert abs(np.mean(deviations ** 2) - 1) < 5 * math.sqrt(2 / deviations.size)


# ------------------------------------------------------------------------------------ structure of the output
@pytest.mark.parametrize("profile, epsilon", [("log-uniform", 1.0), ("two-level", 0.2), ("all 1/2", 3.0),
                                              ("all tiny", 1.0), ("few heavy", 0.5)])
def test_round_sets_are_nested_and_disjoint_and_estimates_in_zero_one_half(profile, epsilon):
    """Selected sets are disjoint; S_{r+1} = S_r minus H_r for active trials (empty otherwise); heavy and final
    coordinates partition [d]; the estimate is the heavy or final release clipped to [0, 1/2]."""
    p = pd.marginal_profile(profile, 512)
    result = product.simulate_partition_rounds(p, 3 * 10**5, epsilon, trials=50, rng=11)
    rounds = result.rounds
    assert 1 <= len(rounds) <= result.layout.rounds
    seen = np.zeros_like(result.final.coordinates)
    for record in rounds:
        assert not np.any(seen & record.selected)  # disjoint from the earlier groups
        assert np.all(record.candidates | ~record.selected)  # H_r within S_r
        seen |= record.selected
    for before, after in zip(rounds[:-1], rounds[1:]):
        active = after.candidates.any(axis=1)
        np.testing.assert_array_equal(after.candidates[active], (before.candidates & ~before.selected)[active])
        assert not after.candidates[~active].any()
        assert np.all(before.candidates.any(axis=1)[active])  # a stopped trial never restarts
    np.testing.assert_array_equal(result.heavy.coordinates, seen)
    np.testing.assert_array_equal(result.final.coordinates, ~seen)
    assert np.all((result.estimate >= 0) & (result.estimate <= 0.5))
    released = np.where(seen, result.heavy.estimates, result.final.estimates)
    np.testing.assert_array_equal(result.estimate, np.clip(released, 0, 0.5))


def test_single_dataset_output_has_no_trial_axis():
    """A 2-D x gives per-trial arrays without the trial axis (estimate (d,), rounds' candidates (d,), radius scalar)."""
    x = pd.sample_rows(pd.marginal_profile("log-uniform", 32), 4000, rng=1)
    result = product.partition_rounds(x, 1.0, rng=2)
    assert result.estimate.shape == (32,) and result.scales.shape == (32,)
    assert result.rounds[0].candidates.shape == (32,) and np.ndim(result.rounds[0].radius) == 0
    assert result.final.estimates.shape == (32,) and np.ndim(result.final.noise_scale) == 0
    batched = product.partition_rounds(x[None], 1.0, rng=2)
    np.testing.assert_array_equal(batched.estimate[0], result.estimate)  # same seed, same draws
    p = pd.marginal_profile("log-uniform", 32)
    one = product.simulate_partition_rounds(p, 10**4, 1.0, rng=3)  # trials=None: one dataset
    assert one.estimate.shape == (32,) and np.ndim(one.heavy.radius) == 0
    np.testing.assert_array_equal(product.simulate_partition_rounds(p, 10**4, 1.0, trials=1, rng=3).estimate[0],
                                  one.estimate)


def test_simulate_estimators_runs_every_method_on_one_dataset():
    """Every method of METHODS gets an estimate in [0, 1/2]^d; the trace is the pure partition's; seeded; TV errors
    ordered as in docs/algorithms.md §3.5 (two-level, d = 1024, n = 10^6: non-private 0.010 < Laplace heavy step 0.080
    < naive Laplace 0.208)."""
    p = pd.marginal_profile("two-level", 1024)
    trace, estimates = product.simulate_estimators(p, 10**6, 1.0, rng=4)
    assert tuple(estimates) == product.METHODS
    for estimate in estimates.values():
        assert estimate.shape == (1024,) and np.all((estimate >= 0) & (estimate <= 0.5))
    np.testing.assert_array_equal(trace.estimate, estimates[product.PARTITION_PURE])
    assert trace.guarantee == "1-DP (pure)" and trace.estimate.shape == (1024,)
    again = product.simulate_estimators(p, 10**6, 1.0, rng=4)[1]
    for method in product.METHODS:
        np.testing.assert_array_equal(again[method], estimates[method])
    # The non-private estimate is the empirical mean of 10^6 rows (clipped at 1/2): within 5 binomial SDs of p;
    # the ordering of docs/algorithms.md §3.5 at d = 1024
    empirical = estimates[product.NON_PRIVATE]
    assert np.all(np.abs(empirical - p) <= 5 * np.sqrt(p * (1 - p) / 10**6))
    tv = pd.TVMonteCarlo(p, 20_000, rng=1)
    errors = {method: float(tv(q)) for method, q in estimates.items()}
    assert errors[product.NON_PRIVATE] < errors[product.PARTITION_PURE] < errors[product.NAIVE]


# ------------------------------------------------------------------------------------ rows mode vs fast mode
def test_rows_mode_agrees_with_fast_mode_in_distribution():
    """d = 64 log-uniform, n = 30000, ε = 1: mean TV (shared Monte Carlo points) and mean |q - p| of partition_rounds
    on 20 sampled datasets agree with simulate_partition_rounds (400 trials) within 4 combined standard errors."""
    p = pd.marginal_profile("log-uniform", 64)
    n = 30_000
    rows_mode = np.array([product.partition_rounds(pd.sample_rows(p, n, rng=1000 + s), 1.0, rng=s).estimate
                          for s in range(20)])
    fast = product.simulate_partition_rounds(p, n, 1.0, trials=400, rng=5).estimate
    tv = pd.TVMonteCarlo(p, 20_000, rng=99)

    def mean_and_se(values):
        return values.mean(), values.std(ddof=1) / math.sqrt(values.size)

    for metric in (tv, lambda q: np.abs(q - p).mean(axis=-1)):
        (a, se_a), (b, se_b) = mean_and_se(metric(rows_mode)), mean_and_se(metric(fast))
        assert abs(a - b) <= 4 * math.hypot(se_a, se_b)
        assert se_a < 0.1 * a  # the comparison is sharp enough to mean something


def test_rows_mode_clips_each_row_to_the_round_radius():
    """Adversarial rows (half with 110 ones, norm > T_1; half with 18 other ones), ε = 1e9: round 1 releases the mean
    of the ℓ1-clipped rows, i.e. k/n_P * (T_1/110 on 110 columns) + (1 - k/n_P) * (1 on 18 columns), 0 < k < n_P."""
    n = 200  # d = 128
    heavy_row = np.r_[np.ones(110), np.zeros(18)]
    light_row = np.r_[np.zeros(110), np.ones(18)]
    x = np.array([heavy_row, light_row] * (n // 2))
    result = product.partition_rounds(x, 1e9, rng=4)
    layout = result.layout
    assert (layout.rounds, layout.round_size) == (5, 12)
    radius = bernstein(64.0, 64.0, 1.0, math.log(2 * 12 * 5 / BETA))
    assert result.rounds[0].radius == pytest.approx(radius, rel=1e-13)
    assert 18 < radius < 110  # the heavy rows are clipped, the light ones are not
    clipped_heavy = heavy_row * radius / 110  # Π¹_T(x) = x T / ||x||_1, computed here
    means = result.rounds[0].noisy_means
    k = round(means[0] / (radius / 110) * 12)  # heavy rows among the 12 of block 0
    assert 0 < k < 12
    np.testing.assert_allclose(means, (k * clipped_heavy + (12 - k) * light_row) / 12, atol=1e-6)
    unclipped = (k * heavy_row + (12 - k) * light_row) / 12
    assert np.max(np.abs(means - unclipped)) > 0.005  # k/12 (1 - T/110): far beyond the 1e-8 noise


def test_clipped_laplace_means_is_noiseless_clipped_mean_at_huge_epsilon():
    """One round's release with ε = 1e12: the mean of rows scaled by min(1, T/||x||_1), computed by hand."""
    rng = np.random.default_rng(0)
    rows = (rng.random((50, 20)) < 0.4).astype(float)
    radius = 6.0
    norms = rows.sum(axis=1, keepdims=True)
    expected = (rows * np.minimum(1.0, radius / np.maximum(norms, 1))).mean(axis=0)
    assert np.any(norms > radius) and np.any(norms < radius)
    np.testing.assert_allclose(product.clipped_laplace_means(rows, 1e12, radius, rng=1), expected, atol=1e-9)


# ------------------------------------------------------------------------------------ reproducibility, validation
def test_same_seed_same_estimate_different_seeds_differ():
    """partition_rounds and simulate_partition_rounds are reproducible from a seed, and the seed matters."""
    x = pd.sample_rows(pd.marginal_profile("two-level", 32), 3000, rng=1)
    first = product.partition_rounds(x, 1.0, rng=7)
    np.testing.assert_array_equal(product.partition_rounds(x, 1.0, rng=7).estimate, first.estimate)
    assert not np.array_equal(product.partition_rounds(x, 1.0, rng=8).estimate, first.estimate)
    p = pd.marginal_profile("log-uniform", 100)
    simulated = product.simulate_partition_rounds(p, 10**5, 1.0, trials=3, rng=7)
    np.testing.assert_array_equal(product.simulate_partition_rounds(p, 10**5, 1.0, trials=3, rng=7).estimate,
                                  simulated.estimate)
    assert not np.array_equal(product.simulate_partition_rounds(p, 10**5, 1.0, trials=3, rng=8).estimate,
                              simulated.estimate)


@pytest.mark.parametrize("kwargs, parameter, error", [
    (dict(x=np.full((40, 3), 0.5)), "x", ValueError),  # in [0, 1] but not binary
    (dict(x=np.full((40, 3), 2.0)), "x", ValueError),
    (dict(x=np.zeros(40)), "x", ValueError),
    (dict(epsilon=0.0), "epsilon", ValueError),
    (dict(epsilon=-1.0), "epsilon", ValueError),
    (dict(epsilon="1"), "epsilon", TypeError),
    (dict(beta=1.0), "beta", ValueError),
    (dict(beta=0.0), "beta", ValueError),
    (dict(heavy="cauchy"), "heavy", ValueError),
    (dict(fractions=(0.5, 0.5)), "fractions", ValueError),
    (dict(fractions=(0.2, 0.2, 0.2)), "fractions", ValueError),
    (dict(fractions=(0.5, 0.6, -0.1)), "fractions", ValueError),
    (dict(rounds=0), "rounds", ValueError),
    (dict(rho=-0.5, heavy="gaussian"), "rho", ValueError),
    (dict(rng=-3), "rng", ValueError),
])
def test_partition_rounds_rejects_bad_input_naming_the_parameter(kwargs, parameter, error):
    """Non-binary x, bad ε/β/heavy/fractions/rounds/ρ/rng: ValueError or TypeError whose message names it."""
    call = dict(x=np.zeros((40, 3)), epsilon=1.0, rng=0)
    with pytest.raises(error, match=parameter):
        product.partition_rounds(**{**call, **kwargs})


def test_simulate_partition_rounds_rejects_marginals_above_one_half_and_small_n():
    """p must lie in [0, 1/2] and n must leave every block a row."""
    with pytest.raises(ValueError, match="p must"):
        product.simulate_partition_rounds(np.array([0.6, 0.1]), 1000, 1.0)
    with pytest.raises(ValueError, match="n must"):
        product.simulate_partition_rounds(pd.marginal_profile("log-uniform", 1024), 10, 1.0)


# ------------------------------------------------------------------------------- baselines (docs/algorithms.md §3.4)
def quarter_dataset(n=6400, d=64):
    """Rows with exactly d/4 ones each and columns with exactly n/4 ones each: every column mean is 1/4."""
    rows = (np.arange(d)[None, :] - np.arange(n)[:, None]) % 4 == 0
    assert np.all(rows.mean(axis=0) == 0.25) and np.all(rows.sum(axis=1) == d // 4)
    return rows.astype(float)


def baseline_draws(x, epsilon, method, repetitions, **kwargs):
    return np.array([product.baseline_estimates(x, epsilon, method, rng=s, **kwargs) for s in range(repetitions)])


def test_naive_laplace_baseline_has_scale_d_over_epsilon_n():
    """Naive Laplace on column means 1/4 (no clipping at 0 or 1/2 in practice): E|q - 1/4| = d/(εn), SD = sqrt(2)
    d/(εn)."""
    x = quarter_dataset()
    n, d = x.shape
    epsilon = 1.0
    scale = d / (epsilon * n)  # 0.01
    deviations = (baseline_draws(x, epsilon, product.NAIVE, 300) - 0.25).ravel()
    assert np.all(np.abs(deviations) < 0.25)  # never clipped to [0, 1/2]
    assert np.mean(np.abs(deviations)) == pytest.approx(scale, rel=5 / math.sqrt(deviations.size))
    assert deviations.std() == pytest.approx(math.sqrt(2) * scale, rel=0.05)


def test_oracle_baseline_scale_clipping_and_required_total_mass():
    """Oracle-radius Laplace: Lap(2T/(εn)) with T = Bern(m, m, 1, ln(2n/β)); a total_mass below the rows' norm clips
    them; it needs total_mass."""
    x = quarter_dataset()
    n, d = x.shape
    with pytest.raises(ValueError, match="total_mass"):
        product.baseline_estimates(x, 1.0, product.ORACLE, rng=0)
    radius = bernstein(16.0, 16.0, 1.0, math.log(2 * n / BETA))  # > 16: nothing clipped
    deviations = (baseline_draws(x, 1.0, product.ORACLE, 200, total_mass=16.0) - 0.25).ravel()
    assert np.mean(np.abs(deviations)) == pytest.approx(2 * radius / n, rel=5 / math.sqrt(deviations.size))
    small = bernstein(1.0, 1.0, 1.0, math.log(2 * n / BETA))  # 13.7 < 16: every row scaled by T/16
    assert small < 16
    estimates = baseline_draws(x, 1.0, product.ORACLE, 200, total_mass=1.0)
    standard_error = math.sqrt(2) * (2 * small / n) / math.sqrt(estimates.size)  # Lap(b) has SD sqrt(2) b
    assert estimates.mean() == pytest.approx(0.25 * small / 16, abs=5 * standard_error)
    assert abs(estimates.mean() - 0.25) > 100 * standard_error  # the clip is visible: the mean is not 1/4


def test_one_shot_gaussian_baseline_sigma():
    """One-shot Gaussian: ℓ2 clip C = sqrt(Bern(d/2, d/2, 1, ln(2n/β))) and the analytic σ for Δ2 = 2C/n (rows of norm 4
    < C)."""
    x = quarter_dataset()
    n, d = x.shape
    radius = math.sqrt(bernstein(d / 2, d / 2, 1.0, math.log(2 * n / BETA)))
    assert radius > 4
    sigma = mechanisms.gaussian_sigma(2 * radius / n, 1.0, 1e-6)
    deviations = (baseline_draws(x, 1.0, product.ONE_SHOT_GAUSSIAN, 200, delta=1e-6) - 0.25).ravel()
    assert deviations.std() == pytest.approx(sigma, rel=0.04)
    assert abs(deviations.mean()) < 5 * sigma / math.sqrt(deviations.size)


def test_non_private_baseline_is_the_empirical_mean():
    """The non-private baseline returns the column means exactly (clipped to [0, 1/2])."""
    x = pd.sample_rows(np.array([0.1, 0.3, 0.45, 0.0]), 777, rng=2).astype(float)
    np.testing.assert_array_equal(product.baseline_estimates(x, 1.0, product.NON_PRIVATE), x.mean(axis=0))
    np.testing.assert_array_equal(product.baseline_estimates(np.ones((5, 2)), 1.0, product.NON_PRIVATE), [0.5, 0.5])


def test_bernstein_bound_rejects_bad_input_naming_the_parameter():
    """A negative variance or width is a ValueError naming it, not a silent nan."""
    with pytest.raises(ValueError, match="variance"):
        product.bernstein_bound(1.0, -1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="width"):
        product.bernstein_bound(1.0, 1.0, -1.0, 1.0)
