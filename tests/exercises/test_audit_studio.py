"""Check yourself on "Audit studio", from each prompt's own numbers: the one-run bound as the largest ε whose binomial
tail is below 1 − c (scipy's binomial law and a root finder, no Beta inverse), μ from one test's Clopper–Pearson upper
rates (scipy's Beta and normal quantiles), interference's spread (a simulation of the other canaries' bits), and the
task on the page: the first k at which the planted bug is caught, its bounds recomputed from the simulated counts."""

import functools
import math
import re

import numpy as np
import pytest
from scipy import optimize, special, stats

from dpcore.exercises import audit_studio
from dpcore.exercises.base import grade
from dpcore.one_run_audit import one_run_audit
from tests.exercises.checks_of_kinds import check_choice, check_numeric, check_words, over_seeds, page, read

EXERCISE, SPECS, DEFAULTS = page("audit-studio")


def tail_root(guesses: int, correct: int, level: float) -> float:
    """The success probability q at which P[Binomial(guesses, q) ≥ correct] = level (scipy's binomial tail)."""
    return optimize.brentq(lambda q: stats.binom.sf(correct - 1, guesses, q) - level, 1e-12, 1 - 1e-15,
                           xtol=1e-15, rtol=1e-15)


def one_run_bound(guesses: int, correct: int, confidence: float) -> float:
    """The largest ε rejected by P[Binomial(r, e^ε/(1+e^ε)) ≥ v] < 1 − confidence, pure DP (0 if none is)."""
    level = 1 - confidence
    if correct == 0 or stats.binom.sf(correct - 1, guesses, 0.5) >= level:
        return 0.0
    return float(special.logit(tail_root(guesses, correct, level)))


@over_seeds
def test_the_one_run_bound_is_the_largest_rejected_epsilon(seed):
    made = EXERCISE["one_run_bound"].variant(seed)
    m, guesses, correct = (int(read(pattern, made.prompt)) for pattern in (r"\$m = {}\$", r"\$r = {}\$",
                                                                            r"\$v = {}\$"))
    confidence, shown_q = read(r"\$c = {}\$", made.prompt), read(r"exactly at \$q = {}\$", made.prompt)
    assert confidence in SPECS["conf"].options and guesses <= m and correct < guesses
    level = 1 - confidence
    q = tail_root(guesses, correct, level)
    assert shown_q == float(f"{q:.5g}")
    bound = one_run_bound(guesses, correct, confidence)
    assert made.answer == pytest.approx(bound, abs=2e-6)
    # just below the answer ε is rejected, a little above it is not: the definition itself
    assert stats.binom.sf(correct - 1, guesses, special.expit(made.answer - 1e-4)) < level
    assert stats.binom.sf(correct - 1, guesses, special.expit(made.answer + 1e-3)) >= level
    assert abs(math.log(shown_q / (1 - shown_q)) - made.answer) < made.tolerance / 5  # the rounded q is enough
    assert made.tolerance == read(r"to within {}\)", made.prompt)
    check_numeric(made, {"the point estimate": math.log(correct / (guesses - correct)),
                         "no logarithm": q / (1 - q), "ln q alone": math.log(q)})
    check_words(made)


def upper_rate(errors: int, trials: int, level: float) -> float:
    """The one-sided Clopper–Pearson upper bound at level ``level``: the rate p with P[Binomial(trials, p) ≤ errors]
    = level, from scipy's Beta quantile."""
    return float(stats.beta.ppf(1 - level, errors + 1, trials - errors))


@over_seeds
def test_mu_is_the_normal_quantiles_of_the_upper_rates(seed):
    made = EXERCISE["gaussian_mu"].variant(seed)
    draws = int(read(r"\$N = {}\$", made.prompt))
    false_positives = int(read(r"on {} of the runs on \$X\$", made.prompt))
    false_negatives = int(read(r"on {} of the runs on \$X'\$", made.prompt))
    confidence = read(r"together with {} % confidence", made.prompt) / 100
    fpr_shown = read(r"\\mathrm\{FPR\} \\le {}\$", made.prompt)
    fnr_shown = read(r"\\mathrm\{FNR\} \\le {}\$", made.prompt)
    level = (1 - confidence) / 2  # the two rates' bounds hold together: Bonferroni
    fpr, fnr = upper_rate(false_positives, draws, level), upper_rate(false_negatives, draws, level)
    assert stats.binom.cdf(false_positives, draws, fpr) == pytest.approx(level, rel=1e-6)
    assert (fpr_shown, fnr_shown) == (float(f"{fpr:.4g}"), float(f"{fnr:.4g}"))
    mu = float(stats.norm.ppf(1 - fpr) - stats.norm.ppf(fnr))
    assert made.answer == pytest.approx(mu, abs=1e-9)
    from_shown = float(stats.norm.ppf(1 - fpr_shown) - stats.norm.ppf(fnr_shown))
    assert abs(from_shown - made.answer) < made.tolerance / 5
    assert made.tolerance == read(r"to within {}\)", made.prompt)
    check_numeric(made, {"the point estimates": float(stats.norm.ppf(1 - false_positives / draws)
                                                      - stats.norm.ppf(false_negatives / draws)),
                         "Φ⁻¹(FPR) for Φ⁻¹(1 − FPR)": float(stats.norm.ppf(fpr) - stats.norm.ppf(fnr))})
    check_words(made)


