"""The audit lab's lesson: every planted bug is caught and every correct mechanism passes, at the page's default draw
count and at extreme ε; the letters hide which is which; the attacker game's rates match the exact ones."""

import math

import numpy as np
import pytest

from dpcore.lessons import audit_lab as lesson
from tests.examples import AUDIT

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "variant_letters": dict(mechanism="gaussian-mean", seed=0),
    "broken_letter": dict(mechanism="clipped-mean", seed=3),
    "broken_question": dict(mechanism="private-median", seed=2),
    "audit_draws": dict(mechanism="laplace-count", letter="A", epsilon=1.0, draws=1_000, seed=0),
    "audit_run": dict(AUDIT),
    "audit_path": dict(AUDIT),
    "verdict": dict(AUDIT),
    "takeaways": dict(AUDIT),
    "draw_counts": dict(draws=1_000),
    "reveal": dict(mechanism="private-median", seed=1),
    "attack_rounds": dict(epsilon=1.0, start=0, rounds=10, seed=0),
    "likelihood_ratio_guess": dict(releases=np.array([50.2, 50.9])),
    "attacker_rates": dict(members=[True, False], guesses=[True, True], confidence=0.95),
    "rates_text": dict(name="you", rates=lesson.attacker_rates([True, False], [True, True]), epsilon=1.0),
    "against_bound": dict(low=0.4439, high=0.9748, epsilon=1.0),
    "round_text": dict(epsilon=1.0, index=0, guess=True, seed=0),
    "likelihood_ratio_rates": dict(epsilon=1.0),
    "accuracy_bound": dict(epsilon=1.0),
}


MECHANISMS = list(lesson.MECHANISMS)


def letter_of(mechanism: str, seed: int, broken: bool) -> str:
    """The letter of the broken (or correct) variant, found from the variants' names, independently of
    :func:`lesson.broken_letter`."""
    names = lesson.variant_letters(mechanism, seed)
    index = next(i for i, name in enumerate(names)
                 if bool(next(v for v in lesson.MECHANISMS[mechanism].variants if v.name == name).broken) == broken)
    return chr(65 + index)


@pytest.mark.parametrize("epsilon", [1.0, 0.1, 5.0])  # the page's default, and the ends of its ε slider
@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_every_planted_bug_is_caught_and_every_correct_mechanism_passes(mechanism, epsilon):
    """At the default draw count (seed 0): the broken variant's lower bound exceeds the claimed ε, the correct one's
    does not (a correct ε-DP mechanism exceeds it with probability at most 1 − confidence = 5 %).

    One exception needs the slider's maximum, 10⁶ draws: the exponential mechanism at ε = 0.1, whose bug costs only
    0.1 more in ε (its true loss is 0.198 on these neighbours), on an outcome drawn about 1 % of the time."""
    draws = 1_000_000 if (mechanism, epsilon) == ("exponential-mechanism", 0.1) else lesson.DRAWS
    broken = lesson.audit_run(mechanism, letter_of(mechanism, 0, True), epsilon, draws, 0.95, 0)
    correct = lesson.audit_run(mechanism, letter_of(mechanism, 0, False), epsilon, draws, 0.95, 0)
    assert broken.epsilon_lower_bound > epsilon
    assert correct.epsilon_lower_bound <= epsilon
    assert lesson.verdict(mechanism, letter_of(mechanism, 0, True), epsilon, draws, 0.95, 0).startswith("**Caught.**")
    assert lesson.verdict(mechanism, letter_of(mechanism, 0, False), epsilon, draws, 0.95, 0).startswith(
        "**Not caught.**")


def test_the_laplace_audit_is_tight_and_halving_the_noise_doubles_the_loss():
    """Laplace at ε = 1 on counts 50 and 51: the best threshold event has likelihood ratio exactly e^ε, so the bound
    approaches 1 from below; with the scale halved the true loss is 2ε, and the bound approaches 2."""
    correct = lesson.audit_run("laplace-count", letter_of("laplace-count", 0, False), 1.0, 1_000_000, 0.95, 0)
    broken = lesson.audit_run("laplace-count", letter_of("laplace-count", 0, True), 1.0, 1_000_000, 0.95, 0)
    assert 0.9 < correct.epsilon_lower_bound <= 1.0
    assert 1.85 < broken.epsilon_lower_bound <= 2.0


