"""The one-run audit (dpcore.one_run_audit, docs/algorithms.md §7.4): the p-value test of Steinke, Nasr & Jagielski
2023 against an independent implementation, the paper's worked examples, coverage and power of simulated audits,
planted bugs, and the threshold-honesty demonstration."""

import math

import numpy as np
import pytest
from scipy import optimize, special, stats

from dpcore import one_run_audit as ora
from dpcore.core.validation import InvalidParameterError

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "one_run_p_value": dict(canaries=100, guesses=20, correct=15, epsilon=0.5, delta=1e-5),
    "one_run_epsilon": dict(canaries=100, guesses=20, correct=15, delta=1e-5, confidence=0.95),
    "one_run_audit": dict(m=200, guesses_in=20, guesses_out=20, epsilon=1.0, mode="isolated", bug=False, seed=0,
                          release="laplace", confidence=0.95),
    "ranked_inclusion": dict(m=200, epsilon=1.0, mode="aggregate", bug=True, seed=0, release="randomized-response"),
    "threshold_honesty": dict(epsilon=1.0, canaries=100, repetitions=10, thresholds=5, confidence=0.95, seed=0),
}


def reference_p_value(m, r, v, epsilon, delta):
    """The paper's p-value (their Appendix D), written again from scipy's binomial tail and mass function: the tail
    P[B >= v] plus 2 m delta times the largest average mass of the i counts just below v."""
    q = math.exp(epsilon) / (1 + math.exp(epsilon))
    tail = stats.binom.sf(v - 1, r, q)
    if delta == 0 or v == 0:
        return min(1.0, tail)
    best, running = 0.0, 0.0
    masses = stats.binom.pmf(np.arange(v - 1, -1, -1), r, q)
    for i, mass in enumerate(masses, start=1):
        running += mass
        best = max(best, running / i)
    return min(1.0, tail + 2 * m * delta * best)


def reference_epsilon(m, r, v, delta, confidence):
    """The largest epsilon the reference p-value rejects: Brent's root of p(epsilon) = 1 - confidence."""
    level = 1 - confidence
    gap = lambda epsilon: reference_p_value(m, r, v, epsilon, delta) - level
    if gap(0.0) >= 0:
        return 0.0
    high = 1.0
    while gap(high) < 0:
        high *= 2
    return optimize.brentq(gap, 0.0, high, xtol=1e-9)


