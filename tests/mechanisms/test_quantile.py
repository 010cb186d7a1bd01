"""Permute-and-flip, the exact private-quantile sampler and the page-5 sweeps: laws, utility, privacy audits.

Sanity numbers from algorithms.md §5.6.2; audits (dpcore.audit) on neighbouring inputs built so that the
factor 2 of the standard convention matters: the correct mechanism's 95 % lower bound stays <= epsilon, the
version without the factor 2 (run at 2 epsilon, i.e. exp(epsilon u)) exceeds it.
"""

import importlib
import itertools
import json
import math

import numpy as np
import pytest
from scipy import stats

from dpcore import audit, mechanisms, theory
from dpcore import mechanisms as expmech
from dpcore.lessons import exponential_mechanism as exponential_mechanism_lesson
from dpcore.lessons.methods import LABELS

EPSILON = 1.0
AUDIT_DRAWS = 2 * 10**5


def permute_and_flip_law(scores, epsilon):
    """Exact law of permute-and-flip by brute force over all k! visiting orders."""
    accept = np.exp(epsilon / 2 * (np.asarray(scores, float) - np.max(scores)))
    law = np.zeros(len(scores))
    for order in itertools.permutations(range(len(scores))):
        reach = 1.0  # probability that every earlier candidate was rejected
        for h in order:
            law[h] += reach * accept[h]
            reach *= 1 - accept[h]
    return law / math.factorial(len(scores))


def median_data(seed=1, n=101):
    return np.clip(np.random.default_rng(seed).normal(0.3, 0.1, n), 0.0, 1.0)


# --- selection: the EM tail, permute-and-flip's law and loss -------------------------------------------

@pytest.mark.parametrize("select", ["exponential", "permute_and_flip"])
def test_tail_bound_with_100_random_integer_scores(select):
    scores = np.random.default_rng(0).integers(0, 51, 100).astype(float)
    draw = mechanisms.exponential if select == "exponential" else expmech.permute_and_flip
    chosen = draw(scores, EPSILON, rng=1, size=20_000)
    loss = scores.max() - scores[chosen]
    for t in (0.5, 1.0, 2.0):
        bound = theory.exponential_mechanism_loss_bound(100, EPSILON, t=t)  # 2 (ln 100 + t)
        assert np.mean(loss >= bound) <= math.exp(-t)


@pytest.mark.parametrize("scores", [[3.0, 1.0, 0.0], [0.0, 0.0, 1.0, 2.5], [5.0, 4.0, 4.0, 1.0, 0.0]])
def test_permute_and_flip_samples_its_exact_law(scores):
    law = permute_and_flip_law(scores, EPSILON)
    draws = 100_000
    counts = np.bincount(expmech.permute_and_flip(scores, EPSILON, rng=2, size=draws), minlength=len(scores))
    assert stats.chisquare(counts, draws * law).pvalue > 1e-3
    assert expmech.permute_and_flip(scores, EPSILON, rng=3) in range(len(scores))