def test_the_bound_grows_with_the_draws_and_a_weak_event_sees_less():
    path = lesson.audit_path("laplace-count", letter_of("laplace-count", 0, True), 1.0, lesson.DRAWS, 0.95, 0)
    assert path["draws"] == lesson.draw_counts(lesson.DRAWS) == [
        100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000]
    assert path["best"][0] < 1.0 < path["best"][-1]  # nothing caught at 100 draws, caught at 200,000
    assert path["weak"][-1] < path["best"][-1] - 0.3


def test_letters_are_shuffled_by_the_seed_and_reproducible():
    orders = {tuple(lesson.variant_letters("laplace-count", seed)) for seed in range(20)}
    assert orders == {("correct", "noise halved"), ("noise halved", "correct")}
    assert lesson.variant_letters("gaussian-mean", 7) == lesson.variant_letters("gaussian-mean", 7)
    first = lesson.audit_draws("clipped-mean", "A", 1.0, 1_000, 3)
    again = lesson.audit_draws("clipped-mean", "A", 1.0, 1_000, 3)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))


SEEDS = range(100)


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_each_letter_is_broken_about_half_the_time_for_every_mechanism(mechanism):
    """Over seeds 0–99, variant A is the broken one for between 35 and 65 seeds, for each mechanism: a fair shuffle
    gives a Binomial(100, 1/2) count, outside [35, 65] with probability 0.0035."""
    broken_a = sum(lesson.broken_letter(mechanism, seed) == "A" for seed in SEEDS)
    assert 35 <= broken_a <= 65, broken_a
    assert all(lesson.broken_letter(mechanism, seed) == letter_of(mechanism, seed, True) for seed in SEEDS)


def test_the_shuffle_differs_between_mechanisms_at_one_seed():
    """The letters are drawn per mechanism and seed, not per seed alone: any two mechanisms put their bug under the
    same letter for between 35 and 65 of the seeds 0–99 (independent fair shuffles: Binomial(100, 1/2)), and all six
    agree at few seeds (the seed-only shuffle made them agree at every seed: A at seeds 0, 1 and 2)."""
    letters = {mechanism: [lesson.broken_letter(mechanism, seed) for seed in SEEDS] for mechanism in MECHANISMS}
    for index, first in enumerate(MECHANISMS):
        for second in MECHANISMS[index + 1:]:
            same = sum(a == b for a, b in zip(letters[first], letters[second]))
            assert 35 <= same <= 65, (first, second, same)
    alike = sum(len({letters[mechanism][seed] for mechanism in MECHANISMS}) == 1 for seed in SEEDS)
    assert alike <= 10, alike  # all six alike: probability 1/32 a seed, Binomial(100, 1/32) > 10 w.p. 1e-4
    assert all(len({letters[mechanism][seed] for mechanism in MECHANISMS}) == 2 for seed in (0, 1))


def test_the_shuffle_is_reproducible_and_pinned():
    """The same mechanism and seed always give the same letter (a link reopens the same puzzle); the letters at
    seed 0 are pinned, so a change of the draw shows here."""
    assert [lesson.broken_letter(mechanism, 0) for mechanism in MECHANISMS] == ["B", "B", "B", "A", "B", "A"]
    assert [lesson.broken_letter("laplace-count", seed) for seed in range(10)] == list("BABAAAAABB")
    assert [lesson.broken_letter("laplace-count", seed) for seed in range(10)] == \
        [lesson.broken_letter("laplace-count", seed) for seed in range(10)]


def test_the_guess_question_asks_per_mechanism_and_seed():
    question = lesson.broken_question("exponential-mechanism", 4)
    assert question.choices == ("A", "B")
    assert question.choices[question.answer] == lesson.broken_letter("exponential-mechanism", 4) == "A"
    assert question.key == "broken_exponential_mechanism_4" != lesson.broken_question("exponential-mechanism", 5).key
    assert "Variant A has the planted bug: P(h) ∝ exp(ε·score) instead of exp(ε·score/2)." in question.explanation
    assert question.feedback(1).startswith("Not quite: you said B; the answer is **A**.")
    assert question.feedback(0).startswith("Right: **A**.")