def cases(count, seed):
    """Random (m, r, v, delta, confidence), the right guesses mostly above half of the guesses."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        m = int(rng.integers(10, 3000))
        r = int(rng.integers(1, m + 1))
        v = int(min(r, round(r * rng.uniform(0.4, 1.0))))
        yield m, r, v, float(rng.choice([0.0, 1e-7, 1e-5, 1e-3])), float(rng.choice([0.8, 0.9, 0.95, 0.99]))


def test_one_run_epsilon_is_the_papers_test_computed_independently():
    """At 150 random (m, r, v, delta, confidence): the same epsilon to 1e-3 as Brent's root of the reference p-value,
    and the value returned is rejected by that p-value (it is a lower bound, never above the root)."""
    for m, r, v, delta, confidence in cases(150, 43):
        bound = ora.one_run_epsilon(m, r, v, delta, confidence)
        assert bound == pytest.approx(reference_epsilon(m, r, v, delta, confidence), abs=1e-3), (m, r, v, delta)
        if bound > 0:
            assert reference_p_value(m, r, v, bound, delta) < 1 - confidence


def test_one_run_p_value_is_the_reference():
    for m, r, v, delta, _ in cases(100, 7):
        for epsilon in (0.0, 0.3, 1.0, 4.0):
            assert ora.one_run_p_value(m, r, v, epsilon, delta) == pytest.approx(
                reference_p_value(m, r, v, epsilon, delta), rel=1e-9, abs=1e-14)


def test_the_papers_worked_examples():
    """Appendix D's example, 75 right of 100 guesses on 1,000 canaries at delta = 1e-4: epsilon >= 0.673; and the
    white-box DP-SGD audit of their §7, 1,439 right of 1,510 on 100,000 canaries at delta = 1e-5: 2.675 (both at
    95 %, as quoted from arXiv:2305.08846v1)."""
    assert ora.one_run_epsilon(1000, 100, 75, 1e-4, 0.95) == pytest.approx(0.673, abs=1e-3)
    assert ora.one_run_epsilon(100_000, 1510, 1439, 1e-5, 0.95) == pytest.approx(2.675, abs=1e-3)


def test_pure_bound_in_closed_form_is_the_bisection():
    """For delta = 0 the bound is the logit of the one-sided Clopper-Pearson lower bound on v/r, which the vectorised
    simulations use; the bisection of one_run_epsilon finds it to 1e-6."""
    rng = np.random.default_rng(3)
    guesses = rng.integers(1, 2000, 200)
    correct = np.minimum(guesses, np.round(guesses * rng.uniform(0.3, 1.0, 200))).astype(int)
    closed = ora._pure_bounds(correct, guesses, 0.05)
    for r, v, bound in zip(guesses, correct, closed):
        assert ora.one_run_epsilon(int(r), int(r), int(v)) == pytest.approx(bound, abs=2e-6)


def test_edges_no_guess_no_right_guess_all_right():
    assert ora.one_run_epsilon(100, 0, 0) == 0.0
    assert ora.one_run_epsilon(100, 50, 0) == 0.0
    assert ora.one_run_epsilon(100, 50, 25) == 0.0
    # all of r right: q^r = 0.05, so epsilon = logit(0.05^(1/r))
    assert ora.one_run_epsilon(100, 10, 10) == pytest.approx(special.logit(0.05 ** 0.1), abs=1e-6)
    assert ora.one_run_p_value(100, 10, 0, 1.0, 1e-3) == 1.0


def test_delta_only_lowers_the_bound():
    for m, r, v, _, confidence in cases(40, 11):
        pure = ora.one_run_epsilon(m, r, v, 0.0, confidence)
        assert ora.one_run_epsilon(m, r, v, 1e-5, confidence) <= pure + 1e-6
        assert ora.one_run_epsilon(m, r, v, 1e-3, confidence) <= ora.one_run_epsilon(m, r, v, 1e-5, confidence) + 1e-6


@pytest.mark.parametrize("call, name", [
    (lambda: ora.one_run_epsilon(10, 11, 5), "guesses"),
    (lambda: ora.one_run_epsilon(10, 5, 6), "correct"),
    (lambda: ora.one_run_p_value(10, 5, 6, 1.0), "correct"),
    (lambda: ora.one_run_audit(100, 60, 41, 1.0), "guesses_in"),
])
def test_inconsistent_counts_are_rejected_naming_the_parameter(call, name):
    with pytest.raises(InvalidParameterError, match=name):
        call()


# ------------------------------------------------------------------------------------------------ simulated audits

def test_audit_counts_and_guesses_are_consistent_and_seeded():
    for mode, release in (("isolated", "randomized-response"), ("isolated", "laplace"), ("aggregate", "laplace")):
        audit = ora.one_run_audit(500, 40, 30, 1.0, mode=mode, seed=5, release=release)
        assert (np.sum(audit.guessed == 1), np.sum(audit.guessed == -1)) == (40, 30)
        assert audit.guesses == 70
        right = np.sum((audit.guessed == 1) & audit.included) + np.sum((audit.guessed == -1) & ~audit.included)
        assert audit.correct == right
        assert audit.epsilon_lower_bound == ora.one_run_epsilon(500, 70, audit.correct)
        # "in" guesses have the highest scores, "out" guesses the lowest
        assert audit.scores[audit.guessed == 1].min() >= audit.scores[audit.guessed == 0].max(initial=-np.inf)
        assert audit.scores[audit.guessed == -1].max() <= audit.scores[audit.guessed == 0].min(initial=np.inf)
        again = ora.one_run_audit(500, 40, 30, 1.0, mode=mode, seed=5, release=release)
        np.testing.assert_array_equal(audit.scores, again.scores)
        assert not np.array_equal(audit.included, ora.one_run_audit(500, 40, 30, 1.0, mode=mode, seed=6).included)


def test_isolated_randomized_response_guessing_everything_is_binomial():
    """Every canary guessed from its own randomized response: each guess is right with probability exactly
    e^eps / (1 + e^eps), independently."""
    audit = ora.one_run_audit(100_000, 50_000, 50_000, 1.0)
    assert audit.correct / audit.guesses == pytest.approx(special.expit(1.0), abs=0.005)


@pytest.mark.parametrize("mode, release, guesses", [
    ("isolated", "randomized-response", (250, 250)),
    ("isolated", "laplace", (50, 50)),
    ("aggregate", "laplace", (100, 100)),
])
def test_coverage_of_correct_mechanisms(mode, release, guesses):
    """400 audits of a correct 1-DP mechanism (500 canaries): the bound exceeds epsilon = 1 in at most 5 % of them,
    plus three binomial standard deviations."""
    bounds = np.array([ora.one_run_audit(500, *guesses, 1.0, mode=mode, seed=seed, release=release).epsilon_lower_bound
                       for seed in range(400)])
    assert np.mean(bounds > 1.0) <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / 400)


def test_power_isolated_randomized_response():
    """epsilon = 2, 1,000 canaries, every one guessed: the bound averages at least 1.4 (the expected accuracy 0.881
    gives about 1.84)."""
    bounds = [ora.one_run_audit(1000, 500, 500, 2.0, seed=seed).epsilon_lower_bound for seed in range(50)]
    assert np.mean(bounds) >= 1.4


@pytest.mark.parametrize("release, guesses", [("randomized-response", (500, 500)), ("laplace", (100, 100))])
def test_planted_bug_is_caught(release, guesses):
    """The mechanism calibrated for sensitivity 1/2 spends 2 epsilon: its bound exceeds the claimed epsilon = 1;
    the correct one's, on the same seed, does not."""
    assert ora.one_run_audit(1000, *guesses, 1.0, bug=True, seed=0, release=release).epsilon_lower_bound > 1.0
    assert ora.one_run_audit(1000, *guesses, 1.0, bug=False, seed=0, release=release).epsilon_lower_bound < 1.0


