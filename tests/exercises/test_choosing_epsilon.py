"""Check yourself on "Choosing ε", from each prompt's own numbers: the smallest ε of a count or a mean within ±t at
confidence c (the Laplace law inverted, and checked against scipy's Laplace distribution), a histogram's ε with every
bin at once, the factor a k-times sharper target costs, and the task on the page's plan (graded from the plan's text
as the page's URL holds it)."""

import importlib.util
import math
import re

import pytest
from scipy import optimize, stats

from dpcore import planning
from dpcore.exercises import PAGES, choosing_epsilon
from dpcore.exercises.base import grade
from tests.exercises.checks_of_kinds import check_choice, check_numeric, check_words, over_seeds, read, value

EXERCISE = {exercise.key: exercise for exercise in PAGES["choosing-epsilon"]}


def release_in(prompt: str) -> dict:
    """The count or mean a prompt describes: its kind, its sensitivity Δ, and for a mean n, L, U (read back)."""
    if "a count" in prompt:
        return dict(kind="count", sensitivity=1.0)
    n = read(r"\$n = {}\$", prompt)
    lower, upper = map(value, re.search(r"\[L, U\] = \[([0-9.]+), ([0-9.]+)\]", prompt).groups())
    return dict(kind="mean", sensitivity=(upper - lower) / n, n=n, lower=lower, upper=upper)


def laplace_epsilon(sensitivity: float, target: float, confidence: float, bins: int = 1) -> float:
    """The smallest ε with P(|Lap(Δ/ε)| ≤ t)^bins ≥ c, a root found on scipy's Laplace law (no closed form used)."""
    def short(log_epsilon: float) -> float:
        scale = sensitivity / math.exp(log_epsilon)
        within = stats.laplace.cdf(target, scale=scale) - stats.laplace.cdf(-target, scale=scale)
        return within ** bins - confidence
    return math.exp(optimize.brentq(short, math.log(1e-6), math.log(1e6), xtol=1e-13, rtol=1e-13))


@over_seeds
def test_the_epsilon_of_a_target_inverts_the_laplace_law(seed):
    made = EXERCISE["target_epsilon"].variant(seed)
    release = release_in(made.prompt)
    target, confidence = read(r"\$t = {}\$", made.prompt), read(r"\$c = {}\$", made.prompt)
    sensitivity = release["sensitivity"]
    formula = sensitivity * math.log(1 / (1 - confidence)) / target
    assert made.answer == pytest.approx(formula, rel=1e-9)
    assert made.answer == pytest.approx(laplace_epsilon(sensitivity, target, confidence), rel=1e-6)
    assert 0.05 <= made.answer <= 5
    assert made.tolerance == read(r"to within {}\)", made.prompt)
    mistakes = {"no logarithm": sensitivity / target, "ln(1/c)": sensitivity * math.log(1 / confidence) / target}
    if release["kind"] == "mean":
        mistakes["a count's sensitivity"] = math.log(1 / (1 - confidence)) / target
    check_numeric(made, mistakes)
    check_words(made)


@over_seeds
def test_a_histograms_epsilon_holds_every_bin_at_once(seed):
    made = EXERCISE["histogram_epsilon"].variant(seed)
    bins = read(r"\$B = {}\$", made.prompt)
    target, confidence = read(r"\$t = {}\$", made.prompt), read(r"\$c = {}\$", made.prompt)
    formula = 2 * math.log(1 / (1 - confidence ** (1 / bins))) / target
    assert made.answer == pytest.approx(formula, rel=1e-9)
    assert made.answer == pytest.approx(laplace_epsilon(2.0, target, confidence, int(bins)), rel=1e-6)
    assert made.tolerance == read(r"to within {}\)", made.prompt)
    check_numeric(made, {"one bin at c": 2 * math.log(1 / (1 - confidence)) / target,
                         "sensitivity 1": formula / 2, "the budget split over the bins": formula * bins})
    check_words(made)


def stated_factor(choice: str) -> float:
    """The factor a choice states: "ε multiplied by 3" is 3, "ε divided by 3" is 1/3."""
    found = re.match(r"ε (multiplied|divided) by ([0-9.]+)", choice)
    assert found, choice
    number = float(found.group(2))
    return number if found.group(1) == "multiplied" else 1 / number