def test_before_the_guess_the_takeaways_give_nothing_away():
    hidden = lesson.takeaways("laplace-count", "B", 1.0, lesson.DRAWS, 0.95, 0, revealed=False)
    assert not any("caught" in line or "ε ≥" in line for line in hidden)
    shown = lesson.takeaways("laplace-count", "B", 1.0, lesson.DRAWS, 0.95, 0)
    assert any("Variant B is caught" in line for line in shown)


def test_reveal_names_the_broken_variant():
    lines = lesson.reveal("exponential-mechanism", 0)
    broken = letter_of("exponential-mechanism", 0, True)
    assert f"Variant {broken}: broken: P(h) ∝ exp(ε·score) instead of exp(ε·score/2)." in lines
    assert len(lines) == 2


@pytest.mark.parametrize("call, message", [
    (lambda: lesson.audit_run("laplace-count", "C", 1.0, 1_000, 0.95, 0), "letter must be one of"),
    (lambda: lesson.audit_run("laplace", "A", 1.0, 1_000, 0.95, 0), "mechanism must be one of"),
    (lambda: lesson.audit_run("laplace-count", "A", 0.0, 1_000, 0.95, 0), "epsilon"),
    (lambda: lesson.audit_run("laplace-count", "A", 1.0, 10, 0.95, 0), "draws"),
    (lambda: lesson.audit_run("laplace-count", "A", 1.0, 1_000, 1.0, 0), "confidence"),
])
def test_bad_input_is_refused_with_the_parameter_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ---------------------------------------------------------------------------- the attacker game

def test_the_best_attackers_rates_match_the_exact_ones_within_their_intervals():
    """20,000 rounds at ε = 1 played by the likelihood-ratio attacker: exact TPR = 1 − e^{−1/2}/2 = 0.6967 and
    FPR = e^{−1/2}/2 = 0.3033 lie in the 99 % Clopper–Pearson intervals of the empirical rates."""
    rounds = lesson.attack_rounds(1.0, 0, 20_000, 0)
    rates = lesson.attacker_rates(rounds["member"], lesson.likelihood_ratio_guess(rounds["release"]), 0.99)
    exact = lesson.likelihood_ratio_rates(1.0)
    assert exact["tpr"] == pytest.approx(0.69673, abs=1e-5) and exact["fpr"] == pytest.approx(0.30327, abs=1e-5)
    for name in ("tpr", "fpr"):
        low, high = rates[f"{name}_interval"]
        assert low <= exact[name] <= high, name
    assert abs(rounds["member"].mean() - 0.5) < 0.02  # a fair coin: 4.5 standard errors


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 5.0])
def test_the_best_attacker_stays_within_the_dp_bound(epsilon):
    best = lesson.likelihood_ratio_rates(epsilon)
    assert best["tpr"] <= math.exp(epsilon) * best["fpr"] + 1e-12
    assert best["accuracy"] <= lesson.accuracy_bound(epsilon)
    assert lesson.accuracy_bound(1.0) == pytest.approx(math.e / (1 + math.e))


def test_attacker_rates_count_hits_and_false_alarms():
    rates = lesson.attacker_rates([True, True, False, False], [True, False, True, False])
    assert (rates["tpr"], rates["fpr"], rates["accuracy"], rates["rounds"]) == (0.5, 0.5, 0.5, 4)
    with pytest.raises(ValueError, match="same length"):
        lesson.attacker_rates([True], [True, False])


@pytest.mark.parametrize("right, rounds, low, high", [
    (8, 10, 0.44390, 0.97479),  # the classic table values of the exact interval
    (0, 10, 0.0, 0.30850),
    (10, 10, 0.69150, 1.0),
    (50, 100, 0.39832, 0.60168),
])
def test_the_accuracy_interval_is_the_exact_clopper_pearson_one(right, rounds, low, high):
    members = [True] * rounds
    rates = lesson.attacker_rates(members, [True] * right + [False] * (rounds - right))
    assert (rates["right"], rates["rounds"]) == (right, rounds)
    assert rates["accuracy_interval"] == pytest.approx((low, high), abs=5e-5)