def test_interference_hides_even_the_bug_in_the_aggregate():
    """One shared noisy sum: each canary's score carries every other canary's bit as noise, so the one-run audit
    sees next to nothing, bug or no bug (Keinan, Shenfeld & Ligett 2025)."""
    for bug in (False, True):
        bounds = [ora.one_run_audit(1000, 100, 100, 4.0, mode="aggregate", bug=bug, seed=seed).epsilon_lower_bound
                  for seed in range(20)]
        assert np.mean(bounds) < 0.2


# ------------------------------------------------------------------------------------------------ threshold honesty

def test_threshold_honesty_rates():
    """1,000 audits of a correct 1-DP mechanism: the threshold picked on the same data overstates epsilon far more
    often than 5 %; Bonferroni over the thresholds and a split choice do not (beyond three binomial standard
    deviations)."""
    honesty = ora.threshold_honesty(1.0, canaries=1000, repetitions=1000, thresholds=30, seed=0)
    slack = 0.05 + 3 * math.sqrt(0.05 * 0.95 / 1000)
    assert honesty.naive_rate >= 0.12
    assert honesty.bonferroni_rate <= slack
    assert honesty.split_rate <= slack
    assert np.all(honesty.naive >= honesty.bonferroni)
    assert honesty.naive_rate == np.mean(honesty.naive > 1.0)
    assert honesty.thresholds[0] == 10 and honesty.thresholds[-1] == 1000


