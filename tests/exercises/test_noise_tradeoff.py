"""Check yourself on "Pure vs approximate DP", from each prompt's own numbers: the Laplace scale (the width over ε),
the Gaussian's σ for a clipped mean (ℓ₂ sensitivity 2C/n), the ε′ the zCDP Gaussian promises, and the task of δ far
below 1/n, found on the sample-size and δ sliders' own grids."""

import itertools
import math

import pytest

from dpcore.exercises.base import grade
from tests.exercises.checks_of_kinds import check_numeric, check_stated, check_words, over_seeds, page, read

EXERCISE, SPECS, DEFAULTS = page("pure-vs-approximate")


@over_seeds
def test_laplace_scale_is_the_width_over_epsilon(seed):
    made = EXERCISE["laplace_scale"].variant(seed)
    width, epsilon = read(r"lies in \$\[0, {}\]\$", made.prompt), read(r"\$\\varepsilon = {}\$", made.prompt)
    assert made.answer == pytest.approx(width / epsilon, rel=1e-12)
    assert made.tolerance == read(r"to within {}\)", made.prompt)
    check_numeric(made, {"ε multiplied": width * epsilon, "the sensitivity forgotten": 1 / epsilon})
    check_words(made)


@over_seeds
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


@over_seeds
def test_the_zcdp_gaussian_is_worth_rho_plus_two_root_rho_log_one_over_delta(seed):
    made = EXERCISE["zcdp_promise"].variant(seed)
    epsilon = read(r"privacy budget \$\\varepsilon = {}\$", made.prompt)
    delta = 10 ** -read(r"at \$\\delta = 10\^\{-{}\}\$", made.prompt)
    rho = epsilon**2 / 2
    promised = rho + 2 * math.sqrt(rho * math.log(1 / delta))
    assert promised > epsilon  # the weaker promise the page warns about
    mistakes = {"the same ε": epsilon, "ρ itself": rho,
                "ρ taken as ε": epsilon + 2 * math.sqrt(epsilon * math.log(1 / delta))}
    check_stated(made, r"\\varepsilon' (?:=|\\approx) {}\$", promised, mistakes)
    check_words(made)


@over_seeds
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