@over_seeds
def test_one_noisy_sum_is_spoilt_by_interference(seed):
    made = EXERCISE["interference"].variant(seed)
    m, epsilon = int(read(r"\$m = {}\$", made.prompt)), read(r"\\varepsilon = {}\$", made.prompt)
    correct, guesses = int(read(r"\$v = {}\$", made.prompt)), int(read(r"\$r = {}\$", made.prompt))
    each = int(read(r"\"in\" for its {} highest", made.prompt))
    confidence = read(r"at {} % confidence", made.prompt) / 100
    stated = read(r"confidence is \${}\$", made.prompt)
    assert guesses == 2 * each and stated == pytest.approx(one_run_bound(guesses, correct, confidence), abs=0.005)
    assert stated < 0.3 * epsilon
    right = made.choices[int(made.answer)]
    assert right.startswith("The canaries interfere")
    # the other canaries' bits: the sum of c_j (b_j − ½) has standard deviation √(m/12) (simulated here)
    rng = np.random.default_rng(seed % 1000)
    values = rng.uniform(-1, 1, m)
    sums = (rng.integers(0, 2, (400, m)) - 0.5) @ values
    spread = read(r"√\(m/12\) = {} \(one standard deviation\)", made.why)
    assert spread == pytest.approx(math.sqrt(m / 12), abs=0.05)
    assert spread == pytest.approx(np.std(sums), rel=0.15)
    # "too few guesses" is wrong: guessing every canary of the same sum still proves far less than the claim
    every = one_run_audit(m, m // 2, m - m // 2, epsilon, mode="aggregate", seed=seed % 1000, confidence=confidence)
    assert one_run_bound(every.guesses, every.correct, confidence) < 0.5 * epsilon
    check_choice(made)
    check_words(made)


def test_the_interference_answer_moves():
    assert {int(EXERCISE["interference"].variant(seed).answer) for seed in range(60)} == {0, 1, 2, 3}


MODES = {"randomized response for each canary": "randomized-response", "Laplace noise for each canary": "laplace"}


def task_of(prompt: str) -> dict:
    """The page's settings a task prompt names (read back)."""
    mode = next(value for words, value in MODES.items() if words in prompt)
    return dict(mode=mode, bug="bug", m=int(read(r"\$m = {}\$", prompt)), eps=read(r"claimed \$\\varepsilon = {}\$",
                                                                                      prompt),
                delta=0.0, conf=read(r"confidence {} %", prompt) / 100, seed=int(read(r"seed {} \(the", prompt)))


@over_seeds
def test_the_bug_is_caught_first_at_the_answer(seed):
    made = EXERCISE["catch_the_bug"].variant(seed)
    settings = task_of(made.prompt)
    assert set(made.controls) <= set(SPECS)
    assert settings["m"] in SPECS["m"].options and settings["eps"] in SPECS["eps"].options
    assert settings["conf"] in SPECS["conf"].options and settings["mode"] in SPECS["mode"].options
    steps = [int(k) for k in re.search(r"among ([0-9, ]+) at which", made.prompt).group(1).split(", ")]
    assert steps == list(audit_studio.GUESS_STEPS)
    for key in ("k_in", "k_out"):  # each k a value of the page's guesses controls (a list, or a range of integers)
        assert all(k in SPECS[key].options if SPECS[key].options else SPECS[key].low <= k <= SPECS[key].high
                   for k in steps)

    def bound_at(k: int) -> float:  # the simulated counts, their bound recomputed from scipy's binomial law
        audit = one_run_audit(settings["m"], k, k, settings["eps"], mode="isolated", bug=True, seed=settings["seed"],
                              release=settings["mode"], confidence=settings["conf"])
        assert audit.guesses == 2 * k
        return one_run_bound(audit.guesses, audit.correct, settings["conf"])

    bounds = []
    for k in steps:
        bounds.append(bound_at(k))
        if bounds[-1] > settings["eps"]:
            break
    answer = steps[len(bounds) - 1]
    assert bounds[-1] > settings["eps"] and len(bounds) > 1  # caught, and not at the first k
    assert all(abs(bound - settings["eps"]) >= audit_studio.MARGIN - 1e-5 for bound in bounds)
    # the all-right ceiling the second hint gives is never beaten
    for k, bound in zip(steps, bounds):
        assert bound <= special.logit((1 - settings["conf"]) ** (1 / (2 * k))) + 1e-9
    # one noisy sum of the same canaries misses the bug at the answer, as the why says
    summed = one_run_audit(settings["m"], answer, answer, settings["eps"], mode="aggregate", bug=True,
                           seed=settings["seed"], confidence=settings["conf"])
    assert one_run_bound(summed.guesses, summed.correct, settings["conf"]) <= settings["eps"]
    state = {**DEFAULTS, **settings, "k_in": answer, "k_out": answer}
    assert made.accepts(state) and grade("on_page", made, state).said == made.why
    for k in (steps[len(bounds) - 2], *steps[len(bounds):len(bounds) + 1]):
        assert not made.accepts({**state, "k_in": k, "k_out": k})
    assert not made.accepts({**state, "k_out": answer + 1})
    for changed in ({"bug": "correct"}, {"mode": "aggregate"}, {"seed": settings["seed"] + 1},
                    {"eps": 5.0 if settings["eps"] != 5.0 else 3.0}, {"delta": 1e-6},
                    {"conf": 0.9 if settings["conf"] != 0.9 else 0.95}, {"m": 100}, {"k_in": None},
                    {"k_in": str(answer)}):
        assert made.accepts({**state, **changed}) is False, changed
    assert made.accepts(DEFAULTS) is False and made.accepts({}) is False
    check_words(made)


def test_the_tasks_draw_both_releases_and_several_answers():
    made = [EXERCISE["catch_the_bug"].variant(seed) for seed in range(80)]
    assert {task_of(variant.prompt)["mode"] for variant in made} == set(MODES.values())
    answers = {int(re.search(r"set k₊ = k₋ = (\d+)", variant.solution).group(1)) for variant in made}
    assert len(answers) >= 3


@functools.lru_cache(maxsize=64)
def false_alarms(epsilon: float, count: int, confidence: float, repetitions: int = 4000) -> dict[str, float]:
    """Audits of a correct ε-DP release simulated here (each canary's bit plus Laplace noise of scale 1/ε, 500
    canaries, "in" for the k highest scores, K values of k spaced geometrically from 10 to 500): how often the best of
    the K bounds at level 1 − c (``naive``), the best at level (1 − c)/K (``bonferroni``) and the worst single k
    (``single``) exceed ε. A bound exceeds ε when the one-sided Clopper–Pearson lower end on the accuracy (scipy's
    Beta quantile) exceeds e^ε/(1+e^ε)."""
    canaries = audit_studio.HONEST_CANARIES
    rng = np.random.default_rng([count, int(100 * epsilon), int(1000 * confidence)])
    included = rng.integers(0, 2, (repetitions, canaries))
    scores = included + rng.laplace(0.0, 1 / epsilon, (repetitions, canaries))
    hits = np.cumsum(np.take_along_axis(included, np.argsort(-scores, axis=1), axis=1), axis=1)
    ks = np.unique(np.round(np.geomspace(10, canaries, count)).astype(int))
    assert ks.size == count
    right = hits[:, ks - 1]
    level = 1 - confidence

    def above(at: float) -> np.ndarray:
        low = np.where(right > 0, stats.beta.ppf(at, np.maximum(right, 1), ks - right + 1), 0.0)
        return low > special.expit(epsilon)

    return {"naive": float(np.mean(above(level).any(axis=1))),
            "bonferroni": float(np.mean(above(level / count).any(axis=1))),
            "single": float(np.max(np.mean(above(level), axis=0)))}


@over_seeds
def test_the_best_of_many_thresholds_overstates(seed):
    made = EXERCISE["honest_threshold"].variant(seed)
    epsilon = read(r"\$\\varepsilon = {}\$, is audited", made.prompt)
    count, confidence = int(read(r"\$K = {}\$", made.prompt)), read(r"\$c = {}\$", made.prompt)
    assert read(r"\$m = {}\$", made.prompt) == audit_studio.HONEST_CANARIES
    level = 1 - confidence
    assert made.choices[int(made.answer)].startswith(f"More often than 1 − c = {100 * level:g} %")
    rates = false_alarms(epsilon, count, confidence)
    spread = 3 * math.sqrt(level * confidence / 4000)
    assert rates["naive"] > level + spread  # the reported bound overstates more often than the confidence allows
    assert rates["single"] <= level + spread and rates["bonferroni"] <= level + spread  # each alone, and Bonferroni
    assert rates["naive"] < count * level  # the union bound is a limit, not the rate
    measured = read(r"in {} % of them", made.why) / 100
    assert abs(measured - rates["naive"]) <= 4 * math.sqrt(rates["naive"] * (1 - rates["naive"]) / 200) + 0.01
    union = next(choice for choice in made.choices if choice.startswith("As often as the union bound"))
    assert read(r"= {} % says", union) == pytest.approx(100 * count * level)
    assert read(r"\(1 − c\)/K = [0-9.]+ %/[0-9]+ = {} %", made.why) == pytest.approx(100 * level / count, rel=5e-3)
    check_choice(made)
    check_words(made)


def test_the_honest_threshold_answer_moves():
    assert {int(EXERCISE["honest_threshold"].variant(seed).answer) for seed in range(60)} == {0, 1, 2, 3}