def test_threshold_honesty_bounds_are_one_run_bounds():
    """Each naive bound is the largest one_run_epsilon over the thresholds of its own audit (recomputed here from
    the same seeded draws)."""
    honesty = ora.threshold_honesty(2.0, canaries=200, repetitions=3, thresholds=8, seed=4)
    rng = np.random.default_rng([4, 4343])
    included = rng.integers(0, 2, (3, 200), dtype=bool)
    scores = included + rng.laplace(0.0, 0.5, (3, 200))
    for row in range(3):
        ranked = included[row][np.argsort(-scores[row])]
        best = max(ora.one_run_epsilon(200, int(k), int(ranked[:k].sum())) for k in honesty.thresholds)
        assert honesty.naive[row] == pytest.approx(best, abs=2e-6)


def previous_p_value(canaries, guesses, correct, epsilon, delta):
    """The p-value as the module computed it before the binomial coefficients were computed once per bisection
    (the same operations in the same order, for every ε)."""
    if correct == 0:
        return 1.0
    q = special.expit(epsilon)
    tail = float(special.bdtrc(correct - 1, guesses, q))
    if delta == 0.0:
        return min(tail, 1.0)
    below = np.arange(correct - 1, -1, -1, dtype=float)
    log_pmf = (special.gammaln(guesses + 1.0) - special.gammaln(below + 1) - special.gammaln(guesses - below + 1)
               + below * special.log_expit(epsilon) + (guesses - below) * special.log_expit(-epsilon))
    spread = np.max(np.cumsum(np.exp(log_pmf)) / np.arange(1, correct + 1))
    return min(tail + 2.0 * canaries * delta * float(spread), 1.0)


def previous_epsilon(canaries, guesses, correct, delta, confidence):
    """The bisection of one_run_epsilon on :func:`previous_p_value`."""
    rejected = lambda epsilon: previous_p_value(canaries, guesses, correct, epsilon, delta) < 1.0 - confidence
    if not rejected(0.0):
        return 0.0
    low, high = 0.0, 1.0
    while rejected(high):
        low, high = high, 2.0 * high
    while high - low > 1e-6:
        middle = 0.5 * (low + high)
        low, high = (middle, high) if rejected(middle) else (low, middle)
    return low


def test_the_p_value_and_the_bound_are_bit_for_bit_the_previous_ones():
    rng = np.random.default_rng(44)
    for m, r, v, delta, confidence in [*cases(150, 44), (10_000, 10_000, 10_000, 1e-4, 0.99), (1, 1, 1, 0.0, 0.9),
                                       (1, 0, 0, 1e-8, 0.9), (10_000, 10_000, 0, 1e-6, 0.95)]:
        epsilon = float(rng.uniform(0, 6))
        assert ora.one_run_p_value(m, r, v, epsilon, delta) == previous_p_value(m, r, v, epsilon, delta)
        assert ora.one_run_epsilon(m, r, v, delta, confidence) == previous_epsilon(m, r, v, delta, confidence)


@pytest.mark.parametrize("mode, release", [("isolated", "randomized-response"), ("isolated", "laplace"),
                                           ("aggregate", "randomized-response")])
@pytest.mark.parametrize("bug", [False, True])
def test_the_ranking_gives_every_audits_right_guesses(mode, release, bug):
    """One ranking of the run gives the right guesses of one_run_audit with the same run for any k+ and k-, the
    extremes (no guess, every canary guessed, all "in", all "out") among them."""
    for m, epsilon, seed in [(100, 0.2, 0), (1000, 1.0, 7), (10_000, 5.0, 2**31 - 1)]:
        ranked = ora.ranked_inclusion(m, epsilon, mode, bug, seed, release)
        for guesses_in, guesses_out in [(0, 0), (m, 0), (0, m), (m // 2, m - m // 2), (10, 5), (3, m // 3)]:
            audit = ora.one_run_audit(m, guesses_in, guesses_out, epsilon, mode, bug, seed, release)
            assert int(ranked[m - guesses_in:].sum() + (~ranked[:guesses_out]).sum()) == audit.correct
        audit = ora.one_run_audit(m, 0, 0, epsilon, mode, bug, seed, release)
        assert ranked.dtype == bool and ranked.sum() == audit.included.sum()
        if release == "laplace" or mode == "aggregate":  # scores without ties: the ranking is their order
            np.testing.assert_array_equal(ranked, audit.included[np.argsort(audit.scores)])