@over_seeds
def test_a_k_times_sharper_target_costs_k_times_the_epsilon(seed):
    made = EXERCISE["sharper_target"].variant(seed)
    release = release_in(made.prompt)
    target, confidence = read(r"\(\$t = {}\$\)", made.prompt), read(r"\$c = {}\$", made.prompt)
    before = read(r"\$\\varepsilon = {}\$", made.prompt)
    factor = read(r"\$\\pm t/{}\$", made.prompt)
    epsilon = release["sensitivity"] * math.log(1 / (1 - confidence)) / target
    assert before == pytest.approx(epsilon, rel=1e-3)  # stated to four digits
    sharper = laplace_epsilon(release["sensitivity"], target / factor, confidence)
    factors = [stated_factor(choice) for choice in made.choices]
    assert factors[int(made.answer)] == pytest.approx(sharper / epsilon, rel=1e-6) == factor
    wrong = sorted(stated for index, stated in enumerate(factors) if index != made.answer)
    assert wrong == pytest.approx(sorted([math.sqrt(factor), factor ** 2, 1 / factor]), rel=6e-3)
    check_choice(made)
    check_words(made)


def plan_of(*releases: planning.Release) -> dict:
    """The page's controls with a plan of these releases, as its URL writes it."""
    return {"plan": planning.plan_text(releases), "delta": 1e-6, "budget": 1.0, "seed": 0}


@over_seeds
def test_the_task_on_the_page_takes_the_sharpest_target_within_the_cap(seed):
    made = EXERCISE["plan_a_release"].variant(seed)
    assert made.controls == ("plan",)
    release = release_in(made.prompt)
    confidence = read(r"\$c = {}\$", made.prompt)
    cap = read(r"may be at most \${}\$", made.prompt)
    step = 1.0 if "a whole number" in made.prompt else read(r"a multiple of {} \(", made.prompt)
    assert cap in choosing_epsilon.CAPS and confidence in choosing_epsilon.CONFIDENCES
    sensitivity = release["sensitivity"]
    answer = round(math.ceil(sensitivity * math.log(1 / (1 - confidence)) / cap / step) * step, 9)
    # the cap met at the answer, missed a step sharper, each by 1 % at least: the page's ε to 3 digits says so
    assert laplace_epsilon(sensitivity, answer, confidence) <= 0.99 * cap
    assert laplace_epsilon(sensitivity, answer - step, confidence) >= 1.01 * cap

    def planned(error: float, **changed) -> planning.Release:
        fields = dict(kind=release["kind"], error=error, confidence=confidence, mechanism="laplace")
        if release["kind"] == "mean":
            fields.update(lower=release["lower"], upper=release["upper"], n=int(release["n"]))
        return planning.Release(**{**fields, **changed})

    right = planned(answer)
    assert made.accepts(plan_of(right))
    assert made.accepts(plan_of(*planning.WORKED_EXAMPLE, right))  # beside other releases too
    assert grade("on_page", made, plan_of(right)).said == made.why
    other = 0.95 if confidence != 0.95 else 0.99
    missed = [planned(answer - step), planned(answer + step), planned(answer, confidence=other)]
    if release["kind"] == "mean":
        missed += [planned(answer, n=int(release["n"]) + 1), planned(answer, upper=release["upper"] + 1),
                   planned(answer, mechanism="gaussian")]
    else:
        missed += [planned(answer, mechanism="gaussian"), planning.Release("histogram", answer, confidence, bins=1)]
    for wrong in missed:
        assert not made.accepts(plan_of(wrong)), wrong
    assert not made.accepts(plan_of(*planning.WORKED_EXAMPLE))  # the page's own start does not solve it
    for bad in ({}, {"plan": None}, {"plan": 3.0}, {"plan": "count:t=-1"}, {"plan": "not a plan"}):
        assert made.accepts(bad) is False
    check_words(made)


def test_the_task_on_the_page_uses_the_pages_plan_control():
    """The task reads the plan as the page's settings name it (the page's own module, when it exists)."""
    if importlib.util.find_spec("app_pages.settings.choosing_epsilon") is None:
        pytest.skip("the page's settings (app_pages/settings/choosing_epsilon.py) are not written yet")
    settings = importlib.import_module("app_pages.settings.choosing_epsilon")
    keys = {spec.key for spec in settings.SPECS}
    made = EXERCISE["plan_a_release"].variant(0)
    assert set(made.controls) <= keys


def test_the_tasks_draw_counts_and_means_at_every_confidence_and_cap():
    prompts = [EXERCISE["plan_a_release"].variant(seed).prompt for seed in range(300)]
    assert any("a count" in prompt for prompt in prompts) and any("the mean of" in prompt for prompt in prompts)
    assert {read(r"\$c = {}\$", prompt) for prompt in prompts} == set(choosing_epsilon.CONFIDENCES)
    assert {read(r"may be at most \${}\$", prompt) for prompt in prompts} == set(choosing_epsilon.CAPS)
