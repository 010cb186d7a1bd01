"""Check yourself, "Pure vs approximate DP": every variant's answer equals a formula written here from the prompt's
numbers, graded as its kind says, on the page's own controls."""

import itertools
import math
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app_pages.settings import noise_tradeoff as page_settings
from dpcore.exercises import PAGES, noise_tradeoff
from dpcore.exercises.base import grade
from tests.exercises.checks_of_kinds import check_choice, check_numeric, check_words, read

SEEDS = st.integers(0, 2**48 - 1)
EXERCISE = {exercise.key: exercise for exercise in noise_tradeoff.EXERCISES}
SPECS = {spec.key: spec for spec in page_settings.SPECS}
DEFAULTS = {key: spec.default for key, spec in SPECS.items()}


def test_the_page_has_each_kind_and_is_registered():
    kinds = [exercise.kind for exercise in noise_tradeoff.EXERCISES]
    assert len(kinds) >= 3 and {"numeric", "choice", "on_page"} <= set(kinds)
    assert len(EXERCISE) == len(kinds) and "laplace_scale" in EXERCISE
    assert PAGES["pure-vs-approximate"] is noise_tradeoff.EXERCISES


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_laplace_scale_is_the_width_over_epsilon(seed):
    made = EXERCISE["laplace_scale"].variant(seed)
    width, epsilon = read(r"lies in \$\[0, {}\]\$", made.prompt), read(r"\$\\varepsilon = {}\$", made.prompt)
    assert made.answer == pytest.approx(width / epsilon, rel=1e-12)
    assert made.tolerance == read(r"to within {}\)", made.prompt)
    check_numeric(made, {"ε multiplied": width * epsilon, "the sensitivity forgotten": 1 / epsilon})
    check_words(made)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_gaussian_sigma_uses_the_l2_sensitivity_two_c_over_n(seed):
    made = EXERCISE["gaussian_sigma"].variant(seed)
    n, dimension, radius, epsilon = (read(pattern, made.prompt) for pattern in (
        r"\$n = {}\$", r"\$d = {}\$", r"\$C = {}\$", r"\$\\varepsilon = {}\$"))
    delta = 10 ** -read(r"\\delta = 10\^\{-{}\}", made.prompt)
    assert epsilon < 1  # where Dwork & Roth's (2014) classical rule is proved
    root = math.sqrt(2 * math.log(1.25 / delta))
    sigma = 2 * radius / n * root / epsilon
    assert made.answer == pytest.approx(sigma, rel=1e-12)
    assert made.tolerance == read(r"to within {}\)", made.prompt)
    check_numeric(made, {"the radius, not the diameter": sigma / 2, "the ℓ₁ sensitivity": sigma * math.sqrt(dimension),
                         "the square root forgotten": 2 * radius / n * root**2 / epsilon,
                         "the sum, not the mean": sigma * n})
    check_words(made)


def choice_number(choice: str) -> float:
    """The ε′ a choice of the zCDP exercise states."""
    return float(re.search(r"\\varepsilon' (?:=|\\approx) ([0-9.]+)\$", choice).group(1))


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_the_zcdp_gaussian_is_worth_rho_plus_two_root_rho_log_one_over_delta(seed):
    made = EXERCISE["zcdp_promise"].variant(seed)
    epsilon = read(r"privacy budget \$\\varepsilon = {}\$", made.prompt)
    delta = 10 ** -read(r"at \$\\delta = 10\^\{-{}\}\$", made.prompt)
    rho = epsilon**2 / 2
    promised = rho + 2 * math.sqrt(rho * math.log(1 / delta))
    stated = [choice_number(choice) for choice in made.choices]
    assert stated[int(made.answer)] == pytest.approx(promised, rel=6e-3)
    mistakes = {"the same ε": epsilon, "ρ itself": rho,
                "ρ taken as ε": epsilon + 2 * math.sqrt(epsilon * math.log(1 / delta))}
    wrong = sorted(value for index, value in enumerate(stated) if index != made.answer)
    assert wrong == pytest.approx(sorted(mistakes.values()), rel=6e-3)
    assert promised > epsilon  # the weaker promise the page warns about
    check_choice(made)
    check_words(made)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_delta_is_the_largest_power_of_ten_the_margin_allows(seed):
    made = EXERCISE["delta_rule"].variant(seed)
    n = read(r"sample size \$n\$ to \*\*{}\*\*", made.prompt)
    margin = read(r"at least {} times smaller", made.prompt)
    assert set(made.controls) <= set(SPECS) and set(made.controls) == {"n", "delta"}
    deltas, sizes = SPECS["delta"].options, SPECS["n"].options
    target = max(delta for delta in deltas if delta * n * margin <= 1 + 1e-9)
    assert n in sizes
    solving = [(size, delta) for size, delta in itertools.product(sizes, deltas)
               if made.accepts({**DEFAULTS, "n": size, "delta": delta})]
    assert solving == [(n, target)]  # on the controls' own grids, and only there
    assert grade("on_page", made, {**DEFAULTS, "n": n, "delta": target}).said == made.why
    assert not grade("on_page", made, {**DEFAULTS, "n": n, "delta": target * 10}).right
    assert not grade("on_page", made, {**DEFAULTS, "n": n, "delta": target / 10}).right
    check_words(made)


@pytest.mark.parametrize("key", list(EXERCISE))
@settings(max_examples=20, deadline=None)
@given(seed=SEEDS)
def test_a_seed_gives_the_same_variant(key, seed):
    first, again = EXERCISE[key].variant(seed), EXERCISE[key].variant(seed)
    assert (first.prompt, first.choices, first.solution, first.controls) == \
        (again.prompt, again.choices, again.solution, again.controls)
    assert first.answer == again.answer or (math.isnan(first.answer) and math.isnan(again.answer))


def test_seeds_vary_the_numbers():
    for key, exercise in EXERCISE.items():
        assert len({exercise.variant(seed).prompt for seed in range(30)}) >= 5, key


@pytest.mark.parametrize("key", list(EXERCISE))
def test_a_variant_is_drawn_and_checked_quickly(key):
    EXERCISE[key].variant(0)  # anything remembered is remembered now
    start = time.perf_counter()
    for seed in range(20):
        made = EXERCISE[key].variant(seed)
        if made.accepts is not None:
            made.accepts(DEFAULTS)
    assert (time.perf_counter() - start) / 20 < 0.05