@pytest.mark.parametrize("scores", [[3.0, 1.0, 0.0], [0.0, 0.0, 1.0, 2.5], [5.0, 4.0, 4.0, 1.0, 0.0],
                                    [1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [10.0, 2.0, 2.0, 2.0, 2.0, 2.0]])
@pytest.mark.parametrize("epsilon", [0.3, 1.0, 3.0])
def test_permute_and_flip_loses_no_more_than_the_exponential_mechanism(scores, epsilon):
    scores = np.asarray(scores)
    loss = scores.max() - scores
    em = loss @ mechanisms.exponential_probabilities(scores, epsilon)
    pf = loss @ permute_and_flip_law(scores, epsilon)
    assert pf <= em + 1e-12


def test_permute_and_flip_never_picks_a_hopeless_candidate_at_large_epsilon():
    chosen = expmech.permute_and_flip(np.r_[10.0, np.zeros(999)], 100.0, rng=0, size=2000)
    assert np.all(chosen == 0)


# --- the private quantile ------------------------------------------------------------------------------

def exact_moments(density):
    left, right = density["edges"][:-1], density["edges"][1:]
    p = density["probabilities"]
    mean = p @ ((left + right) / 2)
    return mean, math.sqrt(p @ ((left**2 + left * right + right**2) / 3) - mean**2)


def test_private_median_of_101_gaussian_points():
    x = median_data()
    draws = expmech.private_quantile(np.broadcast_to(x, (4000, 101)), 0.5, EPSILON, 0.0, 1.0, rng=4)
    mean, sd = exact_moments(expmech.quantile_density(x, 0.5, EPSILON, 0.0, 1.0))
    assert abs(draws.mean() - 0.302) < 0.003 and abs(draws.mean() - np.median(x)) < 0.005
    assert abs(draws.mean() - mean) < 5 * sd / math.sqrt(4000)
    assert 0.006 <= draws.std() <= 0.011 and abs(draws.std() / sd - 1) < 0.05


def test_private_median_at_epsilon_50_lies_between_the_50th_and_52nd_order_statistics():
    x = median_data()
    ordered = np.sort(x)
    draws = expmech.private_quantile(np.broadcast_to(x, (4000, 101)), 0.5, 50.0, 0.0, 1.0, rng=5)
    assert np.all((ordered[49] <= draws) & (draws <= ordered[51]))


def test_quantile_density_is_the_sampled_law():
    x = median_data(n=30)
    density = expmech.quantile_density(x, 0.25, EPSILON, 0.0, 1.0)
    edges, p = density["edges"], density["probabilities"]
    assert edges.shape == (32,) and p.shape == density["scores"].shape == density["density"].shape == (31,)
    assert math.isclose(p.sum(), 1.0) and np.all(np.diff(edges) >= 0)
    np.testing.assert_allclose(density["density"] * np.diff(edges), p)
    assert density["scores"].max() == -0.5 and density["scores"][7] == -0.5  # q n = 7.5
    draws = 200_000
    samples = expmech.private_quantile(np.broadcast_to(x, (draws, 30)), 0.25, EPSILON, 0.0, 1.0, rng=6)
    counts = np.bincount(np.searchsorted(edges, samples, side="right") - 1, minlength=31)[:31]
    assert stats.chisquare(counts, draws * p).pvalue > 1e-3


def test_clipping_ties_and_zero_length_intervals():
    x = np.array([-5.0, 0.0, 0.5, 0.5, 0.5, 7.0])  # clipped edges 0, 0, 0, .5, .5, .5, 1, 1: five empty intervals
    density = expmech.quantile_density(x, 0.5, EPSILON, 0.0, 1.0)
    zero = np.diff(density["edges"]) == 0
    assert zero.sum() == 5 and np.all(density["probabilities"][zero] == 0)
    draws = expmech.private_quantile(np.broadcast_to(x, (5000, 6)), 0.5, EPSILON, 0.0, 1.0, rng=7)
    assert np.all((0.0 <= draws) & (draws <= 1.0))


def test_shapes_and_seeded_reproducibility():
    x = np.random.default_rng(8).random((7, 12))
    first = expmech.private_quantile(x, 0.3, EPSILON, 0.0, 1.0, rng=9)
    assert first.shape == (7,)
    np.testing.assert_array_equal(first, expmech.private_quantile(x, 0.3, EPSILON, 0.0, 1.0, rng=9))
    assert isinstance(expmech.private_quantile(x[0], 0.3, EPSILON, 0.0, 1.0, rng=9), float)
    np.testing.assert_array_equal(expmech.permute_and_flip([1.0, 2.0, 0.5], 1.0, rng=3, size=50),
                                  expmech.permute_and_flip([1.0, 2.0, 0.5], 1.0, rng=3, size=50))


@pytest.mark.parametrize("call", [
    lambda: expmech.private_quantile([0.5], 0.5, 1.0, 1.0, 1.0),
    lambda: expmech.private_quantile([0.5], 0.5, 1.0, 1.0, 0.0),
    lambda: expmech.quantile_density([0.5], 0.5, 1.0, 2.0, 1.0),
    lambda: expmech.quantile_density(np.zeros((2, 2)), 0.5, 1.0, 0.0, 1.0),
    lambda: expmech.private_quantile([0.5], 1.5, 1.0, 0.0, 1.0),
    lambda: expmech.private_quantile([np.nan], 0.5, 1.0, 0.0, 1.0),
    lambda: expmech.permute_and_flip([], 1.0),
    lambda: expmech.permute_and_flip([1.0], 0.0),
    lambda: exponential_mechanism_lesson.quantile_error_sweep([10], [1.0], 5, 0, lower=1.0, upper=0.0),
    lambda: exponential_mechanism_lesson.selection_loss_sweep([2.5], [1.0], 5, 0),
    lambda: exponential_mechanism_lesson.selection_loss_sweep([2], [1.0], 5, 0, design="worst"),
])
def test_bad_inputs_are_rejected(call):
    with pytest.raises((ValueError, TypeError)):
        call()


# --- privacy audits ------------------------------------------------------------------------------------

# n = 20 on [0, 1], replace-one: the moved point goes from 0 to 1. Nine points at 0, one at s = 1/11, nine
# at 1. Below s the rank is 10 = q n (score 0) on X and 9 on X' (score -1); above s it is 11 (score -1) on
# X and 10 (score 0) on X'. The long interval above s gains what the short one below loses: the rank score
# is not monotone, so exp(eps u) (no factor 2) has privacy loss ~ 2 eps on {y < s}.
QUANTILE_NEIGHBOURS = tuple(np.r_[moved, np.zeros(9), 1 / 11, np.ones(9)] for moved in (0.0, 1.0))


def quantile_audit(epsilon_used):
    thresholds = np.linspace(0.0, 1.0, 34)
    counts = [audit.threshold_counts(expmech.private_quantile(np.broadcast_to(x, (AUDIT_DRAWS, 20)), 0.5,
                                                              epsilon_used, 0.0, 1.0, rng=seed), thresholds)
              for seed, x in enumerate(QUANTILE_NEIGHBOURS)]
    return audit.epsilon_lower_bound(*counts, AUDIT_DRAWS).epsilon_lower_bound


def test_exact_quantile_privacy_loss_on_the_audit_pair():
    p, q = (expmech.quantile_density(x, 0.5, EPSILON, 0.0, 1.0) for x in QUANTILE_NEIGHBOURS)
    below = [d["probabilities"][d["edges"][1:] <= 1 / 11].sum() for d in (p, q)]
    assert 0.85 * EPSILON < math.log(below[0] / below[1]) <= EPSILON


def test_private_quantile_audit_passes_at_epsilon():
    assert 0.75 * EPSILON < quantile_audit(EPSILON) <= EPSILON


def test_private_quantile_without_the_factor_two_is_caught():
    assert quantile_audit(2 * EPSILON) > 1.4 * EPSILON


# Scores on neighbours, k = 10: one candidate loses a point, the others gain one (sensitivity 1).
SELECTION_NEIGHBOURS = (np.r_[1.0, np.zeros(9)], np.r_[0.0, np.ones(9)])


def permute_and_flip_audit(epsilon_used):
    counts = [audit.outcome_counts(expmech.permute_and_flip(s, epsilon_used, rng=seed, size=AUDIT_DRAWS), 10)
              for seed, s in enumerate(SELECTION_NEIGHBOURS)]
    return audit.epsilon_lower_bound(*counts, AUDIT_DRAWS).epsilon_lower_bound


def test_permute_and_flip_audit_passes_at_epsilon():
    accept, k = math.exp(-EPSILON / 2), 10  # closed form of candidate 0's probability on each neighbour
    exact = ((1 - (1 - accept) ** k) / (k * accept), accept / k)
    assert math.isclose(math.log(exact[0] / exact[1]), EPSILON, rel_tol=1e-3)  # this pair is tight
    small = (SELECTION_NEIGHBOURS[0][:5], SELECTION_NEIGHBOURS[1][:5])  # the closed form, checked by brute force
    np.testing.assert_allclose([permute_and_flip_law(s, EPSILON)[0] for s in small],
                               ((1 - (1 - accept) ** 5) / (5 * accept), accept / 5))
    assert 0.85 * EPSILON < permute_and_flip_audit(EPSILON) <= EPSILON


def test_permute_and_flip_without_the_factor_two_is_caught():
    assert permute_and_flip_audit(2 * EPSILON) > 1.6 * EPSILON


# --- sweeps ----------------------------------------------------------------------------------------------

def test_quantile_error_sweep_decreases_with_n_and_epsilon():
    result = exponential_mechanism_lesson.quantile_error_sweep([20, 100, 500], [0.2, 1.0, 5.0], trials=300, seed=0)
    assert result.methods == ("exponential_mechanism", "non_private") and result.parameters == ("n", "epsilon")
    assert result.median.shape == (2, 3, 3) and result.errors[0, 0, 0].shape == (300,)
    private, non_private = result.median
    assert np.all(np.diff(private, axis=0) < 0) and np.all(np.diff(private, axis=1) < 0)
    assert np.all(np.diff(non_private[:, 0]) < 0) and np.ptp(non_private, axis=1).max() == 0  # same data (CRN)
    assert np.all(private[:, -1] < 1.5 * non_private[:, -1])  # at eps = 5 the privacy cost is small
    again = exponential_mechanism_lesson.quantile_error_sweep([20, 100, 500], [0.2, 1.0, 5.0], trials=300, seed=0)
    np.testing.assert_array_equal(again.median, result.median)


def test_selection_loss_sweep_shapes_and_the_ln_k_bound():
    result = exponential_mechanism_lesson.selection_loss_sweep([2, 10, 100, 1000], [0.5, 2.0], draws=2000, seed=0)
    assert result.methods == exponential_mechanism_lesson.SELECTION_METHODS and result.parameters == ("k", "epsilon")
    assert result.median.shape == (3, 4, 2) and np.all(result.lower >= 0)
    bound = theory.exponential_mechanism_loss_bound(result.grid["k"], result.grid["epsilon"][:, None]).T
    assert np.all(result.upper <= bound)  # 90 % quantile below the t = ln 10 bound
    em, noisy_max, pf = result.mean
    assert np.all(pf <= em + 0.1) and np.all(result.mean[:, :, 1] <= result.mean[:, :, 0] + 0.05)


def test_one_good_candidate_shows_the_ln_k_price():
    gap = 6.0
    result = exponential_mechanism_lesson.selection_loss_sweep([2, 10, 100, 1000], [1.0], draws=4000, seed=1,
                                                               design="one good", gap=gap)
    k = result.grid["k"]
    exact = gap * (k - 1) / (math.exp(gap / 2) + k - 1)  # EM: P(best) = e^{g/2} / (e^{g/2} + k - 1)
    np.testing.assert_allclose(result.mean[0, :, 0], exact, atol=4 * gap * 0.5 / math.sqrt(4000))
    assert np.all(np.diff(result.mean[:, :, 0], axis=1) > 0)


def test_adversarial_design_shows_the_log_k_price():
    """One candidate (2/ε) ln k ahead of k − 1 others: the EM's expected loss is exactly g (k − 1)/(2k − 1)."""
    counts = np.array([2, 10, 100, 1000])
    result = exponential_mechanism_lesson.selection_loss_sweep(counts, np.array([1.0]), 20000, 3, design="adversarial")
    mean = result.curve("exponential_mechanism", "k")["mean"]
    exact = 2 * np.log(counts) * (counts - 1) / (2 * counts - 1)
    np.testing.assert_allclose(mean, exact, rtol=0.05)
    assert np.all(np.diff(mean) > 0)  # grows with k, like ln k


# --- the page's lesson: grids, companions, one run, takeaways ---------------------------------------------

def recording_runner(calls):
    """A ``run`` that records each sweep's function and parameters, checks they are JSON values, and computes."""
    def run(function, **params):
        assert json.loads(json.dumps(params)) == params  # no numpy scalars, no tuples: the app's cache key
        calls.append((function.__name__, params))
        return function(**params)
    return run


def test_page_sweeps_name_their_methods_by_id_and_pass_json_parameters():
    calls = []
    loss = exponential_mechanism_lesson.loss_vs_k(3, 0, run=recording_runner(calls))
    median = exponential_mechanism_lesson.median_vs_n(3, 0, run=recording_runner(calls))
    users = exponential_mechanism_lesson.user_level_vs_m(0.1, 3, 0, run=recording_runner(calls))
    assert [name for name, _ in calls] == ["selection_loss_sweep", "quantile_error_sweep", "user_level_sweep"]
    assert calls[0][1] == dict(candidate_counts=[2, 5, 10, 30, 100, 300, 1000], epsilons=[0.3, 1.0, 3.0], draws=30,
                               seed=0, design="adversarial")
    assert all(method in LABELS for result in (loss, median, users) for method in result.methods)
    assert users.methods == ("user_level_clipped", "group_privacy", "one_per_user")


def test_theory_companions_are_the_stated_formulas():
    loss = exponential_mechanism_lesson.loss_theory(0.3)
    k = np.array(exponential_mechanism_lesson.CANDIDATE_COUNTS, float)
    np.testing.assert_allclose(loss["exact"], (2 / 0.3) * np.log(k) * (k - 1) / (2 * k - 1))
    np.testing.assert_allclose(loss["bound"], (2 / 0.3) * (np.log(k) + math.log(10)))
    median = exponential_mechanism_lesson.median_theory(1.0)
    n = np.array(exponential_mechanism_lesson.MEDIAN_N, float)
    np.testing.assert_allclose(median["private"], 2 * (np.log(n + 1) + math.log(2)) * 0.1 * math.sqrt(2 * math.pi) / n)
    np.testing.assert_allclose(median["non_private"], stats.norm.ppf(0.75) * 0.1 * np.sqrt(math.pi / 2 / n))
    simulated = exponential_mechanism_lesson.median_vs_n(400, 0).curve("non_private", "n", epsilon=1.0)["median"]
    np.testing.assert_allclose(simulated, median["non_private"], rtol=0.2)  # the sample median's law, large n


def test_election_and_one_run_of_the_private_median():
    votes = exponential_mechanism_lesson.election(0.1, 0)
    np.testing.assert_allclose(votes["standard"], [0.2853, 0.3484, 0.3663], atol=5e-5)
    np.testing.assert_allclose(votes["monotone"], [0.2415, 0.3603, 0.3982], atol=5e-5)
    assert votes["sampled"].sum() == pytest.approx(1.0)
    run = exponential_mechanism_lesson.median_run(100, 1.0, 0)
    assert run["draws"].shape == (exponential_mechanism_lesson.ELECTION_DRAWS,)
    assert np.sum(run["density"] * np.diff(run["edges"])) == pytest.approx(1.0)
    assert 0.98 <= np.sum(run["histogram"]) * np.diff(run["centres"])[0] <= 1.0  # the central 99 % of the draws
    assert run["scores"].max() == 0.0 and run["sample_median"] == pytest.approx(0.3, abs=0.03)


def test_captions_quote_the_computation():
    assert "12.83× at α = 0.05, m = 20" in exponential_mechanism_lesson.savings_note()
    run = exponential_mechanism_lesson.median_run(300, 0.3, 2)
    assert exponential_mechanism_lesson.median_note(300, 0.3, 2) == (
        f"Sample median {run['sample_median']:.4f}; the 1,000 private medians have mean {run['draws'].mean():.4f} "
        f"and standard deviation {run['draws'].std():.4f}.")


@pytest.mark.parametrize("epsilon, frames", [(0.1, (0.3, 0.1)), (2.0, (3.0, 0.5))])
def test_takeaways_quote_the_numbers_of_the_sweeps_at_the_nearest_frames(epsilon, frames):
    calls = []
    lines = exponential_mechanism_lesson.takeaways(epsilon, 50, 20, 3, run=recording_runner(calls))
    selection_epsilon, user_epsilon = frames
    votes = exponential_mechanism_lesson.election(epsilon, 3)
    loss = exponential_mechanism_lesson.loss_vs_k(20, 3)
    em = loss.curve("exponential_mechanism", "k", epsilon=selection_epsilon)["mean"]
    pf = loss.curve("permute_and_flip", "k", epsilon=selection_epsilon)["mean"]
    users = exponential_mechanism_lesson.user_level_vs_m(user_epsilon, 20, 3)
    median = exponential_mechanism_lesson.median_run(50, epsilon, 3)
    assert len(lines) == 4 and calls[1][1]["epsilon"] == user_epsilon
    assert f"probability {votes['standard'][2]:.3f} with the factor 2 and {votes['monotone'][2]:.3f}" in lines[0]
    assert f"draws gave {votes['sampled'][2]:.3f}" in lines[0]
    assert (f"(ε = {selection_epsilon:g}) the exponential mechanism's mean loss grows from {em[0]:.2f} to "
            f"{em[-1]:.2f}") in lines[1] and f"permute-and-flip loses {pf[-1]:.2f} at k = 1,000" in lines[1]
    clipped, group = (users.curve(method, "per_user")["mean"][-1] for method in ("user_level_clipped", "group_privacy"))
    assert f"(ε = {user_epsilon:g}), clipping each user's score gives mean error {clipped:.3f} against {group:.3f}" \
        in lines[2]
    assert lines[3] == (f"The private median's 1,000 draws spread {median['draws'].std():.3f} around the sample median "
                        f"{median['sample_median']:.3f} at n = 50, ε = {epsilon:g}.")


SELECTION_MODULE = importlib.import_module("dpcore.mechanisms.exponential")


@pytest.mark.parametrize("select", [
    lambda scores, size: expmech.exponential(scores, 1.0, rng=4, size=size, method="gumbel"),
    lambda scores, size: expmech.report_noisy_max(scores, 1.0, rng=4, size=size),
])
def test_noisy_argmax_in_blocks_is_one_draw_number_for_number(select, monkeypatch):
    """Gumbel-max and report-noisy-max draw their noise in blocks of at most _BLOCK_CELLS values: NumPy's noise is
    one stream, so 1,000 draws in blocks of 7 rows (and a last one of 6) are the 1,000 draws made at once."""
    scores = np.random.default_rng(5).normal(0.0, 3.0, 50)
    at_once = select(scores, 1000)
    monkeypatch.setattr(SELECTION_MODULE, "_BLOCK_CELLS", 7 * 50)
    np.testing.assert_array_equal(select(scores, 1000), at_once)


def test_gumbel_rows_in_blocks_are_one_draw_number_for_number(monkeypatch):
    table = np.random.default_rng(6).normal(0.0, 3.0, (300, 40))
    at_once = expmech.exponential(table, 1.0, rng=8, method="gumbel")
    monkeypatch.setattr(SELECTION_MODULE, "_BLOCK_CELLS", 1)  # one row per block
    np.testing.assert_array_equal(expmech.exponential(table, 1.0, rng=8, method="gumbel"), at_once)


def test_permute_and_flip_in_blocks_keeps_its_law_and_one_block_is_unchanged(monkeypatch):
    """Permute-and-flip draws a block's permutations, then its acceptance uniforms: a run of one block equals the
    draw before blocks existed (written out here), and blocks of 3 draws keep the exact law (chi-square)."""
    scores = np.array([0.0, 1.0, 2.5, 0.5])
    generator = np.random.default_rng(9)
    accept = np.exp(EPSILON / 2 * (scores - scores.max()))
    order = np.argsort(generator.random((500, 4)), axis=1)
    written_out = order[np.arange(500), np.argmax(generator.random(order.shape) < accept[order], axis=1)]
    np.testing.assert_array_equal(expmech.permute_and_flip(scores, EPSILON, rng=9, size=500), written_out)
    monkeypatch.setattr(SELECTION_MODULE, "_BLOCK_CELLS", 3 * 4)
    draws = 60_000
    counts = np.bincount(expmech.permute_and_flip(scores, EPSILON, rng=10, size=draws), minlength=4)
    assert stats.chisquare(counts, draws * permute_and_flip_law(scores, EPSILON)).pvalue > 1e-3