@pytest.mark.parametrize("right, rounds, where, words", [
    (8, 10, "contains", "That is above 73.1 %, the most a 1-DP attacker can expect, but the range still contains it: "
                        "after 10 rounds that can be luck."),
    (6, 10, "contains", "10 rounds cannot tell yet whether the true accuracy is below it"),
    (90, 100, "above", "That whole range lies above 73.1 %, the most a 1-DP attacker can expect. Luck does that less "
                       "than 2.5 % of the time, so something is wrong: this release is not 1-DP, or the mechanism has "
                       "a bug (or the answers were known: the same seed replays the same rounds)."),
    (600, 1000, "below", "That whole range lies below 73.1 %"),
])
def test_the_record_says_whether_beating_the_bound_may_be_luck(right, rounds, where, words):
    """The issue's 10 hand-played rounds: 8 right (80 %) beats 73.1 % but its interval [44.4 %, 97.5 %] holds the
    bound, so the record calls it possible luck; 90 of 100 has [82.4 %, 95.1 %], wholly above: not 1-DP."""
    rates = lesson.attacker_rates([True] * rounds, [True] * right + [False] * (rounds - right))
    assert lesson.against_bound(*rates["accuracy_interval"], 1.0) == where
    text = lesson.rates_text("you", rates, 1.0)
    assert words in text
    assert f"right {right:,} times ({100 * right / rounds:.1f} %)" in text


def test_against_bound_at_the_edges():
    bound = lesson.accuracy_bound(2.0)
    assert bound == pytest.approx(0.880797, abs=1e-6)
    assert lesson.against_bound(bound, 1.0, 2.0) == "contains"  # touching the bound is not above it
    assert lesson.against_bound(bound + 1e-9, 1.0, 2.0) == "above"
    assert lesson.against_bound(0.0, bound - 1e-9, 2.0) == "below"


def test_each_round_says_whether_the_target_was_in():
    rounds = lesson.attack_rounds(1.0, 0, 3, 0)  # seed 0: out, out, in
    assert rounds["member"].tolist() == [False, False, True]
    assert lesson.round_text(1.0, 0, True, 0) == ("Round 1: the released count was 50.22 and you said **in**. The "
                                                  "target was **out**: wrong.")
    assert lesson.round_text(1.0, 2, True, 0).endswith("The target was **in**: right.")


def previous_counts(outputs, events):
    """The event counts as the library found them before an even grid was binned by arithmetic: each output placed
    among the sorted thresholds by a binary search (or, for discrete outputs, counted per outcome)."""
    if isinstance(events, int):
        return np.bincount(outputs.astype(int), minlength=events)[:events]
    order = np.argsort(events, kind="stable")
    below = np.searchsorted(events[order], outputs, side="left")
    counts = np.empty(events.size, dtype=int)
    counts[order] = outputs.size - np.cumsum(np.bincount(below, minlength=events.size + 1))[:-1]
    return counts


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_the_path_is_bit_for_bit_the_previous_one(mechanism):
    """Each prefix's bound and best event, from counts found as before, at the page's extremes (ε 0.1 and 5, 1,000
    and 1,000,000 draws, confidence 0.9 and 0.99)."""
    from dpcore.audit import epsilon_lower_bound

    spec = lesson.MECHANISMS[mechanism]
    for letter, epsilon, draws, confidence, seed in (("A", 0.1, 1_000, 0.9, 0), ("B", 5.0, 1_000_000, 0.99, 5),
                                                     ("A", 1.0, 200_000, 0.95, 2**31 - 1)):
        path = lesson.audit_path(mechanism, letter, epsilon, draws, confidence, seed)
        for index, count in enumerate(path["draws"]):
            best = epsilon_lower_bound(previous_counts(path["x"][:count], path["events"]),
                                       previous_counts(path["neighbour"][:count], path["events"]), count, spec.delta,
                                       confidence)
            assert path["best"][index] == best.epsilon_lower_bound
            assert (path["p_lower"][index], path["q_upper"][index]) == (best.p_lower, best.q_upper)
